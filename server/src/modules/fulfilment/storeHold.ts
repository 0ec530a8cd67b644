// The store sees a waiting order: while lines of a paid order wait (the change window, the buyer's
// proof), its fulfillment orders are held in Shopify (fulfillmentOrderHold, reason OTHER, our own
// handle and a note saying why), and released (fulfillmentOrderReleaseHold of our holds only) once
// nothing of it waits. When the reason changes while it is held (the window made longer), a new hold
// with the new note is placed before our older one is released, so the order is never unheld. Both go through the outbox (kind store-hold): queued in the caller's
// transaction, sent by the store write-back worker under a lease, retried while the store does not
// answer. A store whose token lacks the fulfillment orders scope answers ACCESS_DENIED: the row
// ends (holding goes on inside Presswork) and the site gets one notice in Needs attention.
import type { Knex } from 'knex';
import { AUTOMATIC, recordChange } from '../history';
import { hasShopifyAdmin, userErrorsOf, type ShopifyAdminError } from '../../integrations/shopifyAdmin';
import { type Site, findSite } from '../sites';
import { later, nowIso, retryReason, type FulfilmentContext } from './context';
import { outboxRepo, type OutboxRow } from './outbox';
import { orderGid, transient, type StoreAdminFor } from './storeFulfilment';
import { STORE_HOLD_KIND, storeHoldRepo, type StoreHoldPayload } from './storeHoldRepo';

/** Our holds' handle: we release only what we placed, never a hold the merchant or another app made. */
export const STORE_HOLD_HANDLE = 'presswork';
/** Ours: the first hold's handle, or a renote's (`presswork-<row>`: a handle is unique per fulfillment order). */
const isOurs = (handle: string | null) => handle === STORE_HOLD_HANDLE || Boolean(handle?.startsWith(`${STORE_HOLD_HANDLE}-`));
/** The scopes either of which lets an app hold merchant-managed fulfillment orders (shopify.dev, fulfillmentOrderHold). */
export const STORE_HOLD_SCOPES = ['write_merchant_managed_fulfillment_orders', 'write_third_party_fulfillment_orders'];

/** The order's fulfillment orders with their holds. Cost: 1 + 5 × (1 + 1) = 11 points. */
export const FULFILLMENT_HOLDS_QUERY = `query PressworkFulfillmentHolds($id: ID!) {
  order(id: $id) {
    id
    fulfillmentOrders(first: 5) {
      nodes { id status fulfillmentHolds { id handle } }
    }
  }
}`;

export const FULFILLMENT_ORDER_HOLD_MUTATION = `mutation PressworkFulfillmentOrderHold($id: ID!, $fulfillmentHold: FulfillmentOrderHoldInput!) {
  fulfillmentOrderHold(id: $id, fulfillmentHold: $fulfillmentHold) {
    fulfillmentHold { id handle }
    fulfillmentOrder { id status }
    userErrors { field message code }
  }
}`;

export const FULFILLMENT_ORDER_RELEASE_HOLD_MUTATION = `mutation PressworkFulfillmentOrderReleaseHold($id: ID!, $holdIds: [ID!]) {
  fulfillmentOrderReleaseHold(id: $id, holdIds: $holdIds) {
    fulfillmentOrder { id status }
    userErrors { field message code }
  }
}`;

interface HoldsData {
  order: null | { id: string; fulfillmentOrders: { nodes: Array<{ id: string; status: string; fulfillmentHolds: Array<{ id: string; handle: string | null }> }> } };
}
interface HoldData {
  fulfillmentOrderHold: null | { fulfillmentHold: { id: string } | null; userErrors: Array<{ field: string[] | null; message: string }> };
}
interface ReleaseData {
  fulfillmentOrderReleaseHold: null | { fulfillmentOrder: { id: string; status: string } | null; userErrors: Array<{ field: string[] | null; message: string }> };
}

/** In the caller's transaction: hold the order in the store (a site without an Admin API connection holds nothing there). */
export async function queueStoreHold(trx: Knex.Transaction, site: Site, input: { orderId: string; note: string }, at: string): Promise<boolean> {
  if (!hasShopifyAdmin(site)) return false;
  await storeHoldRepo(trx).enqueue({ siteId: site.id, orderId: input.orderId, lineId: null, actorId: null, action: 'hold', note: input.note.slice(0, 255) }, at);
  return true;
}

/** In the caller's transaction: release the order's hold in the store (nothing when it was never held). */
export async function queueStoreRelease(trx: Knex.Transaction, siteId: number, orderId: string, at: string): Promise<boolean> {
  const repo = storeHoldRepo(trx);
  if (!(await repo.rowOf(siteId, orderId, 'hold'))) return false;
  await repo.enqueue({ siteId, orderId, lineId: null, actorId: null, action: 'release', note: null }, at);
  return true;
}

