// The token endpoint client and the OAuth callback's checks, against Shopify's own published
// examples: the callback HMAC vectors of Shopify's OAuth documentation (secret "hush"), and the
// token answers of shopify.dev's grant pages served by a fake written only from those pages.
import crypto from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ShopifyGrantError, authorizeUrl, freshTimestamp, isShopDomain, oauthMessage, oauthMessageAsDocumented, shopifyOAuth, verifyOAuthHmac } from '../src/integrations/shopifyOAuth';
import { startDocsFake, type DocsFake } from './shopifyDocsFake';

describe('the OAuth callback HMAC (Shopify\'s documented examples)', () => {
  // shopify.dev (OAuth, "Verification"): secret "hush".
  const withState = { code: '0907a61c0c8d55e99db179b68161bc00', hmac: '700e2dadb827fcc8609e9d5ce208b2e9cdaab9df07390d2cbca10d7c328fc4bf', shop: 'some-shop.myshopify.com', state: '0.6784241404160823', timestamp: '1337178173' };
  const withoutState = { code: '0907a61c0c8d55e99db179b68161bc00', hmac: '4712bf92ffc2917d15a2f5a273e39f0116667419aa4b6ac0b3baaf26fa3c4d20', shop: 'some-shop.myshopify.com', timestamp: '1337178173' };

  it('accepts both published examples with their secret', () => {
    expect(verifyOAuthHmac(withState, ['hush'])).toBe(true);
    expect(verifyOAuthHmac(withoutState, ['hush'])).toBe(true);
  });

  it('the message is the other parameters sorted, joined k=v&…', () => {
    expect(oauthMessage(withState)).toBe('code=0907a61c0c8d55e99db179b68161bc00&shop=some-shop.myshopify.com&state=0.6784241404160823&timestamp=1337178173');
    // Spaces are %20, not + (Shopify's library's own case).
    expect(oauthMessage({ custom: 'hello world', shop: 'myshop.myshopify.com', timestamp: '1' })).toBe('custom=hello%20world&shop=myshop.myshopify.com&timestamp=1');
  });

  it('refuses another secret, a changed parameter, an added one, a missing or malformed hmac', () => {
    expect(verifyOAuthHmac(withState, ['hush2'])).toBe(false);
    expect(verifyOAuthHmac({ ...withState, shop: 'other-shop.myshopify.com' }, ['hush'])).toBe(false);
    expect(verifyOAuthHmac({ ...withState, extra: 'x' }, ['hush'])).toBe(false);
    expect(verifyOAuthHmac({ ...withState, hmac: '' }, ['hush'])).toBe(false);
    expect(verifyOAuthHmac({ ...withState, hmac: withState.hmac.slice(0, 60) }, ['hush'])).toBe(false);
    expect(verifyOAuthHmac(withState, [undefined, ''])).toBe(false);
  });

  it('any of several secrets (a rotation): the old one still verifies, upper-case hex too', () => {
    expect(verifyOAuthHmac(withState, ['new-secret', 'hush'])).toBe(true);
    expect(verifyOAuthHmac({ ...withState, hmac: withState.hmac.toUpperCase() }, ['hush'])).toBe(true);
  });

  it('a padded base64 host: signed URL-encoded (Shopify\'s library) or as first documented, both verify', () => {
    const q = { code: 'c', host: 'YWRtaW4uc2hvcGlmeS5jb20vc3RvcmUvYQ==', shop: 'a.myshopify.com', state: 's', timestamp: '1' };
    const sign = (m: string) => crypto.createHmac('sha256', 'k').update(m).digest('hex');
    expect(oauthMessage(q)).toContain('host=YWRtaW4uc2hvcGlmeS5jb20vc3RvcmUvYQ%3D%3D');
    expect(oauthMessageAsDocumented(q)).toContain('host=YWRtaW4uc2hvcGlmeS5jb20vc3RvcmUvYQ==');
    expect(verifyOAuthHmac({ ...q, hmac: sign(oauthMessage(q)) }, ['k'])).toBe(true);
    expect(verifyOAuthHmac({ ...q, hmac: sign(oauthMessageAsDocumented(q)) }, ['k'])).toBe(true);
  });

  it('the timestamp must be within 90 seconds of now', () => {
    const now = new Date('2026-12-01T10:00:00Z');
    const s = Math.trunc(now.getTime() / 1000);
    expect(freshTimestamp(String(s - 90), now)).toBe(true);
    expect(freshTimestamp(String(s + 90), now)).toBe(true);
    expect(freshTimestamp(String(s - 91), now)).toBe(false);
    expect(freshTimestamp(String(s + 91), now)).toBe(false);
    expect(freshTimestamp('abc', now)).toBe(false);
    expect(freshTimestamp(undefined, now)).toBe(false);
  });

  it('a shop is a *.myshopify.com name', () => {
    expect(isShopDomain('some-shop.myshopify.com')).toBe(true);
    expect(isShopDomain('some-shop.myshopify.com.evil.example')).toBe(false);
    expect(isShopDomain('evil.example/some-shop.myshopify.com')).toBe(false);
    expect(isShopDomain('-shop.myshopify.com')).toBe(false);
  });

  it('the authorize URL carries client_id, scope, redirect_uri and state', () => {
    const url = new URL(authorizeUrl({ shopDomain: 'a.myshopify.com', clientId: 'cid', scopes: ['read_orders', 'write_merchant_managed_fulfillment_orders'], redirectUri: 'https://p.example/cb', state: 'st' }));
    expect(`${url.origin}${url.pathname}`).toBe('https://a.myshopify.com/admin/oauth/authorize');
    expect(Object.fromEntries(url.searchParams)).toEqual({ client_id: 'cid', scope: 'read_orders,write_merchant_managed_fulfillment_orders', redirect_uri: 'https://p.example/cb', state: 'st' });
  });
});

