// What a store order delivery does to its order, run by the inbox after the webhook was answered:
// the order stored once per (site, store order id), the newest update wins, and an auto-send
// site's new order is queued for the provider in the same transaction.
import type { Knex } from 'knex';
import { isoNow, type Clock } from '../../lib/clock';
import type { Delivery } from '../inbox/service';
import type { ProductionService } from '../production/service';
import { sitesRepo } from '../sites/repo';
import { ordersRepo } from './repo';
import { RECEIVED, isOlder, mergeOrderData, nextStatus, normaliseOrder, orderCreatedAt, orderSearchText, type OrderData, type ShopifyOrder } from './shopify';
import { sendsAutomatically } from './webhookSites';

/** The provider side (modules/fulfilment): queues a send in the caller's transaction, deduplicated per order/line. */
export interface OrderSendPort {
  enqueueOrderSend(trx: Knex.Transaction, input: { siteId: number; orderId: string; lineIds?: string[] }, actorId?: number | null): Promise<unknown>;
}

export interface UpsertContext {
  clock: Clock;
  production: Pick<ProductionService, 'autoSendable'>;
  /** The provider side, once wired (none: nothing is sent automatically). */
  sendPort(): OrderSendPort | undefined;
}

/** The batch the inbox claimed: applied per site (orders read once and written once); the inbox marks it processed. */
export async function applyDeliveries(ctx: UpsertContext, trx: Knex.Transaction, deliveries: Delivery[]): Promise<void> {
  const bySite = new Map<number, Delivery[]>();
  for (const d of deliveries) {
    if (d.siteId === null) throw new Error('The delivery has no site (the site was deleted)');
    bySite.set(d.siteId, [...(bySite.get(d.siteId) ?? []), d]);
  }
  for (const [siteId, list] of bySite) {
    const site = ctx.sendPort() ? await sitesRepo(trx).byId(siteId) : undefined;
    // An auto-send site: one delivery after the other, each deciding what to send as it goes.
    if (sendsAutomatically(site)) for (const d of list) await applyDelivery(ctx, trx, d);
    else await applyOrders(ctx, trx, siteId, list);
  }
}

/** applyDelivery's rules for a site's deliveries in id order (no auto-send), each order read once and written once. */
async function applyOrders({ clock }: UpsertContext, trx: Knex.Transaction, siteId: number, list: Delivery[]): Promise<void> {
  const repo = ordersRepo(trx);
  const incoming = list.map((d) => ({ topic: d.topic ?? '', order: normaliseOrder(d.payload) }));
  const orderIds = [...new Set(incoming.map((x) => x.order.id))];
  await repo.lockOrders(siteId, orderIds);
  const stored = await repo.orderStates(siteId, orderIds, true);
  const now = isoNow(clock);
  const next = new Map<string, { id?: number; order: ShopifyOrder; status: string; data: OrderData; createdAt: string }>();
  for (const { topic, order } of incoming) {
    const current = next.get(order.id) ?? stored.get(order.id);
    if (current && isOlder(order, current.data)) continue;
    const status = nextStatus(current?.status, order);
    const data = mergeOrderData(current?.data, order, topic, status);
    const before = next.get(order.id);
    next.set(order.id, { id: stored.get(order.id)?.id, order, status, data, createdAt: before?.createdAt ?? orderCreatedAt(order, now) });
  }
  const fresh = [];
  for (const [orderId, o] of next) {
    if (o.id !== undefined) await repo.updateOrder(o.id, { name: o.order.name, status: o.status, searchText: orderSearchText(o.order), data: o.data, before: stored.get(orderId)?.data, updatedAt: now });
    else fresh.push({ siteId, orderId, name: o.order.name, status: o.status, searchText: orderSearchText(o.order), data: o.data, createdAt: o.createdAt, updatedAt: now });
  }
  await repo.insertOrders(fresh);
}

/**
 * One delivery: upsert the order record (newest updated_at wins) and, for an auto-send site,
 * queue the provider send in the same transaction.
 */
export async function applyDelivery(ctx: UpsertContext, trx: Knex.Transaction, d: { id: number; siteId: number | null; topic: string | null; payload: unknown }): Promise<'stored' | 'stale'> {
const { clock } = ctx;
const sendPort = ctx.sendPort();
  if (d.siteId === null) throw new Error('The delivery has no site (the site was deleted)');
  const order = normaliseOrder(d.payload);
  const repo = ordersRepo(trx);
  await repo.lockOrder(d.siteId, order.id);
  const existing = await repo.orderOf(d.siteId, order.id, true);
  if (existing && isOlder(order, existing.data)) return 'stale';
  const now = isoNow(clock);
  const status = nextStatus(existing?.status, order);
  const data = mergeOrderData(existing?.data, order, d.topic ?? '', status);
  if (existing) {
    await repo.updateOrder(existing.id, { name: order.name, status, searchText: orderSearchText(order), data, before: existing.data, updatedAt: now });
  } else {
    await repo.insertOrders([{ siteId: d.siteId, orderId: order.id, name: order.name, status, searchText: orderSearchText(order), data, createdAt: orderCreatedAt(order, now), updatedAt: now }]);
  }
  if (status === RECEIVED && sendPort) {
    const site = await sitesRepo(trx).byId(d.siteId);
    if (sendsAutomatically(site) && (await ctx.production.autoSendable(trx, d.siteId, order))) {
      await sendPort.enqueueOrderSend(trx, { siteId: d.siteId, orderId: order.id });
    }
  }
  return 'stored';
}
