// Database leases (table job_leases): whoever holds an unexpired lease on a name runs that job.
// Taking a lease is one atomic UPDATE … WHERE (lease free or expired or already mine) [AND the
// scheduled slot was not run yet], so with several instances each run happens once. A lease is
// renewed while its run goes on and simply expires if the instance dies; the next look at the
// table (reapExpired) records such a run as failed, or another instance takes the dead run over
// (takeOver: one atomic UPDATE, so one instance wins) and runs that slot again to the end.
import crypto from 'node:crypto';
import os from 'node:os';
import type { Db } from '../db';
import type { Clock } from './clock';

export interface LeaseRow {
  name: string;
  holder: string | null;
  leaseUntil: string | null;
  lastRunAt: string | null;
  lastStatus: string | null;
  lastError: string | null;
  registeredAt: string | null;
  lastSlot: string | null;
  lastFinishedAt: string | null;
  lastRecordId: number | null;
}

interface Row {
  name: string;
  holder: string | null;
  lease_until: string | null;
  last_run_at: string | null;
  last_status: string | null;
  last_error: string | null;
  registered_at: string | null;
  last_slot: string | null;
  last_finished_at: string | null;
  last_record_id: number | null;
}

const fromRow = (r: Row): LeaseRow => ({
  name: r.name,
  holder: r.holder,
  leaseUntil: r.lease_until,
  lastRunAt: r.last_run_at,
  lastStatus: r.last_status,
  lastError: r.last_error,
  registeredAt: r.registered_at,
  lastSlot: r.last_slot,
  lastFinishedAt: r.last_finished_at,
  lastRecordId: r.last_record_id === null || r.last_record_id === undefined ? null : Number(r.last_record_id),
});

export type RunOutcome = { status: 'success' | 'partial' | 'failed'; error?: string | null };

export const newHolderId = () => `${os.hostname()}:${process.pid}:${crypto.randomBytes(4).toString('hex')}`;

export interface LeaseOptions {
  db: Db;
  clock: Clock;
  holder?: string;
  ttlSeconds: number;
  /** Called for each run found dead (its lease expired while it was "running"). */
  onReaped?: (row: LeaseRow, error: string) => Promise<void>;
}

