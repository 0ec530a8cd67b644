// Contract: Blackbaud's own published samples (fixtures/vendor/sky-*.json), byte for byte, fed
// to our SKY API client (token exchange and refresh, rate limit, daily quota, paging) and to our
// CRM webhook receiver (CloudEvents bodies and the OPTIONS handshake).
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { IntegrationError } from '../src/integrations/crmHttp';
import { createRaisersEdgeClient, type ReTokenStore } from '../src/integrations/raisersEdge';
import { createSyncWorld, KEYS, listen, person } from './sync-world';

const repoRoot = path.resolve(import.meta.dirname, '../..');
const fixture = (name: string) => fs.readFileSync(path.join(path.resolve(repoRoot, 'server/test/fixtures/vendor'), name));

interface Seen {
  url: string;
  method: string;
  headers: Record<string, string>;
  body: string;
}

/** A fetch that answers the queued answers in order and records what it was asked. */
function scriptedFetch(answers: Array<{ status: number; body: Buffer | string; headers?: Record<string, string> }>) {
  const seen: Seen[] = [];
  const fetch = (async (url: string | URL, init?: RequestInit) => {
    seen.push({ url: String(url), method: init?.method ?? 'GET', headers: Object.fromEntries(Object.entries((init?.headers ?? {}) as Record<string, string>).map(([k, v]) => [k.toLowerCase(), v])), body: String(init?.body ?? '') });
    const next = answers.shift();
    if (!next) throw new Error(`unexpected call ${String(url)}`);
    return new Response(typeof next.body === 'string' ? next.body : new Uint8Array(next.body), { status: next.status, headers: { 'Content-Type': 'application/json', ...next.headers } });
  }) as typeof globalThis.fetch;
  return { fetch, seen };
}

const SETTINGS = { baseUrl: 'https://api.sky.example', tokenUrl: 'https://oauth2.sky.example/token', clientId: 'app-id', clientSecret: 'app-secret', subscriptionKey: 'sub-key' };

function client(answers: Parameters<typeof scriptedFetch>[0], o: { refreshToken?: string; maxRetryAfterSeconds?: number } = {}) {
  const { fetch, seen } = scriptedFetch(answers);
  const saved: string[] = [];
  const waits: number[] = [];
  const store: ReTokenStore = { getRefreshToken: async () => o.refreshToken ?? saved.at(-1), saveRefreshToken: async (t) => void saved.push(t) };
  const re = createRaisersEdgeClient(SETTINGS, store, { fetch, sleep: async (ms) => void waits.push(ms), random: () => 0.5, timeoutMs: 1000, maxRetryAfterSeconds: o.maxRetryAfterSeconds ?? 120 });
  return { re, seen, saved, waits, store };
}

const token = JSON.parse(fixture('sky-token-response.json').toString('utf8')) as { access_token: string; refresh_token: string; environment_name: string };
const ok = (value: unknown) => ({ status: 200, body: JSON.stringify(value) });

