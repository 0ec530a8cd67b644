// SQL of line_waits. A move is one UPDATE from the states it may leave: the caller that changes a
// row is the one that acts on it (sends the proof, queues production), however many instances ask.
import type { Knex } from 'knex';
import type { Db } from '../../db';
import type { LineWait, WaitState } from './waiting';

interface Row {
  id: number;
  site_id: number;
  order_id: string;
  line_id: string;
  state: WaitState;
  hold_until: string | null;
  proof_needed: boolean | number;
  proof_version: number;
  proof_sent_at: string | null;
  reminded_at: string | null;
  opened_at: string | null;
  released_at: string | null;
  released_by: string | null;
  message: string | null;
}

const fromRow = (r: Row): LineWait => ({
  id: Number(r.id),
  siteId: Number(r.site_id),
  orderId: r.order_id,
  lineId: r.line_id,
  state: r.state,
  holdUntil: r.hold_until,
  proofNeeded: Boolean(r.proof_needed),
  proofVersion: Number(r.proof_version),
  proofSentAt: r.proof_sent_at,
  remindedAt: r.reminded_at,
  openedAt: r.opened_at,
  releasedAt: r.released_at,
  releasedBy: r.released_by,
  message: r.message,
});

export type WaitPatch = Partial<{ state: WaitState; holdUntil: string | null; proofVersion: number; proofSentAt: string | null; remindedAt: string | null; openedAt: string | null; releasedAt: string | null; releasedBy: string | null; message: string | null }>;

const COLUMNS: Record<keyof WaitPatch, string> = {
  state: 'state',
  holdUntil: 'hold_until',
  proofVersion: 'proof_version',
  proofSentAt: 'proof_sent_at',
  remindedAt: 'reminded_at',
  openedAt: 'opened_at',
  releasedAt: 'released_at',
  releasedBy: 'released_by',
  message: 'message',
};

export function waitsRepo(db: Db | Knex.Transaction) {
  return {
    async ofOrder(siteId: number, orderId: string): Promise<LineWait[]> {
      return ((await db<Row>('line_waits').where({ site_id: siteId, order_id: orderId }).orderBy('id')) as Row[]).map(fromRow);
    },
    async byId(id: number): Promise<LineWait | undefined> {
      const r = (await db<Row>('line_waits').where({ id }).first()) as Row | undefined;
      return r ? fromRow(r) : undefined;
    },
    /** New waits; a line that has one keeps it (a later delivery of the same order). */
    async insert(rows: Array<{ siteId: number; orderId: string; lineId: string; state: WaitState; holdUntil: string | null; proofNeeded: boolean; at: string }>): Promise<void> {
      if (!rows.length) return;
      await db('line_waits')
        .insert(rows.map((r) => ({ site_id: r.siteId, order_id: r.orderId, line_id: r.lineId, state: r.state, hold_until: r.holdUntil, proof_needed: r.proofNeeded, proof_version: 0, created_at: r.at, updated_at: r.at })))
        .onConflict(['site_id', 'order_id', 'line_id'])
        .ignore();
    },
    /** Moves the row when it is in one of `from` (and, with `version`, at that proof): true for the one caller that moved it. */
    async move(id: number, from: readonly WaitState[], patch: WaitPatch, at: string, version?: number): Promise<boolean> {
      const set: Record<string, unknown> = { updated_at: at };
      for (const [k, v] of Object.entries(patch)) set[COLUMNS[k as keyof WaitPatch]] = v;
      const q = db('line_waits').where({ id }).whereIn('state', from as WaitState[]);
      if (version !== undefined) q.where({ proof_version: version });
      return (await q.update(set)) === 1;
    },
    /** Writes a first time only (e.g. when a proof was first opened). */
    async setOnce(id: number, column: 'opened_at' | 'reminded_at', at: string, version: number): Promise<boolean> {
      return (await db('line_waits').where({ id, proof_version: version }).whereNull(column).update({ [column]: at, updated_at: at })) === 1;
    },
    /** Rows whose window ended by `now`. */
    async holdsEnded(now: string, limit = 200): Promise<LineWait[]> {
      return ((await db<Row>('line_waits').where({ state: 'hold' }).where('hold_until', '<=', now).orderBy('id').limit(limit)) as Row[]).map(fromRow);
    },
    /** Lines whose buyer asked for a change (or whose proof could not be sent), oldest first, one site or all. */
    async changesAsked(siteId: number | undefined, limit: number): Promise<{ rows: Array<LineWait & { since: string }>; total: number }> {
      const q = () => {
        const b = db<Row>('line_waits').where({ state: 'change' });
        if (siteId !== undefined) b.where({ site_id: siteId });
        return b;
      };
      const rows = (await q().orderBy('updated_at').limit(limit)) as Array<Row & { updated_at: string }>;
      const [{ n }] = (await q().count({ n: '*' })) as Array<{ n: number | string }>;
      return { rows: rows.map((r) => ({ ...fromRow(r), since: r.updated_at })), total: Number(n) };
    },
    /** The rows of some orders of a site still in one of `states` (a listed page's orders). */
    async ofOrdersIn(siteId: number, orderIds: string[], states: readonly WaitState[]): Promise<LineWait[]> {
      if (!orderIds.length) return [];
      return ((await db<Row>('line_waits').where({ site_id: siteId }).whereIn('order_id', orderIds).whereIn('state', states as WaitState[]).orderBy('id')) as Row[]).map(fromRow);
    },
    /** Rows in a state (proofs to send, proofs awaiting an answer). */
    async inState(state: WaitState, limit = 200): Promise<LineWait[]> {
      return ((await db<Row>('line_waits').where({ state }).orderBy('id').limit(limit)) as Row[]).map(fromRow);
    },
  };
}
