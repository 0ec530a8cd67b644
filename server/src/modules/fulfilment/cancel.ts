// An order cancelled in the store is cancelled at the provider too, reliably: the cancellation
// queues a cancel step (an outbox row of kind hp-cancel) in the transaction that stores it; a worker
// claims the step under a lease and calls PUT /api/order/{HP_SOURCE_ACCOUNT}/{sourceOrderId}/cancel
// for each provider order of the order (the whole order's, and `<order>-<line>` for lines sent on
// their own), retrying no answer, 429 and 5xx with backoff. The result shows on the order
// (data.providerCancellation) and, once HP confirms, its status becomes `cancelled`.
import type { Knex } from 'knex';
import type { ProviderCancellation } from '../../../../common/api/orders';
import { badRequest } from '../../http/errors';
import type { Actor } from '../../http/types';
import type { Deps } from '../../deps';
import { HpError } from '../../integrations/hpSiteflow';
import { AUTOMATIC, byUser, recordChange, type HistoryBy } from '../history';
import { HP_CANCEL_KIND, cancelDedupeKey, cancelRepo } from './cancelRepo';
import { clientFor, later, nowIso, retryReason, SendFailure, siteSettings, text, type FulfilmentContext } from './context';
import { mayBeAtProvider } from './lineSends';
import { sourceOrderIdOf } from './orderBody';
import { hpDedupeKey, outboxRepo, type OutboxRow } from './outbox';
import { findOrder, lockedOrder, resolveOrder } from './resolveOrder';
import { moveOrder, nextOrderStatus, ORDER_EVENTS, TERMINAL } from '../orders';

export { HP_CANCEL_KIND } from './cancelRepo';
export type { ProviderCancellation } from '../../../../common/api/orders';

/** Why a send that had not gone out was stopped. */
export const STOPPED_BY_CANCELLATION = 'Not sent: the order was cancelled in the store';

const unanswered = (row: OutboxRow) => (row.result as { unanswered?: unknown } | null)?.unanswered === true;

/** The provider sends of an order: the whole order's and its lines' own. */
async function sendsOf(db: Deps['db'] | Knex.Transaction, siteId: number, orderId: string): Promise<OutboxRow[]> {
  const repo = outboxRepo(db);
  const whole = await repo.byKey(hpDedupeKey(siteId, orderId));
  return [...(whole ? [whole] : []), ...(await repo.lineRowsOf(siteId, orderId))];
}

/**
 * In the caller's transaction: stops the sends that have not gone out (each in its history, `by`),
 * and answers the provider orders HP may hold (sent, being sent now, or tried without an answer).
 */
async function stopAndFind(trx: Knex.Transaction, siteId: number, orderId: string, at: string, by: HistoryBy): Promise<{ atProvider: OutboxRow[]; inFlight: boolean }> {
  const atProvider: OutboxRow[] = [];
  let inFlight = false;
  for (const row of await sendsOf(trx, siteId, orderId)) {
    if (row.status === 'pending') {
      if (await cancelRepo(trx).stopSend(row.id, STOPPED_BY_CANCELLATION, at)) {
        await recordChange(trx, { at, siteId, kind: 'send', subjectId: row.id, orderRef: orderId, by, action: 'stopped', from: 'pending', to: 'failed', reason: STOPPED_BY_CANCELLATION });
        if (unanswered(row)) atProvider.push(row);
        continue;
      }
      // Being sent right now: its outcome decides.
      inFlight = true;
      atProvider.push(row);
    } else if (mayBeAtProvider(row)) atProvider.push(row);
  }
  return { atProvider, inFlight };
}

/**
 * In the transaction that stores the store's cancellation (or an operator's Cancel at HP): stops the
 * order's sends that have not gone out and, if HP may hold any of it, queues the cancel step, each
 * in the history as `by`'s. Answers what the order shows (undefined: nothing reached HP, nothing to
 * cancel there).
 */
export async function cancelAtProvider(trx: Knex.Transaction, input: { siteId: number; orderId: string; by: HistoryBy }, now: Date): Promise<ProviderCancellation | undefined> {
  const at = now.toISOString();
  const { atProvider } = await stopAndFind(trx, input.siteId, input.orderId, at, input.by);
  if (!atProvider.length) return undefined;
  const sourceOrderIds = atProvider.map((r) => sourceOrderIdOf(input.orderId, r.payload.lineId));
  const step = await cancelRepo(trx).enqueue(input.siteId, input.orderId, at);
  if (step.created) await recordChange(trx, { at, siteId: input.siteId, kind: 'send', subjectId: step.id, orderRef: input.orderId, by: input.by, action: 'cancel-queued', to: 'pending', reason: `HP orders ${sourceOrderIds.join(', ')}` });
  return { status: 'pending', message: 'Cancelling the order at HP Site Flow', at, sourceOrderIds };
}

