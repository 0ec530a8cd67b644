// Shopify's privacy webhooks acted on, in the inbox's transaction (a delivery is verified like every
// store webhook before it gets here: none can be triggered by an unsigned call):
// - customers/data_request: what Presswork holds on the customer, order by order, is listed for the
//   shop's admin (Setup → Stores) and each order's history says it was asked.
// - customers/redact: the customer is taken out of that shop's stored orders (privacy.ts says
//   what goes and what bookkeeping keeps), their provider sends and events, the webhook bodies
//   kept, and the personalisation of their print jobs; an order still in production waits and is
//   redacted once it ships (redactWaiting, run every few minutes).
// - shop/redact (48 hours after the app was uninstalled): the same for every order of the shop.
// Each request is recorded with what was done.
import type { Knex } from 'knex';
import type { Db } from '../../db';
import { isoNow, type Clock } from '../../lib/clock';
import { recordChange, AUTOMATIC } from '../history';
import { rewriteDeliveryPayloads } from '../inbox';
import { printJobsOfOrder, setPrintJobLabel } from '../print-jobs';
import { SHOPIFY_SOURCE, ordersRepo } from './repo';
import { writeOrder } from './orderState';
import { orderSearchText, storeChangeOf, type ShopifyOrder } from './shopify';
import { REDACTED, holdingsOf, isFinished, isPrivacyTopic, mentions, mergeSubjects, privacyRequestOf, redactJson, subjectOf, type PrivacyRequest, type PrivacySubject, type PrivacyTopic } from './privacy';
import { privacyRepo, type PrivacyRecord } from './privacyRepo';
import type { StorePrivacyHolding, StorePrivacyRequest } from '../../../../common/api/orders';

type Trx = Db | Knex.Transaction;

/** The orders a request is about: those Shopify named, and those of the site holding the customer's e-mail. */
async function ordersOfCustomer(trx: Trx, siteId: number, req: PrivacyRequest): Promise<string[]> {
  const byEmail = req.customer?.email ? await ordersRepo(trx).orderIdsByEmail(siteId, req.customer.email) : [];
  return [...new Set([...req.orderIds, ...byEmail])];
}

const givenSubject = (req: Pick<PrivacyRequest, 'customer'>): PrivacySubject => ({
  names: [],
  emails: req.customer?.email ? [req.customer.email] : [],
  phones: req.customer?.phone ? [req.customer.phone] : [],
});

const by = (topic: string) => ({ automatic: AUTOMATIC.shopifyWebhook(topic) });

/** The store order id a stored webhook body is about (an Order, or an order edit). */
function orderIdOfPayload(topic: string | null, payload: unknown): string | undefined {
  try {
    return storeChangeOf(topic ?? '', payload).orderId;
  } catch {
    return undefined;
  }
}

/**
 * One order redacted with the subject it holds (and the one Shopify named): the order, its provider
 * logs, its print jobs' personalisation. Answers the subject used, or undefined when the site has no
 * such order.
 */
async function redactOrder(trx: Trx, siteId: number, orderId: string, given: PrivacySubject, at: string): Promise<PrivacySubject | undefined> {
  const repo = ordersRepo(trx);
  await repo.lockOrder(siteId, orderId);
  const state = (await repo.orderStates(siteId, [orderId], true)).get(orderId);
  if (!state) return undefined;
  const subject = mergeSubjects(subjectOf(state.data), given);
  const data = redactJson(state.data, subject);
  await writeOrder(trx, state.id, { searchText: orderSearchText(data as ShopifyOrder), data, before: state.data, updatedAt: at });
  await repo.rewriteLogsOfOrder(siteId, orderId, (d) => redactJson(d, subject));
  for (const job of await printJobsOfOrder(trx, siteId, orderId)) {
    const next = redactJson({ productName: job.productName, data: job.data }, subject);
    if (next.productName !== job.productName || JSON.stringify(next.data) !== JSON.stringify(job.data)) await setPrintJobLabel(trx, job.id, next.productName, next.data, at);
  }
  return subject;
}

/** The webhook bodies kept of the redacted orders (and the privacy requests naming the customer) rewritten. */
async function redactPayloads(trx: Trx, siteId: number, subjects: Map<string, PrivacySubject>, customer: PrivacySubject | null): Promise<void> {
  if (!subjects.size && !customer) return;
  await rewriteDeliveryPayloads(trx, SHOPIFY_SOURCE, siteId, (payload, topic) => {
    if (isPrivacyTopic(topic)) {
      if (!customer) return undefined;
      return mentions(payload, customer) ? redactJson(payload, customer) : undefined;
    }
    const orderId = orderIdOfPayload(topic, payload);
    const subject = orderId ? subjects.get(orderId) : undefined;
    return subject ? redactJson(payload, subject) : undefined;
  });
}

