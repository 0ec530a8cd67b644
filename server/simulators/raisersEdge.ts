// A loopback Blackbaud Raiser's Edge NXT (SKY API) for the demo and the tests, written from
// docs/connect-raisers-edge-adestra.md (Raiser's Edge NXT) and Blackbaud's sky-api-docs: the authorisation page
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
//
// Creating constituents and notes, from the Constituent API reference (developer.sky.blackbaud.com
// CreateConstituent, CreateConstituentNote, GetConstituentNote, ListConstituentAddressesSingleConstituent;
// the generated Blackbaud SDKs' ConstituentAdd / ConstituentEmailAddressAdd / ConstituentAddressAdd /
// NoteAdd models) and sky-api-docs basics (response.md, fuzzydates.md):
// - POST /constituent/v1/constituents {type, first, last, email {address, type, primary…},
//   address {address_lines (one string, ≤150), city, state, postal_code, country, type, primary…}}:
//   `type` is required (Individual or Organization), `last` for an individual, `email.type` and
//   `address.type` must be entries of the organisation's Email Address Types / Address Types code
//   tables. Answers 200 (SKY does not use 201) with {"id": "…"}.
// - POST /constituent/v1/notes {constituent_id, type, date (fuzzy date {y, m, d}), summary (≤50), text}:
//   constituent_id, date and type required, type from the Notepad Types table. Answers 200 {"id": "…"}.
// - GET /constituent/v1/constituents/{id}/notes: {count, value: [{id, constituent_id, type, date, summary, text}]}.
// - GET /constituent/v1/emailaddresstypes, /addresstypes, /notetypes: {count, value: ["…"]}.
// - A 400 answers an array of errors; the developer blog "Handle common errors" shows
//   [{"Message", "ErrorCode": 400, "RawMessage"}], responses seen on the wire (community forum, 2024)
//   are [{"message", "error_name", "error_code", "raw_message"}] — the latter is what this sends.
//   The exact wording and error_name for an unknown code-table entry are not public: ours are made up.
// Which entries an organisation's code tables hold is not public either (each organisation edits
// its own): they are options here and settings (RE_EMAIL_TYPE, RE_ADDRESS_TYPE, RE_NOTE_TYPE) for us.
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
  email: { address: string; primary: boolean; inactive: boolean; do_not_email: boolean; type?: string } | null;
  /** The preferred address (only constituents created through the API carry one here). */
  address?: { address_lines: string; city?: string; state?: string; postal_code?: string; country?: string; type: string; primary?: boolean };
}

export interface SimNote {
  id: string;
  constituent_id: string;
  type: string;
  date: { y: number; m?: number; d?: number };
  summary?: string;
  text?: string;
  date_added: string;
}

