// Missed orders are pulled: the orders query (valid against Shopify's published Admin schema), the
// GraphQL Order → webhook Order mapping (Shopify's sample order pulled equals it delivered), and
// reconciliations against a fake store answering Shopify's shapes (cursor paging, updated_at search):
// an order never delivered is stored once, a delivered one is already known, the schedule runs once
// across two instances on one database, and one store's failure does not stop the others.
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { createLogger } from '../src/lib/logger';
import { storeReconciler, type AdminRequest } from '../src/modules/orders/reconcile';
import { ORDERS_PAGE, ORDERS_QUERY, ORDER_LINES_QUERY, storeOrderFromGraphql, type GraphqlLineItem, type GraphqlOrder } from '../src/modules/orders/storeOrderFromGraphql';
import type { Site } from '../src/modules/sites/repo';
import { createHpWorld } from './fulfilmentWorld';
import { bearer } from './harness';
import { connectStores, deliver, makeDesign, orderRows, setSiteEnv } from './ordersKit';
import { adminSchemaProblems } from './shopifyAdminSchema';

const fixture = JSON.parse(fs.readFileSync(path.resolve(import.meta.dirname, 'fixtures/vendor/shopify-order-1001.json'), 'utf8'));

/** Bob Norman's address in Shopify's sample order (its shipping and billing address alike). */
const BOB_ADDRESS = {
  name: 'Bob Norman',
  company: null,
  firstName: 'Bob',
  lastName: 'Norman',
  address1: 'Chestnut Street 92',
  address2: '',
  city: 'Louisville',
  zip: '40202',
  province: 'Kentucky',
  provinceCode: 'KY',
  country: 'United States',
  countryCodeV2: 'US',
  phone: '+1(502)-459-2181',
};

/**
 * Shopify's sample order "#1001" as the Admin GraphQL API answers it, written from the reference's
 * field meanings: ids are gids with the REST id as legacyResourceId, enums upper-case, DateTime in
 * UTC, line properties are customAttributes {key value}, the shipping lines a connection.
 */
function sample1001(): GraphqlOrder {
  const line = (id: string, name: string, sku: string, variant: string, currentQuantity: number, attrs: Array<[string, string]> = []): GraphqlLineItem => ({
    id: `gid://shopify/LineItem/${id}`,
    name,
    title: 'IPod Nano - 8gb',
    sku,
    quantity: 1,
    currentQuantity,
    unfulfilledQuantity: currentQuantity,
    customAttributes: attrs.map(([key, value]) => ({ key, value })),
    product: { legacyResourceId: '632910392' },
    variant: { legacyResourceId: variant },
  });
  return {
    id: 'gid://shopify/Order/450789469',
    legacyResourceId: '450789469',
    name: '#1001',
    number: 1001,
    email: 'bob.norman@mail.example.com',
    // 2008-01-10T11:00:00-05:00
    createdAt: '2008-01-10T16:00:00Z',
    updatedAt: '2008-01-10T16:00:00Z',
    cancelledAt: null,
    cancelReason: null,
    displayFinancialStatus: 'PARTIALLY_REFUNDED',
    displayFulfillmentStatus: 'UNFULFILLED',
    processedAt: '2008-01-10T16:00:00Z',
    customerAcceptsMarketing: false,
    tags: [],
    sourceName: 'web',
    totalPriceSet: { shopMoney: { amount: '598.94' } },
    customer: {
      legacyResourceId: '207119551',
      firstName: 'Bob',
      lastName: 'Norman',
      // 2004-06-13T11:57:11-04:00
      defaultEmailAddress: { emailAddress: 'bob.norman@mail.example.com', marketingState: 'NOT_SUBSCRIBED', marketingOptInLevel: null, marketingUpdatedAt: '2004-06-13T15:57:11Z' },
    },
    billingAddress: BOB_ADDRESS,
    shippingAddress: BOB_ADDRESS,
    shippingLines: { nodes: [{ title: 'Free Shipping', code: 'Free Shipping' }] },
    lineItems: {
      pageInfo: { hasNextPage: false, endCursor: null },
      nodes: [
        line('466157049', 'IPod Nano - 8gb - green', 'IPOD2008GREEN', '39072856', 0, [
          ['Custom Engraving Front', 'Happy Birthday'],
          ['Custom Engraving Back', 'Merry Christmas'],
        ]),
        line('518995019', 'IPod Nano - 8gb - red', 'IPOD2008RED', '49148385', 1),
        line('703073504', 'IPod Nano - 8gb - black', 'IPOD2008BLACK', '457924702', 0),
      ],
    },
  };
}

