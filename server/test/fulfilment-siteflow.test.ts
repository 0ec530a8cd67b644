// Current Site Flow against the loopback simulator in that mode: x-oneflow-* signing, orders to a
// separate submit host that only acknowledges, refusals as "Order Submission Error" postbacks,
// and postbacks whose body is Site Flow's raw order object (`{{{prettyJson this}}}`).
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import express from 'express';
import { afterAll, beforeEach, describe, expect, it } from 'vitest';
import { createHpClient } from '../src/integrations/hpSiteflow';
import { bearer } from './harness';
import { createHpWorld, HP, listen, storeOrder } from './fulfilmentWorld';

const repoRoot = fileURLToPath(new URL('../../', import.meta.url));
const FIXTURES = path.resolve(repoRoot, 'server/test/fixtures/vendor');

const w = await createHpWorld({ scheme: 'oneflow', postbackTemplate: 'raw' });
// The submit host: the same simulator, reached under another path, as orders.oneflow.io is another host.
const submitHost = await listen(express().use('/submit', w.sim.app));
afterAll(() => submitHost.close());

const siteflowEnv = (over: Record<string, string> = {}) => ({
  HP_BASE_URL: w.simUrl,
  HP_SUBMIT_URL: `${submitHost.url}/submit/api/order`,
  HP_AUTH_SCHEME: 'oneflow',
  HP_API_KEY: HP.key,
  HP_API_SECRET: HP.secret,
  HP_DESTINATION: 'presswork-test',
  HP_CARRIER_ALIAS: 'royalmail',
  HP_POSTBACK_TOKEN: HP.token,
  ...over,
});

let seq = 0;
const newOrderId = () => `${8_100_000_000 + ++seq * 17}`;

beforeEach(async () => {
  w.sim.reset();
  w.sim.setTimeline(10, false);
  await w.setHpEnv(w.sites.a, siteflowEnv());
});

async function orderWithDesign(over: Record<string, unknown> = {}) {
  const orderId = newOrderId();
  if (!(await w.db('designs').where({ site_id: w.sites.a, sku: 'SF-CARD' }).first())) await w.insertDesign(w.sites.a, { sku: 'SF-CARD' });
  await w.insertOrder(w.sites.a, storeOrder(orderId, [{ id: '21', sku: 'SF-CARD' }], over));
  return orderId;
}

const sendHp = (orderId: string) => w.request().post('/api/online-stores/shopify-webhook/send-hp').set(bearer(w.tokens.userA)).send({ orderId });
const hpLogs = async (orderId: string) =>
  (await w.db('provider_events').where({ store_order_id: orderId }).orderBy('id')).map((r) => ({ ...r, data: typeof r.data === 'string' ? JSON.parse(r.data) : r.data }));

