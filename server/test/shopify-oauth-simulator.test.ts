// The Shopify simulator's OAuth side, checked against shopify.dev's descriptions directly (plain
// HTTP, no Presswork client): the consent page and its redirect, the token endpoint's three grants
// with their documented answers, errors and lifetimes, refresh-token rotation with the previous
// token kept until its replacement is used, and the tokens the Admin API then takes.
import crypto from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createShopifyAdminSimulator, type ShopifyAdminSimulator } from '../simulators/shopifyAdmin';

const APP = { clientId: 'sim-client-id', clientSecret: 'shpss_sim_secret', name: 'Presswork', scopes: ['read_orders', 'write_merchant_managed_fulfillment_orders'] };

let sim: ShopifyAdminSimulator;
let base = '';
let now = Date.parse('2026-12-01T10:00:00Z');
beforeAll(async () => {
  sim = createShopifyAdminSimulator({ shopDomain: 'sim-shop.myshopify.com', shopName: 'Sim Shop', app: APP, now: () => now, accessToken: 'shpat_static' });
  base = await sim.start();
});
afterAll(() => sim.stop());

const token = (params: Record<string, string>, as: 'form' | 'json' | 'query' = 'form') => {
  const url = `${base}/admin/oauth/access_token${as === 'query' ? `?${new URLSearchParams(params)}` : ''}`;
  const init: RequestInit =
    as === 'json' ? { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify(params) } : as === 'form' ? { method: 'POST', headers: { 'Content-Type': 'application/x-www-form-urlencoded' }, body: new URLSearchParams(params).toString() } : { method: 'POST' };
  return fetch(url, init).then(async (r) => ({ status: r.status, body: (await r.json()) as Record<string, unknown> }));
};
const graphql = (accessToken: string) =>
  fetch(`${base}/admin/api/2026-07/graphql.json`, { method: 'POST', headers: { 'Content-Type': 'application/json', 'X-Shopify-Access-Token': accessToken }, body: JSON.stringify({ query: '{ shop { name } currentAppInstallation { accessScopes { handle } } }' }) }).then(async (r) => ({ status: r.status, body: (await r.json()) as { data?: { shop: { name: string }; currentAppInstallation: { accessScopes: Array<{ handle: string }> } } } }));
const creds = { client_id: APP.clientId, client_secret: APP.clientSecret };

describe('client credentials grant', () => {
  it('answers {access_token, scope, expires_in: 86399}, form, JSON or query alike; the token works for 24 hours', async () => {
    for (const as of ['form', 'json', 'query'] as const) {
      const r = await token({ ...creds, grant_type: 'client_credentials' }, as);
      expect(r.status, as).toBe(200);
      expect(Object.keys(r.body).sort()).toEqual(['access_token', 'expires_in', 'scope']);
      expect(r.body).toMatchObject({ scope: 'read_orders,write_merchant_managed_fulfillment_orders', expires_in: 86_399 });
    }
    const t = String((await token({ ...creds, grant_type: 'client_credentials' })).body.access_token);
    const ok = await graphql(t);
    expect(ok.body.data).toEqual({ shop: { name: 'Sim Shop' }, currentAppInstallation: { accessScopes: APP.scopes.map((handle) => ({ handle })) } });
    now += 86_399_000;
    expect((await graphql(t)).status).toBe(401);
  });

  it('refusals: a wrong secret (invalid_client), another organisation\'s app (shop_not_permitted), an unknown grant', async () => {
    expect(await token({ ...creds, client_secret: 'nope', grant_type: 'client_credentials' })).toMatchObject({ status: 400, body: { error: 'invalid_client' } });
    sim.oauth.setApp({ ...APP, sameOrganisation: false });
    expect(await token({ ...creds, grant_type: 'client_credentials' })).toMatchObject({ status: 400, body: { error: 'shop_not_permitted', error_description: 'Client credentials cannot be performed on this shop.' } });
    sim.oauth.setApp(APP);
    expect(await token({ ...creds, grant_type: 'password' })).toMatchObject({ status: 400, body: { error: 'unsupported_grant_type' } });
  });

  it('short lifetimes for tests', async () => {
    sim.oauth.setLifetimes({ clientCredentialsS: 60 });
    expect((await token({ ...creds, grant_type: 'client_credentials' })).body.expires_in).toBe(60);
    sim.oauth.setLifetimes({ clientCredentialsS: 86_399 });
  });
});