let seq = 0;
/** A GraphQL order of the fake store (int64 ids beyond 2^53). */
function gqlOrder(o: { updatedAt: string; sku?: string; lines?: number; cancelled?: boolean }): GraphqlOrder {
  const id = (9_100_000_000_000_000_000n + BigInt(++seq)).toString();
  const nodes = Array.from({ length: o.lines ?? 1 }, (_, i) => ({
    id: `gid://shopify/LineItem/${(9_200_000_000_000_000_000n + BigInt(seq * 1000 + i)).toString()}`,
    name: `Card ${i + 1}`,
    title: 'Card',
    sku: o.sku ?? 'SKU-CARD',
    quantity: 2,
    currentQuantity: 2,
    unfulfilledQuantity: 2,
    customAttributes: [{ key: 'Message', value: `Hello ${seq}` }],
    product: { legacyResourceId: '7000000000000000001' },
    variant: { legacyResourceId: '4100000000000000001' },
  }));
  return {
    ...sample1001(),
    id: `gid://shopify/Order/${id}`,
    legacyResourceId: id,
    name: `#${5000 + seq}`,
    number: 5000 + seq,
    createdAt: o.updatedAt,
    updatedAt: o.updatedAt,
    cancelledAt: o.cancelled ? o.updatedAt : null,
    cancelReason: o.cancelled ? 'CUSTOMER' : null,
    displayFinancialStatus: 'PAID',
    lineItems: { pageInfo: { hasNextPage: false, endCursor: null }, nodes },
  };
}

/**
 * A fake store's Admin GraphQL endpoint, answering as Shopify documents: `orders` filtered by the
 * `updated_at:>'…'` search, sorted by UPDATED_AT, `first` per page with opaque cursors; `order(id)`
 * with its line items paged the same way.
 */
function fakeStore(orders: GraphqlOrder[] = []) {
  const calls: Array<{ document: string; variables: Record<string, unknown> }> = [];
  let failWith: Error | undefined;
  let failAfterCalls = Infinity;
  const cursor = (i: number) => Buffer.from(`cursor:${i}`).toString('base64');
  const index = (c: unknown) => (typeof c === 'string' ? Number(Buffer.from(c, 'base64').toString().split(':')[1]) + 1 : 0);
  const pageOf = <T>(list: T[], first: number, after: unknown) => {
    const start = index(after);
    const nodes = list.slice(start, start + first);
    return { pageInfo: { hasNextPage: start + first < list.length, endCursor: nodes.length ? cursor(start + nodes.length - 1) : null }, nodes };
  };
  const request: AdminRequest = async <T,>(document: string, variables: Record<string, unknown> = {}): Promise<T> => {
    calls.push({ document, variables });
    if (failWith && calls.length > failAfterCalls) throw failWith;
    if (document === ORDERS_QUERY) {
      const since = /^updated_at:>'(.+)'$/.exec(String(variables.query))?.[1];
      expect(since, 'the search names a time').toBeDefined();
      const list = orders.filter((o) => Date.parse(o.updatedAt!) > Date.parse(since!)).sort((a, b) => Date.parse(a.updatedAt!) - Date.parse(b.updatedAt!));
      const page = pageOf(list, Number(variables.first), variables.after);
      const lines = Number(variables.lines);
      return { orders: { ...page, nodes: page.nodes.map((o) => ({ ...o, lineItems: pageOf(o.lineItems.nodes, lines, null) })) } } as T;
    }
    if (document === ORDER_LINES_QUERY) {
      const o = orders.find((x) => x.id === variables.id);
      return { order: o ? { lineItems: pageOf(o.lineItems.nodes, Number(variables.lines), variables.after) } : null } as T;
    }
    throw new Error('unknown document');
  };
  return {
    orders,
    calls,
    request,
    /** Every call from now on fails (after `after` more calls succeed). */
    fail: (err?: Error, after = 0) => {
      failWith = err;
      failAfterCalls = calls.length + after;
    },
  };
}

