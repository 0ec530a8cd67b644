// The OAuth side of a simulated Shopify store, for an app made in the Dev Dashboard — written from
// shopify.dev ("Client credentials grant", "Authorization code grant", "Offline access tokens",
// "Use expiring offline access tokens", changelog 2026-08-28 "More resilient refreshes for expiring
// offline access tokens", "About client credentials"), never from our client:
// - GET /admin/oauth/authorize?client_id&scope&redirect_uri&state: the consent page; Install sends
//   the browser to redirect_uri with code, hmac, host, shop, state, timestamp (hmac: hex
//   HMAC-SHA256 of the other parameters sorted, keyed with the client secret).
// - POST /admin/oauth/access_token (form-encoded, JSON or query parameters) for the three grants:
//   client_credentials → {access_token, scope, expires_in: 86399} (a store of another
//   organisation: shop_not_permitted); code (+ expiring=1) → {access_token, scope, expires_in: 3599,
//   refresh_token, refresh_token_expires_in: 7775999}; refresh_token → a new pair. A refresh token
//   keeps working after it was used until its replacement is first used (at most 30 days).
// - Refusals: HTTP 400 {error, error_description} (invalid_client, invalid_grant, shop_not_permitted,
//   unsupported_grant_type, invalid_request).
// Lifetimes are options (short ones for tests). What nothing public says is marked (ours) in
// docs/connect-shopify.md: the wording of error_description, the consent page, app_not_installed,
// when an old secret stops working after a rotation, codes living 10 minutes, a replaced access
// token staying valid until it expires, and a retried refresh token's new pair retiring the one
// it had given before.
import crypto from 'node:crypto';
import express, { type Request, type Response, Router } from 'express';

export interface ShopifyAppOptions {
  clientId: string;
  clientSecret: string;
  /** The scopes of the app's active version (what the store granted). */
  scopes?: string[];
  /** The app's allowed redirection URLs; none given: any http(s) URL. */
  redirectUrls?: string[];
  /** The app belongs to the store's organisation (client credentials allowed); default true. */
  sameOrganisation?: boolean;
  /** The app is installed on the store; default true. */
  installed?: boolean;
  /** Shown on the consent page. */
  name?: string;
}

export interface TokenLifetimes {
  /** Client credentials access token (Shopify: 24 hours, answered as 86399). */
  clientCredentialsS: number;
  /** Expiring offline access token (Shopify: 60 minutes). */
  accessS: number;
  /** Refresh token (Shopify: 90 days). */
  refreshS: number;
  /** An authorization code (ours: 10 minutes). */
  codeS: number;
  /** How long a used refresh token stays usable while its replacement is unused (Shopify: 30 days). */
  retryWindowS: number;
}

export const SHOPIFY_LIFETIMES: TokenLifetimes = { clientCredentialsS: 86_399, accessS: 3_599, refreshS: 7_775_999, codeS: 600, retryWindowS: 30 * 86_400 };

export const DEFAULT_APP_SCOPES = ['read_orders', 'write_merchant_managed_fulfillment_orders'];

interface AccessTokenState {
  expiresAt: number | null;
  scopes: string[];
  grant: 'client_credentials' | 'authorization_code' | 'refresh_token';
}

interface RefreshTokenState {
  expiresAt: number;
  firstUsedAt: number | null;
  /** The refresh token its last use gave. */
  successor: string | null;
  /** Its successor was used (or it was revoked): it no longer works. */
  retired: boolean;
  scopes: string[];
}

export interface TokenRequest {
  grantType: string;
  status: number | 'dropped';
  error?: string;
}

const random = (prefix: string) => `${prefix}${crypto.randomBytes(16).toString('hex')}`;
const oauthMessage = (q: Record<string, string>) => {
  const p = new URLSearchParams();
  for (const k of Object.keys(q).sort((a, b) => a.localeCompare(b))) p.append(k, q[k]);
  return p.toString().replace(/\+/g, '%20');
};
const escapeHtml = (s: string) => s.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);

