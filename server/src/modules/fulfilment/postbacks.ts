// The provider's postbacks (hp-webhook): the caller proved to be the provider, the postback stored
// once in the inbox (source `hp`) and applied in the transaction that claims it, before the answer.
import crypto from 'node:crypto';
import type { Knex } from 'knex';
import type { Deps } from '../../deps';
import { unauthorized } from '../../http/errors';
import { DUPLICATE_MESSAGE } from '../../integrations/hpSiteflow';
import type { Delivery, Handled, Inbox } from '../inbox';
import { AUTOMATIC } from '../history';
import { insertProviderEvent } from '../orders';
import { type Site, findSite, findSiteBySlug } from '../sites';
import { nowIso, text } from './context';
import { findOrder, lockedOrder } from './resolveOrder';
import type { PostbackBody } from './schema';
import { hpSettingsOf } from './settings';
import { linesOfProviderOrder, queueStoreFulfilment } from './storeFulfilment';
import { highestProgress, moveOrder, nextOrderStatus, ORDER_EVENTS } from '../orders';

/** The inbox source of HP Site Flow postbacks. */
export const HP_SOURCE = 'hp';

export type PostbackAnswer = { duplicate: boolean; orderStatus: string | null; found: boolean };

/** Is this caller the provider of `slug`? (the site's HP_POSTBACK_TOKEN, compared timing-safe) */
export async function postbackSite(db: Deps['db'], slug: string | undefined, token: string | undefined): Promise<Site> {
  const site = slug ? await findSiteBySlug(db, slug) : undefined;
  const expected = site ? hpSettingsOf(site.settings.env).settings.postbackToken : '';
  const a = crypto.createHash('sha256').update(`hp-postback\n${expected}`).digest();
  const b = crypto.createHash('sha256').update(`hp-postback\n${token ?? ''}`).digest();
  const same = crypto.timingSafeEqual(a, b);
  if (!site || !expected || !token || !same) throw unauthorized('Invalid postback token');
  return site;
}

/** A postback: stored once in the inbox (a repeat is a duplicate) and applied before the answer, which says what it did. */
export async function receivePostback(ctx: Pick<Deps, 'clock'>, inbox: Inbox, site: Site, body: PostbackBody): Promise<PostbackAnswer> {
  const eventId = crypto.createHash('sha256').update(JSON.stringify([body.sourceOrderId, body.event, body.status, body.timestamp])).digest('hex');
  const out = await inbox.receiveNow<PostbackAnswer>({
    source: HP_SOURCE,
    eventId,
    deliveryId: body.orderId ? text(body.orderId).slice(0, 128) : null,
    siteId: site.id,
    topic: text(body.event).slice(0, 64),
    payload: body,
    status: 'received',
    receivedAt: nowIso(ctx),
  });
  if (out.duplicate) return { duplicate: true, orderStatus: null, found: false };
  return out.answer ?? { duplicate: false, orderStatus: null, found: false };
}

/** Store order id (+ line id) of a provider sourceOrderId: `<order>` or `<order>-<line>`. */
export async function orderOfSource(trx: Knex.Transaction, siteId: number, sourceOrderId: string) {
  const whole = await findOrder(trx, sourceOrderId, siteId);
  if (whole) return { order: whole, orderId: sourceOrderId, lineId: null as string | null };
  const cut = sourceOrderId.lastIndexOf('-');
  if (cut > 0) {
    const orderId = sourceOrderId.slice(0, cut);
    const order = await findOrder(trx, orderId, siteId);
    if (order) return { order, orderId, lineId: sourceOrderId.slice(cut + 1) };
  }
  return { order: undefined, orderId: sourceOrderId, lineId: null };
}