describe('contract: SKY API token endpoint (sky-token-response.json)', () => {
  it('authorisation-code exchange: form body, Basic client auth; the refresh token stored, the access token used', async () => {
    const c = client([{ status: 200, body: fixture('sky-token-response.json') }, ok({ id: '280' })]);
    const grant = await c.re.exchangeCode('code-123', 'https://presswork.example/api/sites/demo/raiser-edge/callback');
    expect(grant).toMatchObject({ environmentName: token.environment_name });
    expect(c.saved).toEqual([token.refresh_token]);
    const [exchange] = c.seen;
    expect(exchange).toMatchObject({ method: 'POST', url: SETTINGS.tokenUrl });
    expect(exchange.headers['content-type']).toBe('application/x-www-form-urlencoded');
    expect(exchange.headers.authorization).toBe(`Basic ${Buffer.from('app-id:app-secret').toString('base64')}`);
    expect(Object.fromEntries(new URLSearchParams(exchange.body))).toEqual({ grant_type: 'authorization_code', code: 'code-123', redirect_uri: 'https://presswork.example/api/sites/demo/raiser-edge/callback' });
    // The next API call carries that access token (no refresh needed).
    await c.re.getConstituent('280');
    expect(c.seen[1].headers.authorization).toBe(`Bearer ${token.access_token}`);
    expect(c.seen[1].headers['bb-api-subscription-key']).toBe('sub-key');
  });

  it('refresh: grant_type=refresh_token with the stored token; the rotated one is stored at once', async () => {
    const c = client([{ status: 200, body: fixture('sky-token-response.json') }], { refreshToken: 'old-refresh' });
    expect(await c.re.accessToken()).toBe(token.access_token);
    expect(Object.fromEntries(new URLSearchParams(c.seen[0].body))).toEqual({ grant_type: 'refresh_token', refresh_token: 'old-refresh' });
    expect(c.saved).toEqual([token.refresh_token]);
  });

  it('a revoked refresh token (400 invalid_grant) marks the site for reconnecting and says so', async () => {
    const marked: string[] = [];
    const c = client([{ status: 400, body: JSON.stringify({ error: 'invalid_grant' }) }], { refreshToken: 'revoked' });
    c.store.markRevoked = async (reason) => void marked.push(reason);
    const err = await c.re.accessToken().catch((e: unknown) => e);
    expect(err).toBeInstanceOf(IntegrationError);
    expect(err).toMatchObject({ kind: 'reconnect' });
    expect((err as Error).message).toMatch(/connected again.*invalid_grant/);
    expect(marked).toHaveLength(1);
  });
});

describe('contract: SKY API limits (sky-429.json, sky-403-quota.json)', () => {
  it('429 with Retry-After 1: the client waits one second, then goes on', async () => {
    const c = client([{ status: 200, body: fixture('sky-token-response.json') }, { status: 429, body: fixture('sky-429.json'), headers: { 'Retry-After': '1' } }, ok({ id: '280' })], { refreshToken: 'r' });
    expect(await c.re.getConstituent('280')).toMatchObject({ id: '280' });
    expect(c.waits).toEqual([1000]);
  });

  it('403 quota with Retry-After 406 (longer than we wait): gives up, reporting the quota and the CRM\'s own words', async () => {
    const c = client([{ status: 200, body: fixture('sky-token-response.json') }, { status: 403, body: fixture('sky-403-quota.json'), headers: { 'Retry-After': '406' } }], { refreshToken: 'r' });
    const err = (await c.re.getConstituent('280').catch((e: unknown) => e)) as IntegrationError;
    expect(err).toBeInstanceOf(IntegrationError);
    expect(err.kind).toBe('quota');
    expect(err.info).toMatchObject({ status: 403, retryAfterSeconds: 406, body: JSON.parse(fixture('sky-403-quota.json').toString('utf8')) });
    expect(err.message).toMatch(/daily call quota is spent; retry after 406 s/);
    expect(err.message).toContain('Quota will be replenished in 00:06:46.');
    expect(c.waits).toEqual([]);
  });
});

describe('contract: SKY API changed-constituents paging', () => {
  const page = (ids: string[], next: string | undefined) => ok({ count: 3, value: ids.map((id) => ({ id })), ...(next ? { next_link: next } : {}) });

  it('asks with include_inactive and include_deceased; an empty page ends it although it has a next_link', async () => {
    const c = client([{ status: 200, body: fixture('sky-token-response.json') }, page(['1', '2'], 'https://api.sky.example/constituent/v1/constituents?offset=2'), page(['3'], 'https://api.sky.example/constituent/v1/constituents?offset=4'), page([], 'https://api.sky.example/constituent/v1/constituents?offset=6')], { refreshToken: 'r' });
    const ids: string[] = [];
    for await (const p of c.re.changedSince('2026-03-10T00:00:00Z', 2)) ids.push(...p.value.map((v) => v.id));
    expect(ids).toEqual(['1', '2', '3']);
    const first = new URL(c.seen[1].url);
    expect(first.searchParams.get('include_inactive')).toBe('true');
    expect(first.searchParams.get('include_deceased')).toBe('true');
    expect(c.seen).toHaveLength(4);
  });

  it('a next_link that repeats is not followed again', async () => {
    const same = 'https://api.sky.example/constituent/v1/constituents?offset=2';
    const c = client([{ status: 200, body: fixture('sky-token-response.json') }, page(['1'], same), page(['2'], same)], { refreshToken: 'r' });
    const ids: string[] = [];
    for await (const p of c.re.changedSince('2026-03-10T00:00:00Z', 1)) ids.push(...p.value.map((v) => v.id));
    expect(ids).toEqual(['1', '2']);
    expect(c.seen).toHaveLength(3);
  });
});

