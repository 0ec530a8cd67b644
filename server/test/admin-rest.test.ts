// /api/admin/<resource> in the exact protocol of ra-data-simple-rest (what react-admin sends and reads).
import { describe, expect, it } from 'vitest';
import { PASSWORD, bearer, createWorld } from './harness';

describe('admin REST (ra-data-simple-rest)', async () => {
  const w = await createWorld();
  const q = (params: Record<string, unknown>) =>
    Object.entries(params)
      .map(([k, v]) => `${k}=${encodeURIComponent(typeof v === 'string' ? v : JSON.stringify(v))}`)
      .join('&');
  const get = (path: string, token = w.tokens.adminA) => w.request().get(path).set(bearer(token));

  describe('getList / getMany / getManyReference', () => {
    it('sort + range → that slice as a plain array and Content-Range', async () => {
      const res = await get(`/api/admin/sites?${q({ sort: ['name', 'DESC'], range: [0, 0] })}`);
      expect(res.status).toBe(200);
      expect(res.headers['content-range']).toBe('sites 0-0/2');
      expect(Array.isArray(res.body)).toBe(true);
      expect(res.body).toHaveLength(1);
      expect(res.body[0]).toMatchObject({ id: w.sites.b, name: 'Site B', slug: 'site-b' });
      const next = await get(`/api/admin/sites?${q({ sort: ['name', 'DESC'], range: [1, 1] })}`);
      expect(next.headers['content-range']).toBe('sites 1-1/2');
      expect(next.body.map((s: { id: number }) => s.id)).toEqual([w.sites.a]);
      const asc = await get(`/api/admin/sites?${q({ sort: ['name', 'ASC'], range: [0, 9] })}`);
      expect(asc.headers['content-range']).toBe('sites 0-1/2');
      expect(asc.body.map((s: { id: number }) => s.id)).toEqual([w.sites.a, w.sites.b]);
    });

    it('without parameters → the first page in the default order', async () => {
      const res = await get('/api/admin/users');
      expect(res.status).toBe(200);
      expect(res.headers['content-range']).toBe('users 0-4/5');
      expect(res.body.map((u: { id: number }) => u.id)).toEqual(Object.values(w.users).sort((a, b) => a - b));
      expect(JSON.stringify(res.body)).not.toMatch(/password|\$2[aby]\$/);
    });

    it('getMany: filter={"id":[…]}', async () => {
      const res = await get(`/api/admin/sites?${q({ filter: { id: [w.sites.a, w.sites.b] } })}`);
      expect(res.status).toBe(200);
      expect(res.body.map((s: { id: number }) => s.id).sort()).toEqual([w.sites.a, w.sites.b].sort());
      const one = await get(`/api/admin/users?${q({ filter: { id: [w.users.userB] } })}`);
      expect(one.body.map((u: { id: number }) => u.id)).toEqual([w.users.userB]);
      expect(one.headers['content-range']).toBe('users 0-0/1');
      const bad = await get(`/api/admin/users?${q({ filter: { id: ['x'] } })}`);
      expect(bad.status).toBe(400);
      expect(bad.body.field).toBe('filter.id');
    });

    it('getManyReference: users filter={"siteId":…}', async () => {
      const res = await get(`/api/admin/users?${q({ filter: { siteId: w.sites.a }, sort: ['email', 'ASC'], range: [0, 24] })}`);
      expect(res.status).toBe(200);
      expect(res.headers['content-range']).toBe('users 0-2/3');
      expect(res.body.map((u: { email: string }) => u.email)).toEqual(['admin-a@example.com', 'user-a2@example.com', 'user-a@example.com']);
      expect(res.body.every((u: { siteId: number }) => u.siteId === w.sites.a)).toBe(true);
    });

    it('users filter q and role', async () => {
      const byQ = await get(`/api/admin/users?${q({ filter: { q: 'USER-B' } })}`);
      expect(byQ.body.map((u: { id: number }) => u.id)).toEqual([w.users.userB]);
      const admins = await get(`/api/admin/users?${q({ filter: { role: 'admin' } })}`);
      expect(admins.body.map((u: { id: number }) => u.id).sort()).toEqual([w.users.adminA, w.users.adminB].sort());
      expect((await get(`/api/admin/users?${q({ filter: { role: 'root' } })}`)).status).toBe(400);
    });

    it('an empty page still answers a Content-Range with the total', async () => {
      const res = await get(`/api/admin/sites?${q({ range: [10, 19] })}`);
      expect(res.status).toBe(200);
      expect(res.body).toEqual([]);
      expect(res.headers['content-range']).toMatch(/^sites \d+-\d+\/2$/);
    });
  });

  describe('bad list parameters → 400 {success:false, error} naming the parameter', () => {
    it.each([
      ['sort', 'sort=[name'],
      ['sort', `sort=${encodeURIComponent('["name"]')}`],
      ['sort', `sort=${encodeURIComponent('["name","SIDEWAYS"]')}`],
      ['sort', `sort=${encodeURIComponent('["password_hash","ASC"]')}`],
      ['range', 'range=[0,'],
      ['range', `range=${encodeURIComponent('[5,2]')}`],
      ['range', `range=${encodeURIComponent('[-1,2]')}`],
      ['range', `range=${encodeURIComponent('["a","b"]')}`],
      ['filter', 'filter={oops'],
      ['filter', `filter=${encodeURIComponent('[1,2]')}`],
      ['filter', `filter=${encodeURIComponent('"text"')}`],
      ['sort', 'sort=a&sort=b'],
    ])('%s: %s', async (param, query) => {
      for (const resource of ['sites', 'users', 'general-data']) {
        const res = await get(`/api/admin/${resource}?${query}`);
        expect(res.status).toBe(400);
        expect(res.body.success).toBe(false);
        expect(res.body.field).toBe(param);
      }
    });

    it('an unknown sort field → 400 naming it', async () => {
      const res = await get(`/api/admin/sites?${q({ sort: ['settings', 'ASC'] })}`);
      expect(res.status).toBe(400);
      expect(res.body).toMatchObject({ field: 'sort', error: 'Sort cannot be by settings.' });
    });
  });

  describe('sites: getOne, create, update, delete', () => {
    let created: { id: number; name: string; slug: string };

    it('GET /:id → the plain record; unknown → 404', async () => {
      const res = await get(`/api/admin/sites/${w.sites.a}`);
      expect(res.status).toBe(200);
      expect(res.body).toMatchObject({ id: w.sites.a, name: 'Site A', slug: 'site-a', settings: { env: [] } });
      expect(res.body.success).toBeUndefined();
      expect((await get('/api/admin/sites/999999')).status).toBe(404);
    });

    it('POST → 201 and the record with its id', async () => {
      const res = await w.request().post('/api/admin/sites').set(bearer(w.tokens.adminA)).send({ name: 'Site C', slug: 'site-c' });
      expect(res.status).toBe(201);
      expect(res.body).toMatchObject({ id: expect.any(Number), name: 'Site C', slug: 'site-c', theme: { mainColor: '#000000' } });
      created = res.body;
      expect(await w.db('sites').where({ id: created.id }).first()).toMatchObject({ slug: 'site-c' });
      const bad = await w.request().post('/api/admin/sites').set(bearer(w.tokens.adminA)).send({ name: 'Bad', slug: 'Bad Slug' });
      expect(bad.status).toBe(400);
      expect(bad.body).toMatchObject({ success: false, field: 'slug', error: expect.stringMatching(/^Slug /) });
    });

    it('PUT /:id → the updated record (the id of the path wins)', async () => {
      const res = await w.request().put(`/api/admin/sites/${created.id}`).set(bearer(w.tokens.adminA)).send({ ...created, id: w.sites.a, name: 'Site C2' });
      expect(res.status).toBe(200);
      expect(res.body).toMatchObject({ id: created.id, name: 'Site C2', slug: 'site-c' });
      expect((await w.db('sites').where({ id: w.sites.a }).first()).name).toBe('Site A');
      expect((await w.request().put('/api/admin/sites/999999').set(bearer(w.tokens.adminA)).send({ name: 'X', slug: 'x-x' })).status).toBe(404);
    });

    it('DELETE /:id → the deleted record, then it is gone', async () => {
      const res = await w.request().delete(`/api/admin/sites/${created.id}`).set(bearer(w.tokens.adminA));
      expect(res.status).toBe(200);
      expect(res.body).toMatchObject({ id: created.id, name: 'Site C2' });
      expect(await w.db('sites').where({ id: created.id }).first()).toBeUndefined();
      expect((await get(`/api/admin/sites/${created.id}`)).status).toBe(404);
    });

    it('deleting a site that still has users → 409, and it stays', async () => {
      const res = await w.request().delete(`/api/admin/sites/${w.sites.b}`).set(bearer(w.tokens.adminA));
      expect(res.status).toBe(409);
      expect(res.body.success).toBe(false);
      expect(await w.db('sites').where({ id: w.sites.b }).first()).toBeDefined();
    });

    it('a non-admin: 403 on the list and on every change', async () => {
      const list = await get('/api/admin/sites', w.tokens.userA);
      expect(list.status).toBe(403);
      expect(list.body.success).toBe(false);
      expect((await w.request().post('/api/admin/sites').set(bearer(w.tokens.userA)).send({ name: 'X', slug: 'x-y' })).status).toBe(403);
      expect((await w.request().put(`/api/admin/sites/${w.sites.a}`).set(bearer(w.tokens.userA)).send({ name: 'X', slug: 'site-a' })).status).toBe(403);
      expect((await w.request().delete(`/api/admin/sites/${w.sites.a}`).set(bearer(w.tokens.userA))).status).toBe(403);
      // The one site a user may look at is their own, and without its settings.
      const own = await get(`/api/admin/sites/${w.sites.a}`, w.tokens.userA);
      expect(own.status).toBe(200);
      expect(own.body.settings).toBeUndefined();
      expect((await get(`/api/admin/sites/${w.sites.b}`, w.tokens.userA)).status).toBe(404);
    });
  });

  describe('users: create, update, delete', () => {
    let userId: number;

    it('POST → 201 and the record; the user can sign in', async () => {
      const res = await w.request().post('/api/admin/users').set(bearer(w.tokens.adminA)).send({ firstName: 'Rest', lastName: 'User', email: 'rest@example.com', password: PASSWORD, siteId: w.sites.b });
      expect(res.status).toBe(201);
      expect(res.body).toMatchObject({ id: expect.any(Number), email: 'rest@example.com', role: 'user', siteId: w.sites.b });
      expect(res.body.password).toBeUndefined();
      userId = res.body.id;
      expect((await w.request().post('/api/users/login').send({ email: 'rest@example.com', password: PASSWORD })).status).toBe(200);
      const dup = await w.request().post('/api/admin/users').set(bearer(w.tokens.adminA)).send({ firstName: 'Rest', email: 'rest@example.com', password: PASSWORD, siteId: w.sites.b });
      expect(dup.status).toBe(409);
    });

    it('PUT /:id → the updated record', async () => {
      const res = await w.request().put(`/api/admin/users/${userId}`).set(bearer(w.tokens.adminA)).send({ firstName: 'Renamed', role: 'admin' });
      expect(res.status).toBe(200);
      expect(res.body).toMatchObject({ id: userId, firstName: 'Renamed', role: 'admin' });
      expect((await w.db('users').where({ id: userId }).first()).role).toBe('admin');
    });

    it('DELETE /:id → the deleted record; their records stay, without an owner', async () => {
      const note = await w.request().post('/api/general-data/production-note').set(bearer(w.tokenFor(userId))).send({ data: { note: 'mine' } });
      expect(note.status).toBe(200);
      const res = await w.request().delete(`/api/admin/users/${userId}`).set(bearer(w.tokens.adminA));
      expect(res.status).toBe(200);
      expect(res.body).toMatchObject({ id: userId, email: 'rest@example.com' });
      expect(await w.db('users').where({ id: userId }).first()).toBeUndefined();
      expect(await w.db('general_data').where({ id: note.body.data.id }).first()).toMatchObject({ user_id: null });
      expect((await w.request().delete(`/api/admin/users/${userId}`).set(bearer(w.tokens.adminA))).status).toBe(404);
    });

    it('an admin cannot delete their own account', async () => {
      const res = await w.request().delete(`/api/admin/users/${w.users.adminA}`).set(bearer(w.tokens.adminA));
      expect(res.status).toBe(409);
      expect(await w.db('users').where({ id: w.users.adminA }).first()).toBeDefined();
    });

    it('a non-admin: 403 on the list and on create and delete', async () => {
      expect((await get('/api/admin/users', w.tokens.userA)).status).toBe(403);
      expect((await get(`/api/admin/users?${q({ filter: { siteId: w.sites.a } })}`, w.tokens.userA)).status).toBe(403);
      expect((await w.request().post('/api/admin/users').set(bearer(w.tokens.userA)).send({ firstName: 'X', email: 'x@example.com', password: PASSWORD, siteId: w.sites.a })).status).toBe(403);
      expect((await w.request().delete(`/api/admin/users/${w.users.userA2}`).set(bearer(w.tokens.userA))).status).toBe(403);
      expect((await w.request().put(`/api/admin/users/${w.users.userA}`).set(bearer(w.tokens.userA)).send({ role: 'admin' })).status).toBe(403);
      expect((await w.db('users').where({ id: w.users.userA }).first()).role).toBe('user');
    });
  });

  describe('general-data', () => {
    let recA: { id: number };
    let recB: { id: number };

    it('an admin creates (201), reads, updates and deletes records of any type', async () => {
      const res = await w.request().post('/api/admin/general-data').set(bearer(w.tokens.adminA)).send({ type: 'hp-log', name: 'event', data: { status: 'shipped' } });
      expect(res.status).toBe(201);
      expect(res.body).toMatchObject({ id: expect.any(Number), type: 'hp-log', name: 'event', data: { status: 'shipped' }, siteId: w.sites.a });
      recA = res.body;
      const missingType = await w.request().post('/api/admin/general-data').set(bearer(w.tokens.adminA)).send({ data: {} });
      expect(missingType.status).toBe(400);

      const put = await w.request().put(`/api/admin/general-data/${recA.id}`).set(bearer(w.tokens.adminA)).send({ field1: 'f1', data: { status: 'printed' } });
      expect(put.status).toBe(200);
      expect(put.body).toMatchObject({ id: recA.id, type: 'hp-log', field1: 'f1', data: { status: 'printed' } });

      const one = await get(`/api/admin/general-data/${recA.id}`);
      expect(one.status).toBe(200);
      expect(one.body).toMatchObject({ id: recA.id, field1: 'f1' });

      const b = await w.request().post('/api/admin/general-data').set(bearer(w.tokens.adminA)).send({ type: 'note', siteId: w.sites.b, data: {} });
      expect(b.status).toBe(201);
      recB = b.body;

      const list = await get(`/api/admin/general-data?${q({ filter: { id: [recA.id, recB.id] }, sort: ['id', 'ASC'] })}`);
      expect(list.body.map((r: { id: number }) => r.id)).toEqual([recA.id, recB.id]);
      expect(list.headers['content-range']).toBe('general-data 0-1/2');
      const typed = await get(`/api/admin/general-data?${q({ filter: { type: 'hp-log' } })}`);
      expect(typed.body.map((r: { id: number }) => r.id)).toEqual([recA.id]);
    });

    it('a non-admin sees only records of their own site', async () => {
      const mine = await w.request().post('/api/general-data/note').set(bearer(w.tokens.userA)).send({ data: { mine: true } });
      const res = await get(`/api/admin/general-data?${q({ range: [0, 99] })}`, w.tokens.userA);
      expect(res.status).toBe(200);
      const ids = res.body.map((r: { id: number }) => r.id);
      expect(ids).toContain(mine.body.data.id);
      expect(ids).toContain(recA.id);
      expect(ids).not.toContain(recB.id);
      expect(res.body.every((r: { siteId: number }) => r.siteId === w.sites.a)).toBe(true);
      const asked = await get(`/api/admin/general-data?${q({ filter: { siteId: w.sites.b } })}`, w.tokens.userA);
      expect(asked.status).toBe(200);
      expect(asked.body.every((r: { siteId: number }) => r.siteId === w.sites.a)).toBe(true);
      expect((await get(`/api/admin/general-data/${recB.id}`, w.tokens.userA)).status).toBe(404);
      expect((await w.request().delete(`/api/admin/general-data/${recB.id}`).set(bearer(w.tokens.userA))).status).toBe(404);
      // A system record of their own site: readable, not deletable.
      expect((await w.request().delete(`/api/admin/general-data/${recA.id}`).set(bearer(w.tokens.userA))).status).toBe(403);
    });

    it('a user of the site edits a shared record by PUTting the whole record back, as react-admin does', async () => {
      const rec = (await w.request().post('/api/general-data/note').set(bearer(w.tokens.userA)).send({ name: 'shared', data: { v: 1 } })).body.data;
      const res = await w.request().put(`/api/admin/general-data/${rec.id}`).set(bearer(w.tokens.userA2)).send({ ...rec, data: { v: 2 } });
      expect(res.status).toBe(200);
      expect(res.body).toMatchObject({ id: rec.id, data: { v: 2 }, userId: w.users.userA, siteId: w.sites.a });
    });

    it('DELETE /:id → the deleted record', async () => {
      const res = await w.request().delete(`/api/admin/general-data/${recB.id}`).set(bearer(w.tokens.adminA));
      expect(res.status).toBe(200);
      expect(res.body).toMatchObject({ id: recB.id, type: 'note' });
      expect(await w.db('general_data').where({ id: recB.id }).first()).toBeUndefined();
    });
  });

  it('without a token: 401 on every resource', async () => {
    for (const resource of ['sites', 'users', 'general-data']) {
      const res = await w.request().get(`/api/admin/${resource}`);
      expect(res.status).toBe(401);
      expect(res.body).toMatchObject({ success: false, error: expect.any(String) });
      expect((await w.request().get(`/api/admin/${resource}/1`)).status).toBe(401);
      expect((await w.request().delete(`/api/admin/${resource}/1`)).status).toBe(401);
    }
  });
});