/** A stored postback: the event's log record and the order's update (status, progress, tracking). */
export async function applyPostback(ctx: Pick<Deps, 'clock'>, trx: Knex.Transaction, delivery: Delivery): Promise<Handled<PostbackAnswer>> {
  const body = delivery.payload as PostbackBody;
  const site = delivery.siteId === null ? undefined : await findSite(trx, delivery.siteId);
  if (!site) throw new Error('The postback has no site (the site was deleted)');
  const at = nowIso(ctx);
  const { order, orderId, lineId } = await orderOfSource(trx, site.id, body.sourceOrderId);
  const carrier = body.shipment?.carrier;
  const trackingNumber = text(body.shipment?.trackingNumber) || null;
  const refusal = submissionRefusal(body);
  const shippingMethod = text(carrier?.service) || text(carrier?.alias) || text(carrier?.code) || null;
  await insertProviderEvent(trx, {
    orderId,
    field2: text(body.orderId) || null,
    name: text(body.event).slice(0, 255),
    status: text(body.status).slice(0, 32),
    data: {
      timestamp: body.timestamp,
      status: body.status,
      shopifyOrderId: orderId,
      trackingNumber,
      shippingMethod,
      event: body.event,
      sourceOrderId: body.sourceOrderId,
      lineId,
      ...(refusal ? { error: refusal.message, alreadySent: refusal.duplicate } : {}),
      raw: body,
    },
    siteId: site.id,
    userId: null,
    createdAt: at,
    updatedAt: at,
  });
  if (!order) return { note: `No order ${orderId} in site ${site.slug}`, answer: { duplicate: false, orderStatus: null, found: false } };
  const locked = (await lockedOrder(trx, order.id))!;
  // Refused as a repeat: Site Flow already has this order, so it stays as it is.
  if (refusal?.duplicate) return { answer: { duplicate: false, orderStatus: locked.status ?? (text(locked.data.status) || null), found: true } };
  const data = { ...locked.data };
  const current = locked.status ?? (text(data.status) || null);
  const next = nextOrderStatus(current, text(body.status), text(data.hpProgress) || null);
  // Site Flow's refusal shows on the order until the order moves on.
  if (refusal) data.providerError = { message: refusal.message, sourceOrderId: body.sourceOrderId, at };
  else if (next && next !== 'error') delete data.providerError;
  data.hpProgress = highestProgress(text(data.hpProgress) || null, text(body.status));
  // Tracking is kept: a later postback without it never erases it.
  if (trackingNumber || body.shipment?.trackingUrl) {
    const prev = data.tracking ?? {};
    data.tracking = { number: trackingNumber ?? prev.number ?? null, method: shippingMethod ?? prev.method ?? null, url: text(body.shipment?.trackingUrl) || prev.url || null };
  }
  const hpOrders = { ...((data.hpOrders as Record<string, Record<string, unknown>>) ?? {}) };
  const entry = hpOrders[body.sourceOrderId] ?? {};
  const postedId = text(body.orderId) || null;
  // The submit host's acknowledgement _id may name the submission rather than the order: the id
  // Site Flow's own postbacks name replaces it (everywhere it was recorded), once.
  const ackId = entry.acknowledged === true && !refusal && postedId && postedId !== entry.hpOrderId ? text(entry.hpOrderId) : null;
  if (ackId) {
    if (data.hpOrderId === ackId) data.hpOrderId = postedId;
    if (Array.isArray(data.preGeneratedHPItems)) data.preGeneratedHPItems = data.preGeneratedHPItems.map((i) => (i.hpOrderId === ackId ? { ...i, hpOrderId: postedId } : i));
  }
  if (postedId && !data.hpOrderId) data.hpOrderId = postedId;
  const entryNext = nextOrderStatus(text(entry.status) || null, text(body.status), text(entry.progress) || null);
  hpOrders[body.sourceOrderId] = {
    ...entry,
    hpOrderId: ackId ? postedId : (entry.hpOrderId ?? postedId),
    ...(entry.acknowledged === true && postedId && !refusal ? { acknowledged: false } : {}),
    lineId,
    status: entryNext ?? entry.status ?? null,
    progress: highestProgress(text(entry.progress) || null, text(body.status)),
    ...(trackingNumber ? { trackingNumber } : {}),
  };
  data.hpOrders = hpOrders;
  // The clock of "printed by HP and has not shipped" starts when HP's word moved it to printed.
  const reason = refusal?.message ?? (trackingNumber ? `tracking ${trackingNumber}` : lineId ? `line ${lineId}` : null);
  const patch = { data, before: locked.data, ...(next === 'printed' ? { printedByProviderAt: at } : {}) };
  await moveOrder(trx, { id: locked.id, siteId: site.id, orderId, status: current }, next, { event: ORDER_EVENTS.postback, at, by: { automatic: AUTOMATIC.hpPostback }, reason, patch });
  if (next) data.status = next;
  // The shipment's tracking goes back to the store, queued with the postback that brought it.
  if (text(body.status) === 'shipped' && trackingNumber) {
    const tracking = { number: trackingNumber, url: text(body.shipment?.trackingUrl) || null, company: text(carrier?.alias) || text(carrier?.code) || null };
    await queueStoreFulfilment(trx, site, data, { orderId, lineIds: linesOfProviderOrder(data, orderId, lineId), tracking, source: 'provider', actorId: null }, at);
  }
  return { answer: { duplicate: false, orderStatus: next ?? current, found: true } };
}

/** An "Order Submission Error" postback's reason; `duplicate` when the order was refused as already sent. */
export function submissionRefusal(body: PostbackBody): { message: string; duplicate: boolean } | undefined {
  if (!body.error) return undefined;
  const validations = (body.error.validations ?? []).map((v) => [text(v.path), text(v.message)].filter(Boolean).join(' ')).filter(Boolean);
  const messages = [text(body.error.message), ...validations].filter(Boolean);
  // The headline and what each validation says: "Order validation failed: orderData…postcode is required".
  const message = text(body.error.message) && validations.length ? `${text(body.error.message)}: ${validations.slice(0, 10).join('; ')}` : (messages[0] ?? 'Site Flow refused the order');
  return { message: message.slice(0, 2000), duplicate: messages.some((m) => DUPLICATE_MESSAGE.test(m)) };
}

/** Makes `inbox` apply HP postbacks, in the transaction that claims each delivery. */
export function registerPostbacks(ctx: Pick<Deps, 'clock'>, inbox: Inbox): void {
  inbox.register({
    source: HP_SOURCE,
    mode: 'transaction',
    apply: (trx, delivery) => applyPostback(ctx, trx, delivery),
  });
}
