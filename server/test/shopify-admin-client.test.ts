// The Shopify Admin GraphQL client against a local HTTP server answering in Shopify's documented
// shapes: where it sends, the token header, nodes and edges, THROTTLED and 429 waits, 401,
// userErrors, and a mutation whose answer was lost.
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { DEFAULT_SHOPIFY_API_VERSION, ShopifyAdminError, shopifyAdmin, shopifyAdminSettingsOf, throttleWaitMs, userErrorsOf, type ShopifyAdminSettings } from '../src/integrations/shopifyAdmin';
import { adminSchemaProblems } from './shopifyAdminSchema';

type Answer = { status: number; body?: unknown; headers?: Record<string, string> } | 'drop';
interface Seen {
  method: string;
  path: string;
  headers: http.IncomingHttpHeaders;
  body: { query: string; variables?: Record<string, unknown> };
}

let server: http.Server;
let baseUrl = '';
const answers: Answer[] = [];
const seen: Seen[] = [];

beforeAll(async () => {
  server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      seen.push({ method: req.method ?? '', path: req.url ?? '', headers: req.headers, body: JSON.parse(Buffer.concat(chunks).toString('utf8') || '{}') });
      const a = answers.shift() ?? { status: 500, body: { errors: 'no scripted answer' } };
      // The request arrived and may have been applied: the connection drops before any answer.
      if (a === 'drop') return void req.socket.destroy();
      res.writeHead(a.status, { 'content-type': 'application/json; charset=utf-8', ...a.headers });
      res.end(JSON.stringify(a.body ?? {}));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));
beforeEach(() => {
  answers.length = 0;
  seen.length = 0;
});

const TOKEN = 'shpat_00000000000000000000000000000000';
const settings = (): ShopifyAdminSettings => ({ shopDomain: 'presswork-demo.myshopify.com', accessToken: TOKEN, apiVersion: '2026-07', adminUrl: baseUrl });
const waits: number[] = [];
const client = (extra: Parameters<typeof shopifyAdmin>[1] = {}) => {
  waits.length = 0;
  return shopifyAdmin(settings(), { sleep: async (ms) => void waits.push(ms), ...extra });
};

// Documents sent in these tests — each is checked against Shopify's published 2026-07 schema.
const SHOP = 'query { shop { name } }';
const SUBSCRIPTIONS_NODES = 'query Subs($after: String) { webhookSubscriptions(first: 50, after: $after) { nodes { id topic uri } pageInfo { hasNextPage endCursor } } }';
const SUBSCRIPTIONS_EDGES = 'query { webhookSubscriptions(first: 50) { edges { cursor node { id topic uri } } } }';
const CREATE = 'mutation Create($topic: WebhookSubscriptionTopic!, $sub: WebhookSubscriptionInput!) { webhookSubscriptionCreate(topic: $topic, webhookSubscription: $sub) { webhookSubscription { id topic uri } userErrors { field message } } }';

// The cost extension as shopify.dev "GraphQL Admin API rate limits"
// (docs/apps/build/apis/graphql-admin/rate-limits) shows it.
const cost = (requested: number, available: number, actual: number | null = requested) => ({
  cost: { requestedQueryCost: requested, actualQueryCost: actual, throttleStatus: { maximumAvailable: 2000.0, currentlyAvailable: available, restoreRate: 100.0 } },
});

describe('documents', () => {
  it('are valid against the published Admin schema', () => {
    for (const doc of [SHOP, SUBSCRIPTIONS_NODES, SUBSCRIPTIONS_EDGES, CREATE]) expect(adminSchemaProblems(doc), doc).toEqual([]);
  });
});

