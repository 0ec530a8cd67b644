// A loopback Blackbaud Raiser's Edge NXT (SKY API) for the demo and the tests, written from
// ../shared/INTEGRATIONS.md §3 and Blackbaud's sky-api-docs: the authorisation page
// (/oauth/authorize, which sends the browser back with code + state, or error=access_denied) and
// the token endpoint (authorization_code grant: a code works once, for 5 minutes, with the same
// redirect_uri; refresh_token grant with rotation; a revoked token answers 400 invalid_grant), the
// subscription key and bearer token on every call, constituents with emails (inactive and deceased
// ones only with include_inactive / include_deceased), Email consents, changed-since paging whose
// next_link is present on every page — the last, empty one too —, search by email, consent
// creation (JSON only, else 415; source and category from the organisation's lists), those lists,
// webhook subscriptions (listed with their provisioning status, provisioned by the OPTIONS
// handshake) and CloudEvents deliveries, and faults (429 / 403 quota with Retry-After and the
// documented bodies, 5xx, dropped connections, delays).
import crypto from 'node:crypto';
import express, { type Request, type Response } from 'express';
import { mulberry32 } from './prng';

export interface SimConsent {
  id: string;
  constituent_id: string;
  channel: string;
  category?: string;
  source?: string;
  consent_date: string;
  constituent_consent_response: 'OptIn' | 'OptOut' | 'NoResponse';
  date_added: string;
}

export interface SimConstituent {
  id: string;
  type: 'Individual';
  first: string;
  last: string;
  name: string;
  lookup_id: string;
  inactive: boolean;
  deceased: boolean;
  requests_no_email: boolean;
  date_modified: string;
  email: { address: string; primary: boolean; inactive: boolean; do_not_email: boolean } | null;
}

export interface Fault {
  status?: number;
  retryAfter?: number;
  drop?: boolean;
  /** Only calls whose path matches. */
  path?: RegExp;
}

export interface RaisersEdgeSimOptions {
  clientId: string;
  clientSecret: string;
  subscriptionKey: string;
  /** The refresh token that works now (each use rotates it). */
  refreshToken: string;
  accessTokenTtlSeconds?: number;
  constituents?: SimConstituent[];
  consents?: Array<Omit<SimConsent, 'id' | 'date_added'> & { date_added?: string }>;
  now?: () => Date;
  /** Calls per second before 429 (off when absent). */
  rateLimitPerSecond?: number;
  /** The redirect URIs registered with the application (absent: any is accepted). */
  redirectUris?: string[];
  /** What the signed-in Blackbaud user answers on the authorisation page. */
  authorizeAnswer?: 'grant' | 'deny';
  /** The organisation's consent code tables (defaults: a few typical names). */
  consentSources?: string[];
  consentCategories?: string[];
}

/** The documented bodies of a rate-limited (429) and a quota-spent (403) answer (sky-api-docs ratelimits.md, quotas.md). */
export function rateLimitBody(retryAfter: number) {
  return { statusCode: 429, message: `Rate limit is exceeded. Try again in ${retryAfter} second${retryAfter === 1 ? '' : 's'}.` };
}
export function quotaBody(retryAfter: number) {
  const hms = [Math.floor(retryAfter / 3600), Math.floor((retryAfter % 3600) / 60), retryAfter % 60].map((n) => String(n).padStart(2, '0')).join(':');
  return { statusCode: 403, message: `Out of call volume quota. Quota will be replenished in ${hms}.` };
}

/** An authorisation code is valid this long (sky-api-docs authcodeflow step 4). */
export const CODE_TTL_MS = 5 * 60_000;

const FIRST = ['Amelia', 'Oliver', 'Isla', 'George', 'Ava', 'Noah', 'Mia', 'Arthur', 'Ivy', 'Leo', 'Freya', 'Oscar', 'Lily', 'Harry', 'Grace', 'Jack', 'Rosie', 'Theo', 'Ella', 'Alfie'];
const LAST = ['Smith', 'Jones', 'Taylor', 'Brown', 'Williams', 'Wilson', 'Johnson', 'Davies', 'Patel', 'Wright', 'Evans', 'Walker', 'Roberts', 'Green', 'Hall', 'Wood', 'Clarke', 'Hughes', 'Edwards', 'Khan'];

/**
 * `count` constituents, the same for the same seed: modified over the `days` days before `now`,
 * with a mix of emails, flags and Email consents (the most recent one decides).
 */
