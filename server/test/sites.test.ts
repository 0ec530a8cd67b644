// Sites (tenants): the admin list and editor, slug rules, secret masking, and the public site info.
import { describe, expect, it } from 'vitest';
import { fromJson } from '../src/db';
import { bearer, createWorld } from './harness';

const MASK = '********';

describe('sites', async () => {
  const w = await createWorld();
  const get = (path: string, token?: string) => (token ? w.request().get(path).set(bearer(token)) : w.request().get(path));
  const save = (body: unknown, token = w.tokens.adminA) => w.request().post('/api/sites').set(bearer(token)).send(body as object);
  const storedEnv = async (id: number) => fromJson<{ env: Array<{ key: string; value: string }> }>((await w.db('sites').where({ id }).first()).settings, { env: [] }).env;
  let n = 0;
  const slug = () => `test-site-${++n}`;

  describe('GET /api/sites', () => {
    it('an admin gets every site as {list, hasNext, total}, with settings', async () => {
      const res = await get('/api/sites', w.tokens.adminB);
      expect(res.status).toBe(200);
      expect(res.body.success).toBe(true);
      expect(res.body.data.total).toBe(2);
      expect(res.body.data.hasNext).toBe(false);
      expect(res.body.data.list.map((s: { slug: string }) => s.slug)).toEqual(['site-a', 'site-b']);
      expect(res.body.data.list[0]).toMatchObject({ id: w.sites.a, name: 'Site A', theme: { mainColor: '#e91e63' }, settings: { env: [] }, createdAt: expect.any(String) });
    });

    it('a non-admin gets 403', async () => {
      const res = await get('/api/sites', w.tokens.userA);
      expect(res.status).toBe(403);
      expect(res.body.success).toBe(false);
      expect(res.body.data).toBeUndefined();
    });

    it('without a token → 401', async () => {
      expect((await get('/api/sites')).status).toBe(401);
    });
  });

  describe('GET /api/sites/:id', () => {
    it('an admin gets any site in full', async () => {
      const res = await get(`/api/sites/${w.sites.b}`, w.tokens.adminA);
      expect(res.status).toBe(200);
      expect(res.body.data).toMatchObject({ id: w.sites.b, slug: 'site-b', settings: { env: [] } });
    });

    it('a user gets only the public info of their own site', async () => {
      const res = await get(`/api/sites/${w.sites.a}`, w.tokens.userA);
      expect(res.status).toBe(200);
      expect(res.body.data).toMatchObject({ id: w.sites.a, name: 'Site A', slug: 'site-a', theme: { mainColor: '#e91e63' } });
      expect(res.body.data.settings).toBeUndefined();
    });

    it('a user gets 404 for another site, as for an unknown one', async () => {
      const other = await get(`/api/sites/${w.sites.b}`, w.tokens.userA);
      expect(other.status).toBe(404);
      expect(other.body.data).toBeUndefined();
      const unknown = await get('/api/sites/999999', w.tokens.userA);
      expect(unknown.status).toBe(404);
      expect(other.body.error).toBe(unknown.body.error);
      expect((await get('/api/sites/999999', w.tokens.adminA)).status).toBe(404);
      expect((await get('/api/sites/nope', w.tokens.adminA)).status).toBe(404);
    });
  });

  describe('POST /api/sites', () => {
    it('an admin creates a site, then updates it', async () => {
      const s = slug();
      const created = await save({ name: 'Shop', slug: s, logo: 'https://cdn.example.com/logo.png', theme: { mainColor: '#123abc' } });
      expect(created.status).toBe(200);
      expect(created.body.success).toBe(true);
      expect(created.body.data).toMatchObject({ name: 'Shop', slug: s, logo: 'https://cdn.example.com/logo.png', theme: { mainColor: '#123abc' }, settings: { env: [] } });
      const id = created.body.data.id;
      expect(await w.db('sites').where({ id }).first()).toMatchObject({ name: 'Shop', slug: s });

      const updated = await save({ id, name: 'Shop 2', slug: `${s}-x` });
      expect(updated.status).toBe(200);
      expect(updated.body.data).toMatchObject({ id, name: 'Shop 2', slug: `${s}-x`, logo: 'https://cdn.example.com/logo.png', theme: { mainColor: '#123abc' } });
      expect((await get(`/api/sites/${id}`, w.tokens.adminA)).body.data.name).toBe('Shop 2');
    });

    it.each([
      ['omitted', undefined],
      ['without mainColor', {}],
      ['with an empty mainColor', { mainColor: '' }],
    ])('theme %s → mainColor #000000', async (_name, theme) => {
      const res = await save({ name: 'Plain', slug: slug(), theme });
      expect(res.status).toBe(200);
      expect(res.body.data.theme.mainColor).toBe('#000000');
      const row = await w.db('sites').where({ id: res.body.data.id }).first();
      expect(fromJson<{ mainColor: string }>(row.theme, { mainColor: '' }).mainColor).toBe('#000000');
    });

    it('a bad colour → 400 naming theme.mainColor', async () => {
      const res = await save({ name: 'Bad', slug: slug(), theme: { mainColor: 'red; background: url(x)' } });
      expect(res.status).toBe(400);
      expect(res.body.field).toBe('theme.mainColor');
    });

    it.each([
      ['missing', undefined],
      ['empty', ''],
      ['upper-case', 'My-Shop'],
      ['with spaces', 'my shop'],
      ['with a double hyphen', 'my--shop'],
      ['with a leading hyphen', '-shop'],
      ['with a trailing hyphen', 'shop-'],
      ['with a slash', 'a/b'],
      ['with a dot', 'a.b'],
      ['reserved (info)', 'info'],
      ['reserved (admin)', 'admin'],
      ['too long', 'a'.repeat(65)],
    ])('a slug %s → 400 naming slug', async (_name, value) => {
      const res = await save({ name: 'Slugs', slug: value });
      expect(res.status).toBe(400);
      expect(res.body.success).toBe(false);
      expect(res.body.field).toBe('slug');
    });

    it('a slug used by another site → 409; keeping its own slug is fine', async () => {
      const res = await save({ name: 'Copy', slug: 'site-b' });
      expect(res.status).toBe(409);
      expect(res.body.error).toMatch(/slug/);
      const moved = await save({ id: w.sites.a, name: 'Site A', slug: 'site-b' });
      expect(moved.status).toBe(409);
      const same = await save({ id: w.sites.a, name: 'Site A', slug: 'site-a' });
      expect(same.status).toBe(200);
    });

    it('a name is required', async () => {
      const res = await save({ slug: slug() });
      expect(res.status).toBe(400);
      expect(res.body.field).toBe('name');
    });

    it('an unknown id → 404', async () => {
      expect((await save({ id: 999999, name: 'X', slug: slug() })).status).toBe(404);
    });

    it('a non-admin gets 403 and nothing changes', async () => {
      const res = await save({ id: w.sites.a, name: 'Mine now', slug: 'site-a' }, w.tokens.userA);
      expect(res.status).toBe(403);
      expect((await w.db('sites').where({ id: w.sites.a }).first()).name).toBe('Site A');
      expect((await save({ name: 'New', slug: slug() }, w.tokens.userA)).status).toBe(403);
    });
  });

  describe('settings.env secrets', () => {
    const env = [
      { key: 'SHOPIFY_API_KEY', value: 'key-123' },
      { key: 'webhook_secret', value: 'whsec-456' },
      { key: 'Access_Token', value: 'tok-789' },
      { key: 'DB_PASSWORD', value: 'pw-000' },
      { key: 'SHOP_DOMAIN', value: 'shop.example.com' },
      { key: 'EMPTY_TOKEN', value: '' },
    ];
    let id: number;

    it('secret-looking values come back masked, others as they are; the database keeps the real ones', async () => {
      const res = await save({ name: 'Secrets', slug: slug(), settings: { env } });
      expect(res.status).toBe(200);
      id = res.body.data.id;
      expect(res.body.data.settings.env).toEqual([
        { key: 'SHOPIFY_API_KEY', value: MASK },
        { key: 'webhook_secret', value: MASK },
        { key: 'Access_Token', value: MASK },
        { key: 'DB_PASSWORD', value: MASK },
        { key: 'SHOP_DOMAIN', value: 'shop.example.com' },
        { key: 'EMPTY_TOKEN', value: '' },
      ]);
      expect(JSON.stringify(res.body)).not.toMatch(/key-123|whsec-456|tok-789|pw-000/);
      expect(await storedEnv(id)).toEqual(env);
    });

    it('no read answer shows a secret', async () => {
      for (const path of [`/api/sites/${id}`, '/api/sites', `/api/admin/sites/${id}`, '/api/admin/sites']) {
        const res = await get(path, w.tokens.adminA);
        expect(res.status).toBe(200);
        expect(JSON.stringify(res.body)).not.toMatch(/key-123|whsec-456|tok-789|pw-000/);
      }
    });

    it('sending the mask back keeps the stored value; a new value replaces it', async () => {
      const current = (await get(`/api/sites/${id}`, w.tokens.adminA)).body.data;
      const sent = current.settings.env.map((v: { key: string; value: string }) => (v.key === 'Access_Token' ? { key: v.key, value: 'tok-new' } : v));
      const res = await save({ ...current, settings: { env: sent } });
      expect(res.status).toBe(200);
      expect(res.body.data.settings.env.find((v: { key: string }) => v.key === 'Access_Token').value).toBe(MASK);
      expect(await storedEnv(id)).toEqual(env.map((v) => (v.key === 'Access_Token' ? { key: v.key, value: 'tok-new' } : v)));
    });

    it('a password inside a URL (SMTP_URL) is masked in place and kept when the URL comes back unchanged', async () => {
      const smtp = 'smtps://cards%40charity.org:s3cret-pw@mail.example.org:465';
      const created = await save({ name: 'Mail', slug: slug(), settings: { env: [{ key: 'SMTP_URL', value: smtp }] } });
      expect(created.status).toBe(200);
      expect(created.body.data.settings.env).toEqual([{ key: 'SMTP_URL', value: `smtps://cards%40charity.org:${MASK}@mail.example.org:465` }]);
      expect(JSON.stringify(created.body)).not.toContain('s3cret-pw');
      const mailId = created.body.data.id as number;
      const resaved = await save({ ...created.body.data });
      expect(resaved.status).toBe(200);
      expect(await storedEnv(mailId)).toEqual([{ key: 'SMTP_URL', value: smtp }]);
      // Another host with the mask is not the stored password's URL: a real password is asked for.
      const moved = await save({ ...created.body.data, settings: { env: [{ key: 'SMTP_URL', value: `smtps://cards%40charity.org:${MASK}@elsewhere.example.org:465` }] } });
      expect(moved.status).toBe(400);
      expect(moved.body.error).toContain('SMTP_URL');
      expect(await storedEnv(mailId)).toEqual([{ key: 'SMTP_URL', value: smtp }]);
    });

    it('pipeline settings that cannot work are refused at save, naming the setting; good ones are kept', async () => {
      for (const [key, value, words] of [
        ['SMTP_URL', 'http://mail.example.org', /SMTP_URL/],
        ['ECARD_FROM', 'not an address', /ECARD_FROM/],
        ['PIPELINE_SEND_ECARD', 'yes', /PIPELINE_SEND_ECARD: use 1/],
        ['ADESTRA_BUYERS_LIST_ID', 'buyers', /ADESTRA_BUYERS_LIST_ID/],
      ] as const) {
        const res = await save({ name: 'Pipeline', slug: slug(), settings: { env: [{ key, value }] } });
        expect(res.status, `${key}=${value}`).toBe(400);
        expect(res.body.field).toBe('settings.env');
        expect(res.body.error).toMatch(words);
      }
      const good = [
        { key: 'SMTP_URL', value: 'smtp://mail.example.org:587' },
        { key: 'ECARD_FROM', value: 'Charity Cards <cards@charity.example.org>' },
        { key: 'PIPELINE_SEND_ECARD', value: '1' },
        { key: 'ADESTRA_BUYERS_LIST_ID', value: '12' },
      ];
      const ok = await save({ name: 'Pipeline', slug: slug(), settings: { env: good } });
      expect(ok.status, JSON.stringify(ok.body)).toBe(200);
      expect(await storedEnv(ok.body.data.id)).toEqual(good);
    });

    it('any registry setting that cannot work is refused at save naming it, nothing saved; HP_AUTO_SEND takes yes/no words', async () => {
      const created = await save({ name: 'Registry', slug: slug(), settings: { env: [{ key: 'HP_AUTO_SEND', value: 'yes' }] } });
      expect(created.status, JSON.stringify(created.body)).toBe(200);
      const siteId = created.body.data.id as number;
      for (const [key, value, words] of [
        ['HP_AUTO_SEND', 'sometimes', /^HP_AUTO_SEND must be 1, true, yes, on/],
        ['HP_AUTH_SCHEME', 'sha1', /HP_AUTH_SCHEME must be printos or oneflow \(it is "sha1"\)/],
        ['SHOPIFY_SEND_WHEN', 'shipped', /SHOPIFY_SEND_WHEN must be paid or created/],
        ['HP_BASE_URL', 'api.example.org', /HP_BASE_URL must be an http\(s\) URL/],
        ['SHOPIFY_RECONCILE_MINUTES', 'hourly', /SHOPIFY_RECONCILE_MINUTES must be a whole number of minutes/],
      ] as const) {
        const res = await save({ id: siteId, name: 'Registry', slug: created.body.data.slug, settings: { env: [{ key, value }] } });
        expect(res.status, `${key}=${value}`).toBe(400);
        expect(res.body.field).toBe('settings.env');
        expect(res.body.error).toMatch(words);
        expect(JSON.stringify(res.body)).not.toMatch(/stack|at .*\.ts/);
        expect(await storedEnv(siteId)).toEqual([{ key: 'HP_AUTO_SEND', value: 'yes' }]);
      }
      // Two wrong values: both named in one answer.
      const two = await save({ id: siteId, name: 'Registry', slug: created.body.data.slug, settings: { env: [{ key: 'HP_AUTO_SEND', value: 'maybe' }, { key: 'SHOPIFY_AUTH', value: 'password' }] } });
      expect(two.status).toBe(400);
      expect(two.body.error).toMatch(/HP_AUTO_SEND.*SHOPIFY_AUTH/);
    });

    it('saving without settings keeps them', async () => {
      const res = await save({ id, name: 'Secrets renamed', slug: `secrets-${id}` });
      expect(res.status).toBe(200);
      expect((await storedEnv(id)).find((v) => v.key === 'SHOPIFY_API_KEY')!.value).toBe('key-123');
    });

    it('saving settings without env keeps the stored variables and adds the other settings', async () => {
      const before = await storedEnv(id);
      const res = await save({ id, name: 'Secrets', slug: `secrets-${id}`, settings: { printer: 'hp' } });
      expect(res.status).toBe(200);
      expect(res.body.data.settings.printer).toBe('hp');
      expect(await storedEnv(id)).toEqual(before);
      const fresh = await save({ name: 'No env', slug: slug(), settings: {} });
      expect(fresh.status).toBe(200);
      expect(fresh.body.data.settings.env).toEqual([]);
    });

    it('the mask as the value of a new key → 400 naming settings.env, nothing stored', async () => {
      const before = await storedEnv(id);
      const res = await save({ id, name: 'Secrets', slug: `secrets-${id}`, settings: { env: [...before.map((v) => ({ ...v, value: MASK })), { key: 'NEW_SECRET', value: MASK }] } });
      expect(res.status).toBe(400);
      expect(res.body.field).toBe('settings.env');
      expect(res.body.error).toContain('NEW_SECRET');
      expect(await storedEnv(id)).toEqual(before);
      // On a new site every masked value is unknown.
      const fresh = await save({ name: 'Fresh', slug: slug(), settings: { env: [{ key: 'API_KEY', value: MASK }] } });
      expect(fresh.status).toBe(400);
    });

    it('a key sent twice or a bad key name → 400', async () => {
      const twice = await save({ name: 'Dup', slug: slug(), settings: { env: [{ key: 'A', value: '1' }, { key: 'A', value: '2' }] } });
      expect(twice.status).toBe(400);
      expect(twice.body.field).toBe('settings.env');
      const bad = await save({ name: 'Bad', slug: slug(), settings: { env: [{ key: 'has space', value: '1' }] } });
      expect(bad.status).toBe(400);
      expect(bad.body.field).toBe('settings.env.0.key');
    });
  });

  describe('GET /api/sites/info', () => {
    const info = (query = '', token?: string) => get(`/api/sites/info${query}`, token);

    it('without a token → the first site, public info only in data.data', async () => {
      const res = await info();
      expect(res.status).toBe(200);
      expect(res.body.success).toBe(true);
      expect(res.body.data.data).toEqual({ id: w.sites.a, name: 'Site A', slug: 'site-a', logo: null, theme: { mainColor: '#e91e63' }, features: { sync: false } });
    });

    it('?site=<slug> → that site; an unknown slug → 404', async () => {
      const res = await info('?site=site-b');
      expect(res.status).toBe(200);
      expect(res.body.data.data).toMatchObject({ id: w.sites.b, slug: 'site-b' });
      const unknown = await info('?site=no-such-site');
      expect(unknown.status).toBe(404);
      expect(unknown.body.success).toBe(false);
    });

    it("with a token → the user's site", async () => {
      const res = await info('', w.tokens.userB);
      expect(res.status).toBe(200);
      expect(res.body.data.data.id).toBe(w.sites.b);
    });

    it('never includes settings, even for an admin of a site with secrets', async () => {
      const s = slug();
      const created = await save({ name: 'Info', slug: s, settings: { env: [{ key: 'API_KEY', value: 'very-secret-value' }, { key: 'PLAIN', value: 'plain-value' }] } });
      expect(created.status).toBe(200);
      for (const token of [undefined, w.tokens.adminA]) {
        const res = await info(`?site=${s}`, token);
        expect(res.status).toBe(200);
        expect(res.body.data.data.settings).toBeUndefined();
        expect(JSON.stringify(res.body)).not.toMatch(/very-secret-value|plain-value|API_KEY/);
      }
    });

    it('a bad token does not stop the public info', async () => {
      const res = await info('', 'not-a-token');
      expect(res.status).toBe(200);
      expect(res.body.data.data.id).toBe(w.sites.a);
    });
  });

  describe('DEFAULT_SITE', async () => {
    const w2 = await createWorld({ DEFAULT_SITE: 'site-b' });
    it('the info of a visitor without a token is the configured default site', async () => {
      const res = await w2.request().get('/api/sites/info');
      expect(res.status).toBe(200);
      expect(res.body.data.data.id).toBe(w2.sites.b);
    });
  });
});

describe('deleting a site that has production data', async () => {
  const w = await createWorld();
  it('is refused with 409 while designs or print jobs belong to it, and the site stays', async () => {
    const created = await w.request().post('/api/sites').set(bearer(w.tokens.adminA)).send({ name: 'Short lived', slug: 'short-lived' });
    const siteId = created.body.data.id;
    const now = new Date().toISOString();
    await w.db('designs').insert({ site_id: siteId, name: 'Card', is_customizable: true, hp_addition_data: '{}', data: '{}', created_at: now, updated_at: now });
    const res = await w.request().delete(`/api/admin/sites/${siteId}`).set(bearer(w.tokens.adminA));
    expect(res.status).toBe(409);
    expect(res.body.error).toMatch(/1 records/);
    expect(await w.db('sites').where({ id: siteId }).first()).toBeTruthy();
  });
});
