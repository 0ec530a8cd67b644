// The whole loop with the store, our real Admin API client against the Admin API simulator (written
// from Shopify's docs, not from our client): Check connection, Register webhooks next to another
// app's subscription, a reconciliation that pulls an order no webhook delivered, a shipped postback
// whose tracking becomes one fulfilment in the store, the store's own orders/fulfilled coming back,
// and a second shipment of the same line not fulfilled twice.
import { afterAll, describe, expect, it } from 'vitest';
import { createShopifySender, fakeOrder } from '../simulators/shopify';
import { createShopifyAdminSimulator } from '../simulators/shopifyAdmin';
import { STORE_FULFILMENT_KIND } from '../src/modules/fulfilment/storeFulfilment';
import { bearer } from './harness';
import { createHpWorld, HP } from './fulfilmentWorld';
import { connectStores, SECRET_A, SHOP_A, setSiteEnv } from './ordersKit';

const w = await createHpWorld();
await connectStores(w);
const TOKEN = 'shpat_loop_test_token';
const sim = createShopifyAdminSimulator({ accessToken: TOKEN, shopDomain: SHOP_A, shopName: 'Site A Shop', now: () => w.clock.now().getTime() });
const simBase = await sim.start();
await setSiteEnv(w, w.sites.a, { SHOPIFY_ADMIN_TOKEN: TOKEN, SHOPIFY_ADMIN_URL: simBase, SHOPIFY_API_VERSION: '2026-07' });
// The simulated store tells the app about fulfilments, signed like Shopify.
sim.setWebhookSender(createShopifySender({ webhookUrl: `${w.config.publicUrl}/api/online-stores/shopify-webhook`, shopDomain: SHOP_A, secret: SECRET_A, retryDelaysMs: [5, 5] }));

afterAll(async () => {
  await sim.stop();
});

const admin = (path: string, body: object) => w.request().post(path).set(bearer(w.tokens.adminA)).send(body);
const hook = (body: object) => w.request().post('/api/online-stores/hp-webhook?site=site-a').set('x-postback-token', HP.token).send(body);
const shipped = (sourceOrderId: string, trackingNumber: string) => ({
  event: 'shipment.shipped',
  sourceOrderId,
  orderId: `hp-${trackingNumber}`,
  status: 'shipped',
  timestamp: w.clock.now().toISOString(),
  shipment: { trackingNumber, trackingUrl: `https://track.example/${trackingNumber}`, shippedDate: '2026-11-25', carrier: { code: 'rm', service: 'Tracked 48', alias: 'royalmail' } },
});
/** The store's order as Presswork keeps it (the webhook body's shape). */
async function keptOrder(orderId: string) {
  const row = (await w.db('store_orders').where({ site_id: w.sites.a, store_order_id: orderId }).first('store_data')) as { store_data: unknown } | undefined;
  if (!row) return undefined;
  return (typeof row.store_data === 'string' ? JSON.parse(row.store_data) : row.store_data) as { line_items: Array<{ id: string; fulfillment_status?: string | null }> };
}