describe('Site Flow (oneflow scheme, separate submit host)', () => {
  it('submits to the submit host, signed over its pathname; the acknowledgement\'s _id becomes the provider order id', async () => {
    const orderId = await orderWithDesign();
    const res = await sendHp(orderId);
    expect(res.body.error).toBeUndefined();
    expect(res.body.data.status).toBe('sent');
    const simOrder = w.sim.orderBySource(orderId)!;
    expect(res.body.data.hpOrderId).toBe(simOrder._id);
    expect(w.sim.calls.filter((c) => c.method === 'POST').map((c) => [c.path, c.status])).toEqual([['/submit/api/order', 200]]);
    const log = await w.db('provider_sends').where({ store_order_id: orderId }).first();
    const data = typeof log.data === 'string' ? JSON.parse(log.data) : log.data;
    expect(data.acknowledged).toBe(true);
    expect(Object.keys(data.results).sort()).toEqual(['_id', 'sourceAccountId', 'timestamp', 'url']);
    expect((await w.orderRecord(w.sites.a, orderId)).data.hpOrderId).toBe(simOrder._id);
  });

  it('a PrintOS-signed call is refused by Site Flow; an unknown HP_AUTH_SCHEME or a submit URL that is no URL fails the send saying so', async () => {
    await w.setHpEnv(w.sites.a, siteflowEnv({ HP_AUTH_SCHEME: 'printos' }));
    const refused = await sendHp(await orderWithDesign());
    expect(refused.body.success).toBe(false);
    expect(refused.body.errorMes.status).toBe(401);
    expect(refused.body.error).toMatch(/x-oneflow-authorization/);
    expect(w.sim.stats.submitCalls).toBe(0);
    await w.setHpEnv(w.sites.a, siteflowEnv({ HP_AUTH_SCHEME: 'sha1' }));
    const bad = await sendHp(await orderWithDesign());
    expect(bad.body.success).toBe(false);
    expect(bad.body.error).toMatch(/HP_AUTH_SCHEME must be printos or oneflow \(it is "sha1"\)/);
    await w.setHpEnv(w.sites.a, siteflowEnv({ HP_SUBMIT_URL: 'orders.oneflow.io/api/order' }));
    const noUrlId = await orderWithDesign();
    const noUrl = await sendHp(noUrlId);
    expect(noUrl.body.error).toMatch(/HP_SUBMIT_URL must be an http\(s\) URL \(it is "orders.oneflow.io\/api\/order"\)/);
    // Failed for good, not retried: the settings have to be fixed first.
    expect((await w.db('outbox').where({ dedupe_key: `hp:${w.sites.a}:${noUrlId}` }).first()).status).toBe('failed');
    expect(w.sim.stats.submitCalls).toBe(0);
  });

  it('an order Site Flow refuses after acknowledging it: the submission-error postback puts the order in error, with the reason in hp-log', async () => {
    // No postcode: Site Flow acknowledges, then refuses.
    const orderId = await orderWithDesign({ shipping_address: { name: 'Ada Lovelace', address1: '12 Analytical Row', city: 'London', zip: '', country_code: 'GB' } });
    expect((await sendHp(orderId)).body.data.status).toBe('sent');
    await w.sim.idle();
    expect(w.sim.orderBySource(orderId)).toBeUndefined();
    const order = await w.orderRecord(w.sites.a, orderId);
    expect(order.status).toBe('error');
    const [log] = await hpLogs(orderId);
    expect(log.name).toBe('order.submissionerror');
    expect(log.data.error).toBe('Order validation failed: orderData.shipments[0].shipTo.postcode is required');
    // On the order too, until it moves on.
    expect(order.data.providerError).toMatchObject({ message: 'Order validation failed: orderData.shipments[0].shipTo.postcode is required', sourceOrderId: orderId });
    expect(log.data.raw.error.validations).toEqual([{ path: 'orderData.shipments[0].shipTo.postcode', message: 'is required' }]);
  });

  it('a submission error for a repeated sourceOrderId means "already there": the order keeps its status', async () => {
    const orderId = await orderWithDesign();
    // Site Flow already holds this sourceOrderId (sent before, the answer lost).
    const direct = createHpClient({ scheme: 'oneflow', baseUrl: w.simUrl, key: HP.key, secret: HP.secret });
    const hpSample = JSON.parse(fs.readFileSync(path.join(FIXTURES, 'hp-order-sample.json'), 'utf8'));
    await direct.submitOrder({ ...hpSample, orderData: { ...hpSample.orderData, sourceOrderId: orderId } });
    await w.sim.idle();
    expect((await sendHp(orderId)).body.data.status).toBe('sent');
    await w.sim.idle();
    expect(w.sim.stats.duplicates).toBe(1);
    expect((await w.orderRecord(w.sites.a, orderId)).status).toBe('sent');
    const [log] = await hpLogs(orderId);
    expect(log.data).toMatchObject({ error: expect.stringMatching(/^Source Order ID already exists/), alreadySent: true });
    expect((await w.orderRecord(w.sites.a, orderId)).data.providerError).toBeUndefined();
  });

  it('takes Site Flow\'s raw order object as a postback: status, provider id and tracking', async () => {
    const orderId = await orderWithDesign();
    await sendHp(orderId);
    const simOrder = w.sim.orderBySource(orderId)!;
    await w.sim.sendPostback(orderId, 'printready');
    await w.sim.sendPostback(orderId, 'shipped');
    await w.sim.sendPostback(orderId, 'shipped');
    expect(w.sim.postbacks.map((p) => p.status)).toEqual([200, 200, 200]);
    const order = await w.orderRecord(w.sites.a, orderId);
    expect(order.status).toBe('shipped');
    expect(order.data.tracking.number).toBe(simOrder.shipment!.trackingNumber);
    expect(order.data.tracking.url).toBe(simOrder.shipment!.trackingUrl);
    const logs = await hpLogs(orderId);
    // The repeated shipped object is a duplicate.
    expect(logs.map((l) => [l.name, l.status, l.provider_order_id])).toEqual([
      ['order.printready', 'printready', simOrder._id],
      ['order.shipped', 'shipped', simOrder._id],
    ]);
    expect(logs[1].data.raw.order._id).toBe(simOrder._id);
  });
});

