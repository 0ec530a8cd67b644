// Disk full and database locked: while the fault lasts, a write answers a clear error in the
// envelope (507 storage full, 503 busy: never a 2xx for something not stored, never a stack trace),
// the store's webhook deliveries get non-2xx answers and retry, and once the fault is lifted the
// retries land and everything acknowledged before is still there.
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import zlib from 'node:zlib';
import knexFactory from 'knex';
import { afterEach, describe, expect, it } from 'vitest';
import { appProcess as startable, freshPostgres, type AppProcess } from './lib/appProcess';
import { expectStormStored, openAppDb, waitUntilProcessed } from './lib/inspect';
import { createStoreSite, deliverAll, mergePlans, planStorm, signIn, sleep, webhookUrl, type DeliveryOutcome, type StoreSite } from './lib/store';

const seed = Number(process.env.FAULTS_SEED ?? Math.floor(Math.random() * 2 ** 31));
const cleanups: Array<() => Promise<void> | void> = [];
const started: AppProcess[] = [];
const appProcess = (...args: Parameters<typeof startable>) => {
  const a = startable(...args);
  started.push(a);
  return a;
};
afterEach(async (ctx) => {
  // A failure shows what the apps logged (the errors they met).
  if (ctx.task.result?.state === 'fail') for (const a of started) console.log(`--- app log (${a.baseUrl}) ---\n${a.log().slice(-6000)}`);
  started.length = 0;
  while (cleanups.length) await Promise.resolve(cleanups.pop()!()).catch(() => {});
});

interface Answer {
  status: number;
  body: unknown;
  headers: Headers;
}

async function call(baseUrl: string, token: string, method: string, p: string, body?: unknown): Promise<Answer> {
  const res = await fetch(`${baseUrl}${p}`, {
    method,
    headers: { Authorization: `Bearer ${token}`, ...(body === undefined ? {} : { 'Content-Type': 'application/json' }) },
    body: body === undefined ? undefined : JSON.stringify(body),
    signal: AbortSignal.timeout(30_000),
  });
  const text = await res.text();
  let parsed: unknown = text;
  try {
    parsed = JSON.parse(text);
  } catch {
    /* text */
  }
  return { status: res.status, body: parsed, headers: res.headers };
}

/** The spec's envelope error: success false, a message for people, no stack trace or driver text. */
function expectEnvelopeError(a: { status: number; body: unknown }, status: number, message: RegExp) {
  expect(a.status, JSON.stringify(a.body)).toBe(status);
  const b = a.body as { success?: unknown; error?: unknown };
  expect(b.success).toBe(false);
  expect(String(b.error)).toMatch(message);
  expect(JSON.stringify(a.body)).not.toMatch(/\bat .+:\d+:\d+|SQLITE_|node_modules|ENOSPC|insert into/i);
}

/** A real PNG (RGB noise, so it does not compress: about width × height × 3 bytes). */
function noisePng(width: number, height: number): Buffer {
  const crcTable = Array.from({ length: 256 }, (_, n) => {
    let c = n;
    for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
    return c >>> 0;
  });
  const crc = (b: Buffer) => {
    let c = 0xffffffff;
    for (const x of b) c = crcTable[(c ^ x) & 0xff] ^ (c >>> 8);
    return (c ^ 0xffffffff) >>> 0;
  };
  const chunk = (type: string, data: Buffer) => {
    const len = Buffer.alloc(4);
    len.writeUInt32BE(data.length);
    const td = Buffer.concat([Buffer.from(type, 'latin1'), data]);
    const c = Buffer.alloc(4);
    c.writeUInt32BE(crc(td));
    return Buffer.concat([len, td, c]);
  };
  const ihdr = Buffer.alloc(13);
  ihdr.writeUInt32BE(width, 0);
  ihdr.writeUInt32BE(height, 4);
  ihdr.set([8, 2, 0, 0, 0], 8);
  const raw = Buffer.alloc((width * 3 + 1) * height);
  let x = 12345;
  for (let i = 0; i < raw.length; i++) {
    x = (x * 1103515245 + 12345) >>> 0;
    raw[i] = i % (width * 3 + 1) === 0 ? 0 : x >>> 24;
  }
  return Buffer.concat([Buffer.from('89504e470d0a1a0a', 'hex'), chunk('IHDR', ihdr), chunk('IDAT', zlib.deflateSync(raw)), chunk('IEND', Buffer.alloc(0))]);
}

const note = (label: string, bytes = 0) => ({ name: label, field1: label, data: { label, blob: 'n'.repeat(bytes) } });

