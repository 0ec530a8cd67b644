// The provider-send outbox: a row written in the caller's transaction (so a crash never loses a
// send), claimed by a worker under a lease (so two instances never send one row twice).
import { AUTOMATIC, byUserId, recordChange } from '../history';
import type { Knex } from 'knex';
import type { Db } from '../../db';
import { countOf, fromJson, toJson } from '../../db';

export const HP_ORDER_KIND = 'hp-order';

export interface EnqueueOrderSend {
  siteId: number;
  /** The store order id (the order record's field1). */
  orderId: string;
  /** Only these line items, each its own provider order (`<order>-<line>`); absent: the whole order. */
  lineIds?: string[];
  /** The provider's destination account a routing rule named (default: the site's HP_DESTINATION). */
  destination?: string;
  /**
   * `lineIds` go as one provider order (one destination's lines of a routed order), named after
   * its first line (`<order>-<first line>`) so postbacks and cancels find it like a line's own send.
   */
  together?: boolean;
}

export interface HpOrderPayload {
  siteId: number;
  orderId: string;
  /** A line's own send, or the first line of lines sent together. */
  lineId: string | null;
  /** Lines sent together as one provider order (lineId is the first). */
  lineIds?: string[];
  actorId: number | null;
  destination?: string;
}

/** The lines a row sends: its group, its own line, or (null) the whole order. */
export const linesOfSend = (p: Pick<HpOrderPayload, 'lineId' | 'lineIds'>): string[] | null => (p.lineIds?.length ? p.lineIds : p.lineId ? [p.lineId] : null);

export interface OutboxRow {
  id: number;
  kind: string;
  dedupeKey: string;
  siteId: number | null;
  payload: HpOrderPayload;
  status: 'pending' | 'sent' | 'failed' | string;
  attempts: number;
  nextAttemptAt: string;
  lockedUntil: string | null;
  result: unknown;
  error: string | null;
  createdAt: string;
  updatedAt: string;
}

interface Row {
  id: number;
  kind: string;
  dedupe_key: string;
  site_id: number | null;
  payload: unknown;
  status: string;
  attempts: number;
  next_attempt_at: string;
  locked_until: string | null;
  result: unknown;
  error: string | null;
  created_at: string;
  updated_at: string;
}

export const outboxFromRow = (r: Row): OutboxRow => ({
  id: Number(r.id),
  kind: r.kind,
  dedupeKey: r.dedupe_key,
  siteId: r.site_id,
  payload: fromJson<HpOrderPayload>(r.payload, { siteId: 0, orderId: '', lineId: null, actorId: null }),
  status: r.status,
  attempts: Number(r.attempts),
  nextAttemptAt: r.next_attempt_at,
  lockedUntil: r.locked_until,
  result: fromJson(r.result, null),
  error: r.error,
  createdAt: r.created_at,
  updatedAt: r.updated_at,
});

export const hpDedupeKey = (siteId: number, orderId: string, lineId?: string | null) => `hp:${siteId}:${orderId}${lineId ? `:${lineId}` : ''}`;

type NewOutboxRow = { kind: string; dedupeKey: string; siteId: number; payload: HpOrderPayload; at: string; dueAt?: string };

/** One outbox row, written at `at` and due then (or at `dueAt`); a row with the same dedupe key is kept as it is (ON CONFLICT DO NOTHING). */
export async function insertOnce(db: Knex | Knex.Transaction, row: NewOutboxRow): Promise<void> {
  await insertManyOnce(db, [row]);
}

/** Several outbox rows in one statement, each kept as it is when its dedupe key is there already. */
export async function insertManyOnce(db: Knex | Knex.Transaction, rows: NewOutboxRow[]): Promise<void> {
  if (!rows.length) return;
  await db('outbox').insert(rows.map(outboxInsertRow)).onConflict('dedupe_key').ignore();
}

const outboxInsertRow = (row: NewOutboxRow) => ({
  kind: row.kind,
  dedupe_key: row.dedupeKey,
  site_id: row.siteId,
  payload: toJson(row.payload),
  status: 'pending',
  attempts: 0,
  next_attempt_at: row.dueAt ?? row.at,
  locked_until: null,
  result: null,
  error: null,
  created_at: row.at,
  updated_at: row.at,
});

/**
 * Queue the provider send of an order (or of some of its lines, one row per line) inside the
 * caller's transaction. A row with the same dedupe key is kept as it is (ON CONFLICT DO NOTHING)
 * and returned, so a second click or a replayed webhook never queues a second send.
 */
