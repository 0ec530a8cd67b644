// The history (audit trail): entries written with the change (jobs, orders, batches), rolled back
// with it, never changed or deleted (both databases), timelines scoped like their subjects, and
// the admin trail's filters.
import { describe, expect, it } from 'vitest';
import { isPostgres } from '../src/db';
import { bearer, createWorld } from './harness';
import { connectStores, deliver, order } from './ordersKit';

type Entry = { at: string; actor: { id?: number; name?: string; automatic?: string }; action: string; from: string | null; to: string | null; reason: string | null; kind?: string; subjectId?: string };

describe('history', async () => {
  const w = await createWorld();
  await connectStores(w);
  const post = (path: string, token: string, body: object) => w.request().post(path).set(bearer(token)).send(body);
  const get = (path: string, token = w.tokens.userA) => w.request().get(path).set(bearer(token));
  const newJob = async (body: object = {}) => {
    const res = await post('/api/print-jobs', w.tokens.userA, { productName: 'Mug', quantity: 1, ...body });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    // A job without pages is held by preflight: approved, as an operator would, so it can be printed.
    expect(res.body.data.held).toBe(true);
    await post(`/api/print-jobs/${res.body.data.id}/approve`, w.tokens.userA, {}).expect(200);
    return res.body.data.id as number;
  };
  const jobHistory = async (id: number, token = w.tokens.userA) => {
    const res = await get(`/api/print-jobs/${id}/history`, token);
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    return res.body.data.list as Entry[];
  };
  const userA = { id: w.users.userA, name: 'user-a Tester' };

  it("a job's changes, each with who, from → to, in the order they happened", async () => {
    const id = await newJob();
    await post('/api/print-jobs', w.tokens.userA, { id, isPDFDownloaded: true }).expect(200);
    await post('/api/print-jobs', w.tokens.userA, { id, isPrinted: true }).expect(200);
    // Refused (already printed): nothing is recorded for it.
    await post('/api/print-jobs', w.tokens.userA2, { id, isPrinted: true }).expect(409);
    await post('/api/print-jobs', w.tokens.adminA, { id, isPDFDownloaded: false, isPrinted: false, isRePrinted: true, reprintReason: 'transitDamage', reprintResponsible: 'carrier' }).expect(200);
    const list = await jobHistory(id);
    expect(list.map((e) => [e.action, e.from, e.to])).toEqual([
      ['created', null, 'held'],
      ['approved', 'held', 'queued'],
      ['downloaded', 'queued', 'downloaded'],
      ['printed', 'downloaded', 'printed'],
      ['reprinted', 'printed', 'queued'],
    ]);
    expect(list[0].reason).toBeTruthy();
    expect(list[3].actor).toEqual(userA);
    expect(list[4].actor).toEqual({ id: w.users.adminA, name: 'admin-a Tester' });
    // A reprint says why and whose fault, as it was asked.
    expect(list[4].reason).toBe('Reprint: Damaged in transit (carrier)');
    expect(Object.keys(list[0]).sort()).toEqual(['action', 'actor', 'at', 'from', 'reason', 'to']);
    // The reports still count from their events.
    expect(await w.db('print_job_events').where({ job_id: id }).pluck('kind')).toEqual(['downloaded', 'printed', 'reprinted']);
  });

  it('a deleted job keeps its history, readable by its site only', async () => {
    const id = await newJob();
    await w.request().delete(`/api/print-jobs/${id}`).set(bearer(w.tokens.userA)).expect(200);
    expect((await jobHistory(id)).map((e) => e.action)).toEqual(['created', 'approved', 'deleted']);
    expect((await get(`/api/print-jobs/${id}/history`, w.tokens.userB)).status).toBe(404);
    expect((await get('/api/print-jobs/999999/history')).status).toBe(404);
  });

  it('a change that fails after its entry was written leaves neither the change nor the entry', async () => {
    const id = await newJob();
    await post('/api/print-jobs', w.tokens.userA, { id, isPDFDownloaded: true }).expect(200);
    // The report event is written after the history entry, in the same transaction: make it fail.
    if (isPostgres(w.db)) {
      await w.db.raw("create function fail_event() returns trigger language plpgsql as $$ begin raise exception 'forced failure'; end $$");
      await w.db.raw('create trigger fail_event before insert on print_job_events for each row execute function fail_event()');
    } else await w.db.raw("create trigger fail_event before insert on print_job_events begin select raise(abort, 'forced failure'); end");
    try {
      const res = await post('/api/print-jobs', w.tokens.userA, { id, isPrinted: true });
      expect(res.status).toBe(500);
    } finally {
      await w.db.raw('drop trigger fail_event' + (isPostgres(w.db) ? ' on print_job_events' : ''));
    }
    const job = (await get(`/api/print-jobs/${id}`)).body.data;
    expect(job.isPrinted).toBe(false);
    expect((await jobHistory(id)).map((e) => e.action)).toEqual(['created', 'approved', 'downloaded']);
  });

  it('entries are never changed nor deleted, on this database too', async () => {
    const before = await w.db('history').count({ n: '*' });
    await expect(w.db('history').update({ action: 'forged' })).rejects.toThrow(/append-only/);
    await expect(w.db('history').delete()).rejects.toThrow(/append-only/);
    expect(await w.db('history').count({ n: '*' })).toEqual(before);
    expect(await w.db('history').where({ action: 'forged' }).first()).toBeUndefined();
  });

  it("an order's timeline: stored, paid and cancelled by the store's webhooks, with its jobs' entries; another site's order is not found", async () => {
    const o = { ...order(), financial_status: 'pending' };
    await deliver(w, o, { topic: 'orders/create' });
    await deliver(w, { ...o, financial_status: 'paid', updated_at: '2026-11-20T11:00:00Z' }, { topic: 'orders/paid' });
    const jobId = await newJob({ shopifyOrderId: o.id, lineItemId: o.line_items[0].id });
    await deliver(w, { ...o, financial_status: 'paid', cancelled_at: '2026-11-20T12:00:00Z', cancel_reason: 'customer', updated_at: '2026-11-20T12:00:00Z' }, { topic: 'orders/cancelled' });
    const res = await get(`/api/online-stores/order-history?id=${o.id}`);
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    const list = res.body.data.list as Entry[];
    expect(list.map((e) => [e.kind, e.action, e.actor.automatic ?? e.actor.name])).toEqual([
      ['order', 'stored', 'Shopify webhook orders/create'],
      ['order', 'paid', 'Shopify webhook orders/paid'],
      ['job', 'created', 'user-a Tester'],
      ['job', 'approved', 'user-a Tester'],
      ['job', 'withdrawn', 'Presswork'],
      ['order', 'cancelled', 'Shopify webhook orders/cancelled'],
    ]);
    expect(list[1]).toMatchObject({ from: 'pending', to: 'paid' });
    expect(list[4]).toMatchObject({ subjectId: String(jobId), from: 'queued', to: 'withdrawn' });
    expect(list[5]).toMatchObject({ from: 'received', to: 'cancelled', reason: 'customer' });
    expect((await get(`/api/online-stores/order-history?id=${o.id}`, w.tokens.userB)).status).toBe(404);
    expect((await get(`/api/online-stores/order-history?id=${o.id}&siteId=${w.sites.b}`, w.tokens.adminA)).status).toBe(404);
    const missing = await get('/api/online-stores/order-history');
    expect(missing.status).toBe(400);
    expect(JSON.stringify(missing.body)).toMatch(/id/);
  });

  it('a batch: made by a user, moved on the floor, each move with from → to', async () => {
    const jobs = [await newJob({ productName: 'Card' }), await newJob({ productName: 'Card' })];
    const made = await post('/api/batches', w.tokens.userA, { jobIds: jobs });
    expect(made.status, JSON.stringify(made.body)).toBe(200);
    const batchId = made.body.data.id as number;
    await post(`/api/batches/${batchId}/state`, w.tokens.userA2, { state: 'printed' }).expect(200);
    const trail = (await get(`/api/history?kind=batch`, w.tokens.adminA)).body.data.list as Array<Entry & { subjectId: string }>;
    const mine = trail.filter((e) => e.subjectId === String(batchId)).reverse();
    expect(mine.map((e) => [e.action, e.from, e.to, e.actor.name])).toEqual([
      ['created', null, 'open', 'user-a Tester'],
      ['moved', 'open', 'printed', 'user-a2 Tester'],
    ]);
    // Marking the batch printed marked its jobs printed, each in its own history.
    expect((await jobHistory(jobs[0])).map((e) => e.action)).toEqual(['created', 'approved', 'downloaded', 'printed']);
  });

  it("the admin trail: newest first, paged, filtered by kind, site, actor and day; admins only", async () => {
    const all = await get('/api/history?pageSize=5', w.tokens.adminA);
    expect(all.status).toBe(200);
    expect(all.body.data.list).toHaveLength(5);
    expect(all.body.data.hasNext).toBe(true);
    const ats = (all.body.data.list as Entry[]).map((e) => e.at);
    expect([...ats].sort().reverse()).toEqual(ats);
    const byUser = (await get(`/api/history?actor=${w.users.userA2}`, w.tokens.adminA)).body.data.list as Entry[];
    expect(byUser.length).toBeGreaterThan(0);
    expect(byUser.every((e) => e.actor.id === w.users.userA2)).toBe(true);
    const byName = (await get('/api/history?actor=webhook orders/paid', w.tokens.adminA)).body.data.list as Entry[];
    expect(byName.map((e) => e.action)).toEqual(['paid']);
    const jobsOnly = (await get('/api/history?kind=order', w.tokens.adminA)).body.data.list as Array<Entry & { kind: string }>;
    expect(new Set(jobsOnly.map((e) => e.kind))).toEqual(new Set(['order']));
    expect((await get(`/api/history?siteId=${w.sites.b}`, w.tokens.adminA)).body.data.total).toBe(0);
    const today = w.clock.now().toISOString().slice(0, 10);
    expect((await get(`/api/history?from=${today}&to=${today}`, w.tokens.adminA)).body.data.total).toBe(all.body.data.total);
    expect((await get('/api/history?to=2000-01-01', w.tokens.adminA)).body.data.total).toBe(0);
    const bad = await get('/api/history?kind=invoice&from=2026-02-30', w.tokens.adminA);
    expect(bad.status).toBe(400);
    expect(JSON.stringify(bad.body)).toMatch(/kind/);
    expect((await get('/api/history', w.tokens.userA)).status).toBe(403);
  });
});