describe('the token endpoint client against a store written from shopify.dev', () => {
  let fake: DocsFake;
  const now = Date.parse('2026-12-01T10:00:00Z');
  const creds = () => ({ shopDomain: 'a.myshopify.com', adminUrl: fake.url, clientId: 'cid', clientSecret: 'shpss_secret' });
  beforeAll(async () => {
    fake = await startDocsFake({ clientId: 'cid', clientSecret: 'shpss_secret', shopName: 'A', scope: 'read_orders,write_merchant_managed_fulfillment_orders', now: () => now });
  });
  afterAll(() => fake.stop());
  const client = () => shopifyOAuth(creds(), { now: () => new Date(now) });

  it('client credentials: form-encoded, a token for 24 hours, no refresh token', async () => {
    const g = await client().clientCredentials();
    expect(fake.tokenCalls.at(-1)).toEqual({ params: { client_id: 'cid', client_secret: 'shpss_secret', grant_type: 'client_credentials' }, contentType: 'application/x-www-form-urlencoded' });
    expect(g).toMatchObject({ scopes: ['read_orders', 'write_merchant_managed_fulfillment_orders'], refreshToken: null, refreshExpiresAt: null, issuedAt: new Date(now).toISOString() });
    expect(Date.parse(g.accessExpiresAt!) - now).toBe(86_399_000);
  });

  it('authorization code: expiring=1 gives an hour\'s token and a 90-day refresh token; refresh gives a new pair', async () => {
    const code = fake.issueCode();
    const g = await client().exchangeCode(code);
    expect(fake.tokenCalls.at(-1)!.params).toEqual({ client_id: 'cid', client_secret: 'shpss_secret', code, expiring: '1' });
    expect(Date.parse(g.accessExpiresAt!) - now).toBe(3_599_000);
    expect(Date.parse(g.refreshExpiresAt!) - now).toBe(7_775_999_000);
    const r = await client().refresh(g.refreshToken!);
    expect(fake.tokenCalls.at(-1)!.params).toEqual({ client_id: 'cid', client_secret: 'shpss_secret', grant_type: 'refresh_token', refresh_token: g.refreshToken });
    expect(r.refreshToken).not.toBe(g.refreshToken);
    expect(r.accessToken).not.toBe(g.accessToken);
    // The code works once.
    await expect(client().exchangeCode(code)).rejects.toMatchObject({ kind: 'refused', code: 'invalid_grant' });
  });

  it('refusals are sentences naming Shopify\'s code; the secret never appears', async () => {
    const wrong = shopifyOAuth({ ...creds(), clientSecret: 'shpss_wrong' }, { now: () => new Date(now) });
    const err = (await wrong.clientCredentials().catch((e: unknown) => e)) as ShopifyGrantError;
    expect(err).toBeInstanceOf(ShopifyGrantError);
    expect(err).toMatchObject({ kind: 'refused', code: 'invalid_client', status: 400 });
    expect(err.message).toMatch(/^Shopify refused the app’s Client ID or secret for a\.myshopify\.com \(invalid_client: Client authentication failed\)/);
    expect(err.message).not.toContain('shpss_wrong');
    const refresh = (await client().refresh('not-a-token').catch((e: unknown) => e)) as ShopifyGrantError;
    expect(refresh.message).toMatch(/refused the refresh token .*invalid_grant.*install the app on the store again/);
  });

  it('no answer, or Shopify\'s side failing, is "unavailable" (asked again later), not a refusal', async () => {
    const down = shopifyOAuth({ ...creds(), adminUrl: 'http://127.0.0.1:1' }, { now: () => new Date(now) });
    await expect(down.clientCredentials()).rejects.toMatchObject({ kind: 'unavailable' });
    fake.dropNextTokenAnswer();
    await expect(client().clientCredentials()).rejects.toMatchObject({ kind: 'unavailable' });
  });

  it('shop_not_permitted: the app is another organisation\'s — install it with OAuth instead', async () => {
    const other = await startDocsFake({ clientId: 'cid', clientSecret: 's', shopName: 'B', scope: 'read_orders', now: () => now, otherOrganisation: true });
    try {
      const err = (await shopifyOAuth({ shopDomain: 'b.myshopify.com', adminUrl: other.url, clientId: 'cid', clientSecret: 's' }).clientCredentials().catch((e: unknown) => e)) as ShopifyGrantError;
      expect(err).toMatchObject({ kind: 'refused', code: 'shop_not_permitted' });
      expect(err.message).toBe(
        'Shopify refused the client credentials grant for b.myshopify.com (shop_not_permitted: Client credentials cannot be performed on this shop.): the app belongs to another organisation than the store. Install it on the store with OAuth instead.',
      );
    } finally {
      await other.stop();
    }
  });
});
