// SQL of the orders module: inbound webhook deliveries, and order records (general data) looked up
// by store order id or name.
import type { Knex } from 'knex';
import { fromJson, isPostgres, toJson, type Db } from '../../db';
import { generalDataRepo, type DataRecord } from '../general-data/repo';
import type { OrderData } from './shopify';

export const ORDER_TYPE = 'shopify-order-log';
export const ORDER_NAME = 'order-log';
/** Every record that belongs to one store order (field1 = store order id), as check-order shows them. */
export const ORDER_LOG_TYPES = [ORDER_TYPE, 'hp-log', 'shopify-hp-log'];

export const SHOPIFY_SOURCE = 'shopify';

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
}

const deliveryFromRow = (r: DeliveryRow): Delivery => ({
  id: r.id,
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

export type OrderRecord = DataRecord<OrderData>;

export type NewDelivery = Omit<Delivery, 'id' | 'error' | 'attempts' | 'processedAt'>;

const deliveryRow = (d: NewDelivery) => ({
  source: d.source,
  event_id: d.eventId,
  delivery_id: d.deliveryId,
  site_id: d.siteId,
  topic: d.topic,
  payload: toJson(d.payload),
  status: d.status,
  attempts: 0,
  received_at: d.receivedAt,
});

const eventKey = (source: string, eventId: string) => `${source}\n${eventId}`;

export function ordersRepo(db: Db | Knex.Transaction) {
  const pg = isPostgres(db as Db);
  return {
    /** Stores a delivery unless its event id is known: answers the new id, or undefined for a duplicate. */
    async insertDelivery(d: NewDelivery): Promise<number | undefined> {
      const rows = await db('webhook_deliveries').insert(deliveryRow(d)).onConflict(['source', 'event_id']).ignore().returning('id');
      const r = rows[0] as { id: number } | number | undefined;
      return r === undefined ? undefined : typeof r === 'object' ? r.id : r;
    },
    /**
     * Several deliveries in one statement (one commit), each stored unless its event id is known:
     * answers, in the same order, each new id or undefined for a duplicate (an event id twice in
     * the list: the first is stored). Rows go in event-id order, so two such statements running
     * at once on PostgreSQL wait for each other's keys in the same order instead of deadlocking.
     */
    async insertDeliveries(ds: NewDelivery[]): Promise<Array<number | undefined>> {
      const sorted = ds.map((d, i) => ({ d, i, key: eventKey(d.source, d.eventId) })).sort((a, b) => (a.key < b.key ? -1 : a.key > b.key ? 1 : a.i - b.i));
      const rows = (await db('webhook_deliveries')
        .insert(sorted.map((x) => deliveryRow(x.d)))
        .onConflict(['source', 'event_id'])
        .ignore()
        .returning(['id', 'source', 'event_id'])) as Array<{ id: number; source: string; event_id: string }>;
      const ids = new Map(rows.map((r) => [eventKey(r.source, r.event_id), r.id]));
      const out: Array<number | undefined> = new Array(ds.length).fill(undefined);
      for (const x of sorted) {
        out[x.i] = ids.get(x.key);
        ids.delete(x.key);
      }
      return out;
    },
    /** The delivery to process, locked (PostgreSQL: another instance working on it skips it). */
    async claimDelivery(id: number, statuses: string[]): Promise<Delivery | undefined> {
      const q = db<DeliveryRow>('webhook_deliveries').where({ id }).whereIn('status', statuses);
      if (pg) q.forUpdate().skipLocked();
      const r = await q.first();
      return r ? deliveryFromRow(r) : undefined;
    },
    /** Several deliveries to process, locked (PostgreSQL: those another transaction holds are skipped), oldest first. */
    async claimDeliveries(ids: number[], statuses: string[]): Promise<Delivery[]> {
      const q = db<DeliveryRow>('webhook_deliveries').whereIn('id', ids).whereIn('status', statuses).orderBy('id');
      if (pg) q.forUpdate().skipLocked();
      return (await q.select('*')).map(deliveryFromRow);
    },
    markDeliveries: (ids: number[], status: string, at: string) => db('webhook_deliveries').whereIn('id', ids).update({ status, processed_at: at, error: null }),
    deliveryById: async (id: number) => {
      const r = await db<DeliveryRow>('webhook_deliveries').where({ id }).first();
      return r ? deliveryFromRow(r) : undefined;
    },
    markDelivery: (id: number, status: string, at: string, error: string | null = null) =>
      db('webhook_deliveries').where({ id }).update({ status, processed_at: at, error }),
    /** Failed; `countAttempt` false for a failure that was not the delivery's (storage full or busy). */
    markFailed: (id: number, error: string, countAttempt = true) =>
      db('webhook_deliveries')
        .where({ id })
        .update({ status: 'failed', error: error.slice(0, 2000), ...(countAttempt ? { attempts: db.raw('attempts + 1') } : {}) }),
    /** Deliveries still to process: never processed (the process died after answering) or failed fewer than maxAttempts times. */
    async pendingDeliveryIds(source: string, maxAttempts: number, receivedBefore: string, limit: number): Promise<number[]> {
      const rows = await db('webhook_deliveries')
        .where({ source })
        .whereIn('status', ['received', 'failed'])
        .where('attempts', '<', maxAttempts)
        .where('received_at', '<=', receivedBefore)
        .orderBy('id')
        .limit(limit)
        .select('id');
      return rows.map((r: { id: number }) => r.id);
    },

    /** One order's processing at a time (PostgreSQL: two events of one order on two connections). */
    async lockOrder(siteId: number, orderId: string): Promise<void> {
      if (pg) await db.raw('select pg_advisory_xact_lock(hashtext(?))', [`${ORDER_TYPE}:${siteId}:${orderId}`]);
    },
    /**
     * Several orders at once (PostgreSQL: advisory locks taken in ascending key order, so two
     * transactions locking overlapping sets cannot deadlock; the same keys as lockOrder).
     */
    async lockOrders(siteId: number, orderIds: string[]): Promise<void> {
      if (!pg || !orderIds.length) return;
      await db.raw('select pg_advisory_xact_lock(h) from (select distinct hashtext(k) as h from unnest(?::text[]) as k) as s order by h', [orderIds.map((id) => `${ORDER_TYPE}:${siteId}:${id}`)]);
    },
    /** What processing needs of several orders of one site (id, status, data), by store order id; the first record of an id, as orderOf. */
    async orderStates(siteId: number, orderIds: string[], forUpdate = false): Promise<Map<string, { id: number; status: string | null; data: OrderData }>> {
      const q = db('general_data').where({ type: ORDER_TYPE, site_id: siteId }).whereIn('field1', orderIds).orderBy('id').select('id', 'field1', 'status', 'data');
      if (pg && forUpdate) q.forUpdate();
      const out = new Map<string, { id: number; status: string | null; data: OrderData }>();
      for (const r of (await q) as Array<{ id: number; field1: string; status: string | null; data: unknown }>) {
        if (!out.has(r.field1)) out.set(r.field1, { id: r.id, status: r.status ?? null, data: fromJson(r.data, {}) as OrderData });
      }
      return out;
    },
    /** New order records in one statement per 200 (the columns generalDataRepo.insert writes for an order). */
    async insertOrders(rows: Array<{ siteId: number; orderId: string; name: string; status: string; searchText: string; data: OrderData; createdAt: string; updatedAt: string }>): Promise<void> {
      const values = rows.map((r) => ({
        type: ORDER_TYPE,
        field1: r.orderId,
        field2: r.name,
        name: ORDER_NAME,
        status: r.status,
        search_text: r.searchText.toLowerCase(),
        data: toJson(r.data),
        site_id: r.siteId,
        user_id: null,
        perm_create: false,
        perm_read: true,
        perm_update: false,
        perm_delete: false,
        created_at: r.createdAt,
        updated_at: r.updatedAt,
      }));
      for (let i = 0; i < values.length; i += 200) await db('general_data').insert(values.slice(i, i + 200));
    },
    async orderOf(siteId: number, orderId: string, forUpdate = false): Promise<OrderRecord | undefined> {
      const q = db('general_data').where({ type: ORDER_TYPE, site_id: siteId, field1: orderId }).orderBy('id').select('id');
      if (pg && forUpdate) q.forUpdate();
      const row = (await q.first()) as { id: number } | undefined;
      return row ? ((await generalDataRepo(db).byId(row.id)) as OrderRecord) : undefined;
    },
    /** Orders by store id or name (`#1001`), one site or all. */
    async findOrders(f: { orderId?: string; names?: string[]; siteId?: number }, limit = 20): Promise<OrderRecord[]> {
      const q = db('general_data').where({ type: ORDER_TYPE });
      if (f.siteId !== undefined) q.where('site_id', f.siteId);
      if (f.orderId !== undefined) q.where('field1', f.orderId);
      if (f.names) q.whereIn('field2', f.names);
      const rows = (await q.orderBy('created_at', 'desc').orderBy('id', 'desc').limit(limit).select('id')) as Array<{ id: number }>;
      const repo = generalDataRepo(db);
      return (await Promise.all(rows.map((r) => repo.byId(r.id)))).filter((r): r is DataRecord => Boolean(r)) as OrderRecord[];
    },
    /** The order's record and its provider logs, newest first. */
    async logsOf(siteId: number, orderId: string): Promise<DataRecord[]> {
      const { rows } = await generalDataRepo(db).list({ siteId, field1: orderId, types: ORDER_LOG_TYPES }, { field: 'createdAt', order: 'desc' }, 500, 0);
      return rows;
    },
  };
}

export type OrdersRepo = ReturnType<typeof ordersRepo>;