describe('Shopify Admin client: the request', () => {
  it('POSTs {query, variables} to <adminUrl>/admin/api/<version>/graphql.json with the access token and answers data', async () => {
    answers.push({ status: 200, body: { data: { shop: { name: 'Presswork Demo' } }, extensions: cost(1, 1999) } });
    const data = await client().request<{ shop: { name: string } }>(SHOP);
    expect(data).toEqual({ shop: { name: 'Presswork Demo' } });
    expect(seen).toHaveLength(1);
    expect(seen[0].method).toBe('POST');
    expect(seen[0].path).toBe('/admin/api/2026-07/graphql.json');
    expect(seen[0].headers['x-shopify-access-token']).toBe(TOKEN);
    expect(seen[0].headers['content-type']).toContain('application/json');
    expect(seen[0].body.query).toBe(SHOP);
  });

  it('sends variables and reads both connection forms (nodes and edges)', async () => {
    const sub = { id: 'gid://shopify/WebhookSubscription/8876171903', topic: 'ORDERS_CREATE', uri: 'https://presswork.example/api/online-stores/shopify-webhook?site=demo' };
    answers.push({ status: 200, body: { data: { webhookSubscriptions: { nodes: [sub], pageInfo: { hasNextPage: false, endCursor: 'eyJsYXN0X2lkIjo4ODc2MTcxOTAzfQ==' } } }, extensions: cost(12, 1988, 3) } });
    answers.push({ status: 200, body: { data: { webhookSubscriptions: { edges: [{ cursor: 'eyJsYXN0X2lkIjo4ODc2MTcxOTAzfQ==', node: sub }] } }, extensions: cost(12, 1988, 3) } });
    const c = client();
    const a = await c.request<{ webhookSubscriptions: { nodes: (typeof sub)[] } }>(SUBSCRIPTIONS_NODES, { after: 'abc' });
    const b = await c.request<{ webhookSubscriptions: { edges: Array<{ node: typeof sub }> } }>(SUBSCRIPTIONS_EDGES);
    expect(seen[0].body.variables).toEqual({ after: 'abc' });
    expect(a.webhookSubscriptions.nodes[0]).toEqual(sub);
    expect(b.webhookSubscriptions.edges[0].node).toEqual(sub);
  });

  it('without an admin URL, sends to https://<shop domain>', async () => {
    const urls: string[] = [];
    const fake = (async (url: string | URL | Request) => {
      urls.push(String(url));
      return new Response(JSON.stringify({ data: { shop: { name: 'X' } } }), { status: 200, headers: { 'content-type': 'application/json' } });
    }) as typeof fetch;
    await shopifyAdmin({ shopDomain: 'presswork-demo.myshopify.com', accessToken: TOKEN, apiVersion: '2026-07' }, { fetch: fake }).request(SHOP);
    expect(urls).toEqual(['https://presswork-demo.myshopify.com/admin/api/2026-07/graphql.json']);
  });
});

describe('Shopify Admin client: throttling', () => {
  // shopify.dev/docs/apps/build/apis/graphql-admin/rate-limits and the sample in
  // community.shopify.com/t/throttled/254776: HTTP 200, errors THROTTLED, actualQueryCost null.
  const throttled = (requested: number, available: number) => ({
    status: 200,
    body: { errors: [{ message: 'Throttled', extensions: { code: 'THROTTLED', documentation: 'https://shopify.dev/api/usage/rate-limits' } }], extensions: cost(requested, available, null) },
  });

  it('THROTTLED: waits until the bucket holds the requested cost, then sends again and answers', async () => {
    answers.push(throttled(752, 552), { status: 200, body: { data: { shop: { name: 'Presswork Demo' } }, extensions: cost(1, 1999) } });
    const data = await client().request<{ shop: { name: string } }>(SHOP);
    expect(data.shop.name).toBe('Presswork Demo');
    expect(seen).toHaveLength(2);
    // (752 − 552) points at 100 points/s = 2 s.
    expect(waits).toEqual([2000]);
  });

  it('a throttled mutation is sent again (Shopify refused it before running it)', async () => {
    answers.push(throttled(100, 0), { status: 200, body: { data: { webhookSubscriptionCreate: { webhookSubscription: { id: 'gid://shopify/WebhookSubscription/1', topic: 'ORDERS_CREATE', uri: 'https://x' }, userErrors: [] } }, extensions: cost(10, 1990) } });
    const data = await client().request<{ webhookSubscriptionCreate: { webhookSubscription: { id: string } } }>(CREATE, { topic: 'ORDERS_CREATE', sub: { uri: 'https://x', format: 'JSON' } });
    expect(data.webhookSubscriptionCreate.webhookSubscription.id).toBe('gid://shopify/WebhookSubscription/1');
    expect(seen).toHaveLength(2);
    expect(waits).toEqual([1000]);
  });

  it('gives up as kind "throttled" after a bounded number of tries', async () => {
    answers.push(throttled(752, 552), throttled(752, 552), throttled(752, 552));
    const err = await client({ maxTries: 3 }).request(SHOP).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ShopifyAdminError);
    expect(err).toMatchObject({ kind: 'throttled' });
    expect(seen).toHaveLength(3);
    expect(waits).toHaveLength(2);
  });

  it('429: waits Retry-After, then sends again', async () => {
    answers.push({ status: 429, headers: { 'Retry-After': '2.0' }, body: { errors: 'Exceeded 2 calls per second for api client. Reduce request rates to resume uninterrupted service.' } });
    answers.push({ status: 200, body: { data: { shop: { name: 'Presswork Demo' } } } });
    expect(await client().request(SHOP)).toEqual({ shop: { name: 'Presswork Demo' } });
    expect(waits).toEqual([2000]);
  });

  it('429 without Retry-After: waits by the throttle status in the body', async () => {
    answers.push({ status: 429, body: { errors: [{ message: 'Throttled', extensions: { code: 'THROTTLED' } }], extensions: cost(300, 100, null) } });
    answers.push({ status: 200, body: { data: { shop: { name: 'Presswork Demo' } } } });
    await client().request(SHOP);
    expect(waits).toEqual([2000]);
  });

  it('throttleWaitMs: 1 s when Shopify gave no throttle status', () => {
    expect(throttleWaitMs(undefined)).toBe(1000);
    expect(throttleWaitMs(cost(100, 50))).toBe(500);
  });
});

