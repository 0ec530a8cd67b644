// What a store order delivery does to its order, run by the inbox after the webhook was answered:
// the order stored once per (site, store order id), the newest version wins (an orders/edited body
// is applied to the stored lines), and in the same transaction what follows from it — a routing
// site's order routed line by line once it may go (paid, per SHOPIFY_SEND_WHEN; never when
// cancelled; workflows/routeOrder.ts), the order's print jobs following it (out of the queue when
// cancelled or its units removed), and a cancelled order's provider orders cancelled (fulfilment/cancel.ts).
import type { Knex } from 'knex';
import { isoNow, type Clock } from '../../lib/clock';
import { printHold } from './orderHold';
import type { Delivery } from '../inbox';
import type { LineDesign, OrderProductionPort } from './productionPort';
import { unitsToMake } from '../../../../common/api/units';
import { designProofOf } from '../../../../common/api/printProduction';
import { type Site, findSite } from '../sites';
import { AUTOMATIC, type HistoryBy } from '../history';
import { recordManyOrderChanges, recordOrderChanges } from './orderHistory';
import { checkMove, moveOrder, ORDER_EVENTS } from './orderState';
import { ordersRepo } from './repo';
import { APP_UNINSTALLED, disconnectStore } from './storeConnection';
import { isPrivacyTopic } from './privacy';
import { applyPrivacyDelivery } from './privacyRequests';
import { RECEIVED, applyStoreChange, orderCreatedAt, orderSearchText, storeChangeOf, type OrderData, type ShopifyOrder } from './shopify';
import { sendWhenOf } from './webhookSites';
import { startWaits, waitSettingsOf } from '../waiting';

/** The provider side (modules/fulfilment): queues a send in the caller's transaction, deduplicated per order/line. */
export interface OrderSendPort {
  enqueueOrderSend(trx: Knex.Transaction, input: { siteId: number; orderId: string; lineIds?: string[] }, actorId?: number | null): Promise<unknown>;
}

/** The provider side of a store cancellation (fulfilment/cancel.ts): answers what the order shows, or undefined (nothing reached the provider). */
export interface OrderCancelPort {
  cancelAtProvider(trx: Knex.Transaction, input: { siteId: number; orderId: string; by: HistoryBy }): Promise<object | undefined>;
}

/** Routing by the site's rules (workflows/routeOrder.ts, above orders): in the caller's transaction. */
export interface OrderRoutePort {
  /** Does the site route its orders by itself (a rule set, or HP_AUTO_SEND on)? */
  routesByItself(trx: Knex.Transaction, site: Site | undefined): Promise<boolean>;
  /**
   * The order's lines not routed yet, routed now if the order may go (the port checks). `known`:
   * what the caller read in this transaction (the site, the lines' designs in line order), not read again.
   */
  routeOrder(trx: Knex.Transaction, siteId: number, order: OrderData, known?: { site?: Site; lines?: LineDesign[] }): Promise<unknown>;
  /** Check order: each routed line's decision (action, rule or person, when), by line id. */
  routesOf(siteId: number, orderId: string): Promise<Map<string, unknown>>;
}

/** The charity's order pipeline (modules/pipeline): its steps queued once an order is paid, in the caller's transaction. */
export interface OrderPipelinePort {
  queueOnPaid(trx: Knex.Transaction, site: Site | undefined, order: OrderData): Promise<number>;
}

/** The store's side of a waiting order (fulfilment/storeHold.ts): its hold queued in the caller's transaction. */
export interface OrderStoreHoldPort {
  holdInStore(trx: Knex.Transaction, site: Site, input: { orderId: string; note: string }, at: string): Promise<unknown>;
}

export interface UpsertContext {
  clock: Clock;
  /** The shop's time zone (a change window until a time of day); UTC when not given. */
  timeZone?: string;
  production: Pick<OrderProductionPort, 'followOrder'> & Partial<Pick<OrderProductionPort, 'mapLines'>>;
  /** Routing, once wired (none: nothing is routed by itself). */
  routePort(): OrderRoutePort | undefined;
  cancelPort?(): OrderCancelPort | undefined;
  pipeline?: OrderPipelinePort;
  storeHold?: OrderStoreHoldPort;
}

/** The batch the inbox claimed: applied per site (orders read once and written once); the inbox marks it processed. */
export async function applyDeliveries(ctx: UpsertContext, trx: Knex.Transaction, deliveries: Delivery[]): Promise<void> {
  const bySite = new Map<number, Delivery[]>();
  for (const d of deliveries) {
    if (d.siteId === null) throw new Error('The delivery has no site (the site was deleted)');
    bySite.set(d.siteId, [...(bySite.get(d.siteId) ?? []), d]);
  }
  for (const [siteId, all] of bySite) {
    for (const d of all) if (d.topic === APP_UNINSTALLED) await disconnectStore(trx, siteId, isoNow(ctx.clock));
    for (const d of all) if (isPrivacyTopic(d.topic)) await applyPrivacyDelivery(trx, d, ctx.clock);
    const list = all.filter((d) => d.topic !== APP_UNINSTALLED && !isPrivacyTopic(d.topic));
    if (list.length === 0) continue;
    const route = ctx.routePort();
    const site = await findSite(trx, siteId);
    // A routing site: one delivery after the other, each routing what it may as it goes.
    if (route && (await route.routesByItself(trx, site))) for (const d of list) await applyDelivery(ctx, trx, d, site);
    else await applyOrders(ctx, trx, siteId, list, site);
  }
}