export async function enqueueOrderSend(trx: Knex | Knex.Transaction, input: EnqueueOrderSend, actorId?: number | null, now: Date = new Date()): Promise<OutboxRow[]> {
  const at = now.toISOString();
  const asked = input.lineIds?.length ? [...new Set(input.lineIds.map(String))] : [];
  const together = input.together && asked.length > 1 ? asked : undefined;
  const lines: Array<string | null> = together ? [asked[0]] : asked.length ? asked : [null];
  const out: OutboxRow[] = [];
  for (const lineId of lines) {
    const payload: HpOrderPayload = { siteId: input.siteId, orderId: String(input.orderId), lineId, ...(together ? { lineIds: together } : {}), actorId: actorId ?? null, ...(input.destination ? { destination: input.destination } : {}) };
    const dedupeKey = hpDedupeKey(input.siteId, payload.orderId, lineId);
    // The row the insert returns is a new send; none: the key was queued before, and that row is answered.
    const [inserted] = (await trx('outbox').insert(outboxInsertRow({ kind: HP_ORDER_KIND, dedupeKey, siteId: input.siteId, payload, at })).onConflict('dedupe_key').ignore().returning('*')) as Row[];
    const row = outboxFromRow(inserted ?? (await trx<Row>('outbox').where({ dedupe_key: dedupeKey }).first())!);
    if (inserted) {
      const by = await byUserId(trx, payload.actorId, AUTOMATIC.autoSend);
      await recordChange(trx, { at, siteId: input.siteId, kind: 'send', subjectId: row.id, orderRef: payload.orderId, by, action: 'queued', to: 'pending', reason: together ? `lines ${together.join(', ')} together` : lineId ? `line ${lineId}` : 'whole order' });
    }
    out.push(row);
  }
  return out;
}

// Claims this process holds (row id → the locked_until it wrote), per database, so a shutdown can
// hand them back at once (handBackClaims) rather than leave the rows locked until the lease runs out.
// Claims are always taken on the database itself, never inside a caller's transaction.
const heldClaims = new WeakMap<object, { rows: Map<number, string>; closed: boolean }>();
const claimsOf = (db: object) => {
  let held = heldClaims.get(db);
  if (!held) heldClaims.set(db, (held = { rows: new Map(), closed: false }));
  return held;
};

/** Shutdown, first step: no new claim is taken on `db` (a send asked for now stays queued for the next start). */
export function stopClaiming(db: Db): void {
  claimsOf(db).closed = true;
}

export const claimingStopped = (db: Db): boolean => claimsOf(db).closed;

/**
 * Shutdown, last step: every claim this process still holds on `db` goes back to claimable now,
 * unless its attempt finished (the row is no longer pending, or was released when rescheduled).
 * Answers how many rows were handed back.
 */
export async function handBackClaims(db: Db): Promise<number> {
  const held = claimsOf(db);
  held.closed = true;
  let n = 0;
  for (const [id, lockedUntil] of held.rows) {
    n += await db('outbox').where({ id, status: 'pending', locked_until: lockedUntil }).update({ locked_until: null });
    held.rows.delete(id);
  }
  return n;
}