describe('Shopify Admin client: errors', () => {
  it('401: kind "auth", a sentence for the operator, the token nowhere in it', async () => {
    // Shopify's answer to an unknown token: HTTP 401, `errors` a string (community.shopify.com
    // t/errors-api-invalid-api-key-or-access-token-unrecognized-login-or-wrong-password/3332).
    answers.push({ status: 401, body: { errors: '[API] Invalid API key or access token (unrecognized login or wrong password)' } });
    const err = (await client().request(SHOP).catch((e: unknown) => e)) as ShopifyAdminError;
    expect(err).toBeInstanceOf(ShopifyAdminError);
    expect(err.kind).toBe('auth');
    expect(err.status).toBe(401);
    expect(err.message).toMatch(/^The store refused the access token/);
    expect(err.message).not.toContain(TOKEN);
    expect(JSON.stringify(err)).not.toContain(TOKEN);
    expect(seen).toHaveLength(1);
  });

  it('ACCESS_DENIED (a missing scope, HTTP 200): kind "auth" with Shopify\'s message', async () => {
    answers.push({
      status: 200,
      body: {
        data: null,
        errors: [{ message: 'Access denied for webhookSubscriptions field. Required access: `read_orders` access scope.', extensions: { code: 'ACCESS_DENIED', documentation: 'https://shopify.dev/api/usage/access-scopes', requiredAccess: '`read_orders` access scope.' } }],
      },
    });
    const err = (await client().request(SUBSCRIPTIONS_EDGES).catch((e: unknown) => e)) as ShopifyAdminError;
    expect(err.kind).toBe('auth');
    expect(err.message).toContain('read_orders');
  });

  it('other GraphQL errors: kind "graphql"', async () => {
    answers.push({ status: 200, body: { errors: [{ message: "Field 'nope' doesn't exist on type 'Shop'", locations: [{ line: 1, column: 16 }], path: ['query', 'shop', 'nope'], extensions: { code: 'undefinedField', typeName: 'Shop', fieldName: 'nope' } }] } });
    const err = (await client().request(SHOP).catch((e: unknown) => e)) as ShopifyAdminError;
    expect(err.kind).toBe('graphql');
    expect(err.message).toContain("Field 'nope' doesn't exist");
  });

  it('404 (unknown API version or shop): kind "http" naming what to check', async () => {
    answers.push({ status: 404, body: { errors: 'Not Found' } });
    const err = (await client().request(SHOP).catch((e: unknown) => e)) as ShopifyAdminError;
    expect(err).toMatchObject({ kind: 'http', status: 404 });
    expect(err.message).toContain('SHOPIFY_API_VERSION');
  });

  it('userErrors in a mutation payload (HTTP 200) are thrown as kind "user-errors"', async () => {
    answers.push({ status: 200, body: { data: { webhookSubscriptionCreate: { webhookSubscription: null, userErrors: [{ field: ['webhookSubscription', 'callbackUrl'], message: 'Address for this topic has already been taken' }] } }, extensions: cost(10, 1990) } });
    const data = await client().request<{ webhookSubscriptionCreate: { webhookSubscription: null; userErrors: Array<{ field: string[]; message: string }> } }>(CREATE, { topic: 'ORDERS_CREATE', sub: { uri: 'https://x', format: 'JSON' } });
    const err = (() => {
      try {
        userErrorsOf(data.webhookSubscriptionCreate, 'Shopify');
      } catch (e) {
        return e as ShopifyAdminError;
      }
    })();
    expect(err?.kind).toBe('user-errors');
    expect(err?.userErrors).toEqual([{ field: ['webhookSubscription', 'callbackUrl'], message: 'Address for this topic has already been taken' }]);
    expect(err?.message).toContain('Address for this topic has already been taken');
    expect(userErrorsOf({ userErrors: [], ok: 1 })).toEqual({ userErrors: [], ok: 1 });
  });

  it('a mutation whose connection drops is reported as possibly applied, not sent again', async () => {
    answers.push('drop', { status: 200, body: { data: {} } });
    const err = (await client().request(CREATE, { topic: 'ORDERS_CREATE', sub: { uri: 'https://x', format: 'JSON' } }).catch((e: unknown) => e)) as ShopifyAdminError;
    expect(err.kind).toBe('network');
    expect(err.mayHaveLanded).toBe(true);
    expect(err.message).toMatch(/may or may not have been made/);
    expect(seen).toHaveLength(1);
  });

  it('a query whose connection drops is asked again', async () => {
    answers.push('drop', { status: 200, body: { data: { shop: { name: 'Presswork Demo' } } } });
    expect(await client().request(SHOP)).toEqual({ shop: { name: 'Presswork Demo' } });
    expect(seen).toHaveLength(2);
  });

  it('no token in anything the client logs', async () => {
    const logged: unknown[] = [];
    const orig = { log: console.log, warn: console.warn, error: console.error, info: console.info };
    for (const k of ['log', 'warn', 'error', 'info'] as const) console[k] = (...args: unknown[]) => void logged.push(args);
    try {
      answers.push({ status: 401, body: { errors: 'bad' } });
      await shopifyAdmin({ ...settings(), apiVersion: '2019-01' }, { sleep: async () => undefined }).request(SHOP).catch(() => undefined);
    } finally {
      Object.assign(console, orig);
    }
    expect(JSON.stringify(logged)).not.toContain(TOKEN);
  });
});