/** In the caller's transaction: the result on the order record (and status `cancelled` once HP confirmed), under the order's lock. */
async function showOnOrder(trx: Knex.Transaction, siteId: number, orderId: string, result: ProviderCancellation): Promise<void> {
  const found = await findOrder(trx, orderId, siteId);
  const order = found && (await lockedOrder(trx, found.id));
  if (!order) return;
  const data = { ...order.data, providerCancellation: result };
  const current = order.status ?? (text(order.data.status) || null);
  const status = result.status === 'cancelled' ? nextOrderStatus(current, 'cancelled') : null;
  const how = { event: ORDER_EVENTS.providerCancelled, at: result.at, by: { automatic: AUTOMATIC.providerSend }, reason: result.message, patch: { data, before: order.data } };
  await moveOrder(trx, { id: order.id, siteId, orderId, status: current }, status, how);
}

type StepResult = { done: string[]; notThere: string[] };

/** One attempt of a claimed cancel step (counted). */
export async function attemptCancel(ctx: FulfilmentContext, row: OutboxRow): Promise<ProviderCancellation['status'] | 'queued'> {
  const status = await attemptCancelOnce(ctx, row);
  ctx.metrics?.providerSend('cancel', status === 'queued' || status === 'pending' ? 'retry' : status);
  return status;
}

async function attemptCancelOnce(ctx: FulfilmentContext, row: OutboxRow): Promise<ProviderCancellation['status'] | 'queued'> {
  const { siteId, orderId } = row.payload;
  const at = nowIso(ctx);
  const progress: StepResult = { done: [], notThere: [], ...((row.result as Partial<StepResult> | null) ?? {}) };
  const by = { automatic: AUTOMATIC.providerSend };
  // The step's outcome, the order's record and their history entries are kept together.
  const finish = async (result: Omit<ProviderCancellation, 'at'>) => {
    const shown = { ...result, at };
    await ctx.db.transaction(async (trx) => {
      const outbox = outboxRepo(trx);
      const changed = result.status === 'cancelled' ? await outbox.markSent(row.id, { ...progress, ...shown }, at) : await outbox.markFailed(row.id, result.message, { ...progress, ...shown }, at);
      // Finished meanwhile by another attempt: that one said so.
      if (changed !== 1) return;
      await recordChange(trx, { at, siteId, kind: 'send', subjectId: row.id, orderRef: orderId, by, action: result.status === 'cancelled' ? 'cancelled' : 'cancel-failed', from: 'pending', to: result.status, reason: result.message });
      await showOnOrder(trx, siteId, orderId, shown);
    });
    return result.status;
  };
  const retry = async (message: string) => {
    if (row.attempts >= ctx.options.maxAttempts) return finish({ status: 'failed', message: `${message} (gave up after ${row.attempts} attempts)` });
    const cap = Math.min(ctx.options.backoff.maxMs, ctx.options.backoff.baseMs * 2 ** Math.max(0, row.attempts - 1));
    const next = later(ctx, Math.floor(cap / 2 + (Math.random() * cap) / 2));
    await ctx.db.transaction(async (trx) => {
      if ((await outboxRepo(trx).reschedule(row.id, message, progress, next, at)) !== 1) return;
      await recordChange(trx, { at, siteId, kind: 'send', subjectId: row.id, orderRef: orderId, by, action: 'rescheduled', reason: retryReason(ctx, message, row.attempts, next) });
      await showOnOrder(trx, siteId, orderId, { status: 'pending', message, at });
    });
    return 'queued' as const;
  };

  const { atProvider, inFlight } = await ctx.db.transaction((trx) => stopAndFind(trx, siteId, orderId, at, by));
  if (inFlight) return retry('A send of this order is going out right now: it is cancelled once that send is answered');
  const targets = atProvider.map((r) => ({ sourceOrderId: sourceOrderIdOf(orderId, r.payload.lineId), maybeOnly: r.status === 'failed' }));
  const todo = targets.filter((t) => !progress.done.includes(t.sourceOrderId) && !progress.notThere.includes(t.sourceOrderId));
  if (!targets.length) return finish({ status: 'cancelled', message: 'Nothing had reached HP Site Flow: no send went out', sourceOrderIds: [] });
  let account: string;
  try {
    const { settings } = await siteSettings(ctx, siteId);
    if (!settings.sourceAccount) return finish({ status: 'failed', message: 'Set HP_SOURCE_ACCOUNT in the site settings to cancel orders at HP Site Flow; cancel it in Site Flow by hand meanwhile', sourceOrderIds: targets.map((t) => t.sourceOrderId) });
    account = settings.sourceAccount;
    const client = clientFor(ctx, settings);
    for (const t of todo) {
      try {
        await client.cancelOrder(account, t.sourceOrderId);
        progress.done.push(t.sourceOrderId);
      } catch (err) {
        if (!(err instanceof HpError)) throw err;
        if (err.retryable) return retry(`HP Site Flow did not answer the cancellation of ${t.sourceOrderId}: ${err.message}`);
        // A send that got no answer may never have landed: HP not knowing the order is the good outcome.
        if (err.status === 404 && t.maybeOnly) {
          progress.notThere.push(t.sourceOrderId);
          continue;
        }
        return finish({ status: 'failed', message: `HP Site Flow refused to cancel ${t.sourceOrderId}: ${err.message}`, sourceOrderIds: targets.map((x) => x.sourceOrderId) });
      }
    }
  } catch (err) {
    if (err instanceof SendFailure) return finish({ status: 'failed', message: err.message, sourceOrderIds: targets.map((t) => t.sourceOrderId) });
    ctx.log.error({ err, outboxId: row.id }, 'HP cancellation failed unexpectedly');
    return retry(`Unexpected error: ${(err as Error).message}`);
  }
  return finish({ status: 'cancelled', message: `Cancelled at HP Site Flow (${progress.done.join(', ') || 'nothing had landed there'})`, sourceOrderIds: targets.map((t) => t.sourceOrderId) });
}

