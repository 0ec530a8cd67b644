// SQL of the inbox: every inbound webhook delivery (table webhook_deliveries), deduplicated by
// (source, event id), claimed before it is processed, and marked processed or failed.
import type { Knex } from 'knex';
import { fromJson, isPostgres, toJson, type Db } from '../../db';

export interface Delivery {
  id: number;
  source: string;
  eventId: string;
  deliveryId: string | null;
  siteId: number | null;
  topic: string | null;
  payload: unknown;
  status: string;
  error: string | null;
  attempts: number;
  receivedAt: string;
  processedAt: string | null;
}

/** A delivery to store: `status` 'received' (to process) or 'ignored' (kept for dedupe only). */
export type NewDelivery = Omit<Delivery, 'id' | 'error' | 'attempts' | 'processedAt'>;

/** The statuses a delivery can still be processed from. */
export const PENDING = ['received', 'failed'];

interface DeliveryRow {
  id: number;
  source: string;
  event_id: string;
  delivery_id: string | null;
  site_id: number | null;
  topic: string | null;
  payload: unknown;
  status: string;
  error: string | null;
  attempts: number;
  received_at: string;
  processed_at: string | null;
  locked_until?: string | null;
}

const deliveryFromRow = (r: DeliveryRow): Delivery => ({
  id: Number(r.id),
  source: r.source,
  eventId: r.event_id,
  deliveryId: r.delivery_id,
  siteId: r.site_id,
  topic: r.topic,
  payload: fromJson(r.payload, null),
  status: r.status,
  error: r.error,
  attempts: Number(r.attempts),
  receivedAt: r.received_at,
  processedAt: r.processed_at,
});

const deliveryRow = (d: NewDelivery, extra: { status?: string; attempts?: number; error?: string | null } = {}) => ({
  source: d.source,
  event_id: d.eventId,
  delivery_id: d.deliveryId,
  site_id: d.siteId,
  topic: d.topic,
  payload: toJson(d.payload),
  status: extra.status ?? d.status,
  attempts: extra.attempts ?? 0,
  ...(extra.error !== undefined ? { error: extra.error } : {}),
  received_at: d.receivedAt,
});

const eventKey = (source: string, eventId: string) => `${source}\n${eventId}`;
const idOf = (r: { id: number } | number | undefined) => (r === undefined ? undefined : typeof r === 'object' ? Number(r.id) : Number(r));