describe('the orders query and the GraphQL Order mapping', () => {
  it('the documents are valid against Shopify\'s published Admin schema', () => {
    expect(adminSchemaProblems(ORDERS_QUERY)).toEqual([]);
    expect(adminSchemaProblems(ORDER_LINES_QUERY)).toEqual([]);
  });

  it('maps ids (int64 as text), enums, customAttributes, quantities and the address to the webhook shape', () => {
    const o = gqlOrder({ updatedAt: '2026-11-20T10:00:00Z', cancelled: true });
    const rest = storeOrderFromGraphql(o);
    expect(rest.id).toBe(o.legacyResourceId);
    expect(rest).toMatchObject({ financial_status: 'paid', cancel_reason: 'customer', cancelled_at: '2026-11-20T10:00:00Z', fulfillment_status: null });
    expect(rest.line_items[0]).toMatchObject({ id: o.lineItems.nodes[0].id.split('/').pop(), product_id: '7000000000000000001', current_quantity: 2, fulfillable_quantity: 2, properties: [{ name: 'Message', value: expect.stringMatching(/^Hello/) }] });
    expect(rest.shipping_address).toMatchObject({ province_code: 'KY', country_code: 'US', first_name: 'Bob', company: null });
  });
});

describe('store reconciliation', async () => {
  const w = await createHpWorld();
  await connectStores(w);
  const deps = { db: w.db, clock: w.clock, config: w.config, log: createLogger('silent') };
  const stores = new Map<number, ReturnType<typeof fakeStore>>();
  const adminRequestOf = (site: Site) => stores.get(site.id)?.request ?? null;
  w.services.orders.setAdminRequestOf(adminRequestOf);
  const storeA = fakeStore();
  stores.set(w.sites.a, storeA);
  await setSiteEnv(w, w.sites.a, { SHOPIFY_ADMIN_TOKEN: 'shpat_site_a' });
  const reconcile = (body: Record<string, unknown>, token = w.tokens.adminA) => w.request().post('/api/online-stores/reconcile').set(bearer(token)).send(body);

  it('Shopify\'s sample order pulled is stored exactly as the same order delivered by webhook', async () => {
    // Site B receives #1001 by webhook; site A pulls its GraphQL form.
    const deliveredRes = await deliver(w, fixture, { topic: 'orders/updated', shop: 'site-b-shop.myshopify.com', secret: 'whsec-site-b-9876543210' });
    expect(deliveredRes.status, JSON.stringify(deliveredRes.body)).toBe(200);
    storeA.orders.push(sample1001());
    const res = await reconcile({ site: 'site-a', since: '2008-01-01T00:00:00Z' });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body).toMatchObject({ success: true, data: { found: 1, stored: 1, alreadyKnown: 0 } });
    const rows = await orderRows(w, '450789469');
    const pulled = rows.find((r) => r.site_id === w.sites.a)!;
    const delivered = rows.find((r) => r.site_id === w.sites.b)!;
    expect(pulled && delivered).toBeTruthy();
    // DateTime comes in UTC from GraphQL and with the shop's offset in the webhook: the same instants.
    for (const k of ['created_at', 'updated_at', 'processed_at'] as const) expect(Date.parse(String(pulled.data[k]))).toBe(Date.parse(String(delivered.data[k])));
    const consentAt = (r: typeof pulled) => (r.data.customer as { email_marketing_consent: { consent_updated_at: string } }).email_marketing_consent.consent_updated_at;
    expect(Date.parse(consentAt(pulled))).toBe(Date.parse(consentAt(delivered)));
    const storeFields = (r: typeof pulled) => {
      const customer = r.data.customer as { email_marketing_consent: Record<string, unknown> };
      return { ...r.data, created_at: undefined, updated_at: undefined, processed_at: undefined, customer: { ...customer, email_marketing_consent: { ...customer.email_marketing_consent, consent_updated_at: undefined } } };
    };
    expect(storeFields(pulled)).toEqual(storeFields(delivered));
    const { id: _a, site_id: _sa, ...pulledRow } = pulled;
    const { id: _b, site_id: _sb, ...deliveredRow } = delivered;
    expect({ ...pulledRow, data: undefined }).toEqual({ ...deliveredRow, data: undefined });
    const lines = async (siteId: number) =>
      (await w.db('store_order_lines as l').join('store_orders as o', 'o.id', 'l.order_id').where({ 'o.site_id': siteId, 'o.store_order_id': '450789469' }).orderBy('l.line_id').select('l.line_id', 'l.sku', 'l.quantity', 'l.title'));
    expect(await lines(w.sites.a)).toEqual(await lines(w.sites.b));
    expect(await lines(w.sites.a)).toHaveLength(3);
  });

  it('an order never delivered is stored once; one delivered by webhook is already known: one order, one provider send', async () => {
    await makeDesign(w, w.tokens.adminA, { name: 'Card', sku: 'SKU-REC', hpSKU: 'HP-REC', productPdf: '/files/test/design.pdf' });
    await setSiteEnv(w, w.sites.a, { HP_AUTO_SEND: '1', HP_SOURCE_ACCOUNT: 'presswork' });
    w.clock.set(new Date('2026-11-25T12:00:00Z'));
    const missed = gqlOrder({ updatedAt: '2026-11-25T11:00:00Z', sku: 'SKU-REC' });
    const seen = gqlOrder({ updatedAt: '2026-11-25T11:10:00Z', sku: 'SKU-REC' });
    storeA.orders.push(missed, seen);
    // `seen` reached us by webhook (its REST form, as Shopify delivers it).
    const hook = await deliver(w, { ...storeOrderFromGraphql(seen), id: seen.legacyResourceId }, { topic: 'orders/create' });
    expect(hook.status).toBe(200);
    const sends = async (id: string | number) => (await w.db('outbox').where({ kind: 'hp-order', dedupe_key: `hp:${w.sites.a}:${id}` })).length;
    expect(await sends(seen.legacyResourceId)).toBe(1);

    const res = await reconcile({ site: 'site-a', since: '2026-11-25T10:00:00Z' });
    expect(res.body.data).toEqual({ found: 2, stored: 1, alreadyKnown: 1 });
    for (const o of [missed, seen]) {
      expect(await orderRows(w, String(o.legacyResourceId))).toHaveLength(1);
      expect(await sends(o.legacyResourceId), `one send of ${o.name}`).toBe(1);
    }
    const [row] = await orderRows(w, String(missed.legacyResourceId));
    expect(row.data).toMatchObject({ financial_status: 'paid', cancelled: null, line_items: [expect.objectContaining({ sku: 'SKU-REC', current_quantity: 2, properties: [{ name: 'Message', value: expect.any(String) }] })] });

    // Again (from the high-water mark less the overlap): nothing new.
    const again = await reconcile({ site: 'site-a' });
    expect(again.body.data).toMatchObject({ stored: 0 });
    expect(again.body.data.found).toBe(again.body.data.alreadyKnown);
    expect(await orderRows(w, String(missed.legacyResourceId))).toHaveLength(1);
    await setSiteEnv(w, w.sites.a, { HP_AUTO_SEND: '' });
  });

  it('a newer version of a known order (cancelled in the store) is stored: the cancellation rule applies', async () => {
    const o = gqlOrder({ updatedAt: '2026-11-25T11:20:00Z' });
    storeA.orders.push(o);
    expect((await reconcile({ site: 'site-a', since: '2026-11-25T11:15:00Z' })).body.data).toMatchObject({ found: 1, stored: 1 });
    Object.assign(o, { updatedAt: '2026-11-25T11:30:00Z', cancelledAt: '2026-11-25T11:30:00Z', cancelReason: 'CUSTOMER' });
    expect((await reconcile({ site: 'site-a', since: '2026-11-25T11:25:00Z' })).body.data).toEqual({ found: 1, stored: 1, alreadyKnown: 0 });
    const [row] = await orderRows(w, String(o.legacyResourceId));
    expect(row.status).toBe('cancelled');
    expect(row.data.cancelled).toEqual({ cancelledAt: '2026-11-25T11:30:00Z', reason: 'customer' });
  });

  it('pages through the results with the cursors Shopify answers (3 pages), and an order\'s lines past the first page', async () => {
    const fresh = fakeStore();
    stores.set(w.sites.a, fresh);
    for (let i = 0; i < 2 * ORDERS_PAGE + 1; i++) fresh.orders.push(gqlOrder({ updatedAt: `2026-11-26T10:${String(i).padStart(2, '0')}:00Z`, lines: i === 0 ? 52 : 1 }));
    const res = await reconcile({ site: 'site-a', since: '2026-11-26T09:00:00Z' });
    expect(res.body.data).toEqual({ found: 11, stored: 11, alreadyKnown: 0 });
    const pages = fresh.calls.filter((c) => c.document === ORDERS_QUERY);
    expect(pages).toHaveLength(3);
    expect(pages[0].variables.after).toBeNull();
    expect(pages[1].variables.after).toBe(Buffer.from(`cursor:${ORDERS_PAGE - 1}`).toString('base64'));
    expect(pages[2].variables.after).toBe(Buffer.from(`cursor:${2 * ORDERS_PAGE - 1}`).toString('base64'));
    expect(pages[0].variables.query).toBe("updated_at:>'2026-11-26T09:00:00Z'");
    const [big] = await orderRows(w, String(fresh.orders[0].legacyResourceId));
    expect(big.data.line_items).toHaveLength(52);
    // The next run starts from the newest change seen, less the overlap (10 minutes by default).
    fresh.calls.length = 0;
    expect((await reconcile({ site: 'site-a' })).body.data).toMatchObject({ stored: 0 });
    expect(fresh.calls[0].variables.query).toBe("updated_at:>'2026-11-26T10:00:00Z'");
    const list = await w.request().get('/api/admin/stores').query({ range: '[0,9]' }).set(bearer(w.tokens.adminA));
    expect(list.body.find((s: { siteId: number }) => s.siteId === w.sites.a)).toMatchObject({ lastReconciledAt: w.clock.now().toISOString(), lastReconcileFound: expect.any(Number), lastReconcileError: null });
    stores.set(w.sites.a, storeA);
  });

  it('a store failing mid-way: what was stored stays, the error is recorded, the next run starts after it', async () => {
    const flaky = fakeStore();
    stores.set(w.sites.a, flaky);
    for (let i = 0; i < ORDERS_PAGE + 2; i++) flaky.orders.push(gqlOrder({ updatedAt: `2026-11-26T11:${String(i).padStart(2, '0')}:00Z` }));
    flaky.fail(new Error('Internal error. Looks like something went wrong on our end.'), 1);
    const res = await reconcile({ site: 'site-a', since: '2026-11-26T10:59:00Z' });
    expect(res.status).toBe(502);
    expect(res.body.error).toMatch(/^The store could not be read: Internal error/);
    for (const o of flaky.orders.slice(0, ORDERS_PAGE)) expect(await orderRows(w, String(o.legacyResourceId))).toHaveLength(1);
    expect(await orderRows(w, String(flaky.orders[ORDERS_PAGE].legacyResourceId))).toHaveLength(0);
    const state = (await w.services.orders.reconcileStates([w.sites.a])).get(w.sites.a)!;
    expect(state).toMatchObject({ found: ORDERS_PAGE, stored: ORDERS_PAGE, error: expect.stringMatching(/Internal error/), highWaterMark: `2026-11-26T11:0${ORDERS_PAGE - 1}:00Z` });
    flaky.fail(undefined);
    flaky.calls.length = 0;
    expect((await reconcile({ site: 'site-a' })).body.data).toMatchObject({ stored: 2 });
    expect(flaky.calls[0].variables.query).toBe(`updated_at:>'2026-11-26T10:5${ORDERS_PAGE - 1}:00Z'`);
    stores.set(w.sites.a, storeA);
  });

  it('the route: admin only, a bad since is a 400 naming the field, a site without a token is refused', async () => {
    expect((await reconcile({ site: 'site-a' }, w.tokens.userA)).status).toBe(403);
    const bad = await reconcile({ site: 'site-a', since: 'yesterday' });
    expect(bad.status).toBe(400);
    expect(bad.body).toMatchObject({ success: false, field: 'since' });
    expect((await reconcile({ site: 'no-such-site' })).status).toBe(404);
    const noToken = await reconcile({ site: 'site-b' });
    expect(noToken.status).toBe(400);
    expect(noToken.body.error).toBe("The store of Site B has no Admin API connection (an app's Client ID and secret, or a legacy token): nothing to sync from");
  });

  it('the schedule: sites without a token are skipped, one store failing does not stop the others, and it is recorded', async () => {
    const storeB = fakeStore([gqlOrder({ updatedAt: '2026-11-27T08:00:00Z' })]);
    stores.set(w.sites.b, storeB);
    await setSiteEnv(w, w.sites.b, { SHOPIFY_ADMIN_TOKEN: 'shpat_site_b' });
    storeA.fail(new Error('Invalid API key or access token (unrecognized login or wrong password)'));
    w.clock.set(new Date('2026-11-27T09:05:00Z'));
    const results = await w.services.orders.reconcileDue();
    expect(results).toEqual([
      { site: 'site-a', ran: true, error: expect.stringMatching(/Invalid API key/) },
      { site: 'site-b', ran: true, counts: { found: 1, stored: 1, alreadyKnown: 0 } },
    ]);
    // (The clock is days ahead here: sessions have expired, so the states are read from the service.)
    const states = await w.services.orders.reconcileStates([w.sites.a, w.sites.b]);
    expect(states.get(w.sites.a)).toMatchObject({ trigger: 'schedule', error: expect.stringMatching(/Invalid API key/) });
    expect(states.get(w.sites.b)).toMatchObject({ trigger: 'schedule', error: null, found: 1, stored: 1 });
    storeA.fail(undefined);
    await setSiteEnv(w, w.sites.b, { SHOPIFY_ADMIN_TOKEN: '' });
  });

  it('the leased schedule runs once per period across two instances on one database', async () => {
    const a = storeReconciler(deps, { inbox: w.services.inbox, adminRequestOf, holder: 'instance-a' });
    const b = storeReconciler(deps, { inbox: w.services.inbox, adminRequestOf, holder: 'instance-b' });
    storeA.orders.push(gqlOrder({ updatedAt: '2026-11-28T09:30:00Z' }));
    w.clock.set(new Date('2026-11-28T10:10:00Z'));
    const before = storeA.calls.length;
    const [ra, rb] = await Promise.all([a.reconcileDue(), b.reconcileDue()]);
    const ran = [...ra, ...rb].filter((r) => r.site === 'site-a' && r.ran);
    expect(ran).toHaveLength(1);
    expect(storeA.calls.length - before).toBe(1);
    // Later in the same hour: not again, on either instance.
    w.clock.set(new Date('2026-11-28T10:50:00Z'));
    expect((await a.reconcileDue()).find((r) => r.site === 'site-a')!.ran).toBe(false);
    expect((await b.reconcileDue()).find((r) => r.site === 'site-a')!.ran).toBe(false);
    // The next hour runs again; SHOPIFY_RECONCILE_MINUTES=0 stops the schedule.
    w.clock.set(new Date('2026-11-28T11:01:00Z'));
    expect((await b.reconcileDue()).find((r) => r.site === 'site-a')!.ran).toBe(true);
    await setSiteEnv(w, w.sites.a, { SHOPIFY_RECONCILE_MINUTES: '0' });
    w.clock.set(new Date('2026-11-28T12:01:00Z'));
    expect(await a.reconcileDue()).toEqual([]);
  });
});
