// The store sees a waiting order: a paid order in the change window is held in Shopify
// (fulfillmentOrderHold, reason OTHER, our handle, a note saying why) through the outbox, and
// released (fulfillmentOrderReleaseHold of our hold) when production starts. Our real Admin API
// client talks to the Admin API simulator, which validates every document against its schema (a
// subset of Shopify's published one); the documents are checked against the published schema too.
// A store whose token lacks the scope answers ACCESS_DENIED: Needs attention says so once, and the
// order still waits in Presswork.
import { afterAll, beforeEach, describe, expect, it } from 'vitest';
import { createShopifySender, fakeOrder } from '../simulators/shopify';
import { createShopifyAdminSimulator } from '../simulators/shopifyAdmin';
import { FULFILLMENT_HOLDS_QUERY, FULFILLMENT_ORDER_HOLD_MUTATION, FULFILLMENT_ORDER_RELEASE_HOLD_MUTATION, STORE_HOLD_HANDLE } from '../src/modules/fulfilment';
import { bearer } from './harness';
import { createHpWorld } from './fulfilmentWorld';
import { connectStores, deliver, makeDesign, SECRET_A, SHOP_A, setSiteEnv } from './ordersKit';
import { adminSchemaProblems } from './shopifyAdminSchema';

const w = await createHpWorld();
await connectStores(w);
const TOKEN = 'shpat_hold_test_token';
const NARROW = 'shpat_hold_test_narrow';
const sim = createShopifyAdminSimulator({ accessToken: TOKEN, shopDomain: SHOP_A, shopName: 'Site A Shop', now: () => w.clock.now().getTime() });
// The same store for a token that may read orders but not hold them.
const narrowSim = createShopifyAdminSimulator({ accessToken: NARROW, shopDomain: SHOP_A, shopName: 'Site A Shop', scopes: ['read_orders'], now: () => w.clock.now().getTime() });
const simBase = await sim.start();
const narrowBase = await narrowSim.start();
sim.setWebhookSender(createShopifySender({ webhookUrl: `${w.config.publicUrl}/api/online-stores/shopify-webhook`, shopDomain: SHOP_A, secret: SECRET_A, retryDelaysMs: [5, 5] }));
afterAll(async () => {
  await sim.stop();
  await narrowSim.stop();
});

const CARD = 'HOLD-CARD';
await makeDesign(w, w.tokens.adminA, { name: 'Hold card', sku: CARD, productType: 'Card', isCustomizable: false, hpSKU: 'HP-CARD-A5' });
const base = { HP_AUTO_SEND: '1', HOLD_MINUTES: '30', PROOF_REQUIRED: '', SHOPIFY_ADMIN_TOKEN: TOKEN, SHOPIFY_ADMIN_URL: simBase, SHOPIFY_API_VERSION: '2026-07' };
let seed = 7000;
const paidOrder = () => fakeOrder(++seed, { skus: [CARD], lineCount: 1, financialStatus: 'paid', orderNumber: seed, createdAt: new Date(w.clock.now().getTime() - 60_000) });
const holdRows = (orderId: string) => w.db('outbox').where({ kind: 'store-hold' }).whereLike('dedupe_key', `%:${orderId}:%`).orderBy('id');
const pass = () => w.services.storeHolds.processDue();
const attention = async () => (await w.request().get('/api/attention').set(bearer(w.tokens.adminA))).body.data as { items: Array<{ kind: string; title: string; siteId: number }>; counts: Record<string, number> };

beforeEach(async () => {
  await w.db('line_waits').update({ state: 'released' });
  await setSiteEnv(w, w.sites.a, base);
});

