// Shopify's token endpoint and OAuth install, for an app made in the Dev Dashboard (INTEGRATIONS
// "Access tokens"). Written from shopify.dev ("Client credentials grant", "Authorization code
// grant", "Offline access tokens", "Use expiring offline access tokens", the 2026-08-28 changelog
// "More resilient refreshes for expiring offline access tokens") with Shopify's published examples
// as test vectors; Shopify/shopify-app-js (lib/auth/oauth/, lib/utils/hmac-validator.ts) was read
// to learn the details it settles (the query HMAC's sorting and %20 encoding, a 90-second timestamp
// tolerance, errors as {error, error_description}). The client secret is never logged nor put in
// an error message.
//
// - POST https://{shop}/admin/oauth/access_token (form-encoded, as shopify.dev shows it):
//   grant_type=client_credentials → {access_token, scope, expires_in} (24 hours, no refresh token);
//   code + expiring=1 → {access_token, scope, expires_in: 3600, refresh_token, refresh_token_expires_in};
//   grant_type=refresh_token → a new pair (the previous refresh token keeps working until the new
//   one is first used, up to 30 days: a lost answer does not lock the store out).
// - Refusals are HTTP 4xx with {error, error_description}: invalid_client, invalid_grant,
//   shop_not_permitted (client credentials for a store of another organisation), …
// Written here rather than taken from @shopify/shopify-api: that library is one app per process
// (one key, secret and host), keeps the OAuth state in a signed cookie, always calls
// https://{shop} (no simulator), and brings runtime adapters and bot detection we do not use.
import crypto from 'node:crypto';

/** A shop's own name, as Shopify sends it back in an OAuth callback. */
export const SHOP_DOMAIN_PATTERN = /^[a-zA-Z0-9][a-zA-Z0-9-]*\.myshopify\.com$/;
export const isShopDomain = (shop: string) => SHOP_DOMAIN_PATTERN.test(shop);

/** How far a callback's `timestamp` may be from our clock (Shopify's own library allows 90 seconds). */
export const OAUTH_TIMESTAMP_TOLERANCE_S = 90;

export type GrantKind = 'client_credentials' | 'authorization_code' | 'refresh_token';

export interface TokenGrant {
  accessToken: string;
  /** The scopes granted, as Shopify listed them. */
  scopes: string[];
  /** When the access token stops working; null for a token that does not expire. */
  accessExpiresAt: string | null;
  refreshToken: string | null;
  refreshExpiresAt: string | null;
  issuedAt: string;
}

/**
 * A token request that failed. `refused`: Shopify said no (4xx) — asking again with the same
 * credentials cannot help, the store needs reconnecting. `unavailable`: no answer, or Shopify's
 * side failed (5xx, 429, a body that is not a token) — ask again later, keep what we hold.
 */
export class ShopifyGrantError extends Error {
  readonly kind: 'refused' | 'unavailable';
  readonly code?: string;
  readonly status?: number;
  constructor(kind: 'refused' | 'unavailable', message: string, extra: { code?: string; status?: number } = {}) {
    super(message);
    this.name = 'ShopifyGrantError';
    this.kind = kind;
    if (extra.code) this.code = extra.code;
    if (extra.status !== undefined) this.status = extra.status;
  }
}

export interface ShopifyAppCredentials {
  shopDomain: string;
  clientId: string;
  clientSecret: string;
  /** Replaces `https://<shopDomain>` (the simulator, tests). */
  adminUrl?: string;
}

export interface ShopifyOAuthDeps {
  fetch?: typeof fetch;
  /** Time limit of one token request (default 15 s). */
  timeoutMs?: number;
  now?: () => Date;
}

const baseOf = (c: { shopDomain: string; adminUrl?: string }) => (c.adminUrl ? c.adminUrl.replace(/\/+$/, '') : `https://${c.shopDomain}`);

/** The scope list Shopify answers ("read_orders,write_…"), as a list. */
export const scopeList = (scope: unknown): string[] =>
  typeof scope === 'string'
    ? scope
        .split(',')
        .map((s) => s.trim())
        .filter(Boolean)
    : [];

