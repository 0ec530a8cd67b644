// Provider postbacks (hp-webhook), the provider-event screens (/api/hp-data, /api/admin/hp-logs)
// and the manual send — against the loopback simulator.
import { beforeEach, describe, expect, it } from 'vitest';
import { nextOrderStatus } from '../src/modules/orders/orderState';
import { bearer } from './harness';
import { createHpWorld, HP, storeOrder } from './fulfilmentWorld';

const w = await createHpWorld();
let seq = 0;
const newOrderId = () => `${7_000_000_000 + ++seq * 13}`;

beforeEach(() => {
  w.sim.reset();
  w.sim.setTimeline(10, false);
});

const hook = (body: unknown, token: string | null = HP.token, site = 'site-a') => {
  const req = w.request().post(`/api/online-stores/hp-webhook?site=${site}`);
  if (token !== null) req.set('x-postback-token', token);
  return req.send(body as object);
};

const postback = (sourceOrderId: string, status: string, extra: Record<string, unknown> = {}) => ({
  event: `order.${status}`,
  sourceOrderId,
  orderId: 'hp-order-1',
  status,
  timestamp: `2026-11-21T10:00:0${['received', 'printready', 'printed', 'shipped'].indexOf(status) + 1}Z`,
  ...extra,
});

const shipped = (sourceOrderId: string, trackingNumber = 'TRK123') =>
  postback(sourceOrderId, 'shipped', { event: 'shipment.shipped', shipment: { trackingNumber, trackingUrl: `https://track.example/${trackingNumber}`, shippedDate: '2026-11-21', carrier: { code: 'rm', service: 'Tracked 48', alias: 'royalmail' } } });

async function sentOrder(lines = [{ id: '11', sku: 'PB-SKU' }]) {
  const orderId = newOrderId();
  for (const l of lines) if (!(await w.db('designs').where({ site_id: w.sites.a, sku: l.sku }).first())) await w.insertDesign(w.sites.a, { sku: l.sku });
  await w.insertOrder(w.sites.a, storeOrder(orderId, lines));
  const res = await w.request().post('/api/online-stores/shopify-webhook/send-hp').set(bearer(w.tokens.userA)).send({ orderId });
  expect(res.body.data?.status).toBe('sent');
  return orderId;
}

const hpLogs = (orderId: string) => w.db('provider_events').where({ store_order_id: orderId }).orderBy('id').select('*', 'provider_order_id as field2');

describe('hp-webhook authentication', () => {
  it('401 without the token, with a wrong one, for an unknown site or a site without a token', async () => {
    const body = postback('1', 'received');
    expect((await hook(body, null)).status).toBe(401);
    expect((await hook(body, 'wrong-token')).status).toBe(401);
    expect((await hook(body, `${HP.token}x`)).status).toBe(401);
    expect((await hook(body, HP.token, 'no-such-site')).status).toBe(401);
    // Site B has no HP_POSTBACK_TOKEN: nothing is accepted, not even an empty token.
    expect((await hook(body, '', 'site-b')).status).toBe(401);
    expect((await w.request().post('/api/online-stores/hp-webhook').set('x-postback-token', HP.token).send(body)).status).toBe(401);
    expect(await w.db('webhook_deliveries').where({ source: 'hp' })).toHaveLength(0);
  });

  it('400 for a body that is not a postback', async () => {
    const res = await hook({ hello: 'world' });
    expect(res.status).toBe(400);
    expect(res.body.success).toBe(false);
  });
});