export function createShopifyOAuthSim(o: { shopDomain: string; shopName: string; app?: ShopifyAppOptions; now: () => number; lifetimes?: Partial<TokenLifetimes> }) {
  const now = o.now;
  const lifetimes: TokenLifetimes = { ...SHOPIFY_LIFETIMES, ...o.lifetimes };
  let app: (ShopifyAppOptions & { previousSecret?: string }) | undefined = o.app ? { ...o.app } : undefined;
  const access = new Map<string, AccessTokenState>();
  const refresh = new Map<string, RefreshTokenState>();
  const codes = new Map<string, { expiresAt: number; used: boolean; redirectUri: string; scopes: string[] }>();
  const requests: TokenRequest[] = [];
  const faults = { token: [] as Array<'before' | 'after' | number> };

  const scopesOf = () => app?.scopes ?? DEFAULT_APP_SCOPES;
  const secrets = () => [app?.clientSecret, app?.previousSecret].filter((s): s is string => Boolean(s));

  function issueAccess(grant: AccessTokenState['grant'], lifetimeS: number | null, scopes: string[]): { token: string; expiresIn: number | null } {
    const token = random('shpat_');
    access.set(token, { expiresAt: lifetimeS === null ? null : now() + lifetimeS * 1000, scopes, grant });
    return { token, expiresIn: lifetimeS };
  }

  function issuePair(grant: AccessTokenState['grant'], scopes: string[]) {
    const a = issueAccess(grant, lifetimes.accessS, scopes);
    const rt = random('shprt_');
    refresh.set(rt, { expiresAt: now() + lifetimes.refreshS * 1000, firstUsedAt: null, successor: null, retired: false, scopes });
    return { access_token: a.token, scope: scopes.join(','), expires_in: lifetimes.accessS, refresh_token: rt, refresh_token_expires_in: lifetimes.refreshS };
  }

  /** The parameters of a token request, wherever the caller put them (query, form or JSON). */
  function paramsOf(req: Request): Record<string, string> {
    const out: Record<string, string> = {};
    const take = (src: unknown) => {
      if (!src || typeof src !== 'object') return;
      for (const [k, v] of Object.entries(src as Record<string, unknown>)) if (typeof v === 'string' || typeof v === 'number') out[k] = String(v);
    };
    take(req.query);
    take(req.body);
    return out;
  }

  const refuse = (res: Response, error: string, description: string, status = 400) => {
    res.status(status).json({ error, error_description: description });
    return { status, error };
  };

  function tokenAnswer(req: Request, res: Response): { status: number; error?: string } {
    const p = paramsOf(req);
    if (!app || !p.client_id || p.client_id !== app.clientId) return refuse(res, 'invalid_client', 'Client authentication failed: unknown client_id');
    if (!p.client_secret || !secrets().includes(p.client_secret)) return refuse(res, 'invalid_client', 'Client authentication failed: the client_secret does not match');
    const grant = p.grant_type ?? (p.code ? 'authorization_code' : '');
    if (grant === 'client_credentials') {
      if (app.sameOrganisation === false) return refuse(res, 'shop_not_permitted', 'Client credentials cannot be performed on this shop.');
      if (app.installed === false) return refuse(res, 'app_not_installed', 'The app is not installed on this shop.');
      const a = issueAccess('client_credentials', lifetimes.clientCredentialsS, scopesOf());
      res.json({ access_token: a.token, scope: scopesOf().join(','), expires_in: a.expiresIn });
      return { status: 200 };
    }
    if (grant === 'authorization_code') {
      const c = p.code ? codes.get(p.code) : undefined;
      if (!c) return refuse(res, 'invalid_grant', 'The authorization code is not valid.');
      if (c.used) return refuse(res, 'invalid_grant', 'The authorization code was already used.');
      if (c.expiresAt <= now()) return refuse(res, 'invalid_grant', 'The authorization code has expired.');
      c.used = true;
      if (p.expiring === '1' || p.expiring === 'true') res.json(issuePair('authorization_code', c.scopes));
      else res.json({ access_token: issueAccess('authorization_code', null, c.scopes).token, scope: c.scopes.join(',') });
      return { status: 200 };
    }
    if (grant === 'refresh_token') {
      const token = p.refresh_token ?? '';
      const r = refresh.get(token);
      if (!r || r.retired) return refuse(res, 'invalid_grant', 'The refresh token is not valid.');
      if (r.expiresAt <= now()) return refuse(res, 'invalid_grant', 'The refresh token has expired.');
      if (r.firstUsedAt !== null && now() - r.firstUsedAt > lifetimes.retryWindowS * 1000) return refuse(res, 'invalid_grant', 'The refresh token was already used.');
      // Using a replacement retires the token it replaced.
      for (const prev of refresh.values()) if (prev.successor === token) prev.retired = true;
      // Asked again with a token whose replacement was never used: that replacement is retired.
      if (r.successor) {
        const old = refresh.get(r.successor);
        if (old) old.retired = true;
      }
      r.firstUsedAt ??= now();
      const pair = issuePair('refresh_token', r.scopes);
      r.successor = pair.refresh_token;
      res.json(pair);
      return { status: 200 };
    }
    return refuse(res, 'unsupported_grant_type', `The grant type "${grant}" is not supported.`);
  }

  const router = Router();
  router.post('/admin/oauth/access_token', express.urlencoded({ extended: false }), express.json(), (req, res) => {
    const grantType = String(paramsOf(req).grant_type ?? (paramsOf(req).code ? 'authorization_code' : ''));
    const fault = faults.token.shift();
    if (fault === 'before') {
      requests.push({ grantType, status: 'dropped' });
      req.socket.destroy();
      return;
    }
    if (typeof fault === 'number') {
      requests.push({ grantType, status: fault });
      res.status(fault).json({ errors: 'Internal Server Error' });
      return;
    }
    if (fault === 'after') {
      // Processed (a new pair was made, the token used) but the answer never reaches the app.
      const sink = { status: () => sink, json: () => sink } as unknown as Response;
      const out = tokenAnswer(req, sink);
      requests.push({ grantType, status: 'dropped', ...(out.error ? { error: out.error } : {}) });
      req.socket.destroy();
      return;
    }
    const out = tokenAnswer(req, res);
    requests.push({ grantType, status: out.status, ...(out.error ? { error: out.error } : {}) });
  });

  function redirectProblem(clientId: string, redirectUri: string): string | undefined {
    if (!app || clientId !== app.clientId) return 'Oauth error invalid_request: The client_id is not valid';
    let url: URL;
    try {
      url = new URL(redirectUri);
    } catch {
      return 'Oauth error invalid_request: The redirect_uri is missing or not valid';
    }
    if (!/^https?:$/.test(url.protocol)) return 'Oauth error invalid_request: The redirect_uri is missing or not valid';
    if (app.redirectUrls && !app.redirectUrls.includes(redirectUri.split('?')[0])) return 'Oauth error invalid_request: The redirect_uri is not whitelisted';
    return undefined;
  }

  /** The callback address Shopify sends the merchant's browser to once they approved. */
  function approve(a: { clientId: string; redirectUri: string; state: string; scope?: string }): string {
    const problem = redirectProblem(a.clientId, a.redirectUri);
    if (problem) throw new Error(problem);
    const code = crypto.randomBytes(16).toString('hex');
    const scopes = scopesOf();
    codes.set(code, { expiresAt: now() + lifetimes.codeS * 1000, used: false, redirectUri: a.redirectUri, scopes });
    const query: Record<string, string> = {
      code,
      host: Buffer.from(`admin.shopify.com/store/${o.shopDomain.replace(/\.myshopify\.com$/, '')}`).toString('base64url'),
      shop: o.shopDomain,
      state: a.state,
      timestamp: String(Math.trunc(now() / 1000)),
    };
    query.hmac = crypto.createHmac('sha256', app!.clientSecret).update(oauthMessage(query)).digest('hex');
    const url = new URL(a.redirectUri);
    for (const [k, v] of Object.entries(query)) url.searchParams.set(k, v);
    return url.toString();
  }

  const page = (res: Response, status: number, title: string, body: string) =>
    res
      .status(status)
      .type('html')
      .send(`<!doctype html><html lang="en"><head><meta charset="utf-8"><title>${escapeHtml(title)}</title><style>body{font-family:system-ui,sans-serif;background:#f1f1f1;margin:0}main{max-width:480px;margin:60px auto;background:#fff;border-radius:12px;padding:24px 28px;box-shadow:0 1px 3px #0003}h1{font-size:20px}li{margin:4px 0}button{background:#303030;color:#fff;border:0;border-radius:8px;padding:10px 18px;font-size:15px;cursor:pointer}a{color:#005bd3}.muted{color:#616161;font-size:13px}</style></head><body><main>${body}</main></body></html>`);

  router.get('/admin/oauth/authorize', (req, res) => {
    const q = req.query as Record<string, string | undefined>;
    const problem = redirectProblem(q.client_id ?? '', q.redirect_uri ?? '');
    if (problem) return void page(res, 400, 'Oauth error', `<h1>${escapeHtml(problem)}</h1>`);
    const scopes = scopesOf();
    const hidden = (name: string, value: string) => `<input type="hidden" name="${name}" value="${escapeHtml(value)}">`;
    page(
      res,
      200,
      `Install ${app!.name ?? 'app'}`,
      `<p class="muted">${escapeHtml(o.shopName)} · ${escapeHtml(o.shopDomain)}</p><h1>Install ${escapeHtml(app!.name ?? 'this app')}</h1><p>This app will be able to:</p><ul>${scopes
        .map((s) => `<li>${escapeHtml(s)}</li>`)
        .join('')}</ul><form method="post" action="authorize/approve">${hidden('client_id', q.client_id ?? '')}${hidden('redirect_uri', q.redirect_uri ?? '')}${hidden('state', q.state ?? '')}<button type="submit">Install</button></form><p class="muted">Simulated Shopify consent screen (Presswork's loopback store).</p>`,
    );
  });

  router.post('/admin/oauth/authorize/approve', express.urlencoded({ extended: false }), (req, res) => {
    const b = req.body as Record<string, string | undefined>;
    try {
      res.redirect(302, approve({ clientId: b.client_id ?? '', redirectUri: b.redirect_uri ?? '', state: b.state ?? '' }));
    } catch (err) {
      page(res, 400, 'Oauth error', `<h1>${escapeHtml((err as Error).message)}</h1>`);
    }
  });

  return {
    router,
    approve,
    /** Is this an access token the store takes now? Answers its scopes. */
    accessTokenScopes(token: string | undefined): string[] | undefined {
      const a = token ? access.get(token) : undefined;
      if (!a || (a.expiresAt !== null && a.expiresAt <= now())) return undefined;
      return a.scopes;
    },
    /** The app installed on the store (or replaced: a new Client ID, other scopes, another organisation). */
    setApp(next: ShopifyAppOptions | undefined) {
      app = next ? { ...next } : undefined;
    },
    app: () => (app ? { ...app } : undefined),
    /** Rotate secret in the Dev Dashboard: a new secret; the old one works until revokePreviousSecret (ours). */
    rotateSecret(newSecret = random('shpss_')): { previous: string; current: string } {
      if (!app) throw new Error('shopify simulator: no app to rotate');
      const previous = app.clientSecret;
      app = { ...app, clientSecret: newSecret, previousSecret: previous };
      return { previous, current: newSecret };
    },
    revokePreviousSecret() {
      if (app) app = { ...app, previousSecret: undefined };
    },
    /** The secrets Shopify signs this app's webhooks with right now (current first). */
    signingSecrets: secrets,
    setLifetimes(next: Partial<TokenLifetimes>) {
      Object.assign(lifetimes, next);
    },
    /** Every access token given so far stops working (refresh tokens still do): the next call is refused with 401. */
    revokeAccessTokens() {
      access.clear();
    },
    /** The merchant uninstalled the app: every token it was given stops working. */
    uninstall() {
      if (app) app = { ...app, installed: false };
      access.clear();
      for (const r of refresh.values()) r.retired = true;
    },
    /** The next token requests: dropped `before` anything happens, dropped `after` the grant was made, or answered with this HTTP status. */
    failNextTokenRequest(...how: Array<'before' | 'after' | number>) {
      faults.token.push(...how);
    },
    tokenRequests: (): TokenRequest[] => [...requests],
    reset() {
      access.clear();
      refresh.clear();
      codes.clear();
      requests.length = 0;
      faults.token.length = 0;
    },
  };
}

export type ShopifyOAuthSim = ReturnType<typeof createShopifyOAuthSim>;