/** Earlier data requests of the customer: the values they listed for the redacted orders are replaced. */
async function redactEarlierRequests(trx: Trx, siteId: number, customerId: string | null, subject: PrivacySubject, redactedOrderIds: Set<string>): Promise<void> {
  const repo = privacyRepo(trx);
  for (const r of await repo.ofCustomer(siteId, customerId, subject.emails)) {
    if (r.topic !== 'customers/data_request' || !Array.isArray(r.report)) continue;
    const report = (r.report as StorePrivacyHolding[]).map((h) => (redactedOrderIds.has(h.orderId) ? { ...h, values: Object.fromEntries(Object.keys(h.values).map((k) => [k, REDACTED])) } : h));
    await repo.rewrite(r.id, { report, subject: null });
  }
}

async function dataRequest(trx: Trx, siteId: number, req: PrivacyRequest, deliveryId: number | null, at: string): Promise<number> {
  const orderIds = await ordersOfCustomer(trx, siteId, req);
  const states = await ordersRepo(trx).orderStates(siteId, orderIds);
  const held: StorePrivacyHolding[] = [];
  for (const orderId of orderIds) {
    const state = states.get(orderId);
    if (!state) continue;
    const data = state.data as unknown as Record<string, unknown>;
    const subject = mergeSubjects(subjectOf(data), givenSubject(req));
    const { kinds, values } = holdingsOf(data);
    const printJobs = (await printJobsOfOrder(trx, siteId, orderId)).filter((j) => mentions(j.data, subject)).length;
    held.push({ orderId, orderName: typeof data.name === 'string' ? data.name : null, placedAt: typeof data.created_at === 'string' ? data.created_at : null, status: state.status, kinds: printJobs ? [...kinds, 'personalisation on print jobs'] : kinds, values, printJobs });
    await recordChange(trx, { at, siteId, kind: 'order', subjectId: orderId, by: by(req.topic), action: 'privacy-listed', reason: `Shopify asked what Presswork holds on the customer: ${kinds.join(', ') || 'nothing personal'}` });
  }
  return recordRequest(trx, { siteId, req, deliveryId, at }, { subject: givenSubject(req), orderIds, report: held, status: 'listed', waitingOrderIds: [], doneAt: at });
}

/** The request as received, and what was done. */
function recordRequest(trx: Trx, r: { siteId: number; req: PrivacyRequest; deliveryId: number | null; at: string }, done: Pick<PrivacyRecord, 'subject' | 'orderIds' | 'report' | 'status' | 'waitingOrderIds' | 'doneAt'>): Promise<number> {
  return privacyRepo(trx).insert({ siteId: r.siteId, topic: r.req.topic, deliveryId: r.deliveryId, shopDomain: r.req.shopDomain, customerId: r.req.customer?.id ?? null, receivedAt: r.at, ...done });
}

/** Redacts what is finished of `orderIds`; answers the orders still in production. */
async function redactOrders(trx: Trx, siteId: number, topic: string, orderIds: string[], given: PrivacySubject, at: string, recordWaiting = true): Promise<{ waiting: string[]; subjects: Map<string, PrivacySubject> }> {
  const waiting: string[] = [];
  const subjects = new Map<string, PrivacySubject>();
  const states = await ordersRepo(trx).orderStates(siteId, orderIds);
  for (const orderId of orderIds) {
    const state = states.get(orderId);
    if (!state) continue;
    if (!isFinished(state.status, state.data as unknown as Record<string, unknown>)) {
      waiting.push(orderId);
      if (recordWaiting)
        await recordChange(trx, { at, siteId, kind: 'order', subjectId: orderId, by: by(topic), action: 'redaction-waiting', reason: 'Shopify asked to redact the customer: the order is still in production, so it is redacted once it ships' });
      continue;
    }
    const subject = await redactOrder(trx, siteId, orderId, given, at);
    if (!subject) continue;
    subjects.set(orderId, subject);
    await recordChange(trx, { at, siteId, kind: 'order', subjectId: orderId, by: by(topic), action: 'redacted', reason: 'The customer’s name, e-mail, phone and addresses were replaced on Shopify’s request; order numbers, SKUs, quantities and dates are kept' });
  }
  return { waiting, subjects };
}

