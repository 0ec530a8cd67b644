// Blackbaud Raiser's Edge NXT (SKY API) client: subscription key + bearer token on every call,
// the OAuth refresh with a rotating refresh token (persisted through the token store the moment
// it arrives), Retry-After honoured on 429 and on 403 "quota spent", 5xx retried with backoff.
// Wire format: docs/connect-raisers-edge-adestra.md (Raiser's Edge NXT).
import { answerError, createHttp, IntegrationError, realSleep, type HttpAnswer, type HttpSettings } from './crmHttp';

export interface RaisersEdgeSettings {
  /** API base, e.g. https://api.sky.blackbaud.com (the /constituent/v1 paths are appended). */
  baseUrl: string;
  /** OAuth token endpoint (POST, form-encoded). */
  tokenUrl: string;
  clientId: string;
  clientSecret: string;
  subscriptionKey: string;
}

export interface ReEmail {
  address?: string | null;
  primary?: boolean;
  inactive?: boolean;
  do_not_email?: boolean;
}

export interface Constituent {
  id: string;
  type?: string;
  first?: string;
  last?: string;
  name?: string;
  lookup_id?: string;
  inactive?: boolean;
  deceased?: boolean;
  requests_no_email?: boolean;
  date_modified?: string;
  email?: ReEmail | null;
}

/** A fuzzy date of the SKY API (`y`, `m`, `d`; sky-api-docs basics/fuzzydates.md). */
export interface FuzzyDate {
  y: number;
  m?: number;
  d?: number;
}

/** What an individual constituent is created with (the Constituent API's create body, trimmed to what we send). */
export interface NewConstituent {
  first?: string;
  last: string;
  email?: { address: string; type: string };
  address?: { lines: string[]; city?: string; state?: string; postalCode?: string; country?: string; type: string };
}

/** A constituent note as the CRM lists it. */
export interface ConstituentNote {
  id: string;
  type?: string;
  summary?: string;
  text?: string;
  date?: unknown;
}

export interface NewNote {
  constituent_id: string;
  type: string;
  summary: string;
  text: string;
  date: { y: number; m: number; d: number };
}

export type ConsentResponse = 'OptIn' | 'OptOut' | 'NoResponse';

export interface Consent {
  id?: string;
  constituent_id?: string;
  channel: string;
  category?: string;
  source?: string;
  consent_date?: string;
  constituent_consent_response: ConsentResponse;
  consent_statement?: string;
  date_added?: string;
}

export interface ConstituentPage {
  count: number;
  value: Constituent[];
  next_link?: string | null;
}

/** Where the rotating refresh token lives (the site's settings.env) and the access token cache. */
export interface ReTokenStore {
  getRefreshToken(): Promise<string | undefined>;
  /** Must persist before resolving: the old refresh token is already dead. */
  saveRefreshToken(token: string): Promise<void>;
  /** Why the site must be connected again (Blackbaud revoked the token), or undefined when it need not. */
  needsReconnect?(): Promise<string | undefined>;
  /** Remember that the refresh token was refused (400 invalid_grant), so runs stop asking and the screen says "Reconnect". */
  markRevoked?(reason: string): Promise<void>;
  access?: { token: string; expiresAt: number };
  refreshing?: Promise<string>;
}

/** A webhook subscription as the CRM lists it. */
export interface WebhookSubscription {
  id: string;
  event_type: string;
  webhook_url: string;
  /** e.g. Provisioned, Pending, Failed (absent when the CRM does not say). */
  provisioning_status?: string;
}

/** The token endpoint's answer (fixtures/sky-token-response.json): what is kept besides the tokens. */
export interface TokenGrant {
  environmentName?: string;
  environmentId?: string;
  tenantName?: string;
}

const isInvalidGrant = (body: unknown) => typeof body === 'object' && body !== null && (body as { error?: unknown }).error === 'invalid_grant';

/** A code-table list of the CRM ({count, value:[{description, inactive}]}, or plain strings): the active names. */
function activeNames(body: unknown): string[] {
  const value = Array.isArray(body) ? body : (body as { value?: unknown })?.value;
  if (!Array.isArray(value)) return [];
  return value
    .map((v) => (typeof v === 'string' ? { description: v } : (v as { description?: unknown; inactive?: unknown })))
    .filter((v) => typeof v?.description === 'string' && v.inactive !== true)
    .map((v) => String(v.description));
}