/** Units per line id: a change in them (or a cancellation) is what the order's print jobs follow. */
const unitsByLine = (data: Pick<OrderData, 'line_items'> | undefined) => JSON.stringify((data?.line_items ?? []).map((l) => [l.id, unitsToMake(l)]));

/** What follows a stored change, in its transaction: the jobs follow the order, a new cancellation goes to the provider. Answers the data to write. */
async function followUps(ctx: UpsertContext, trx: Knex.Transaction, siteId: number, before: OrderData | undefined, data: OrderData, by: HistoryBy): Promise<OrderData> {
  if (!before) return data;
  const newlyCancelled = Boolean(data.cancelled) && !before.cancelled;
  if (newlyCancelled || unitsByLine(before) !== unitsByLine(data)) await ctx.production.followOrder(trx, siteId, data);
  if (!newlyCancelled) return data;
  const providerCancellation = await ctx.cancelPort?.()?.cancelAtProvider(trx, { siteId, orderId: data.id, by });
  return providerCancellation ? { ...data, providerCancellation } : data;
}

/** applyDelivery's rules for a site's deliveries in id order (no routing), each order read once and written once. */
async function applyOrders(ctx: UpsertContext, trx: Knex.Transaction, siteId: number, list: Delivery[], site: Site | undefined): Promise<void> {
  const repo = ordersRepo(trx);
  const incoming = list.map((d) => ({ topic: d.topic ?? '', change: storeChangeOf(d.topic ?? '', d.payload) }));
  const orderIds = [...new Set(incoming.map((x) => x.change.orderId))];
  await repo.lockOrders(siteId, orderIds);
  const stored = await repo.orderStates(siteId, orderIds, true);
  const now = isoNow(ctx.clock);
  const next = new Map<string, { id?: number; order: ShopifyOrder; status: string; data: OrderData; createdAt: string }>();
  for (const { topic, change } of incoming) {
    const current = next.get(change.orderId) ?? stored.get(change.orderId);
    const applied = applyStoreChange(current, change, topic, now);
    if ('skipped' in applied) continue;
    const before = next.get(change.orderId);
    next.set(change.orderId, { id: stored.get(change.orderId)?.id, ...applied, createdAt: before?.createdAt ?? orderCreatedAt(applied.order, now) });
  }
  const fresh = [];
  for (const [orderId, o] of next) {
    if (o.id !== undefined) {
      const before = stored.get(orderId)?.data;
      const data = await followUps(ctx, trx, siteId, before, o.data, { automatic: AUTOMATIC.shopifyWebhook(o.data.lastTopic) });
      const how = { event: ORDER_EVENTS.store, at: now, by: { automatic: AUTOMATIC.shopifyWebhook(data.lastTopic) }, action: false as const, patch: { name: o.order.name, searchText: orderSearchText(o.order), data, before } };
      await moveOrder(trx, { id: o.id, siteId, orderId, status: stored.get(orderId)?.status ?? null }, o.status, how);
      await recordOrderChanges(trx, { siteId, orderId, at: now, by: { automatic: AUTOMATIC.shopifyWebhook(data.lastTopic) } }, before, { ...data, status: o.status });
    } else fresh.push({ siteId, orderId, name: o.order.name, status: o.status, searchText: orderSearchText(o.order), data: o.data, createdAt: o.createdAt, updatedAt: now });
  }
  for (const o of fresh) checkMove(o.orderId, null, o.status, ORDER_EVENTS.store);
  await repo.insertOrders(fresh);
  await recordManyOrderChanges(
    trx,
    fresh.map((o) => ({ order: { siteId, orderId: o.orderId, at: now, by: { automatic: AUTOMATIC.shopifyWebhook(o.data.lastTopic) } }, before: undefined, after: { ...o.data, status: o.status } })),
  );
  await waitWhenPaid(ctx, trx, siteId, site, [...next.values()].map((o) => o.data));
  for (const o of next.values()) await ctx.pipeline?.queueOnPaid(trx, site, o.data);
}

/**
 * Once an order may be made (paid, never cancelled), its lines wait as the site says: the change
 * window, a proof. A batch's orders have their lines' designs looked up together (a SKU once, not
 * once per order: per order it was most of a webhook burst's statements on PostgreSQL).
 */
