// Sending orders to HP through the outbox: send-hp / send-hp-single-line, dedupe, the lease,
// crash recovery, two instances, retries and failures — against the loopback simulator.
import { beforeEach, describe, expect, it } from 'vitest';
import { createLogger } from '../src/lib/logger';
import { fulfilmentService, MAYBE_AT_PROVIDER_WHOLE } from '../src/modules/fulfilment/service';
import { hpDedupeKey } from '../src/modules/fulfilment/outbox';
import type { HpOrderBody } from '../src/modules/fulfilment/orderBody';
import { createHpClient } from '../src/integrations/hpSiteflow';
import { bearer } from './harness';
import { createHpWorld, HP, storeOrder } from './fulfilmentWorld';
import { orderTablesRepo } from '../src/modules/orders/tablesRepo';
import { formatDateTime } from '../src/lib/clock';

const w = await createHpWorld();
let seq = 0;
const newOrderId = () => `${5_000_000_000 + ++seq * 7}`;

beforeEach(() => {
  w.sim.reset();
});

async function orderWithDesign(lines = [{ id: '11', sku: `SKU-${seq + 1}` }], siteId = w.sites.a) {
  const orderId = newOrderId();
  for (const l of lines) if (!(await w.db('designs').where({ site_id: siteId, sku: l.sku }).first())) await w.insertDesign(siteId, { sku: l.sku });
  await w.insertOrder(siteId, storeOrder(orderId, lines));
  return orderId;
}

const sendHp = (body: unknown, token = w.tokens.userA) => w.request().post('/api/online-stores/shopify-webhook/send-hp').set(bearer(token)).send(body as object);
const outboxRows = () => w.db('outbox').orderBy('id');
const sendLogs = (orderId: string) => w.db('provider_sends').where({ store_order_id: orderId }).orderBy('id').select('*', 'line_id as field2');

describe('enqueueOrderSend', () => {
  it('writes one outbox row per dedupe key in the caller transaction, and answers the existing row again', async () => {
    const orderId = newOrderId();
    const first = await w.db.transaction((trx) => w.services.fulfilment.enqueueOrderSend(trx, { siteId: w.sites.a, orderId }, w.users.userA));
    const again = await w.db.transaction((trx) => w.services.fulfilment.enqueueOrderSend(trx, { siteId: w.sites.a, orderId }, w.users.userA));
    expect(first[0].id).toBe(again[0].id);
    expect(first[0].dedupeKey).toBe(`hp:${w.sites.a}:${orderId}`);
    expect(first[0].kind).toBe('hp-order');
    const lines = await w.db.transaction((trx) => w.services.fulfilment.enqueueOrderSend(trx, { siteId: w.sites.a, orderId, lineIds: ['1', '2', '1'] }));
    expect(lines.map((r) => r.dedupeKey)).toEqual([hpDedupeKey(w.sites.a, orderId, '1'), `hp:${w.sites.a}:${orderId}:2`]);
    // Rolled back with the caller: no row.
    const rolled = newOrderId();
    await w.db
      .transaction(async (trx) => {
        await w.services.fulfilment.enqueueOrderSend(trx, { siteId: w.sites.a, orderId: rolled });
        throw new Error('caller failed');
      })
      .catch(() => undefined);
    expect(await w.db('outbox').where({ dedupe_key: `hp:${w.sites.a}:${rolled}` }).first()).toBeUndefined();
    await w.db('outbox').whereIn('id', [first[0].id, ...lines.map((l) => l.id)]).delete();
  });
});