describe('authorization code grant (the OAuth install)', () => {
  let refreshToken = '';
  it('the consent page lists the scopes; Install redirects with code, hmac, host, shop, state, timestamp', async () => {
    const redirectUri = 'https://presswork.example/api/online-stores/shopify/callback';
    const page = await fetch(`${base}/admin/oauth/authorize?${new URLSearchParams({ client_id: APP.clientId, scope: 'read_orders', redirect_uri: redirectUri, state: 'st-1' })}`);
    expect(page.status).toBe(200);
    const html = await page.text();
    expect(html).toContain('Install Presswork');
    expect(html).toContain('write_merchant_managed_fulfillment_orders');
    const approved = await fetch(`${base}/admin/oauth/authorize/approve`, { method: 'POST', redirect: 'manual', headers: { 'Content-Type': 'application/x-www-form-urlencoded' }, body: new URLSearchParams({ client_id: APP.clientId, redirect_uri: redirectUri, state: 'st-1' }).toString() });
    expect(approved.status).toBe(302);
    const back = new URL(approved.headers.get('location')!);
    expect(`${back.origin}${back.pathname}`).toBe(redirectUri);
    const q = Object.fromEntries(back.searchParams);
    expect(Object.keys(q).sort()).toEqual(['code', 'hmac', 'host', 'shop', 'state', 'timestamp']);
    expect(q).toMatchObject({ shop: 'sim-shop.myshopify.com', state: 'st-1', timestamp: String(Math.trunc(now / 1000)) });
    // shopify.dev: hex HMAC-SHA256 of the other parameters, sorted, keyed with the client secret.
    const { hmac, ...rest } = q;
    const message = Object.keys(rest)
      .sort()
      .map((k) => `${k}=${rest[k]}`)
      .join('&');
    expect(hmac).toBe(crypto.createHmac('sha256', APP.clientSecret).update(message).digest('hex'));

    const r = await token({ ...creds, code: q.code, expiring: '1' });
    expect(r.status).toBe(200);
    expect(Object.keys(r.body).sort()).toEqual(['access_token', 'expires_in', 'refresh_token', 'refresh_token_expires_in', 'scope']);
    expect(r.body).toMatchObject({ expires_in: 3_599, refresh_token_expires_in: 7_775_999 });
    refreshToken = String(r.body.refresh_token);
    expect((await graphql(String(r.body.access_token))).status).toBe(200);
    // A code works once.
    expect(await token({ ...creds, code: q.code, expiring: '1' })).toMatchObject({ status: 400, body: { error: 'invalid_grant' } });
  });

  it('an unknown client or a redirect URL the app does not allow is an error page, not a redirect', async () => {
    const bad = await fetch(`${base}/admin/oauth/authorize?${new URLSearchParams({ client_id: 'other', redirect_uri: 'https://x.example/cb', state: 's' })}`);
    expect(bad.status).toBe(400);
    expect(await bad.text()).toContain('The client_id is not valid');
    sim.oauth.setApp({ ...APP, redirectUrls: ['https://allowed.example/cb'] });
    const notListed = await fetch(`${base}/admin/oauth/authorize?${new URLSearchParams({ client_id: APP.clientId, redirect_uri: 'https://x.example/cb', state: 's' })}`);
    expect(await notListed.text()).toContain('The redirect_uri is not whitelisted');
    sim.oauth.setApp(APP);
  });

  it('refresh: a new pair each time; the previous refresh token works until the new one is first used (a lost answer)', async () => {
    const first = await token({ ...creds, grant_type: 'refresh_token', refresh_token: refreshToken });
    expect(first.status).toBe(200);
    const b = String(first.body.refresh_token);
    // The answer was lost: the old one is asked again, and works.
    const retry = await token({ ...creds, grant_type: 'refresh_token', refresh_token: refreshToken });
    expect(retry.status).toBe(200);
    const c = String(retry.body.refresh_token);
    // c is now the live successor: using it retires the original (and b was retired by the retry).
    expect((await token({ ...creds, grant_type: 'refresh_token', refresh_token: c })).status).toBe(200);
    expect(await token({ ...creds, grant_type: 'refresh_token', refresh_token: refreshToken })).toMatchObject({ status: 400, body: { error: 'invalid_grant' } });
    expect((await token({ ...creds, grant_type: 'refresh_token', refresh_token: b })).status).toBe(400);
  });

  it('an expired refresh token, an uninstalled app: invalid_grant; the static token of a legacy app still works', async () => {
    const code = new URL(sim.oauth.approve({ clientId: APP.clientId, redirectUri: 'https://p.example/cb', state: 's' })).searchParams.get('code')!;
    const pair = (await token({ ...creds, code, expiring: '1' })).body;
    now += 7_775_999_000;
    expect(await token({ ...creds, grant_type: 'refresh_token', refresh_token: String(pair.refresh_token) })).toMatchObject({ status: 400, body: { error: 'invalid_grant', error_description: 'The refresh token has expired.' } });
    const code2 = new URL(sim.oauth.approve({ clientId: APP.clientId, redirectUri: 'https://p.example/cb', state: 's' })).searchParams.get('code')!;
    const live = (await token({ ...creds, code: code2, expiring: '1' })).body;
    sim.oauth.uninstall();
    expect((await graphql(String(live.access_token))).status).toBe(401);
    expect((await token({ ...creds, grant_type: 'refresh_token', refresh_token: String(live.refresh_token) })).status).toBe(400);
    expect((await graphql('shpat_static')).status).toBe(200);
    sim.oauth.setApp(APP);
  });

  it('Rotate secret: the new secret works; the old one until it is revoked; the token answer can be dropped', async () => {
    const { previous, current } = sim.oauth.rotateSecret('shpss_rotated');
    expect(previous).toBe(APP.clientSecret);
    expect((await token({ ...creds, client_secret: current, grant_type: 'client_credentials' })).status).toBe(200);
    expect((await token({ ...creds, grant_type: 'client_credentials' })).status).toBe(200);
    sim.oauth.revokePreviousSecret();
    expect((await token({ ...creds, grant_type: 'client_credentials' })).status).toBe(400);
    sim.oauth.failNextTokenRequest('before', 503);
    await expect(token({ ...creds, client_secret: current, grant_type: 'client_credentials' })).rejects.toThrow();
    expect((await token({ ...creds, client_secret: current, grant_type: 'client_credentials' })).status).toBe(503);
    sim.oauth.setApp(APP);
  });
});
