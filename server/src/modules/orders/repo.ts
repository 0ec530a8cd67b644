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

export function ordersRepo(db: Db | Knex.Transaction) {
  const pg = isPostgres(db as Db);
  return {
    /** Stores a delivery unless its event id is known: answers the new id, or undefined for a duplicate. */
    async insertDelivery(d: Omit<Delivery, 'id' | 'error' | 'attempts' | 'processedAt'>): Promise<number | undefined> {
      const rows = await db('webhook_deliveries')
        .insert({
          source: d.source,
          event_id: d.eventId,
          delivery_id: d.deliveryId,
          site_id: d.siteId,
          topic: d.topic,
          payload: toJson(d.payload),
          status: d.status,
          attempts: 0,
          received_at: d.receivedAt,
        })
        .onConflict(['source', 'event_id'])
        .ignore()
        .returning('id');
      const r = rows[0] as { id: number } | number | undefined;
      return r === undefined ? undefined : typeof r === 'object' ? r.id : r;
    },
    /** The delivery to process, locked (PostgreSQL: another instance working on it skips it). */
    async claimDelivery(id: number, statuses: string[]): Promise<Delivery | undefined> {
      const q = db<DeliveryRow>('webhook_deliveries').where({ id }).whereIn('status', statuses);
      if (pg) q.forUpdate().skipLocked();
      const r = await q.first();
      return r ? deliveryFromRow(r) : undefined;
    },
    deliveryById: async (id: number) => {
      const r = await db<DeliveryRow>('webhook_deliveries').where({ id }).first();
      return r ? deliveryFromRow(r) : undefined;
    },
    markDelivery: (id: number, status: string, at: string, error: string | null = null) =>
      db('webhook_deliveries').where({ id }).update({ status, processed_at: at, error }),
    markFailed: (id: number, error: string) =>
      db('webhook_deliveries')
        .where({ id })
        .update({ status: 'failed', error: error.slice(0, 2000), attempts: db.raw('attempts + 1') }),
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