export function generateConstituents(count: number, seed: number, now: Date, days = 7): { constituents: SimConstituent[]; consents: RaisersEdgeSimOptions['consents'] } {
  const rnd = mulberry32(seed);
  const constituents: SimConstituent[] = [];
  const consents: NonNullable<RaisersEdgeSimOptions['consents']> = [];
  for (let i = 0; i < count; i++) {
    const id = String(1000 + i);
    const first = FIRST[Math.floor(rnd() * FIRST.length)];
    const last = LAST[Math.floor(rnd() * LAST.length)];
    const modified = new Date(now.getTime() - Math.floor(rnd() * days * 24 * 3600) * 1000);
    const r = rnd();
    const noEmail = r < 0.06;
    constituents.push({
      id,
      type: 'Individual',
      first,
      last,
      name: `${first} ${last}`,
      lookup_id: `LU${id}`,
      inactive: r >= 0.06 && r < 0.09,
      deceased: r >= 0.09 && r < 0.11,
      requests_no_email: r >= 0.11 && r < 0.13,
      date_modified: modified.toISOString(),
      email: noEmail ? null : { address: `${first}.${last}.${id}@example.org`.toLowerCase(), primary: true, inactive: false, do_not_email: r >= 0.13 && r < 0.14 },
    });
    const c = rnd();
    const at = (daysAgo: number) => new Date(modified.getTime() - daysAgo * 86_400_000).toISOString();
    const consent = (response: SimConsent['constituent_consent_response'], daysAgo: number) =>
      consents.push({ constituent_id: id, channel: 'Email', category: 'Newsletter', source: 'Website', consent_date: at(daysAgo), constituent_consent_response: response });
    if (c < 0.55) consent('OptIn', 30);
    else if (c < 0.7) consent('OptOut', 20);
    else if (c < 0.8) {
      consent('OptIn', 200);
      consent('OptOut', 10);
    } else if (c < 0.9) consent('NoResponse', 40);
  }
  return { constituents, consents };
}