describe('hp-webhook processing', () => {
  it('writes hp-log (timestamp, status, shopifyOrderId, trackingNumber, shippingMethod, event, raw) and moves the order on', async () => {
    const orderId = await sentOrder();
    const res = await hook(postback(orderId, 'printready'));
    expect(res.status).toBe(200);
    expect(res.body.data).toEqual({ duplicate: false, orderStatus: 'printready', found: true });
    expect((await w.orderRecord(w.sites.a, orderId)).status).toBe('printready');
    await hook(shipped(orderId));
    const logs = await hpLogs(orderId);
    expect(logs).toHaveLength(2);
    const last = typeof logs[1].data === 'string' ? JSON.parse(logs[1].data) : logs[1].data;
    expect(last).toMatchObject({
      timestamp: '2026-11-21T10:00:04Z',
      status: 'shipped',
      shopifyOrderId: orderId,
      trackingNumber: 'TRK123',
      shippingMethod: 'Tracked 48',
      event: 'shipment.shipped',
    });
    expect(last.raw.shipment.carrier.alias).toBe('royalmail');
    expect(logs[1].status).toBe('shipped');
    expect(logs[1].name).toBe('shipment.shipped');
    expect(logs[1].field2).toBe('hp-order-1');
    const order = await w.orderRecord(w.sites.a, orderId);
    expect(order.status).toBe('shipped');
    expect(order.data.status).toBe('shipped');
    expect(order.data.tracking).toEqual({ number: 'TRK123', method: 'Tracked 48', url: 'https://track.example/TRK123' });
  });

  it('deduplicates by (sourceOrderId, event, status, timestamp)', async () => {
    const orderId = await sentOrder();
    const body = postback(orderId, 'printready');
    const deliveries = async () => Number((await w.db('webhook_deliveries').where({ source: 'hp' }).count({ n: '*' }).first())!.n);
    const before = await deliveries();
    expect((await hook(body)).body.data.duplicate).toBe(false);
    expect((await hook(body)).body.data.duplicate).toBe(true);
    expect((await hook({ ...body, timestamp: '2026-11-21T11:00:00Z' })).body.data.duplicate).toBe(false);
    expect(await hpLogs(orderId)).toHaveLength(2);
    expect((await deliveries()) - before).toBe(2);
  });

  it('is out-of-order safe: shipped then printed stays shipped; tracking is kept', async () => {
    const orderId = await sentOrder();
    await hook(shipped(orderId));
    const late = await hook(postback(orderId, 'printed'));
    expect(late.body.data.orderStatus).toBe('shipped');
    await hook(postback(orderId, 'printready', { timestamp: '2026-11-21T12:00:00Z' }));
    // A later shipment update without tracking keeps the number.
    await hook(postback(orderId, 'shipped', { event: 'shipment.updated', timestamp: '2026-11-21T13:00:00Z' }));
    await hook(postback(orderId, 'cancelled', { timestamp: '2026-11-21T14:00:00Z' }));
    const order = await w.orderRecord(w.sites.a, orderId);
    expect(order.status).toBe('shipped');
    expect(order.data.tracking.number).toBe('TRK123');
    // Every postback is still logged.
    expect(await hpLogs(orderId)).toHaveLength(5);
  });

  it('status rules: forward only, side statuses, terminal shipped and cancelled', () => {
    expect(nextOrderStatus('sent', 'received')).toBeNull();
    expect(nextOrderStatus('sent', 'printready')).toBe('printready');
    expect(nextOrderStatus('printed', 'printready')).toBeNull();
    expect(nextOrderStatus('printready', 'error')).toBe('error');
    expect(nextOrderStatus('error', 'printed', 'printready')).toBe('printed');
    expect(nextOrderStatus('onhold', 'received', 'printready')).toBeNull();
    expect(nextOrderStatus('shipped', 'cancelled')).toBeNull();
    expect(nextOrderStatus('cancelled', 'printed')).toBeNull();
    expect(nextOrderStatus(null, 'dataready')).toBe('dataready');
    expect(nextOrderStatus('printed', 'bogus')).toBeNull();
  });

  it('a per-line provider order <order>-<line> posts back to its order', async () => {
    const orderId = newOrderId();
    await w.insertDesign(w.sites.a, { sku: 'PB-LINE' });
    await w.insertOrder(w.sites.a, storeOrder(orderId, [{ id: '77', sku: 'PB-LINE' }]));
    await w.request().post('/api/online-stores/shopify-webhook/send-hp-single-line').set(bearer(w.tokens.userA)).send({ orderId, lineId: '77' });
    const res = await hook(postback(`${orderId}-77`, 'printready'));
    expect(res.body.data.found).toBe(true);
    const logs = await hpLogs(orderId);
    expect(logs).toHaveLength(1);
    expect((await w.orderRecord(w.sites.a, orderId)).status).toBe('printready');
  });

  it('an unknown order is logged, not failed', async () => {
    const res = await hook(postback('does-not-exist', 'printready'));
    expect(res.status).toBe(200);
    expect(res.body.data.found).toBe(false);
    expect(await hpLogs('does-not-exist')).toHaveLength(1);
  });

  it('end to end: the simulator fetches the PDF, posts back received → printready → printed → shipped (twice, reordered), the order ends shipped with tracking', async () => {
    w.sim.setTimeline(5, true);
    w.sim.faults.duplicatePostbacks = true;
    w.sim.faults.reorderPostbacks = true;
    const orderId = await sentOrder([{ id: '81', sku: 'E2E-SKU' }]);
    await w.sim.idle();
    expect(w.sim.fetches).toHaveLength(1);
    expect(w.sim.fetches[0]).toMatchObject({ status: 200, isPdf: true });
    expect(w.sim.postbacks).toHaveLength(8);
    expect(w.sim.postbacks.every((p) => p.status === 200)).toBe(true);
    // Shipped came first, the rest were late; duplicates were dropped.
    expect(w.sim.postbacks[0].body.status).toBe('shipped');
    const logs = await hpLogs(orderId);
    expect(logs.map((l) => l.status)).toEqual(['shipped', 'printed', 'printready', 'received']);
    const order = await w.orderRecord(w.sites.a, orderId);
    expect(order.status).toBe('shipped');
    const simOrder = w.sim.orderBySource(orderId)!;
    expect(order.data.tracking.number).toBe(simOrder.shipment!.trackingNumber);
    expect(order.data.tracking.method).toBe('royalmail tracked');
  });
});