export function createLeases({ db, clock, holder = newHolderId(), ttlSeconds, onReaped }: LeaseOptions) {
  const running = new Set<string>();
  let handedBack = false;
  const iso = (ms = 0) => new Date(clock.now().getTime() + ms).toISOString();

  async function ensure(name: string): Promise<void> {
    await db('job_leases').insert({ name, registered_at: iso() }).onConflict('name').ignore();
  }

  async function get(name: string): Promise<LeaseRow | undefined> {
    const r = await db<Row>('job_leases').where({ name }).first();
    return r ? fromRow(r) : undefined;
  }

  async function list(prefix: string): Promise<LeaseRow[]> {
    const rows = await db<Row>('job_leases').where('name', 'like', `${prefix.replace(/[%_]/g, '')}%`).orderBy('name');
    return rows.map(fromRow);
  }

  /** Take the lease (atomically). With a slot: only if that scheduled time was not run yet. */
  async function acquire(name: string, slot?: string): Promise<boolean> {
    if (handedBack) return false;
    await ensure(name);
    const now = iso();
    const q = db('job_leases')
      .where({ name })
      .where((w) => w.whereNull('lease_until').orWhere('lease_until', '<', now).orWhere('holder', holder));
    if (slot) q.where((w) => w.whereNull('last_slot').orWhere('last_slot', '<', slot));
    const patch: Record<string, unknown> = { holder, lease_until: iso(ttlSeconds * 1000), last_run_at: now, last_status: 'running', last_error: null, last_record_id: null };
    if (slot) patch.last_slot = slot;
    return (await q.update(patch)) === 1;
  }

  const renew = async (name: string) => (handedBack ? 0 : db('job_leases').where({ name, holder }).update({ lease_until: iso(ttlSeconds * 1000) }));

  const setRecord = (name: string, recordId: number) => db('job_leases').where({ name, holder }).update({ last_record_id: recordId });

  async function finish(name: string, outcome: RunOutcome): Promise<void> {
    await db('job_leases')
      .where({ name, holder })
      .update({ holder: null, lease_until: null, last_status: outcome.status, last_error: outcome.error ?? null, last_finished_at: iso() });
  }

  /** Runs whose lease expired while "running": their instance died. Mark them failed (once). */
  async function reapExpired(prefix = ''): Promise<LeaseRow[]> {
    const now = iso();
    const rows = (await db<Row>('job_leases').where('last_status', 'running').where('lease_until', '<', now).where('name', 'like', `${prefix}%`)).map(fromRow);
    const reaped: LeaseRow[] = [];
    for (const row of rows) {
      const error = `The run stopped before it finished (instance ${row.holder ?? '?'} stopped renewing its lease at ${row.leaseUntil})`;
      const n = await db('job_leases')
        .where({ name: row.name, last_status: 'running', lease_until: row.leaseUntil })
        .update({ holder: null, lease_until: null, last_status: 'failed', last_error: error, last_finished_at: now });
      if (n === 1) {
        reaped.push(row);
        if (onReaped) await onReaped(row, error);
      }
    }
    return reaped;
  }

  /** Does `holder` still hold an unexpired lease (any name)? An instance whose leases all ran out is dead. */
  async function holderAlive(who: string | null): Promise<boolean> {
    if (!who) return false;
    return Boolean(await db('job_leases').where({ holder: who }).where('lease_until', '>=', iso()).first('name'));
  }

  /**
   * Take over a dead run (its lease expired while "running"): one atomic UPDATE that only one
   * instance wins. The dead run is recorded as failed (onReaped); the winner holds the lease with
   * the same slot and must run it (`run(name, {claimed: true}, …)`).
   */
  async function takeOver(row: LeaseRow): Promise<boolean> {
    if (handedBack) return false;
    const now = iso();
    const q = db('job_leases').where({ name: row.name, last_status: 'running', lease_until: row.leaseUntil }).where('lease_until', '<', now);
    if (row.holder) q.where('holder', row.holder);
    else q.whereNull('holder');
    const n = await q.update({ holder, lease_until: iso(ttlSeconds * 1000), last_run_at: now, last_error: null, last_record_id: null });
    if (n !== 1) return false;
    const error = `The run stopped before it finished (instance ${row.holder ?? '?'} stopped renewing its lease at ${row.leaseUntil}); taken over by ${holder}`;
    if (onReaped) await onReaped(row, error);
    return true;
  }

  /**
   * Run `fn` under the lease `name`. Answers {ran:false} when another instance (or this one)
   * holds it, or the slot was already run. The lease is renewed while fn runs; its outcome is
   * recorded on the lease row (a thrown error → failed, with the message).
   */
  async function run<T extends RunOutcome>(
    name: string,
    opts: { slot?: string; claimed?: boolean },
    fn: (lease: { setRecord(id: number): Promise<void> }) => Promise<T>,
  ): Promise<{ ran: false } | { ran: true; value: T }> {
    if (running.has(name)) return { ran: false };
    running.add(name);
    try {
      if (!opts.claimed) {
        await reapExpired(name);
        if (!(await acquire(name, opts.slot))) return { ran: false };
      }
      const timer = setInterval(() => void renew(name).catch(() => {}), Math.max(1000, (ttlSeconds * 1000) / 3));
      timer.unref();
      try {
        const value = await fn({ setRecord: async (id) => void (await setRecord(name, id)) });
        await finish(name, value);
        return { ran: true, value };
      } catch (err) {
        await finish(name, { status: 'failed', error: (err as Error)?.message ?? String(err) }).catch(() => {});
        throw err;
      } finally {
        clearInterval(timer);
      }
    } finally {
      running.delete(name);
    }
  }

  /**
   * Shutdown: every lease this instance holds runs out now instead of at its TTL, and none is taken
   * or renewed again. A run cut short still reads "running", so it is taken over (sync jobs run
   * their slot again) or recorded as failed at once, exactly as for an instance that died. Answers
   * how many leases were handed back.
   */
  async function handBack(): Promise<number> {
    handedBack = true;
    const now = iso();
    return db('job_leases').where({ holder }).where('lease_until', '>=', now).update({ lease_until: iso(-1) });
  }

  return { holder, ensure, get, list, acquire, renew, setRecord, finish, reapExpired, takeOver, holderAlive, run, handBack, isRunningHere: (name: string) => running.has(name) };
}

export type Leases = ReturnType<typeof createLeases>;