describe('shopifyAdminSettingsOf', () => {
  const site = (env: Record<string, string>) => ({ settings: { env: Object.entries(env).map(([key, value]) => ({ key, value })) } });
  it('null without a token (never set, or cleared on uninstall)', () => {
    expect(shopifyAdminSettingsOf(site({ SHOPIFY_SHOP_DOMAIN: 'a.myshopify.com' }))).toBeNull();
    expect(shopifyAdminSettingsOf(site({ SHOPIFY_SHOP_DOMAIN: 'a.myshopify.com', SHOPIFY_ADMIN_TOKEN: '' }))).toBeNull();
  });
  it('the token, domain, version (default when unset or malformed) and override URL', () => {
    expect(shopifyAdminSettingsOf(site({ SHOPIFY_SHOP_DOMAIN: 'A.myshopify.com', SHOPIFY_ADMIN_TOKEN: 'shpat_x' }))).toEqual({ shopDomain: 'a.myshopify.com', accessToken: 'shpat_x', apiVersion: DEFAULT_SHOPIFY_API_VERSION, auth: 'static_token' });
    expect(shopifyAdminSettingsOf(site({ SHOPIFY_SHOP_DOMAIN: 'a.myshopify.com', SHOPIFY_ADMIN_TOKEN: 'shpat_x', SHOPIFY_API_VERSION: 'unstable', SHOPIFY_ADMIN_URL: 'http://127.0.0.1:9' }))).toEqual({
      shopDomain: 'a.myshopify.com',
      accessToken: 'shpat_x',
      apiVersion: 'unstable',
      adminUrl: 'http://127.0.0.1:9',
      auth: 'static_token',
    });
    expect(shopifyAdminSettingsOf(site({ SHOPIFY_SHOP_DOMAIN: 'a.myshopify.com', SHOPIFY_ADMIN_TOKEN: 'shpat_x', SHOPIFY_API_VERSION: 'latest' }))?.apiVersion).toBe(DEFAULT_SHOPIFY_API_VERSION);
  });
  it('an app connection: the Client ID and secret instead of a token; SHOPIFY_AUTH unset reads a static token first', () => {
    const app = { SHOPIFY_SHOP_DOMAIN: 'a.myshopify.com', SHOPIFY_CLIENT_ID: 'cid', SHOPIFY_CLIENT_SECRET: 'shpss_s' };
    expect(shopifyAdminSettingsOf(site(app))).toEqual({ shopDomain: 'a.myshopify.com', apiVersion: DEFAULT_SHOPIFY_API_VERSION, auth: 'client_credentials', clientId: 'cid', clientSecret: 'shpss_s' });
    expect(shopifyAdminSettingsOf(site({ ...app, SHOPIFY_AUTH: 'authorization_code' }))?.auth).toBe('authorization_code');
    expect(shopifyAdminSettingsOf(site({ ...app, SHOPIFY_CLIENT_SECRET: '' }))).toBeNull();
    // A store connected with a static token before app connections existed keeps it.
    expect(shopifyAdminSettingsOf(site({ ...app, SHOPIFY_ADMIN_TOKEN: 'shpat_x' }))).toMatchObject({ auth: 'static_token', accessToken: 'shpat_x' });
    expect(shopifyAdminSettingsOf(site({ ...app, SHOPIFY_ADMIN_TOKEN: 'shpat_x', SHOPIFY_AUTH: 'client_credentials' }))).toMatchObject({ auth: 'client_credentials', clientId: 'cid' });
    expect(shopifyAdminSettingsOf(site({ ...app, SHOPIFY_AUTH: 'static_token' }))).toBeNull();
  });
});

