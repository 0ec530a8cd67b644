// Connecting a store's Admin API from the Stores screen: the token kept like every secret, Check
// connection, Register webhooks against a store that already holds some subscriptions, and the
// app/uninstalled webhook that disconnects the store. The store is a local HTTP server answering in
// Shopify's documented shapes; every document Presswork sends it is checked against the published
// Admin schema.
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { fromJson } from '../src/db';
import type { EnvVar } from '../src/lib/secrets';
import { applyDeliveries } from '../src/modules/orders/upsert';
import { SHOP_NAME_QUERY, WEBHOOK_SUBSCRIPTIONS_QUERY, WEBHOOK_SUBSCRIPTION_CREATE, WEBHOOK_SUBSCRIPTION_UPDATE, planWebhooks } from '../src/modules/orders/storeConnection';
import { bearer, createWorld } from './harness';
import { SHOP_A, connectStores, deliver, order, orderRows, setSiteEnv } from './ordersKit';
import { adminSchemaProblems } from './shopifyAdminSchema';

const TOKEN = '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';
const OUR_URL = 'https://presswork.example.com/api/online-stores/shopify-webhook?site=site-a';

interface Sub {
  id: string;
  topic: string;
  uri: string;
}

/** The fake store: webhook subscriptions in memory, two a page (to page through them). */
const store = {
  subs: [] as Sub[],
  next: 1,
  calls: [] as Array<{ query: string; variables?: Record<string, unknown>; token?: string }>,
  problems: [] as string[],
  /** Set: webhookSubscriptionCreate answers these userErrors. */
  createUserErrors: null as null | Array<{ field: string[]; message: string }>,
};
const gid = () => `gid://shopify/WebhookSubscription/${1000 + store.next++}`;
const ok = (data: unknown) => ({ status: 200, body: { data, extensions: { cost: { requestedQueryCost: 10, actualQueryCost: 10, throttleStatus: { maximumAvailable: 2000, currentlyAvailable: 1990, restoreRate: 100 } } } } });

function answer(query: string, variables: Record<string, unknown> = {}, token: string | undefined): { status: number; body: unknown } {
  if (token !== TOKEN) return { status: 401, body: { errors: '[API] Invalid API key or access token (unrecognized login or wrong password)' } };
  if (query.includes('shop {')) return ok({ shop: { name: 'Site A Shop' } });
  if (query.includes('webhookSubscriptionCreate(')) {
    if (store.createUserErrors) return ok({ webhookSubscriptionCreate: { webhookSubscription: null, userErrors: store.createUserErrors } });
    const input = variables.webhookSubscription as { uri: string };
    const sub = { id: gid(), topic: String(variables.topic), uri: input.uri };
    store.subs.push(sub);
    return ok({ webhookSubscriptionCreate: { webhookSubscription: sub, userErrors: [] } });
  }
  if (query.includes('webhookSubscriptionUpdate(')) {
    const sub = store.subs.find((s) => s.id === variables.id);
    if (!sub) return ok({ webhookSubscriptionUpdate: { webhookSubscription: null, userErrors: [{ field: ['id'], message: 'Webhook subscription does not exist' }] } });
    sub.uri = (variables.webhookSubscription as { uri: string }).uri;
    return ok({ webhookSubscriptionUpdate: { webhookSubscription: sub, userErrors: [] } });
  }
  if (query.includes('webhookSubscriptions(')) {
    const start = variables.after ? Number(variables.after) : 0;
    const nodes = store.subs.slice(start, start + 2);
    const more = start + 2 < store.subs.length;
    return ok({ webhookSubscriptions: { nodes, pageInfo: { hasNextPage: more, endCursor: nodes.length ? String(start + nodes.length) : null } } });
  }
  return { status: 200, body: { errors: [{ message: 'Unknown document', extensions: { code: 'undefinedField' } }] } };
}

let server: http.Server;
let adminUrl = '';
beforeAll(async () => {
  server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const body = JSON.parse(Buffer.concat(chunks).toString('utf8')) as { query: string; variables?: Record<string, unknown> };
      const token = req.headers['x-shopify-access-token'] as string | undefined;
      store.calls.push({ query: body.query, variables: body.variables, token });
      store.problems.push(...adminSchemaProblems(body.query));
      if (req.url !== '/admin/api/2026-07/graphql.json') store.problems.push(`unexpected path ${req.url}`);
      const a = answer(body.query, body.variables, token);
      res.writeHead(a.status, { 'content-type': 'application/json' });
      res.end(JSON.stringify(a.body));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  adminUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));