export function inboxRepo(db: Db | Knex.Transaction) {
  const pg = isPostgres(db as Db);
  return {
    /** Stores a delivery unless its event id is known (one statement): answers the new id, or undefined for a duplicate. */
    async insert(d: NewDelivery, extra?: { status?: string; attempts?: number; error?: string | null }): Promise<number | undefined> {
      const rows = await db('webhook_deliveries').insert(deliveryRow(d, extra)).onConflict(['source', 'event_id']).ignore().returning('id');
      return idOf(rows[0] as { id: number } | number | undefined);
    },
    /**
     * Several deliveries in one statement (one commit), each stored unless its event id is known:
     * answers, in the same order, each new id or undefined for a duplicate (an event id twice in
     * the list: the first is stored). Rows go in event-id order, so two such statements running
     * at once on PostgreSQL wait for each other's keys in the same order instead of deadlocking.
     * `connection`: a connection the caller holds (db.ts deferredCommitSync).
     */
    async insertMany(ds: NewDelivery[], connection?: unknown): Promise<Array<number | undefined>> {
      const sorted = ds.map((d, i) => ({ d, i, key: eventKey(d.source, d.eventId) })).sort((a, b) => (a.key < b.key ? -1 : a.key > b.key ? 1 : a.i - b.i));
      const q = db('webhook_deliveries');
      if (connection) q.connection(connection);
      const rows = (await q
        .insert(sorted.map((x) => deliveryRow(x.d)))
        .onConflict(['source', 'event_id'])
        .ignore()
        .returning(['id', 'source', 'event_id'])) as Array<{ id: number; source: string; event_id: string }>;
      const ids = new Map(rows.map((r) => [eventKey(r.source, r.event_id), Number(r.id)]));
      const out: Array<number | undefined> = new Array(ds.length).fill(undefined);
      for (const x of sorted) {
        out[x.i] = ids.get(x.key);
        ids.delete(x.key);
      }
      return out;
    },
    /** A site's deliveries of one source and some topics received in [from, to): their payloads and arrival times. */
    async receivedBetween(source: string, siteId: number, topics: readonly string[], from: string, to: string): Promise<Array<{ payload: unknown; receivedAt: string }>> {
      const rows = await db<DeliveryRow>('webhook_deliveries')
        .where({ source, site_id: siteId })
        .whereIn('topic', [...topics])
        .where('received_at', '>=', from)
        .where('received_at', '<', to)
        .select('payload', 'received_at');
      return rows.map((r) => ({ payload: fromJson(r.payload, null), receivedAt: r.received_at }));
    },
    /**
     * Rewrites the stored bodies of a site's deliveries of one source (a privacy redaction):
     * `rewrite` answers the new body, or undefined to leave it. Read in pages by id. Answers how many changed.
     */
    async rewritePayloads(source: string, siteId: number, rewrite: (payload: unknown, topic: string | null) => unknown): Promise<number> {
      let after = 0;
      let changed = 0;
      for (;;) {
        const rows = (await db('webhook_deliveries').where({ source, site_id: siteId }).where('id', '>', after).orderBy('id').limit(500).select('id', 'topic', 'payload')) as Array<{ id: number; topic: string | null; payload: unknown }>;
        if (!rows.length) return changed;
        for (const r of rows) {
          const next = rewrite(fromJson(r.payload, null), r.topic);
          if (next === undefined) continue;
          await db('webhook_deliveries').where({ id: r.id }).update({ payload: toJson(next) });
          changed++;
        }
        after = Number(rows[rows.length - 1].id);
      }
    },
    /** Whether a site ever had a delivery of this source stored. */
    async anyOf(source: string, siteId: number): Promise<boolean> {
      return (await db('webhook_deliveries').where({ source, site_id: siteId }).first('id')) !== undefined;
    },
    async byId(id: number): Promise<Delivery | undefined> {
      const r = await db<DeliveryRow>('webhook_deliveries').where({ id }).first();
      return r ? deliveryFromRow(r) : undefined;
    },
    /**
     * Claims deliveries inside the caller's transaction, oldest first: those still to process, and
     * not leased. PostgreSQL: locked until the transaction ends; rows another transaction holds are
     * skipped (another instance is on them). SQLite: one writer at a time, so the status is enough.
     */
    async claimInTransaction(ids: number[]): Promise<Delivery[]> {
      const q = db<DeliveryRow>('webhook_deliveries').whereIn('id', ids).whereIn('status', PENDING).whereNull('locked_until').orderBy('id');
      if (pg) q.forUpdate().skipLocked();
      return (await q.select('*')).map(deliveryFromRow);
    },
    /**
     * Claims a delivery under a lease: one atomic UPDATE that only succeeds while it is still to
     * process and nobody's lease on it is running. Answers the delivery, or undefined (not ours).
     */
    async claimLease(id: number, now: string, until: string): Promise<Delivery | undefined> {
      const n = await db('webhook_deliveries')
        .where({ id })
        .whereIn('status', PENDING)
        .where((w) => w.whereNull('locked_until').orWhere('locked_until', '<', now))
        .update({ locked_until: until });
      if (!n) return undefined;
      const r = await db<DeliveryRow>('webhook_deliveries').where({ id, locked_until: until }).first();
      return r ? deliveryFromRow(r) : undefined;
    },
    /** A lease let go without an outcome (a shutdown): claimable again now, if it is still that lease on a delivery to process. */
    releaseLease: (id: number, until: string) => db('webhook_deliveries').where({ id, locked_until: until }).whereIn('status', PENDING).update({ locked_until: null }),
    /** Processed (and the lease, if any, let go); `note` says what processing noticed (an unknown order). */
    markProcessed: (ids: number[], at: string, note: string | null = null) =>
      (ids.length === 1 ? db('webhook_deliveries').where({ id: ids[0] }) : db('webhook_deliveries').whereIn('id', ids)).update({ status: 'processed', processed_at: at, error: note, locked_until: null }),
    /** Failed (the lease let go); `countAttempt` false for a failure that was not the delivery's (storage full or busy). */
    markFailed: (id: number, error: string, countAttempt = true) =>
      db('webhook_deliveries')
        .where({ id })
        .update({ status: 'failed', error: error.slice(0, 2000), locked_until: null, ...(countAttempt ? { attempts: db.raw('attempts + 1') } : {}) }),
    /**
     * Needs attention: failed deliveries (of a site, or all) per site and source — how many, the
     * first failed one's arrival, the newest one's error (the (status, received_at) index).
     */
    async failingBySource(siteId: number | undefined): Promise<Array<{ siteId: number | null; source: string; count: number; since: string; lastError: string | null }>> {
      const q = db('webhook_deliveries').where('status', 'failed');
      if (siteId !== undefined) q.where('site_id', siteId);
      const groups = (await q.clone().groupBy('site_id', 'source').select('site_id', 'source').count({ n: '*' }).min({ since: 'received_at' }).max({ last: 'id' })) as Array<{ site_id: number | null; source: string; n: number | string; since: string; last: number }>;
      const last = groups.length ? ((await db('webhook_deliveries').whereIn('id', groups.map((g) => g.last)).select('id', 'error')) as Array<{ id: number; error: string | null }>) : [];
      const errorOf = new Map(last.map((r) => [Number(r.id), r.error]));
      return groups.map((g) => ({ siteId: g.site_id === null ? null : Number(g.site_id), source: g.source, count: Number(g.n), since: g.since, lastError: errorOf.get(Number(g.last)) ?? null }));
    },
    /** Deliveries not processed yet (received, failed) per source and status, and the oldest arrival of each (the (status, received_at) index). */
    async backlog(): Promise<Array<{ source: string; status: string; count: number; oldest: string }>> {
      const rows = (await db('webhook_deliveries').whereIn('status', PENDING).groupBy('source', 'status').select('source', 'status').count({ n: '*' }).min({ oldest: 'received_at' })) as Array<{ source: string; status: string; n: number | string; oldest: string }>;
      return rows.map((r) => ({ source: r.source, status: r.status, count: Number(r.n), oldest: r.oldest }));
    },
    /**
     * Deliveries of these sources still to process, oldest first: never processed (the process died
     * after answering) or failed fewer than maxAttempts times, and not under a running lease.
     */
    async pendingIds(sources: string[], maxAttempts: number, now: string, limit: number): Promise<number[]> {
      if (!sources.length) return [];
      const rows = await db('webhook_deliveries')
        .whereIn('source', sources)
        .whereIn('status', PENDING)
        .where('attempts', '<', maxAttempts)
        .where('received_at', '<=', now)
        .where((w) => w.whereNull('locked_until').orWhere('locked_until', '<', now))
        .orderBy('id')
        .limit(limit)
        .select('id');
      return rows.map((r: { id: number }) => Number(r.id));
    },
  };
}

export type InboxRepo = ReturnType<typeof inboxRepo>;
