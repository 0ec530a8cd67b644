// The Shopify simulator against a real listening Presswork (127.0.0.1:0): signed deliveries,
// retries with the same ids, duplicates, faults; and fakeOrder's realism.
import crypto from 'node:crypto';
import type { AddressInfo } from 'node:net';
import type { Server } from 'node:http';
import { afterAll, describe, expect, it } from 'vitest';
import { cancelledOrder, createShopifySender, fakeOrder, orderEdit, paidOrder, updatedOrder, DEMO_SKUS } from '../simulators/shopify';
import { startShopifyDemo, withPersonalisation } from '../simulators/shopifyDemo';
import { demoShopifyAdminSimulator, SHOPIFY_ADMIN_SIMULATOR_PATH } from '../simulators/shopifyAdminDemo';
import { createLogger } from '../src/lib/logger';
import { createWorld } from './harness';
import { SECRET_A, SHOP_A, connectStores, deliveries, orderRows, setSiteEnv } from './ordersKit';

describe('shopify simulator → listening app', async () => {
  const w = await createWorld();
  await connectStores(w);
  const server: Server = await new Promise((resolve) => {
    const s = w.app.listen(0, '127.0.0.1', () => resolve(s));
  });
  afterAll(() => new Promise<void>((r) => server.close(() => r())));
  const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const webhookUrl = `${base}/api/online-stores/shopify-webhook`;
  const sender = createShopifySender({ webhookUrl, shopDomain: SHOP_A, secret: SECRET_A, retryDelaysMs: [5, 10, 20] });

  it('delivers a signed order that becomes an order record, ids exact', async () => {
    const o = fakeOrder(1, { orderNumber: 4001, withCustomer: true, withAddress: true });
    const result = await sender.sendOrder(o);
    expect(result).toMatchObject({ ok: true, status: 200, body: { success: true, data: { received: true } } });
    expect(result.attempts).toHaveLength(1);
    await w.services.orders.idle();
    const [row] = await orderRows(w, o.id);
    expect(row).toMatchObject({ field1: o.id, field2: '#4001', site_id: w.sites.a });
    expect(row.data.line_items.map((l) => l.id)).toEqual(o.line_items.map((l) => l.id));
  });

  it('retries on 5xx and network errors, keeping the same webhook and event ids', async () => {
    const seen: Array<{ webhookId: string | null; eventId: string | null }> = [];
    let calls = 0;
    const flaky: typeof fetch = async (input, init) => {
      const headers = new Headers(init?.headers);
      seen.push({ webhookId: headers.get('x-shopify-webhook-id'), eventId: headers.get('x-shopify-event-id') });
      calls++;
      if (calls === 1) throw new TypeError('fetch failed: connection reset');
      if (calls === 2) return new Response('{"success":false}', { status: 503 });
      return fetch(input, init);
    };
    const s = createShopifySender({ webhookUrl, shopDomain: SHOP_A, secret: SECRET_A, retryDelaysMs: [5, 5, 5], fetchImpl: flaky });
    const o = fakeOrder(2);
    const result = await s.sendOrder(o);
    expect(result.ok).toBe(true);
    expect(result.attempts.map((a) => a.status)).toEqual([null, 503, 200]);
    expect(new Set(seen.map((x) => x.webhookId)).size).toBe(1);
    expect(new Set(seen.map((x) => x.eventId)).size).toBe(1);
    await w.services.orders.idle();
    expect(await orderRows(w, o.id)).toHaveLength(1);
  });

  it('a timeout counts as a failure and is retried', async () => {
    let calls = 0;
    const slowFirst: typeof fetch = async (input, init) => {
      if (++calls === 1) {
        await new Promise((r) => setTimeout(r, 200));
        init?.signal?.throwIfAborted();
      }
      return fetch(input, init);
    };
    const s = createShopifySender({ webhookUrl, shopDomain: SHOP_A, secret: SECRET_A, retryDelaysMs: [5], timeoutMs: 50, fetchImpl: slowFirst });
    const result = await s.sendOrder(fakeOrder(3));
    expect(result.ok).toBe(true);
    expect(result.attempts[0].status).toBeNull();
    expect(result.attempts).toHaveLength(2);
  });

  it('duplicate: the same event again is answered duplicate and stored once', async () => {
    const o = fakeOrder(4);
    const result = await sender.sendOrder(o, { duplicate: true });
    expect(result.ok).toBe(true);
    expect(result.body).toEqual({ success: true, data: { duplicate: true } });
    expect(new Set(result.attempts.map((a) => a.webhookId)).size).toBe(2);
    expect(await deliveries(w, { event_id: result.eventId })).toHaveLength(1);
    await w.services.orders.idle();
    expect(await orderRows(w, o.id)).toHaveLength(1);
  });

  it('bad signature and wrong domain: 401 on every attempt, nothing stored', async () => {
    const bad = await sender.sendOrder(fakeOrder(5), { badSignature: true });
    expect(bad.ok).toBe(false);
    expect(bad.attempts.map((a) => a.status)).toEqual([401, 401, 401, 401]);
    expect(bad.body).toEqual({ success: false, error: 'Invalid webhook signature' });
    const wrong = await sender.sendOrder(fakeOrder(6), { wrongDomain: true, retryDelaysMs: [] });
    expect(wrong).toMatchObject({ ok: false, status: 401, body: { error: 'Unknown shop domain' } });
    expect(await deliveries(w, { event_id: bad.eventId })).toEqual([]);
  });

  it('reordered updates: the newest version wins', async () => {
    const o = fakeOrder(7);
    const v2 = updatedOrder(o, { email: 'v2@example.com' }, 60_000);
    const v3 = updatedOrder(o, { email: 'v3@example.com' }, 120_000);
    await sender.sendOrder(v3, { topic: 'orders/updated' });
    await sender.sendOrder(o, { topic: 'orders/create' });
    await sender.sendOrder(v2, { topic: 'orders/updated' });
    await w.services.orders.idle();
    const [row] = await orderRows(w, o.id);
    expect(row.data.email).toBe('v3@example.com');
  });

  it("an order's life as Shopify sends it: unpaid, then paid; edited (orders/edited body, then orders/updated); cancelled", async () => {
    const o = fakeOrder(7, { orderNumber: 4101, financialStatus: 'pending', lineCount: 2 });
    o.line_items[0].quantity = o.line_items[0].current_quantity = o.line_items[0].fulfillable_quantity = 3;
    expect((await sender.sendOrder(o)).ok).toBe(true);
    await w.services.orders.idle();
    expect((await orderRows(w, o.id))[0].data.financial_status).toBe('pending');
    const paid = paidOrder(o);
    expect((await sender.sendOrder(paid, { topic: 'orders/paid' })).ok).toBe(true);
    await w.services.orders.idle();
    expect((await orderRows(w, o.id))[0].data.financial_status).toBe('paid');

    const { edited, updated } = orderEdit(paid, { removals: [{ lineId: o.line_items[0].id, delta: 2 }], additions: [{ sku: DEMO_SKUS[2], quantity: 1 }] });
    expect(edited).toMatchObject({ order_edit: { order_id: o.id, line_items: { removals: [{ id: o.line_items[0].id, delta: 2 }], additions: [{ delta: 1 }] } } });
    expect((await sender.sendOrder(edited, { topic: 'orders/edited' })).ok).toBe(true);
    await w.services.orders.idle();
    const afterEdit = (await orderRows(w, o.id))[0].data.line_items as Array<{ id: string; current_quantity: number; sku: string | null }>;
    expect(afterEdit[0]).toMatchObject({ id: o.line_items[0].id, current_quantity: 1 });
    expect(afterEdit).toHaveLength(3);
    expect((await sender.sendOrder(updated, { topic: 'orders/updated' })).ok).toBe(true);
    await w.services.orders.idle();
    expect(((await orderRows(w, o.id))[0].data.line_items as Array<{ sku: string | null }>)[2].sku).toBe(DEMO_SKUS[2]);

    const cancelled = cancelledOrder(updated, 'inventory');
    expect(cancelled).toMatchObject({ cancel_reason: 'inventory', financial_status: 'refunded' });
    expect((await sender.sendOrder(cancelled, { topic: 'orders/cancelled' })).ok).toBe(true);
    await w.services.orders.idle();
    const row = (await orderRows(w, o.id))[0];
    expect(row.status).toBe('cancelled');
    expect(row.data.cancelled).toEqual({ cancelledAt: cancelled.cancelled_at, reason: 'inventory' });
  });

  it('a delivery without X-Shopify-Event-Id is deduplicated by its webhook id', async () => {
    const seen: Array<string | null> = [];
    const watching = createShopifySender({
      webhookUrl,
      shopDomain: SHOP_A,
      secret: SECRET_A,
      fetchImpl: async (input, init) => {
        seen.push(new Headers(init?.headers).get('x-shopify-event-id'));
        return fetch(input, init);
      },
    });
    const o = fakeOrder(8);
    const webhookId = crypto.randomUUID();
    expect((await watching.sendOrder(o, { withoutEventId: true, webhookId })).body).toMatchObject({ data: { received: true } });
    expect((await watching.sendOrder(o, { withoutEventId: true, webhookId })).body).toMatchObject({ data: { duplicate: true } });
    expect(seen).toEqual([null, null]);
  });

  it('the demo trickle sends orders of the demo site to the app, and the demo store (Admin API) holds them', async () => {
    const [r] = await w.db('sites').insert({ name: 'Demo', slug: 'demo', logo: null, theme: '{}', settings: JSON.stringify({ env: [] }), created_at: 'x', updated_at: 'x' }).returning('id');
    const demoId = typeof r === 'object' ? r.id : r;
    await setSiteEnv(w, demoId, { SHOPIFY_SHOP_DOMAIN: 'presswork-demo.myshopify.com', SHOPIFY_WEBHOOK_SECRET: 'demo-secret' });
    // No Admin API settings: no simulated Admin API.
    expect(await demoShopifyAdminSimulator(w.db)).toBeUndefined();
    await setSiteEnv(w, demoId, { SHOPIFY_SHOP_DOMAIN: 'presswork-demo.myshopify.com', SHOPIFY_WEBHOOK_SECRET: 'demo-secret', SHOPIFY_ADMIN_URL: `${base}${SHOPIFY_ADMIN_SIMULATOR_PATH}`, SHOPIFY_ADMIN_TOKEN: 'shpat_demo' });
    const adminStore = await demoShopifyAdminSimulator(w.db);
    expect(adminStore).toBeDefined();
    const stop = startShopifyDemo({ db: w.db, baseUrl: base, log: createLogger('silent'), initialOrders: 3, intervalMs: 60_000, adminStore });
    try {
      let rows: unknown[] = [];
      for (let i = 0; i < 100 && rows.length < 3; i++) {
        await new Promise((res) => setTimeout(res, 30));
        await w.services.orders.idle();
        rows = await w.db('store_orders').where({ site_id: demoId }).select('order_name as field2');
      }
      expect(rows).toHaveLength(3);
      expect((rows as Array<{ field2: string }>).map((x) => x.field2).sort()).toEqual(['#1001', '#1002', '#1003']);
      expect(adminStore!.orderIds().map((id) => adminStore!.order(id)?.name).sort()).toEqual(['#1001', '#1002', '#1003']);
    } finally {
      stop();
    }
  });
});

