// The header search (GET /api/search?q=): each kind found by each of its fields (prefix, any case),
// one site's records for staff and every site's for admins, the query's limits, and characters
// that are wildcards elsewhere taken literally.
import { describe, expect, it } from 'vitest';
import { orderTablesRepo, type NewOrder } from '../src/modules/orders/tablesRepo';
import { bearer, createWorld } from './harness';

describe('header search', async () => {
  const w = await createWorld();
  const search = (q: string, token = w.tokens.userA) => w.request().get('/api/search').query({ q }).set(bearer(token));
  const found = async (q: string, token = w.tokens.userA) => {
    const res = await search(q, token);
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    return res.body.data as Record<string, Array<Record<string, unknown>>>;
  };
  const labels = async (q: string, kind = 'orders', token = w.tokens.userA) => ((await found(q, token))[kind] ?? []).map((r) => r.label);

  const at = '2026-11-20T10:00:00.000Z';
  const order = (siteId: number, id: string, number: number, first: string, last: string, email: string): NewOrder => ({
    siteId,
    orderId: id,
    name: `#${number}`,
    status: 'received',
    searchText: null,
    data: { id, name: `#${number}`, order_number: number, email, customer: { first_name: first, last_name: last, email }, line_items: [{ id: `${id}-1`, sku: 'CARD', quantity: 1 }] },
    createdAt: at,
    updatedAt: at,
  });
  const repo = orderTablesRepo(w.db);
  const [graceId] = await repo.insertOrders([
    order(w.sites.a, '880001', 1024, 'Grace', 'Hopper', 'Grace.Hopper@Navy.example'),
    order(w.sites.a, '880002', 1025, 'Ada', 'Lovelace', 'a_b@example.com'),
    order(w.sites.a, '880003', 2048, 'Alan', 'Turing', 'axb@example.com'),
    order(w.sites.b, '990001', 1026, 'Grace', 'Brewster', 'brewster@site-b.example'),
    order(w.sites.b, '990002', 3000, 'Barbara', 'Liskov', 'barbara@site-b.example'),
  ]);

  const post = async (path: string, body: object, token = w.tokens.userA) => {
    const res = await w.request().post(path).set(bearer(token)).send(body);
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    return res.body.data as { id: number };
  };
  const graceJob = await post('/api/print-jobs', { productName: 'Robin card', quantity: 1, shopifyOrderId: '880001', lineItemId: '880001-1' });
  // Jobs without artwork are held by preflight: the held list opens them.
  const handJob = await post('/api/print-jobs', { productName: 'Hand-made card', quantity: 1 });
  await post('/api/designs', { name: 'Winter robin', sku: 'XMAS-ROBIN', productType: 'Card' });
  await post('/api/designs', { name: '50% off banner', sku: 'SALE-50', productType: 'Card' });
  await post('/api/designs', { name: '500 cards offer', sku: 'BULK-500', productType: 'Card' });
  await post('/api/designs', { name: 'Brewster robin', sku: 'B-ROBIN', productType: 'Card' }, w.tokens.userB);

  it('finds an order by its name, number, store order id, customer name, surname and email, by prefix and in any case', async () => {
    expect(await labels('#1024')).toEqual(['Order #1024']);
    expect(await labels('#102')).toEqual(['Order #1024', 'Order #1025']);
    expect(await labels('1024')).toEqual(['Order #1024']);
    expect(await labels('88000')).toEqual(['Order #1024', 'Order #1025', 'Order #2048']);
    expect(await labels('880003')).toEqual(['Order #2048']);
    expect(await labels('grace')).toEqual(['Order #1024']);
    expect(await labels('GRACE  HOP')).toEqual(['Order #1024']);
    expect(await labels('hop')).toEqual(['Order #1024']);
    expect(await labels('Turi')).toEqual(['Order #2048']);
    expect(await labels('grace.hopper@navy')).toEqual(['Order #1024']);
    // Prefixes only: the middle of a word finds nothing.
    expect(await labels('opper')).toEqual([]);
    const [hit] = (await found('#1024')).orders;
    expect(hit).toMatchObject({ id: graceId, orderId: '880001', name: '#1024', link: '/check-order?id=880001', siteId: w.sites.a, status: 'received' });
    expect(hit.sub).toBe('Grace Hopper · Grace.Hopper@Navy.example · received');
  });

  it('follows an order whose customer or email changes', async () => {
    const [id] = await repo.insertOrders([order(w.sites.a, '880009', 5000, 'Frances', 'Allen', 'fran@old.example')]);
    expect(await labels('fran@old')).toEqual(['Order #5000']);
    const data = order(w.sites.a, '880009', 5000, 'Frances', 'Elizabeth', 'fran@new.example').data;
    await repo.updateOrder(id, { data, updatedAt: at });
    expect(await labels('fran@old')).toEqual([]);
    expect(await labels('fran@new')).toEqual(['Order #5000']);
    expect(await labels('elizab')).toEqual(['Order #5000']);
    await repo.updateOrder(id, { name: 'CN-5000', updatedAt: at });
    expect(await labels('cn-50')).toEqual(['Order CN-5000']);
    expect(await labels('5000')).toEqual(['Order CN-5000']);
  });

  it("finds a job through its order, and by its number; an order's job opens the order", async () => {
    const jobs = (await found('#1024')).jobs;
    expect(jobs).toEqual([
      expect.objectContaining({ id: graceJob.id, label: `Job ${graceJob.id} · Robin card`, sub: 'Order #1024 · Held by preflight', link: '/check-order?id=880001', orderId: '880001', isPrinted: false }),
    ]);
    expect((await found('hopper')).jobs.map((j) => j.id)).toEqual([graceJob.id]);
    const byNumber = (await found(String(handJob.id).padStart(2, '0'))).jobs;
    expect(byNumber.map((j) => j.id)).toContain(handJob.id);
    expect(byNumber.find((j) => j.id === handJob.id)).toMatchObject({ link: `/print-jobs?tab=held&job=${handJob.id}`, sub: 'Held by preflight' });
  });

  it('finds a design by a word of its name or its SKU', async () => {
    expect(await labels('robin', 'designs')).toEqual(['Winter robin']);
    expect(await labels('WINT', 'designs')).toEqual(['Winter robin']);
    expect(await labels('xmas-r', 'designs')).toEqual(['Winter robin']);
    const [d] = (await found('xmas')).designs;
    expect(d).toMatchObject({ label: 'Winter robin', sub: 'SKU XMAS-ROBIN · Card', sku: 'XMAS-ROBIN' });
    expect(d.link).toBe(`/design/${d.id}`);
  });

  it('takes %, _ and ! as the characters they are', async () => {
    expect(await labels('50%', 'designs')).toEqual(['50% off banner']);
    expect(await labels('5_', 'designs')).toEqual([]);
    expect(await labels('a_b', 'orders')).toEqual(['Order #1025']);
    expect(await labels('a%', 'orders')).toEqual([]);
    expect(await labels('!!', 'designs')).toEqual([]);
  });

  it("never shows staff another site's records, nor sites and users", async () => {
    // Site B's Grace, design and orders stay with site B.
    const a = await found('grace');
    expect(a.orders.map((o) => o.label)).toEqual(['Order #1024']);
    expect(Object.keys(a).sort()).toEqual(['designs', 'jobs', 'orders']);
    const b = await found('grace', w.tokens.userB);
    expect(b.orders.map((o) => o.label)).toEqual(['Order #1026']);
    expect(await labels('hopper', 'orders', w.tokens.userB)).toEqual([]);
    expect(await labels('880001', 'orders', w.tokens.userB)).toEqual([]);
    expect(await labels('#1024', 'jobs', w.tokens.userB)).toEqual([]);
    expect(await labels(String(graceJob.id).padStart(2, '0'), 'jobs', w.tokens.userB)).toEqual([]);
    expect(await labels('robin', 'designs', w.tokens.userB)).toEqual(['Brewster robin']);
    expect(await labels('liskov', 'orders')).toEqual([]);
    expect(await labels('site', 'sites')).toEqual([]);
    expect(Object.keys(await found('site', w.tokens.userB)).sort()).toEqual(['designs', 'jobs', 'orders']);
  });

  it("shows an admin every site's records, with the site's name, and sites and users", async () => {
    const all = await found('grace', w.tokens.adminA);
    expect(all.orders.map((o) => [o.label, o.sub])).toEqual([
      // In the order of the matched key ("grace brewster" before "grace hopper").
      ['Order #1026', 'Grace Brewster · brewster@site-b.example · Site B · received'],
      ['Order #1024', 'Grace Hopper · Grace.Hopper@Navy.example · Site A · received'],
    ]);
    expect(await labels('robin', 'designs', w.tokens.adminA)).toEqual(['Brewster robin', 'Winter robin']);
    expect((await found('site', w.tokens.adminA)).sites).toEqual([
      { id: w.sites.a, label: 'Site A', sub: 'site-a', link: `/sites/${w.sites.a}`, name: 'Site A', slug: 'site-a' },
      { id: w.sites.b, label: 'Site B', sub: 'site-b', link: `/sites/${w.sites.b}`, name: 'Site B', slug: 'site-b' },
    ]);
    expect(await labels('b', 'sites', w.tokens.adminA)).toEqual([]);
    expect(await labels('site-b', 'sites', w.tokens.adminA)).toEqual(['Site B']);
    const users = (await found('user-b@', w.tokens.adminA)).users;
    expect(users).toEqual([expect.objectContaining({ id: w.users.userB, label: 'user-b Tester', sub: 'user-b@example.com · Staff · Site B', link: `/sites/${w.sites.b}`, role: 'user' })]);
    expect((await found('tester', w.tokens.adminA)).users).toHaveLength(5);
    expect((await found('admin-a tes', w.tokens.adminA)).users.map((u) => u.id)).toEqual([w.users.adminA]);
  });

  it('answers empty groups under 2 characters, and refuses more than 100', async () => {
    expect(await found('g')).toEqual({ orders: [], jobs: [], designs: [] });
    expect(await found('   g   ')).toEqual({ orders: [], jobs: [], designs: [] });
    expect(await found('', w.tokens.adminA)).toEqual({ orders: [], jobs: [], designs: [], sites: [], users: [] });
    expect((await w.request().get('/api/search').set(bearer(w.tokens.userA))).body.data).toEqual({ orders: [], jobs: [], designs: [] });
    // Trimmed before it is measured.
    expect((await search(`  ${'g'.repeat(100)}  `)).status).toBe(200);
    const long = await search('g'.repeat(101));
    expect(long.status).toBe(400);
    expect(long.body.error).toBe('Search must be 100 characters at most.');
    const twice = await w.request().get('/api/search?q=ab&q=cd').set(bearer(w.tokens.userA));
    expect(twice.status).toBe(400);
    expect((await w.request().get('/api/search?q=grace')).status).toBe(401);
  });

  it("finds a job by a one-digit number and by its slug's code (PJ-<id>, PJ-<id>-<copy>), a batch by its cover's (PB-<n>)", async () => {
    expect(graceJob.id).toBeLessThan(10);
    const jobLabel = `Job ${graceJob.id} · Robin card`;
    expect(await labels(String(graceJob.id), 'jobs')).toContain(jobLabel);
    for (const code of [`PJ-${graceJob.id}`, `pj-${graceJob.id}`, `PJ-${graceJob.id}-2`]) {
      const hits = await found(code);
      expect(hits.jobs.map((j) => j.label), code).toEqual([jobLabel]);
      expect(hits.jobs[0].link).toBe('/check-order?id=880001');
    }
    // Another site's job is not found by its code.
    expect((await found(`PJ-${graceJob.id}`, w.tokens.userB)).jobs).toEqual([]);
    const made = { state: 'open', sheet: 'A3', created_at: at, state_changed_at: at };
    const [{ id: batchA }] = (await w.db('batches').insert([{ site_id: w.sites.a, number: 3, ...made }]).returning('id')) as Array<{ id: number }>;
    const [{ id: batchB }] = (await w.db('batches').insert([{ site_id: w.sites.b, number: 3, ...made }]).returning('id')) as Array<{ id: number }>;
    const batches = (await found('PB-3')).batches;
    expect(batches).toEqual([expect.objectContaining({ id: batchA, label: 'Batch PB-3', link: `/batches/${batchA}`, number: 3 })]);
    expect((await found('pb-3', w.tokens.adminA)).batches?.map((b) => b.link)).toEqual([`/batches/${batchA}`, `/batches/${batchB}`]);
    expect((await found('PB-4')).batches).toEqual([]);
    // A word that only looks like a code is searched as words.
    expect((await found('PB-3-1')).batches).toBeUndefined();
    // A code naming an id no row can have finds nothing, and never reaches the database (PostgreSQL
    // would refuse the integer).
    for (const code of ['PJ-99999999999', 'PB-99999999999']) {
      const none = await found(code);
      expect([none.orders, none.jobs, none.batches ?? []], code).toEqual([[], [], []]);
    }
  });

  it('answers at most 8 of a kind', async () => {
    const many = Array.from({ length: 12 }, (_, i) => order(w.sites.a, `77${i}`, 7700 + i, 'Ken', 'Thompson', `ken${i}@example.com`));
    await repo.insertOrders(many);
    const hits = (await found('thompson')).orders;
    expect(hits).toHaveLength(8);
    expect(new Set(hits.map((h) => h.id)).size).toBe(8);
  });
});
