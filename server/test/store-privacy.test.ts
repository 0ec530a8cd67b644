// Webhooks of an app-connected store: verified with the app's client secret (and, for an hour after
// Rotate secret, the one it replaced), and Shopify's three privacy webhooks acted on — each signed
// and unsigned: a data request lists what Presswork holds; a redaction replaces the customer in the
// shop's stored orders, provider logs, kept webhook bodies and print jobs' personalisation (orders
// in production wait until they ship); shop/redact does it for the whole shop. Shopify's published
// sample bodies go through byte for byte.
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { fromJson } from '../src/db';
import { orderTablesRepo } from '../src/modules/orders/tablesRepo';
import { applyDeliveries } from '../src/modules/orders/upsert';
import { artworkRgb, pngOf, storeFile } from './imageFixtures';
import { bearer, createWorld } from './harness';
import { SHOP_A, deliver, makeDesign, order, postWebhook, setSiteEnv } from './ordersKit';

const CLIENT_SECRET = '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';
const NEW_SECRET = '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';
const sample = (name: string) => fs.readFileSync(path.join(import.meta.dirname, 'fixtures', 'shopify-privacy', name), 'utf8');

describe('webhooks of an app-connected store', async () => {
  const w = await createWorld({ JWT_EXPIRES_IN: '3650d' });
  // No webhook secret: a Dev Dashboard app signs with its client secret.
  await setSiteEnv(w, w.sites.a, { SHOPIFY_SHOP_DOMAIN: SHOP_A, SHOPIFY_AUTH: 'client_credentials', SHOPIFY_CLIENT_ID: 'cid', SHOPIFY_CLIENT_SECRET: CLIENT_SECRET });
  const put = (body: object) => w.request().put(`/api/admin/stores/${w.sites.a}`).set(bearer(w.tokens.adminA)).send(body);

  it('are verified with the client secret; another secret is refused', async () => {
    expect((await deliver(w, order(), { secret: CLIENT_SECRET })).status).toBe(200);
    const forged = await postWebhook(w, order(), { secret: 'shpss_not-the-one' });
    expect(forged.status).toBe(401);
    expect(forged.body.error).toBe('Invalid webhook signature');
  });

  it('after Rotate secret the previous one is accepted for an hour, then refused', async () => {
    const saved = await put({ clientSecret: NEW_SECRET });
    expect(saved.status, JSON.stringify(saved.body)).toBe(200);
    expect(saved.body).toMatchObject({ clientSecret: '********', previousClientSecretUntil: new Date(w.clock.now().getTime() + 3_600_000).toISOString() });
    expect(JSON.stringify(saved.body)).not.toContain(NEW_SECRET);
    expect(JSON.stringify(saved.body)).not.toContain(CLIENT_SECRET);
    expect((await deliver(w, order(), { secret: NEW_SECRET })).status).toBe(200);
    expect((await deliver(w, order(), { secret: CLIENT_SECRET })).status).toBe(200);
    w.clock.advance(59 * 60_000);
    expect((await deliver(w, order(), { secret: CLIENT_SECRET })).status).toBe(200);
    w.clock.advance(2 * 60_000);
    w.services.orders.invalidateSites();
    expect((await deliver(w, order(), { secret: CLIENT_SECRET })).status).toBe(401);
    expect((await deliver(w, order(), { secret: NEW_SECRET })).status).toBe(200);
    // Sent back masked: unchanged, no new rotation.
    const again = await put({ clientSecret: '********' });
    expect(again.body.previousClientSecretUntil).toBe(saved.body.previousClientSecretUntil);
    const sites = await w.request().get(`/api/admin/sites/${w.sites.a}`).set(bearer(w.tokens.adminA));
    expect(JSON.stringify(sites.body)).not.toContain(NEW_SECRET);
  });
});