describe('an acknowledgement naming the submission, not the order', () => {
  it('the order id Site Flow\'s first postback names replaces the acknowledgement\'s, everywhere it was kept', async () => {
    w.sim.setAcknowledgementId('submission');
    const orderId = await orderWithDesign();
    const sent = await sendHp(orderId);
    const simOrder = w.sim.orderBySource(orderId)!;
    const ackId = sent.body.data.hpOrderId;
    expect(ackId).not.toBe(simOrder._id);
    expect((await w.orderRecord(w.sites.a, orderId)).data.hpOrders).toMatchObject({ [orderId]: { hpOrderId: ackId, acknowledged: true } });
    await w.sim.sendPostback(orderId, 'printready');
    const order = await w.orderRecord(w.sites.a, orderId);
    expect(order.data.hpOrderId).toBe(simOrder._id);
    expect(order.data.preGeneratedHPItems.map((i) => i.hpOrderId)).toEqual([simOrder._id]);
    expect(order.data.hpOrders).toMatchObject({ [orderId]: { hpOrderId: simOrder._id, acknowledged: false } });
    // A later postback naming another id does not move it again.
    await w.request().post('/api/online-stores/hp-webhook?site=site-a').set('x-postback-token', HP.token).send({ event: 'order.printed', sourceOrderId: orderId, orderId: 'something-else', status: 'printed', timestamp: '2026-11-21T12:00:00Z' });
    expect((await w.orderRecord(w.sites.a, orderId)).data.hpOrderId).toBe(simOrder._id);
  });
});

describe('the raw order object, as HP publishes it', () => {
  it('the PrintOS sample\'s order object, posted back, is read as that order\'s dataready event', async () => {
    const orderId = await orderWithDesign();
    await sendHp(orderId);
    const { order } = JSON.parse(fs.readFileSync(path.join(FIXTURES, 'hp-submit-response-printos.json'), 'utf8'));
    order.orderData.sourceOrderId = orderId;
    const res = await w.request().post('/api/online-stores/hp-webhook?site=site-a').set('x-postback-token', HP.token).send(order);
    expect(res.status).toBe(200);
    expect(res.body.data).toEqual({ duplicate: false, orderStatus: 'dataready', found: true });
    const [log] = await hpLogs(orderId);
    expect([log.name, log.status, log.provider_order_id, log.data.timestamp]).toEqual(['order.dataready', 'dataready', '57d07ba6872ba4110086ca0d', '2016-09-07T20:42:14.665Z']);
    // An object without a sourceOrderId is not a postback.
    delete order.orderData.sourceOrderId;
    expect((await w.request().post('/api/online-stores/hp-webhook?site=site-a').set('x-postback-token', HP.token).send(order)).status).toBe(400);
  });
});

describe('the ship-to address', () => {
  it('carries the store address\'s company and state (province code, else province) as Site Flow\'s companyName and state', async () => {
    const address = { name: 'Bob Norman', company: 'Acme Inc.', address1: '5th Avenue', address2: '', city: 'New York', zip: '10001', province: 'New York', province_code: 'NY', country_code: 'US', phone: '' };
    const withCode = await orderWithDesign({ shipping_address: address });
    const provinceOnly = await orderWithDesign({ shipping_address: { ...address, company: '', province_code: null } });
    for (const id of [withCode, provinceOnly]) expect((await sendHp(id)).body.data.status).toBe('sent');
    const shipTo = (id: string) => (w.sim.orderBySource(id)!.body.orderData.shipments as Array<{ shipTo: Record<string, unknown> }>)[0].shipTo;
    expect(shipTo(withCode)).toEqual({ name: 'Bob Norman', companyName: 'Acme Inc.', address1: '5th Avenue', address2: '', town: 'New York', state: 'NY', postcode: '10001', isoCountry: 'US', email: 'ada@example.com' });
    expect(shipTo(provinceOnly)).toMatchObject({ state: 'New York' });
    expect(shipTo(provinceOnly).companyName).toBeUndefined();
  });
});