/**
 * In the caller's transaction: the order is held with a new reason (its window made longer), so
 * the store's note says so. Nothing when it was never held or is released already.
 */
export async function queueStoreHoldNote(trx: Knex.Transaction, siteId: number, orderId: string, note: string, at: string): Promise<boolean> {
  const repo = storeHoldRepo(trx);
  if (!(await repo.rowOf(siteId, orderId, 'hold')) || (await repo.rowOf(siteId, orderId, 'release'))) return false;
  await repo.enqueue({ siteId, orderId, lineId: null, actorId: null, action: 'renote', note: note.slice(0, 255) }, at);
  return true;
}

interface HoldResult {
  fulfillmentOrderIds?: string[];
  note?: string;
  doneAt?: string;
}

/** One attempt of a claimed hold or release row. */
export async function attemptStoreHold(ctx: FulfilmentContext, row: OutboxRow, adminFor: StoreAdminFor | undefined): Promise<OutboxRow> {
  const p = row.payload as StoreHoldPayload;
  const at = nowIso(ctx);
  const action = p.action === 'hold' ? 'store-held' : p.action === 'renote' ? 'store-hold-renoted' : 'store-hold-released';
  const record = (trx: Knex.Transaction, what: string, reason: string, to: string) =>
    recordChange(trx, { at, siteId: p.siteId, kind: 'send', subjectId: row.id, orderRef: p.orderId, by: { automatic: AUTOMATIC.storeWriteBack }, action: what, from: 'pending', to, reason });
  const finish = async (result: HoldResult, reason: string) => {
    await ctx.db.transaction(async (trx) => {
      if ((await outboxRepo(trx).markSent(row.id, { ...result, doneAt: at }, at)) === 1) await record(trx, action, reason, 'sent');
    });
    return (await outboxRepo(ctx.db).byId(row.id))!;
  };
  const fail = async (message: string) => {
    await ctx.db.transaction(async (trx) => {
      if ((await outboxRepo(trx).markFailed(row.id, message, row.result, at)) === 1) await record(trx, `${action}-failed`, message, 'failed');
    });
    return (await outboxRepo(ctx.db).byId(row.id))!;
  };
  const retry = async (message: string) => {
    if (row.attempts >= ctx.options.maxAttempts) return fail(`${message} (gave up after ${row.attempts} attempts)`);
    const cap = Math.min(ctx.options.backoff.maxMs, ctx.options.backoff.baseMs * 2 ** Math.max(0, row.attempts - 1));
    const next = later(ctx, Math.floor(cap / 2 + (Math.random() * cap) / 2));
    await ctx.db.transaction(async (trx) => {
      if ((await outboxRepo(trx).reschedule(row.id, message, row.result, next, at)) !== 1) return;
      await recordChange(trx, { at, siteId: p.siteId, kind: 'send', subjectId: row.id, orderRef: p.orderId, by: { automatic: AUTOMATIC.storeWriteBack }, action: 'rescheduled', reason: retryReason(ctx, message, row.attempts, next) });
    });
    return (await outboxRepo(ctx.db).byId(row.id))!;
  };

  const site = await findSite(ctx.db, p.siteId);
  if (!site) return fail('The site of this order no longer exists');
  const holds = storeHoldRepo(ctx.db);
  if (p.action !== 'release') {
    // Released before the hold (or its new note) reached the store: holding it now would keep it held.
    if (await holds.rowOf(p.siteId, p.orderId, 'release')) return finish({ note: 'released in Presswork before the hold reached the store' }, 'not held: the order was released first');
  }
  if (p.action !== 'hold') {
    // The hold still on its way (or being retried): a release or a new note follows it, never overtakes it.
    const hold = await holds.rowOf(p.siteId, p.orderId, 'hold');
    if (hold?.status === 'pending') return retry(`The hold has not reached the store yet: ${p.action === 'release' ? 'released' : 'its new note goes'} after it`);
    if (p.action === 'release' && (await holds.renotePending(p.siteId, p.orderId))) return retry('The hold\'s new note has not reached the store yet: released after it');
  }
  if (!adminFor) return retry('This instance has no Shopify Admin API client configured: waiting');
  const admin = adminFor(site);
  if (!admin) return fail(`The store of site "${site.name}" has no Admin API connection: the order is held in Presswork only`);
  try {
    const read = await admin.request<HoldsData>(FULFILLMENT_HOLDS_QUERY, { id: orderGid(p.orderId) });
    if (!read.order) return fail(`The store has no order ${p.orderId}`);
    const done: string[] = [];
    for (const fo of read.order.fulfillmentOrders.nodes) {
      const ours = fo.fulfillmentHolds.filter((h) => isOurs(h.handle));
      if (p.action === 'hold') {
        // Held already (our earlier attempt whose answer was lost), or nothing left to hold.
        if (ours.length || fo.status === 'CLOSED' || fo.status === 'CANCELLED') continue;
        const held = await admin.request<HoldData>(FULFILLMENT_ORDER_HOLD_MUTATION, { id: fo.id, fulfillmentHold: { reason: 'OTHER', reasonNotes: p.note, handle: STORE_HOLD_HANDLE, notifyMerchant: false } });
        userErrorsOf(held.fulfillmentOrderHold, 'The store');
      } else if (p.action === 'renote') {
        // Not held by us (the scope was missing, or it is fulfilled): there is no note to change.
        if (!ours.length) continue;
        const handle = `${STORE_HOLD_HANDLE}-${row.id}`;
        // The new hold first (unless our earlier attempt placed it), then our older ones go.
        if (!ours.some((h) => h.handle === handle)) {
          const held = await admin.request<HoldData>(FULFILLMENT_ORDER_HOLD_MUTATION, { id: fo.id, fulfillmentHold: { reason: 'OTHER', reasonNotes: p.note, handle, notifyMerchant: false } });
          userErrorsOf(held.fulfillmentOrderHold, 'The store');
        }
        const older = ours.filter((h) => h.handle !== handle);
        if (older.length) {
          const released = await admin.request<ReleaseData>(FULFILLMENT_ORDER_RELEASE_HOLD_MUTATION, { id: fo.id, holdIds: older.map((h) => h.id) });
          userErrorsOf(released.fulfillmentOrderReleaseHold, 'The store');
        }
      } else {
        if (!ours.length) continue;
        const released = await admin.request<ReleaseData>(FULFILLMENT_ORDER_RELEASE_HOLD_MUTATION, { id: fo.id, holdIds: ours.map((h) => h.id) });
        userErrorsOf(released.fulfillmentOrderReleaseHold, 'The store');
      }
      done.push(fo.id);
    }
    if (p.action === 'hold') await holds.clearNotice(p.siteId, at);
    const what = p.action === 'hold' ? 'held' : p.action === 'renote' ? 'held with the new note' : 'released';
    return finish({ fulfillmentOrderIds: done }, done.length ? `${done.length} fulfillment order${done.length === 1 ? '' : 's'} ${what} in the store${p.note ? `: ${p.note}` : ''}` : `nothing to ${p.action === 'release' ? 'release' : 'hold'} in the store`);
  } catch (err) {
    const e = err as ShopifyAdminError;
    const message = e.message || 'The store call failed';
    if (e.missingScope) {
      // The order still waits in Presswork: the store just does not show it. Told once per site.
      await ctx.db.transaction(async (trx) => {
        if (await storeHoldRepo(trx).raiseNotice(p.siteId, message, at)) ctx.log.warn({ siteId: p.siteId }, 'store refuses fulfillment holds: scope missing');
      });
      return finish({ note: `not ${p.action === 'release' ? 'released' : 'held'} in the store: the access token lacks the scope` }, `not in the store: ${message}`);
    }
    if (e.kind === 'user-errors') return fail(`The store refused the ${p.action}: ${message}`);
    if (transient(err)) return retry(`The store did not answer: ${message}`);
    return fail(`The store refused the request: ${message}`);
  }
}

