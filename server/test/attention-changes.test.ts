// Needs attention is kept between asks and told of changes: the ETag answers 304 while nothing
// changed, a write or the clock reaching a ship-by changes the answer at once, and a staff user's
// answer and ETag never move with another site's problems.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import knexFactory from 'knex';
import { describe, expect, it } from 'vitest';
import type { AttentionAnswer } from '../../common/api/attention';
import { changeMark, changesRows } from '../src/lib/dbChanges';
import { orderTablesRepo } from '../src/modules/orders/tablesRepo';
import { bearer, createWorld } from './harness';
import { makeDesign } from './ordersKit';

const ART = ['/files/art/p1.png', '/files/art/p2.png', '/files/art/p3.png', '/files/art/p4.png'];
// London on GMT. A card placed Monday 09:00 ships by Tuesday 14:00 (2 working days), at risk from 10:00.
const MON_0900 = '2026-03-02T09:00:00.000Z';
const TUE_0800 = '2026-03-03T08:00:00.000Z';

describe('Needs attention, kept and told of changes', async () => {
  const w = await createWorld({ SYNC_TIMEZONE: 'Europe/London' });
  const at = (iso: string) => w.clock.set(new Date(iso));
  const ask = (token = w.tokens.userA, etag?: string) => {
    const req = w.request().get('/api/attention').set(bearer(token));
    return etag ? req.set('If-None-Match', etag) : req;
  };
  const answer = async (token = w.tokens.userA) => {
    const res = await ask(token);
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    return { etag: res.headers.etag as string, data: res.body.data as AttentionAnswer };
  };

  const card = await makeDesign(w, w.tokens.adminA, { name: 'Robin card', sku: 'CH-CARD', productType: 'Card' });
  const cardB = await makeDesign(w, w.tokens.adminB, { name: 'Site B card', sku: 'CH-CARD', productType: 'Card' });
  const order = (siteId: number, orderId: string) => ({
    siteId,
    orderId,
    name: `#${orderId}`,
    status: 'received',
    searchText: `#${orderId}`,
    data: { id: orderId, name: `#${orderId}`, created_at: MON_0900, line_items: [{ id: `${orderId}-1`, sku: 'CH-CARD', quantity: 1 }] },
    createdAt: MON_0900,
    updatedAt: MON_0900,
  });
  await orderTablesRepo(w.db).insertOrders([order(w.sites.a, '7001'), order(w.sites.b, '6001')]);
  at(MON_0900);
  const job = async (orderId: string, designId: number, token: string) => {
    const res = await w.request().post('/api/print-jobs').set(bearer(token)).send({ productName: 'Robin card', designId, artworkUrls: ART, shopifyOrderId: orderId, lineItemId: `${orderId}-1` });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    return res.body.data.id as number;
  };
  const jobA = await job('7001', card.id, w.tokens.userA);
  const jobB = await job('6001', cardB.id, w.tokens.userB);
  await w.db('print_jobs').update({ held: false });

  it('answers 304 with no body to the ETag it gave while nothing changed, and is private to the tab', async () => {
    at(TUE_0800);
    const first = await answer();
    expect(first.etag).toMatch(/^"[\w-]+"$/);
    const again = await ask(w.tokens.userA, first.etag);
    expect(again.status).toBe(304);
    expect(again.text ?? '').toBe('');
    expect(again.headers['cache-control']).toBe('private, no-cache');
    // Another ETag, or none, gets the whole answer.
    expect((await ask(w.tokens.userA, '"something-else"')).status).toBe(200);
    expect((await answer()).etag).toBe(first.etag);
  });

  it('a kept answer costs no query of the floor until something changes', async () => {
    at(TUE_0800);
    const mark = await changeMark(w.db);
    await answer();
    const read: string[] = [];
    const onQuery = (q: { sql: string }) => read.push(q.sql);
    w.db.on('query', onQuery);
    try {
      await answer();
    } finally {
      w.db.off('query', onQuery);
    }
    const floor = read.filter((sql) => /store_orders|print_jobs|outbox|webhook_deliveries/.test(sql));
    // PostgreSQL's mark is the server's WAL position: another database written meanwhile (a parallel
    // test file) moves it, and then a recomputation is right. SQLite's is this database's alone.
    if ((await changeMark(w.db)) === mark) expect(floor).toEqual([]);
    else expect(w.config.database.client).toBe('pg');
  });

  it('a job held by preflight, then approved: each change answers at once with a new ETag', async () => {
    at(TUE_0800);
    const before = await answer();
    expect(before.data.counts.held).toBe(0);
    await w.db('print_jobs').where({ id: jobA }).update({ held: true, preflight_checked_at: TUE_0800 });
    const res = await ask(w.tokens.userA, before.etag);
    expect(res.status).toBe(200);
    expect((res.body.data as AttentionAnswer).counts.held).toBe(1);
    expect(res.headers.etag).not.toBe(before.etag);
    const approved = await w.request().post(`/api/print-jobs/${jobA}/approve`).set(bearer(w.tokens.userA)).set('Idempotency-Key', 'approve-held-a').send({});
    expect(approved.status, JSON.stringify(approved.body)).toBe(200);
    expect((await answer()).data.counts.held).toBe(0);
  });

  it('the clock alone makes an order at risk, then late, with no write in between', async () => {
    at(TUE_0800);
    const early = await answer();
    expect(early.data.counts).toMatchObject({ atRisk: 0, late: 0 });
    at('2026-03-03T10:01:00.000Z');
    const risky = await ask(w.tokens.userA, early.etag);
    expect(risky.status).toBe(200);
    expect((risky.body.data as AttentionAnswer).counts).toMatchObject({ atRisk: 1, late: 0 });
    at('2026-03-03T14:01:00.000Z');
    expect((await answer()).data.counts).toMatchObject({ atRisk: 0, late: 1 });
    at(TUE_0800);
  });

  it("another site's problems never move a staff user's answer or ETag; they do move the admin's", async () => {
    at(TUE_0800);
    const a = await answer(w.tokens.userA);
    const b = await answer(w.tokens.userB);
    const admin = await answer(w.tokens.adminA);
    await w.db('print_jobs').where({ id: jobB }).update({ held: true, preflight_checked_at: TUE_0800 });
    const aAfter = await ask(w.tokens.userA, a.etag);
    expect(aAfter.status, JSON.stringify([a.data, aAfter.body.data])).toBe(304);
    const bAfter = await ask(w.tokens.userB, b.etag);
    expect(bAfter.status).toBe(200);
    expect((bAfter.body.data as AttentionAnswer).counts.held).toBe(1);
    const adminAfter = await ask(w.tokens.adminA, admin.etag);
    expect(adminAfter.status).toBe(200);
    expect((adminAfter.body.data as AttentionAnswer).items.find((i) => i.kind === 'held')).toMatchObject({ jobId: jobB, siteName: 'Site B' });
    // Site B's ETag sent by site A's user answers A's own list, never 304 on B's.
    const crossed = await ask(w.tokens.userA, bAfter.headers.etag as string);
    expect(crossed.status).toBe(200);
    expect((crossed.body.data as AttentionAnswer).counts.held).toBe(0);
    await w.db('print_jobs').where({ id: jobB }).update({ held: false });
  });
});