beforeEach(() => {
  store.calls = [];
  store.problems = [];
  store.createUserErrors = null;
});

describe('documents', () => {
  it('every document Presswork sends is valid against the published 2026-07 Admin schema', () => {
    for (const doc of [SHOP_NAME_QUERY, WEBHOOK_SUBSCRIPTIONS_QUERY, WEBHOOK_SUBSCRIPTION_CREATE, WEBHOOK_SUBSCRIPTION_UPDATE]) expect(adminSchemaProblems(doc), doc).toEqual([]);
  });
});

describe('planWebhooks', () => {
  it('keeps ours, moves one of ours at an old URL, leaves foreign ones, creates the missing topics', () => {
    const steps = planWebhooks(
      [
        { id: '1', topic: 'ORDERS_CREATE', uri: OUR_URL },
        { id: '2', topic: 'ORDERS_PAID', uri: 'https://old-host.example/api/online-stores/shopify-webhook?site=site-a' },
        { id: '3', topic: 'ORDERS_PAID', uri: 'https://older-host.example/api/online-stores/shopify-webhook?site=site-a' },
        { id: '4', topic: 'ORDERS_UPDATED', uri: 'https://other-app.example/hooks' },
        { id: '5', topic: 'ORDERS_UPDATED', uri: 'https://old-host.example/api/online-stores/shopify-webhook?site=site-b' },
      ],
      OUR_URL,
      'site-a',
    );
    expect(steps.map((s) => (s.kind === 'create' ? `create ${s.topic}` : `${s.kind} ${s.held.id}`))).toEqual([
      'keep 1',
      'update 2',
      'elsewhere 3',
      'elsewhere 4',
      'elsewhere 5',
      'create ORDERS_UPDATED',
      'create ORDERS_CANCELLED',
      'create ORDERS_EDITED',
      'create ORDERS_FULFILLED',
      'create APP_UNINSTALLED',
    ]);
  });
});