export function outboxRepo(db: Db | Knex.Transaction) {
  /** Rows of `kind` of a site whose dedupe key starts with `prefix` (ending in ':'), oldest first: a key range, on the unique index. */
  async function withKeyPrefix(kind: string, siteId: number, prefix: string): Promise<OutboxRow[]> {
    const rows = await db<Row>('outbox')
      .where({ kind, site_id: siteId })
      .where('dedupe_key', '>=', prefix)
      .where('dedupe_key', '<', `${prefix.slice(0, -1)};`)
      .orderBy('id');
    return rows.map(outboxFromRow);
  }

  return {
    async byId(id: number) {
      const r = await db<Row>('outbox').where({ id }).first();
      return r ? outboxFromRow(r) : undefined;
    },
    async byKey(key: string) {
      const r = await db<Row>('outbox').where({ dedupe_key: key }).first();
      return r ? outboxFromRow(r) : undefined;
    },

    /**
     * Claims a row: one atomic UPDATE that only succeeds while the row is pending and not leased
     * (or its lease has run out), so two workers never hold it at once. `force` ignores
     * next_attempt_at (an explicit click). Answers the claimed row, or undefined.
     */
    async claim(id: number, at: string, leaseUntil: string, force: boolean): Promise<OutboxRow | undefined> {
      const held = claimsOf(db);
      if (held.closed) return undefined;
      for (const [heldId, until] of held.rows) if (until < at) held.rows.delete(heldId);
      const q = db('outbox')
        .where({ id, status: 'pending' })
        .where((w) => w.whereNull('locked_until').orWhere('locked_until', '<', at));
      if (!force) q.where('next_attempt_at', '<=', at);
      const n = await q.update({ locked_until: leaseUntil, attempts: db.raw('attempts + 1'), updated_at: at });
      if (n !== 1) return undefined;
      held.rows.set(id, leaseUntil);
      const r = await db<Row>('outbox').where({ id }).first();
      return r ? outboxFromRow(r) : undefined;
    },

    /** Ids of rows of `kind` (provider sends by default) due at `at` and not leased, oldest due first. */
    async dueIds(at: string, limit: number, kind: string = HP_ORDER_KIND): Promise<number[]> {
      const rows = (await db('outbox')
        .where({ kind, status: 'pending' })
        .where('next_attempt_at', '<=', at)
        .where((w) => w.whereNull('locked_until').orWhere('locked_until', '<', at))
        .orderBy('next_attempt_at')
        .orderBy('id')
        .limit(limit)
        .select('id')) as Array<{ id: number }>;
      return rows.map((r) => Number(r.id));
    },

    withKeyPrefix,

    /**
     * Pending rows per kind that wait for a worker — due, or tried before and waiting for a retry
     * (a row scheduled for later and never tried, an e-card before its send date, is not waiting
     * yet) — and since when the longest-waiting one waits: due since (never tried), or queued
     * since (tried). The (status, next_attempt_at) index.
     */
    async backlog(at: string): Promise<Array<{ kind: string; count: number; since: string }>> {
      const rows = (await db('outbox')
        .where({ status: 'pending' })
        .where((w) => w.where('attempts', '>', 0).orWhere('next_attempt_at', '<=', at))
        .groupBy('kind')
        .select('kind', db.raw('min(case when attempts = 0 then next_attempt_at else created_at end) as since'))
        .count({ n: '*' })) as Array<{ kind: string; n: number | string; since: string }>;
      return rows.map((r) => ({ kind: r.kind, count: Number(r.n), since: r.since }));
    },

    /** Needs attention: failed rows of `kind` (of a site, or all), longest failed first, at most `limit`, and how many (the (status, next_attempt_at) index). */
    async failedOf(kind: string, siteId: number | undefined, limit: number): Promise<{ rows: OutboxRow[]; total: number }> {
      const q = db<Row>('outbox').where({ status: 'failed', kind });
      if (siteId !== undefined) q.where('site_id', siteId);
      const [rows, total] = await Promise.all([q.clone().orderBy('updated_at').orderBy('id').limit(limit), countOf(q)]);
      return { rows: rows.map(outboxFromRow), total };
    },

    /** A failed row of `kind` asked for again (an operator): pending, attempts reset, its error cleared, due now. */
    async retryFailedOf(kind: string, id: number, at: string): Promise<boolean> {
      const n = await db('outbox').where({ id, kind, status: 'failed' }).update({ status: 'pending', attempts: 0, error: null, locked_until: null, next_attempt_at: at, updated_at: at });
      return n === 1;
    },

    /** Rows of single-line sends of an order (dedupe keys hp:<site>:<order>:<line>, a key range). */
    async lineRowsOf(siteId: number, orderId: string): Promise<OutboxRow[]> {
      const rows = await withKeyPrefix(HP_ORDER_KIND, siteId, `${hpDedupeKey(siteId, orderId)}:`);
      return rows.filter((r) => r.payload.orderId === orderId && r.payload.lineId);
    },

    // The outcome updates only touch a row still pending: whoever finished it first wins, and
    // the caller (answered 0) reports that outcome instead of writing a second one.

    /** pending → sent; answers how many rows changed (0 or 1). */
    async markSent(id: number, result: unknown, at: string): Promise<number> {
      return db('outbox').where({ id, status: 'pending' }).update({ status: 'sent', result: toJson(result), error: null, locked_until: null, updated_at: at });
    },

    /** pending → failed; answers how many rows changed (0 or 1). */
    async markFailed(id: number, error: string, result: unknown, at: string): Promise<number> {
      return db('outbox').where({ id, status: 'pending' }).update({ status: 'failed', result: toJson(result), error, locked_until: null, updated_at: at });
    },

    /** Stays pending, released, next tried at `nextAttemptAt`. */
    async reschedule(id: number, error: string, result: unknown, nextAttemptAt: string, at: string): Promise<number> {
      return db('outbox').where({ id, status: 'pending' }).update({ error, result: toJson(result), next_attempt_at: nextAttemptAt, locked_until: null, updated_at: at });
    },

    /** failed → pending with its attempts reset, due now (an explicit send after a fix). */
    async retryFailed(id: number, at: string): Promise<number> {
      return db('outbox').where({ id, status: 'failed' }).update({ status: 'pending', attempts: 0, locked_until: null, next_attempt_at: at, updated_at: at });
    },
  };
}

export type OutboxRepo = ReturnType<typeof outboxRepo>;