describe('/api/hp-data', () => {
  it('lists the provider events of the own site, newest first, paged; an admin sees every site', async () => {
    const orderId = await sentOrder();
    await hook(postback(orderId, 'received'));
    await w.db('sites').where({ id: w.sites.b }).update({ settings: JSON.stringify({ env: [{ key: 'HP_POSTBACK_TOKEN', value: 'token-b' }] }) });
    await hook(postback('b-order', 'printed'), 'token-b', 'site-b');

    const mine = await w.request().get('/api/hp-data?page=1').set(bearer(w.tokens.userA));
    expect(mine.status).toBe(200);
    expect(mine.body.data).toMatchObject({ hasNext: false });
    expect(mine.body.data.list.every((r: { siteId: number }) => r.siteId === w.sites.a)).toBe(true);
    expect(mine.body.data.list[0].data.shopifyOrderId).toBe(orderId);
    expect(mine.body.data.total).toBe(mine.body.data.list.length);

    const theirs = await w.request().get('/api/hp-data').set(bearer(w.tokens.userB));
    expect(theirs.body.data.list.map((r: { field1: string }) => r.field1)).toEqual(['b-order']);
    const all = await w.request().get('/api/hp-data').set(bearer(w.tokens.adminA));
    expect(all.body.data.total).toBe(mine.body.data.total + 1);
    const paged = await w.request().get('/api/hp-data?page=1&pageSize=1').set(bearer(w.tokens.adminA));
    expect(paged.body.data.list).toHaveLength(1);
    expect(paged.body.data.hasNext).toBe(true);

    expect((await w.request().get(`/api/hp-data?siteId=${w.sites.a}`).set(bearer(w.tokens.userB))).status).toBe(404);
    expect((await w.request().get('/api/hp-data')).status).toBe(401);
  });

  it('marks which rows are of a store order: a manual send\'s postbacks are not', async () => {
    const orderId = await sentOrder();
    await hook(postback(orderId, 'printready'));
    const manual = await w.request().post('/api/online-stores/manually-send-hp').set(bearer(w.tokens.userA)).send({
      orderData: { sourceOrderId: 'manual-listed', customerName: 'Grace Hopper' },
      items: [{ sku: 'HP-MANUAL', quantity: 1, pdfUrl: 'https://files.example.com/manual.pdf', sourceItemId: 'item-1' }],
      shipTo: { name: 'Grace Hopper', address1: '1 Navy Way', address2: '', town: 'Arlington', isoCountry: 'GB', postcode: 'AR1 1NG' },
    });
    expect(manual.status).toBe(200);
    await hook(postback('manual-listed', 'printed'));
    const res = await w.request().get('/api/hp-data?pageSize=100').set(bearer(w.tokens.userA));
    const rowOf = (id: string) => res.body.data.list.find((r: { field1: string }) => r.field1 === id);
    expect(rowOf(orderId).hasStoreOrder).toBe(true);
    expect(rowOf('manual-listed').hasStoreOrder).toBe(false);
    // Its detail is the manual send: what was sent and the provider's answer.
    const detail = await w.request().get('/api/hp-data/order/manual-listed').set(bearer(w.tokens.userA));
    expect(detail.status).toBe(200);
    expect(detail.body.data.order).toBeNull();
    expect(detail.body.data.sent[0].data).toMatchObject({ manual: true, sentData: { orderData: { sourceOrderId: 'manual-listed' } }, results: { success: true } });
  });

  it('order detail: order, lines with product, preview and print PDF, events and sends; tenancy 404', async () => {
    const orderId = await sentOrder([{ id: '91', sku: 'DETAIL-SKU' }]);
    await hook(postback(orderId, 'printready'));
    const res = await w.request().get(`/api/hp-data/order/${orderId}`).set(bearer(w.tokens.userA));
    expect(res.status).toBe(200);
    const d = res.body.data;
    expect(d.order.field1).toBe(orderId);
    expect(d.lines).toEqual([
      expect.objectContaining({ lineId: '91', productName: 'Card DETAIL-SKU', productId: 'p-DETAIL-SKU', pdfUrl: expect.stringMatching(new RegExp(`^${w.appUrl}/files/\\d+/print-files/`)), madeBy: 'provider' }),
    ]);
    expect(d.lines[0]).toHaveProperty('previewUrl');
    expect(d.events.map((e: { status: string }) => e.status)).toEqual(['printready']);
    expect(d.sent).toHaveLength(1);
    expect(d.sent[0].data.sentData.orderData.sourceOrderId).toBe(orderId);

    expect((await w.request().get(`/api/hp-data/order/${orderId}`).set(bearer(w.tokens.userB))).status).toBe(404);
    expect((await w.request().get(`/api/hp-data/order/${orderId}?siteId=${w.sites.a}`).set(bearer(w.tokens.userB))).status).toBe(404);
    expect((await w.request().get('/api/hp-data/order/nope').set(bearer(w.tokens.userA))).status).toBe(404);
    expect((await w.request().get(`/api/hp-data/order/${orderId}`).set(bearer(w.tokens.adminB))).status).toBe(200);
  });
});

