// Tracking back to the store: when lines of an order ship (the provider's `shipped` postback, or
// an operator's Mark shipped for lines printed in house), an outbox row of kind store-fulfilment is
// written in the same transaction, one per (order, shipment). A worker claims it under a lease,
// reads the order's fulfillment orders from Shopify's Admin API and creates the fulfilment of
// exactly those lines with the tracking and notifyCustomer. Lines the store already fulfilled
// (by hand, or by us in an attempt whose answer was lost) are never fulfilled twice: every attempt
// reads the remaining quantities first.
import { AUTOMATIC, byUser, recordChange, type HistoryBy } from '../history';
import type { Knex } from 'knex';
import { hasShopifyAdmin, userErrorsOf, type ShopifyAdminError } from '../../integrations/shopifyAdmin';
import type { MarkShippedInput, StoreFulfilment } from '../../../../common/api/orders';
import { badRequest, notFound } from '../../http/errors';
import { fieldError } from '../../http/fieldErrors';
import type { Actor } from '../../http/types';
import { printJobsOfOrder } from '../print-jobs';
import { type Site, findSite, findSiteBySlug } from '../sites';
import { later, nowIso, retryReason, text, type FulfilmentContext } from './context';
import type { StoreOrder } from './orderBody';
import { outboxRepo, type OutboxRow } from './outbox';
import { lockedOrder, resolveOrder } from './resolveOrder';
import { moveOrder, nextOrderStatus, ORDER_EVENTS } from '../orders';
import { unitsToMake, type LineUnits } from '../../../../common/api/units';
import type { DataRecord } from '../general-data';
import { STORE_FULFILMENT_KIND, storeFulfilmentRepo, type ShipmentTracking, type StoreFulfilmentPayload } from './storeFulfilmentRepo';

export { STORE_FULFILMENT_KIND, storeFulfilmentDedupeKey, type ShipmentTracking, type StoreFulfilmentPayload } from './storeFulfilmentRepo';

/** The Admin API transport's call (shopifyAdmin(settings).request): answers `data`, throws on errors. */
export type StoreRequest = <T>(document: string, variables?: Record<string, unknown>) => Promise<T>;
/** The Admin API of a site's store, or null when the site has no Admin API token. */
export type StoreAdminFor = (site: Site) => { request: StoreRequest } | null;

/**
 * An order's fulfillment orders and their lines with what is left to fulfil (docs/connect-shopify.md).
 * Sized to Shopify's 1000-point limit on one query's requested cost: 5 × (1 + 2 + 50 × 2) + 3 = 518
 * (first: 50 × 250 was ~25,000 and refused as MAX_COST_EXCEEDED). A line beyond them is reported
 * missing, never taken as fulfilled.
 */
export const FULFILLMENT_ORDERS_QUERY = `query PressworkFulfillmentOrders($id: ID!) {
  order(id: $id) {
    id
    fulfillmentOrders(first: 5) {
      nodes {
        id
        status
        lineItems(first: 50) {
          nodes { id remainingQuantity lineItem { id sku } }
        }
      }
    }
  }
}`;

/** The fulfilment of some fulfillment order lines, with tracking; Shopify emails the customer. */
export const FULFILLMENT_CREATE_MUTATION = `mutation PressworkFulfillmentCreate($fulfillment: FulfillmentInput!) {
  fulfillmentCreate(fulfillment: $fulfillment) {
    fulfillment { id status createdAt trackingInfo { number url company } }
    userErrors { field message }
  }
}`;

interface FulfillmentOrdersData {
  order: null | {
    id: string;
    fulfillmentOrders: { nodes: Array<{ id: string; status: string; lineItems: { nodes: Array<{ id: string; remainingQuantity: number; lineItem: { id: string; sku: string | null } }> } }> };
  };
}
interface FulfillmentCreateData {
  fulfillmentCreate: null | {
    fulfillment: { id: string; status: string; createdAt?: string; trackingInfo?: Array<{ number: string | null; url: string | null; company: string | null }> } | null;
    userErrors: Array<{ field: string[] | null; message: string }>;
  };
}

export const orderGid = (orderId: string) => `gid://shopify/Order/${orderId}`;
export const lineItemGid = (lineId: string) => `gid://shopify/LineItem/${lineId}`;
const legacyId = (gid: string) => gid.slice(gid.lastIndexOf('/') + 1);