describe('change marks', () => {
  it('reads leave the mark; a write, even from another connection, moves it; sign-in bookkeeping does not', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'presswork-marks-'));
    const open = () => knexFactory({ client: 'better-sqlite3', connection: { filename: path.join(dir, 'db.sqlite') }, useNullAsDefault: true });
    const ours = open();
    const theirs = open();
    try {
      await ours.raw('create table floor (id integer primary key, status text)');
      await ours.raw('create table sign_in_failures (id integer primary key)');
      const m0 = await changeMark(ours);
      await ours('floor').select('*');
      expect(await changeMark(ours)).toBe(m0);
      await ours('sign_in_failures').insert({ id: 1 });
      expect(await changeMark(ours)).toBe(m0);
      await ours('floor').insert({ id: 1, status: 'held' });
      const m1 = await changeMark(ours);
      expect(m1).not.toBe(m0);
      await theirs('floor').where({ id: 1 }).update({ status: 'ready' });
      expect(await changeMark(ours)).not.toBe(m1);
    } finally {
      await ours.destroy();
      await theirs.destroy();
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });

  it('statements that may change rows', () => {
    expect(changesRows('select * from print_jobs')).toBe(false);
    expect(changesRows('update "print_jobs" set held = true')).toBe(true);
    expect(changesRows('insert or ignore into `outbox` (a) values (?)')).toBe(true);
    expect(changesRows('with x as (select 1) update print_jobs set held = 1')).toBe(true);
    expect(changesRows('COMMIT;')).toBe(true);
    expect(changesRows('insert into "idempotency_keys" (k) values (?)')).toBe(false);
  });
});