describe('send-hp', () => {
  it('sends the order: provider body per the contract, outbox sent, shopify-hp-log, order record updated, PDF reachable', async () => {
    const orderId = await orderWithDesign([
      { id: '11', sku: 'CARD-ONE' },
      { id: '12', sku: 'CARD-TWO' },
    ]);
    await w.db('designs').where({ sku: 'CARD-ONE' }).update({ hp_addition_data: JSON.stringify({ attributes: [{ name: 'paper', value: 'matt' }], stockItems: [{ code: 'ENV-C5', name: 'Envelope', quantity: 1 }] }) });
    const res = await sendHp({ orderId });
    expect(res.body.error).toBeUndefined();
    expect(res.status).toBe(200);
    expect(res.body.data.status).toBe('sent');
    const simOrder = w.sim.orderBySource(orderId)!;
    expect(res.body.data.hpOrderId).toBe(simOrder._id);

    const body = simOrder.body as unknown as HpOrderBody;
    expect(body.destination).toEqual({ name: 'presswork-test' });
    expect(body.orderData.customerName).toBe('Ada Lovelace');
    expect(body.orderData.shipments).toEqual([
      { shipTo: { name: 'Ada Lovelace', address1: '12 Analytical Row', address2: '', town: 'London', postcode: 'N1 1AA', isoCountry: 'GB', email: 'ada@example.com' }, carrier: { alias: 'royalmail' } },
    ]);
    expect(body.orderData.items).toHaveLength(2);
    expect(body.orderData.items[0]).toMatchObject({ sourceItemId: '11', sku: 'HP-CARD-ONE', quantity: 1, shipmentIndex: 0 });
    expect(body.orderData.items[0].components[0]).toMatchObject({ code: 'Content', fetch: true, attributes: { paper: 'matt' } });
    expect(body.orderData.stockItems).toEqual([{ code: 'ENV-C5', name: 'Envelope', quantity: 1 }]);
    const path: string = body.orderData.items[0].components[0].path;
    expect(path).toMatch(new RegExp(`^${w.appUrl}/files/\\d+/print-files/`));
    expect(path).toMatch(/\/[0-9a-f]{40}\/print-file\.pdf$/);

    // The provider can fetch it.
    const pdf = await fetch(path);
    expect(pdf.status).toBe(200);
    expect(pdf.headers.get('content-type')).toBe('application/pdf');
    expect(Buffer.from(await pdf.arrayBuffer()).subarray(0, 5).toString()).toBe('%PDF-');

    const [row] = await w.db('outbox').where({ dedupe_key: `hp:${w.sites.a}:${orderId}` });
    expect(row.status).toBe('sent');
    expect(row.attempts).toBe(1);
    const logs = await sendLogs(orderId);
    expect(logs).toHaveLength(1);
    expect(logs[0].status).toBe('sent');
    const logData = typeof logs[0].data === 'string' ? JSON.parse(logs[0].data) : logs[0].data;
    expect(logData.sentData.orderData.sourceOrderId).toBe(orderId);
    expect(logData.results.order._id).toBe(simOrder._id);

    const order = await w.orderRecord(w.sites.a, orderId);
    expect(order.status).toBe('sent');
    expect(order.data.status).toBe('sent');
    expect(order.data.hpOrderId).toBe(simOrder._id);
    expect(order.data.preGeneratedHPItems.map((i: { lineId: string; path: string }) => [i.lineId, i.path.startsWith(w.appUrl)])).toEqual([
      ['11', true],
      ['12', true],
    ]);
    // A print job per line exists now (and the PDF is made once: sending again reuses it).
    const jobs = await w.db('print_jobs').where({ shopify_order_id: orderId });
    expect(jobs.map((j) => j.line_item_id).sort()).toEqual(['11', '12']);

    const again = await sendHp({ id: orderId });
    expect(again.body.data).toEqual({ status: 'already-sent', hpOrderId: simOrder._id, sentAt: res.body.data.sentAt, orderStatus: 'sent' });
    expect(w.sim.stats.submitCalls).toBe(1);
  });

  it('answers when the order was sent and its status now, for a send and for a click on a sent or shipped order', async () => {
    const orderId = await orderWithDesign();
    const sent = await sendHp({ orderId });
    expect(sent.status).toBe(200);
    expect(sent.body.data).toMatchObject({ status: 'sent', orderStatus: 'sent' });
    expect(Date.parse(sent.body.data.sentAt)).not.toBeNaN();
    const order = await w.orderRecord(w.sites.a, orderId);
    expect((order.data.hpOrders as Record<string, { sentAt: string }>)[orderId].sentAt).toBe(sent.body.data.sentAt);
    // Kept where "HP has not acknowledged it" reads it.
    expect((await w.db('store_orders').where({ id: order.id }).first()).sent_to_provider_at).toBe(sent.body.data.sentAt);

    // Shipped since: a click says when it went, and that it is shipped, not "sent".
    await orderTablesRepo(w.db).updateOrder(order.id, { data: { ...order.data, status: 'shipped' }, status: 'shipped', before: order.data, updatedAt: new Date().toISOString() });
    const again = await sendHp({ orderId });
    expect(again.body.data).toEqual({ status: 'already-sent', hpOrderId: sent.body.data.hpOrderId, sentAt: sent.body.data.sentAt, orderStatus: 'shipped' });
    const line = await w.request().post('/api/online-stores/shopify-webhook/send-hp-single-line').set(bearer(w.tokens.userA)).send({ orderId, lineId: '11' });
    expect(line.body.data).toMatchObject({ status: 'already-sent', sentAt: sent.body.data.sentAt });
    expect(w.sim.stats.submitCalls).toBe(1);
  });

  it('two concurrent clicks make one provider order', async () => {
    const orderId = await orderWithDesign();
    w.sim.faults.delayMs = 150;
    const [a, b] = await Promise.all([sendHp({ orderId }), sendHp({ orderId }, w.tokens.userA2)]);
    expect([a.status, b.status]).toEqual([200, 200]);
    expect([a.body.data.status, b.body.data.status].sort()).toEqual(['already-sent', 'sent']);
    expect(a.body.data.hpOrderId).toBe(b.body.data.hpOrderId);
    expect(w.sim.stats.submitCalls).toBe(1);
    expect(w.sim.stats.created).toBe(1);
    expect(await sendLogs(orderId)).toHaveLength(1);
  });

  it('sends one line as its own provider order <order>-<line>', async () => {
    const orderId = await orderWithDesign([
      { id: '21', sku: 'LINE-A' },
      { id: '22', sku: 'LINE-B' },
    ]);
    const res = await w.request().post('/api/online-stores/shopify-webhook/send-hp-single-line').set(bearer(w.tokens.userA)).send({ orderId, lineId: '22' });
    expect(res.status).toBe(200);
    expect(res.body.data.status).toBe('sent');
    const simOrder = w.sim.orderBySource(`${orderId}-22`)!;
    expect((simOrder.body.orderData.items as unknown[]).length).toBe(1);
    expect((await w.db('outbox').where({ dedupe_key: `hp:${w.sites.a}:${orderId}:22` }).first()).status).toBe('sent');
    const logs = await sendLogs(orderId);
    expect(logs.map((l) => l.field2)).toEqual(['22']);
    const missing = await w.request().post('/api/online-stores/shopify-webhook/send-hp-single-line').set(bearer(w.tokens.userA)).send({ orderId, lineId: '99' });
    expect(missing.status).toBe(404);
  });

  it('a repeated sourceOrderId at the provider counts as sent', async () => {
    const orderId = await orderWithDesign();
    // Someone sent it before (another system, a lost answer): the provider already has it.
    const client = createHpClient({ baseUrl: w.simUrl, key: HP.key, secret: HP.secret });
    await client.submitOrder({
      destination: { name: 'x' },
      orderData: { sourceOrderId: orderId, items: [{ sourceItemId: '1', sku: 'S', quantity: 1, components: [{ code: 'Content', path: 'http://x/a.pdf', fetch: false }] }], shipments: [{ shipTo: { name: 'n', address1: 'a', town: 't', postcode: 'p', isoCountry: 'GB' }, carrier: { alias: 'c' } }] },
    });
    const res = await sendHp({ orderId });
    expect(res.status).toBe(200);
    expect(res.body.data.status).toBe('already-sent');
    expect((await w.db('outbox').where({ dedupe_key: `hp:${w.sites.a}:${orderId}` }).first()).status).toBe('sent');
    expect((await w.orderRecord(w.sites.a, orderId)).status).toBe('sent');
    expect(w.sim.stats.created).toBe(1);
  });

  it('a provider 400 fails the send visibly and is not retried; a click after the fix sends it', async () => {
    const orderId = newOrderId();
    await w.insertDesign(w.sites.a, { sku: 'BAD-POST' });
    await w.insertOrder(w.sites.a, storeOrder(orderId, [{ id: '31', sku: 'BAD-POST' }], { shipping_address: { name: 'X', address1: '1 Road', city: 'Leeds', zip: '', country_code: 'GB' } }));
    const res = await sendHp({ orderId });
    expect(res.status).toBe(422);
    expect(res.body.success).toBe(false);
    expect(res.body.error).toBe('Order validation failed');
    expect(res.body.errorMes.validations).toEqual([{ path: 'orderData.shipments[0].shipTo.postcode', message: 'is required' }]);
    const row = await w.db('outbox').where({ dedupe_key: `hp:${w.sites.a}:${orderId}` }).first();
    expect(row.status).toBe('failed');
    expect(row.error).toBe('Order validation failed');
    expect((await sendLogs(orderId))[0].status).toBe('failed');
    // The worker does not pick a failed row up.
    w.clock.advance(10 * 60_000);
    await w.services.fulfilment.processDue();
    expect(w.sim.stats.submitCalls).toBe(1);
    // Fixed address, clicked again: sent.
    const rec = await w.orderRecord(w.sites.a, orderId);
    await orderTablesRepo(w.db).updateOrder(rec.id, { data: { ...rec.data, shipping_address: { ...rec.data.shipping_address, zip: 'LS1 1AA' } }, updatedAt: w.clock.now().toISOString() });
    const retry = await sendHp({ orderId });
    expect(retry.body.data.status).toBe('sent');
  });

  it('what cannot be sent fails with a clear error: no design, no HP SKU, no settings', async () => {
    const orderId = newOrderId();
    await w.insertOrder(w.sites.a, storeOrder(orderId, [{ id: '41', sku: 'NO-SUCH-SKU' }]));
    const res = await sendHp({ orderId });
    expect(res.status).toBe(422);
    expect(res.body.error).toMatch(/No line of this order can be sent to HP.*No design or product has the SKU NO-SUCH-SKU/);

    const noSku = newOrderId();
    await w.insertDesign(w.sites.a, { sku: 'NO-HP-SKU', hpSKU: null, name: 'Plain' });
    await w.insertOrder(w.sites.a, storeOrder(noSku, [{ id: '42', sku: 'NO-HP-SKU' }]));
    expect((await sendHp({ orderId: noSku })).body.error).toMatch(/design "Plain" has no provider SKU/);

    // A product mapping of another store SKU to a design is followed.
    const mapped = newOrderId();
    const designId = await w.insertDesign(w.sites.a, { sku: 'MAPPED-DESIGN' });
    await w.db('general_data').insert({
      type: 'product', field1: 'STORE-ALIAS', field2: String(designId), name: 'Alias', data: JSON.stringify({ designId }), site_id: w.sites.a,
      created_at: w.clock.now().toISOString(), updated_at: w.clock.now().toISOString(),
    });
    await w.insertOrder(w.sites.a, storeOrder(mapped, [{ id: '43', sku: 'STORE-ALIAS' }]));
    const viaProduct = await sendHp({ orderId: mapped });
    expect(viaProduct.body.data.status).toBe('sent');
    expect((w.sim.orderBySource(mapped)!.body.orderData.items as Array<{ sku: string }>)[0].sku).toBe('HP-MAPPED-DESIGN');

    const siteB = newOrderId();
    await w.insertDesign(w.sites.b, { sku: 'B-SKU' });
    await w.insertOrder(w.sites.b, storeOrder(siteB, [{ id: '44', sku: 'B-SKU' }]));
    const notSetUp = await sendHp({ orderId: siteB }, w.tokens.userB);
    expect(notSetUp.status).toBe(422);
    expect(notSetUp.body.error).toMatch(/HP Site Flow is not set up for site "Site B": set HP_BASE_URL, HP_API_KEY, HP_API_SECRET/);
  });

  it('tenancy: another site\'s order is not found; unknown order 404; signed out 401; bad body 400', async () => {
    const orderId = await orderWithDesign();
    expect((await sendHp({ orderId }, w.tokens.userB)).status).toBe(404);
    expect((await sendHp({ orderId, siteId: w.sites.a }, w.tokens.userB)).status).toBe(404);
    expect((await sendHp({ orderId: 'nope' })).status).toBe(404);
    expect((await w.request().post('/api/online-stores/shopify-webhook/send-hp').send({ orderId })).status).toBe(401);
    expect((await sendHp({})).status).toBe(400);
    expect(w.sim.stats.submitCalls).toBe(0);
    // The admin of site B may send site A's order (all clients).
    const asAdmin = await sendHp({ orderId }, w.tokens.adminB);
    expect(asAdmin.body.data.status).toBe('sent');
  });
});