const WHAT: Record<GrantKind, string> = {
  client_credentials: 'an access token (client credentials)',
  authorization_code: 'the install’s access token (authorization code)',
  refresh_token: 'a new access token (refresh token)',
};

/** Shopify's refusal as a sentence an operator can act on. */
export function refusalSentence(grant: GrantKind, shop: string, code: string | undefined, description: string | undefined, status: number): string {
  const why = `${code ?? `HTTP ${status}`}${description ? `: ${description}` : ''}`;
  if (code === 'shop_not_permitted')
    return `Shopify refused the client credentials grant for ${shop} (${why}): the app belongs to another organisation than the store. Install it on the store with OAuth instead.`;
  if (code === 'invalid_client') return `Shopify refused the app’s Client ID or secret for ${shop} (${why}): copy them again from the app’s Settings in the Dev Dashboard.`;
  if (code === 'invalid_grant' && grant === 'refresh_token') return `Shopify refused the refresh token of ${shop} (${why}): install the app on the store again.`;
  if (code === 'invalid_grant') return `Shopify refused the authorization code of ${shop} (${why}): click Install on Shopify again.`;
  return `Shopify refused ${WHAT[grant]} for ${shop} (${why}).`;
}

/** The token endpoint of one store for one app. */
export function shopifyOAuth(creds: ShopifyAppCredentials, deps: ShopifyOAuthDeps = {}) {
  const fetchImpl = deps.fetch ?? fetch;
  const timeoutMs = deps.timeoutMs ?? 15_000;
  const now = deps.now ?? (() => new Date());
  const shop = creds.shopDomain;

  async function request(grant: GrantKind, params: Record<string, string>): Promise<TokenGrant> {
    const body = new URLSearchParams({ client_id: creds.clientId, client_secret: creds.clientSecret, ...params });
    let res: Response;
    try {
      res = await fetchImpl(`${baseOf(creds)}/admin/oauth/access_token`, {
        method: 'POST',
        headers: { 'Content-Type': 'application/x-www-form-urlencoded', Accept: 'application/json' },
        body: body.toString(),
        signal: AbortSignal.timeout(timeoutMs),
      });
    } catch (err) {
      const cause = err instanceof Error && err.name === 'TimeoutError' ? `no answer within ${Math.round(timeoutMs / 1000)} s` : 'the connection failed';
      throw new ShopifyGrantError('unavailable', `Shopify did not answer the request for ${WHAT[grant]} of ${shop} (${cause}); it is asked again later.`);
    }
    const text = await res.text().catch(() => '');
    let json: Record<string, unknown> | undefined;
    try {
      const parsed = JSON.parse(text) as unknown;
      json = parsed && typeof parsed === 'object' && !Array.isArray(parsed) ? (parsed as Record<string, unknown>) : undefined;
    } catch {
      json = undefined;
    }
    if (res.status === 429 || res.status >= 500)
      throw new ShopifyGrantError('unavailable', `Shopify could not give ${WHAT[grant]} of ${shop} just now (HTTP ${res.status}); it is asked again later.`, { status: res.status });
    if (!res.ok) {
      const code = typeof json?.error === 'string' ? json.error : undefined;
      const description = typeof json?.error_description === 'string' ? json.error_description : typeof json?.errors === 'string' ? json.errors : undefined;
      throw new ShopifyGrantError('refused', refusalSentence(grant, shop, code, description, res.status), { code, status: res.status });
    }
    if (!json || typeof json.access_token !== 'string' || !json.access_token)
      throw new ShopifyGrantError('unavailable', `Shopify answered the request for ${WHAT[grant]} of ${shop} without a token (HTTP ${res.status}); it is asked again later.`, { status: res.status });
    const at = now().getTime();
    const seconds = (v: unknown) => (typeof v === 'number' && Number.isFinite(v) && v > 0 ? v : typeof v === 'string' && /^\d+$/.test(v) ? Number(v) : undefined);
    const expiresIn = seconds(json.expires_in);
    const refreshIn = seconds(json.refresh_token_expires_in);
    return {
      accessToken: json.access_token,
      scopes: scopeList(json.scope),
      accessExpiresAt: expiresIn === undefined ? null : new Date(at + expiresIn * 1000).toISOString(),
      refreshToken: typeof json.refresh_token === 'string' && json.refresh_token ? json.refresh_token : null,
      refreshExpiresAt: refreshIn === undefined ? null : new Date(at + refreshIn * 1000).toISOString(),
      issuedAt: new Date(at).toISOString(),
    };
  }

  return {
    /** An app of the store's own organisation: a token for 24 hours, asked again before it ends. */
    clientCredentials: () => request('client_credentials', { grant_type: 'client_credentials' }),
    /** The OAuth install's code, exchanged for an expiring offline token and its refresh token. */
    exchangeCode: (code: string) => request('authorization_code', { code, expiring: '1' }),
    /** A new pair for the refresh token (store both at once: the old refresh token retires when the new one is used). */
    refresh: (refreshToken: string) => request('refresh_token', { grant_type: 'refresh_token', refresh_token: refreshToken }),
  };
}

