// One attempt of a claimed outbox row and its outcome. Success and "Source Order ID already
// exists" → sent (+ shopify-hp-log + the order record, one transaction); a provider 4xx → failed
// (visible, not retried); no answer, 429, 5xx → pending with backoff, failed after maxAttempts.
import { AUTOMATIC, recordChange } from '../history';
import { HpDuplicateOrder, HpError, isAcknowledgement, providerOrderIdOf } from '../../integrations/hpSiteflow';
import { clientFor, later, nowIso, retryReason, SendFailure, text, type FulfilmentContext, type SendOutcome } from './context';
import { withUnanswered } from './lineSends';
import { outboxRepo, type OutboxRow } from './outbox';
import { prepareSend, type PreparedSend } from './prepareSend';
import { findOrder, lockedOrder } from './resolveOrder';
import { writeSendLog } from './sendLog';
import { highestProgress, moveOrder, nextOrderStatus, ORDER_EVENTS } from '../orders';

/** What a row that is no longer pending says to its caller. */
export function outcomeOf(row: OutboxRow): SendOutcome {
  if (row.status === 'sent') {
    const r = row.result as { hpOrderId?: string | null; sentAt?: string | null; duplicate?: boolean } | null;
    // Rows sent before sentAt was kept: the row was last written when it was marked sent.
    const sentAt = r && 'sentAt' in r ? (r.sentAt ?? null) : r?.duplicate ? null : row.updatedAt;
    return { status: 'already-sent', hpOrderId: r?.hpOrderId ?? null, outboxId: row.id, sentAt };
  }
  if (row.status === 'failed') return { status: 'failed', error: row.error ?? 'The send failed', errorMes: row.result ?? undefined, outboxId: row.id };
  return { status: 'queued', outboxId: row.id, error: row.error ?? undefined, nextAttemptAt: row.nextAttemptAt };
}

/** The provider took the order (or already had it): the row, the send log and the order record, together. */
export async function markSent(ctx: FulfilmentContext, row: OutboxRow, prepared: PreparedSend, answer: unknown, duplicate: boolean): Promise<SendOutcome> {
  const { siteId, orderId, lineId, actorId } = row.payload;
  const hpOrderId = duplicate ? null : providerOrderIdOf(answer);
  // Site Flow's submit host only acknowledged: its validation errors come later, as a postback.
  const acknowledged = !duplicate && isAcknowledgement(answer);
  const at = nowIso(ctx);
  return ctx.db.transaction(async (trx) => {
    const outbox = outboxRepo(trx);
    const order = await findOrder(trx, orderId, siteId);
    const locked = order && (await lockedOrder(trx, order.id));
    const sourceOrderId = prepared.body.orderData.sourceOrderId;
    const knownSends = (locked?.data.hpOrders as Record<string, { sentAt?: string }> | undefined) ?? {};
    // A duplicate: the provider had it from an earlier send; its time is known only if we made it.
    const sentAt = duplicate ? (knownSends[sourceOrderId]?.sentAt ?? null) : at;
    if ((await outbox.markSent(row.id, { hpOrderId, duplicate, acknowledged, answer, sentAt }, at)) !== 1) return outcomeOf((await outbox.byId(row.id))!);
    const reason = duplicate ? 'HP Site Flow already had this order' : hpOrderId ? `HP order ${hpOrderId}` : null;
    await recordChange(trx, { at, siteId, kind: 'send', subjectId: row.id, orderRef: orderId, by: { automatic: AUTOMATIC.providerSend }, action: 'sent', from: row.status, to: 'sent', reason });
    await writeSendLog(
      trx,
      {
        siteId,
        orderId,
        lineId,
        status: 'sent',
        data: { sentData: prepared.body, results: answer, attempts: row.attempts, duplicate, acknowledged, skipped: prepared.skipped, outboxId: row.id },
        userId: actorId,
      },
      at,
    );
    let knownId = hpOrderId;
    if (locked) {
      const data = { ...locked.data };
      const previous = Array.isArray(data.preGeneratedHPItems) ? data.preGeneratedHPItems : [];
      // A duplicate answer carries no provider id: keep the one we knew, if any.
      knownId = hpOrderId ?? (text(data.hpOrderId) || null);
      const items = prepared.items.map((i) => ({ ...i, hpOrderId: hpOrderId ?? previous.find((p) => p.lineId === i.lineId)?.hpOrderId ?? knownId, sentAt: at }));
      data.preGeneratedHPItems = [...previous.filter((p) => !items.some((i) => i.lineId === p.lineId)), ...items];
      if (hpOrderId) data.hpOrderId = hpOrderId;
      const hpOrders = { ...((data.hpOrders as Record<string, unknown>) ?? {}) };
      hpOrders[sourceOrderId] = { hpOrderId: knownId, lineId, sentAt: sentAt ?? at, ...(acknowledged ? { acknowledged: true } : {}) };
      data.hpOrders = hpOrders;
      const next = nextOrderStatus(locked.status ?? text(data.status), 'sent', text(data.hpProgress) || null);
      data.hpProgress = highestProgress(text(data.hpProgress) || null, 'sent');
      // The clock of "HP has not acknowledged it" starts with the send that moved it to sent.
      const patch = { data, before: locked.data, ...(next === 'sent' ? { sentToProviderAt: sentAt ?? at } : {}) };
      await moveOrder(trx, { id: locked.id, siteId, orderId, status: locked.status ?? null }, next, { event: ORDER_EVENTS.providerSend, at, by: { automatic: AUTOMATIC.providerSend }, patch });
    }
    return { status: duplicate ? 'already-sent' : 'sent', hpOrderId: knownId, outboxId: row.id, sentAt } as SendOutcome;
  });
}