describe('cancel-hp', () => {
  const cancel = (orderId: string, token = w.tokens.userA) => w.request().post('/api/online-stores/shopify-webhook/cancel-hp').set(bearer(token)).send({ orderId });
  type Entry = { kind: string; action: string; from: string | null; to: string | null; reason: string | null; actor: { automatic?: string; name?: string } };
  /** The order's timeline as Check order shows it: kind, action, from, to, who. */
  const timeline = async (orderId: string) => {
    const res = await w.request().get(`/api/online-stores/order-history?id=${orderId}`).set(bearer(w.tokens.userA));
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    return (res.body.data.list as Entry[]).map((e) => [e.kind, e.action, e.from, e.to, e.actor.automatic ?? e.actor.name, e.reason]);
  };

  it('cancels the order at Site Flow by source account and sourceOrderId; the order reads cancelled', async () => {
    const orderId = await orderWithDesign();
    await sendHp(orderId);
    const unset = await cancel(orderId);
    expect(unset.status).toBe(400);
    expect(unset.body.error).toMatch(/set HP_SOURCE_ACCOUNT/);
    await w.setHpEnv(w.sites.a, siteflowEnv({ HP_SOURCE_ACCOUNT: w.sim.sourceAccount }));
    // Another site's user: no such order.
    expect((await cancel(orderId, w.tokens.userB)).status).toBe(404);
    // HP's postback of the cancellation is lost: its answer alone moves the order.
    w.sim.faults.losePostbacks = true;
    const res = await cancel(orderId);
    expect(res.status).toBe(200);
    expect(res.body.data).toMatchObject({ status: 'cancelled', sourceOrderIds: [orderId] });
    expect(w.sim.orderBySource(orderId)!.status).toBe('cancelled');
    // The same step as a store cancellation: its result is on the order.
    expect((await w.orderRecord(w.sites.a, orderId)).data.providerCancellation).toMatchObject({ status: 'cancelled', sourceOrderIds: [orderId] });
    expect(w.sim.calls.filter((c) => c.method === 'PUT').map((c) => c.path)).toEqual([`/siteflow/api/order/${w.sim.sourceAccount}/${orderId}/cancel`]);
    // Asked by the operator, confirmed by HP, the order cancelled by that answer: each in the order's timeline.
    expect((await timeline(orderId)).slice(-3)).toEqual([
      ['send', 'cancel-queued', null, 'pending', 'user-a Tester', `HP orders ${orderId}`],
      ['send', 'cancelled', 'pending', 'cancelled', 'HP Site Flow send', `Cancelled at HP Site Flow (${orderId})`],
      ['order', 'status', 'sent', 'cancelled', 'HP Site Flow send', `Cancelled at HP Site Flow (${orderId})`],
    ]);
    await w.sim.idle();
    expect((await w.orderRecord(w.sites.a, orderId)).status).toBe('cancelled');
    const again = await cancel(orderId);
    expect(again.status).toBe(400);
    expect(again.body.error).toMatch(/nothing at HP Site Flow to cancel/);
    // Never sent: nothing to cancel there either.
    const unsent = await orderWithDesign();
    expect((await cancel(unsent)).body.error).toMatch(/nothing at HP Site Flow to cancel \(it was never sent\)/);
  });

  it('HP refusing (the order shipped, its postback lost) is answered 422 with HP\'s reason; nothing changes', async () => {
    await w.setHpEnv(w.sites.a, siteflowEnv({ HP_SOURCE_ACCOUNT: w.sim.sourceAccount }));
    const orderId = await orderWithDesign();
    await sendHp(orderId);
    w.sim.faults.losePostbacks = true;
    await w.sim.progress(orderId, 'shipped');
    const res = await cancel(orderId);
    expect(res.status).toBe(422);
    expect(res.body.error).toBe(`HP Site Flow refused to cancel ${orderId}: A shipped order cannot be cancelled`);
    expect(res.body.errorMes).toMatchObject({ status: 'failed', sourceOrderIds: [orderId] });
    const after = await w.orderRecord(w.sites.a, orderId);
    expect(after.status).toBe('sent');
    expect(after.data.providerCancellation).toMatchObject({ status: 'failed' });
    // Asked again (the operator retries): the failed step is queued again and HP asked again.
    const puts = w.sim.calls.filter((c) => c.method === 'PUT').length;
    expect((await cancel(orderId)).status).toBe(422);
    expect(w.sim.calls.filter((c) => c.method === 'PUT').length).toBe(puts + 1);
    const refusal = `HP Site Flow refused to cancel ${orderId}: A shipped order cannot be cancelled`;
    expect((await timeline(orderId)).filter(([kind]) => kind === 'send').slice(-4)).toEqual([
      ['send', 'cancel-queued', null, 'pending', 'user-a Tester', `HP orders ${orderId}`],
      ['send', 'cancel-failed', 'pending', 'failed', 'HP Site Flow send', refusal],
      ['send', 'cancel-queued', 'failed', 'pending', 'user-a Tester', `HP orders ${orderId}`],
      ['send', 'cancel-failed', 'pending', 'failed', 'HP Site Flow send', refusal],
    ]);
  });
});

