// Finding orders, within what the caller may see (auth/scope.ts: another site's order does not
// exist for a non-admin), and check-order: an order's records, newest first.
import type { Db } from '../../db';
import { notFound } from '../../http/errors';
import type { Actor } from '../../http/types';
import { siteScope } from '../auth';
import type { DataRecord } from '../records';
import type { OrderProductionPort } from './productionPort';
import { ORDER_TYPE, ordersRepo, type OrderRecord } from './repo';
import type { CheckOrderInput } from './schema';
import { orderNameOf } from './shopify';
import { findSite } from '../sites';
import { storeConnectionOf } from './storeConnection';
import { printHold } from './orderHold';
import { sendWhenOf } from './webhookSites';

export const ORDER_NOT_FOUND = 'Order not found';

export async function findOrders(db: Db, actor: Actor, by: { id?: string; name?: string; siteId?: number }): Promise<OrderRecord[]> {
  const siteId = siteScope(actor, by.siteId, ORDER_NOT_FOUND);
  const repo = ordersRepo(db);
  let found: OrderRecord[] = [];
  if (by.id) found = await repo.findOrders({ orderId: by.id, siteId });
  if (!found.length && by.name) found = await repo.findOrders({ names: [...new Set([by.name.trim(), orderNameOf(by.name)])], siteId });
  // "1001" typed into the id box: try it as an order name too.
  if (!found.length && by.id && !by.name && /^#?\d{1,9}$/.test(by.id)) found = await repo.findOrders({ names: [orderNameOf(by.id)], siteId });
  if (!found.length) throw notFound(ORDER_NOT_FOUND);
  return found;
}

/** One order by store order id (the newest if an admin's id matches orders of several sites). */
export async function orderFor(db: Db, actor: Actor, id: string, siteId?: number): Promise<OrderRecord> {
  const found = await ordersRepo(db).findOrders({ orderId: id, siteId: siteScope(actor, siteId, ORDER_NOT_FOUND) }, 1);
  if (!found[0]) throw notFound(ORDER_NOT_FOUND);
  return found[0];
}

/** Ship-by dates on an order's lines: ship-by's views, given at assembly (they read orders). */
export interface OrdersShipBy {
  onOrders(orders: OrderRecord[]): Promise<OrderRecord[]>;
}

/** check-order: the order's records (order, provider events, sends), newest first; the order's lines carry their ship-by. */
export async function checkOrder(
  db: Db,
  production: Pick<OrderProductionPort, 'whereMade' | 'routeLines'>,
  shipBy: OrdersShipBy,
  actor: Actor,
  input: CheckOrderInput,
  routesOf?: (siteId: number, orderId: string) => Promise<Map<string, unknown>>,
): Promise<DataRecord[]> {
  const orders = await shipBy.onOrders(await findOrders(db, actor, input));
  const repo = ordersRepo(db);
  const logs = (
    await Promise.all(
      orders.map(async (o) => {
        // The order's own record says where each of its lines is made (in house or by the provider),
        // where each goes and whether it may go now (with the reason), and whether its store is
        // connected (else nothing of its fulfilment comes back from it).
        const [records, made, site] = await Promise.all([repo.logsOf(o.siteId, o.field1!), production.whereMade(o.siteId, o.field1!), findSite(db, o.siteId)]);
        const routes = (await production.routeLines(db, o.siteId, { ...o.data, id: o.field1! }, printHold(o.data, sendWhenOf(site)))).map((r) => r.route);
        const storeConnection = site ? storeConnectionOf(site) : { connected: false };
        // Each line's routing decision (the rule, or the person), when it has one.
        const routing = routesOf ? await routesOf(o.siteId, o.field1!) : new Map<string, unknown>();
        const lineItems = (o.data.line_items ?? []).map((l) => (routing.has(String(l.id)) ? { ...l, route: routing.get(String(l.id)) } : l));
        return records.map((r) => (r.type === ORDER_TYPE ? { ...r, data: { ...r.data, line_items: lineItems, production: made, routes, storeConnection } } : r));
      }),
    )
  ).flat();
  return logs.sort((a, b) => (a.createdAt === b.createdAt ? b.id - a.id : a.createdAt < b.createdAt ? 1 : -1));
}
