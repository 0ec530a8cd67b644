// POST /api/online-stores/shopify-webhook: signature on the raw bytes, site by shop domain or slug,
// dedupe by event id, answer first and process after, newest version wins, recovery of deliveries.
import crypto from 'node:crypto';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { fromJson } from '../src/db';
import { shopifyJson, signShopifyBody } from '../simulators/shopify';
import { bearer, createWorld } from './harness';
import { SECRET_A, SECRET_B, SHOP_A, SHOP_B, connectStores, deliver, deliveries, makeDesign, order, orderRows, postWebhook, setSiteEnv } from './ordersKit';
import { orderTablesRepo } from '../src/modules/orders/tablesRepo';

describe('shopify order webhook', async () => {
  const w = await createWorld();
  await connectStores(w);
  afterEach(async () => {
    await w.services.orders.idle();
    vi.restoreAllMocks();
  });

  describe('signature and headers', () => {
    it('a signed order is answered 200, then stored as an order-log record', async () => {
      const o = order({ name: '#1001', first: 'Grace', last: 'Hopper', email: 'grace@example.com' });
      const res = await postWebhook(w, o);
      expect(res.status).toBe(200);
      expect(res.body).toEqual({ success: true, data: { received: true, deliveryId: expect.any(Number) } });
      await w.services.orders.idle();
      const [row] = await orderRows(w, o.id);
      expect(row).toMatchObject({ field1: o.id, field2: '#1001', name: 'order-log', status: 'received', site_id: w.sites.a, search_text: `#1001 1001 grace hopper grace@example.com ${o.id}` });
      expect(row.data).toMatchObject({
        id: o.id,
        name: '#1001',
        status: 'received',
        created_at: o.created_at,
        customer: { first_name: 'Grace', last_name: 'Hopper' },
        line_items: [{ id: o.line_items[0].id, sku: 'SKU-CARD', quantity: 1, properties: [{ name: 'Message', value: 'Happy birthday' }] }],
        shipping_address: { city: 'London', country_code: 'GB' },
        shipping_lines: [{ title: 'Royal Mail 2nd Class', code: 'RM2' }],
        preGeneratedHPItems: [],
        hpOrderId: null,
        tracking: null,
        lastTopic: 'orders/create',
      });
      const delivery = await w.db('webhook_deliveries').where({ id: res.body.data.deliveryId }).first();
      expect(delivery).toMatchObject({ source: 'shopify', status: 'processed', site_id: w.sites.a, topic: 'orders/create', attempts: 0 });
      expect(fromJson<{ id: string }>(delivery.payload, { id: '' }).id).toBe(o.id);
    });

    it('header names are case-insensitive', async () => {
      const o = order();
      const raw = shopifyJson(o);
      const res = await w
        .request()
        .post('/api/online-stores/shopify-webhook')
        .set('x-shopify-topic', 'orders/create')
        .set('X-SHOPIFY-HMAC-SHA256', signShopifyBody(SECRET_A, raw))
        .set('x-Shopify-shop-Domain', SHOP_A.toUpperCase())
        .set('x-shopify-webhook-id', crypto.randomUUID())
        .set('x-SHOPIFY-api-VERSION', '2026-07')
        .set('X-Shopify-Event-ID', crypto.randomUUID())
        .set('Content-Type', 'application/json')
        .send(raw);
      expect(res.status).toBe(200);
    });

    it('a bad signature is refused and nothing is stored', async () => {
      const o = order();
      const before = (await deliveries(w)).length;
      const res = await postWebhook(w, o, { secret: 'not-the-secret' });
      expect(res.status).toBe(401);
      expect(res.body).toEqual({ success: false, error: 'Invalid webhook signature' });
      expect((await deliveries(w)).length).toBe(before);
      expect(await orderRows(w, o.id)).toEqual([]);
      expect((await postWebhook(w, o, { signature: 'AAAA' })).body.error).toBe('Invalid webhook signature');
    });

    it('the previous secret is accepted during a rotation', async () => {
      const o = order();
      expect((await postWebhook(w, o, { secret: 'rotated-out' })).status).toBe(401);
      await setSiteEnv(w, w.sites.a, { SHOPIFY_WEBHOOK_SECRET_PREVIOUS: 'rotated-out' });
      try {
        expect((await postWebhook(w, o, { secret: 'rotated-out' })).status).toBe(200);
        expect((await postWebhook(w, order(), { secret: SECRET_A })).status).toBe(200);
      } finally {
        await setSiteEnv(w, w.sites.a, { SHOPIFY_WEBHOOK_SECRET_PREVIOUS: '' });
      }
    });

    it.each([
      ['X-Shopify-Hmac-Sha256', 'Missing X-Shopify-Hmac-Sha256 header'],
      ['X-Shopify-Topic', 'Missing X-Shopify-Topic header'],
      ['X-Shopify-API-Version', 'Missing X-Shopify-API-Version header'],
      ['X-Shopify-Webhook-Id', 'Missing X-Shopify-Webhook-Id header'],
      ['X-Shopify-Shop-Domain', 'Missing X-Shopify-Shop-Domain header'],
    ])('without %s → 401 saying so', async (header, reason) => {
      const res = await postWebhook(w, order(), { omit: [header] });
      expect(res.status).toBe(401);
      expect(res.body).toEqual({ success: false, error: reason });
    });

    it('the signature is over the raw bytes: the same JSON re-serialised with other spacing fails', async () => {
      const o = order();
      const compact = shopifyJson(o);
      const spaced = JSON.stringify(JSON.parse(compact), null, 2);
      expect(JSON.parse(spaced)).toEqual(JSON.parse(compact));
      const res = await postWebhook(w, spaced, { signature: signShopifyBody(SECRET_A, compact) });
      expect(res.status).toBe(401);
      expect(res.body.error).toBe('Invalid webhook signature');
      // Signed over its own bytes, the spaced version is fine.
      expect((await postWebhook(w, spaced)).status).toBe(200);
    });

    it('a signed body that is not JSON, or an order without an id, is a 400', async () => {
      expect((await postWebhook(w, '{"id": oops')).status).toBe(400);
      const res = await postWebhook(w, '{"name":"#1"}');
      expect(res.status).toBe(400);
      expect(res.body.error).toBe('The payload has no order id');
    });
  });

  describe('which site', () => {
    it('by X-Shopify-Shop-Domain', async () => {
      const o = order();
      expect((await deliver(w, o, { shop: SHOP_B, secret: SECRET_B })).status).toBe(200);
      expect((await orderRows(w, o.id)).map((r) => r.site_id)).toEqual([w.sites.b]);
      // Site B's domain with site A's secret: refused.
      expect((await postWebhook(w, order(), { shop: SHOP_B, secret: SECRET_A })).status).toBe(401);
    });

    it('by ?site=<slug>, with or without the domain header', async () => {
      const o = order();
      expect((await deliver(w, o, { shop: null, secret: SECRET_B, query: '?site=site-b' })).status).toBe(200);
      expect((await orderRows(w, o.id)).map((r) => r.site_id)).toEqual([w.sites.b]);
      expect((await postWebhook(w, order(), { shop: SHOP_B, secret: SECRET_B, query: '?site=site-b' })).status).toBe(200);
    });

    it('unknown shop, unknown slug, a domain that is not the slug site, a site without a secret → 401', async () => {
      const unknown = await postWebhook(w, order(), { shop: 'nobody.myshopify.com' });
      expect(unknown.status).toBe(401);
      expect(unknown.body.error).toBe('Unknown shop domain');
      expect((await postWebhook(w, order(), { query: '?site=nope' })).body).toEqual({ success: false, error: 'Unknown site' });
      expect((await postWebhook(w, order(), { shop: SHOP_A, query: '?site=site-b', secret: SECRET_B })).body.error).toBe('The shop domain does not match the site');
      await setSiteEnv(w, w.sites.b, { SHOPIFY_WEBHOOK_SECRET: '' });
      try {
        const res = await postWebhook(w, order(), { shop: SHOP_B, secret: SECRET_B });
        expect(res.status).toBe(401);
        expect(res.body.error).toBe('No webhook secret is set for this store: set the app’s client secret (or the webhook secret)');
      } finally {
        await setSiteEnv(w, w.sites.b, { SHOPIFY_WEBHOOK_SECRET: SECRET_B });
      }
    });

    it('a store connected a moment ago is found (the domain cache re-reads on a miss)', async () => {
      const [r] = await w.db('sites').insert({ name: 'Site C', slug: 'site-c', logo: null, theme: '{}', settings: JSON.stringify({ env: [] }), created_at: 'x', updated_at: 'x' }).returning('id');
      const siteC = typeof r === 'object' ? r.id : r;
      expect((await postWebhook(w, order(), { shop: 'site-c.myshopify.com', secret: 'c-secret' })).status).toBe(401);
      // Written around the service (no invalidation): the miss re-reads.
      const settings = JSON.stringify({ env: [{ key: 'SHOPIFY_SHOP_DOMAIN', value: 'site-c.myshopify.com' }, { key: 'SHOPIFY_WEBHOOK_SECRET', value: 'c-secret' }] });
      await w.db('sites').where({ id: siteC }).update({ settings });
      const o = order();
      expect((await deliver(w, o, { shop: 'site-c.myshopify.com', secret: 'c-secret' })).status).toBe(200);
      expect((await orderRows(w, o.id)).map((x) => x.site_id)).toEqual([siteC]);
    });
  });

  describe('topics and duplicates', () => {
    it('other topics are answered 200, recorded as ignored, and change nothing', async () => {
      const o = order();
      const eventId = crypto.randomUUID();
      const res = await deliver(w, o, { topic: 'products/update', eventId });
      expect(res.status).toBe(200);
      expect(res.body.data).toEqual({ ignored: true, topic: 'products/update' });
      expect(await deliveries(w, { event_id: eventId })).toMatchObject([{ status: 'ignored', topic: 'products/update' }]);
      expect(await orderRows(w, o.id)).toEqual([]);
    });

    it('a duplicate event id is answered 200 and stored once', async () => {
      const o = order();
      const eventId = crypto.randomUUID();
      expect((await deliver(w, o, { eventId })).body.data.received).toBe(true);
      const again = await deliver(w, o, { eventId, webhookId: crypto.randomUUID() });
      expect(again.status).toBe(200);
      expect(again.body).toEqual({ success: true, data: { duplicate: true } });
      expect(await deliveries(w, { event_id: eventId })).toHaveLength(1);
      expect(await orderRows(w, o.id)).toHaveLength(1);
    });

    it('concurrent duplicates: one delivery, one order', async () => {
      const o = order();
      const eventId = crypto.randomUUID();
      const answers = await Promise.all(Array.from({ length: 8 }, () => postWebhook(w, o, { eventId })));
      await w.services.orders.idle();
      expect(answers.map((a) => a.status)).toEqual(Array(8).fill(200));
      expect(answers.filter((a) => a.body.data.received)).toHaveLength(1);
      expect(answers.filter((a) => a.body.data.duplicate)).toHaveLength(7);
      expect(await deliveries(w, { event_id: eventId })).toHaveLength(1);
      expect(await orderRows(w, o.id)).toHaveLength(1);
    });

    it('different events of one order at once still make one record', async () => {
      const o = order();
      const topics = ['orders/create', 'orders/paid', 'orders/updated', 'orders/fulfilled'];
      await Promise.all(topics.map((topic) => postWebhook(w, o, { topic })));
      await w.services.orders.idle();
      expect(await orderRows(w, o.id)).toHaveLength(1);
    });
  });

  describe('order of events', () => {
    it('orders/updated before orders/create: the newer version stays', async () => {
      const base = order({ createdAt: '2026-11-20T10:00:00Z' });
      const later = { ...base, updated_at: '2026-11-20T10:30:00Z', email: 'later@example.com' };
      await deliver(w, later, { topic: 'orders/updated' });
      await deliver(w, base, { topic: 'orders/create' });
      const [row] = await orderRows(w, base.id);
      expect(row.data).toMatchObject({ email: 'later@example.com', updated_at: '2026-11-20T10:30:00Z', lastTopic: 'orders/updated' });
      expect(row.created_at).toBe('2026-11-20T10:00:00.000Z');
      expect((await deliveries(w, { site_id: w.sites.a })).every((d: { status: string }) => d.status !== 'failed')).toBe(true);
    });

    it('a late older update never overwrites newer data', async () => {
      const o = order({ createdAt: '2026-11-20T10:00:00Z' });
      await deliver(w, o);
      await deliver(w, { ...o, updated_at: '2026-11-20T12:00:00Z', email: 'newest@example.com' }, { topic: 'orders/updated' });
      await deliver(w, { ...o, updated_at: '2026-11-20T11:00:00Z', email: 'older@example.com' }, { topic: 'orders/updated' });
      const [row] = await orderRows(w, o.id);
      expect(row.data.email).toBe('newest@example.com');
      expect(row.search_text).toContain('newest@example.com');
    });

    it('a store update keeps what the provider side wrote (status, hpOrderId, tracking)', async () => {
      const o = order();
      await deliver(w, o);
      const [row] = await orderRows(w, o.id);
      await orderTablesRepo(w.db).updateOrder(row.id, { status: 'shipped', data: { ...row.data, status: 'shipped', hpOrderId: 'HP-9', tracking: { number: 'TRK1' } }, updatedAt: row.created_at });
      await deliver(w, { ...o, updated_at: '2026-11-21T10:00:00Z', email: 'moved@example.com' }, { topic: 'orders/updated' });
      const [after] = await orderRows(w, o.id);
      expect(after.status).toBe('shipped');
      expect(after.data).toMatchObject({ status: 'shipped', hpOrderId: 'HP-9', tracking: { number: 'TRK1' }, email: 'moved@example.com' });
    });
  });

  it('int64 ids stay exact: order, line and product ids beyond 2^53', async () => {
    const id = '9223372036854775807';
    const raw = `{"id":${id},"name":"#64","order_number":64,"created_at":"2026-11-20T10:00:00Z","updated_at":"2026-11-20T10:00:00Z","line_items":[{"id":9007199254740993,"product_id":18446744073709551,"sku":"SKU-CARD","quantity":1}],"customer":null,"shipping_address":null}`;
    expect(String(JSON.parse(raw).id)).not.toBe(id);
    expect((await deliver(w, raw)).status).toBe(200);
    const [row] = await orderRows(w, id);
    expect(row.field1).toBe(id);
    expect(row.data.id).toBe(id);
    expect(row.data.line_items[0]).toMatchObject({ id: '9007199254740993', product_id: '18446744073709551' });
    expect(row.data).toMatchObject({ customer: null, shipping_address: null });
  });

  it('lines that wait for nothing cost no read of the waits; a change window still starts its wait', async () => {
    const sql: string[] = [];
    const onQuery = (q: { sql: string }) => sql.push(q.sql);
    w.db.on('query', onQuery);
    try {
      await deliver(w, order());
    } finally {
      w.db.off('query', onQuery);
    }
    // A read of line_waits per order was most of a burst's statements on PostgreSQL.
    expect(sql.some((s) => s.includes('store_orders'))).toBe(true);
    expect(sql.filter((s) => s.includes('line_waits'))).toEqual([]);
    await setSiteEnv(w, w.sites.a, { HOLD_MINUTES: '30' });
    try {
      const o = order();
      await deliver(w, o);
      expect(await w.db('line_waits').where({ order_id: o.id }).select('line_id', 'state')).toEqual([{ line_id: o.line_items[0].id, state: 'hold' }]);
    } finally {
      await setSiteEnv(w, w.sites.a, { HOLD_MINUTES: '' });
    }
  });

  describe('orders without line items', () => {
    it('are stored as no-lines and left out of the orders list (unless asked for)', async () => {
      const o = order({ skus: [], name: '#7770' });
      await deliver(w, o);
      const [row] = await orderRows(w, o.id);
      expect(row.status).toBe('no-lines');
      const list = await w.request().get('/api/general-data/shopify-order-log?q=%237770').set(bearer(w.tokens.userA));
      expect(list.body.data.data).toEqual([]);
      const asked = await w.request().get('/api/general-data/shopify-order-log?q=%237770&status=no-lines').set(bearer(w.tokens.userA));
      expect(asked.body.data.data.map((r: { field1: string }) => r.field1)).toEqual([o.id]);
      // Lines added later: it shows up.
      await deliver(w, { ...o, updated_at: '2026-11-22T00:00:00Z', line_items: order().line_items }, { topic: 'orders/updated' });
      expect((await orderRows(w, o.id))[0].status).toBe('received');
    });
  });

  describe('answer first, process after; recovery', () => {
    it('is answered before processing finishes', async () => {
      await makeDesign(w, w.tokens.adminA, { name: 'Auto card', sku: 'AUTO-1', hpSKU: 'HP-AUTO' });
      await setSiteEnv(w, w.sites.a, { HP_AUTO_SEND: '1' });
      let open!: () => void;
      const gate = new Promise<void>((r) => (open = r));
      const calls: unknown[] = [];
      vi.spyOn(w.services.fulfilment, 'enqueueOrderSend').mockImplementation(async (_trx, input) => {
        calls.push(input);
        await gate;
        return [];
      });
      try {
        const o = order({ skus: ['AUTO-1'] });
        const res = await postWebhook(w, o);
        // The answer came back while the processing is still held at the gate.
        expect(res.status).toBe(200);
        expect(res.body.data.received).toBe(true);
        open();
        await w.services.orders.idle();
        expect(calls).toEqual([{ siteId: w.sites.a, orderId: o.id }]);
        expect((await w.db('webhook_deliveries').where({ id: res.body.data.deliveryId }).first()).status).toBe('processed');
      } finally {
        open();
        await setSiteEnv(w, w.sites.a, { HP_AUTO_SEND: '' });
      }
    });

    it('a processing failure still answers 200; the delivery is failed, and the recovery pass finishes it', async () => {
      await setSiteEnv(w, w.sites.a, { HP_AUTO_SEND: '1' });
      let failures = 1;
      const calls: unknown[] = [];
      vi.spyOn(w.services.fulfilment, 'enqueueOrderSend').mockImplementation(async (_trx, input) => {
        if (failures-- > 0) throw new Error('outbox unavailable');
        calls.push(input);
        return [];
      });
      try {
        const o = order({ skus: ['AUTO-1'] });
        const res = await deliver(w, o);
        expect(res.status).toBe(200);
        const failed = await w.db('webhook_deliveries').where({ id: res.body.data.deliveryId }).first();
        expect(failed).toMatchObject({ status: 'failed', attempts: 1, error: 'outbox unavailable' });
        // One transaction: the order upsert was rolled back with the failed send.
        expect(await orderRows(w, o.id)).toEqual([]);
        const tally = await w.services.orders.recoverDeliveries();
        expect(tally.processed).toBeGreaterThanOrEqual(1);
        expect(await orderRows(w, o.id)).toHaveLength(1);
        expect(calls).toEqual([{ siteId: w.sites.a, orderId: o.id }]);
        expect((await w.db('webhook_deliveries').where({ id: res.body.data.deliveryId }).first()).status).toBe('processed');
      } finally {
        await setSiteEnv(w, w.sites.a, { HP_AUTO_SEND: '' });
      }
    });

    it('auto-send (HP_AUTO_SEND: every line to the provider): the whole order when every line can go, else each line that can, the others held', async () => {
      await makeDesign(w, w.tokens.adminA, { name: 'No HP', sku: 'AUTO-NOHP' });
      const calls: Array<{ orderId: string; lineIds?: string[] }> = [];
      vi.spyOn(w.services.fulfilment, 'enqueueOrderSend').mockImplementation(async (_trx, input) => (calls.push(input), []));
      const off = order({ skus: ['AUTO-1'] });
      await deliver(w, off);
      await setSiteEnv(w, w.sites.a, { HP_AUTO_SEND: '1' });
      try {
        const partial = order({ skus: ['AUTO-1', 'AUTO-NOHP'] });
        const unknown = order({ skus: ['AUTO-1', 'NOT-A-SKU'] });
        const good = order({ skus: ['AUTO-1', 'AUTO-1'] });
        for (const o of [partial, unknown, good]) await deliver(w, o);
        expect(calls.map((c) => [c.orderId, c.lineIds?.length ?? 'whole'])).toEqual([
          [partial.id, 1],
          [unknown.id, 1],
          [good.id, 'whole'],
        ]);
        const held = await w.db('order_line_routes').whereIn('order_id', [partial.id, unknown.id]).where({ action: 'hold' });
        expect(held.map((r) => r.reason)).toEqual([expect.stringMatching(/has no provider SKU/), expect.stringMatching(/./)]);
        expect(await w.db('order_line_routes').where({ order_id: off.id })).toEqual([]);
      } finally {
        await setSiteEnv(w, w.sites.a, { HP_AUTO_SEND: '' });
      }
    });

    it('with the real provider side, auto-send writes the outbox row in the same transaction', async () => {
      await setSiteEnv(w, w.sites.a, { HP_AUTO_SEND: '1' });
      try {
        const o = order({ skus: ['AUTO-1'] });
        await deliver(w, o);
        await deliver(w, { ...o, updated_at: '2026-11-23T00:00:00Z' }, { topic: 'orders/paid' });
        const rows = await w.db('outbox').where('dedupe_key', 'like', `%${o.id}%`);
        expect(rows).toHaveLength(1);
        expect(rows[0].site_id).toBe(w.sites.a);
      } finally {
        await setSiteEnv(w, w.sites.a, { HP_AUTO_SEND: '' });
      }
    });

    it('after a crash: a delivery still "received" is processed by the recovery pass', async () => {
      const o = order();
      const [r] = await w
        .db('webhook_deliveries')
        .insert({ source: 'shopify', event_id: crypto.randomUUID(), delivery_id: 'w-1', site_id: w.sites.a, topic: 'orders/create', payload: JSON.stringify(o), status: 'received', attempts: 0, received_at: w.clock.now().toISOString() })
        .returning('id');
      const id = typeof r === 'object' ? r.id : r;
      expect(await orderRows(w, o.id)).toEqual([]);
      await w.services.orders.recoverDeliveries();
      expect(await orderRows(w, o.id)).toHaveLength(1);
      expect((await w.db('webhook_deliveries').where({ id }).first()).status).toBe('processed');
    });

    it('gives up on a delivery that failed 10 times', async () => {
      const o = order();
      await w
        .db('webhook_deliveries')
        .insert({ source: 'shopify', event_id: crypto.randomUUID(), delivery_id: 'w-2', site_id: w.sites.a, topic: 'orders/create', payload: JSON.stringify(o), status: 'failed', attempts: 10, received_at: w.clock.now().toISOString() });
      await w.services.orders.recoverDeliveries();
      expect(await orderRows(w, o.id)).toEqual([]);
    });

    it('startRecovery runs a pass at once', async () => {
      const o = order();
      await w
        .db('webhook_deliveries')
        .insert({ source: 'shopify', event_id: crypto.randomUUID(), delivery_id: 'w-3', site_id: w.sites.a, topic: 'orders/create', payload: JSON.stringify(o), status: 'received', attempts: 0, received_at: w.clock.now().toISOString() });
      const stop = w.services.inbox.startRecovery(60_000);
      try {
        for (let i = 0; i < 50 && !(await orderRows(w, o.id)).length; i++) await new Promise((r) => setTimeout(r, 20));
        expect(await orderRows(w, o.id)).toHaveLength(1);
      } finally {
        stop();
      }
    });
  });
});