/** The id a create answers ({"id": "…"}); anything else is the CRM's fault, said plainly. */
function createdId(body: unknown, what: string): { id: string } {
  const id = (body as { id?: unknown } | null)?.id;
  if ((typeof id === 'string' && id) || typeof id === 'number') return { id: String(id) };
  throw new IntegrationError('raisers-edge', 'http', `raisers-edge (${what}) answered without the new record's id: ${JSON.stringify(body).slice(0, 200)}`, { body });
}

export function createRaisersEdgeClient(settings: RaisersEdgeSettings, store: ReTokenStore, httpSettings: HttpSettings) {
  const http = createHttp('raisers-edge', httpSettings);
  const now = () => (httpSettings.now ? httpSettings.now() : new Date()).getTime();
  const base = settings.baseUrl.replace(/\/$/, '');
  for (const [key, value] of Object.entries({ RE_BASE_URL: settings.baseUrl, RE_TOKEN_URL: settings.tokenUrl, RE_SUBSCRIPTION_KEY: settings.subscriptionKey, RE_CLIENT_ID: settings.clientId })) {
    if (!value) throw new IntegrationError('raisers-edge', 'config', `${key} is not set for this site`);
  }

  const sleep = httpSettings.sleep ?? realSleep;
  const tokenCall = (form: Record<string, string>) =>
    http.send({
      method: 'POST',
      url: settings.tokenUrl,
      idempotent: false,
      headers: {
        'Content-Type': 'application/x-www-form-urlencoded',
        Authorization: `Basic ${Buffer.from(`${settings.clientId}:${settings.clientSecret}`).toString('base64')}`,
        Accept: 'application/json',
      },
      body: new URLSearchParams(form).toString(),
    });

  /** Keep what a successful token answer gives: the rotated refresh token first (the old one is dead), then the access token. */
  async function accept(answer: HttpAnswer, what: string): Promise<{ access: string; body: Record<string, unknown> }> {
    const body = (answer.json ?? {}) as { access_token?: string; expires_in?: number; refresh_token?: string };
    if (!body?.access_token) throw new IntegrationError('raisers-edge', 'auth', `The token endpoint answered the ${what} without an access_token`, { status: answer.status, url: settings.tokenUrl, body: answer.json });
    if (body.refresh_token) await store.saveRefreshToken(body.refresh_token);
    store.access = { token: body.access_token, expiresAt: now() + Math.max(0, (body.expires_in ?? 3600) - 60) * 1000 };
    return { access: body.access_token, body: body as Record<string, unknown> };
  }

  async function refresh(): Promise<string> {
    const revoked = await store.needsReconnect?.();
    if (revoked) throw new IntegrationError('raisers-edge', 'reconnect', `Raiser's Edge must be connected again (an admin clicks Reconnect on the sync screen): ${revoked}`);
    const used = await store.getRefreshToken();
    if (!used) throw new IntegrationError('raisers-edge', 'config', 'RE_REFRESH_TOKEN is not set for this site: connect the CRM first');
    const call = (refreshToken: string) => tokenCall({ grant_type: 'refresh_token', refresh_token: refreshToken });
    let answer = await call(used);
    // Another instance may be rotating the token right now (it used ours a moment ago and has not
    // stored the new one yet): wait a little for the stored token to change, then use that one.
    let tried = used;
    for (let waited = 0; answer.status === 400 && waited <= 5_000; waited += 100) {
      const latest = await store.getRefreshToken();
      if (latest && latest !== tried) {
        tried = latest;
        answer = await call(latest);
        continue;
      }
      await sleep(100);
    }
    if (answer.status === 400 && isInvalidGrant(answer.json)) {
      const reason = `the CRM refused the refresh token (400 invalid_grant${typeof (answer.json as { error_description?: unknown }).error_description === 'string' ? `: ${(answer.json as { error_description: string }).error_description}` : ''})`;
      await store.markRevoked?.(reason);
      throw new IntegrationError('raisers-edge', 'reconnect', `Raiser's Edge must be connected again (an admin clicks Reconnect on the sync screen): ${reason}`, { status: 400, url: settings.tokenUrl, body: answer.json });
    }
    if (answer.status !== 200) {
      const err = answerError('raisers-edge', { method: 'POST', url: settings.tokenUrl }, answer, 'token refresh');
      throw new IntegrationError('raisers-edge', 'auth', err.message, err.info);
    }
    return (await accept(answer, 'token refresh')).access;
  }

  /** The authorisation-code grant: the code Blackbaud sent to our callback, for the first tokens. */
  async function exchangeCode(code: string, redirectUri: string): Promise<TokenGrant> {
    const answer = await tokenCall({ grant_type: 'authorization_code', code, redirect_uri: redirectUri });
    if (answer.status !== 200) {
      const err = answerError('raisers-edge', { method: 'POST', url: settings.tokenUrl }, answer, 'authorisation code exchange');
      throw new IntegrationError('raisers-edge', 'auth', err.message, err.info);
    }
    const { body } = await accept(answer, 'authorisation code exchange');
    const text = (k: string) => (typeof body[k] === 'string' ? (body[k] as string) : undefined);
    return { environmentName: text('environment_name'), environmentId: text('environment_id'), tenantName: text('tenant_name') };
  }

  async function accessToken(force = false): Promise<string> {
    if (!force && store.access && store.access.expiresAt > now()) return store.access.token;
    // One refresh at a time per site in this process: a second concurrent refresh would use a dead token.
    store.refreshing ??= refresh().finally(() => {
      store.refreshing = undefined;
    });
    return store.refreshing;
  }

  /** A SKY API call: key + bearer; a 401 refreshes the token once. */
  async function call(method: 'GET' | 'POST', pathOrUrl: string, body?: unknown): Promise<HttpAnswer & { url: string }> {
    const url = /^https?:\/\//.test(pathOrUrl) ? pathOrUrl : `${base}${pathOrUrl}`;
    for (let attempt = 0; ; attempt++) {
      const token = await accessToken(attempt > 0);
      const headers: Record<string, string> = { 'Bb-Api-Subscription-Key': settings.subscriptionKey, Authorization: `Bearer ${token}`, Accept: 'application/json' };
      if (body !== undefined) headers['Content-Type'] = 'application/json';
      const answer = await http.send({ method, url, headers, body: body === undefined ? undefined : JSON.stringify(body), idempotent: method === 'GET', quota403: true });
      if (answer.status === 401 && attempt === 0) {
        store.access = undefined;
        continue;
      }
      return { ...answer, url };
    }
  }

  async function expectOk(method: 'GET' | 'POST', path: string, body?: unknown, what?: string) {
    const answer = await call(method, path, body);
    if (answer.status < 200 || answer.status >= 300) throw answerError('raisers-edge', { method, url: answer.url }, answer, what);
    return answer.json;
  }

  return {
    /** The constituent, or undefined when the CRM does not know the id. */
    async getConstituent(id: string): Promise<Constituent | undefined> {
      const answer = await call('GET', `/constituent/v1/constituents/${encodeURIComponent(id)}`);
      if (answer.status === 404) return undefined;
      if (answer.status !== 200) throw answerError('raisers-edge', { method: 'GET', url: answer.url }, answer, 'constituent');
      return answer.json as Constituent;
    },

    /**
     * Every page of constituents changed since `since`, inactive and deceased ones included (they
     * are the ones who must leave the mailing lists). SKY answers a next_link even on the last,
     * empty page: an empty page ends the paging, and so does a next_link already followed.
     */
    async *changedSince(since: string, limit = 500): AsyncGenerator<ConstituentPage> {
      const first = new URLSearchParams({ last_modified: since, limit: String(limit), offset: '0', include_inactive: 'true', include_deceased: 'true' });
      let next: string | null | undefined = `/constituent/v1/constituents?${first}`;
      const seen = new Set<string>();
      while (next && !seen.has(next)) {
        seen.add(next);
        const page = (await expectOk('GET', next, undefined, 'constituents changed since')) as ConstituentPage;
        const value = Array.isArray(page?.value) ? page.value : [];
        if (!value.length) return;
        yield { count: Number(page?.count ?? 0), value, next_link: page?.next_link };
        next = page?.next_link;
      }
    },

    async searchByEmail(email: string): Promise<Array<{ id: string; name?: string; email?: string }>> {
      const q = new URLSearchParams({ search_text: email, search_field: 'email_address' });
      const body = (await expectOk('GET', `/constituent/v1/constituents/search?${q}`, undefined, 'constituent search')) as { value?: Array<{ id: string; name?: string; email?: string }> };
      return Array.isArray(body?.value) ? body.value : [];
    },

    /** The most recent Email consent(s) of a constituent. */
    async emailConsents(id: string): Promise<Consent[]> {
      const q = new URLSearchParams({ most_recent_only: 'true', channels: 'Email' });
      const body = (await expectOk('GET', `/commpref/v1/constituents/${encodeURIComponent(id)}/consents?${q}`, undefined, 'consents')) as { value?: Consent[] };
      return Array.isArray(body?.value) ? body.value : [];
    },

    async createConsent(consent: Consent & { constituent_id: string }): Promise<{ id?: string }> {
      return ((await expectOk('POST', '/commpref/v1/consent/consents', consent, 'create consent')) ?? {}) as { id?: string };
    },

    /** The organisation's consent sources and categories (active ones): what RE_CONSENT_SOURCE / RE_CONSENT_CATEGORY may name. */
    async consentSources(): Promise<string[]> {
      return activeNames(await expectOk('GET', '/commpref/v1/consent/sources', undefined, 'consent sources'));
    },
    async consentCategories(): Promise<string[]> {
      return activeNames(await expectOk('GET', '/commpref/v1/consent/categories', undefined, 'consent categories'));
    },

    /**
     * A new individual constituent with its preferred email and address; answers its id. Never
     * repeated on its own after a lost answer: the CRM may have created it, so the caller looks
     * the buyer up by email before trying again.
     */
    async createConstituent(input: NewConstituent): Promise<{ id: string }> {
      const body: Record<string, unknown> = { type: 'Individual', last: input.last };
      if (input.first) body.first = input.first;
      if (input.email) body.email = { address: input.email.address, type: input.email.type, primary: true };
      if (input.address) {
        const a = input.address;
        body.address = {
          // One string on the wire; the CRM's own formatted addresses break lines with CR LF.
          address_lines: a.lines.filter((l) => l.trim()).join('\r\n'),
          ...(a.city ? { city: a.city } : {}),
          ...(a.state ? { state: a.state } : {}),
          ...(a.postalCode ? { postal_code: a.postalCode } : {}),
          ...(a.country ? { country: a.country } : {}),
          type: a.type,
          primary: true,
        };
      }
      return createdId(await expectOk('POST', '/constituent/v1/constituents', body, 'create constituent'), 'create constituent');
    },

    /** The notes of a constituent (all of them: a constituent has few). */
    async constituentNotes(id: string): Promise<ConstituentNote[]> {
      const body = (await expectOk('GET', `/constituent/v1/constituents/${encodeURIComponent(id)}/notes`, undefined, 'constituent notes')) as { value?: ConstituentNote[] };
      return Array.isArray(body?.value) ? body.value : [];
    },

    /** A note on a constituent; answers its id. Not repeated on its own after a lost answer (see createConstituent). */
    async createNote(note: NewNote): Promise<{ id: string }> {
      return createdId(await expectOk('POST', '/constituent/v1/notes', note, 'create note'), 'create note');
    },

    /** The organisation's code tables that RE_EMAIL_TYPE / RE_ADDRESS_TYPE / RE_NOTE_TYPE must name (active entries). */
    async emailAddressTypes(): Promise<string[]> {
      return activeNames(await expectOk('GET', '/constituent/v1/emailaddresstypes', undefined, 'email address types'));
    },
    async addressTypes(): Promise<string[]> {
      return activeNames(await expectOk('GET', '/constituent/v1/addresstypes', undefined, 'address types'));
    },
    async noteTypes(): Promise<string[]> {
      return activeNames(await expectOk('GET', '/constituent/v1/notetypes', undefined, 'note types'));
    },

    /** The webhook subscriptions of this application in the connected environment. */
    async webhookSubscriptions(): Promise<WebhookSubscription[]> {
      const body = await expectOk('GET', '/webhook/v1/subscriptions', undefined, 'webhook subscriptions');
      const value = Array.isArray(body) ? body : (body as { value?: unknown })?.value;
      return Array.isArray(value) ? (value as WebhookSubscription[]) : [];
    },
    async createWebhookSubscription(eventType: string, webhookUrl: string): Promise<{ id?: string }> {
      return ((await expectOk('POST', '/webhook/v1/subscriptions', { event_type: eventType, webhook_url: webhookUrl }, 'create webhook subscription')) ?? {}) as { id?: string };
    },

    /** A raw GET for the connectivity test call. */
    rawGet: (path: string) => call('GET', path),
    accessToken,
    exchangeCode,
  };
}

export type RaisersEdgeClient = ReturnType<typeof createRaisersEdgeClient>;

/** The most recent consent of a list (by consent_date, then date_added). */
export function mostRecentConsent(consents: Consent[]): Consent | undefined {
  const key = (c: Consent) => `${c.consent_date ?? ''}|${c.date_added ?? ''}`;
  return [...consents].filter((c) => (c.channel ?? 'Email').toLowerCase() === 'email').sort((a, b) => (key(a) < key(b) ? 1 : key(a) > key(b) ? -1 : 0))[0];
}
