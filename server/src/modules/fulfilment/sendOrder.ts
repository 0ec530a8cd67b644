// send-hp and send-hp-single-line: an operator sends an order, or one of its lines, to the provider.
import { badRequest, conflict, notFound } from '../../http/errors';
import type { Actor } from '../../http/types';
import { outcomeOf } from './attempt';
import { nowIso, text, type FulfilmentContext, type SendOutcome } from './context';
import { lineSendsAtProvider, mayBeAtProvider, MAYBE_AT_PROVIDER_WHOLE } from './lineSends';
import { enqueueOrderSend, hpDedupeKey, linesOfSend, outboxRepo } from './outbox';
import { recordManualRoute } from '../routing';
import { sendNow } from './outboxWorker';
import { findOrder, lockedOrder, resolveOrder } from './resolveOrder';
import { sendWhenOf } from '../orders';
import { nothingToPrint } from '../production';
import { assertOperatorMaySend } from '../orders';
import { findSite } from '../sites';

export interface SendOrderInput {
  /** The store order id, or the order record's id. */
  orderRef: string;
  /** Only this line, as a provider order of its own. */
  lineId?: string;
  siteId?: number;
  /** The operator's yes to sending lines that are queued (or printed) in house. */
  sendFromJobs?: boolean;
  /** The operator's yes to sending an order the store says is not paid yet. */
  sendUnpaid?: boolean;
}

export async function sendOrder(ctx: FulfilmentContext, actor: Actor, input: SendOrderInput): Promise<SendOutcome> {
  const { db, clock, production } = ctx;
  const order = await resolveOrder(db, actor, input.orderRef, input.siteId);
  const orderId = order.field1 ?? text(order.data.id);
  if (input.lineId && !(order.data.line_items ?? []).some((l) => text(l.id) === input.lineId)) throw notFound('Line item not found in this order');
  // Only e-cards: refused before a send is queued, so no failed send is left on the order.
  const asked = (order.data.line_items ?? []).filter((l) => !input.lineId || text(l.id) === input.lineId);
  const askedMappings = await production.mapLines(order.siteId, { line_items: asked });
  const onlyEcards = nothingToPrint(askedMappings);
  if (onlyEcards) throw badRequest(onlyEcards);
  const toSend = askedMappings.filter((m) => !m.removed && !m.ecard).map((m) => text(m.line.id));
  // Cancelled in the store: refused. Not paid yet (SHOPIFY_SEND_WHEN=paid): asked first.
  assertOperatorMaySend(order.data, sendWhenOf(await findSite(db, order.siteId)), input.sendUnpaid === true);
  // In its change window or waiting for its proof: refused, saying until when (Release now first).
  await production.refuseWaiting(db, order.siteId, orderId, input.lineId ? [input.lineId] : undefined);
  // Under the order's lock (PostgreSQL; SQLite has one writer): a line is in one provider order
  // only — the whole order's, or its own. A line send while the whole order's send is sent or
  // going answers that send; a whole-order send leaves out lines sent on their own.
  const row = await db.transaction(async (trx) => {
    await lockedOrder(trx, order.id);
    const outbox = outboxRepo(trx);
    const whole = await outbox.byKey(hpDedupeKey(order.siteId, orderId));
    if (input.lineId && whole && whole.status !== 'failed') return whole;
    // The whole order's send failed, but one of its calls went unanswered: HP may hold the order
    // with this line in it. Sending the line on its own (another source order id) could print it twice.
    if (input.lineId && whole && mayBeAtProvider(whole)) throw conflict(MAYBE_AT_PROVIDER_WHOLE);
    if (input.lineId) {
      // Sent with other lines of its destination (routing): that provider order has it.
      const group = (await lineSendsAtProvider(trx, order.siteId, orderId)).find((r) => r.payload.lineIds?.includes(input.lineId!));
      if (group) return group;
    }
    if (!input.lineId && !whole) {
      const own = await lineSendsAtProvider(trx, order.siteId, orderId);
      const lineIds = (order.data.line_items ?? []).map((l) => text(l.id));
      if (own.length && lineIds.every((id) => own.some((r) => (linesOfSend(r.payload) ?? []).includes(id)))) return own.find((r) => r.status !== 'sent') ?? own[0];
    }
    // A line is made in one place: lines in the Jobs queue go only on the operator's yes.
    if (!whole || whole.status === 'failed') await production.takeLinesFromQueue(trx, order.siteId, orderId, input.lineId ? [input.lineId] : undefined, actor.id, input.sendFromJobs === true);
    const [queued] = await enqueueOrderSend(trx, { siteId: order.siteId, orderId, lineIds: input.lineId ? [input.lineId] : undefined }, actor.id, clock.now());
    // Send HP overrides the routing rules: the lines' route says who chose.
    await recordManualRoute(trx, { siteId: order.siteId, orderId, lineIds: toSend, action: 'provider', actorId: actor.id, at: nowIso(ctx) });
    if (queued.status === 'failed') {
      // A failed send is tried again when asked explicitly (after the design or settings were fixed).
      await outbox.retryFailed(queued.id, nowIso(ctx));
      return { ...queued, status: 'pending' };
    }
    return queued;
  });
  const outcome = row.status === 'sent' ? outcomeOf(row) : await sendNow(ctx, row.id);
  if (outcome.status !== 'sent' && outcome.status !== 'already-sent') return outcome;
  // The order's status now, so the operator's list shows the send without a reload.
  const now = await findOrder(db, orderId, order.siteId);
  return { ...outcome, orderStatus: now?.status ?? (text(now?.data.status) || null) };
}
