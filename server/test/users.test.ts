// Users: registration, the current user, user administration, and the role and tenancy rules.
import { describe, expect, it } from 'vitest';
import { PASSWORD, bearer, createWorld } from './harness';

describe('users', async () => {
  const w = await createWorld();
  const post = (path: string, token: string, body: unknown) => w.request().post(path).set(bearer(token)).send(body as object);
  const get = (path: string, token: string) => w.request().get(path).set(bearer(token));
  const login = (email: string, password: string) => w.request().post('/api/users/login').send({ email, password });
  let n = 0;
  const newUser = (over: Record<string, unknown> = {}) => ({
    firstName: 'New',
    lastName: 'Person',
    email: `new-${++n}@example.com`,
    password: 'a good password',
    siteId: w.sites.a,
    ...over,
  });

  describe('POST /api/users/register', () => {
    it('an admin creates a user who can then sign in', async () => {
      const body = newUser({ siteId: w.sites.b });
      const res = await post('/api/users/register', w.tokens.adminA, body);
      expect(res.status).toBe(201);
      expect(res.body.success).toBe(true);
      expect(res.body.data).toMatchObject({ firstName: 'New', lastName: 'Person', email: body.email, role: 'user', siteId: w.sites.b });
      expect(res.body.data.id).toEqual(expect.any(Number));
      expect(JSON.stringify(res.body)).not.toMatch(/password|\$2[aby]\$/);
      const signIn = await login(body.email, body.password);
      expect(signIn.status).toBe(200);
      expect(signIn.body.data.publicInfo.id).toBe(res.body.data.id);
    });

    it('an admin can create another admin', async () => {
      const res = await post('/api/users/register', w.tokens.adminB, newUser({ role: 'admin' }));
      expect(res.status).toBe(201);
      expect(res.body.data.role).toBe('admin');
    });

    it('a non-admin gets 403 and nothing is stored', async () => {
      const body = newUser();
      const res = await post('/api/users/register', w.tokens.userA, body);
      expect(res.status).toBe(403);
      expect(res.body.success).toBe(false);
      expect(await w.db('users').where({ email: body.email }).first()).toBeUndefined();
    });

    it('without a token → 401', async () => {
      expect((await w.request().post('/api/users/register').send(newUser())).status).toBe(401);
    });

    it('a duplicate email (any case) → 409', async () => {
      const res = await post('/api/users/register', w.tokens.adminA, newUser({ email: 'USER-A@example.com' }));
      expect(res.status).toBe(409);
      expect(res.body.success).toBe(false);
      expect(res.body.error).toMatch(/email/);
      expect(await w.db('users').whereRaw('lower(email) = ?', ['user-a@example.com']).pluck('id')).toEqual([w.users.userA]);
    });

    it.each([
      ['email', { email: 'not-an-email' }],
      ['email', { email: '' }],
      ['password', { password: 'short' }],
      ['firstName', { firstName: '' }],
      ['siteId', { siteId: 'x' }],
      ['role', { role: 'superuser' }],
    ])('a bad %s → 400 naming it', async (field, over) => {
      const body = newUser(over);
      const res = await post('/api/users/register', w.tokens.adminA, body);
      expect(res.status).toBe(400);
      expect(res.body.success).toBe(false);
      expect(res.body.field).toBe(field);
    });

    it('an unknown site → 400 naming siteId', async () => {
      const res = await post('/api/users/register', w.tokens.adminA, newUser({ siteId: 999999 }));
      expect(res.status).toBe(400);
      expect(res.body.field).toBe('siteId');
    });

    it('stores the password as a bcrypt hash of cost 10 or more', async () => {
      const body = newUser();
      const res = await post('/api/users/register', w.tokens.adminA, body);
      const row = await w.db('users').where({ id: res.body.data.id }).first();
      expect(row.password_hash).not.toContain(body.password);
      const m = /^\$2[aby]\$(\d\d)\$[./A-Za-z0-9]{53}$/.exec(row.password_hash);
      expect(m).not.toBeNull();
      expect(Number(m![1])).toBeGreaterThanOrEqual(10);
    });
  });

  describe('GET /api/users/me and /api/users/:id', () => {
    it('me answers the signed-in user', async () => {
      const res = await get('/api/users/me', w.tokens.userB);
      expect(res.status).toBe(200);
      expect(res.body).toEqual({
        success: true,
        data: { id: w.users.userB, firstName: 'user-b', lastName: 'Tester', email: 'user-b@example.com', role: 'user', siteId: w.sites.b, createdAt: expect.any(String) },
      });
    });

    it('an admin sees any user, of any site', async () => {
      const res = await get(`/api/users/${w.users.userB}`, w.tokens.adminA);
      expect(res.status).toBe(200);
      expect(res.body.data).toMatchObject({ id: w.users.userB, siteId: w.sites.b });
      expect(res.body.data.password).toBeUndefined();
      expect(res.body.data.passwordHash).toBeUndefined();
    });

    it('a user sees themself', async () => {
      const res = await get(`/api/users/${w.users.userA}`, w.tokens.userA);
      expect(res.status).toBe(200);
      expect(res.body.data.id).toBe(w.users.userA);
    });

    it('a user gets 403 for another user of their site and 404 for one of another site', async () => {
      const same = await get(`/api/users/${w.users.userA2}`, w.tokens.userA);
      expect(same.status).toBe(403);
      expect(same.body.success).toBe(false);
      expect(same.body.data).toBeUndefined();
      const other = await get(`/api/users/${w.users.userB}`, w.tokens.userA);
      expect(other.status).toBe(404);
      expect(other.body.data).toBeUndefined();
      // The same answer as for an id that does not exist: another site's users are not revealed.
      const unknown = await get('/api/users/999999', w.tokens.userA);
      expect(unknown.status).toBe(404);
      expect(other.body.error).toBe(unknown.body.error);
    });

    it.each(['999999', 'abc', '0', '-1', '1.5'])('GET /api/users/%s as admin → 404', async (id) => {
      const res = await get(`/api/users/${id}`, w.tokens.adminA);
      expect(res.status).toBe(404);
      expect(res.body.success).toBe(false);
    });
  });

  describe('GET /api/users/list-by-site/:id', () => {
    it('an admin gets the users of a site as {list, hasNext, total}', async () => {
      const res = await get(`/api/users/list-by-site/${w.sites.b}`, w.tokens.adminA);
      expect(res.status).toBe(200);
      expect(res.body.success).toBe(true);
      const { list, hasNext, total } = res.body.data;
      expect(hasNext).toBe(false);
      expect(total).toBe(list.length);
      const ids = list.map((u: { id: number }) => u.id);
      expect(ids).toContain(w.users.adminB);
      expect(ids).toContain(w.users.userB);
      expect(ids).not.toContain(w.users.userA);
      expect(list.every((u: { siteId: number }) => u.siteId === w.sites.b)).toBe(true);
      expect(JSON.stringify(list)).not.toMatch(/password|\$2[aby]\$/);
    });

    it('a non-admin gets 403, even for their own site', async () => {
      const res = await get(`/api/users/list-by-site/${w.sites.a}`, w.tokens.userA);
      expect(res.status).toBe(403);
      expect(res.body.success).toBe(false);
    });

    it('an unknown site → 404', async () => {
      expect((await get('/api/users/list-by-site/999999', w.tokens.adminA)).status).toBe(404);
      expect((await get('/api/users/list-by-site/abc', w.tokens.adminA)).status).toBe(404);
    });
  });

  describe('POST /api/users/upsert', () => {
    it('an admin creates (no id) and updates a user; a changed password is the one that works', async () => {
      const body = newUser();
      const created = await post('/api/users/upsert', w.tokens.adminA, body);
      expect(created.status).toBe(200);
      expect(created.body.data).toMatchObject({ email: body.email, role: 'user', siteId: w.sites.a });
      const id = created.body.data.id;

      const updated = await post('/api/users/upsert', w.tokens.adminA, { id, firstName: 'Renamed', lastName: 'Again', password: 'a brand new password', siteId: w.sites.b });
      expect(updated.status).toBe(200);
      expect(updated.body.data).toMatchObject({ id, firstName: 'Renamed', lastName: 'Again', email: body.email, siteId: w.sites.b });
      const row = await w.db('users').where({ id }).first();
      expect(row).toMatchObject({ first_name: 'Renamed', site_id: w.sites.b });

      expect((await login(body.email, body.password)).status).toBe(401);
      expect((await login(body.email, 'a brand new password')).status).toBe(200);
    });

    it('an empty password on update keeps the old one', async () => {
      const body = newUser();
      const id = (await post('/api/users/upsert', w.tokens.adminA, body)).body.data.id;
      const res = await post('/api/users/upsert', w.tokens.adminA, { id, firstName: 'Kept', password: '' });
      expect(res.status).toBe(200);
      expect((await login(body.email, body.password)).status).toBe(200);
    });

    it('creating without the required fields → 400 naming the first missing one', async () => {
      const res = await post('/api/users/upsert', w.tokens.adminA, { firstName: 'Only' });
      expect(res.status).toBe(400);
      expect(res.body.field).toBe('email');
    });

    it('a non-admin cannot create users', async () => {
      const res = await post('/api/users/upsert', w.tokens.userA, newUser());
      expect(res.status).toBe(403);
    });

    it('a non-admin updates their own name and password', async () => {
      const u = await w.services.users.createUser({ firstName: 'Self', lastName: 'Service', email: 'self@example.com', password: PASSWORD, role: 'user', siteId: w.sites.a });
      const token = w.tokenFor(u.id);
      const res = await post('/api/users/upsert', token, { id: u.id, firstName: 'Changed', lastName: 'Name', password: 'my new password' });
      expect(res.status).toBe(200);
      expect(res.body.data).toMatchObject({ id: u.id, firstName: 'Changed', lastName: 'Name', role: 'user' });
      expect((await get('/api/users/me', token)).body.data.firstName).toBe('Changed');
      expect((await login('self@example.com', PASSWORD)).status).toBe(401);
      expect((await login('self@example.com', 'my new password')).status).toBe(200);
    });

    it('a non-admin may send their own unchanged role and site', async () => {
      const res = await post('/api/users/upsert', w.tokens.userA2, { id: w.users.userA2, firstName: 'Same', role: 'user', siteId: w.sites.a });
      expect(res.status).toBe(200);
      expect(res.body.data.firstName).toBe('Same');
    });

    it('a non-admin cannot make themself admin (403, role unchanged)', async () => {
      const res = await post('/api/users/upsert', w.tokens.userA, { id: w.users.userA, role: 'admin' });
      expect(res.status).toBe(403);
      expect(res.body.success).toBe(false);
      expect((await w.db('users').where({ id: w.users.userA }).first()).role).toBe('user');
    });

    it('a non-admin cannot move themself to another site (403)', async () => {
      const res = await post('/api/users/upsert', w.tokens.userA, { id: w.users.userA, siteId: w.sites.b });
      expect(res.status).toBe(403);
      expect((await w.db('users').where({ id: w.users.userA }).first()).site_id).toBe(w.sites.a);
    });

    it('a non-admin cannot edit another user: 403 on their site, 404 on another', async () => {
      const same = await post('/api/users/upsert', w.tokens.userA, { id: w.users.userA2, firstName: 'Hacked' });
      expect(same.status).toBe(403);
      const other = await post('/api/users/upsert', w.tokens.userA, { id: w.users.userB, firstName: 'Hacked' });
      expect(other.status).toBe(404);
      const names = await w.db('users').whereIn('id', [w.users.userA2, w.users.userB]).pluck('first_name');
      expect(names).not.toContain('Hacked');
    });

    it('a password under 8 characters → 400 naming password', async () => {
      const res = await post('/api/users/upsert', w.tokens.userA, { id: w.users.userA, password: 'short' });
      expect(res.status).toBe(400);
      expect(res.body.field).toBe('password');
      expect((await login('user-a@example.com', PASSWORD)).status).toBe(200);
    });

    it('a password over 72 bytes → 400 naming password (bcrypt would silently cut it)', async () => {
      const res = await post('/api/users/upsert', w.tokens.adminA, newUser({ password: 'x'.repeat(73) }));
      expect(res.status).toBe(400);
      expect(res.body.field).toBe('password');
    });

    it('changing the email to one already used → 409', async () => {
      const res = await post('/api/users/upsert', w.tokens.userA, { id: w.users.userA, email: 'user-b@example.com' });
      expect(res.status).toBe(409);
    });

    it('an unknown id → 404', async () => {
      expect((await post('/api/users/upsert', w.tokens.adminA, { id: 999999, firstName: 'X' })).status).toBe(404);
    });

    it('the last admin cannot be demoted', async () => {
      // Leave exactly one admin: demote every other one first.
      const others = await w.db('users').where({ role: 'admin' }).whereNot({ id: w.users.adminA }).pluck('id');
      for (const id of others) {
        const res = await post('/api/users/upsert', w.tokens.adminA, { id, role: 'user' });
        expect(res.status).toBe(200);
        expect(res.body.data.role).toBe('user');
      }
      expect(await w.db('users').where({ role: 'admin' }).pluck('id')).toEqual([w.users.adminA]);
      const res = await post('/api/users/upsert', w.tokens.adminA, { id: w.users.adminA, role: 'user' });
      expect(res.status).toBe(409);
      expect(res.body.success).toBe(false);
      expect(res.body).toMatchObject({ field: 'role', error: 'The last admin cannot be demoted.' });
      expect((await w.db('users').where({ id: w.users.adminA }).first()).role).toBe('admin');
      // Promoting someone makes demotion possible again.
      expect((await post('/api/users/upsert', w.tokens.adminA, { id: w.users.adminB, role: 'admin' })).status).toBe(200);
      expect((await post('/api/users/upsert', w.tokens.adminA, { id: w.users.adminB, role: 'user' })).status).toBe(200);
    });
  });
});