describe('the outbox worker', () => {
  it('retries 503s: pending with attempts+1 and a backoff, then sent; gives up after maxAttempts', async () => {
    const orderId = await orderWithDesign();
    // Each attempt: the first try + 3 client retries = 4 calls.
    w.sim.failNext(4, 503);
    const res = await sendHp({ orderId });
    expect(res.status).toBe(202);
    expect(res.body.data.status).toBe('queued');
    expect(res.body.data.error).toMatch(/503/);
    let row = await w.db('outbox').where({ dedupe_key: `hp:${w.sites.a}:${orderId}` }).first();
    expect(row.status).toBe('pending');
    expect(row.attempts).toBe(1);
    expect(row.locked_until).toBeNull();
    expect(row.next_attempt_at > w.clock.now().toISOString()).toBe(true);
    // The order's timeline says the attempt failed and when the next one is, once per attempt.
    const sendEntries = async (id: string) =>
      ((await w.request().get(`/api/online-stores/order-history?id=${id}`).set(bearer(w.tokens.userA))).body.data.list as Array<{ kind: string; action: string; reason: string | null }>).filter((e) => e.kind === 'send');
    const retried = (await sendEntries(orderId)).filter((e) => e.action === 'rescheduled');
    expect(retried).toHaveLength(1);
    expect(retried[0].reason).toBe(`Next try at ${formatDateTime(row.next_attempt_at, w.config.sync.timezone)} (attempt 1 of 3): ${row.error}`);
    expect(retried[0].reason).toMatch(/503/);
    // Not due yet.
    expect((await w.services.fulfilment.processDue()).claimed).toBe(0);
    w.clock.advance(61_000);
    const pass = await w.services.fulfilment.processDue();
    expect(pass.outcomes.map((o) => o.status)).toEqual(['sent']);
    row = await w.db('outbox').where({ id: row.id }).first();
    expect(row.status).toBe('sent');
    expect(row.attempts).toBe(2);
    expect(w.sim.stats.created).toBe(1);

    const doomed = await orderWithDesign();
    w.sim.failNext(12, 500);
    await w.db.transaction((trx) => w.services.fulfilment.enqueueOrderSend(trx, { siteId: w.sites.a, orderId: doomed }));
    for (let i = 0; i < 3; i++) {
      await w.services.fulfilment.processDue();
      w.clock.advance(61_000);
    }
    const dead = await w.db('outbox').where({ dedupe_key: `hp:${w.sites.a}:${doomed}` }).first();
    expect(dead.status).toBe('failed');
    expect(dead.attempts).toBe(3);
    expect(dead.error).toMatch(/gave up after 3 attempts/);
    expect((await sendEntries(doomed)).map((e) => e.action)).toEqual(['queued', 'rescheduled', 'rescheduled', 'failed']);
    expect(w.sim.orderBySource(doomed)).toBeUndefined();
  });

  it('a whole-order send that failed after unanswered calls (5xx) may be at HP: its lines cannot be sent on their own; a 429-only failure can', async () => {
    const sendLine = (orderId: string, lineId: string) => w.request().post('/api/online-stores/shopify-webhook/send-hp-single-line').set(bearer(w.tokens.userA)).send({ orderId, lineId });
    const failWhole = async (orderId: string, status: number) => {
      w.sim.failNext(12, status);
      await w.db.transaction((trx) => w.services.fulfilment.enqueueOrderSend(trx, { siteId: w.sites.a, orderId }));
      for (let i = 0; i < 3; i++) {
        await w.services.fulfilment.processDue();
        w.clock.advance(61_000);
      }
      const row = await w.db('outbox').where({ dedupe_key: `hp:${w.sites.a}:${orderId}` }).first();
      expect(row.status).toBe('failed');
      return row;
    };
    const lines = [
      { id: '31', sku: 'MAYBE-A' },
      { id: '32', sku: 'MAYBE-B' },
    ];
    const unanswered = await orderWithDesign(lines);
    await failWhole(unanswered, 502);
    const refused = await sendLine(unanswered, '32');
    expect(refused.status).toBe(409);
    expect(refused.body).toEqual({ success: false, error: MAYBE_AT_PROVIDER_WHOLE });
    expect(w.sim.orderBySource(`${unanswered}-32`)).toBeUndefined();
    // The safe way on: the whole order again (HP would refuse a repeat of the same source order id).
    const again = await sendHp({ orderId: unanswered });
    expect(again.body.data.status).toBe('sent');
    expect(w.sim.orderBySource(unanswered)).toBeDefined();

    const refusedOnly = await orderWithDesign(lines);
    await failWhole(refusedOnly, 429);
    const line = await sendLine(refusedOnly, '32');
    expect(line.status).toBe(200);
    expect(line.body.data.status).toBe('sent');
  });

  it('a line whose own send failed after unanswered calls is left out of a whole-order send, saying why', async () => {
    const orderId = await orderWithDesign([
      { id: '41', sku: 'OWN-A' },
      { id: '42', sku: 'OWN-B' },
    ]);
    w.sim.failNext(12, 503);
    await w.db.transaction((trx) => w.services.fulfilment.enqueueOrderSend(trx, { siteId: w.sites.a, orderId, lineIds: ['42'] }));
    for (let i = 0; i < 3; i++) {
      await w.services.fulfilment.processDue();
      w.clock.advance(61_000);
    }
    expect((await w.db('outbox').where({ dedupe_key: `hp:${w.sites.a}:${orderId}:42` }).first()).status).toBe('failed');
    const whole = await sendHp({ orderId });
    expect(whole.body.data.status).toBe('sent');
    const items = w.sim.orderBySource(orderId)!.body.orderData.items as Array<{ sourceItemId: string }>;
    expect(items.map((i) => i.sourceItemId)).toEqual(['41']);
    const log = (await sendLogs(orderId)).find((l) => l.status === 'sent' && !l.field2);
    expect(JSON.stringify(log.data)).toMatch(/its own send got no answer, so HP may have it/);
  });

  it('a crash between the provider call and recording it: the lease runs out, the row is re-sent once, the provider keeps one order', async () => {
    const orderId = await orderWithDesign();
    const [row] = await w.db.transaction((trx) => w.services.fulfilment.enqueueOrderSend(trx, { siteId: w.sites.a, orderId }));
    // Instance 1 claimed the row and its provider call went through, then the process died.
    const crashed = fulfilmentService({ db: w.db, clock: w.clock, config: w.config, log: createLogger('silent') }, w.services.production, {
      ...w.services.fulfilment.options,
      fetchImpl: (async (url: string | URL | Request, init?: RequestInit) => {
        const res = await fetch(url, init);
        if (String(url).endsWith('/api/order')) throw new Error('process killed');
        return res;
      }) as typeof fetch,
      retry: { retries: 0 },
    });
    // The "crash" surfaces here as an unexpected error; put the row back exactly as a dead process leaves it.
    await crashed.sendNow(row.id);
    await w.db('outbox').where({ id: row.id }).update({ status: 'pending', locked_until: new Date(w.clock.now().getTime() + 120_000).toISOString(), next_attempt_at: w.clock.now().toISOString() });
    expect(w.sim.stats.created).toBe(1);
    expect((await w.orderRecord(w.sites.a, orderId)).status).toBe('received');

    // While the lease holds, nobody touches it.
    expect((await w.services.fulfilment.processDue()).claimed).toBe(0);
    w.clock.advance(121_000);
    const pass = await w.services.fulfilment.processDue();
    expect(pass.outcomes).toEqual([expect.objectContaining({ status: 'already-sent' })]);
    expect(w.sim.stats.submitCalls).toBe(2);
    expect(w.sim.stats.created).toBe(1);
    const after = await w.db('outbox').where({ id: row.id }).first();
    expect(after.status).toBe('sent');
    expect((await w.orderRecord(w.sites.a, orderId)).status).toBe('sent');
    // Nothing more to do.
    w.clock.advance(10 * 60_000);
    expect((await w.services.fulfilment.processDue()).claimed).toBe(0);
    expect(w.sim.stats.submitCalls).toBe(2);
  });

  it('two instances working the same outbox never send one row twice', async () => {
    const ids = [await orderWithDesign(), await orderWithDesign(), await orderWithDesign()];
    await w.db.transaction(async (trx) => {
      for (const orderId of ids) await w.services.fulfilment.enqueueOrderSend(trx, { siteId: w.sites.a, orderId });
    });
    const other = fulfilmentService({ db: w.db, clock: w.clock, config: w.config, log: createLogger('silent') }, w.services.production, w.services.fulfilment.options);
    w.sim.faults.delayMs = 30;
    const [a, b] = await Promise.all([w.services.fulfilment.processDue(), other.processDue()]);
    expect(a.claimed + b.claimed).toBe(3);
    expect(w.sim.stats.submitCalls).toBe(3);
    expect(w.sim.stats.created).toBe(3);
    for (const orderId of ids) expect((await sendLogs(orderId)).length).toBe(1);
  });

  it('builds the print PDF from 4 artwork pages when the design has no PDF', async () => {
    const sharp = (await import('sharp')).default;
    const { Readable } = await import('node:stream');
    const urls: string[] = [];
    for (let i = 0; i < 4; i++) {
      // A5 + bleed at 165 ppi: coarse enough to be quick, fine enough not to be held by preflight.
      const png = await sharp({ create: { width: 1000, height: 1403, channels: 3, background: { r: 40 * i, g: 100, b: 200 } } }).png().toBuffer();
      await w.services.store.put(`test/page-${i}.png`, Readable.from(png));
      urls.push(`/files/test/page-${i}.png`);
    }
    const orderId = newOrderId();
    await w.insertDesign(w.sites.a, { sku: 'FOUR-PAGES', artworkUrls: urls });
    await w.insertOrder(w.sites.a, storeOrder(orderId, [{ id: '51', sku: 'FOUR-PAGES', quantity: 2 }]));
    const res = await sendHp({ orderId });
    expect(res.body.data.status).toBe('sent');
    const item = (w.sim.orderBySource(orderId)!.body.orderData.items as Array<{ quantity: number; components: Array<{ path: string }> }>)[0];
    expect(item.quantity).toBe(2);
    const pdf = Buffer.from(await (await fetch(item.components[0].path)).arrayBuffer());
    const { PDFDocument } = await import('pdf-lib');
    expect((await PDFDocument.load(pdf)).getPageCount()).toBe(4);
    const { closePdfWorkers } = await import('../src/modules/pdf/printPdf');
    await closePdfWorkers();
  });

  it('outbox rows of every state are listed nowhere else: sanity of the table', async () => {
    const rows = await outboxRows();
    expect(rows.every((r) => ['pending', 'sent', 'failed'].includes(r.status))).toBe(true);
    expect(new Set(rows.map((r) => r.dedupe_key)).size).toBe(rows.length);
  });
});
