// CRM → email platform against the simulators: consent cases, paging, rate limits, token rotation,
// network errors in the run log, validation messages, tenancy, the CRM webhook, test calls.
import { describe, expect, it } from 'vitest';
import { fromJson } from '../src/db';
import { dayIn } from '../src/lib/time';
import { bearer } from './harness';
import { REFUSED_PORT } from './infra';
import { createSyncWorld, KEYS, listen, person } from './sync-world';

const DAY = '2026-03-10';
const consent = (id: string, response: 'OptIn' | 'OptOut' | 'NoResponse', date = '2026-01-01T00:00:00Z') => ({
  constituent_id: id,
  channel: 'Email',
  category: 'Newsletter',
  source: 'Website',
  consent_date: date,
  constituent_consent_response: response,
});

// 25 constituents modified on DAY (pages of 10), 3 the day after, 2 the day before.
const dayPeople = Array.from({ length: 25 }, (_, i) => person(String(500 + i), { date_modified: `${DAY}T${String(i % 24).padStart(2, '0')}:30:00.000Z` }));
const otherDays = [
  person('600', { date_modified: '2026-03-11T01:00:00.000Z' }),
  person('601', { date_modified: '2026-03-11T02:00:00.000Z' }),
  person('602', { date_modified: '2026-03-12T02:00:00.000Z' }),
  person('603', { date_modified: '2026-03-09T23:00:00.000Z' }),
  person('604', { date_modified: '2026-03-09T10:00:00.000Z' }),
];