/** What a write-back row shows (Check order, HP Data). */
export type StoreFulfilmentView = StoreFulfilment;

interface RowResult {
  createSentAt?: string;
  fulfillment?: { id: string; status: string; createdAt?: string } | null;
  fulfilledLineIds?: string[];
  alreadyFulfilledLineIds?: string[];
  note?: string;
  doneAt?: string;
  userErrors?: unknown;
}

export function viewOf(row: OutboxRow): StoreFulfilmentView {
  const p = row.payload as StoreFulfilmentPayload;
  const r = (row.result ?? {}) as RowResult;
  return {
    outboxId: row.id,
    status: row.status === 'sent' ? 'sent' : row.status === 'failed' ? 'failed' : 'pending',
    source: p.source,
    lineIds: p.lineIds ?? [],
    tracking: p.tracking,
    error: row.error,
    note: r.note ?? null,
    fulfillmentId: r.fulfillment?.id ?? null,
    fulfilledLineIds: r.fulfilledLineIds ?? [],
    alreadyFulfilledLineIds: r.alreadyFulfilledLineIds ?? [],
    createdAt: row.createdAt,
    doneAt: r.doneAt ?? null,
  };
}

/** The lines the store says are fulfilled (its orders/fulfilled and orders/updated webhooks). */
export function fulfilledInStore(order: StoreOrder): Set<string> {
  return new Set(
    (order.line_items ?? [])
      .filter((l) => {
        const line = l as { fulfillment_status?: unknown; fulfillable_quantity?: unknown };
        return line.fulfillment_status === 'fulfilled' || (line.fulfillable_quantity === 0 && line.fulfillment_status !== null && line.fulfillment_status !== undefined);
      })
      .map((l) => text(l.id)),
  );
}

/**
 * In the caller's transaction: queue the write-back of a shipment. Nothing is queued when the
 * store has no Admin API token (nothing could send it) or every line is already fulfilled there.
 */
export async function queueStoreFulfilment(trx: Knex.Transaction, site: Site, order: StoreOrder, input: { orderId: string; lineIds: string[]; tracking: ShipmentTracking; source: 'provider' | 'in-house'; actorId: number | null }, at: string): Promise<OutboxRow | undefined> {
  if (!hasShopifyAdmin(site)) return undefined;
  const done = fulfilledInStore(order);
  const lineIds = [...new Set(input.lineIds.map(String))].filter((id) => !done.has(id)).sort();
  if (!lineIds.length) return undefined;
  const payload: StoreFulfilmentPayload = { siteId: site.id, orderId: input.orderId, lineId: null, actorId: input.actorId, lineIds, tracking: input.tracking, source: input.source };
  return storeFulfilmentRepo(trx).enqueue(payload, at);
}

/** The lines a provider order `sourceOrderId` carried: its own line, or the whole order's lines not sent on their own. */
export function linesOfProviderOrder(order: StoreOrder, orderId: string, lineId: string | null): string[] {
  if (lineId) {
    // Lines sent together are named after the first: the provider order is all of them.
    const together = (order.preGeneratedHPItems ?? []).filter((i) => i.sourceOrderId === `${orderId}-${lineId}`).map((i) => i.lineId);
    return together.length ? [...new Set(together.map(String))] : [lineId];
  }
  const own = new Set(Object.keys((order.hpOrders as Record<string, unknown> | undefined) ?? {}).filter((k) => k.startsWith(`${orderId}-`)).map((k) => k.slice(orderId.length + 1)));
  const sent = (order.preGeneratedHPItems ?? []).filter((i) => i.sourceOrderId === orderId || (!i.sourceOrderId && !own.has(i.lineId))).map((i) => i.lineId);
  return sent.length ? sent : (order.line_items ?? []).map((l) => text(l.id)).filter((id) => id && !own.has(id));
}

type Outcome = StoreFulfilmentView;

/** Whether a transport failure can succeed later (no answer, throttled, the store's 5xx). */
export function transient(err: unknown): boolean {
  const kind = (err as { kind?: unknown } | null)?.kind;
  const status = Number((err as { status?: unknown } | null)?.status ?? 0);
  if (kind === 'throttled' || kind === 'network') return true;
  if (kind === 'http') return status === 0 || status === 429 || status >= 500;
  // Not the transport's error (a bug, a dropped connection below it): tried again, never lost.
  return kind === undefined;
}

