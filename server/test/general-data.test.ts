// The spec's generic data records: create, list, read, tenancy, publicPermission, system types.
import { describe, expect, it } from 'vitest';
import { fromJson } from '../src/db';
import { bearer, createWorld } from './harness';

interface Rec {
  id: number;
  type: string;
  field1: string | null;
  field2: string | null;
  name: string | null;
  data: Record<string, unknown>;
  siteId: number;
  userId: number | null;
  publicPermission: { create: boolean; read: boolean; update: boolean; delete: boolean };
  createdAt: string;
}

describe('general data', async () => {
  const w = await createWorld();
  const post = (type: string, token: string, body: unknown) => w.request().post(`/api/general-data/${type}`).set(bearer(token)).send(body as object);
  const get = (path: string, token: string) => w.request().get(path).set(bearer(token));
  const create = async (type: string, token: string, body: Record<string, unknown>): Promise<Rec> => {
    const res = await post(type, token, body);
    expect(res.status).toBe(200);
    return res.body.data;
  };
  const list = async (type: string, token: string, query = '') => {
    const res = await get(`/api/general-data/${type}${query}`, token);
    expect(res.status).toBe(200);
    return res.body.data as { data: Rec[]; hasNext: boolean; total: number };
  };
  const ids = (l: { data: Rec[] }) => l.data.map((r) => r.id);

  describe('POST /api/general-data/:type (create)', () => {
    it("creates a production note in the caller's site, owned by the caller", async () => {
      const res = await post('production-note', w.tokens.userA, { field1: '42', name: 'note', data: { note: 'Use the matte stock' } });
      expect(res.status).toBe(200);
      expect(res.body.success).toBe(true);
      const rec = res.body.data as Rec;
      expect(rec).toMatchObject({
        type: 'production-note',
        field1: '42',
        field2: null,
        name: 'note',
        data: { note: 'Use the matte stock' },
        siteId: w.sites.a,
        userId: w.users.userA,
        publicPermission: { create: true, read: true, update: true, delete: false },
      });
      expect(rec.id).toEqual(expect.any(Number));
      expect(Number.isNaN(Date.parse(rec.createdAt))).toBe(false);
      const row = await w.db('general_data').where({ id: rec.id }).first();
      expect(row).toMatchObject({ type: 'production-note', field1: '42', name: 'note', site_id: w.sites.a, user_id: w.users.userA });
      expect(fromJson(row.data, {})).toEqual({ note: 'Use the matte stock' });
      const back = await get(`/api/general-data/production-note/${rec.id}`, w.tokens.userA);
      expect(back.status).toBe(200);
      expect(back.body.data).toEqual(rec);
    });

    it('an id beyond any row (over 2^31 - 1) is an unknown record (404), on every database', async () => {
      const res = await post('production-note', w.tokens.userA, { id: 2147483648, data: { a: 1 } });
      expect(res.status).toBe(404);
      expect(res.body).toEqual({ success: false, error: 'Record not found' });
      expect((await get('/api/general-data/production-note/2147483648', w.tokens.userA)).status).toBe(404);
    });

    it('a number in field1 is stored as text', async () => {
      const rec = await create('production-note', w.tokens.userA, { field1: 1234, data: { note: 'n' } });
      expect(rec.field1).toBe('1234');
    });

    it('a non-admin cannot create a record for another site', async () => {
      const res = await post('production-note', w.tokens.userA, { siteId: w.sites.b, data: { note: 'x' } });
      expect(res.status).toBe(403);
      expect(await w.db('general_data').where({ site_id: w.sites.b, type: 'production-note' }).first()).toBeUndefined();
    });

    it('an admin may create a record for another site, but not for an unknown one', async () => {
      const rec = await create('production-note', w.tokens.adminA, { siteId: w.sites.b, field1: 'for-b', data: { note: 'x' } });
      expect(rec.siteId).toBe(w.sites.b);
      const res = await post('production-note', w.tokens.adminA, { siteId: 999999, data: {} });
      expect(res.status).toBe(400);
      expect(res.body.field).toBe('siteId');
    });

    it.each(['Bad_Type!', 'UPPER', '-leading', 'a'.repeat(65)])('a bad type (%s) → 400', async (type) => {
      const res = await post(encodeURIComponent(type), w.tokens.adminA, { data: {} });
      expect(res.status).toBe(400);
      expect(res.body.success).toBe(false);
      expect(res.body.error).toMatch(/type/);
      expect((await get(`/api/general-data/${encodeURIComponent(type)}`, w.tokens.adminA)).status).toBe(400);
    });

    it('data must be an object; field1 at most 255 characters', async () => {
      const notObject = await post('production-note', w.tokens.userA, { data: 'text' });
      expect(notObject.status).toBe(400);
      expect(notObject.body.field).toBe('data');
      const long = await post('production-note', w.tokens.userA, { field1: 'x'.repeat(256) });
      expect(long.status).toBe(400);
      expect(long.body.field).toBe('field1');
    });

    it('without a token → 401', async () => {
      expect((await w.request().post('/api/general-data/production-note').send({ data: {} })).status).toBe(401);
      expect((await w.request().get('/api/general-data/production-note')).status).toBe(401);
    });
  });

  describe('system types', () => {
    it.each(['shopify-order-log', 'hp-log', 'shopify-hp-log', 're-sync'])('%s: a non-admin gets 403, an admin may write', async (type) => {
      const denied = await post(type, w.tokens.userA, { name: 'x', data: { a: 1 } });
      expect(denied.status).toBe(403);
      expect(denied.body.success).toBe(false);
      expect(await w.db('general_data').where({ type }).first()).toBeUndefined();
      // An order is named by its store order id (field1).
      const rec = await create(type, w.tokens.adminA, { name: 'x', data: { a: 1 }, ...(type === 'shopify-order-log' ? { field1: '555001' } : {}) });
      expect(rec.type).toBe(type);
      // A non-admin cannot change it either, even though they can read it.
      expect((await get(`/api/general-data/${type}/${rec.id}`, w.tokens.userA)).status).toBe(200);
      expect((await post(type, w.tokens.userA, { id: rec.id, data: { a: 2 } })).status).toBe(403);
    });

    it('a hand-made order needs its store order id, and a second copy of an order is refused (409), not stored', async () => {
      const noId = await post('shopify-order-log', w.tokens.adminA, { data: { a: 1 } });
      expect(noId.status).toBe(400);
      expect(noId.body.error).toBe('An order needs its store order ID.');
      const first = await create('shopify-order-log', w.tokens.adminA, { field1: '777001', field2: '#7001', data: { status: 'received', line_items: [] } });
      const again = await post('shopify-order-log', w.tokens.adminA, { field1: '777001', field2: '#7001', data: {} });
      expect(again.status).toBe(409);
      expect(again.body.error).toMatch(new RegExp(`already has an order with this store order id.*record ${first.id}`));
      expect(await w.db('store_orders').where({ store_order_id: '777001' })).toHaveLength(1);
      // The same store order id in another site is another order.
      expect((await post('shopify-order-log', w.tokens.adminA, { field1: '777001', siteId: w.sites.b, data: {} })).status).toBe(200);
      // A hand edit does not move an order's status (only orders' table of moves does): refused, naming the field, nothing written.
      const moved = await post('shopify-order-log', w.tokens.adminA, { id: first.id, data: { status: 'printed', note: 'by hand' } });
      expect(moved.status).toBe(400);
      expect(moved.body.field).toBe('data.status');
      expect(moved.body.error).toMatch(/not by hand: it stays received/);
      const kept = await w.db('store_orders').where({ id: first.id }).first();
      expect(kept.status).toBe('received');
      expect(JSON.stringify(kept.our_data ?? null)).not.toContain('by hand');
      // Updating the one order works, and its status has one home: the column, shown as data.status.
      const updated = await post('shopify-order-log', w.tokens.adminA, { id: first.id, data: { status: 'received', note: 'by hand' } });
      expect(updated.status).toBe(200);
      expect(updated.body.data).toMatchObject({ id: first.id, status: 'received', field1: '777001', data: { status: 'received', note: 'by hand' } });
      expect((await w.db('store_orders').where({ id: first.id }).first()).status).toBe('received');
      // Other types keep allowing copies.
      await create('note', w.tokens.adminA, { field1: 'same' });
      await create('note', w.tokens.adminA, { field1: 'same' });
    });
  });

  describe('GET /api/general-data/:type (list)', () => {
    const TYPE = 'paging-test';
    const made: Rec[] = [];

    it('answers data.data as a list with hasNext and total, newest first, 20 a page', async () => {
      for (let i = 0; i < 25; i++) {
        w.clock.advance(1000);
        made.push(
          await create(TYPE, i % 2 ? w.tokens.userA : w.tokens.userA2, {
            field1: `job-${i % 5}`,
            field2: i % 3 === 0 ? 'three' : 'other',
            name: i < 10 ? 'first-ten' : 'rest',
            data: { i },
          }),
        );
      }
      const newestFirst = [...made].reverse().map((r) => r.id);
      const page1 = await list(TYPE, w.tokens.userA);
      expect(Array.isArray(page1.data)).toBe(true);
      expect(page1.data).toHaveLength(20);
      expect(page1.hasNext).toBe(true);
      expect(page1.total).toBe(25);
      expect(ids(page1)).toEqual(newestFirst.slice(0, 20));
      const page2 = await list(TYPE, w.tokens.userA, '?page=2');
      expect(page2.data).toHaveLength(5);
      expect(page2.hasNext).toBe(false);
      expect(page2.total).toBe(25);
      expect(ids(page2)).toEqual(newestFirst.slice(20));
      const page3 = await list(TYPE, w.tokens.userA, '?page=3');
      expect(page3).toMatchObject({ data: [], hasNext: false, total: 25 });
    });

    it('the same order when records share a timestamp (newest id first)', async () => {
      const a = await create('same-time', w.tokens.userA, { data: {} });
      const b = await create('same-time', w.tokens.userA, { data: {} });
      expect(ids(await list('same-time', w.tokens.userA))).toEqual([b.id, a.id]);
    });

    it('filters by field1, field2, name and userId', async () => {
      const expectIds = async (query: string, pred: (r: Rec) => boolean) => {
        const want = made.filter(pred).map((r) => r.id).sort((x, y) => y - x);
        const got = await list(TYPE, w.tokens.adminA, `${query}&pageSize=100`);
        expect(want.length).toBeGreaterThan(0);
        expect(ids(got)).toEqual(want);
        expect(got.total).toBe(want.length);
      };
      await expectIds('?field1=job-3', (r) => r.field1 === 'job-3');
      await expectIds('?field2=three', (r) => r.field2 === 'three');
      await expectIds('?name=first-ten', (r) => r.name === 'first-ten');
      await expectIds(`?userId=${w.users.userA2}`, (r) => r.userId === w.users.userA2);
      await expectIds(`?field1=job-1&name=rest&userId=${w.users.userA}`, (r) => r.field1 === 'job-1' && r.name === 'rest' && r.userId === w.users.userA);
      const none = await list(TYPE, w.tokens.adminA, '?field1=nothing-like-this');
      expect(none).toMatchObject({ data: [], hasNext: false, total: 0 });
    });

    it('a type named like an object key lists nothing (or is refused), never a server error', async () => {
      const res = await get('/api/general-data/constructor', w.tokens.userA);
      expect(res.status).toBe(200);
      expect(res.body.data.data).toEqual([]);
      for (const type of ['toString', '__proto__', 'hasOwnProperty']) expect((await get(`/api/general-data/${type}`, w.tokens.userA)).status).toBe(400);
    });

    it('only lists records of the type asked for', async () => {
      const notes = await list('production-note', w.tokens.adminA, '?pageSize=100');
      expect(notes.data.every((r) => r.type === 'production-note')).toBe(true);
      expect(notes.data.some((r) => made.some((m) => m.id === r.id))).toBe(false);
    });

    it.each(['?page=0', '?page=-1', '?page=abc', '?page=1.5', '?userId=abc', '?allClients=maybe'])('%s → 400', async (query) => {
      const res = await get(`/api/general-data/${TYPE}${query}`, w.tokens.userA);
      expect(res.status).toBe(400);
      expect(res.body.success).toBe(false);
      expect(['page', 'userId', 'allClients']).toContain(res.body.field);
    });
  });

  describe('tenancy', () => {
    let onB: Rec;
    let onA: Rec;
    it('set-up: one record on each site', async () => {
      onB = await create('tenancy', w.tokens.userB, { field1: 'b', data: { site: 'b' } });
      onA = await create('tenancy', w.tokens.userA, { field1: 'a', data: { site: 'a' } });
      expect(onB.siteId).toBe(w.sites.b);
    });

    it("a user never sees another site's records, in a list or by id", async () => {
      expect(ids(await list('tenancy', w.tokens.userA))).toEqual([onA.id]);
      expect(ids(await list('tenancy', w.tokens.userB))).toEqual([onB.id]);
      const byId = await get(`/api/general-data/tenancy/${onB.id}`, w.tokens.userA);
      expect(byId.status).toBe(404);
      expect(byId.body.data).toBeUndefined();
      // Asking for another site or another user's records does not widen what a user sees.
      expect(ids(await list('tenancy', w.tokens.userA, `?siteId=${w.sites.b}`))).toEqual([onA.id]);
      expect(ids(await list('tenancy', w.tokens.userA, `?userId=${w.users.userB}`))).toEqual([]);
    });

    it("a user cannot change another site's record (404) and it stays as it was", async () => {
      const res = await post('tenancy', w.tokens.userA, { id: onB.id, data: { site: 'hacked' } });
      expect(res.status).toBe(404);
      expect(fromJson((await w.db('general_data').where({ id: onB.id }).first()).data, {})).toEqual({ site: 'b' });
    });

    it('allClients=1: an admin sees every site, a non-admin gets 403', async () => {
      expect(ids(await list('tenancy', w.tokens.adminA))).toEqual([onA.id]);
      expect(ids(await list('tenancy', w.tokens.adminA, '?allClients=1'))).toEqual([onA.id, onB.id]);
      expect(ids(await list('tenancy', w.tokens.adminA, '?allClients=0'))).toEqual([onA.id]);
      const denied = await get('/api/general-data/tenancy?allClients=1', w.tokens.userA);
      expect(denied.status).toBe(403);
      expect(denied.body.success).toBe(false);
      expect(ids(await list('tenancy', w.tokens.userA, '?allClients=0'))).toEqual([onA.id]);
    });

    it('an admin reads and updates a record of another site', async () => {
      expect((await get(`/api/general-data/tenancy/${onB.id}`, w.tokens.adminA)).status).toBe(200);
      const res = await post('tenancy', w.tokens.adminA, { id: onB.id, field2: 'seen' });
      expect(res.status).toBe(200);
      expect(res.body.data).toMatchObject({ id: onB.id, field2: 'seen', siteId: w.sites.b, userId: w.users.userB, data: { site: 'b' } });
    });

    it('an admin moving a record to an unknown site → 400, not a server error', async () => {
      const res = await post('tenancy', w.tokens.adminA, { id: onB.id, siteId: 999999 });
      expect(res.status).toBe(400);
      expect(res.body.field).toBe('siteId');
      expect((await w.db('general_data').where({ id: onB.id }).first()).site_id).toBe(w.sites.b);
    });

    it('GET /:type/:id with the wrong type, an unknown id or a bad id → 404', async () => {
      expect((await get(`/api/general-data/production-note/${onA.id}`, w.tokens.adminA)).status).toBe(404);
      expect((await get('/api/general-data/tenancy/999999', w.tokens.adminA)).status).toBe(404);
      expect((await get('/api/general-data/tenancy/abc', w.tokens.adminA)).status).toBe(404);
      expect((await post('production-note', w.tokens.adminA, { id: onA.id, data: {} })).status).toBe(404);
    });
  });

  describe('publicPermission', () => {
    it('{read:false}: hidden from other users of the site, visible to its creator and an admin', async () => {
      const rec = await create('private-note', w.tokens.userA, { field1: 'p', data: { secret: true }, publicPermission: { read: false } });
      expect(rec.publicPermission).toEqual({ create: true, read: false, update: true, delete: false });
      const open = await create('private-note', w.tokens.userA, { field1: 'o', data: {} });

      expect(ids(await list('private-note', w.tokens.userA2))).toEqual([open.id]);
      const byId = await get(`/api/general-data/private-note/${rec.id}`, w.tokens.userA2);
      expect(byId.status).toBe(404);
      expect(byId.body.data).toBeUndefined();

      expect(ids(await list('private-note', w.tokens.userA))).toEqual([open.id, rec.id]);
      expect((await get(`/api/general-data/private-note/${rec.id}`, w.tokens.userA)).status).toBe(200);
      expect(ids(await list('private-note', w.tokens.adminA))).toEqual([open.id, rec.id]);
      expect((await get(`/api/general-data/private-note/${rec.id}`, w.tokens.adminA)).status).toBe(200);
    });

    it('{update:false}: another user of the site gets 403 on update; the creator may update', async () => {
      const rec = await create('locked-note', w.tokens.userA, { data: { v: 1 }, publicPermission: { update: false } });
      expect((await get(`/api/general-data/locked-note/${rec.id}`, w.tokens.userA2)).status).toBe(200);
      const denied = await post('locked-note', w.tokens.userA2, { id: rec.id, data: { v: 2 } });
      expect(denied.status).toBe(403);
      expect(denied.body.success).toBe(false);
      expect(fromJson((await w.db('general_data').where({ id: rec.id }).first()).data, {})).toEqual({ v: 1 });
      const mine = await post('locked-note', w.tokens.userA, { id: rec.id, data: { v: 3 } });
      expect(mine.status).toBe(200);
      expect(mine.body.data.data).toEqual({ v: 3 });
      const admin = await post('locked-note', w.tokens.adminA, { id: rec.id, data: { v: 4 } });
      expect(admin.status).toBe(200);
    });

    it('by default another user of the site may update data but not publicPermission', async () => {
      const rec = await create('shared-note', w.tokens.userA, { data: { v: 1 } });
      const update = await post('shared-note', w.tokens.userA2, { id: rec.id, data: { v: 2 } });
      expect(update.status).toBe(200);
      expect(update.body.data).toMatchObject({ data: { v: 2 }, userId: w.users.userA });
      const perm = await post('shared-note', w.tokens.userA2, { id: rec.id, publicPermission: { read: false } });
      expect(perm.status).toBe(403);
      expect((await w.db('general_data').where({ id: rec.id }).first()).perm_read).toBeTruthy();
    });

    it('another user may send the unchanged publicPermission back with an update (the spec upsert payload carries it)', async () => {
      const rec = await create('sync-config', w.tokens.userA, { name: 'hour', data: { hour: '4' }, publicPermission: { read: true, update: true } });
      const res = await post('sync-config', w.tokens.userA2, { id: rec.id, name: 'hour', data: { hour: '5' }, publicPermission: rec.publicPermission });
      expect(res.status).toBe(200);
      expect(res.body.data).toMatchObject({ data: { hour: '5' }, publicPermission: rec.publicPermission, userId: w.users.userA });
      const partial = await post('sync-config', w.tokens.userA2, { id: rec.id, data: { hour: '6' }, publicPermission: { read: true, update: true } });
      expect(partial.status).toBe(200);
      const changed = await post('sync-config', w.tokens.userA2, { id: rec.id, data: { hour: '7' }, publicPermission: { ...rec.publicPermission, delete: true } });
      expect(changed.status).toBe(403);
      expect(fromJson((await w.db('general_data').where({ id: rec.id }).first()).data, {})).toEqual({ hour: '6' });
    });

    it('the creator and an admin may change publicPermission; unsent flags are kept', async () => {
      const rec = await create('perm-note', w.tokens.userA, { data: {} });
      const byCreator = await post('perm-note', w.tokens.userA, { id: rec.id, publicPermission: { update: false } });
      expect(byCreator.status).toBe(200);
      expect(byCreator.body.data.publicPermission).toEqual({ create: true, read: true, update: false, delete: false });
      expect((await post('perm-note', w.tokens.userA2, { id: rec.id, data: { x: 1 } })).status).toBe(403);
      const byAdmin = await post('perm-note', w.tokens.adminA, { id: rec.id, publicPermission: { update: 1, read: '0' } });
      expect(byAdmin.status).toBe(200);
      expect(byAdmin.body.data.publicPermission).toEqual({ create: true, read: false, update: true, delete: false });
      expect((await get(`/api/general-data/perm-note/${rec.id}`, w.tokens.userA2)).status).toBe(404);
    });
  });
});