describe('sync: Raiser\'s Edge → Adestra', async () => {
  const s = await createSyncWorld({
    constituents: [
      person('1'),
      person('2'),
      person('3'),
      person('4', { email: null }),
      person('5', { deceased: true }),
      person('6', { inactive: true }),
      person('7', { requests_no_email: true }),
      person('8'),
      ...dayPeople,
      ...otherDays,
    ],
    consents: [
      consent('1', 'OptIn'),
      // the most recent consent decides
      consent('2', 'OptIn', '2025-01-01T00:00:00Z'),
      consent('2', 'OptOut', '2026-02-01T00:00:00Z'),
      consent('3', 'NoResponse'),
      consent('4', 'OptIn'),
      consent('5', 'OptIn'),
      consent('6', 'OptIn'),
      consent('7', 'OptIn'),
      ...dayPeople.map((p, i) => consent(p.id, i % 3 === 0 ? 'OptOut' : 'OptIn')),
    ],
    sync: { pageSize: 10 },
  });
  const { w } = s;
  const api = (path: string) => `/api/sites/site-a${path}`;
  const post = (path: string, body: object = {}, token = w.tokens.userA) => s.request().post(api(path)).set(bearer(token)).send(body);
  const get = (path: string, token = w.tokens.userA) => s.request().get(api(path)).set(bearer(token));
  const syncOne = (id: string, token?: string) => post('/raiser-edge-sync-one', { constituent_id: id }, token);
  const storedRefreshToken = async () => fromJson<{ env: Array<{ key: string; value: string }> }>((await w.db('sites').where({ id: w.sites.a }).first()).settings, { env: [] }).env.find((e) => e.key === 'RE_REFRESH_TOKEN')?.value;

  describe('one constituent: the consent decides the opt-in list', () => {
    it('OptIn → contact upserted and put on the opt-in list; the result has email, category, consent and link', async () => {
      const res = await syncOne('1');
      expect(res.status).toBe(200);
      expect(res.body.success).toBe(true);
      const { result, run } = res.body.data;
      expect(result).toMatchObject({ constituentId: '1', email: 'person1@example.org', category: 'Newsletter', consent: 'OptIn', action: 'opted-in', reason: 'consent-opt-in' });
      expect(result.link).toBe(`${s.adServer.url}/api/rest/1/contacts/${result.contactId}`);
      expect(s.adestra.isOnList('person1@example.org')).toBe(true);
      expect(s.adestra.contactByEmail('person1@example.org')).toMatchObject({ first_name: 'First1', last_name: 'Last1', re_constituent_id: '1' });
      // The run log (spec §3 sync log): field1 = the constituent id.
      expect(run).toMatchObject({ type: 're-sync', field1: '1', field2: 'one', status: 'success' });
      expect(run.data).toMatchObject({ trigger: 'manual', status: 'success', optInList: ['person1@example.org'], optOutList: [], errors: [] });
      expect(run.data.startedAt).toEqual(expect.any(String));
      expect(run.data.finishedAt).toEqual(expect.any(String));
      expect(run.data.results).toHaveLength(1);
    });

    it('OptOut (the most recent consent, after an older OptIn) → taken off the list', async () => {
      const first = await syncOne('2');
      expect(first.body.data.result).toMatchObject({ consent: 'OptOut', action: 'opted-out', reason: 'consent-opt-out' });
      expect(s.adestra.isOnList('person2@example.org')).toBe(false);
      expect(first.body.data.run.data.optOutList).toEqual(['person2@example.org']);
    });

    it('a contact on the list whose consent becomes OptOut is removed', async () => {
      expect(s.adestra.isOnList('person1@example.org')).toBe(true);
      s.re.addConsent(consent('1', 'OptOut', '2026-03-01T00:00:00Z'));
      const res = await syncOne('1');
      expect(res.body.data.result).toMatchObject({ consent: 'OptOut', action: 'opted-out' });
      expect(s.adestra.isOnList('person1@example.org')).toBe(false);
    });

    it('NoResponse, or no consent at all → not on the list', async () => {
      expect((await syncOne('3')).body.data.result).toMatchObject({ consent: 'NoResponse', action: 'opted-out', reason: 'no-consent' });
      expect((await syncOne('8')).body.data.result).toMatchObject({ consent: null, category: null, action: 'opted-out', reason: 'no-consent' });
      expect(s.adestra.isOnList('person3@example.org')).toBe(false);
      expect(s.adestra.isOnList('person8@example.org')).toBe(false);
    });

    it('no email → nothing to upsert; a contact it had before is taken off the list', async () => {
      const res = await syncOne('4');
      expect(res.body.data.result).toMatchObject({ email: null, consent: 'OptIn', action: 'skipped', reason: 'no-email', link: null });
      // It had an address before, and was opted in under it.
      s.re.state.constituents.get('4')!.email = { address: 'old4@example.org', primary: true, inactive: false, do_not_email: false };
      expect((await syncOne('4')).body.data.result.action).toBe('opted-in');
      expect(s.adestra.isOnList('old4@example.org')).toBe(true);
      s.re.state.constituents.get('4')!.email = null;
      const again = await syncOne('4');
      expect(again.body.data.result).toMatchObject({ action: 'opted-out', reason: 'no-email' });
      expect(s.adestra.isOnList('old4@example.org')).toBe(false);
      expect(again.body.data.run.data.optOutList).toEqual(['#4']);
    });

    it('deceased, inactive, requests no email → off the list even with an OptIn consent', async () => {
      for (const [id, reason] of [
        ['5', 'deceased'],
        ['6', 'inactive'],
        ['7', 'requests-no-email'],
      ]) {
        const res = await syncOne(id);
        expect(res.body.data.result).toMatchObject({ consent: 'OptIn', action: 'opted-out', reason });
        expect(s.adestra.isOnList(`person${id}@example.org`)).toBe(false);
      }
    });

    it('an unknown constituent → 404, and the failed run is logged', async () => {
      const res = await syncOne('999999');
      expect(res.status).toBe(404);
      expect(res.body).toMatchObject({ success: false, error: 'Constituent 999999 was not found in the CRM' });
      const list = await get('/raiser-edge-sync/list?field1=999999');
      expect(list.body.data.list[0]).toMatchObject({ field1: '999999', status: 'failed' });
    });
  });

  describe('validation (spec §5, exact texts)', () => {
    it('empty constituent id → "Please enter RE constitunent id"', async () => {
      for (const body of [{}, { constituent_id: '' }, { constituent_id: '   ' }]) {
        const res = await post('/raiser-edge-sync-one', body);
        expect(res.status).toBe(400);
        expect(res.body).toEqual({ success: false, error: 'Please enter RE constitunent id' });
      }
    });

    it('empty day → "Please enter the date"; not YYYY-MM-DD → a format message', async () => {
      const empty = await post('/raiser-edge-sync-list-from-specific-day', { day: '' });
      expect(empty.status).toBe(400);
      expect(empty.body.error).toBe('Please enter the date');
      for (const day of ['10/03/2026', '2026-3-10', '2026-02-30', 'yesterday']) {
        const bad = await post('/raiser-edge-sync-list-from-specific-day', { day });
        expect(bad.status).toBe(400);
        expect(bad.body.error).toBe('The date must be in the format YYYY-MM-DD');
      }
    });

    it('a day after today → 400 with a clear message, and no run is started', async () => {
      const runs = async () => (await w.db('general_data').count({ n: '*' }).first())?.n;
      const before = await runs();
      const tomorrow = new Date(w.clock.now().getTime() + 2 * 86_400_000).toISOString().slice(0, 10);
      const res = await post('/raiser-edge-sync-list-from-specific-day', { day: tomorrow });
      expect(res.status).toBe(400);
      expect(res.body).toEqual({ success: false, error: 'The date is in the future: no contact can have changed on that day yet' });
      expect(await runs()).toBe(before);
    });
  });

  describe('sync by day', () => {
    it('follows next_link to the end: every constituent modified that day, none of the other days; progress on the run', async () => {
      const callsBefore = s.re.state.calls.length;
      const res = await post('/raiser-edge-sync-list-from-specific-day?wait=1', { day: DAY });
      expect(res.status).toBe(200);
      const run = res.body.data.run;
      expect(run).toMatchObject({ type: 're-sync', field1: DAY, field2: 'day', status: 'success' });
      const ids = run.data.results.map((r: { constituentId: string }) => r.constituentId).sort();
      expect(ids).toEqual(dayPeople.map((p) => p.id).sort());
      // Changed since the day window (day − 14 h): 25 of that day + 3 later + 2 the evening before → 3 pages of 10,
      // then the empty page SKY still links to (its next_link too is ignored: paging ends there).
      const pages = s.re.state.calls.slice(callsBefore).filter((c) => c.path === '/constituent/v1/constituents');
      expect(pages).toHaveLength(4);
      for (const p of pages) expect(p.url).toMatch(/include_inactive=true.*include_deceased=true|include_deceased=true.*include_inactive=true/);
      expect(run.data.progress).toMatchObject({ pages: 3, done: 25, matched: 25, failed: 0 });
      expect(run.data.optInList).toHaveLength(16);
      expect(run.data.optOutList).toHaveLength(9);
      expect(s.adestra.isOnList('person501@example.org')).toBe(true);
      expect(s.adestra.isOnList('person500@example.org')).toBe(false);
    });

    it('inactive and deceased people changed that day are read too, opted out and taken off the opt-in list', async () => {
      const day = '2026-03-20';
      const gone = [person('700', { deceased: true, date_modified: `${day}T10:00:00.000Z` }), person('701', { inactive: true, date_modified: `${day}T11:00:00.000Z` })];
      for (const p of gone) {
        s.re.state.constituents.set(p.id, p);
        s.re.addConsent(consent(p.id, 'OptIn'));
        // On the list from an earlier sync, when they were alive and active.
        const contact = s.adestra.state.contacts.size + 1000;
        s.adestra.state.contacts.set(contact, { id: contact, email: `person${p.id}@example.org`, re_constituent_id: p.id });
        s.adestra.state.lists.get(1)!.members.add(contact);
      }
      const res = await post('/raiser-edge-sync-list-from-specific-day?wait=1', { day });
      expect(res.body.data.run.data.results.map((r: { constituentId: string; action: string; reason: string }) => [r.constituentId, r.action, r.reason])).toEqual([
        ['700', 'opted-out', 'deceased'],
        ['701', 'opted-out', 'inactive'],
      ]);
      expect(res.body.data.run.data.optOutList).toEqual(['person700@example.org', 'person701@example.org']);
      expect(s.adestra.isOnList('person700@example.org')).toBe(false);
      expect(s.adestra.isOnList('person701@example.org')).toBe(false);
    });

    it('answers at once with the running record; the UI polls it by id', async () => {
      const res = await post('/raiser-edge-sync-list-from-specific-day', { day: '2026-03-11' });
      expect(res.status).toBe(200);
      expect(res.body.data.run).toMatchObject({ field1: '2026-03-11', field2: 'day' });
      await s.sync.idle();
      const polled = await get(`/raiser-edge-sync/${res.body.data.run.id}`);
      expect(polled.body.data.status).toBe('success');
      expect(polled.body.data.data.results.map((r: { constituentId: string }) => r.constituentId).sort()).toEqual(['600', '601']);
    });

    it('the same Idempotency-Key twice (a double click on Sync) starts one run; the repeat answers the first run', async () => {
      const day = '2026-03-09';
      const runsOfDay = async () => (await w.db('general_data').where({ type: 're-sync', field1: day, field2: 'day' }).count({ n: '*' }).first())?.n;
      const send = () => s.request().post(api('/raiser-edge-sync-list-from-specific-day?wait=1')).set(bearer(w.tokens.userA)).set('Idempotency-Key', 'day-sync-click-1').send({ day });
      const first = await send();
      const again = await send();
      expect(first.status).toBe(200);
      expect(again.status).toBe(200);
      expect(again.headers['idempotent-replayed']).toBe('true');
      expect(again.body.data.run.id).toBe(first.body.data.run.id);
      expect(Number(await runsOfDay())).toBe(1);
    });

    it('day preview without CRM webhooks: what the last sync of that day matched, else unknown; a future day is refused', async () => {
      const synced = await get(`/raiser-edge-sync-day-preview?day=${DAY}`);
      expect(synced.status).toBe(200);
      expect(synced.body.data).toEqual({ day: DAY, contacts: 25, basis: 'last-run' });
      expect((await get('/raiser-edge-sync-day-preview?day=2026-02-01')).body.data).toEqual({ day: '2026-02-01', contacts: null, basis: null });
      const tomorrow = new Date(w.clock.now().getTime() + 2 * 86_400_000).toISOString().slice(0, 10);
      expect((await get(`/raiser-edge-sync-day-preview?day=${tomorrow}`)).status).toBe(400);
      expect((await get('/raiser-edge-sync-day-preview?day=10/03/2026')).body.error).toBe('The date must be in the format YYYY-MM-DD');
      expect((await s.request().get(`/api/sites/site-a/raiser-edge-sync-day-preview?day=${DAY}`).set(bearer(w.tokens.userB))).status).toBe(404);
    });

    it('raiser-edge-to-adestra runs the configured day (yesterday by default) or targetDate', async () => {
      const res = await post('/raiser-edge-to-adestra?wait=1', { targetDate: '2026-03-12' });
      expect(res.body.data.day).toBe('2026-03-12');
      expect(res.body.data.run.data.results.map((r: { constituentId: string }) => r.constituentId)).toEqual(['602']);
      const dflt = await post('/raiser-edge-to-adestra?wait=1', {});
      const yesterday = new Date(w.clock.now().getTime() - 86_400_000).toISOString().slice(0, 10);
      expect(dflt.body.data.day).toBe(yesterday);
    });

    it('a day after today is refused by every route that syncs a day, raiser-edge-to-adestra too; no run is started', async () => {
      const runs = async () => (await w.db('general_data').count({ n: '*' }).first())?.n;
      const before = await runs();
      const tomorrow = new Date(w.clock.now().getTime() + 2 * 86_400_000).toISOString().slice(0, 10);
      const refused = { success: false, error: 'The date is in the future: no contact can have changed on that day yet' };
      for (const res of [
        await post('/raiser-edge-to-adestra', { targetDate: tomorrow }),
        await post('/raiser-edge-sync-list-from-specific-day', { day: tomorrow }),
        await get(`/raiser-edge-sync-day-preview?day=${tomorrow}`),
      ]) {
        expect(res.status).toBe(400);
        expect(res.body).toEqual(refused);
      }
      expect(await runs()).toBe(before);
    });

    it('execution logs: every run, newest first, paged, filterable by kind', async () => {
      const res = await get('/raiser-edge-sync/list?pageSize=2');
      expect(res.body.data).toMatchObject({ hasNext: true, page: 1 });
      expect(res.body.data.list).toHaveLength(2);
      expect(res.body.data.total).toBeGreaterThan(10);
      const days = await get('/raiser-edge-sync/list?kind=day');
      expect(days.body.data.list.every((r: { field2: string }) => r.field2 === 'day')).toBe(true);
    });
  });

  describe('rate limits, faults, tokens', () => {
    it('429 with Retry-After is waited out (the wait honoured), then the call succeeds', async () => {
      s.waits.length = 0;
      s.re.failNext(2, 429, { retryAfter: 3, path: /^\/constituent\/v1\/constituents\/1$/ });
      const res = await syncOne('1');
      expect(res.status).toBe(200);
      expect(s.waits).toEqual([3000, 3000]);
    });

    it('403 with a Retry-After longer than we wait (daily quota) → the run fails, saying so', async () => {
      s.re.failNext(1, 403, { retryAfter: 7200, path: /^\/constituent\/v1\/constituents\/1$/ });
      const res = await syncOne('1');
      expect(res.status).toBe(503);
      expect(res.headers['retry-after']).toBe('7200');
      expect(res.body.error).toMatch(/quota/);
      const log = await get('/raiser-edge-sync/list?field1=1&pageSize=1');
      expect(log.body.data.list[0].status).toBe('failed');
      expect(log.body.data.list[0].data.errors[0]).toMatchObject({ kind: 'raisers-edge:quota' });
    });

    it('5xx is retried with backoff', async () => {
      s.waits.length = 0;
      s.re.failNext(2, 503, { path: /^\/constituent\/v1\/constituents\/1$/ });
      expect((await syncOne('1')).status).toBe(200);
      expect(s.waits).toEqual([375, 750]); // 500 ms × 2^n × jitter (0.75 with random 0.5)
    });

    it('a network error mid-day is reported in the run log, not ignored', async () => {
      s.re.dropNext(4, /^\/constituent\/v1\/constituents$/);
      const res = await post('/raiser-edge-sync-list-from-specific-day?wait=1', { day: DAY });
      expect(res.body.data.run.status).toBe('failed');
      expect(res.body.data.run.data.errors[0]).toMatchObject({ kind: 'raisers-edge:network' });
      expect(res.body.data.run.data.errors[0].message).toMatch(/could not be reached/);
    });

    it('the rotating refresh token is persisted in settings.env; the old one is dead', async () => {
      const stored = await storedRefreshToken();
      expect(stored).toBe(s.re.state.latestRefreshToken);
      expect(stored).not.toBe(KEYS.refreshToken);
      // A second instance (no cached access token) refreshes with the stored token, rotating it again.
      const other = s.makeSync();
      const site = await other.siteFor({ id: w.users.adminA, role: 'admin', siteId: w.sites.a, email: '', firstName: '', lastName: '' }, 'site-a');
      const before = s.re.state.tokenRefreshes;
      await other.syncOne(site, '1', 'manual', null);
      expect(s.re.state.tokenRefreshes).toBe(before + 1);
      expect(await storedRefreshToken()).toBe(s.re.state.latestRefreshToken);
      expect(await storedRefreshToken()).not.toBe(stored);
      // The first instance's cached access token is still good; when it expires it refreshes with the latest stored token.
      s.re.state.accessTokens.clear();
      expect((await syncOne('1')).status).toBe(200);
    });

    it('a token refresh refused for another reason than invalid_grant → 502 naming the token refresh', async () => {
      s.re.state.accessTokens.clear();
      s.re.failNext(1, 401, { path: /^\/token$/ });
      const res = await syncOne('1');
      expect(res.status).toBe(502);
      expect(res.body.error).toMatch(/token refresh/);
      expect((await get('/raiser-edge/status')).body.data).toMatchObject({ connected: true, needsReconnect: false });
    });
  });

  describe('Adestra contact search', () => {
    it('reads {contacts:[…]}, a bare array and {data:[…]} alike', async () => {
      const site = await s.sync.siteFor({ id: w.users.adminA, role: 'admin', siteId: w.sites.a, email: '', firstName: '', lastName: '' }, 'site-a');
      const ad = s.sync.clients.adestra(site);
      await ad.upsertContact({ email: 'shape@example.org', re_constituent_id: 'shape-1' });
      for (const shape of ['contacts', 'array', 'data'] as const) {
        s.adestra.state.searchShape = shape;
        expect((await ad.searchContacts({ re_constituent_id: 'shape-1' })).map((c) => c.email), shape).toEqual(['shape@example.org']);
      }
      s.adestra.state.searchShape = 'contacts';
    });
  });

  describe('tenancy', () => {
    it('a user of another site gets 404; without a token 401; a site without the sync 404', async () => {
      const other = await syncOne('1', w.tokens.userB);
      expect(other.status).toBe(404);
      expect(other.body.error).toBe('Site not found');
      expect((await s.request().post(api('/raiser-edge-sync-one')).send({ constituent_id: '1' })).status).toBe(401);
      const noSync = await s.request().get('/api/sites/site-b/raiser-edge-sync/list').set(bearer(w.tokens.adminB));
      expect(noSync.status).toBe(404);
      expect(noSync.body.error).toBe('This site has no CRM sync');
      // An admin of another site may use it.
      expect((await get('/raiser-edge-sync/list', w.tokens.adminB)).status).toBe(200);
      // The sites calls next to these still work.
      expect((await s.request().get('/api/sites/info')).status).toBe(200);
    });

    it('the external sync service path serves the same calls', async () => {
      const res = await s.request().post('/sync-service/site-a/raiser-edge-sync-one').set(bearer(w.tokens.userA)).send({ constituent_id: '3' });
      expect(res.status).toBe(200);
      expect(res.body.data.run.data.trigger).toBe('sync-service');
      expect((await s.request().get('/sync-service/site-a/raiser-edge-sync/list').set(bearer(w.tokens.userB))).status).toBe(404);
    });
  });

  describe('CRM webhook', () => {
    const hook = (key: string | undefined, body: object) =>
      s
        .request()
        .post(api(`/raiser-edge-webhook${key === undefined ? '' : `?webhookKey=${encodeURIComponent(key)}`}`))
        .set('Content-Type', 'application/cloudevents+json')
        .send(JSON.stringify(body));
    const event = (id: string, constituent: string) => ({ specversion: '1.0', type: 'com.blackbaud.constituent.change.v1', id, time: new Date().toISOString(), data: { id: constituent } });

    it('a missing or wrong webhookKey → 401', async () => {
      expect((await hook(undefined, event('e0', '1'))).status).toBe(401);
      expect((await hook('nope', event('e0', '1'))).status).toBe(401);
      expect((await s.request().options(api('/raiser-edge-webhook?webhookKey=nope'))).status).toBe(401);
    });

    it('the OPTIONS handshake answers WebHook-Allowed-Origin', async () => {
      const res = await s.request().options(api(`/raiser-edge-webhook?webhookKey=${KEYS.webhookKey}`)).set('WebHook-Request-Origin', 'eventgrid.blackbaud.com');
      expect(res.status).toBe(200);
      expect(res.headers['webhook-allowed-origin']).toBe('eventgrid.blackbaud.com');
      const any = await s.request().options(api(`/raiser-edge-webhook?webhookKey=${KEYS.webhookKey}`));
      expect(any.headers['webhook-allowed-origin']).toBe('*');
    });

    it('an event → 200 at once, the constituent synced after; a replay of the same event id is not synced twice', async () => {
      s.re.state.constituents.get('8')!.date_modified = new Date().toISOString();
      s.re.addConsent(consent('8', 'OptIn', '2026-03-05T00:00:00Z'));
      const first = await hook(KEYS.webhookKey, event('evt-1', '8'));
      expect(first.status).toBe(200);
      expect(first.body.data).toMatchObject({ status: 'queued' });
      const replay = await hook(KEYS.webhookKey, event('evt-1', '8'));
      expect(replay.body.data).toMatchObject({ status: 'duplicate' });
      await s.sync.idle();
      expect(s.adestra.isOnList('person8@example.org')).toBe(true);
      const runs = await get('/raiser-edge-sync/list?kind=webhook');
      expect(runs.body.data.list).toHaveLength(1);
      expect(runs.body.data.list[0]).toMatchObject({ field1: '8', status: 'success', data: { trigger: 'webhook' } });
      const delivery = await w.db('webhook_deliveries').where({ source: 're' }).first();
      expect(delivery).toMatchObject({ status: 'processed', topic: 'com.blackbaud.constituent.change.v1' });
    });

    it('the simulator subscribes (handshake) and delivers a change through a real socket', async () => {
      const server = await listen(s.app);
      try {
        const url = `${server.url}${api(`/raiser-edge-webhook?webhookKey=${KEYS.webhookKey}`)}`;
        expect(await s.re.handshake(url)).toBe(true);
        s.re.state.subscriptions.push({ id: 'sub-1', webhook_url: url, event_type: 'com.blackbaud.constituent.change.v1', provisioning_status: 'Provisioned' });
        await s.re.updateConstituent('3', { requests_no_email: true });
        await s.sync.idle();
        const runs = await get('/raiser-edge-sync/list?kind=webhook&field1=3');
        expect(runs.body.data.list[0].data.results[0]).toMatchObject({ reason: 'requests-no-email' });
      } finally {
        await server.close();
      }
    });

    it('day preview with CRM webhooks: the distinct constituents whose change arrived that day', async () => {
      await s.sync.idle();
      const today = dayIn(w.clock.now(), w.config.sync.timezone);
      const count = async () => (await get(`/raiser-edge-sync-day-preview?day=${today}`)).body.data;
      const before = await count();
      for (const [id, constituent] of [['evt-p1', '500'], ['evt-p2', '501'], ['evt-p3', '500']]) expect((await hook(KEYS.webhookKey, event(id, constituent))).status).toBe(200);
      await s.sync.idle();
      const after = await count();
      expect(after.basis).toBe('webhooks');
      expect(after.contacts).toBe((before.basis === 'webhooks' ? before.contacts : 0) + 2);
    });
  });

  describe('test calls (/api/test/*, admin)', () => {
    it('send-raiser-edge and raiser-edge/call report what they reached', async () => {
      const res = await s.request().post('/api/test/send-raiser-edge').set(bearer(w.tokens.adminA)).send({ site: 'site-a' });
      expect(res.body.data.ok).toBe(true);
      expect(res.body.data.checks.map((c: { step: string }) => c.step)).toEqual(['token refresh', 'list constituents']);
      expect(res.body.data.checks[1]).toMatchObject({ status: 200, ok: true, url: `${s.reServer.url}/constituent/v1/constituents?limit=1` });
      expect(res.body.data.checks[1].latencyMs).toEqual(expect.any(Number));
      const call = await s.request().post('/api/test/raiser-edge/call').set(bearer(w.tokens.adminA)).send({ path: '/constituent/v1/constituents/1' });
      expect(call.body.data).toMatchObject({ status: 200, ok: true, body: { id: '1' } });
      const bad = await s.request().post('/api/test/raiser-edge/call').set(bearer(w.tokens.adminA)).send({ path: 'http://elsewhere/' });
      expect(bad.status).toBe(400);
    });

    it('send-adestra reports the lists and the drop folder; send-email says no transport is configured', async () => {
      const ad = await s.request().post('/api/test/send-adestra').set(bearer(w.tokens.adminA)).send({});
      expect(ad.body.data).toMatchObject({ ok: true, dropFolder: { path: s.dropDir } });
      const mail = await s.request().post('/api/test/send-email').set(bearer(w.tokens.adminA)).send({});
      expect(mail.body.data.ok).toBe(false);
      expect(mail.body.data.checks[0].error).toMatch(/no mail transport configured/);
    });

    it('an unreachable service is reported with its URL and error', async () => {
      const closed = { url: `http://127.0.0.1:${REFUSED_PORT}` };
      await w.db('sites')
        .where({ id: w.sites.a })
        .update({ settings: JSON.stringify({ env: s.env.map((e) => (e.key === 'ADESTRA_BASE_URL' ? { ...e, value: `${closed.url}/api/rest/1` } : e)) }) });
      const res = await s.request().post('/api/test/send-adestra').set(bearer(w.tokens.adminA)).send({});
      expect(res.body.data.ok).toBe(false);
      expect(res.body.data.checks[0]).toMatchObject({ ok: false, url: `${closed.url}/api/rest/1/lists/1` });
      expect(res.body.data.checks[0].error).toMatch(/could not be reached/);
    });

    it('when something is wrong, the check carries the vendor\'s raw answer', async () => {
      // The settings as they were before the last test, with the refresh token the CRM holds now.
      const current = s.env.map((e) => (e.key === 'RE_REFRESH_TOKEN' ? { ...e, value: s.re.state.latestRefreshToken } : e));
      await w.db('sites').where({ id: w.sites.a }).update({ settings: JSON.stringify({ env: current }) });
      s.re.failNext(1, 403, { retryAfter: 7200, path: /^\/constituent\/v1\/constituents$/ });
      const re = await s.request().post('/api/test/send-raiser-edge').set(bearer(w.tokens.adminA)).send({ site: 'site-a' });
      expect(re.body.data.checks[0]).toMatchObject({ ok: true });
      expect(re.body.data.ok).toBe(false);
      expect(re.body.data.checks[1]).toMatchObject({ status: 403, ok: false, body: { statusCode: 403, message: 'Out of call volume quota. Quota will be replenished in 02:00:00.' } });
      s.adestra.failNext(1, 401);
      const ad = await s.request().post('/api/test/send-adestra').set(bearer(w.tokens.adminA)).send({ site: 'site-a' });
      expect(ad.body.data.checks[0]).toMatchObject({ status: 401, ok: false, body: { error: 'Simulated failure' } });
    });

    it('a non-admin gets 403', async () => {
      expect((await s.request().post('/api/test/send-adestra').set(bearer(w.tokens.userA)).send({})).status).toBe(403);
    });
  });
});