/** What the history says of a write-back done: the lines and tracking sent, the store's fulfilment, what was already fulfilled. */
function fulfilledReason(p: StoreFulfilmentPayload, r: RowResult): string {
  const lines = (ids: string[]) => `line${ids.length === 1 ? '' : 's'} ${ids.join(', ')}`;
  const sent = r.fulfillment ? `${lines(r.fulfilledLineIds ?? [])}, tracking ${p.tracking.number}${p.tracking.company ? ` (${p.tracking.company})` : ''}, fulfilment ${legacyId(r.fulfillment.id)}` : null;
  return [sent, r.note ?? null].filter(Boolean).join('; ') || `${lines(p.lineIds)}, tracking ${p.tracking.number}`;
}

/** One attempt of a claimed write-back row (counted by what the row then says). */
export async function attemptStoreFulfilment(ctx: FulfilmentContext, row: OutboxRow, adminFor: StoreAdminFor | undefined): Promise<Outcome> {
  const view = await attemptStoreFulfilmentOnce(ctx, row, adminFor);
  ctx.metrics?.storeSend(view.status === 'pending' ? 'retry' : view.status);
  return view;
}

async function attemptStoreFulfilmentOnce(ctx: FulfilmentContext, row: OutboxRow, adminFor: StoreAdminFor | undefined): Promise<Outcome> {
  const p = row.payload as StoreFulfilmentPayload;
  const outbox = outboxRepo(ctx.db);
  const previous = (row.result ?? {}) as RowResult;
  const at = nowIso(ctx);
  // The row's outcome and its history entry, together (a row finished meanwhile by another attempt records nothing).
  const outcome = (action: 'store-fulfilled' | 'store-failed', mark: (o: ReturnType<typeof outboxRepo>) => Promise<number>, reason: string) =>
    ctx.db.transaction(async (trx) => {
      if ((await mark(outboxRepo(trx))) !== 1) return;
      await recordChange(trx, { at, siteId: p.siteId, kind: 'send', subjectId: row.id, orderRef: p.orderId, by: { automatic: AUTOMATIC.storeWriteBack }, action, from: 'pending', to: action === 'store-fulfilled' ? 'sent' : 'failed', reason });
    });
  const finish = async (result: RowResult) => {
    await outcome('store-fulfilled', (o) => o.markSent(row.id, { ...previous, ...result, doneAt: at }, at), fulfilledReason(p, result));
    return viewOf((await outbox.byId(row.id))!);
  };
  const fail = async (message: string, details: RowResult = {}) => {
    await outcome('store-failed', (o) => o.markFailed(row.id, message, { ...previous, ...details }, at), message);
    return viewOf((await outbox.byId(row.id))!);
  };
  const retry = async (message: string) => {
    if (row.attempts >= ctx.options.maxAttempts) return fail(`${message} (gave up after ${row.attempts} attempts)`);
    const cap = Math.min(ctx.options.backoff.maxMs, ctx.options.backoff.baseMs * 2 ** Math.max(0, row.attempts - 1));
    const next = later(ctx, Math.floor(cap / 2 + (Math.random() * cap) / 2));
    // The new try time and its history entry, together (a row finished meanwhile records nothing).
    await ctx.db.transaction(async (trx) => {
      if ((await outboxRepo(trx).reschedule(row.id, message, previous, next, at)) !== 1) return;
      await recordChange(trx, { at, siteId: p.siteId, kind: 'send', subjectId: row.id, orderRef: p.orderId, by: { automatic: AUTOMATIC.storeWriteBack }, action: 'rescheduled', reason: retryReason(ctx, message, row.attempts, next) });
    });
    return viewOf((await outbox.byId(row.id))!);
  };

  const site = await findSite(ctx.db, p.siteId);
  if (!site) return fail('The site of this order no longer exists');
  // No Admin API wired into this instance (configure({adminFor})): the row waits, nothing is lost.
  if (!adminFor) return retry('This instance has no Shopify Admin API client configured: waiting');
  const admin = adminFor(site);
  if (!admin) return fail(`The store of site "${site.name}" has no Admin API connection (an app's Client ID and secret, or a legacy token): the tracking was not sent`);
  const wanted = new Set(p.lineIds);
  try {
    const read = await admin.request<FulfillmentOrdersData>(FULFILLMENT_ORDERS_QUERY, { id: orderGid(p.orderId) });
    if (!read.order) return fail(`The store has no order ${p.orderId}`);
    const targets: Array<{ fulfillmentOrderId: string; fulfillmentOrderLineItems: Array<{ id: string; quantity: number }> }> = [];
    const toFulfil: string[] = [];
    const onHold: string[] = [];
    const seen = new Set<string>();
    for (const fo of read.order.fulfillmentOrders.nodes) {
      const items = fo.lineItems.nodes.filter((li) => wanted.has(legacyId(li.lineItem.id)));
      for (const li of items) seen.add(legacyId(li.lineItem.id));
      const open = items.filter((li) => li.remainingQuantity > 0);
      if (!open.length) continue;
      // A fulfillment order on hold or scheduled can be fulfilled once the store releases it.
      if (fo.status === 'ON_HOLD' || fo.status === 'SCHEDULED') {
        onHold.push(fo.status);
        continue;
      }
      targets.push({ fulfillmentOrderId: fo.id, fulfillmentOrderLineItems: open.map((li) => ({ id: li.id, quantity: li.remainingQuantity })) });
      toFulfil.push(...open.map((li) => legacyId(li.lineItem.id)));
    }
    if (onHold.length) return retry(`The store holds the fulfilment of these lines (${[...new Set(onHold)].join(', ')}): tried again later`);
    const already = p.lineIds.filter((id) => seen.has(id) && !toFulfil.includes(id));
    const missing = p.lineIds.filter((id) => !seen.has(id));
    if (!targets.length) {
      if (!already.length) return fail(`The store's order ${p.orderId} has no line ${missing.join(', ')} to fulfil`);
      // Fulfilled in the store already: by hand, or by our earlier attempt whose answer was lost.
      const ours = previous.createSentAt !== undefined;
      return finish({ alreadyFulfilledLineIds: already, fulfilledLineIds: previous.fulfilledLineIds ?? [], note: ours ? 'Fulfilled in the store (the answer to our earlier request was lost)' : 'already fulfilled in the store' });
    }
    // Kept before the call: a retry after a lost answer then knows the fulfilment may be ours.
    await storeFulfilmentRepo(ctx.db).noteCreateSent(row.id, { ...previous, createSentAt: at, fulfilledLineIds: toFulfil }, at);
    previous.createSentAt = at;
    previous.fulfilledLineIds = toFulfil;
    const created = await admin.request<FulfillmentCreateData>(FULFILLMENT_CREATE_MUTATION, {
      fulfillment: {
        lineItemsByFulfillmentOrder: targets,
        trackingInfo: { number: p.tracking.number, ...(p.tracking.url ? { url: p.tracking.url } : {}), ...(p.tracking.company ? { company: p.tracking.company } : {}) },
        notifyCustomer: true,
      },
    });
    const payload = userErrorsOf(created.fulfillmentCreate, 'The store');
    const notes = [already.length ? `lines ${already.join(', ')} already fulfilled in the store` : '', missing.length ? `lines ${missing.join(', ')} not in the store's order` : ''].filter(Boolean);
    return finish({ fulfillment: payload.fulfillment ? { id: payload.fulfillment.id, status: payload.fulfillment.status, createdAt: payload.fulfillment.createdAt } : null, fulfilledLineIds: toFulfil, alreadyFulfilledLineIds: already, ...(notes.length ? { note: notes.join('; ') } : {}) });
  } catch (err) {
    const message = (err as Error).message || 'The store call failed';
    const kind = (err as { kind?: unknown }).kind;
    if (kind === 'user-errors') {
      // The store refused this fulfilment as asked: an operator decides (fix it in the store, then Retry).
      const userErrors = (err as ShopifyAdminError).userErrors ?? null;
      const reasons = userErrors?.map((e) => (e.field?.length ? `${e.field.join('.')}: ${e.message}` : e.message)).join('; ') || message;
      return fail(`The store refused the fulfilment: ${reasons}`, { userErrors });
    }
    if (transient(err)) {
      if (kind === undefined) ctx.log.error({ err, outboxId: row.id }, 'store fulfilment failed unexpectedly');
      return retry(kind === 'throttled' ? `The store is throttling Admin API calls: tried again later (${message})` : `The store did not answer: ${message}`);
    }
    // Needs reconnecting: the sentence as it is (nothing was asked of the store).
    if (kind === 'auth') return fail((err as ShopifyAdminError).needsReconnect ? message : `The store refused the Admin API token: ${message}`);
    return fail(`The store refused the request: ${message}`);
  }
}