/** The app and a store site, plus `before` orders delivered, processed, and a note written: what must survive the fault. */
async function world(app: AppProcess, slug: string, databaseUrl?: string) {
  await app.start();
  const token = await signIn(app.baseUrl);
  const site = await createStoreSite(app.baseUrl, token, slug);
  const before = planStorm({ orders: 15, seed, maxUpdates: 1, duplicateRate: 0.2 });
  const first = await deliverAll(before.deliveries, { url: () => webhookUrl(app.baseUrl, site), site, concurrency: 4 });
  const noted = await call(app.baseUrl, token, 'POST', '/api/general-data/faults-note', note('before'));
  expect(noted.status).toBe(200);
  const db = openAppDb(app, databaseUrl);
  cleanups.push(() => db.destroy());
  await waitUntilProcessed(db);
  return { token, site, before, beforeOutcomes: first.outcomes, db, noteId: (noted.body as { data: { id: number } }).data.id };
}

/** Delivers `plan` in the background; counts answers by status and keeps the bodies of the non-2xx ones. */
function backgroundStorm(urls: () => string, site: StoreSite, plan: ReturnType<typeof planStorm>) {
  const answers = { ok: 0, byStatus: {} as Record<number, number>, errors: [] as Array<{ status: number; body: unknown }> };
  const done = deliverAll(plan.deliveries, {
    url: urls,
    site,
    concurrency: 8,
    onAnswer: (status, body) => {
      answers.byStatus[status] = (answers.byStatus[status] ?? 0) + 1;
      if (status >= 200 && status < 300) answers.ok++;
      else if (answers.errors.length < 50) answers.errors.push({ status, body });
    },
  });
  return { answers, done };
}