describe('the store holds a waiting order', () => {
  it("Presswork's documents are valid against Shopify's published schema", () => {
    expect(adminSchemaProblems(FULFILLMENT_HOLDS_QUERY)).toEqual([]);
    expect(adminSchemaProblems(FULFILLMENT_ORDER_HOLD_MUTATION)).toEqual([]);
    expect(adminSchemaProblems(FULFILLMENT_ORDER_RELEASE_HOLD_MUTATION)).toEqual([]);
  });

  it('held with reason OTHER and a note while in the window; released when the window ends and production starts', async () => {
    const o = paidOrder();
    sim.addOrder(o);
    expect((await deliver(w, o)).status).toBe(200);
    const [hold] = await holdRows(o.id);
    expect(hold).toMatchObject({ status: 'pending' });
    await pass();
    const [fo] = sim.fulfillmentOrders(o.id);
    expect(fo.status).toBe('ON_HOLD');
    expect(fo.holds).toEqual([{ id: expect.stringMatching(/^gid:\/\/shopify\/FulfillmentHold\//), handle: STORE_HOLD_HANDLE, reason: 'OTHER', reasonNotes: expect.stringMatching(/^Presswork: in the change window until \d\d:\d\d$/) }]);
    const calls = sim.calls().filter((c) => c.fields.includes('fulfillmentOrderHold'));
    expect(calls).toHaveLength(1);
    expect(calls[0].status).toBe(200);
    // Nothing is made meanwhile.
    expect(await w.db('outbox').where({ kind: 'hp-order' }).whereLike('dedupe_key', `%${o.id}%`)).toEqual([]);

    // A second pass (or a replayed delivery) holds nothing twice.
    expect((await deliver(w, o)).status).toBe(200);
    await pass();
    expect(sim.fulfillmentOrders(o.id)[0].holds).toHaveLength(1);

    w.clock.advance(31 * 60_000);
    await w.services.waits.releaseDue();
    const rows = await holdRows(o.id);
    expect(rows.map((r: { dedupe_key: string }) => r.dedupe_key.split(':').at(-1))).toEqual(['hold', 'release']);
    // Production started: the order went to the provider's queue.
    expect((await w.db('outbox').where({ kind: 'hp-order' }).whereLike('dedupe_key', `%${o.id}%`)).length).toBeGreaterThan(0);
    await pass();
    const [after] = sim.fulfillmentOrders(o.id);
    expect(after.holds).toEqual([]);
    expect(after.status).toBe('OPEN');
    expect(sim.calls().filter((c) => c.fields.includes('fulfillmentOrderReleaseHold') && c.status === 200)).toHaveLength(1);
    expect((await holdRows(o.id)).map((r: { status: string }) => r.status)).toEqual(['sent', 'sent']);
  });

  it('Release now releases the store hold too; a release queued before the hold landed waits for it', async () => {
    const o = paidOrder();
    sim.addOrder(o);
    await deliver(w, o);
    const storeOrder = await w.db('store_orders').where({ site_id: w.sites.a, store_order_id: o.id }).first('id');
    const released = await w.request().post(`/api/orders/${o.id}/release`).set(bearer(w.tokens.userA)).send({});
    expect(released.status, JSON.stringify(released.body)).toBe(200);
    expect(storeOrder).toBeTruthy();
    // Both rows are due: the hold is taken as released first, so the store is never left holding.
    await pass();
    await pass();
    const [fo] = sim.fulfillmentOrders(o.id);
    expect(fo.holds).toEqual([]);
    expect(fo.status).toBe('OPEN');
    expect((await holdRows(o.id)).map((r: { status: string }) => r.status)).toEqual(['sent', 'sent']);
  });

  it("Extend hold: the store's hold says the new time (the new hold placed before the old one goes), once", async () => {
    const o = paidOrder();
    sim.addOrder(o);
    await deliver(w, o);
    await pass();
    const [first] = sim.fulfillmentOrders(o.id)[0].holds;
    expect(first).toMatchObject({ handle: STORE_HOLD_HANDLE, reasonNotes: expect.stringMatching(/^Presswork: in the change window until \d\d:\d\d$/) });
    const extended = await w.request().post(`/api/orders/${o.id}/extend-hold`).set(bearer(w.tokens.userA)).send({ minutes: 90 });
    expect(extended.status, JSON.stringify(extended.body)).toBe(200);
    const until = (await w.db('history').where({ subject_id: o.id, action: 'hold extended' }).first('to_state')).to_state as string;
    expect(until).toMatch(/^in the change window until \d\d:\d\d$/);
    expect((await holdRows(o.id)).map((r: { dedupe_key: string; status: string }) => [r.dedupe_key.split(':')[3], r.status])).toEqual([['hold', 'sent'], ['renote', 'pending']]);
    const before = sim.calls().length;
    await pass();
    const [fo] = sim.fulfillmentOrders(o.id);
    // Held all along: the new hold carries the new time, and only the old one of ours went.
    expect(fo.status).toBe('ON_HOLD');
    expect(fo.holds).toEqual([{ id: expect.any(String), handle: expect.stringMatching(/^presswork-\d+$/), reason: 'OTHER', reasonNotes: `Presswork: ${until}` }]);
    const calls = sim.calls().slice(before).map((c) => c.fields.find((f) => f.startsWith('fulfillmentOrder')) ?? c.fields[0]);
    expect(calls).toEqual(['order', 'fulfillmentOrderHold', 'fulfillmentOrderReleaseHold']);
    // The same note again (a replayed extend to the same minute) queues nothing new; a pass sends nothing.
    await pass();
    expect(sim.calls().length).toBe(before + 3);
    // Released: every hold of ours goes, the renote's included.
    const released = await w.request().post(`/api/orders/${o.id}/release`).set(bearer(w.tokens.userA)).send({});
    expect(released.status).toBe(200);
    await pass();
    expect(sim.fulfillmentOrders(o.id)[0]).toMatchObject({ status: 'OPEN', holds: [] });
  });

  it('a release queued while a new note is on its way waits for it', async () => {
    const o = paidOrder();
    sim.addOrder(o);
    await deliver(w, o);
    await pass();
    await w.request().post(`/api/orders/${o.id}/extend-hold`).set(bearer(w.tokens.userA)).send({ minutes: 30 });
    await w.request().post(`/api/orders/${o.id}/release`).set(bearer(w.tokens.userA)).send({});
    const kinds = async () => (await holdRows(o.id)).map((r: { dedupe_key: string; status: string }) => [r.dedupe_key.split(':')[3], r.status]);
    expect(await kinds()).toEqual([['hold', 'sent'], ['renote', 'pending'], ['release', 'pending']]);
    // The renote being retried later (the store did not answer): the release waits behind it.
    const renote = (await holdRows(o.id))[1] as { id: number };
    await w.db('outbox').where({ id: renote.id }).update({ next_attempt_at: new Date(w.clock.now().getTime() + 3_600_000).toISOString() });
    await pass();
    const waiting = (await holdRows(o.id))[2] as { status: string; error: string };
    expect(waiting).toMatchObject({ status: 'pending', error: "The hold's new note has not reached the store yet: released after it" });
    expect(sim.fulfillmentOrders(o.id)[0].status).toBe('ON_HOLD');
    await w.db('outbox').whereIn('id', [renote.id, (await holdRows(o.id))[2].id]).update({ next_attempt_at: w.clock.now().toISOString() });
    await pass();
    await pass();
    expect(await kinds()).toEqual([['hold', 'sent'], ['renote', 'sent'], ['release', 'sent']]);
    expect(sim.fulfillmentOrders(o.id)[0]).toMatchObject({ status: 'OPEN', holds: [] });
  });

  it('a store without the scope is told once in Needs attention; the order still waits in Presswork', async () => {
    await setSiteEnv(w, w.sites.a, { ...base, SHOPIFY_ADMIN_TOKEN: NARROW, SHOPIFY_ADMIN_URL: narrowBase });
    const [a, b] = [paidOrder(), paidOrder()];
    for (const o of [a, b]) {
      narrowSim.addOrder(o);
      await deliver(w, o);
    }
    await pass();
    // The simulator refused with Shopify's ACCESS_DENIED; nothing is held in the store.
    const denied = narrowSim.calls().filter((c) => c.fields.includes('fulfillmentOrderHold'));
    expect(denied).toHaveLength(2);
    expect(narrowSim.fulfillmentOrders(a.id)[0].holds).toEqual([]);
    for (const o of [a, b]) expect((await holdRows(o.id)).map((r: { status: string }) => r.status)).toEqual(['sent']);
    const told = (await attention()).items.filter((i) => i.kind === 'storeHoldRefused');
    expect(told).toHaveLength(1);
    expect(told[0].title).toMatch(/does not let Presswork put waiting orders on hold .*write_merchant_managed_fulfillment_orders.*orders still wait in Presswork/);
    // Holding goes on inside Presswork: nothing is made until the window ends.
    expect((await w.db('line_waits').where({ order_id: a.id }).first()).state).toBe('hold');
    expect(await w.db('outbox').where({ kind: 'hp-order' }).whereLike('dedupe_key', `%${a.id}%`)).toEqual([]);

    // With the scope granted, the next hold works and the notice goes.
    await setSiteEnv(w, w.sites.a, base);
    const c = paidOrder();
    sim.addOrder(c);
    await deliver(w, c);
    await pass();
    expect(sim.fulfillmentOrders(c.id)[0].status).toBe('ON_HOLD');
    expect((await attention()).items.filter((i) => i.kind === 'storeHoldRefused')).toEqual([]);
  });

  it('a site without an Admin API connection holds in Presswork only, queueing nothing for the store', async () => {
    await setSiteEnv(w, w.sites.a, { ...base, SHOPIFY_ADMIN_TOKEN: '', SHOPIFY_ADMIN_URL: '' });
    const o = paidOrder();
    await deliver(w, o);
    expect((await w.db('line_waits').where({ order_id: o.id }).first()).state).toBe('hold');
    expect(await holdRows(o.id)).toEqual([]);
  });
});