/** The worker's pass over due write-back rows. */
export async function processDueStoreFulfilments(ctx: FulfilmentContext, adminFor: StoreAdminFor | undefined): Promise<{ claimed: number; outcomes: Outcome[] }> {
  const repo = outboxRepo(ctx.db);
  const due = await repo.dueIds(nowIso(ctx), ctx.options.batchSize, STORE_FULFILMENT_KIND);
  const outcomes: Outcome[] = [];
  for (const id of due) {
    const row = await repo.claim(id, nowIso(ctx), later(ctx, ctx.options.leaseMs), false);
    if (!row || row.kind !== STORE_FULFILMENT_KIND) continue;
    outcomes.push(await attemptStoreFulfilment(ctx, row, adminFor));
  }
  return { claimed: outcomes.length, outcomes };
}

export type { MarkShippedInput };

/**
 * An operator's Mark shipped: lines printed in house (all of them when none are named) leave with
 * this tracking. Queues the write-back (a repeat with the same lines and tracking is the same
 * shipment; a failed one is asked for again) and tries it at once.
 */
export async function markShipped(ctx: FulfilmentContext, adminFor: StoreAdminFor | undefined, actor: Actor, input: MarkShippedInput): Promise<StoreFulfilmentView> {
  const named = input.siteId === undefined && input.site ? await findSiteBySlug(ctx.db, input.site) : undefined;
  if (input.siteId === undefined && input.site && !named) throw notFound('Order not found');
  const order = await resolveOrder(ctx.db, actor, input.orderId, input.siteId ?? named?.id);
  const orderId = text(order.field1);
  const site = (await findSite(ctx.db, order.siteId))!;
  if (!hasShopifyAdmin(site)) throw badRequest(`The store of site "${site.name}" has no Admin API connection: connect it in Setup → Stores to send tracking to the store`);
  const lineIds = (order.data.line_items ?? []).map((l) => text(l.id));
  const jobs = (await printJobsOfOrder(ctx.db, order.siteId, orderId)).filter((j) => !j.withdrawn);
  const inHouse = new Set(jobs.filter((j) => j.madeBy === 'inHouse').map((j) => j.lineItemId));
  const asked = input.lineIds?.length ? [...new Set(input.lineIds.map(String))] : lineIds.filter((id) => inHouse.has(id));
  for (const [i, id] of asked.entries()) {
    if (!lineIds.includes(id)) throw fieldError(`lineIds.${i}`, `names no line of order ${orderId}`);
    if (!inHouse.has(id)) throw fieldError(`lineIds.${i}`, `is not printed in house: the provider ships it and sends its tracking`);
  }
  if (!asked.length) throw fieldError('lineIds', 'has nothing to ship: no line of this order is printed in house');
  const at = nowIso(ctx);
  // E-cards are e-mailed, never posted: they never hold an order back from "shipped".
  const ecards = (await ctx.production.mapLines(order.siteId, { line_items: order.data.line_items ?? [] })).filter((m) => m.ecard).map((m) => text(m.line.id));
  const row = await ctx.db.transaction(async (trx) => {
    const locked = (await lockedOrder(trx, order.id))!;
    const done = fulfilledInStore(locked.data);
    if (asked.every((id) => done.has(id))) throw badRequest('These lines are already fulfilled in the store');
    const queued = await queueStoreFulfilment(trx, site, locked.data, { orderId, lineIds: asked, tracking: { number: input.trackingNumber, url: input.trackingUrl || null, company: input.carrier }, source: 'in-house', actorId: actor.id }, at);
    // Gone: this shipment, lines fulfilled in the store, and lines of earlier shipments of this order.
    const shippedBefore = (await storeFulfilmentRepo(trx).ofOrder(order.siteId, orderId)).filter((r) => r.status !== 'failed').flatMap((r) => (r.payload as StoreFulfilmentPayload).lineIds);
    const current = locked.status ?? (text(locked.data.status) || null);
    const lines = asked.length === lineIds.length ? 'all lines' : `line${asked.length === 1 ? '' : 's'} ${asked.join(', ')}`;
    const shipment = { orderId, by: byUser(actor), reason: `${lines}, tracking ${input.trackingNumber}${input.carrier ? ` (${input.carrier})` : ''}` };
    const moved = await shippedFromTheFloor(trx, locked, new Set([...asked, ...done, ...shippedBefore, ...ecards]), input, shipment, at);
    // Not the last lines: the shipment is in the history all the same, the order staying as it is.
    if (!moved) await recordChange(trx, { at, siteId: order.siteId, kind: 'order', subjectId: orderId, by: shipment.by, action: 'shipped', from: current, to: current, reason: shipment.reason });
    if (queued?.status === 'failed' && (await storeFulfilmentRepo(trx).retryFailed(queued.id, at))) return (await outboxRepo(trx).byId(queued.id))!;
    return queued;
  });
  if (!row) throw badRequest('These lines are already fulfilled in the store');
  const claimed = row.status === 'pending' ? await outboxRepo(ctx.db).claim(row.id, nowIso(ctx), later(ctx, ctx.options.leaseMs), true) : undefined;
  if (claimed) return attemptStoreFulfilment(ctx, claimed, adminFor);
  return viewOf((await outboxRepo(ctx.db).byId(row.id))!);
}