async function waitFor(what: string, cond: () => boolean | Promise<boolean>, timeoutMs = 60_000, state?: () => unknown) {
  const deadline = Date.now() + timeoutMs;
  while (!(await cond())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}${state ? `: ${JSON.stringify(state())}` : ''}`);
    await sleep(100);
  }
}

async function expectAllThere(o: { db: knexFactory.Knex; app: AppProcess; token: string; site: StoreSite; noteId: number; plan: ReturnType<typeof planStorm>; outcomes: DeliveryOutcome[] }) {
  await waitUntilProcessed(o.db);
  await expectStormStored({ db: o.db, baseUrl: o.app.baseUrl, token: o.token, siteId: o.site.siteId, plan: o.plan, outcomes: o.outcomes });
  const n = await call(o.app.baseUrl, o.token, 'GET', `/api/general-data/faults-note/${o.noteId}`);
  expect(n.status).toBe(200);
  expect((n.body as { data: { data: { label: string } } }).data.data.label).toBe('before');
}

describe('disk full', () => {
  it('SQLite capped at its current size (max_page_count): 507 for writes, webhooks retried, nothing acknowledged lost', async () => {
    console.log(`[disk full, page cap] seed ${seed}`);
    const app = appProcess();
    cleanups.push(() => app.stop());
    const w = await world(app, 'full-cap');
    // Stop, compact the file, and restart capped at exactly its size: any write needing a new page fails.
    await app.stop();
    await w.db.destroy();
    const file = path.join(app.dataDir, 'presswork.sqlite');
    const direct = knexFactory({ client: 'better-sqlite3', connection: { filename: file }, useNullAsDefault: true });
    await direct.raw('vacuum');
    const [{ page_count: pages }] = (await direct.raw('pragma page_count')) as Array<{ page_count: number }>;
    await direct.destroy();
    const capped = appProcess({ SQLITE_MAX_PAGE_COUNT: String(pages) }, { dataDir: app.dataDir, port: app.port });
    cleanups.push(() => capped.stop());
    await capped.start();

    // An API write that needs room: 507 in the envelope, and nothing half-stored.
    const big = await call(capped.baseUrl, w.token, 'POST', '/api/general-data/faults-note', note('during', 200_000));
    expectEnvelopeError(big, 507, /storage is full/i);
    // The store's deliveries (each needing room) get non-2xx answers and keep retrying.
    const during = planStorm({ orders: 25, seed: seed + 7, maxUpdates: 2, padBytes: 40_000 });
    const storm = backgroundStorm(() => webhookUrl(capped.baseUrl, w.site), w.site, during);
    await waitFor('deliveries refused with 507', () => (storm.answers.byStatus[507] ?? 0) >= 20);
    for (const e of storm.answers.errors) expectEnvelopeError(e, 507, /storage is full/i);
    // Reads go on: the orders acknowledged before are listed.
    const list = await call(capped.baseUrl, w.token, 'GET', `/api/general-data/shopify-order-log?siteId=${w.site.siteId}&pageSize=100`);
    expect(list.status).toBe(200);
    expect((list.body as { data: { data: unknown[] } }).data.data.length).toBe(w.before.latest.size);

    // Lift the fault (room again): the retries land.
    await capped.stop();
    const healed = appProcess({}, { dataDir: app.dataDir, port: app.port });
    cleanups.push(() => healed.stop());
    await healed.start();
    const { outcomes } = await storm.done;
    console.log(`[disk full, page cap] answers during the storm: ${JSON.stringify(storm.answers.byStatus)}`);
    const again = await call(healed.baseUrl, w.token, 'POST', '/api/general-data/faults-note', note('after', 200_000));
    expect(again.status).toBe(200);
    const db = openAppDb(healed);
    cleanups.push(() => db.destroy());
    await expectAllThere({ db, app: healed, token: w.token, site: w.site, noteId: w.noteId, plan: mergePlans(w.before, during), outcomes: [...w.beforeOutcomes, ...outcomes] });
  });

  it('a real full filesystem (tmpfs) under the database and the uploads: 507, then the retries land once room is made, no restart', async (ctx) => {
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'presswork-faults-tmpfs-'));
    try {
      execFileSync('mount', ['-t', 'tmpfs', '-o', 'size=48m', 'tmpfs', dataDir], { stdio: 'ignore' });
    } catch {
      fs.rmSync(dataDir, { recursive: true, force: true });
      console.log('[disk full, tmpfs] skipped: mounting a tmpfs needs root (CAP_SYS_ADMIN); the page-cap test above covers SQLITE_FULL');
      ctx.skip();
      return;
    }
    cleanups.push(() => fs.rmSync(dataDir, { recursive: true, force: true }));
    cleanups.push(() => void execFileSync('umount', ['-l', dataDir]));
    console.log(`[disk full, tmpfs] seed ${seed}`);
    const app = appProcess({}, { dataDir });
    cleanups.push(() => app.stop());
    const w = await world(app, 'full-tmpfs');
    // An upload link, granted while there is room.
    const grant = await call(app.baseUrl, w.token, 'POST', '/api/users/me/get-upload-url', { serverSidePath: 'logos/full.png', contentType: 'image/png' });
    expect(grant.status).toBe(200);
    const uploadUrl = (grant.body as { data: string }).data;
    const png = noisePng(512, 512);

    // Fill the disk to the last byte.
    const ballast = path.join(dataDir, 'ballast');
    const fd = fs.openSync(ballast, 'w');
    const chunk = Buffer.alloc(1024 * 1024, 1);
    try {
      for (;;) fs.writeSync(fd, chunk);
    } catch (err) {
      expect((err as NodeJS.ErrnoException).code).toBe('ENOSPC');
    }
    try {
      for (;;) fs.writeSync(fd, chunk, 0, 512);
    } catch {
      /* full to the byte */
    }
    fs.closeSync(fd);

    const up = await fetch(uploadUrl, { method: 'PUT', headers: { 'Content-Type': 'image/png' }, body: new Uint8Array(png) });
    expectEnvelopeError({ status: up.status, body: await up.json() }, 507, /storage is full/i);
    const big = await call(app.baseUrl, w.token, 'POST', '/api/general-data/faults-note', note('during', 300_000));
    expectEnvelopeError(big, 507, /storage is full/i);
    const during = planStorm({ orders: 25, seed: seed + 11, maxUpdates: 2, padBytes: 40_000 });
    const storm = backgroundStorm(() => webhookUrl(app.baseUrl, w.site), w.site, during);
    await waitFor('deliveries refused with 507', () => (storm.answers.byStatus[507] ?? 0) >= 20);
    for (const e of storm.answers.errors) expectEnvelopeError(e, 507, /storage is full/i);

    // Make room, without restarting anything: the retries land, the upload link works.
    fs.rmSync(ballast);
    const { outcomes } = await storm.done;
    console.log(`[disk full, tmpfs] answers during the storm: ${JSON.stringify(storm.answers.byStatus)}`);
    const up2 = await fetch(uploadUrl, { method: 'PUT', headers: { 'Content-Type': 'image/png' }, body: new Uint8Array(png) });
    expect(up2.status).toBe(200);
    const fileUrl = ((await up2.json()) as { data: { url: string } }).data.url;
    const file = await fetch(`${app.baseUrl}${fileUrl}`);
    expect(Buffer.from(await file.arrayBuffer()).equals(png)).toBe(true);
    await expectAllThere({ db: w.db, app, token: w.token, site: w.site, noteId: w.noteId, plan: mergePlans(w.before, during), outcomes: [...w.beforeOutcomes, ...outcomes] });
  });
});

describe('database locked', () => {
  it('SQLite: another connection holds BEGIN EXCLUSIVE: 503 after the (short) busy timeout, the app stays responsive, retries land after COMMIT', async () => {
    console.log(`[locked, sqlite] seed ${seed}`);
    const app = appProcess();
    cleanups.push(() => app.stop());
    const w = await world(app, 'locked-sqlite');
    const holder = knexFactory({ client: 'better-sqlite3', connection: { filename: path.join(app.dataDir, 'presswork.sqlite') }, useNullAsDefault: true, pool: { min: 1, max: 1 } });
    cleanups.push(() => holder.destroy());
    await holder.raw('begin exclusive');
    let held = true;
    cleanups.push(async () => {
      if (held) await holder.raw('rollback');
    });

    const write = await call(app.baseUrl, w.token, 'POST', '/api/general-data/faults-note', note('during'));
    expectEnvelopeError(write, 503, /busy/i);
    expect(Number(write.headers.get('retry-after'))).toBeGreaterThan(0);
    const during = planStorm({ orders: 20, seed: seed + 13, maxUpdates: 2 });
    const storm = backgroundStorm(() => webhookUrl(app.baseUrl, w.site), w.site, during);
    await waitFor('deliveries refused with 503', () => (storm.answers.byStatus[503] ?? 0) >= 5, 60_000, () => storm.answers);
    for (const e of storm.answers.errors) expectEnvelopeError(e, 503, /busy/i);
    expect(storm.answers.ok, 'no delivery acknowledged while nothing can be written').toBe(0);
    // Readers are not blocked (WAL).
    const list = await call(app.baseUrl, w.token, 'GET', `/api/general-data/shopify-order-log?siteId=${w.site.siteId}&pageSize=100`);
    expect(list.status).toBe(200);

    await holder.raw('commit');
    held = false;
    const { outcomes } = await storm.done;
    console.log(`[locked, sqlite] answers during the storm: ${JSON.stringify(storm.answers.byStatus)}`);
    await expectAllThere({ db: w.db, app, token: w.token, site: w.site, noteId: w.noteId, plan: mergePlans(w.before, during), outcomes: [...w.beforeOutcomes, ...outcomes] });
  });

  it('PostgreSQL: another session holds LOCK TABLE … ACCESS EXCLUSIVE: 503 after lock_timeout (no hang), retries land after COMMIT', async () => {
    console.log(`[locked, pg] seed ${seed}`);
    const pg = await freshPostgres();
    cleanups.push(pg.drop);
    const app = appProcess({ DATABASE_URL: pg.url, DB_LOCK_TIMEOUT_MS: '1000' });
    cleanups.push(() => app.stop());
    const w = await world(app, 'locked-pg', pg.url);
    const holder = knexFactory({ client: 'pg', connection: pg.url, pool: { min: 1, max: 1 } });
    cleanups.push(() => holder.destroy());
    const trx = await holder.transaction();
    await trx.raw('lock table webhook_deliveries, general_data, store_orders in access exclusive mode');
    let held = true;
    cleanups.push(async () => {
      if (held) await trx.rollback();
    });

    const write = await call(app.baseUrl, w.token, 'POST', '/api/general-data/faults-note', note('during'));
    expectEnvelopeError(write, 503, /busy/i);
    expect(Number(write.headers.get('retry-after'))).toBeGreaterThan(0);
    const during = planStorm({ orders: 20, seed: seed + 17, maxUpdates: 2 });
    const storm = backgroundStorm(() => webhookUrl(app.baseUrl, w.site), w.site, during);
    await waitFor('deliveries refused with 503', () => (storm.answers.byStatus[503] ?? 0) >= 20);
    for (const e of storm.answers.errors) expectEnvelopeError(e, 503, /busy/i);
    expect(storm.answers.ok, 'no delivery acknowledged while nothing can be written').toBe(0);
    // Calls that do not touch the locked tables still answer (the pool was not eaten by waiting requests).
    const me = await call(app.baseUrl, w.token, 'GET', '/api/users/me');
    expect(me.status).toBe(200);

    await trx.commit();
    held = false;
    const { outcomes } = await storm.done;
    console.log(`[locked, pg] answers during the storm: ${JSON.stringify(storm.answers.byStatus)}`);
    await expectAllThere({ db: w.db, app, token: w.token, site: w.site, noteId: w.noteId, plan: mergePlans(w.before, during), outcomes: [...w.beforeOutcomes, ...outcomes] });
  });
});