describe('the component code', () => {
  it('is the design\'s Site Flow component code when it names one, Content otherwise', async () => {
    const save = (hpAdditionData: unknown) =>
      w.request().post('/api/designs').set(bearer(w.tokens.userA)).send({ name: 'Coded card', sku: `CODED-${++seq}`, hpSKU: 'HP-CODED', hpAdditionData });
    const coded = await save({ attributes: [], stockItems: [], componentCode: ' Card ' });
    expect(coded.status).toBe(200);
    expect(coded.body.data.hpAdditionData).toEqual({ attributes: [], stockItems: [], componentCode: 'Card' });
    const plain = await save({ attributes: [], stockItems: [], componentCode: '' });
    expect(plain.body.data.hpAdditionData).toEqual({ attributes: [], stockItems: [] });
    expect((await save({ attributes: [], stockItems: [], componentCode: 'x'.repeat(101) })).status).toBe(400);

    await w.db('designs').whereIn('id', [coded.body.data.id, plain.body.data.id]).update({ product_pdf: '/files/test/design.pdf' });
    const orderId = newOrderId();
    await w.insertOrder(
      w.sites.a,
      storeOrder(orderId, [
        { id: '31', sku: coded.body.data.sku },
        { id: '32', sku: plain.body.data.sku },
      ]),
    );
    expect((await sendHp(orderId)).body.data.status).toBe('sent');
    const items = w.sim.orderBySource(orderId)!.body.orderData.items as Array<{ sourceItemId: string; components: Array<{ code: string }> }>;
    expect(items.map((i) => [i.sourceItemId, i.components[0].code])).toEqual([
      ['31', 'Card'],
      ['32', 'Content'],
    ]);
  });
});

describe('connectivity test (POST /api/test/send-hp)', () => {
  const test = (token: string, site?: string) => w.request().post('/api/test/send-hp').set(bearer(token)).send(site ? { site } : {});
  const slugA = async () => (await w.db('sites').where({ id: w.sites.a }).first('slug')).slug as string;

  it('the right key pair and scheme: HP looked the probe order up (not found), so the signature was taken; nothing created', async () => {
    const res = await test(w.tokens.adminA, await slugA());
    expect(res.status).toBe(200);
    expect(res.body.data.scheme).toBe('oneflow');
    expect(res.body.data.checks.map((c: { step: string; ok: boolean }) => [c.step, c.ok])).toEqual([
      ['settings', true],
      ['signed call (GET /api/order/{id})', true],
    ]);
    expect(res.body.data.checks[1].status).toBe(404);
    expect(w.sim.calls.filter((c) => c.method !== 'GET')).toEqual([]);
  });

  it("a wrong secret or scheme: HP's refusal and its own answer are shown; missing settings are named", async () => {
    await w.setHpEnv(w.sites.a, siteflowEnv({ HP_API_SECRET: 'not-the-secret' }));
    const wrong = (await test(w.tokens.adminA, await slugA())).body.data.checks[1];
    expect(wrong).toMatchObject({ ok: false, status: 401, error: expect.stringMatching(/HP refused the key or the signature \(oneflow scheme\)/) });
    expect(wrong.body).toBeTruthy();
    await w.setHpEnv(w.sites.a, siteflowEnv({ HP_AUTH_SCHEME: 'printos' }));
    expect((await test(w.tokens.adminA, await slugA())).body.data.checks[1]).toMatchObject({ ok: false, status: 401 });
    await w.setHpEnv(w.sites.a, { HP_BASE_URL: w.simUrl });
    const missing = (await test(w.tokens.adminA, await slugA())).body.data.checks;
    expect(missing).toEqual([expect.objectContaining({ step: 'settings', ok: false, error: 'HP_API_KEY is not set; HP_API_SECRET is not set' })]);
  });

  it('admins only; another site is named by slug, an unknown one is 404', async () => {
    expect((await test(w.tokens.userA)).status).toBe(403);
    expect((await test(w.tokens.adminA, 'no-such-site')).status).toBe(404);
  });
});

