// SQL of the orders module: inbound webhook deliveries, and the orders (store_orders and the
// provider tables, in tablesRepo.ts) looked up by store order id or name.
import type { Knex } from 'knex';
import { fromJson, isPostgres, toJson, type Db } from '../../db';
import type { DataRecord } from '../general-data/record';
import { ORDER_RECORD_NAME, RECORD_TYPES } from '../general-data/types';
import { orderTablesRepo, type NewOrder, type OrderRecord, type OrderPatch } from './tablesRepo';
import type { OrderData } from './shopify';

export const ORDER_TYPE = RECORD_TYPES.order;
export const ORDER_NAME = ORDER_RECORD_NAME;
export type { OrderRecord } from './tablesRepo';

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
  const orders = orderTablesRepo(db);
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
    /** What processing needs of several orders of one site (id, status, data), by store order id: one statement. */
    orderStates: (siteId: number, orderIds: string[], forUpdate = false): Promise<Map<string, { id: number; status: string | null; data: OrderData }>> =>
      orders.orderStates(siteId, orderIds, forUpdate),
    /** New orders in one statement per 200 (their lines in one more). */
    async insertOrders(rows: Array<{ siteId: number; orderId: string; name: string; status: string; searchText: string; data: OrderData; createdAt: string; updatedAt: string }>): Promise<void> {
      await orders.insertOrders(rows as NewOrder[]);
    },
    /** A store update or a provider-side change of one order (status, data as the API shows it). */
    updateOrder: (id: number, patch: OrderPatch) => orders.updateOrder(id, patch),
    orderOf: (siteId: number, orderId: string, forUpdate = false): Promise<OrderRecord | undefined> => orders.orderOf(siteId, orderId, forUpdate),
    /** Orders by store id or name (`#1001`), one site or all. */
    findOrders: (f: { orderId?: string; names?: string[]; siteId?: number }, limit = 20): Promise<OrderRecord[]> => orders.findOrders(f, limit),
    /** The order's record and its provider logs, newest first. */
    logsOf: (siteId: number, orderId: string): Promise<DataRecord[]> => orders.logsOf(siteId, orderId),
  };
}

export type OrdersRepo = ReturnType<typeof ordersRepo>;