/** One entry of the array a SKY API 400 answers. */
export function skyError(message: string, errorName: string, errorCode = 400) {
  return [{ message, error_name: errorName, error_code: errorCode, raw_message: message }];
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
  /** The organisation's Email Address Types, Address Types and Notepad Types code tables. */
  emailAddressTypes?: string[];
  addressTypes?: string[];
  noteTypes?: string[];
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
    notes: [] as SimNote[],
    emailAddressTypes: opts.emailAddressTypes ?? ['Email', 'Work Email', 'Personal Email'],
    addressTypes: opts.addressTypes ?? ['Home', 'Business', 'Previous address'],
    noteTypes: opts.noteTypes ?? ['General', 'Personal', 'Career', 'Address Changes'],
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
  // New record ids follow the highest one given, as the CRM's system record ids grow.
  let constituentSeq = Math.max(999, ...[...state.constituents.keys()].map(Number).filter(Number.isFinite));
  let noteSeq = 0;
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

  const text = (v: unknown) => (typeof v === 'string' ? v.trim() : '');
  const tooLong = (field: string, v: string, max: number) => (v.length > max ? `${field} must be ${max} characters or fewer.` : undefined);

  api.post('/constituent/v1/constituents', (req, res) => {
    const b = (req.body ?? {}) as Record<string, unknown>;
    const bad = (message: string, name: string) => void res.status(400).json(skyError(message, name));
    if (b.type !== 'Individual' && b.type !== 'Organization') return bad('The constituent type must be Individual or Organization.', 'InvalidConstituentType');
    if (b.type === 'Organization') return bad('This simulator creates individuals only.', 'InvalidConstituentType');
    const first = text(b.first);
    const last = text(b.last);
    if (!last) return bad('Last name is required for an individual.', 'LastNameRequired');
    const long = tooLong('first', first, 50) ?? tooLong('last', last, 100);
    if (long) return bad(long, 'StringTooLong');
    const e = b.email as Record<string, unknown> | undefined;
    if (e !== undefined) {
      if (!text(e?.address)) return bad('Email address is required.', 'EmailAddressRequired');
      if (!state.emailAddressTypes.includes(String(e.type))) return bad(`'${String(e.type ?? '')}' is not a valid email address type.`, 'InvalidEmailAddressType');
    }
    const a = b.address as Record<string, unknown> | undefined;
    if (a !== undefined) {
      if (!state.addressTypes.includes(String(a?.type))) return bad(`'${String(a?.type ?? '')}' is not a valid address type.`, 'InvalidAddressType');
      const lines = tooLong('address_lines', text(a.address_lines), 150) ?? tooLong('city', text(a.city), 50) ?? tooLong('postal_code', text(a.postal_code), 12);
      if (lines) return bad(lines, 'StringTooLong');
    }
    const id = String(++constituentSeq);
    const c: SimConstituent = {
      id,
      type: 'Individual',
      first,
      last,
      name: [first, last].filter(Boolean).join(' '),
      lookup_id: `LU${id}`,
      inactive: false,
      deceased: false,
      requests_no_email: false,
      date_modified: now().toISOString(),
      email: e ? { address: text(e.address), type: String(e.type), primary: e.primary !== false, inactive: e.inactive === true, do_not_email: e.do_not_email === true } : null,
      ...(a
        ? {
            address: {
              address_lines: text(a.address_lines),
              ...(text(a.city) ? { city: text(a.city) } : {}),
              ...(text(a.state) ? { state: text(a.state) } : {}),
              ...(text(a.postal_code) ? { postal_code: text(a.postal_code) } : {}),
              ...(text(a.country) ? { country: text(a.country) } : {}),
              type: String(a.type),
              primary: a.primary !== false,
            },
          }
        : {}),
    };
    state.constituents.set(id, c);
    res.status(200).json({ id });
  });

  api.get('/constituent/v1/constituents/:id/notes', (req, res) => {
    const id = String(req.params.id);
    if (!state.constituents.has(id)) return void res.status(404).json({ statusCode: 404, message: 'Constituent not found' });
    const value = state.notes.filter((n) => n.constituent_id === id).map(({ date_added: _added, ...n }) => n);
    res.json({ count: value.length, value });
  });

  api.post('/constituent/v1/notes', (req, res) => {
    const b = (req.body ?? {}) as Record<string, unknown>;
    const bad = (message: string, name: string) => void res.status(400).json(skyError(message, name));
    const constituentId = text(b.constituent_id);
    if (!constituentId) return bad('constituent_id is required.', 'ConstituentIdRequired');
    if (!state.constituents.has(constituentId)) return bad(`Constituent with ID ${constituentId} was not found.`, 'ConstituentNotFound');
    if (!text(b.type)) return bad('Note type is required.', 'NoteTypeRequired');
    if (!state.noteTypes.includes(String(b.type))) return bad(`'${String(b.type)}' is not a valid note type.`, 'InvalidNoteType');
    const d = b.date as Record<string, unknown> | undefined;
    const part = (k: string) => (d?.[k] === undefined ? undefined : Number(d[k]));
    const [y, m, day] = [part('y'), part('m'), part('d')];
    if (!d || typeof d !== 'object' || !Number.isInteger(y) || (m !== undefined && !(Number.isInteger(m) && m >= 1 && m <= 12)) || (day !== undefined && !(Number.isInteger(day) && day >= 1 && day <= 31)))
      return bad('date must be a fuzzy date {y, m, d}.', 'InvalidFuzzyDate');
    const summary = typeof b.summary === 'string' ? b.summary : undefined;
    const long = summary !== undefined ? tooLong('summary', summary, 50) : undefined;
    if (long) return bad(long, 'StringTooLong');
    const note: SimNote = {
      id: String(++noteSeq),
      constituent_id: constituentId,
      type: String(b.type),
      date: { y: y as number, ...(m !== undefined ? { m } : {}), ...(day !== undefined ? { d: day } : {}) },
      ...(summary !== undefined ? { summary } : {}),
      ...(typeof b.text === 'string' ? { text: b.text } : {}),
      date_added: now().toISOString(),
    };
    state.notes.push(note);
    res.status(200).json({ id: note.id });
  });

  const stringTable = (names: string[]) => ({ count: names.length, value: names });
  api.get('/constituent/v1/emailaddresstypes', (_req, res) => void res.json(stringTable(state.emailAddressTypes)));
  api.get('/constituent/v1/addresstypes', (_req, res) => void res.json(stringTable(state.addressTypes)));
  api.get('/constituent/v1/notetypes', (_req, res) => void res.json(stringTable(state.noteTypes)));

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
    notesOf: (id: string) => state.notes.filter((n) => n.constituent_id === id),
    /** The constituents whose email is this address (case-insensitive): one after a create, never two. */
    constituentsByEmail: (email: string) => [...state.constituents.values()].filter((c) => (c.email?.address ?? '').toLowerCase() === email.trim().toLowerCase()),
    /** Blackbaud revokes the application's access (an admin removed it, or the token aged out): refreshes answer invalid_grant. */
    revokeRefreshTokens() {
      state.refreshTokens.clear();
      state.accessTokens.clear();
    },
  };
}

export type RaisersEdgeSimulator = ReturnType<typeof createRaisersEdgeSimulator>;