/** The worker's pass over due cancel steps. */
export async function processDueCancellations(ctx: FulfilmentContext): Promise<{ claimed: number }> {
  const due = await outboxRepo(ctx.db).dueIds(nowIso(ctx), ctx.options.batchSize, HP_CANCEL_KIND);
  let claimed = 0;
  for (const id of due) {
    const row = await outboxRepo(ctx.db).claim(id, nowIso(ctx), later(ctx, ctx.options.leaseMs), false);
    if (!row || row.kind !== HP_CANCEL_KIND) continue;
    claimed++;
    await attemptCancel(ctx, row);
  }
  return { claimed };
}

/**
 * An operator's "Cancel at HP" (the order still live in the store): the same step as a store
 * cancellation — sends not gone out are stopped, the step queued (or a failed one queued again) —
 * tried at once. Answers what the order then shows.
 */
export async function cancelNow(ctx: FulfilmentContext, actor: Actor, input: { orderRef: string; siteId?: number }): Promise<ProviderCancellation> {
  const order = await resolveOrder(ctx.db, actor, input.orderRef, input.siteId);
  const orderId = text(order.field1);
  let found;
  try {
    found = await siteSettings(ctx, order.siteId);
  } catch (err) {
    if (err instanceof SendFailure) throw badRequest(err.message);
    throw err;
  }
  if (!found.settings.sourceAccount) throw badRequest(`HP Site Flow cancels by source account: set HP_SOURCE_ACCOUNT in the settings of site "${found.site.name}"`);
  if (order.status && TERMINAL.has(order.status)) throw badRequest(`This order is ${order.status}: there is nothing at HP Site Flow to cancel`);
  const queued = await ctx.db.transaction(async (trx) => {
    const pending = await cancelAtProvider(trx, { siteId: order.siteId, orderId, by: byUser(actor) }, ctx.clock.now());
    if (!pending) return undefined;
    const again = await cancelRepo(trx).retryFailed(order.siteId, orderId, pending.at);
    if (again) await recordChange(trx, { at: pending.at, siteId: order.siteId, kind: 'send', subjectId: again, orderRef: orderId, by: byUser(actor), action: 'cancel-queued', from: 'failed', to: 'pending', reason: `HP orders ${pending.sourceOrderIds?.join(', ')}` });
    await showOnOrder(trx, order.siteId, orderId, pending);
    return pending;
  });
  if (!queued) throw badRequest('This order has nothing at HP Site Flow to cancel (it was never sent)');
  const step = await outboxRepo(ctx.db).byKey(cancelDedupeKey(order.siteId, orderId));
  const row = step && (await outboxRepo(ctx.db).claim(step.id, nowIso(ctx), later(ctx, ctx.options.leaseMs), true));
  if (row) await attemptCancel(ctx, row);
  const after = await findOrder(ctx.db, orderId, order.siteId);
  return ((after?.data as { providerCancellation?: ProviderCancellation } | undefined)?.providerCancellation ?? queued) as ProviderCancellation;
}

/** What the orders module and main.ts hold: the cancellation in a transaction, and the worker's pass. */
export function providerCancellations(ctx: FulfilmentContext) {
  return {
    cancelAtProvider: (trx: Knex.Transaction, input: { siteId: number; orderId: string; by: HistoryBy }) => cancelAtProvider(trx, input, ctx.clock.now()),
    processDue: () => processDueCancellations(ctx),
    cancelNow: (actor: Actor, input: { orderRef: string; siteId?: number }) => cancelNow(ctx, actor, input),
  };
}

export type ProviderCancellations = ReturnType<typeof providerCancellations>;