describe('/api/admin/hp-logs', () => {
  it('lists hp-log records in the simple-rest protocol, scoped to the site for a non-admin', async () => {
    const orderId = await sentOrder();
    await hook(postback(orderId, 'printready'));
    const res = await w.request().get(`/api/admin/hp-logs?filter=${encodeURIComponent(JSON.stringify({ orderId }))}&range=[0,9]&sort=["createdAt","DESC"]`).set(bearer(w.tokens.adminA));
    expect(res.status).toBe(200);
    expect(res.headers['content-range']).toBe('hp-logs 0-0/1');
    expect(res.body[0].type).toBe('hp-log');
    const one = await w.request().get(`/api/admin/hp-logs/${res.body[0].id}`).set(bearer(w.tokens.adminA));
    expect(one.body.field1).toBe(orderId);
    expect((await w.request().get(`/api/admin/hp-logs/${res.body[0].id}`).set(bearer(w.tokens.userB))).status).toBe(404);
    const sends = await w.request().get(`/api/admin/hp-logs?filter=${encodeURIComponent(JSON.stringify({ orderId, type: 'shopify-hp-log' }))}`).set(bearer(w.tokens.userA));
    expect(sends.body.map((r: { type: string }) => r.type)).toEqual(['shopify-hp-log']);
  });
});