/** The worker's pass over due hold and release rows. */
export async function processDueStoreHolds(ctx: FulfilmentContext, adminFor: StoreAdminFor | undefined): Promise<OutboxRow[]> {
  const repo = outboxRepo(ctx.db);
  const out: OutboxRow[] = [];
  for (const id of await repo.dueIds(nowIso(ctx), ctx.options.batchSize, STORE_HOLD_KIND)) {
    const row = await repo.claim(id, nowIso(ctx), later(ctx, ctx.options.leaseMs), false);
    if (row && row.kind === STORE_HOLD_KIND) out.push(await attemptStoreHold(ctx, row, adminFor));
  }
  return out;
}

/** Needs attention: the sites whose store refuses holds (their reason). */
export const storeHoldNotices = (db: FulfilmentContext['db'], siteId: number | undefined, limit: number) => storeHoldRepo(db).notices(siteId, limit);

/** What the app holds: the worker's pass over hold and release rows, over the Admin API of each store. */
export function storeHolds(ctx: FulfilmentContext, initial: { adminFor?: StoreAdminFor } = {}) {
  const state = { ...initial };
  return {
    processDue: () => processDueStoreHolds(ctx, state.adminFor),
    /** Tests: the Admin API of a site's store. */
    configure(next: { adminFor?: StoreAdminFor }) {
      Object.assign(state, next);
    },
  };
}

export type StoreHolds = ReturnType<typeof storeHolds>;