describe('the demo trickle', () => {
  it('gives every line a value for each field of its design, keeping the values it has', () => {
    const document = { pages: [{ layers: [{ field: { property: 'Recipient name', sample: 'Gran' } }, {}] }, { layers: [{ field: { property: 'Photo', sample: '/files/demo/photo.jpg' } }] }] };
    const base = fakeOrder(7, { skus: ['CARD'], lineCount: 2 });
    const order = { ...base, line_items: base.line_items.map((l, i) => ({ ...l, properties: i === 0 ? [{ name: 'recipient name', value: 'Ada' }] : [] })) };
    const out = withPersonalisation(order, [{ sku: 'CARD', data: JSON.stringify({ document }) }]);
    expect(out.line_items[0].properties).toEqual([{ name: 'recipient name', value: 'Ada' }, { name: 'Photo', value: '/files/demo/photo.jpg' }]);
    expect(out.line_items[1].properties).toEqual([{ name: 'Recipient name', value: 'Gran' }, { name: 'Photo', value: '/files/demo/photo.jpg' }]);
    // A design without fields leaves its lines as they are.
    expect(withPersonalisation(order, [{ sku: 'CARD', data: { artworkUrls: [] } }]).line_items).toEqual(order.line_items);
  });
});

describe('fakeOrder', () => {
  it('is deterministic per seed and realistic', () => {
    const at = new Date('2026-11-20T10:00:00Z');
    expect(fakeOrder(42, { createdAt: at })).toEqual(fakeOrder(42, { createdAt: at }));
    expect(fakeOrder(42, { createdAt: at })).not.toEqual(fakeOrder(43, { createdAt: at }));
    const orders = Array.from({ length: 300 }, (_, i) => fakeOrder(i + 1, { createdAt: new Date('2026-11-20T10:00:00Z') }));
    for (const o of orders) {
      expect(BigInt(o.id) > BigInt(Number.MAX_SAFE_INTEGER)).toBe(true);
      expect(BigInt(o.id) < 2n ** 63n).toBe(true);
      expect(o.line_items.length).toBeGreaterThanOrEqual(1);
      expect(o.line_items.length).toBeLessThanOrEqual(3);
      for (const l of o.line_items) expect(DEMO_SKUS).toContain(l.sku);
      expect(o.name).toBe(`#${o.order_number}`);
    }
    expect(orders.some((o) => o.customer === null)).toBe(true);
    expect(orders.some((o) => o.shipping_address === null)).toBe(true);
    expect(orders.some((o) => o.line_items.some((l) => l.properties.length > 0))).toBe(true);
    expect(orders.some((o) => o.line_items.every((l) => l.properties.length === 0))).toBe(true);
    expect(fakeOrder(1, { skus: ['ONLY'] }).line_items.every((l) => l.sku === 'ONLY')).toBe(true);
    // The shape of Shopify's own example Order: current_quantity, province_code, company, cancellation fields.
    for (const o of orders) {
      expect(o).toMatchObject({ cancelled_at: null, cancel_reason: null, financial_status: 'paid' });
      for (const l of o.line_items) expect(l.current_quantity).toBe(l.quantity);
    }
    expect(orders.some((o) => o.shipping_address?.company)).toBe(true);
    expect(orders.every((o) => o.shipping_address === null || typeof o.shipping_address.province_code === 'string')).toBe(true);
    expect(fakeOrder(1, { financialStatus: 'pending' }).financial_status).toBe('pending');
  });
});