describe('a site sets its own quiet period', () => {
  it("HP_POLL_AFTER_MINUTES sets a site's own quiet period; a bad value is refused by name", async () => {
    await w.db('store_orders').update({ status: 'cancelled' });
    w.sim.faults.dropConnections = false;
    await w.setHpEnv(w.sites.a, siteflowEnv({ HP_POLL_AFTER_MINUTES: '30' }));
    const orderId = await orderWithDesign();
    const sent = await sendHp(orderId);
    expect(sent.body.error).toBeUndefined();
    expect(sent.body.data.status).toBe('sent');
    const check = () => w.services.fulfilment.checkQuietOrders();
    w.clock.advance(29 * 60_000);
    expect(await check()).toEqual({ checked: 0, news: 0, errors: [] });
    w.clock.advance(2 * 60_000);
    // 31 minutes of quiet: asked about, far sooner than the 6-hour default.
    expect((await check()).checked).toBe(1);

    await w.setHpEnv(w.sites.a, siteflowEnv({ HP_POLL_AFTER_MINUTES: 'soon' }));
    const other = await orderWithDesign();
    const bad = await sendHp(other);
    expect(bad.body.error).toMatch(/HP_POLL_AFTER_MINUTES must be a whole number of minutes/);
  });
});

// Last in this file: it moves the world's clock on by hours.
describe('orders with no news are asked about (postbacks can be lost)', () => {
  it('a lost shipped postback is made good by asking Site Flow; asked once per quiet period; finished orders are not asked about', async () => {
    // Earlier tests' orders name provider orders the reset simulator has forgotten: out of the way.
    await w.db('store_orders').update({ status: 'cancelled' });
    const lostId = await orderWithDesign();
    const quietId = await orderWithDesign();
    expect((await sendHp(lostId)).body.data.status).toBe('sent');
    expect((await sendHp(quietId)).body.data.status).toBe('sent');
    w.sim.faults.losePostbacks = true;
    await w.sim.progress(lostId, 'shipped');
    expect(w.sim.postbacks.map((p) => p.status)).toEqual(['lost']);
    const check = () => w.services.fulfilment.checkQuietOrders();
    const gets = () => w.sim.calls.filter((c) => c.method === 'GET').length;

    // Not quiet for long enough yet: nobody is asked.
    expect(await check()).toEqual({ checked: 0, news: 0, errors: [] });
    w.clock.advance(6 * 60 * 60_000 + 1_000);
    const first = await check();
    expect(first).toEqual({ checked: 2, news: 2, errors: [] });
    const lost = await w.orderRecord(w.sites.a, lostId);
    expect(lost.status).toBe('shipped');
    expect(lost.data.tracking.number).toBe(w.sim.orderBySource(lostId)!.shipment!.trackingNumber);
    expect((await w.orderRecord(w.sites.a, quietId)).status).toBe('dataready');
    expect(gets()).toBe(2);

    // Right away again: both were just asked about (and one just moved on).
    expect(await check()).toEqual({ checked: 0, news: 0, errors: [] });
    // After another quiet period only the unfinished one is asked; the same answer is no news.
    w.clock.advance(6 * 60 * 60_000 + 1_000);
    expect(await check()).toEqual({ checked: 1, news: 0, errors: [] });
    expect(gets()).toBe(3);
    expect((await hpLogs(quietId)).map((l) => l.status)).toEqual(['dataready']);

    // The provider not answering is reported, not thrown; the order is asked again next period.
    w.sim.faults.dropConnections = true;
    w.clock.advance(6 * 60 * 60_000 + 1_000);
    const failed = await check();
    expect(failed.checked).toBe(0);
    expect(failed.errors).toEqual([{ orderId: quietId, providerOrderId: w.sim.orderBySource(quietId)!._id, error: expect.stringMatching(/could not be reached/) }]);
  });
});
