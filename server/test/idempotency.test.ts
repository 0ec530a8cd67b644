// Idempotency-Key: a double click (the same user action sent twice) creates one thing and the
// second answer equals the first; a key is the user's own, kept for a day, and bound to its request.
import supertest from 'supertest';
import { afterAll, describe, expect, it } from 'vitest';
import { createApp } from '../src/app';
import { createDb, isPostgres } from '../src/db';
import { createLogger } from '../src/lib/logger';
import { ABANDONED_AFTER_MS, IDEMPOTENCY_TTL_MS, STILL_RUNNING_MESSAGE } from '../src/http/idempotency';
import { idempotencyRepo } from '../src/modules/idempotency/repo';
import { bearer } from './harness';
import { createHpWorld } from './fulfilmentWorld';

const w = await createHpWorld();
let seq = 0;
const key = () => `key-${Date.now()}-${++seq}`;

const job = (name: string) => ({ productName: name, quantity: 1 });
const postJob = (token: string, k: string | undefined, body: object) => {
  const req = w.request().post('/api/print-jobs').set(bearer(token));
  if (k !== undefined) req.set('Idempotency-Key', k);
  return req.send(body);
};
const jobsNamed = (name: string) => w.db('print_jobs').where({ product_name: name });

describe('the three double clicks', () => {
  it('Add to print jobs twice with one key: one job, the second answer is the first', async () => {
    const k = key();
    const first = await postJob(w.tokens.userA, k, job('Double click card'));
    const second = await postJob(w.tokens.userA, k, job('Double click card'));
    expect(first.status).toBe(200);
    expect(second.status).toBe(200);
    expect(second.body).toEqual(first.body);
    expect(second.headers['idempotent-replayed']).toBe('true');
    expect(await jobsNamed('Double click card')).toHaveLength(1);
    // Without a key (or with a new one) each call is its own action, as before.
    await postJob(w.tokens.userA, key(), job('Double click card'));
    await postJob(w.tokens.userA, undefined, job('Double click card'));
    expect(await jobsNamed('Double click card')).toHaveLength(3);
  });

  it('Save twice on a new design: one design', async () => {
    const k = key();
    const save = () => w.request().post('/api/designs').set(bearer(w.tokens.userA)).set('Idempotency-Key', k).send({ name: 'Saved twice' });
    const first = await save();
    const second = await save();
    expect(first.status).toBe(200);
    expect(second.body).toEqual(first.body);
    expect(await w.db('designs').where({ name: 'Saved twice' })).toHaveLength(1);
  });

  it('Send twice on Send HP Manually: sent once, the second answer is the first success', async () => {
    const form = {
      orderData: { sourceOrderId: 'idem-manual-1', customerName: 'Grace Hopper' },
      items: [{ sku: 'HP-MANUAL', quantity: '1', pdfUrl: 'https://files.example.com/manual.pdf', sourceItemId: 'item-1' }],
      shipTo: { name: 'Grace Hopper', address1: '1 Navy Way', address2: '', town: 'Arlington', isoCountry: 'gb', postcode: 'AR1 1NG' },
    };
    const k = key();
    const send = () => w.request().post('/api/online-stores/manually-send-hp').set(bearer(w.tokens.userA)).set('Idempotency-Key', k).send(form);
    const first = await send();
    const second = await send();
    expect(first.body.success).toBe(true);
    expect(second.status).toBe(first.status);
    expect(second.body).toEqual(first.body);
    expect(second.body.error).toBeUndefined();
    expect(await w.db('provider_sends').where({ store_order_id: 'idem-manual-1' })).toHaveLength(1);
  });
});