describe('Shopify\'s privacy webhooks', async () => {
  const w = await createWorld({ JWT_EXPIRES_IN: '3650d' });
  await setSiteEnv(w, w.sites.a, { SHOPIFY_SHOP_DOMAIN: SHOP_A, SHOPIFY_AUTH: 'client_credentials', SHOPIFY_CLIENT_ID: 'cid', SHOPIFY_CLIENT_SECRET: CLIENT_SECRET });
  const signed = (body: string | object, topic: string) => deliver(w, body, { topic, secret: CLIENT_SECRET });
  const unsigned = (body: string | object, topic: string) => postWebhook(w, body, { topic, secret: 'shpss_forged' });
  const requests = async () => (await w.request().get('/api/online-stores/privacy-requests?site=site-a').set(bearer(w.tokens.adminA))).body.data as Array<Record<string, unknown>>;
  const stored = async (orderId: string) => {
    const r = await w.db('store_orders').where({ site_id: w.sites.a, store_order_id: orderId }).first();
    return { ...r, store_data: fromJson<Record<string, unknown>>(r.store_data, {}) };
  };
  const historyOf = async (orderId: string) => (await w.db('history').where({ subject_kind: 'order', subject_id: orderId }).orderBy('id').select('action', 'reason')) as Array<{ action: string; reason: string }>;

  // Ada's two orders (one shipped, one still in production) and somebody else's.
  const png = await pngOf(artworkRgb(40, 56, 3), 40, 56);
  const pages = await Promise.all([1, 2, 3, 4].map((i) => storeFile(w.services.store, `priv${i}.png`, png)));
  await makeDesign(w, w.tokens.adminA, { name: 'Card', sku: 'PRIV-CARD', productType: 'Card', image: pages[0], data: { artworkUrls: pages } });
  const ada = { first: 'Ada', last: 'Lovelace', email: 'ada@example.com' };
  const shipped = order({ name: '#3001', skus: ['PRIV-CARD'], ...ada });
  shipped.line_items[0].properties = [{ name: 'Message', value: 'Love from Ada Lovelace to Grace' }];
  const inProduction = order({ name: '#3002', skus: ['PRIV-CARD'], ...ada });
  const grace = order({ name: '#3003', skus: ['PRIV-CARD'], first: 'Grace', last: 'Hopper', email: 'grace@example.com' });
  for (const o of [shipped, inProduction, grace]) expect((await signed(o, 'orders/create')).status).toBe(200);
  expect((await w.request().post('/api/online-stores/shopify-webhook/order-to-arwork').set(bearer(w.tokens.adminA)).send({ id: shipped.id })).status).toBe(200);
  await w.db('store_orders').where({ store_order_id: shipped.id }).update({ status: 'shipped' });
  await orderTablesRepo(w.db).insertLog('shopify-hp-log', {
    orderId: shipped.id,
    field2: '',
    name: 'send',
    status: 'sent',
    data: { request: { shipTo: { name: 'Ada Lovelace', address1: '12 High Street', town: 'London', postcode: 'SW1A 1AA', isoCountry: 'GB', email: 'ada@example.com' }, items: [{ sku: 'PRIV-CARD', quantity: 1 }] } },
    siteId: w.sites.a,
    userId: null,
    createdAt: '2026-11-21T09:00:00.000Z',
    updatedAt: '2026-11-21T09:00:00.000Z',
  });
  const adaCustomer = { id: '6000000000000000001', email: 'ada@example.com', phone: '+44 20 7946 0000' };

  it('an unsigned privacy webhook of each kind is refused and does nothing', async () => {
    for (const [topic, body] of [
      ['customers/data_request', { shop_id: 1, shop_domain: SHOP_A, customer: adaCustomer, orders_requested: [shipped.id], data_request: { id: 1 } }],
      ['customers/redact', { shop_id: 1, shop_domain: SHOP_A, customer: adaCustomer, orders_to_redact: [shipped.id] }],
      ['shop/redact', { shop_id: 1, shop_domain: SHOP_A }],
    ] as const) {
      const res = await unsigned(body, topic);
      expect(res.status, topic).toBe(401);
    }
    await w.services.orders.idle();
    expect(await requests()).toEqual([]);
    expect(((await stored(shipped.id)).store_data.customer as { first_name: string }).first_name).toBe('Ada');
  });

  it('Shopify\'s published samples, byte for byte, are received, recorded and acted on', async () => {
    for (const [file, topic] of [
      ['customers-data-request.json', 'customers/data_request'],
      ['customers-redact.json', 'customers/redact'],
    ] as const) {
      const res = await signed(sample(file), topic);
      expect(res.status, file).toBe(200);
      expect(res.body.data.received).toBe(true);
    }
    const list = await requests();
    expect(list.map((r) => [r.topic, r.status, r.customerId])).toEqual([
      ['customers/redact', 'redacted', '191167'],
      ['customers/data_request', 'listed', '191167'],
    ]);
    // None of these orders is ours: nothing is held on John.
    expect(list[1].held).toEqual([]);
    await w.db('store_privacy_requests').delete();
  });

  it('customers/data_request lists what is held on the customer, order by order, for the shop\'s admin and in each order\'s history', async () => {
    const res = await signed({ shop_id: 1, shop_domain: SHOP_A, customer: adaCustomer, orders_requested: [shipped.id], data_request: { id: 42 } }, 'customers/data_request');
    expect(res.status).toBe(200);
    const [req] = await requests();
    expect(req).toMatchObject({ topic: 'customers/data_request', status: 'listed', customerId: adaCustomer.id, customerEmail: 'ada@example.com' });
    const held = req.held as Array<{ orderName: string; kinds: string[]; values: Record<string, string>; printJobs: number }>;
    // Named by Shopify, and found by the e-mail: both of Ada's orders, not Grace's.
    expect(held.map((h) => h.orderName).sort()).toEqual(['#3001', '#3002']);
    const first = held.find((h) => h.orderName === '#3001')!;
    expect(first.kinds).toEqual(['name', 'e-mail', 'shipping address', 'personalisation on print jobs']);
    expect(first.values).toMatchObject({ name: 'Ada Lovelace', 'e-mail': 'ada@example.com', 'shipping address': 'Ada Lovelace, 12 High Street, London, SW1A 1AA, United Kingdom' });
    expect(first.printJobs).toBe(1);
    expect((await historyOf(shipped.id)).map((h) => h.action)).toContain('privacy-listed');
    expect((await historyOf(grace.id)).map((h) => h.action)).not.toContain('privacy-listed');
    // Admins only.
    expect((await w.request().get('/api/online-stores/privacy-requests?site=site-a').set(bearer(w.tokens.userA))).status).toBe(403);
  });

  it('customers/redact: the shipped order is redacted at once, keeping what bookkeeping needs; the one in production waits', async () => {
    const res = await signed({ shop_id: 1, shop_domain: SHOP_A, customer: adaCustomer, orders_to_redact: [shipped.id, inProduction.id] }, 'customers/redact');
    expect(res.status).toBe(200);
    const done = await stored(shipped.id);
    const data = done.store_data as Record<string, Record<string, unknown> & { line_items?: unknown }>;
    expect(data.customer).toMatchObject({ id: '6000000000000000001', first_name: '[redacted]', last_name: '[redacted]', email: '[redacted]' });
    expect(data.email).toBe('[redacted]');
    expect(data.shipping_address).toMatchObject({ name: '[redacted]', first_name: '[redacted]', address1: '[redacted]', city: '[redacted]', zip: '[redacted]', country: 'United Kingdom', country_code: 'GB' });
    // Bookkeeping: the order's name, number, dates, lines (SKUs, quantities) are kept.
    expect(data).toMatchObject({ id: shipped.id, name: '#3001', created_at: shipped.created_at, financial_status: 'paid' });
    expect((data.line_items as unknown as Array<{ sku: string; quantity: number; properties: unknown }>)[0]).toMatchObject({ sku: 'PRIV-CARD', quantity: 1, properties: [{ name: 'Message', value: 'Love from [redacted] to Grace' }] });
    expect(done).toMatchObject({ order_name: '#3001', status: 'shipped', email_lower: '[redacted]' });
    expect(JSON.stringify(done)).not.toMatch(/Lovelace|ada@example\.com|High Street/);
    // The print job's personalisation, the provider send, the webhook bodies kept.
    const job = await w.db('print_jobs').where({ shopify_order_id: shipped.id }).first();
    expect(fromJson<{ properties: unknown }>(job.data, { properties: null }).properties).toEqual([{ name: 'Message', value: 'Love from [redacted] to Grace' }]);
    expect(job.quantity).toBe(1);
    const send = await w.db('provider_sends').where({ store_order_id: shipped.id }).first();
    expect(fromJson(send.data, {})).toEqual({ request: { shipTo: { name: '[redacted]', address1: '[redacted]', town: '[redacted]', postcode: '[redacted]', isoCountry: 'GB', email: '[redacted]' }, items: [{ sku: 'PRIV-CARD', quantity: 1 }] } });
    const bodies = ((await w.db('webhook_deliveries').where({ site_id: w.sites.a }).select('topic', 'payload')) as Array<{ topic: string; payload: unknown }>).map((b) => ({ topic: b.topic, payload: fromJson<{ id?: unknown }>(b.payload, {}) }));
    const ofShipped = bodies.filter((b) => String(b.payload.id) === shipped.id && b.topic === 'orders/create');
    expect(ofShipped).toHaveLength(1);
    expect(JSON.stringify(ofShipped[0].payload)).not.toMatch(/Lovelace|ada@example\.com/);
    // The data request's list no longer holds what was redacted (the waiting order's values go when it does).
    const listed = (await requests())[1].held as Array<{ orderName: string; values: Record<string, string> }>;
    expect(listed.find((h) => h.orderName === '#3001')!.values).toEqual({ name: '[redacted]', 'e-mail': '[redacted]', 'shipping address': '[redacted]' });
    expect(listed.find((h) => h.orderName === '#3002')!.values.name).toBe('Ada Lovelace');

    // Still in production: untouched for now, and said so.
    expect(JSON.stringify((await stored(inProduction.id)).store_data)).toContain('Lovelace');
    const [req] = await requests();
    expect(req).toMatchObject({ topic: 'customers/redact', status: 'waiting', orders: ['#3001', '#3002'], waitingOrders: ['#3002'], doneAt: null });
    expect((await historyOf(shipped.id)).at(-1)).toMatchObject({ action: 'redacted' });
    expect((await historyOf(inProduction.id)).at(-1)).toMatchObject({ action: 'redaction-waiting' });
    // Grace's order is not touched.
    expect(JSON.stringify((await stored(grace.id)).store_data)).toContain('Hopper');

    // A sweep before it ships changes nothing and records nothing more.
    expect(await w.services.orders.redactWaitingPrivacy()).toEqual({ redacted: 0, stillWaiting: 1 });
    expect((await historyOf(inProduction.id)).filter((h) => h.action === 'redaction-waiting')).toHaveLength(1);
  });

  it('an order that waited is redacted once it ships', async () => {
    await w.db('store_orders').where({ store_order_id: inProduction.id }).update({ status: 'shipped' });
    expect(await w.services.orders.redactWaitingPrivacy()).toEqual({ redacted: 1, stillWaiting: 0 });
    expect(JSON.stringify((await stored(inProduction.id)).store_data)).not.toMatch(/Lovelace|ada@example\.com/);
    const [req] = await requests();
    expect(req).toMatchObject({ status: 'redacted', waitingOrders: [], customerEmail: null });
    expect(req.doneAt).toBeTruthy();
    expect((await historyOf(inProduction.id)).at(-1)).toMatchObject({ action: 'redacted' });
    expect(JSON.stringify((await requests())[1].held)).not.toMatch(/Lovelace|12 High Street|ada@example/);
    // The customer's own privacy bodies are redacted too once nothing waits.
    const privacyBodies = ((await w.db('webhook_deliveries').where({ site_id: w.sites.a, topic: 'customers/redact' }).select('payload')) as Array<{ payload: unknown }>).map((b) => fromJson(b.payload, {}));
    expect(privacyBodies.length).toBeGreaterThan(0);
    expect(JSON.stringify(privacyBodies)).not.toContain('ada@example.com');
  });

  it('shop/redact (48 hours after uninstall): every order of the shop', async () => {
    const res = await signed(sample('shop-redact.json'), 'shop/redact');
    expect(res.status).toBe(200);
    expect(JSON.stringify((await stored(grace.id)).store_data)).toContain('Hopper');
    // Grace's order is in production: it waits; once shipped it goes.
    const [req] = await requests();
    expect(req).toMatchObject({ topic: 'shop/redact', status: 'waiting', waitingOrders: ['#3003'] });
    await w.db('store_orders').where({ store_order_id: grace.id }).update({ status: 'cancelled' });
    await w.services.orders.redactWaitingPrivacy();
    expect(JSON.stringify((await stored(grace.id)).store_data)).not.toMatch(/Hopper|grace@example\.com/);
    expect((await requests())[0]).toMatchObject({ topic: 'shop/redact', status: 'redacted' });
  });

  it('processed in a batch with order deliveries (the inbox\'s recovery pass): both are applied', async () => {
    const o = order({ name: '#3004', first: 'Mary', last: 'Somerville', email: 'mary@example.com' });
    const base = { source: 'shopify', deliveryId: null, siteId: w.sites.a, status: 'received', error: null, attempts: 0, receivedAt: w.clock.now().toISOString(), processedAt: null };
    await w.db.transaction((trx) =>
      applyDeliveries({ clock: w.clock, production: w.services.production, routePort: () => undefined }, trx, [
        { ...base, id: 910001, eventId: 'e-910001', topic: 'orders/create', payload: JSON.parse(JSON.stringify(o)) },
        { ...base, id: 910002, eventId: 'e-910002', topic: 'customers/data_request', payload: { shop_id: 1, shop_domain: SHOP_A, customer: { id: '77', email: 'grace@example.com' }, orders_requested: [], data_request: { id: 7 } } },
      ]),
    );
    expect((await stored(o.id)).order_name).toBe('#3004');
    expect((await requests())[0]).toMatchObject({ topic: 'customers/data_request', customerId: '77', status: 'listed' });
  });

  it('a privacy body that names nobody is refused (400), kept nowhere', async () => {
    const res = await postWebhook(w, { shop_id: 1, shop_domain: SHOP_A, orders_to_redact: [] }, { topic: 'customers/redact', secret: CLIENT_SECRET });
    expect(res.status).toBe(400);
    expect(res.body.error).toBe('The customers/redact request names no customer');
  });
});