export function createRaisersEdgeSimulator(opts: RaisersEdgeSimOptions) {
  const now = opts.now ?? (() => new Date());
  const ttl = opts.accessTokenTtlSeconds ?? 3600;
  const state = {
    constituents: new Map<string, SimConstituent>((opts.constituents ?? []).map((c) => [c.id, c])),
    consents: [] as SimConsent[],
    refreshTokens: new Set<string>([opts.refreshToken]),
    accessTokens: new Map<string, number>(),
    subscriptions: [] as Array<{ id: string; webhook_url: string; event_type: string; provisioning_status: string }>,
    /** Codes the authorisation page handed out: single use, CODE_TTL_MS, bound to the redirect_uri. */
    codes: new Map<string, { redirectUri: string; expiresAt: number }>(),
    authorizeAnswer: opts.authorizeAnswer ?? 'grant',
    consentSources: opts.consentSources ?? ['Website', 'Email', 'Event', 'Phone call'],
    consentCategories: opts.consentCategories ?? ['Newsletter', 'Fundraising', 'Events'],
    calls: [] as Array<{ method: string; path: string; status: number; url: string }>,
    tokenRefreshes: 0,
    latestRefreshToken: opts.refreshToken,
  };
  let consentSeq = 0;
  const addConsent = (c: Omit<SimConsent, 'id' | 'date_added'> & { date_added?: string }) => {
    const consent: SimConsent = { ...c, id: String(++consentSeq), date_added: c.date_added ?? now().toISOString() };
    state.consents.push(consent);
    return consent;
  };
  for (const c of opts.consents ?? []) addConsent(c);
  const faults: Fault[] = [];
  let delayMs = 0;
  let windowStart = 0;
  let windowCalls = 0;

  const app = express();
  app.disable('x-powered-by');

  app.use(async (req, res, next) => {
    res.on('finish', () => state.calls.push({ method: req.method, path: req.path, status: res.statusCode, url: req.originalUrl }));
    if (delayMs) await new Promise((r) => setTimeout(r, delayMs));
    const i = faults.findIndex((f) => !f.path || f.path.test(req.path));
    if (i >= 0) {
      const [f] = faults.splice(i, 1);
      if (f.drop) {
        req.socket.destroy();
        return;
      }
      if (f.retryAfter !== undefined) res.set('Retry-After', String(f.retryAfter));
      const status = f.status ?? 500;
      const body = status === 429 ? rateLimitBody(f.retryAfter ?? 1) : status === 403 && f.retryAfter !== undefined ? quotaBody(f.retryAfter) : { statusCode: status, message: 'Simulated failure' };
      res.status(status).json(body);
      return;
    }
    if (opts.rateLimitPerSecond && req.path !== '/token' && req.path !== '/oauth/authorize') {
      const t = Date.now();
      if (t - windowStart >= 1000) {
        windowStart = t;
        windowCalls = 0;
      }
      if (++windowCalls > opts.rateLimitPerSecond) {
        res.set('Retry-After', '1').status(429).json(rateLimitBody(1));
        return;
      }
    }
    next();
  });

  // The authorisation page: the user signs in and grants (or denies) access, then the browser goes
  // back to the redirect_uri with code + state (or error + state).
  app.get('/oauth/authorize', (req, res) => {
    const q = req.query as Record<string, string | undefined>;
    if (q.client_id !== opts.clientId) return void res.status(400).type('text/plain').send('Unknown client_id');
    if (q.response_type !== 'code') return void res.status(400).type('text/plain').send('response_type must be code');
    const redirect = String(q.redirect_uri ?? '');
    if (!/^https?:\/\//.test(redirect) || (opts.redirectUris && !opts.redirectUris.includes(redirect))) return void res.status(400).type('text/plain').send('redirect_uri is not registered for this application');
    const back = new URL(redirect);
    if (state.authorizeAnswer === 'deny') back.searchParams.set('error', 'access_denied');
    else {
      const code = crypto.randomBytes(16).toString('hex');
      state.codes.set(code, { redirectUri: redirect, expiresAt: now().getTime() + CODE_TTL_MS });
      back.searchParams.set('code', code);
    }
    if (q.state !== undefined) back.searchParams.set('state', q.state);
    res.redirect(302, back.toString());
  });

  /** New tokens, in the documented shape (sky-api-docs authcodeflow step 5). */
  function issueTokens(res: Response) {
    const refresh = crypto.randomBytes(16).toString('hex');
    state.refreshTokens.add(refresh);
    state.latestRefreshToken = refresh;
    const access = crypto.randomBytes(24).toString('base64url');
    state.accessTokens.set(access, now().getTime() + ttl * 1000);
    res.json({
      access_token: access,
      token_type: 'bearer',
      expires_in: ttl,
      refresh_token: refresh,
      tenant_id: 'E27DD7B6-0000-4000-8000-5151AA000001',
      tenant_name: "Raiser's Edge NXT - Simulator",
      legal_entity_id: 'p-simulator',
      legal_entity_name: 'Simulator',
      environment_id: 'p-sim-environment',
      environment_name: 'Simulator Environment',
    });
  }

  // OAuth token endpoint: Basic client auth (or client_id/client_secret in the form), form body;
  // authorization_code and refresh_token grants; a refresh token works once (rotation).
  app.post('/token', express.urlencoded({ extended: false }), (req, res) => {
    const basic = /^Basic (.+)$/.exec(req.get('authorization') ?? '')?.[1];
    const [id, secret] = basic ? Buffer.from(basic, 'base64').toString('utf8').split(':') : [req.body?.client_id, req.body?.client_secret];
    if (id !== opts.clientId || secret !== opts.clientSecret) return void res.status(401).json({ error: 'invalid_client' });
    if (!req.is('application/x-www-form-urlencoded')) return void res.status(400).json({ error: 'invalid_request', error_description: 'form-encoded body expected' });
    const grant = req.body?.grant_type;
    if (grant === 'authorization_code') {
      const code = String(req.body?.code ?? '');
      const issued = state.codes.get(code);
      state.codes.delete(code);
      if (!issued || issued.expiresAt <= now().getTime()) return void res.status(400).json({ error: 'invalid_grant', error_description: 'The authorization code is invalid, already used or expired' });
      if (req.body?.redirect_uri !== issued.redirectUri) return void res.status(400).json({ error: 'invalid_grant', error_description: 'redirect_uri does not match the authorization request' });
      state.tokenRefreshes++;
      return issueTokens(res);
    }
    if (grant !== 'refresh_token') return void res.status(400).json({ error: 'unsupported_grant_type' });
    const used = String(req.body?.refresh_token ?? '');
    if (!state.refreshTokens.has(used)) return void res.status(400).json({ error: 'invalid_grant', error_description: 'The refresh token is not valid (already used, revoked or unknown)' });
    state.refreshTokens.delete(used);
    state.tokenRefreshes++;
    issueTokens(res);
  });

  // Every API call: subscription key, then bearer token.
  const api = express.Router();
  api.use((req, res, next) => {
    if (req.get('bb-api-subscription-key') !== opts.subscriptionKey) return void res.status(401).json({ statusCode: 401, message: 'Access denied due to missing or invalid subscription key.' });
    const token = /^Bearer (.+)$/i.exec(req.get('authorization') ?? '')?.[1];
    const expires = token ? state.accessTokens.get(token) : undefined;
    if (!expires || expires <= now().getTime()) return void res.status(401).json({ statusCode: 401, message: 'Unauthorized: the access token is missing, invalid or expired.' });
    if (['POST', 'PUT', 'PATCH'].includes(req.method) && !req.is('application/json')) return void res.status(415).json({ statusCode: 415, message: 'Unsupported Media Type: send application/json' });
    next();
  });
  api.use(express.json());

  const origin = (req: Request) => `${req.protocol}://${req.get('host')}${req.baseUrl.replace(/\/constituent\/v1$/, '')}`;

  api.get('/constituent/v1/constituents/search', (req, res) => {
    const text = String(req.query.search_text ?? '').toLowerCase();
    const value = text
      ? [...state.constituents.values()].filter((c) => (req.query.search_field === 'email_address' ? (c.email?.address ?? '').toLowerCase().includes(text) : c.name.toLowerCase().includes(text)))
      : [];
    res.json({ count: value.length, value: value.map((c) => ({ id: c.id, name: c.name, email: c.email?.address ?? null, lookup_id: c.lookup_id })) });
  });

  api.get('/constituent/v1/constituents', (req: Request, res: Response) => {
    const since = req.query.last_modified ? Date.parse(String(req.query.last_modified)) : 0;
    if (Number.isNaN(since)) return void res.status(400).json({ message: 'last_modified must be an ISO-8601 date' });
    const limit = Math.min(Math.max(Number(req.query.limit ?? 500) || 500, 1), 5000);
    const offset = Math.max(Number(req.query.offset ?? 0) || 0, 0);
    // Without the flags, inactive and deceased people are left out.
    const inactiveToo = req.query.include_inactive === 'true';
    const deceasedToo = req.query.include_deceased === 'true';
    const all = [...state.constituents.values()]
      .filter((c) => Date.parse(c.date_modified) >= since && (inactiveToo || !c.inactive) && (deceasedToo || !c.deceased))
      .sort((a, b) => a.date_modified.localeCompare(b.date_modified) || Number(a.id) - Number(b.id));
    const value = all.slice(offset, offset + limit);
    // next_link is on every page, the last and the empty one after it included.
    const q = new URLSearchParams(req.query as Record<string, string>);
    q.set('limit', String(limit));
    q.set('offset', String(offset + limit));
    res.json({ count: all.length, value, next_link: `${origin(req)}/constituent/v1/constituents?${q}` });
  });

  api.get('/constituent/v1/constituents/:id', (req, res) => {
    const c = state.constituents.get(String(req.params.id));
    if (!c) return void res.status(404).json({ statusCode: 404, message: 'Constituent not found' });
    res.json(c);
  });

  api.get('/commpref/v1/constituents/:id/consents', (req, res) => {
    const id = String(req.params.id);
    if (!state.constituents.has(id)) return void res.status(404).json({ message: 'Constituent not found' });
    const channels = req.query.channels ? String(req.query.channels).split(',').map((c) => c.trim().toLowerCase()) : undefined;
    let list = state.consents
      .filter((c) => c.constituent_id === id && (!channels || channels.includes(c.channel.toLowerCase())))
      .sort((a, b) => b.consent_date.localeCompare(a.consent_date) || b.date_added.localeCompare(a.date_added) || Number(b.id) - Number(a.id));
    if (req.query.most_recent_only === 'true') {
      const seen = new Set<string>();
      list = list.filter((c) => {
        const k = `${c.channel}|${c.category ?? ''}`;
        if (seen.has(k)) return false;
        seen.add(k);
        return true;
      });
    }
    res.json({ count: list.length, value: list });
  });

  api.post('/commpref/v1/consent/consents', (req, res) => {
    const b = req.body ?? {};
    if (!b.constituent_id || !state.constituents.has(String(b.constituent_id))) return void res.status(400).json({ message: 'constituent_id: unknown constituent' });
    if (!['OptIn', 'OptOut', 'NoResponse'].includes(b.constituent_consent_response)) return void res.status(400).json({ message: 'constituent_consent_response must be OptIn, OptOut or NoResponse' });
    if (!b.channel) return void res.status(400).json({ message: 'channel is required' });
    if (b.source !== undefined && !state.consentSources.includes(b.source)) return void res.status(400).json({ message: `source: "${b.source}" is not in the organisation's consent sources` });
    if (b.category !== undefined && !state.consentCategories.includes(b.category)) return void res.status(400).json({ message: `category: "${b.category}" is not in the organisation's consent categories` });
    const c = addConsent({
      constituent_id: String(b.constituent_id),
      channel: String(b.channel),
      category: b.category,
      source: b.source,
      consent_date: b.consent_date ? new Date(b.consent_date).toISOString() : now().toISOString(),
      constituent_consent_response: b.constituent_consent_response,
    });
    res.json({ id: c.id });
  });

  const codeTable = (names: string[]) => ({ count: names.length, value: names.map((description, i) => ({ description, inactive: false, sequence: i + 1 })) });
  api.get('/commpref/v1/consent/sources', (_req, res) => void res.json(codeTable(state.consentSources)));
  api.get('/commpref/v1/consent/categories', (_req, res) => void res.json(codeTable(state.consentCategories)));

  // Webhook subscriptions: each POST creates one (a second identical one too); it is provisioned
  // when the endpoint answers the OPTIONS handshake with WebHook-Allowed-Origin.
  api.post('/webhook/v1/subscriptions', async (req, res) => {
    const url = String(req.body?.webhook_url ?? '');
    const eventType = String(req.body?.event_type ?? '');
    if (!/^https?:\/\//.test(url) || !eventType) return void res.status(400).json({ title: 'Bad Request', status: 400, detail: 'webhook_url and event_type are required' });
    const ok = await handshake(url).catch(() => false);
    const sub = { id: crypto.randomUUID(), webhook_url: url, event_type: eventType, provisioning_status: ok ? 'Provisioned' : 'Failed' };
    state.subscriptions.push(sub);
    res.status(201).json({ id: sub.id });
  });
  api.get('/webhook/v1/subscriptions', (_req, res) => void res.json({ count: state.subscriptions.length, value: state.subscriptions }));

  app.use(api);

  async function handshake(url: string): Promise<boolean> {
    const res = await fetch(url, { method: 'OPTIONS', headers: { 'WebHook-Request-Origin': 'eventgrid.blackbaud.com' } });
    return res.status === 200 && Boolean(res.headers.get('webhook-allowed-origin'));
  }

  /** Deliver one CloudEvent about a constituent to a URL; answers the status code. */
  async function deliver(url: string, constituentId: string, eventId: string = crypto.randomUUID(), type = 'com.blackbaud.constituent.change.v1'): Promise<number> {
    const event = { specversion: '1.0', type, source: 'blackbaud', subject: '/environments/p-sim-environment', id: eventId, time: now().toISOString(), data: { id: constituentId } };
    const res = await fetch(url, { method: 'POST', headers: { 'Content-Type': 'application/cloudevents+json; charset=utf-8' }, body: JSON.stringify(event) });
    await res.arrayBuffer().catch(() => undefined);
    return res.status;
  }

  /** Change a constituent (date_modified moves) and tell the subscribers, retrying a few times. */
  async function updateConstituent(id: string, patch: Partial<SimConstituent>): Promise<SimConstituent | undefined> {
    const c = state.constituents.get(id);
    if (!c) return undefined;
    Object.assign(c, patch, { date_modified: now().toISOString() });
    const eventId = crypto.randomUUID();
    for (const sub of state.subscriptions.filter((x) => x.provisioning_status === 'Provisioned' && x.event_type === 'com.blackbaud.constituent.change.v1')) {
      for (let attempt = 0; attempt < 3; attempt++) {
        const status = await deliver(sub.webhook_url, id, eventId).catch(() => 0);
        if (status >= 200 && status < 300) break;
      }
    }
    return c;
  }

  return {
    app,
    state,
    addConsent,
    updateConstituent,
    deliver,
    handshake,
    /** The next n calls (matching path) answer status, with Retry-After when given. */
    failNext(n: number, status: number, o: { retryAfter?: number; path?: RegExp } = {}) {
      for (let i = 0; i < n; i++) faults.push({ status, retryAfter: o.retryAfter, path: o.path });
    },
    dropNext(n: number, path?: RegExp) {
      for (let i = 0; i < n; i++) faults.push({ drop: true, path });
    },
    setDelay(ms: number) {
      delayMs = ms;
    },
    clearFaults() {
      faults.length = 0;
    },
    consentsOf: (id: string) => state.consents.filter((c) => c.constituent_id === id),
    /** Blackbaud revokes the application's access (an admin removed it, or the token aged out): refreshes answer invalid_grant. */
    revokeRefreshTokens() {
      state.refreshTokens.clear();
      state.accessTokens.clear();
    },
  };
}

export type RaisersEdgeSimulator = ReturnType<typeof createRaisersEdgeSimulator>;
