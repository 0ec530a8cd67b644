// Connecting a site to Raiser's Edge NXT against the simulator, over real sockets: Connect (the
// authorisation-code flow) and its callback, state checks, a revoked token and Reconnect, the
// consent names checked against the CRM's lists, and the webhook subscriptions.
import { afterAll, describe, expect, it } from 'vitest';
import supertest from 'supertest';
import { fromJson } from '../src/db';
import { bearer } from './harness';
import { createSyncWorld, KEYS, listen, person } from './sync-world';

describe('Raiser\'s Edge connection', async () => {
  const s = await createSyncWorld({
    constituents: [person('1')],
    consents: [{ constituent_id: '1', channel: 'Email', category: 'Newsletter', source: 'Website', consent_date: '2026-01-01T00:00:00Z', constituent_consent_response: 'OptIn' }],
    reSim: { consentSources: ['Website', 'Email platform'], consentCategories: ['Newsletter', 'Fundraising'] },
  });
  const { w } = s;
  const server = await listen(s.app);
  afterAll(() => server.close());
  // The simulator's authorisation page, as RE_AUTHORIZE_URL (the app is reached at server.url).
  const env = [...s.env, { key: 'RE_AUTHORIZE_URL', value: `${s.reServer.url}/oauth/authorize` }];
  await w.db('sites').where({ id: w.sites.a }).update({ settings: JSON.stringify({ env }) });
  const callback = `${server.url}/api/sites/site-a/raiser-edge/callback`;

  const api = () => supertest(server.url);
  const storedEnv = async () => fromJson<{ env: Array<{ key: string; value: string }> }>((await w.db('sites').where({ id: w.sites.a }).first()).settings, { env: [] }).env;
  const stored = async (key: string) => (await storedEnv()).find((e) => e.key === key)?.value;
  const status = async () => (await api().get('/api/sites/site-a/raiser-edge/status').set(bearer(w.tokens.userA))).body.data;

  /** Connect as an admin's browser would: ask for the address, visit Blackbaud, come back to the callback. */
  async function connect() {
    const start = await api().post('/api/sites/site-a/raiser-edge/connect-url').set(bearer(w.tokens.adminA)).send({});
    expect(start.status).toBe(200);
    const atBlackbaud = await fetch(start.body.data.url, { redirect: 'manual' });
    expect(atBlackbaud.status).toBe(302);
    const back = new URL(atBlackbaud.headers.get('location')!);
    const landed = await api().get(`${back.pathname}${back.search}`);
    return { back, landed, landing: new URL(landed.headers.location ?? '/', server.url) };
  }

  describe('Connect (authorisation-code flow)', () => {
    it('GET connect with an admin token → 302 to Blackbaud with client_id, response_type=code, redirect_uri (our callback) and a state', async () => {
      const res = await api().get('/api/sites/site-a/raiser-edge/connect').set(bearer(w.tokens.adminA));
      expect(res.status).toBe(302);
      const to = new URL(res.headers.location);
      expect(`${to.origin}${to.pathname}`).toBe(`${s.reServer.url}/oauth/authorize`);
      expect(Object.fromEntries(to.searchParams)).toMatchObject({ client_id: KEYS.clientId, response_type: 'code', redirect_uri: callback });
      expect(to.searchParams.get('state')).toMatch(/^[A-Za-z0-9_-]{40,}$/);
      // Only an admin may start it.
      expect((await api().get('/api/sites/site-a/raiser-edge/connect').set(bearer(w.tokens.userA))).status).toBe(403);
      expect((await api().get('/api/sites/site-a/raiser-edge/connect')).status).toBe(401);
    });

    it('the callback exchanges the code, stores the refresh token (never shown) and lands on the sync screen', async () => {
      const before = await stored('RE_REFRESH_TOKEN');
      const { landed, landing } = await connect();
      expect(landed.status).toBe(302);
      expect(landing.pathname).toBe('/re-n-adestra-sync');
      expect(Object.fromEntries(landing.searchParams)).toMatchObject({ site: 'site-a', reConnect: 'ok' });
      expect(landing.searchParams.get('reConnectMessage')).toMatch(/Raiser's Edge connected \(Simulator Environment\)/);
      const token = await stored('RE_REFRESH_TOKEN');
      expect(token).toBe(s.re.state.latestRefreshToken);
      expect(token).not.toBe(before);
      expect(await status()).toMatchObject({ connected: true, needsReconnect: false, environmentName: 'Simulator Environment' });
      // Shown nowhere: not in the landing address, the status, nor the site's settings.
      const site = await api().get(`/api/sites/${w.sites.a}`).set(bearer(w.tokens.adminA));
      for (const text of [landed.headers.location, JSON.stringify(await status()), site.text]) expect(text).not.toContain(token);
      // And it works: a sync uses it.
      expect((await api().post('/api/sites/site-a/raiser-edge-sync-one').set(bearer(w.tokens.userA)).send({ constituent_id: '1' })).status).toBe(200);
    });

    it('a state works once: the same callback again is refused with a message, nothing changes', async () => {
      const { back } = await connect();
      const token = await stored('RE_REFRESH_TOKEN');
      const again = await api().get(`${back.pathname}${back.search}`);
      const landing = new URL(again.headers.location, server.url);
      expect(Object.fromEntries(landing.searchParams)).toMatchObject({ reConnect: 'failed', reConnectMessage: 'This connection link was already used: click Connect again' });
      expect(await stored('RE_REFRESH_TOKEN')).toBe(token);
    });

    it('an unknown, missing or expired state, or a denial at Blackbaud: the sync screen says why, no stack trace', async () => {
      const message = async (query: string) => {
        const res = await api().get(`/api/sites/site-a/raiser-edge/callback${query}`);
        expect(res.status).toBe(302);
        return new URL(res.headers.location, server.url).searchParams.get('reConnectMessage');
      };
      expect(await message('?code=abc&state=forged')).toBe('This connection link is not one of ours: click Connect again');
      expect(await message('?code=abc')).toMatch(/without the connection's state/);
      const start = await api().post('/api/sites/site-a/raiser-edge/connect-url').set(bearer(w.tokens.adminA)).send({});
      const state = new URL(start.body.data.url).searchParams.get('state')!;
      w.clock.advance(11 * 60_000);
      expect(await message(`?code=abc&state=${state}`)).toBe('This connection link expired (10 minutes): click Connect again');
      // The admin refuses access at Blackbaud.
      s.re.state.authorizeAnswer = 'deny';
      const { landing } = await connect();
      s.re.state.authorizeAnswer = 'grant';
      expect(landing.searchParams.get('reConnectMessage')).toBe('Access was not granted in Blackbaud (access_denied): nothing changed');
    });

    it('a code Blackbaud no longer accepts (older than 5 minutes) → the exchange failure, with the CRM\'s answer', async () => {
      const start = await api().post('/api/sites/site-a/raiser-edge/connect-url').set(bearer(w.tokens.adminA)).send({});
      const back = new URL((await fetch(start.body.data.url, { redirect: 'manual' })).headers.get('location')!);
      for (const code of s.re.state.codes.values()) code.expiresAt = 0;
      const res = await api().get(`${back.pathname}${back.search}`);
      const msg = new URL(res.headers.location, server.url).searchParams.get('reConnectMessage');
      expect(msg).toMatch(/^The code exchange failed: .*400.*invalid_grant/);
      expect(msg).not.toMatch(/\n\s+at /);
    });
  });

  describe('Reconnect', () => {
    it('a revoked token: runs fail at once with a clear message, the status says needsReconnect; a connect clears it', async () => {
      s.re.revokeRefreshTokens();
      const sync = () => api().post('/api/sites/site-a/raiser-edge-sync-one').set(bearer(w.tokens.userA)).send({ constituent_id: '1' });
      const first = await sync();
      expect(first.status).toBe(502);
      expect(first.body.error).toMatch(/must be connected again.*Reconnect.*invalid_grant/);
      expect(first.body.details).toMatchObject({ kind: 'reconnect' });
      expect(await status()).toMatchObject({ connected: false, needsReconnect: true });
      // The next run does not ask Blackbaud again with a dead token.
      const refreshes = s.re.state.calls.filter((c) => c.path === '/token').length;
      const second = await sync();
      expect(second.status).toBe(502);
      expect(second.body.error).toMatch(/must be connected again/);
      expect(s.re.state.calls.filter((c) => c.path === '/token').length).toBe(refreshes);
      const { landing } = await connect();
      expect(landing.searchParams.get('reConnect')).toBe('ok');
      expect(await status()).toMatchObject({ connected: true, needsReconnect: false });
      expect((await sync()).status).toBe(200);
    });
  });

  describe('consent source and category', () => {
    it('the CRM\'s lists are offered; an unknown name is refused with them, a listed one saved', async () => {
      const options = await api().get('/api/sites/site-a/raiser-edge/consent-options').set(bearer(w.tokens.adminA));
      expect(options.body.data).toMatchObject({ sources: ['Website', 'Email platform'], categories: ['Newsletter', 'Fundraising'] });
      const bad = await api().post('/api/sites/site-a/raiser-edge/consent-settings').set(bearer(w.tokens.adminA)).send({ source: 'Adestra', category: 'Newsletter' });
      expect(bad.status).toBe(400);
      expect(bad.body.error).toBe('RE_CONSENT_SOURCE: "Adestra" is not one of the CRM\'s consent sources ("Website", "Email platform").');
      expect(await stored('RE_CONSENT_SOURCE')).toBeUndefined();
      const good = await api().post('/api/sites/site-a/raiser-edge/consent-settings').set(bearer(w.tokens.adminA)).send({ source: 'Email platform', category: 'Newsletter' });
      expect(good.status).toBe(200);
      expect(await stored('RE_CONSENT_SOURCE')).toBe('Email platform');
      expect(await stored('RE_CONSENT_CATEGORY')).toBe('Newsletter');
      expect((await api().post('/api/sites/site-a/raiser-edge/consent-settings').set(bearer(w.tokens.userA)).send({ source: 'Website' })).status).toBe(403);
    });

    it("the CRM type names a buyer is written with are checked against the CRM's own tables at save", async () => {
      const put = async (key: string, value: string) => {
        const current = (await storedEnv()).filter((e) => e.key !== key);
        return api().put(`/api/admin/sites/${w.sites.a}`).set(bearer(w.tokens.adminA)).send({ name: 'Site A', slug: 'site-a', settings: { env: [...current, { key, value }] } });
      };
      const bad = await put('RE_NOTE_TYPE', 'Gossip');
      expect(bad.status).toBe(400);
      expect(bad.body.field).toBe('settings.env');
      expect(bad.body.error).toMatch(/^RE_NOTE_TYPE: "Gossip" is not one of the CRM's note types \(.*"General".*\)\.$/);
      expect(await stored('RE_NOTE_TYPE')).toBeUndefined();
      const badEmail = await put('RE_EMAIL_TYPE', 'Pigeon');
      expect(badEmail.body.error).toMatch(/RE_EMAIL_TYPE: "Pigeon" is not one of the CRM's e-mail address types/);
      const good = await put('RE_ADDRESS_TYPE', 'Business');
      expect(good.status, JSON.stringify(good.body)).toBe(200);
      expect(await stored('RE_ADDRESS_TYPE')).toBe('Business');
    });

    it('saving the site itself checks them too; when the CRM cannot answer, the save is refused with its answer', async () => {
      const put = async (value: string) => {
        const current = (await storedEnv()).filter((e) => e.key !== 'RE_CONSENT_CATEGORY');
        return api().put(`/api/admin/sites/${w.sites.a}`).set(bearer(w.tokens.adminA)).send({ name: 'Site A', slug: 'site-a', settings: { env: [...current, { key: 'RE_CONSENT_CATEGORY', value }] } });
      };
      const bad = await put('Gardening');
      expect(bad.status).toBe(400);
      expect(bad.body.error).toMatch(/RE_CONSENT_CATEGORY: "Gardening" is not one of the CRM's consent categories/);
      s.re.failNext(4, 503, { path: /^\/commpref\/v1\/consent\/categories$/ });
      const down = await put('Fundraising');
      expect(down.status).toBe(502);
      expect(down.body.error).toMatch(/RE_CONSENT_CATEGORY not saved: the CRM's lists could not be read/);
      expect(down.body.details).toMatchObject({ status: 503, body: { message: 'Simulated failure' } });
      expect(await stored('RE_CONSENT_CATEGORY')).toBe('Newsletter');
      expect((await put('Fundraising')).status).toBe(200);
      expect(await stored('RE_CONSENT_CATEGORY')).toBe('Fundraising');
    });
  });

  describe('a site save and a rotated refresh token', () => {
    it('a save that left the refresh token as it was keeps the one the CRM rotated meanwhile', async () => {
      const before = await stored('RE_REFRESH_TOKEN');
      expect(before).toBeTruthy();
      // The access token has expired: the save's consent check refreshes, and SKY rotates the refresh token.
      w.clock.advance(3 * 60 * 60_000);
      const form = (await api().get(`/api/admin/sites/${w.sites.a}`).set(bearer(w.tokens.adminA))).body as { settings: { env: Array<{ key: string; value: string }> } };
      const env = form.settings.env.map((e) => (e.key === 'RE_CONSENT_CATEGORY' ? { ...e, value: 'Newsletter' } : e));
      if (!env.some((e) => e.key === 'RE_CONSENT_CATEGORY')) env.push({ key: 'RE_CONSENT_CATEGORY', value: 'Newsletter' });
      const put = await api().put(`/api/admin/sites/${w.sites.a}`).set(bearer(w.tokens.adminA)).send({ name: 'Site A', slug: 'site-a', settings: { env } });
      expect(put.status, JSON.stringify(put.body)).toBe(200);
      const after = await stored('RE_REFRESH_TOKEN');
      expect(after).not.toBe(before);
      // The stored token is the live one: the next refresh works, no reconnect needed.
      w.clock.advance(3 * 60 * 60_000);
      expect((await api().get('/api/sites/site-a/raiser-edge/consent-options').set(bearer(w.tokens.adminA))).status).toBe(200);
      expect(await status()).toMatchObject({ connected: true, needsReconnect: false });
    });
  });

  describe('webhook subscriptions', () => {
    it('created by the button, one per event type, provisioned by the handshake; twice does not duplicate; the key is never shown', async () => {
      const created = await api().post('/api/sites/site-a/raiser-edge/webhook-subscriptions').set(bearer(w.tokens.adminA)).send({});
      expect(created.status).toBe(200);
      const types = ['com.blackbaud.constituent.change.v1', 'com.blackbaud.constituent.emailaddress.change.v1', 'com.blackbaud.constituent.delete.v1'];
      expect(created.body.data.created).toEqual(types);
      const hook = `${server.url}/api/sites/site-a/raiser-edge-webhook?webhookKey=${KEYS.webhookKey}`;
      expect(s.re.state.subscriptions.map((x) => [x.event_type, x.webhook_url])).toEqual(types.map((t) => [t, hook]));
      const again = await api().post('/api/sites/site-a/raiser-edge/webhook-subscriptions').set(bearer(w.tokens.adminA)).send({});
      expect(again.body.data.created).toEqual([]);
      expect(s.re.state.subscriptions).toHaveLength(3);
      const list = await api().get('/api/sites/site-a/raiser-edge/webhook-subscriptions').set(bearer(w.tokens.adminA));
      expect(list.body.data.missing).toEqual([]);
      expect(list.body.data.list).toEqual(types.map((eventType) => expect.objectContaining({ eventType, provisioningStatus: 'Provisioned', ours: true })));
      expect(list.text).not.toContain(KEYS.webhookKey);
      expect((await api().get('/api/sites/site-a/raiser-edge/webhook-subscriptions').set(bearer(w.tokens.userA))).status).toBe(403);
    });
  });
});