describe('the store loop against the Admin API simulator', () => {
  const order = fakeOrder(9001, { skus: ['LOOP-CARD'], lineCount: 2, financialStatus: 'paid', orderNumber: 4242, createdAt: new Date(w.clock.now().getTime() - 60_000) });

  it('Check connection answers the shop name', async () => {
    const res = await admin('/api/online-stores/check-connection', { site: 'site-a' });
    expect(res.status).toBe(200);
    expect(res.body.data).toEqual({ shopName: 'Site A Shop' });
  });

  it("Register webhooks creates Presswork's topics and leaves another app's subscription alone", async () => {
    sim.addSubscription({ topic: 'orders/create', uri: 'https://another-app.example/hooks' });
    const res = await admin('/api/online-stores/register-webhooks', { site: 'site-a' });
    expect(res.status).toBe(200);
    const subs = res.body.data.subscriptions as Array<{ topic: string; action: string; ours: boolean; callbackUrl: string }>;
    expect(subs.filter((s) => s.action === 'created').map((s) => s.topic).sort()).toEqual(['APP_UNINSTALLED', 'ORDERS_CANCELLED', 'ORDERS_CREATE', 'ORDERS_EDITED', 'ORDERS_FULFILLED', 'ORDERS_PAID', 'ORDERS_UPDATED']);
    expect(subs.filter((s) => s.action === 'elsewhere')).toEqual([expect.objectContaining({ topic: 'ORDERS_CREATE', ours: false, callbackUrl: 'https://another-app.example/hooks' })]);
    expect(sim.subscriptions()).toHaveLength(8);
    // A second press changes nothing.
    const again = await admin('/api/online-stores/register-webhooks', { site: 'site-a' });
    expect((again.body.data.subscriptions as Array<{ action: string }>).filter((s) => s.action === 'created')).toEqual([]);
    expect(sim.subscriptions()).toHaveLength(8);
  });

  it('a reconciliation pulls an order no webhook delivered, once', async () => {
    sim.addOrder(order);
    const first = await admin('/api/online-stores/reconcile', { site: 'site-a', since: new Date(w.clock.now().getTime() - 3_600_000).toISOString() });
    expect(first.body.error ?? '').toBe('');
    expect(first.status).toBe(200);
    expect(first.body.data).toEqual({ found: 1, stored: 1, alreadyKnown: 0 });
    await w.services.orders.idle();
    expect((await keptOrder(order.id))?.line_items.map((l) => l.id).sort()).toEqual(order.line_items.map((l) => l.id).sort());
    const second = await admin('/api/online-stores/reconcile', { site: 'site-a', since: new Date(w.clock.now().getTime() - 3_600_000).toISOString() });
    expect(second.body.data).toEqual({ found: 1, stored: 0, alreadyKnown: 1 });
  });

  it("a shipped line's tracking becomes one fulfilment in the store, which says so back; a second shipment of it is not fulfilled again", async () => {
    const line = order.line_items[0];
    expect((await hook(shipped(`${order.id}-${line.id}`, 'RM100000001GB'))).status).toBe(200);
    const { outcomes } = await w.services.storeFulfilments.processDue();
    expect(outcomes.map((o) => o.status)).toEqual(['sent']);
    const made = sim.fulfillments(order.id);
    expect(made).toHaveLength(1);
    expect(made[0]).toMatchObject({ notifyCustomer: true, source: 'api', trackingInfo: [{ number: 'RM100000001GB', url: 'https://track.example/RM100000001GB', company: 'royalmail' }] });
    expect(made[0].lines.map((l) => [l.lineItemId, l.quantity])).toEqual([[line.id, line.current_quantity]]);
    // The fulfilment query and mutation fit Shopify's per-query cost limit (the simulator refuses over 1000).
    expect(sim.calls().filter((c) => (c.requestedQueryCost ?? 0) > 1000)).toEqual([]);

    // The store's orders/fulfilled (or partially) and orders/updated reach the app.
    await sim.webhooksSettled();
    await w.services.orders.idle();
    expect((await keptOrder(order.id))?.line_items.find((l) => l.id === line.id)?.fulfillment_status).toBe('fulfilled');

    // The same line shipped again (a reprint): the store already has it fulfilled; nothing is written twice.
    await hook(shipped(`${order.id}-${line.id}`, 'RM100000002GB'));
    await w.services.storeFulfilments.processDue();
    expect(sim.fulfillments(order.id)).toHaveLength(1);
    const rows = await w.db('outbox').where({ kind: STORE_FULFILMENT_KIND }).where('dedupe_key', 'like', `%:${order.id}:%`).orderBy('id');
    expect(rows.every((r: { status: string }) => r.status !== 'pending')).toBe(true);
  });
});