describe('stores: the Admin API connection', async () => {
  const w = await createWorld({ PUBLIC_URL: 'https://presswork.example.com' });
  await connectStores(w);
  const envOf = async (siteId: number) => fromJson<{ env: EnvVar[] }>((await w.db('sites').where({ id: siteId }).first()).settings, { env: [] }).env;
  const valueOf = async (key: string) => (await envOf(w.sites.a)).find((v) => v.key === key)?.value;
  const put = (body: object) => w.request().put(`/api/admin/stores/${w.sites.a}`).set(bearer(w.tokens.adminA)).send(body);
  const call = (path: 'check-connection' | 'register-webhooks', body: object, token = w.tokens.adminA) => w.request().post(`/api/online-stores/${path}`).set(bearer(token)).send(body);

  it('the token is stored, shown masked, kept when sent back masked; the API version is checked', async () => {
    const saved = await put({ adminToken: TOKEN, apiVersion: '2026-07', adminUrl });
    expect(saved.status, JSON.stringify(saved.body)).toBe(200);
    expect(saved.body).toMatchObject({ adminToken: '********', apiVersion: '2026-07', adminUrl, disconnectedAt: null });
    expect(JSON.stringify(saved.body)).not.toContain(TOKEN);
    expect(await valueOf('SHOPIFY_ADMIN_TOKEN')).toBe(TOKEN);
    const back = await put({ adminToken: '********', apiVersion: '2026-07' });
    expect(back.status).toBe(200);
    expect(await valueOf('SHOPIFY_ADMIN_TOKEN')).toBe(TOKEN);
    const list = await w.request().get('/api/admin/stores').set(bearer(w.tokens.adminA));
    expect(JSON.stringify(list.body)).not.toContain(TOKEN);
    const site = await w.request().get(`/api/admin/sites/${w.sites.a}`).set(bearer(w.tokens.adminA));
    expect(JSON.stringify(site.body)).not.toContain(TOKEN);
    const bad = await put({ apiVersion: '2026-7' });
    expect(bad.status).toBe(400);
    expect(bad.body.field).toBe('apiVersion');
    expect((await put({ apiVersion: 'unstable' })).status).toBe(200);
    expect((await put({ apiVersion: '2026-07' })).status).toBe(200);
  });

  it('Check connection answers the shop name, through the store at SHOPIFY_ADMIN_URL with the token', async () => {
    const res = await call('check-connection', { site: 'site-a' });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body).toEqual({ success: true, data: { shopName: 'Site A Shop' } });
    expect(store.calls).toHaveLength(1);
    expect(store.calls[0].token).toBe(TOKEN);
    expect(store.problems).toEqual([]);
  });

  it('Check connection with a token the store refuses: the operator\'s sentence, not a sign-out', async () => {
    await setSiteEnv(w, w.sites.a, { SHOPIFY_ADMIN_TOKEN: 'shpat_revoked' });
    const res = await call('check-connection', { site: 'site-a' });
    expect(res.status).toBe(502);
    expect(res.body.success).toBe(false);
    expect(res.body.error).toMatch(/^The store refused the access token/);
    expect(JSON.stringify(res.body)).not.toContain('shpat_revoked');
    await setSiteEnv(w, w.sites.a, { SHOPIFY_ADMIN_TOKEN: TOKEN });
  });

  it('admins only (403), unknown site (404), no token (409), no site given (400)', async () => {
    expect((await call('check-connection', { site: 'site-a' }, w.tokens.userA)).status).toBe(403);
    expect((await call('register-webhooks', { site: 'site-a' }, w.tokens.userA)).status).toBe(403);
    expect((await call('check-connection', { site: 'nope' })).status).toBe(404);
    const none = await call('check-connection', { site: 'site-b' });
    expect(none.status).toBe(409);
    expect(none.body.error).toMatch(/No Admin API access token/);
    expect((await call('check-connection', {})).status).toBe(400);
    expect(store.calls).toHaveLength(0);
  });

  it('Register webhooks against a store holding some: ours kept, an old URL of ours repaired, foreign ones left, the rest created', async () => {
    store.subs = [
      { id: 'gid://shopify/WebhookSubscription/1', topic: 'ORDERS_CREATE', uri: OUR_URL },
      { id: 'gid://shopify/WebhookSubscription/2', topic: 'ORDERS_PAID', uri: 'https://old-presswork.example.net/api/online-stores/shopify-webhook?site=site-a' },
      { id: 'gid://shopify/WebhookSubscription/3', topic: 'ORDERS_UPDATED', uri: 'https://other-app.example/hooks/orders' },
      { id: 'gid://shopify/WebhookSubscription/4', topic: 'PRODUCTS_UPDATE', uri: 'https://other-app.example/hooks/products' },
      { id: 'gid://shopify/WebhookSubscription/5', topic: 'ORDERS_CANCELLED', uri: 'https://presswork.example.com/api/online-stores/shopify-webhook?site=site-b' },
    ];
    const res = await call('register-webhooks', { site: 'site-a' });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    const subs = res.body.data.subscriptions as Array<{ id: string; topic: string; callbackUrl: string; ours: boolean; action: string }>;
    expect(subs.filter((s) => s.action !== 'created')).toEqual([
      { id: 'gid://shopify/WebhookSubscription/1', topic: 'ORDERS_CREATE', callbackUrl: OUR_URL, ours: true, action: 'kept' },
      { id: 'gid://shopify/WebhookSubscription/2', topic: 'ORDERS_PAID', callbackUrl: OUR_URL, ours: true, action: 'updated' },
      { id: 'gid://shopify/WebhookSubscription/3', topic: 'ORDERS_UPDATED', callbackUrl: 'https://other-app.example/hooks/orders', ours: false, action: 'elsewhere' },
      { id: 'gid://shopify/WebhookSubscription/4', topic: 'PRODUCTS_UPDATE', callbackUrl: 'https://other-app.example/hooks/products', ours: false, action: 'elsewhere' },
      { id: 'gid://shopify/WebhookSubscription/5', topic: 'ORDERS_CANCELLED', callbackUrl: 'https://presswork.example.com/api/online-stores/shopify-webhook?site=site-b', ours: false, action: 'elsewhere' },
    ]);
    const created = subs.filter((s) => s.action === 'created');
    expect(created.map((s) => s.topic).sort()).toEqual(['APP_UNINSTALLED', 'ORDERS_CANCELLED', 'ORDERS_EDITED', 'ORDERS_FULFILLED', 'ORDERS_UPDATED']);
    expect(created.every((s) => s.ours && s.callbackUrl === OUR_URL)).toBe(true);
    // The store now holds them; the foreign ones are untouched.
    expect(store.subs.find((s) => s.id.endsWith('/3'))?.uri).toBe('https://other-app.example/hooks/orders');
    expect(store.subs.filter((s) => s.uri === OUR_URL).map((s) => s.topic).sort()).toEqual(['APP_UNINSTALLED', 'ORDERS_CANCELLED', 'ORDERS_CREATE', 'ORDERS_EDITED', 'ORDERS_FULFILLED', 'ORDERS_PAID', 'ORDERS_UPDATED']);
    // Every page was read (two a page), then the mutations went with the JSON format.
    expect(store.calls.filter((c) => c.query.includes('webhookSubscriptions(')).length).toBe(3);
    expect(store.calls.find((c) => c.query.includes('webhookSubscriptionCreate('))?.variables).toMatchObject({ webhookSubscription: { uri: OUR_URL, format: 'JSON' } });
    expect(store.problems).toEqual([]);

    // Again: nothing to do.
    store.calls = [];
    const again = await call('register-webhooks', { site: 'site-a' });
    expect((again.body.data.subscriptions as Array<{ action: string; ours: boolean }>).filter((s) => s.ours).every((s) => s.action === 'kept')).toBe(true);
    expect(store.calls.every((c) => !c.query.includes('mutation'))).toBe(true);
  });

  it('userErrors from Shopify reach the screen as a sentence', async () => {
    store.subs = [];
    store.createUserErrors = [{ field: ['webhookSubscription', 'uri'], message: 'Address is an invalid URL' }];
    const res = await call('register-webhooks', { site: 'site-a' });
    expect(res.status).toBe(502);
    expect(res.body.error).toContain('Address is an invalid URL');
  });

  it('app/uninstalled: verified, the token cleared, the store shown disconnected, no more Admin calls', async () => {
    // An unsigned one changes nothing.
    const forged = await deliver(w, { id: 1, name: 'Site A Shop', domain: SHOP_A }, { topic: 'app/uninstalled', secret: 'not-the-secret' });
    expect(forged.status).toBe(401);
    expect(await valueOf('SHOPIFY_ADMIN_TOKEN')).toBe(TOKEN);

    // Shopify's app/uninstalled body is the Shop resource.
    const res = await deliver(w, { id: 548380009, name: 'Site A Shop', email: 'owner@example.com', domain: SHOP_A, myshopify_domain: SHOP_A }, { topic: 'app/uninstalled' });
    expect(res.status).toBe(200);
    expect(res.body.data).toMatchObject({ received: true });
    expect(await valueOf('SHOPIFY_ADMIN_TOKEN')).toBeUndefined();
    const at = await valueOf('SHOPIFY_UNINSTALLED_AT');
    expect(at).toMatch(/^\d{4}-\d\d-\d\dT/);
    const shown = await w.request().get(`/api/admin/stores/${w.sites.a}`).set(bearer(w.tokens.adminA));
    expect(shown.body).toMatchObject({ adminToken: '', disconnectedAt: at });

    store.calls = [];
    const check = await call('check-connection', { site: 'site-a' });
    expect(check.status).toBe(409);
    expect(check.body.error).toMatch(/disconnected: the app was uninstalled/);
    expect((await call('register-webhooks', { site: 'site-a' })).status).toBe(409);
    expect(store.calls).toHaveLength(0);

    // A new token (the app reinstalled) connects it again.
    const again = await put({ adminToken: TOKEN });
    expect(again.body).toMatchObject({ adminToken: '********', disconnectedAt: null });
    expect((await call('check-connection', { site: 'site-a' })).status).toBe(200);
  });

  it('app/uninstalled in a batch with order deliveries: the store disconnects and the orders are still stored', async () => {
    await setSiteEnv(w, w.sites.a, { SHOPIFY_ADMIN_TOKEN: TOKEN, SHOPIFY_UNINSTALLED_AT: '' });
    const o = order();
    const base = { source: 'shopify', deliveryId: null, siteId: w.sites.a, status: 'received', error: null, attempts: 0, receivedAt: new Date().toISOString(), processedAt: null };
    await w.db.transaction((trx) =>
      applyDeliveries({ clock: w.clock, production: w.services.production, routePort: () => undefined }, trx, [
        { ...base, id: 900001, eventId: 'e-900001', topic: 'orders/create', payload: JSON.parse(JSON.stringify(o)) },
        { ...base, id: 900002, eventId: 'e-900002', topic: 'app/uninstalled', payload: { id: 548380009, domain: SHOP_A } },
      ]),
    );
    expect(await valueOf('SHOPIFY_ADMIN_TOKEN')).toBeUndefined();
    expect(await valueOf('SHOPIFY_UNINSTALLED_AT')).toBe(w.clock.now().toISOString());
    expect(await orderRows(w, String(o.id))).toHaveLength(1);
  });
});