describe('status and search columns (orders and provider events)', async () => {
  const w = await createWorld();
  const now = new Date().toISOString();
  const add = (name: string, status: string, searchText: string) =>
    w.services.generalData.repo.insert({
      type: 'shopify-order-log', field1: name, field2: name, name: 'order-log', data: {}, siteId: w.sites.a, userId: null,
      publicPermission: { create: false, read: true, update: false, delete: false }, createdAt: now, updatedAt: now, status, searchText,
    });
  await add('1001', 'shipped', '#1001 Ada Lovelace ada@example.com');
  await add('1002', 'received', '#1002 Grace Hopper grace@example.com');
  await add('1003', 'received', '#1003 100%_off Promo');

  const list = (query: string) => w.request().get(`/api/general-data/shopify-order-log?${query}`).set(bearer(w.tokens.adminA));

  it('filters by status', async () => {
    const r = await list('status=received');
    expect(r.body.data.data.map((d: { field1: string }) => d.field1).sort()).toEqual(['1002', '1003']);
    expect(r.body.data.data[0].status).toBe('received');
  });

  it('searches order name and customer, case-insensitively, every word', async () => {
    expect((await list('q=GRACE')).body.data.data.map((d: { field1: string }) => d.field1)).toEqual(['1002']);
    expect((await list('q=ada%20lovelace')).body.data.data.map((d: { field1: string }) => d.field1)).toEqual(['1001']);
    expect((await list('q=ada%20hopper')).body.data.total).toBe(0);
  });

  it('treats % and _ in a search as plain characters', async () => {
    expect((await list('q=100%25_')).body.data.data.map((d: { field1: string }) => d.field1)).toEqual(['1003']);
    expect((await list('q=%25')).body.data.data.map((d: { field1: string }) => d.field1)).toEqual(['1003']);
  });
});

