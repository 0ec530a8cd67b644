// A Shopify store written only from shopify.dev, for the store-connection tests — independent of
// both our client and our simulator, so a misreading shared by those two is caught:
// - "Client credentials grant": POST /admin/oauth/access_token, form-encoded grant_type,
//   client_id, client_secret → {"access_token", "scope", "expires_in": 86399}.
// - "Authorization code grant": code, client_id, client_secret (+ expiring=1, "Use expiring offline
//   access tokens") → {"access_token", "expires_in": 3599, "refresh_token",
//   "refresh_token_expires_in": 7775999, "scope"}; grant_type=refresh_token → a new pair; the
//   changelog of 2026-08-28: the previous refresh token works until the new one is first used.
// - Refusals {"error", "error_description"} (HTTP 400); the Admin API's 401 body for a bad token.
// - GraphQL Admin API: `shop { name }` and `currentAppInstallation { accessScopes { handle } }`.
import crypto from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';

export interface DocsFakeOptions {
  clientId: string;
  clientSecret: string;
  shopName: string;
  scope: string;
  now: () => number;
  /** Client credentials refused with shop_not_permitted (the app's organisation is not the store's). */
  otherOrganisation?: boolean;
  /** How long the token endpoint takes to answer (two instances asking at once). */
  tokenDelayMs?: number;
}

export async function startDocsFake(o: DocsFakeOptions) {
  const lifetimes = { clientCredentials: 86_399, access: 3_599, refresh: 7_775_999 };
  const access = new Map<string, number>();
  const refresh = new Map<string, { used: boolean; replacedBy: string | null; dead: boolean }>();
  const codes = new Set<string>();
  const tokenCalls: Array<{ params: Record<string, string>; contentType: string | undefined }> = [];
  let dropNext = false;

  const newAccess = (seconds: number) => {
    const t = crypto.randomBytes(16).toString('hex');
    access.set(t, o.now() + seconds * 1000);
    return t;
  };
  const pair = () => {
    const rt = crypto.randomBytes(16).toString('hex');
    refresh.set(rt, { used: false, replacedBy: null, dead: false });
    return { access_token: newAccess(lifetimes.access), expires_in: lifetimes.access, refresh_token: rt, refresh_token_expires_in: lifetimes.refresh, scope: o.scope };
  };

  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const body = Buffer.concat(chunks).toString('utf8');
      const send = (status: number, json: unknown) => {
        res.writeHead(status, { 'content-type': 'application/json' });
        res.end(JSON.stringify(json));
      };
      if (req.method === 'POST' && req.url === '/admin/oauth/access_token') {
        const params = Object.fromEntries(new URLSearchParams(body));
        tokenCalls.push({ params, contentType: req.headers['content-type'] });
        const answer = () => {
          if (params.client_id !== o.clientId || params.client_secret !== o.clientSecret) return send(400, { error: 'invalid_client', error_description: 'Client authentication failed' });
          if (params.grant_type === 'client_credentials') {
            if (o.otherOrganisation) return send(400, { error: 'shop_not_permitted', error_description: 'Client credentials cannot be performed on this shop.' });
            return send(200, { access_token: newAccess(lifetimes.clientCredentials), scope: o.scope, expires_in: lifetimes.clientCredentials });
          }
          if (params.grant_type === 'refresh_token') {
            const r = refresh.get(params.refresh_token);
            if (!r || r.dead) return send(400, { error: 'invalid_grant', error_description: 'Refresh token is invalid' });
            // Its replacement was never used: it is retired and a new pair given.
            if (r.replacedBy) refresh.get(r.replacedBy)!.dead = true;
            for (const prev of refresh.values()) if (prev.replacedBy === params.refresh_token) prev.dead = true;
            const next = pair();
            r.used = true;
            r.replacedBy = next.refresh_token;
            return send(200, next);
          }
          if (params.code && codes.has(params.code)) {
            codes.delete(params.code);
            if (params.expiring === '1') return send(200, pair());
            return send(200, { access_token: newAccess(1e9), scope: o.scope });
          }
          return send(400, { error: 'invalid_grant', error_description: 'The authorization code is invalid' });
        };
        if (dropNext) {
          // Shopify made the grant, but the answer never arrives: the grant runs, nothing is written back.
          dropNext = false;
          res.writeHead = (() => res) as typeof res.writeHead;
          res.end = (() => res) as typeof res.end;
          answer();
          req.socket.destroy();
          return;
        }
        setTimeout(answer, o.tokenDelayMs ?? 0);
        return;
      }
      if (req.method === 'POST' && /^\/admin\/api\/[^/]+\/graphql\.json$/.test(req.url ?? '')) {
        const token = req.headers['x-shopify-access-token'];
        const until = typeof token === 'string' ? access.get(token) : undefined;
        if (until === undefined || until <= o.now()) return send(401, { errors: '[API] Invalid API key or access token (unrecognized login or wrong password)' });
        const { query } = JSON.parse(body) as { query: string };
        const data: Record<string, unknown> = {};
        if (/\bshop\s*\{/.test(query)) data.shop = { name: o.shopName };
        if (/currentAppInstallation/.test(query)) data.currentAppInstallation = { accessScopes: o.scope.split(',').map((handle) => ({ handle })) };
        return send(200, { data });
      }
      send(404, { errors: 'Not Found' });
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const issueCode = () => {
    const c = crypto.randomBytes(8).toString('hex');
    codes.add(c);
    return c;
  };
  return {
    url,
    tokenCalls,
    /** A code Shopify would put in the OAuth callback. */
    issueCode,
    /** The callback Shopify sends the browser to (shopify.dev: hmac = hex HMAC-SHA256 of the sorted other parameters). */
    callbackQuery(shop: string, state: string, timestamp: number, code = issueCode()): Record<string, string> {
      const q: Record<string, string> = { code, shop, state, timestamp: String(timestamp), host: Buffer.from(`admin.shopify.com/store/${shop.split('.')[0]}`).toString('base64') };
      const message = Object.keys(q)
        .sort()
        .map((k) => `${k}=${q[k]}`)
        .join('&');
      return { ...q, hmac: crypto.createHmac('sha256', o.clientSecret).update(message).digest('hex') };
    },
    revokeAccessTokens: () => access.clear(),
    dropNextTokenAnswer: () => void (dropNext = true),
    stop: () => new Promise<void>((r) => server.close(() => r())),
  };
}

export type DocsFake = Awaited<ReturnType<typeof startDocsFake>>;
