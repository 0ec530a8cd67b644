// Connecting a store through a Dev Dashboard app, end to end through the API, against two stores:
// the Shopify simulator (server/simulators/shopifyOAuth.ts) and a fake written only from
// shopify.dev (shopifyDocsFake.ts). Each grant; renewal before expiry and after a 401; a refresh
// whose answer was lost; a grant Shopify refuses making the store "Needs reconnecting" and every
// call fail fast; the OAuth install's callback and each way a callback is refused.
import crypto from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createShopifyAdminSimulator } from '../simulators/shopifyAdmin';
import { storeTokensRepo } from '../src/modules/orders/storeTokensRepo';
import { bearer, createWorld, type TestWorld } from './harness';
import { SHOP_A, SHOP_B, setSiteEnv } from './ordersKit';
import { startDocsFake } from './shopifyDocsFake';

const CLIENT_ID = 'a1b2c3d4e5f60718293a4b5c6d7e8f90';
const CLIENT_SECRET = 'shpss_0123456789abcdef0123456789abcdef';
const SCOPES = 'read_orders,write_merchant_managed_fulfillment_orders';

/** What a test needs of a store: its address, how many token requests it had, and the callback Shopify would send. */
interface StoreUnderTest {
  url: string;
  tokenRequests(): number;
  /** The query Shopify puts on the redirect after the merchant approved. */
  approve(state: string, redirectUri: string): Record<string, string>;
  revokeAccessTokens(): void;
  dropNextTokenAnswer(): void;
  stop(): Promise<void>;
}

async function simulatorStore(w: TestWorld, o: { sameOrganisation?: boolean; scopes?: string[] } = {}): Promise<StoreUnderTest> {
  const sim = createShopifyAdminSimulator({
    shopDomain: SHOP_A,
    shopName: 'Site A Shop',
    app: { clientId: CLIENT_ID, clientSecret: CLIENT_SECRET, name: 'Presswork', scopes: o.scopes ?? SCOPES.split(','), sameOrganisation: o.sameOrganisation },
    now: () => w.clock.now().getTime(),
  });
  const url = await sim.start();
  return {
    url,
    tokenRequests: () => sim.oauth.tokenRequests().length,
    approve: (state, redirectUri) => Object.fromEntries(new URL(sim.oauth.approve({ clientId: CLIENT_ID, redirectUri, state })).searchParams),
    revokeAccessTokens: () => sim.oauth.revokeAccessTokens(),
    dropNextTokenAnswer: () => sim.oauth.failNextTokenRequest('after'),
    stop: () => sim.stop(),
  };
}

async function docsStore(w: TestWorld, o: { sameOrganisation?: boolean; scopes?: string[] } = {}): Promise<StoreUnderTest> {
  const fake = await startDocsFake({ clientId: CLIENT_ID, clientSecret: CLIENT_SECRET, shopName: 'Site A Shop', scope: (o.scopes ?? SCOPES.split(',')).join(','), now: () => w.clock.now().getTime(), otherOrganisation: o.sameOrganisation === false });
  return {
    url: fake.url,
    tokenRequests: () => fake.tokenCalls.length,
    approve: (state) => fake.callbackQuery(SHOP_A, state, Math.trunc(w.clock.now().getTime() / 1000)),
    revokeAccessTokens: () => fake.revokeAccessTokens(),
    dropNextTokenAnswer: () => fake.dropNextTokenAnswer(),
    stop: () => fake.stop(),
  };
}

const STORES = [
  ['the Shopify simulator', simulatorStore],
  ['a store written from shopify.dev', docsStore],
] as const;