export type ShopifyOAuthClient = ReturnType<typeof shopifyOAuth>;

/** Shopify's consent screen for the app on this store. */
export function authorizeUrl(o: { shopDomain: string; adminUrl?: string; clientId: string; scopes: readonly string[]; redirectUri: string; state: string }): string {
  const q = new URLSearchParams({ client_id: o.clientId, scope: o.scopes.join(','), redirect_uri: o.redirectUri, state: o.state });
  return `${baseOf(o)}/admin/oauth/authorize?${q.toString()}`;
}

const signedKeys = (query: Record<string, string>) => Object.keys(query).filter((k) => k !== 'hmac' && k !== 'signature').sort((a, b) => a.localeCompare(b));

/** The callback's parameters but `hmac` (and `signature`), sorted by name, URL-encoded as `k=v&…` with spaces as %20 (Shopify's own library). */
export function oauthMessage(query: Record<string, string>): string {
  const q = new URLSearchParams();
  for (const key of signedKeys(query)) q.append(key, query[key]);
  return q.toString().replace(/\+/g, '%20');
}

/** The same as shopify.dev first described it: values as they are, only `&` and `%` escaped (and `=` in names). */
export function oauthMessageAsDocumented(query: Record<string, string>): string {
  const esc = (v: string) => v.replace(/%/g, '%25').replace(/&/g, '%26');
  return signedKeys(query)
    .map((k) => `${esc(k).replace(/=/g, '%3D')}=${esc(query[k])}`)
    .join('&');
}

/** hex HMAC-SHA256 of the callback's parameters, keyed with the client secret. */
export const oauthHmac = (query: Record<string, string>, secret: string) => crypto.createHmac('sha256', secret).update(oauthMessage(query)).digest('hex');

/**
 * Timing-safe: does the callback's `hmac` match one of the secrets (current, then previous during a
 * rotation)? Both spellings of the message are accepted: they differ only for values holding
 * characters URL encoding changes (a padded base64 `host`), where the two descriptions disagree.
 */
export function verifyOAuthHmac(query: Record<string, string>, secrets: Array<string | undefined>): boolean {
  const given = Buffer.from(String(query.hmac ?? '').trim().toLowerCase(), 'utf8');
  if (given.length !== 64) return false;
  const messages = [...new Set([oauthMessage(query), oauthMessageAsDocumented(query)])];
  let ok = false;
  for (const secret of secrets) {
    if (!secret) continue;
    // Every secret and message is tried: timing does not tell which one matched.
    for (const message of messages) if (crypto.timingSafeEqual(Buffer.from(crypto.createHmac('sha256', secret).update(message).digest('hex'), 'utf8'), given)) ok = true;
  }
  return ok;
}

/** Is the callback's timestamp (seconds) within the tolerance of `now`? */
export function freshTimestamp(timestamp: string | undefined, now: Date, toleranceS = OAUTH_TIMESTAMP_TOLERANCE_S): boolean {
  if (!timestamp || !/^\d{1,12}$/.test(timestamp)) return false;
  return Math.abs(Math.trunc(now.getTime() / 1000) - Number(timestamp)) <= toleranceS;
}
