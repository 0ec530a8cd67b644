// SQL of the orders module: order records (general data) looked up by store order id or name.
// (Webhook deliveries are the inbox's: modules/inbox/repo.ts.)
import type { Knex } from 'knex';
import { fromJson, isPostgres, toJson, type Db } from '../../db';
import { generalDataRepo, type DataRecord } from '../general-data/repo';
import type { OrderData } from './shopify';

export const ORDER_TYPE = 'shopify-order-log';
export const ORDER_NAME = 'order-log';
/** Every record that belongs to one store order (field1 = store order id), as check-order shows them. */
export const ORDER_LOG_TYPES = [ORDER_TYPE, 'hp-log', 'shopify-hp-log'];

export const SHOPIFY_SOURCE = 'shopify';

export type OrderRecord = DataRecord<OrderData>;

export function ordersRepo(db: Db | Knex.Transaction) {
  const pg = isPostgres(db as Db);
  return {
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