describe('manually-send-hp', () => {
  const form = (sourceOrderId: string, over: Record<string, unknown> = {}) => ({
    orderData: { sourceOrderId, customerName: 'Grace Hopper' },
    items: [{ sku: 'HP-MANUAL', quantity: '3', pdfUrl: 'https://files.example.com/manual.pdf', sourceItemId: 'item-1' }],
    shipTo: { name: 'Grace Hopper', address1: '1 Navy Way', address2: '', town: 'Arlington', isoCountry: 'gb', postcode: 'AR1 1NG' },
    ...over,
  });

  it('sends with the user site settings, quantity made a number; answers the provider answer; logged', async () => {
    const res = await w.request().post('/api/online-stores/manually-send-hp').set(bearer(w.tokens.userA)).send(form('manual-1'));
    expect(res.status).toBe(200);
    expect(res.body.success).toBe(true);
    expect(res.body.data.success).toBe(true);
    expect(res.body.data.order.orderData.status).toBe('dataready');
    const simOrder = w.sim.orderBySource('manual-1')!;
    expect(simOrder.body).toMatchObject({
      destination: { name: 'presswork-test' },
      orderData: {
        sourceOrderId: 'manual-1',
        customerName: 'Grace Hopper',
        items: [{ sourceItemId: 'item-1', sku: 'HP-MANUAL', quantity: 3, shipmentIndex: 0, components: [{ code: 'Content', path: 'https://files.example.com/manual.pdf', fetch: true }] }],
        shipments: [{ shipTo: { name: 'Grace Hopper', isoCountry: 'gb', postcode: 'AR1 1NG' }, carrier: { alias: 'royalmail' } }],
      },
    });
    const log = await w.db('provider_sends').where({ store_order_id: 'manual-1' }).first();
    expect(log.status).toBe('sent');
  });

  it('shows the provider 400 as the error', async () => {
    const res = await w.request().post('/api/online-stores/manually-send-hp').set(bearer(w.tokens.userA)).send(form('manual-2', { items: [] }));
    expect(res.body.success).toBe(false);
    expect(res.body.error).toBe('Order validation failed');
    expect(res.body.data.error.validations).toEqual([{ path: 'orderData.items', message: 'at least one item is required' }]);
    expect((await w.db('provider_sends').where({ store_order_id: 'manual-2' }).first()).status).toBe('failed');
    // Same id twice: the provider's duplicate answer is shown as is.
    await w.request().post('/api/online-stores/manually-send-hp').set(bearer(w.tokens.userA)).send(form('manual-3'));
    const dup = await w.request().post('/api/online-stores/manually-send-hp').set(bearer(w.tokens.userA)).send(form('manual-3'));
    expect(dup.body.error).toBe('Source Order ID already exists');
  });

  it('siteId: an admin may use another site, a user may not; a site without settings is a clear 400', async () => {
    expect((await w.request().post('/api/online-stores/manually-send-hp').set(bearer(w.tokens.userB)).send(form('m-4', { siteId: w.sites.a }))).status).toBe(404);
    const admin = await w.request().post('/api/online-stores/manually-send-hp').set(bearer(w.tokens.adminB)).send(form('m-5', { siteId: w.sites.a }));
    expect(admin.body.success).toBe(true);
    const none = await w.request().post('/api/online-stores/manually-send-hp').set(bearer(w.tokens.userB)).send(form('m-6'));
    expect(none.status).toBe(400);
    expect(none.body.error).toMatch(/not set up/);
    expect((await w.request().post('/api/online-stores/manually-send-hp').send(form('m-7'))).status).toBe(401);
  });
});