/**
 * Once every line with units left has left the floor (this shipment, or fulfilled in the store
 * already), the order is shipped, with this tracking, as a provider's shipped postback makes it. An
 * order with lines still at the provider waits for the provider's postback.
 */
async function shippedFromTheFloor(trx: Knex.Transaction, locked: DataRecord<StoreOrder>, gone: Set<string>, input: MarkShippedInput, shipment: { orderId: string; by: HistoryBy; reason: string }, at: string): Promise<boolean> {
  const lines = locked.data.line_items ?? [];
  // `gone`: shipped now or before, fulfilled in the store, or e-mailed (e-cards).
  if (!lines.every((l) => unitsToMake(l as LineUnits) === 0 || gone.has(text(l.id)))) return false;
  const current = locked.status ?? (text(locked.data.status) || null);
  const next = nextOrderStatus(current, 'shipped', text(locked.data.hpProgress) || null);
  if (!next) return false;
  const data = { ...locked.data, tracking: { number: input.trackingNumber, method: input.carrier, url: input.trackingUrl || null } };
  const how = { event: ORDER_EVENTS.shippedInHouse, at, by: shipment.by, reason: shipment.reason, action: 'shipped', patch: { data, before: locked.data } };
  return moveOrder(trx, { id: locked.id, siteId: locked.siteId, orderId: shipment.orderId, status: current }, next, how);
}