async function waitWhenPaid(ctx: UpsertContext, trx: Knex.Transaction, siteId: number, site: Site | undefined, orders: OrderData[]): Promise<Map<OrderData, LineDesign[]>> {
  const designsOf = new Map<OrderData, LineDesign[]>();
  if (!site) return designsOf;
  const sendWhen = sendWhenOf(site);
  const paid = orders.filter((data) => !printHold(data, sendWhen));
  if (!paid.length) return designsOf;
  // Each line's design may say itself whether its buyers approve a proof (data.proof).
  const lines = paid.map((data) => data.line_items ?? []);
  const mapped = ctx.production.mapLines ? await ctx.production.mapLines(siteId, { line_items: lines.flat() }, trx) : [];
  let from = 0;
  for (const [i, data] of paid.entries()) {
    const own = mapped.slice(from, (from += lines[i].length));
    if (ctx.production.mapLines) designsOf.set(data, own);
    const designProofs = new Map(own.map((m) => [String(m.line.id), designProofOf(m.design?.data)]));
    const started = await startWaits(trx, { siteId, order: data, settings: waitSettingsOf(site), now: ctx.clock.now(), timeZone: ctx.timeZone ?? 'UTC', designProofs });
    // The store shows the order on hold while it waits, saying why.
    if (started.waiting && ctx.storeHold) await ctx.storeHold.holdInStore(trx, site, { orderId: String(data.id), note: `Presswork: ${started.waiting}` }, isoNow(ctx.clock));
  }
  return designsOf;
}

/**
 * One delivery: upsert the order record (newest version wins) and, for a routing site, route its
 * lines in the same transaction. An unpaid order is routed by the delivery that makes it paid
 * (orders/paid, or any topic whose financial_status says so); a line is routed once, and the
 * outbox's dedupe keys keep each send to one whatever arrives after.
 */
export async function applyDelivery(
  ctx: UpsertContext,
  trx: Knex.Transaction,
  d: { id: number; siteId: number | null; topic: string | null; payload: unknown },
  /** The delivery's site when the caller read it in this transaction (a batch's), not read again. */
  knownSite?: Site,
): Promise<'stored' | 'stale'> {
  const route = ctx.routePort();
  if (d.siteId === null) throw new Error('The delivery has no site (the site was deleted)');
  if (d.topic === APP_UNINSTALLED) {
    await disconnectStore(trx, d.siteId, isoNow(ctx.clock));
    return 'stored';
  }
  if (isPrivacyTopic(d.topic)) {
    await applyPrivacyDelivery(trx, d, ctx.clock);
    return 'stored';
  }
  const change = storeChangeOf(d.topic ?? '', d.payload);
  const repo = ordersRepo(trx);
  await repo.lockOrder(d.siteId, change.orderId);
  const existing = await repo.orderOf(d.siteId, change.orderId, true);
  const now = isoNow(ctx.clock);
  const applied = applyStoreChange(existing ? { status: existing.status, data: existing.data } : undefined, change, d.topic ?? '', now);
  if ('skipped' in applied) return 'stale';
  const { order, status } = applied;
  if (existing) {
    const data = await followUps(ctx, trx, d.siteId, existing.data, applied.data, { automatic: AUTOMATIC.shopifyWebhook(d.topic) });
    const how = { event: ORDER_EVENTS.store, at: now, by: { automatic: AUTOMATIC.shopifyWebhook(d.topic) }, action: false as const, patch: { name: order.name, searchText: orderSearchText(order), data, before: existing.data } };
    await moveOrder(trx, { id: existing.id, siteId: d.siteId, orderId: order.id, status: existing.status ?? null }, status, how);
  } else {
    checkMove(order.id, null, status, ORDER_EVENTS.store);
    await repo.insertOrders([{ siteId: d.siteId, orderId: order.id, name: order.name, status, searchText: orderSearchText(order), data: applied.data, createdAt: orderCreatedAt(order, now), updatedAt: now }]);
  }
  const by = { automatic: AUTOMATIC.shopifyWebhook(d.topic) };
  await recordOrderChanges(trx, { siteId: d.siteId, orderId: order.id, at: now, by }, existing ? { ...existing.data, status: existing.status ?? existing.data.status } : undefined, { ...applied.data, status });
  const site = knownSite?.id === d.siteId ? knownSite : await findSite(trx, d.siteId);
  // Before routing asks production: a line in its change window or waiting for its proof is not routed (routed when its wait ends).
  const designs = await waitWhenPaid(ctx, trx, d.siteId, site, [applied.data]);
  // Routing reuses the site and the lines' designs read here.
  if (status === RECEIVED && route) await route.routeOrder(trx, d.siteId, applied.data, { site, lines: designs.get(applied.data) });
  // The pipeline once paid: the delivery that pays the order queues it; later ones find it queued.
  await ctx.pipeline?.queueOnPaid(trx, site, applied.data);
  return 'stored';
}