describe('long lists: hasNext from one row more, total counted only so far past the page', async () => {
  const w = await createWorld();
  const now = Date.parse('2026-01-01T00:00:00Z');
  const rows = Array.from({ length: 1100 }, (_, i) => ({
    type: 'production-note', field1: String(i), name: null, data: '{}', site_id: w.sites.a, user_id: w.users.adminA,
    perm_create: true, perm_read: true, perm_update: true, perm_delete: false,
    created_at: new Date(now + i * 1000).toISOString(), updated_at: new Date(now + i * 1000).toISOString(),
  }));
  await w.db.batchInsert('general_data', rows, 200);
  const list = (query: string) => w.request().get(`/api/general-data/production-note?${query}`).set(bearer(w.tokens.adminA));

  it('page 1 of 1,100: 20 rows, hasNext, and a total capped at 1,020 that says so', async () => {
    const r = await list('page=1');
    expect(r.body.data.data).toHaveLength(20);
    expect(r.body.data.data[0].field1).toBe('1099');
    expect(r.body.data).toMatchObject({ hasNext: true, total: 1020, totalIsCapped: true });
  });

  it('the last page: exact total, no next page', async () => {
    const r = await list('page=55');
    expect(r.body.data.data).toHaveLength(20);
    expect(r.body.data.data[19].field1).toBe('0');
    expect(r.body.data).toMatchObject({ hasNext: false, total: 1100, totalIsCapped: false });
  });
});