describe('an app connection\'s tokens (a token source instead of a static token)', () => {
  const INVALID = { status: 401, body: { errors: '[API] Invalid API key or access token (unrecognized login or wrong password)' } };
  const OK = { status: 200, body: { data: { shop: { name: 'Shop' } } } };
  const source = (tokens: string[]) => {
    const log: string[] = [];
    return {
      log,
      current: async () => (log.push('current'), tokens[0]),
      afterRefusal: async (refused: string) => (log.push(`refused ${refused}`), tokens.shift(), tokens[0]),
    };
  };
  const appClient = (tokens: ReturnType<typeof source>) => shopifyAdmin({ shopDomain: 'a.myshopify.com', apiVersion: '2026-07', adminUrl: baseUrl, auth: 'client_credentials', clientId: 'c', clientSecret: 's' }, { tokens, sleep: async () => undefined });

  it('a 401 asks for a fresh token once and sends the call again with it (a mutation too: it was refused before it ran)', async () => {
    const tokens = source(['t1', 't2']);
    answers.push(INVALID, { status: 200, body: { data: { webhookSubscriptionCreate: { webhookSubscription: null, userErrors: [] } } } });
    await appClient(tokens).request(CREATE, { topic: 'ORDERS_CREATE', sub: { uri: 'https://x.example/h' } });
    expect(seen.map((s) => s.headers['x-shopify-access-token'])).toEqual(['t1', 't2']);
    expect(tokens.log).toEqual(['current', 'refused t1']);
  });

  it('refused again with the fresh token: an error saying the app may have been uninstalled, and no third try', async () => {
    const tokens = source(['t1', 't2', 't3']);
    answers.push(INVALID, INVALID, OK);
    const err = (await appClient(tokens).request(SHOP).catch((e: unknown) => e)) as ShopifyAdminError;
    expect(err).toMatchObject({ kind: 'auth', status: 401 });
    expect(err.message).toBe('The store refused a freshly granted access token (401): the app may have been uninstalled from a.myshopify.com; reconnect it in Setup → Stores');
    expect(seen).toHaveLength(2);
  });

  it('the source\'s own refusal (needs reconnecting) is what the call fails with, and nothing is sent', async () => {
    const failing = { current: async () => Promise.reject(new ShopifyAdminError('auth', 'The store needs reconnecting: x.', { needsReconnect: true })), afterRefusal: async () => 'never' };
    const err = (await shopifyAdmin({ shopDomain: 'a.myshopify.com', apiVersion: '2026-07', adminUrl: baseUrl, auth: 'client_credentials' }, { tokens: failing }).request(SHOP).catch((e: unknown) => e)) as ShopifyAdminError;
    expect(err).toMatchObject({ kind: 'auth', needsReconnect: true, message: 'The store needs reconnecting: x.' });
    expect(seen).toHaveLength(0);
  });
});