/** The write-backs of an order, newest last (Check order, HP Data). */
export async function storeFulfilmentsOf(db: FulfilmentContext['db'] | Knex.Transaction, siteId: number, orderId: string): Promise<StoreFulfilmentView[]> {
  return (await storeFulfilmentRepo(db).ofOrder(siteId, orderId)).map(viewOf);
}

/** What the app holds: the worker's pass and Mark shipped, over the Admin API of each store. */
export function storeFulfilments(ctx: FulfilmentContext, initial: { adminFor?: StoreAdminFor } = {}) {
  const state = { ...initial };
  return {
    processDue: () => processDueStoreFulfilments(ctx, state.adminFor),
    markShipped: (actor: Actor, input: MarkShippedInput) => markShipped(ctx, state.adminFor, actor, input),
    ofOrder: async (actor: Actor, orderId: string, siteId?: number) => {
      const order = await resolveOrder(ctx.db, actor, orderId, siteId);
      return storeFulfilmentsOf(ctx.db, order.siteId, text(order.field1));
    },
    /** Tests and main.ts: the Admin API of a site's store. */
    configure(next: { adminFor?: StoreAdminFor }) {
      Object.assign(state, next);
    },
  };
}

export type StoreFulfilments = ReturnType<typeof storeFulfilments>;