describe('a key is bound to its request, its user and a day', () => {
  it('the same key with another body or path is refused with 422, nothing created', async () => {
    const k = key();
    await postJob(w.tokens.userA, k, job('Mismatch A'));
    const other = await postJob(w.tokens.userA, k, job('Mismatch B'));
    expect(other.status).toBe(422);
    expect(other.body.error).toMatch(/already used for another request \(POST \/api\/print-jobs/);
    const otherPath = await w.request().post('/api/designs').set(bearer(w.tokens.userA)).set('Idempotency-Key', k).send({ name: 'Mismatch A' });
    expect(otherPath.status).toBe(422);
    expect(await jobsNamed('Mismatch B')).toHaveLength(0);
    expect(await w.db('designs').where({ name: 'Mismatch A' })).toHaveLength(0);
  });

  it('the same body in another key order is the same request', async () => {
    const k = key();
    const first = await postJob(w.tokens.userA, k, { productName: 'Order of keys', quantity: 2 });
    const second = await postJob(w.tokens.userA, k, { quantity: 2, productName: 'Order of keys' });
    expect(second.body).toEqual(first.body);
    expect(await jobsNamed('Order of keys')).toHaveLength(1);
  });

  it('concurrent requests with one key run the action once', async () => {
    const k = key();
    const answers = await Promise.all(Array.from({ length: 5 }, () => postJob(w.tokens.userA, k, job('Concurrent'))));
    expect(await jobsNamed('Concurrent')).toHaveLength(1);
    for (const a of answers) {
      // Each either waited for the first answer or was told the action is still running: never a second job.
      if (a.status === 409) expect(a.body.error).toBe(STILL_RUNNING_MESSAGE);
      else expect(a.body).toEqual(answers.find((x) => x.status === 200)!.body);
    }
  });

  it('two app instances on one database, one key at once: one job', async () => {
    // On PostgreSQL the second instance has its own connection pool, as another process would.
    const db2 = isPostgres(w.db) ? createDb(w.config.database) : w.db;
    afterAll(async () => {
      if (db2 !== w.db) await db2.destroy();
    });
    const second = createApp({ db: db2, clock: w.clock, config: w.config, log: createLogger('silent') }).app;
    const k = key();
    const send = (app: typeof second) => supertest(app).post('/api/print-jobs').set(bearer(w.tokens.userA)).set('Idempotency-Key', k).send(job('Two instances'));
    const answers = await Promise.all([send(w.app), send(second), send(w.app), send(second)]);
    expect(await jobsNamed('Two instances')).toHaveLength(1);
    const created = answers.find((a) => a.status === 200)!;
    for (const a of answers) {
      if (a.status === 409) expect(a.body.error).toBe(STILL_RUNNING_MESSAGE);
      else expect(a.body).toEqual(created.body);
    }
  });

  it('a key whose first request still runs answers 409 (the database row is the lock, as between two instances)', async () => {
    const k = key();
    const request = { method: 'POST', path: '/api/print-jobs', bodyHash: (await import('../src/http/idempotency')).bodyHashOf(job('Running elsewhere')) };
    // Another instance claimed the key a moment ago and has not answered yet.
    expect(await idempotencyRepo(w.db).claim(w.users.userA, k, request, w.clock.now().toISOString())).toBeTypeOf('number');
    const res = await postJob(w.tokens.userA, k, job('Running elsewhere'));
    expect(res.status).toBe(409);
    expect(res.body.error).toBe(STILL_RUNNING_MESSAGE);
    expect(res.headers['retry-after']).toBe('1');
    expect(await jobsNamed('Running elsewhere')).toHaveLength(0);
    // That instance died: after a while the key may be taken again.
    w.clock.advance(ABANDONED_AFTER_MS);
    expect((await postJob(w.tokens.userA, k, job('Running elsewhere'))).status).toBe(200);
    expect(await jobsNamed('Running elsewhere')).toHaveLength(1);
  }, 15_000);

  it('after a day the key is forgotten: the same key runs the action again', async () => {
    // The world's clock starts a day earlier (sessions are checked against it, so it ends at today).
    const today = new Date();
    const k = key();
    w.clock.set(new Date(today.getTime() - IDEMPOTENCY_TTL_MS));
    await postJob(w.tokens.userA, k, job('Next day'));
    w.clock.advance(IDEMPOTENCY_TTL_MS - 60_000);
    await postJob(w.tokens.userA, k, job('Next day'));
    expect(await jobsNamed('Next day')).toHaveLength(1);
    w.clock.set(today);
    const later = await postJob(w.tokens.userA, k, job('Next day'));
    expect(later.status).toBe(200);
    expect(later.headers['idempotent-replayed']).toBeUndefined();
    expect(await jobsNamed('Next day')).toHaveLength(2);
  });

  it('expired keys are cleaned away lazily, by a later request', async () => {
    const today = new Date();
    const k = key();
    w.clock.set(new Date(today.getTime() - 2 * IDEMPOTENCY_TTL_MS));
    await postJob(w.tokens.userA, k, job('Cleaned'));
    // Cleaning runs at most every few minutes per process.
    w.clock.set(new Date(today.getTime() + 60 * 60_000));
    await postJob(w.tokens.userA, key(), job('Cleaner'));
    expect(await w.db('idempotency_keys').where({ key: k })).toHaveLength(0);
  });

  it("another user's same key is independent", async () => {
    const k = key();
    const a = await postJob(w.tokens.userA, k, job('Two users'));
    const a2 = await postJob(w.tokens.userA2, k, job('Two users'));
    expect(a2.body.data.id).not.toBe(a.body.data.id);
    expect(await jobsNamed('Two users')).toHaveLength(2);
  });

  it('4xx answers are kept; a bad key is a clear 400', async () => {
    const k = key();
    const bad = await postJob(w.tokens.userA, k, { quantity: 0 });
    expect(bad.status).toBe(400);
    const again = await postJob(w.tokens.userA, k, { quantity: 0 });
    expect(again.status).toBe(400);
    expect(again.body).toEqual(bad.body);
    expect(again.headers['idempotent-replayed']).toBe('true');
    const badKey = await postJob(w.tokens.userA, 'has spaces in it', job('Bad key'));
    expect(badKey.status).toBe(400);
    expect(badKey.body.error).toMatch(/Idempotency-Key/);
    expect(await jobsNamed('Bad key')).toHaveLength(0);
  });

  it('admin REST create (sites) honours the key', async () => {
    const k = key();
    const create = () => w.request().post('/api/admin/sites').set(bearer(w.tokens.adminA)).set('Idempotency-Key', k).send({ name: 'Idem Site', slug: 'idem-site' });
    const first = await create();
    const second = await create();
    expect(first.status).toBe(201);
    expect(second.status).toBe(201);
    expect(second.body).toEqual(first.body);
    expect(await w.db('sites').where({ slug: 'idem-site' })).toHaveLength(1);
  });
});