describe.each(STORES)('a store connected through an app: %s', async (_name, makeStore) => {
  const w = await createWorld({ PUBLIC_URL: 'https://presswork.example.com', JWT_EXPIRES_IN: '3650d' });
  let store: StoreUnderTest;
  beforeAll(async () => {
    store = await makeStore(w);
    await setSiteEnv(w, w.sites.a, { SHOPIFY_SHOP_DOMAIN: SHOP_A, SHOPIFY_ADMIN_URL: store.url, SHOPIFY_AUTH: 'client_credentials', SHOPIFY_CLIENT_ID: CLIENT_ID, SHOPIFY_CLIENT_SECRET: CLIENT_SECRET });
  });
  afterAll(() => store.stop());
  const post = (path: string, body: object, token = w.tokens.adminA) => w.request().post(`/api/online-stores/${path}`).set(bearer(token)).send(body);
  const connection = async () => (await w.request().get('/api/online-stores/connection?site=site-a').set(bearer(w.tokens.adminA))).body.data;
  const held = () => storeTokensRepo(w.db).of(w.sites.a);
  const minutes = (n: number) => n * 60_000;

  describe('client credentials', () => {
    it('Connect gets a token for 24 hours and shows the shop, its scopes and when the token ends', async () => {
      const res = await post('connect', { site: 'site-a' });
      expect(res.status, JSON.stringify(res.body)).toBe(200);
      expect(res.body.data).toEqual({ shopName: 'Site A Shop', scopes: SCOPES.split(','), missingScopes: [], expiresAt: new Date(w.clock.now().getTime() + 86_399_000).toISOString() });
      expect(await connection()).toMatchObject({ auth: 'client_credentials', connected: true, shopName: 'Site A Shop', needsReconnect: false, reason: null, expiresAt: res.body.data.expiresAt });
      const before = store.tokenRequests();
      expect((await post('check-connection', { site: 'site-a' })).body.data).toEqual({ shopName: 'Site A Shop' });
      // The token in hand is used: no new grant.
      expect(store.tokenRequests()).toBe(before);
    });

    it('is renewed before its 24 hours end (5 minutes before)', async () => {
      const first = (await held())!.accessToken;
      w.clock.advance(86_399_000 - minutes(6));
      await post('check-connection', { site: 'site-a' });
      expect((await held())!.accessToken).toBe(first);
      const before = store.tokenRequests();
      w.clock.advance(minutes(2));
      const res = await post('check-connection', { site: 'site-a' });
      expect(res.status, JSON.stringify(res.body)).toBe(200);
      expect(store.tokenRequests()).toBe(before + 1);
      const renewed = (await held())!;
      expect(renewed.accessToken).not.toBe(first);
      expect(renewed.accessExpiresAt).toBe(new Date(w.clock.now().getTime() + 86_399_000).toISOString());
    });

    it('is renewed at once after the store refuses it (401), and the call goes through', async () => {
      const before = store.tokenRequests();
      const old = (await held())!.accessToken;
      store.revokeAccessTokens();
      const res = await post('check-connection', { site: 'site-a' });
      expect(res.status, JSON.stringify(res.body)).toBe(200);
      expect(res.body.data.shopName).toBe('Site A Shop');
      expect(store.tokenRequests()).toBe(before + 1);
      expect((await held())!.accessToken).not.toBe(old);
    });

    it('Register webhooks works with it', async () => {
      if (_name !== 'the Shopify simulator') return;
      const res = await post('register-webhooks', { site: 'site-a' });
      expect(res.status, JSON.stringify(res.body)).toBe(200);
      expect(res.body.data.subscriptions.filter((s: { action: string }) => s.action === 'created')).toHaveLength(7);
    });

    it('a secret Shopify refuses: Needs reconnecting with Shopify\'s reason, then every call fails at once without asking Shopify', async () => {
      await setSiteEnv(w, w.sites.a, { SHOPIFY_CLIENT_SECRET: 'shpss_wrong' });
      const refused = await post('connect', { site: 'site-a' });
      expect(refused.status).toBe(422);
      expect(refused.body.error).toMatch(/^Shopify refused the app’s Client ID or secret for site-a-shop\.myshopify\.com \(invalid_client/);
      expect(JSON.stringify(refused.body)).not.toContain('shpss_wrong');
      const state = await connection();
      expect(state).toMatchObject({ connected: false, needsReconnect: true, reason: refused.body.error });
      const before = store.tokenRequests();
      for (let i = 0; i < 3; i++) {
        const res = await post('check-connection', { site: 'site-a' });
        expect(res.status).toBe(409);
        expect(res.body.error).toBe(`The store needs reconnecting: ${refused.body.error} An admin reconnects it in Setup → Stores.`);
      }
      // Sync from store fails with the same sentence and asks nothing either.
      const sync = await post('reconcile', { site: 'site-a' });
      expect(sync.body.error).toContain('The store needs reconnecting');
      expect(store.tokenRequests()).toBe(before);
      // Fixed and connected again: healthy.
      await setSiteEnv(w, w.sites.a, { SHOPIFY_CLIENT_SECRET: CLIENT_SECRET });
      expect((await post('connect', { site: 'site-a' })).status).toBe(200);
      expect(await connection()).toMatchObject({ connected: true, needsReconnect: false, reason: null });
    });

    it('an app of another organisation: shop_not_permitted, said in a sentence that points to the OAuth install', async () => {
      const other = await makeStore(w, { sameOrganisation: false });
      try {
        await setSiteEnv(w, w.sites.a, { SHOPIFY_ADMIN_URL: other.url });
        const res = await post('connect', { site: 'site-a' });
        expect(res.status).toBe(422);
        expect(res.body.error).toMatch(/\(shop_not_permitted.*\): the app belongs to another organisation than the store\. Install it on the store with OAuth instead\.$/);
      } finally {
        await other.stop();
        await setSiteEnv(w, w.sites.a, { SHOPIFY_ADMIN_URL: store.url });
      }
    });

    it('a missing scope is named with what it stops', async () => {
      const narrow = await makeStore(w, { scopes: ['read_orders'] });
      try {
        await setSiteEnv(w, w.sites.a, { SHOPIFY_ADMIN_URL: narrow.url });
        const res = await post('connect', { site: 'site-a' });
        expect(res.status, JSON.stringify(res.body)).toBe(200);
        expect(res.body.data.missingScopes).toEqual(['write_merchant_managed_fulfillment_orders']);
        expect((await connection()).missingScopes).toEqual(['write_merchant_managed_fulfillment_orders']);
      } finally {
        await narrow.stop();
        await setSiteEnv(w, w.sites.a, { SHOPIFY_ADMIN_URL: store.url });
        await post('connect', { site: 'site-a' });
      }
    });
  });

  describe('the OAuth install (authorization code, expiring offline token)', () => {
    let callbackQuery: Record<string, string>;
    it('Install on Shopify sends the browser to the consent screen with a state for this site', async () => {
      await setSiteEnv(w, w.sites.a, { SHOPIFY_AUTH: 'authorization_code' });
      const res = await w.request().get('/api/online-stores/shopify/install?site=site-a').set(bearer(w.tokens.adminA));
      expect(res.status).toBe(302);
      const url = new URL(res.headers.location);
      expect(`${url.origin}${url.pathname}`).toBe(`${store.url}/admin/oauth/authorize`);
      expect(url.searchParams.get('client_id')).toBe(CLIENT_ID);
      expect(url.searchParams.get('scope')).toBe(SCOPES);
      expect(url.searchParams.get('redirect_uri')).toBe('https://presswork.example.com/api/online-stores/shopify/callback');
      expect(url.searchParams.get('state')).toMatch(/^[A-Za-z0-9_-]{43}$/);
      callbackQuery = store.approve(url.searchParams.get('state')!, url.searchParams.get('redirect_uri')!);
    });

    it('the callback exchanges the code: connected, with an hour\'s token and a refresh token', async () => {
      const res = await w.request().get('/api/online-stores/shopify/callback').query(callbackQuery);
      expect(res.status).toBe(302);
      const back = new URL(res.headers.location, 'https://presswork.example.com');
      expect(back.pathname).toBe(`/stores/${w.sites.a}`);
      expect(back.searchParams.get('shopify')).toBe('connected');
      expect(back.searchParams.get('message')).toBe('Connected to Site A Shop (site-a-shop.myshopify.com): the app is installed and its token renews itself.');
      const t = (await held())!;
      expect(t).toMatchObject({ auth: 'authorization_code', clientId: CLIENT_ID, shopDomain: SHOP_A, needsReconnect: false, connectedBy: w.users.adminA });
      expect(t.refreshToken).toBeTruthy();
      expect(t.accessExpiresAt).toBe(new Date(w.clock.now().getTime() + 3_599_000).toISOString());
      expect(await connection()).toMatchObject({ auth: 'authorization_code', connected: true, shopName: 'Site A Shop', expiresAt: t.accessExpiresAt });
    });

    it('the same callback again is refused (the state is single use) and changes nothing', async () => {
      const before = await held();
      const requests = store.tokenRequests();
      const res = await w.request().get('/api/online-stores/shopify/callback').query(callbackQuery);
      const back = new URL(res.headers.location, 'https://presswork.example.com');
      expect(back.searchParams.get('shopify')).toBe('refused');
      expect(back.searchParams.get('message')).toBe('This install link was already used: nothing was changed. Click Install on Shopify again.');
      expect(await held()).toEqual(before);
      expect(store.tokenRequests()).toBe(requests);
    });

    it('is refreshed before its hour ends: a new pair stored together', async () => {
      const first = (await held())!;
      w.clock.advance(3_599_000 - minutes(5));
      const before = store.tokenRequests();
      const res = await post('check-connection', { site: 'site-a' });
      expect(res.status, JSON.stringify(res.body)).toBe(200);
      expect(store.tokenRequests()).toBe(before + 1);
      const next = (await held())!;
      expect(next.accessToken).not.toBe(first.accessToken);
      expect(next.refreshToken).not.toBe(first.refreshToken);
      expect(next.accessExpiresAt).toBe(new Date(w.clock.now().getTime() + 3_599_000).toISOString());
    });

    it('after a 401 the refresh happens at once', async () => {
      const before = store.tokenRequests();
      store.revokeAccessTokens();
      expect((await post('check-connection', { site: 'site-a' })).status).toBe(200);
      expect(store.tokenRequests()).toBe(before + 1);
    });

    it('a refresh whose answer was lost does not lock the store out: the held refresh token works again', async () => {
      const held1 = (await held())!;
      w.clock.advance(3_599_000);
      store.dropNextTokenAnswer();
      const lost = await post('check-connection', { site: 'site-a' });
      expect(lost.status).toBe(502);
      expect(lost.body.error).toMatch(/did not answer/);
      // Nothing was lost on our side: the same pair is held and the store is not marked.
      expect(await held()).toMatchObject({ refreshToken: held1.refreshToken, needsReconnect: false });
      const again = await post('check-connection', { site: 'site-a' });
      expect(again.status, JSON.stringify(again.body)).toBe(200);
      const held2 = (await held())!;
      expect(held2.refreshToken).not.toBe(held1.refreshToken);
      // And the pair it got keeps working.
      w.clock.advance(3_599_000);
      expect((await post('check-connection', { site: 'site-a' })).status).toBe(200);
      expect((await held())!.refreshToken).not.toBe(held2.refreshToken);
    });

    it('Connect refreshes the installed pair; without an install it says to install first', async () => {
      const res = await post('connect', { site: 'site-a' });
      expect(res.status, JSON.stringify(res.body)).toBe(200);
      expect(res.body.data.expiresAt).toBe(new Date(w.clock.now().getTime() + 3_599_000).toISOString());
      await setSiteEnv(w, w.sites.a, { SHOPIFY_CLIENT_ID: 'another-app' });
      const none = await post('connect', { site: 'site-a' });
      expect(none.status).toBe(409);
      expect(none.body.error).toBe("The app is not installed on site-a-shop.myshopify.com yet: click Install on Shopify (it opens Shopify's consent screen).");
      expect((await connection()).connected).toBe(false);
      await setSiteEnv(w, w.sites.a, { SHOPIFY_CLIENT_ID: CLIENT_ID });
    });
  });
});

describe('refused OAuth callbacks change nothing', async () => {
  const w = await createWorld({ PUBLIC_URL: 'https://presswork.example.com', JWT_EXPIRES_IN: '3650d' });
  let fake: Awaited<ReturnType<typeof startDocsFake>>;
  beforeAll(async () => {
    fake = await startDocsFake({ clientId: CLIENT_ID, clientSecret: CLIENT_SECRET, shopName: 'Shop', scope: SCOPES, now: () => w.clock.now().getTime() });
    const app = { SHOPIFY_ADMIN_URL: fake.url, SHOPIFY_AUTH: 'authorization_code', SHOPIFY_CLIENT_ID: CLIENT_ID, SHOPIFY_CLIENT_SECRET: CLIENT_SECRET };
    await setSiteEnv(w, w.sites.a, { ...app, SHOPIFY_SHOP_DOMAIN: SHOP_A });
    // Site B: the same agency app, installed on its own store.
    await setSiteEnv(w, w.sites.b, { ...app, SHOPIFY_SHOP_DOMAIN: SHOP_B });
  });
  afterAll(() => fake.stop());

  const startInstall = async (slug = 'site-a') => {
    const res = await w.request().post('/api/online-stores/shopify/install-url').set(bearer(w.tokens.adminA)).send({ site: slug });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    return new URL(res.body.data.url).searchParams.get('state')!;
  };
  const now = () => Math.trunc(w.clock.now().getTime() / 1000);
  const callback = async (query: Record<string, string>) => {
    const res = await w.request().get('/api/online-stores/shopify/callback').query(query);
    expect(res.status).toBe(302);
    const back = new URL(res.headers.location, 'https://presswork.example.com');
    return { path: back.pathname, outcome: back.searchParams.get('shopify'), message: back.searchParams.get('message') };
  };
  const nothingChanged = async () => {
    expect(Number(((await w.db('store_app_tokens').count({ n: '*' }).first()) as { n: number | string }).n)).toBe(0);
    expect(fake.tokenCalls).toHaveLength(0);
  };

  it('a bad HMAC', async () => {
    const q = fake.callbackQuery(SHOP_A, await startInstall(), now());
    const out = await callback({ ...q, hmac: crypto.createHmac('sha256', 'not-the-secret').update('x').digest('hex') });
    expect(out).toEqual({ path: `/stores/${w.sites.a}`, outcome: 'refused', message: 'Shopify’s answer is not signed with this app’s client secret (the HMAC does not match): nothing was changed. Check the Client secret, then click Install on Shopify again.' });
    // A parameter changed after Shopify signed it is the same failure.
    expect((await callback({ ...q, code: 'forged' })).outcome).toBe('refused');
    await nothingChanged();
  });

  it('a state that is not ours, or none', async () => {
    const q = fake.callbackQuery(SHOP_A, 'made-up-state', now());
    expect(await callback(q)).toEqual({ path: '/stores', outcome: 'refused', message: 'This install link is not one of ours (unknown state): nothing was changed. Click Install on Shopify again.' });
    const { state: _s, ...withoutState } = fake.callbackQuery(SHOP_A, 'x', now());
    void _s;
    expect((await callback(withoutState)).message).toBe('Shopify came back without state: nothing was changed. Click Install on Shopify again.');
    await nothingChanged();
  });

  it('a stale timestamp (more than 90 seconds)', async () => {
    const q = fake.callbackQuery(SHOP_A, await startInstall(), now() - 91);
    expect((await callback(q)).message).toBe('Shopify’s answer is too old (its timestamp is more than 90 seconds from now): nothing was changed. Click Install on Shopify again.');
    await nothingChanged();
  });

  it('the state of another site (site A\'s link, site B\'s store)', async () => {
    const q = fake.callbackQuery(SHOP_B, await startInstall('site-a'), now());
    expect((await callback(q)).message).toBe(`This install link was made for Site A, but Shopify came back from ${SHOP_B}, the store of Site B: nothing was changed.`);
    await nothingChanged();
  });

  it('another shop (no site\'s store)', async () => {
    const q = fake.callbackQuery('someone-else.myshopify.com', await startInstall(), now());
    expect((await callback(q)).message).toBe(`Shopify came back from someone-else.myshopify.com, not from this site’s store (${SHOP_A}): nothing was changed. Install the app on ${SHOP_A}.`);
    expect((await callback({ ...fake.callbackQuery('evil.example', await startInstall(), now()) })).message).toMatch(/which is not a Shopify store: nothing was changed/);
    await nothingChanged();
  });

  it('a replayed state (already used) and an expired one', async () => {
    const state = await startInstall();
    const ok = await callback(fake.callbackQuery(SHOP_A, state, now()));
    expect(ok.outcome).toBe('connected');
    const calls = fake.tokenCalls.length;
    const tokens = await storeTokensRepo(w.db).of(w.sites.a);
    expect((await callback(fake.callbackQuery(SHOP_A, state, now()))).message).toBe('This install link was already used: nothing was changed. Click Install on Shopify again.');
    expect(fake.tokenCalls.length).toBe(calls);
    expect(await storeTokensRepo(w.db).of(w.sites.a)).toEqual(tokens);
    const late = await startInstall();
    w.clock.advance(11 * 60_000);
    expect((await callback(fake.callbackQuery(SHOP_A, late, now()))).message).toBe('This install link expired (10 minutes): nothing was changed. Click Install on Shopify again.');
    expect(fake.tokenCalls.length).toBe(calls);
  });

  it('Install on Shopify: admins only, an install-kind store only', async () => {
    expect((await w.request().post('/api/online-stores/shopify/install-url').set(bearer(w.tokens.userA)).send({ site: 'site-a' })).status).toBe(403);
    expect((await w.request().get('/api/online-stores/shopify/install?site=site-a')).status).toBe(401);
    await setSiteEnv(w, w.sites.b, { SHOPIFY_AUTH: 'client_credentials' });
    const wrongKind = await w.request().post('/api/online-stores/shopify/install-url').set(bearer(w.tokens.adminA)).send({ site: 'site-b' });
    expect(wrongKind.status).toBe(409);
    expect(wrongKind.body.error).toMatch(/choose “Install an app on the store \(OAuth\)” and save first/);
  });
});

describe('the settings of a store connection', async () => {
  const w = await createWorld();
  it('SHOPIFY_AUTH must name a way of connecting; the client secret never comes back from the Sites screen', async () => {
    const save = (env: Array<{ key: string; value: string }>) => w.request().post('/api/sites').set(bearer(w.tokens.adminA)).send({ name: 'Shop Site', slug: 'shop-site', settings: { env } });
    const bad = await save([{ key: 'SHOPIFY_AUTH', value: 'oauth' }]);
    expect(bad.status).toBe(400);
    expect(bad.body).toMatchObject({ field: 'settings.env', error: expect.stringContaining('SHOPIFY_AUTH must be one of client_credentials, authorization_code, static_token (it is "oauth")') });
    const ok = await save([
      { key: 'SHOPIFY_AUTH', value: 'authorization_code' },
      { key: 'SHOPIFY_CLIENT_ID', value: 'cid' },
      { key: 'SHOPIFY_CLIENT_SECRET', value: CLIENT_SECRET },
    ]);
    expect(ok.status, JSON.stringify(ok.body)).toBe(200);
    expect(JSON.stringify(ok.body)).not.toContain(CLIENT_SECRET);
    expect(ok.body.data.settings.env).toContainEqual({ key: 'SHOPIFY_CLIENT_SECRET', value: '********' });
    expect(ok.body.data.settings.env).toContainEqual({ key: 'SHOPIFY_CLIENT_ID', value: 'cid' });
  });
});
