// The demo store's Cancel order (outside production): Check order asks it, and the store cancels
// its order the way a real one does — a signed orders/cancelled through the app's webhook. A
// server without the demo store answers 404 saying so; another site's staff cannot reach it.
import { afterAll, describe, expect, it } from 'vitest';
import { cancelDemoStoreOrder, DEMO_STORE_SITE } from '../simulators/shopifyDemo';
import { NO_DEMO_STORE } from '../src/modules/demoStore/service';
import { bearer, createWorld } from './harness';
import { listen } from './fulfilmentWorld';
import { connectStores, deliver, order } from './ordersKit';

describe('the demo store cancels an order from the screen', async () => {
  const w = await createWorld();
  await connectStores(w);
  await w.db('sites').where({ id: w.sites.a }).update({ slug: DEMO_STORE_SITE });
  w.services.orders.invalidateSites();
  const server = await listen(w.app);
  afterAll(() => server.close());
  const post = (body: unknown, token = w.tokens.userA) => w.request().post('/api/test/demo-store/cancel').set(bearer(token)).send(body as object);

  it('answers 404 saying why where no demo store runs (production)', async () => {
    const res = await post({ id: '1' });
    expect(res.status).toBe(404);
    expect(res.body.error).toBe(NO_DEMO_STORE);
    expect((await w.request().get('/api/test/demo-store').set(bearer(w.tokens.userA))).body.data).toEqual({ siteId: null });
  });

  it('cancels the order through a signed orders/cancelled: Check order shows it cancelled', async () => {
    w.services.demoStore.attach({ siteSlug: DEMO_STORE_SITE, cancel: (id) => cancelDemoStoreOrder({ db: w.db, baseUrl: server.url }, id) });
    const info = await w.request().get('/api/test/demo-store').set(bearer(w.tokens.userA));
    expect(info.body.data).toEqual({ siteId: w.sites.a });
    expect((await w.request().get('/api/test/demo-store').set(bearer(w.tokens.adminA))).body.data).toEqual({ siteId: w.sites.a });
    const o = order({ skus: ['SKU-CARD'] });
    await deliver(w, o);
    const res = await post({ id: o.id });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body.data).toEqual({ sent: true });
    await w.services.orders.idle();
    const check = await w.request().post('/api/online-stores/check-order').set(bearer(w.tokens.userA)).send({ id: o.id });
    const record = check.body.data.find((r: { type: string }) => r.type === 'shopify-order-log');
    expect(record.data.cancelled).toMatchObject({ reason: 'customer' });
    expect(record.data.financial_status).toBe('refunded');
    // The webhook went in signed, like the store's (it is in the inbox, verified).
    expect(await w.db('webhook_deliveries').where({ topic: 'orders/cancelled' })).toHaveLength(1);
  });

  it("another site's staff do not reach the demo store; an unknown order is not found", async () => {
    expect((await post({ id: '1' }, w.tokens.userB)).status).toBe(404);
    expect((await w.request().get('/api/test/demo-store').set(bearer(w.tokens.userB))).body.data).toEqual({ siteId: null });
    const unknown = await post({ id: '404404' });
    expect(unknown.status).toBe(404);
    expect(unknown.body.error).toBe('Order not found');
    expect((await post({})).status).toBe(400);
  });
});
