// SQL of the orders module: the orders (store_orders and the provider tables, in tablesRepo.ts)
// looked up by store order id or name. (Webhook deliveries are the inbox's: modules/inbox/repo.ts.)
import type { Knex } from 'knex';
import { isPostgres, type Db } from '../../db';
import type { DataRecord } from '../records';
import { ORDER_RECORD_NAME, RECORD_TYPES } from '../records';
import { orderTablesRepo, type NewOrder, type OrderRecord } from './tablesRepo';
import type { OrderData } from './shopify';

export const ORDER_TYPE = RECORD_TYPES.order;
export const ORDER_NAME = ORDER_RECORD_NAME;
export type { OrderRecord } from './tablesRepo';

export const SHOPIFY_SOURCE = 'shopify';


export function ordersRepo(db: Db | Knex.Transaction) {
  const pg = isPostgres(db as Db);
  const orders = orderTablesRepo(db);
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
    /** What processing needs of several orders of one site (id, status, data), by store order id: one statement. */
    orderStates: (siteId: number, orderIds: string[], forUpdate = false): Promise<Map<string, { id: number; status: string | null; data: OrderData }>> =>
      orders.orderStates(siteId, orderIds, forUpdate),
    /** New orders in one statement per 200 (their lines in one more). */
    async insertOrders(rows: Array<{ siteId: number; orderId: string; name: string; status: string; searchText: string; data: OrderData; createdAt: string; updatedAt: string }>): Promise<void> {
      await orders.insertOrders(rows as NewOrder[]);
    },
    orderOf: (siteId: number, orderId: string, forUpdate = false): Promise<OrderRecord | undefined> => orders.orderOf(siteId, orderId, forUpdate),
    /** Orders by store id or name (`#1001`), one site or all. */
    findOrders: (f: { orderId?: string; names?: string[]; siteId?: number }, limit = 20): Promise<OrderRecord[]> => orders.findOrders(f, limit),
    orderIdsByEmail: (siteId: number, email: string) => orders.orderIdsByEmail(siteId, email),
    orderIdsPage: (siteId: number, afterId: number, limit: number) => orders.orderIdsPage(siteId, afterId, limit),
    rewriteLogsOfOrder: (siteId: number, orderId: string, rewrite: (data: Record<string, unknown>) => Record<string, unknown>) => orders.rewriteLogsOfOrder(siteId, orderId, rewrite),
    /** The order's record and its provider logs, newest first. */
    logsOf: (siteId: number, orderId: string): Promise<DataRecord[]> => orders.logsOf(siteId, orderId),
  };
}

export type OrdersRepo = ReturnType<typeof ordersRepo>;