async function redaction(trx: Trx, siteId: number, req: PrivacyRequest, deliveryId: number | null, at: string): Promise<number> {
  const given = givenSubject(req);
  const waiting: string[] = [];
  const subjects = new Map<string, PrivacySubject>();
  let orderIds: string[];
  if (req.topic === 'shop/redact') {
    orderIds = [];
    for (let after = 0; ; ) {
      const page = await ordersRepo(trx).orderIdsPage(siteId, after, 200);
      if (page.lastId === null) break;
      orderIds.push(...page.orderIds);
      const done = await redactOrders(trx, siteId, req.topic, page.orderIds, given, at);
      waiting.push(...done.waiting);
      for (const [k, v] of done.subjects) subjects.set(k, v);
      after = page.lastId;
    }
  } else {
    orderIds = await ordersOfCustomer(trx, siteId, req);
    const done = await redactOrders(trx, siteId, req.topic, orderIds, given, at);
    waiting.push(...done.waiting);
    for (const [k, v] of done.subjects) subjects.set(k, v);
  }
  const customer = req.customer ? [...subjects.values()].reduce(mergeSubjects, given) : null;
  await redactPayloads(trx, siteId, subjects, waiting.length ? null : customer);
  if (customer) await redactEarlierRequests(trx, siteId, req.customer?.id ?? null, customer, new Set(subjects.keys()));
  return recordRequest(trx, { siteId, req, deliveryId, at }, {
    // Kept only while orders wait: the e-mail and phone Shopify named, to find them again.
    subject: waiting.length ? given : null,
    orderIds: req.topic === 'shop/redact' ? [] : orderIds,
    report: { redacted: subjects.size, waiting: waiting.length },
    status: waiting.length ? 'waiting' : 'redacted',
    waitingOrderIds: waiting,
    doneAt: waiting.length ? null : at,
  });
}

/** A privacy delivery, in the inbox's transaction: recorded and acted on. Throws PayloadError for a body that names nobody. */
export async function applyPrivacyDelivery(trx: Knex.Transaction, d: { id: number; siteId: number | null; topic: string | null; payload: unknown }, clock: Clock): Promise<number> {
  if (d.siteId === null) throw new Error('The delivery has no site (the site was deleted)');
  const topic = d.topic as PrivacyTopic;
  const req = privacyRequestOf(topic, d.payload);
  const at = isoNow(clock);
  return topic === 'customers/data_request' ? dataRequest(trx, d.siteId, req, d.id, at) : redaction(trx, d.siteId, req, d.id, at);
}

/** Checks a privacy body as the webhook is received (a body naming nobody is refused with 400). */
export function checkPrivacyPayload(topic: PrivacyTopic, payload: unknown): void {
  privacyRequestOf(topic, payload);
}

/** Redactions waiting for orders in production: those that have shipped (or were cancelled) are redacted now. */
export async function redactWaiting(deps: { db: Db; clock: Clock }): Promise<{ redacted: number; stillWaiting: number }> {
  let redacted = 0;
  let stillWaiting = 0;
  for (const listed of await privacyRepo(deps.db).waiting(100)) {
    await deps.db.transaction(async (trx) => {
      const r = await privacyRepo(trx).lock(listed.id);
      if (r?.status !== 'waiting') return;
      const at = isoNow(deps.clock);
      const given = r.subject ?? { names: [], emails: [], phones: [] };
      // Orders that waited were recorded as waiting already: only those redacted now add entries.
      const done = await redactOrders(trx, r.siteId, r.topic, r.waitingOrderIds, given, at, false);
      const left = r.waitingOrderIds.filter((id) => done.waiting.includes(id));
      const customer = r.customerId || given.emails.length ? [...done.subjects.values()].reduce(mergeSubjects, given) : null;
      await redactPayloads(trx, r.siteId, done.subjects, left.length ? null : customer);
      if (customer) await redactEarlierRequests(trx, r.siteId, r.customerId, customer, new Set(done.subjects.keys()));
      await privacyRepo(trx).update(r.id, { status: left.length ? 'waiting' : 'redacted', waitingOrderIds: left, subject: left.length ? r.subject : null, doneAt: left.length ? null : at });
      redacted += done.subjects.size;
      stillWaiting += left.length;
    });
  }
  return { redacted, stillWaiting };
}

/** A site's requests as the Stores screen shows them. */
export async function privacyRequestsOf(db: Db, siteId: number, limit = 50): Promise<StorePrivacyRequest[]> {
  const rows = await privacyRepo(db).ofSite(siteId, limit);
  const ids = [...new Set(rows.flatMap((r) => [...r.orderIds, ...r.waitingOrderIds]))];
  const states = ids.length ? await ordersRepo(db).orderStates(siteId, ids) : new Map();
  const nameOf = (id: string) => {
    const n = (states.get(id)?.data as { name?: unknown } | undefined)?.name;
    return typeof n === 'string' && n ? n : id;
  };
  return rows.map((r: PrivacyRecord) => ({
    id: r.id,
    topic: r.topic,
    receivedAt: r.receivedAt,
    status: r.status,
    customerId: r.customerId,
    customerEmail: r.subject?.emails[0] ?? null,
    orders: r.orderIds.map(nameOf),
    waitingOrders: r.waitingOrderIds.map(nameOf),
    held: r.topic === 'customers/data_request' && Array.isArray(r.report) ? (r.report as StorePrivacyHolding[]) : null,
    doneAt: r.doneAt,
  }));
}