/** The send will not be tried again by itself: the row and the send log, together. */
export async function markFailed(ctx: FulfilmentContext, row: OutboxRow, error: string, details: unknown, sentData: unknown, unanswered = false): Promise<SendOutcome> {
  const { siteId, orderId, lineId, actorId } = row.payload;
  const at = nowIso(ctx);
  return ctx.db.transaction(async (trx) => {
    const outbox = outboxRepo(trx);
    if ((await outbox.markFailed(row.id, error, withUnanswered(row, details, unanswered), at)) !== 1) return outcomeOf((await outbox.byId(row.id))!);
    await recordChange(trx, { at, siteId, kind: 'send', subjectId: row.id, orderRef: orderId, by: { automatic: AUTOMATIC.providerSend }, action: 'failed', from: row.status, to: 'failed', reason: error });
    await writeSendLog(
      trx,
      { siteId, orderId, lineId, status: 'failed', data: { sentData: sentData ?? null, results: details ?? { error }, error, attempts: row.attempts, outboxId: row.id }, userId: actorId },
      at,
    );
    return { status: 'failed', error, errorMes: details, outboxId: row.id } as SendOutcome;
  });
}

/** Tried again later (exponential backoff, full jitter), or failed once maxAttempts are spent. */
export async function reschedule(ctx: FulfilmentContext, row: OutboxRow, error: string, details: unknown, sentData: unknown, unanswered = false): Promise<SendOutcome> {
  const { options } = ctx;
  if (row.attempts >= options.maxAttempts) return markFailed(ctx, row, `${error} (gave up after ${row.attempts} attempts)`, details, sentData, unanswered);
  const cap = Math.min(options.backoff.maxMs, options.backoff.baseMs * 2 ** Math.max(0, row.attempts - 1));
  const delay = Math.floor(cap / 2 + (Math.random() * cap) / 2);
  const next = later(ctx, delay);
  const at = nowIso(ctx);
  const { siteId, orderId } = row.payload;
  await ctx.db.transaction(async (trx) => {
    if ((await outboxRepo(trx).reschedule(row.id, error, withUnanswered(row, details, unanswered), next, at)) !== 1) return;
    await recordChange(trx, { at, siteId, kind: 'send', subjectId: row.id, orderRef: orderId, by: { automatic: AUTOMATIC.providerSend }, action: 'rescheduled', reason: retryReason(ctx, error, row.attempts, next) });
  });
  return { status: 'queued', outboxId: row.id, error, nextAttemptAt: next };
}

/** One attempt of a claimed row: prepare, call the provider, record the outcome (and count it). */
export async function attempt(ctx: FulfilmentContext, row: OutboxRow): Promise<SendOutcome> {
  const outcome = await attemptOnce(ctx, row);
  ctx.metrics?.providerSend('order', outcome.status === 'queued' ? 'retry' : outcome.status);
  return outcome;
}

async function attemptOnce(ctx: FulfilmentContext, row: OutboxRow): Promise<SendOutcome> {
  let prepared: PreparedSend | undefined;
  try {
    prepared = await prepareSend(ctx, row);
    const answer = await clientFor(ctx, prepared.settings).submitOrder(prepared.body);
    return await markSent(ctx, row, prepared, answer, false);
  } catch (err) {
    if (err instanceof HpDuplicateOrder && prepared) return markSent(ctx, row, prepared, { success: false, error: { message: err.message, code: err.code, validations: err.validations } }, true);
    if (err instanceof HpError) {
      const details = { status: err.status, code: err.code, message: err.message, validations: err.validations, answer: err.body ?? null };
      // No answer (timeout, connection lost) or a 5xx: HP may have taken the order all the same.
      const unanswered = err.status === 0 || err.status >= 500;
      if (err.retryable) return reschedule(ctx, row, err.message, details, prepared?.body, unanswered);
      return markFailed(ctx, row, err.message, details, prepared?.body, unanswered);
    }
    if (err instanceof SendFailure) {
      if (err.permanent) return markFailed(ctx, row, err.message, err.details ?? { message: err.message }, prepared?.body);
      return reschedule(ctx, row, err.message, err.details ?? { message: err.message }, prepared?.body);
    }
    ctx.log.error({ err, outboxId: row.id }, 'HP send failed unexpectedly');
    return reschedule(ctx, row, `Unexpected error: ${(err as Error).message}`, null, prepared?.body, prepared !== undefined);
  }
}