describe('contract: SKY webhooks (sky-webhook-*.json) at our receiver', async () => {
  const s = await createSyncWorld({ constituents: [person('7203')], consents: [{ constituent_id: '7203', channel: 'Email', category: 'Newsletter', source: 'Website', consent_date: '2026-01-01T00:00:00Z', constituent_consent_response: 'OptIn' }] });
  const hookUrl = `/api/sites/site-a/raiser-edge-webhook?webhookKey=${encodeURIComponent(KEYS.webhookKey)}`;
  // Over a real socket with the file's bytes as the body (supertest would re-encode a Buffer).
  const server = await listen(s.app);
  afterAll(() => server.close());
  const deliver = async (name: string) => {
    const res = await fetch(`${server.url}${hookUrl}`, { method: 'POST', headers: { 'Content-Type': 'application/cloudevents+json; charset=utf-8' }, body: new Uint8Array(fixture(name)) });
    return { status: res.status, body: (await res.json()) as { data?: unknown; error?: string } };
  };

  it('the OPTIONS handshake from eventgrid.azure.net is allowed', async () => {
    const res = await s.request().options(hookUrl).set('WebHook-Request-Origin', 'eventgrid.azure.net');
    expect(res.status).toBe(200);
    expect(res.headers['webhook-allowed-origin']).toBe('eventgrid.azure.net');
  });

  it('an email-address change: accepted, and the constituent it names is synced', async () => {
    const res = await deliver('sky-webhook-emailaddress-change.json');
    expect(res.body.error ?? null).toBeNull();
    expect(res.status).toBe(200);
    expect(res.body.data).toMatchObject({ status: 'queued', eventId: '575bca1a-7250-418e-a6ee-2472be4fd06c' });
    await s.sync.idle();
    expect(s.adestra.isOnList('person7203@example.org')).toBe(true);
    const delivery = await s.w.db('webhook_deliveries').where({ source: 're' }).first();
    expect(delivery).toMatchObject({ status: 'processed', topic: 'com.blackbaud.constituent.emailaddress.change.v1' });
  });

  it('a constituent deletion: accepted, and that constituent\'s contact leaves the opt-in list', async () => {
    expect(s.adestra.isOnList('person7203@example.org')).toBe(true);
    const res = await deliver('sky-webhook-constituent-delete.json');
    expect(res.status).toBe(200);
    expect(res.body.data).toMatchObject({ status: 'queued' });
    await s.sync.idle();
    expect(s.adestra.isOnList('person7203@example.org')).toBe(false);
    const run = await s.w.db('general_data').where({ type: 're-sync', field1: '7203' }).orderBy('id', 'desc').first();
    expect(JSON.parse(typeof run.data === 'string' ? run.data : JSON.stringify(run.data)).results[0]).toMatchObject({ action: 'opted-out', reason: 'deleted', email: 'person7203@example.org' });
  });

  it('an event type we do not act on: answered 200 and ignored', async () => {
    const other = JSON.parse(fixture('sky-webhook-constituent-delete.json').toString('utf8')) as Record<string, unknown>;
    const res = await s.request().post(hookUrl).set('Content-Type', 'application/cloudevents+json').send(JSON.stringify({ ...other, id: 'gift-1', type: 'com.blackbaud.gift.add.v1' }));
    expect(res.status).toBe(200);
    expect(res.body.data).toMatchObject({ status: 'ignored' });
  });
});
