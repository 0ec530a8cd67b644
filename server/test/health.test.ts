// GET /api/health (liveness) and GET /api/health/ready (readiness): each readiness check made to
// fail — a closed database, a pending or unknown migration, an unwritable files folder, a disk
// below READY_MIN_FREE_MB, a database that does not answer, a shutdown begun — and what the answer
// then says (the drain itself: shutdown.test.ts).
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import supertest from 'supertest';
import { afterAll, describe, expect, it } from 'vitest';
import type { Readiness } from '../../common/api/health';
import { createApp } from '../src/app';
import { loadConfig } from '../src/config';
import { createDb, migrate, type Db } from '../src/db';
import { createLogger } from '../src/lib/logger';
import { CHECK_TIMEOUT_MS, healthService } from '../src/modules/health/service';
import { createServices, fileStoreFor, filesFolderOf } from '../src/services';
import { createWorld, testClock } from './harness';

const dirs: string[] = [];
afterAll(() => dirs.forEach((d) => fs.rmSync(d, { recursive: true, force: true })));

/** An app of its own on a fresh SQLite database (in memory), which the test may break. */
async function ownApp(env: Record<string, string> = {}) {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'presswork-health-'));
  dirs.push(dataDir);
  const config = { ...loadConfig({ NODE_ENV: 'test', DATA_DIR: dataDir, JWT_SECRET: 'test-secret-that-is-long-enough-0123456789', LOG_LEVEL: 'silent', SEED_DEMO: '0', ...env }), database: { client: 'sqlite' as const, filename: ':memory:' } };
  const db = createDb(config.database);
  await migrate(db);
  const deps = { db, clock: testClock(), config, log: createLogger('silent') };
  const { app } = createApp(deps, createServices(deps, fileStoreFor(dataDir)));
  return { db, dataDir, request: () => supertest(app) };
}

const failing = (body: { data: Readiness }) => body.data.checks.filter((c) => !c.ok).map((c) => c.name);

describe('GET /api/health (liveness)', async () => {
  const w = await createWorld();

  it('answers ok, not cached, without a session', async () => {
    const res = await w.request().get('/api/health');
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ success: true, data: { status: 'ok' } });
    expect(res.headers['cache-control']).toBe('no-store');
  });

  it('makes no database call: it answers ok with the database closed', async () => {
    const own = await ownApp();
    await own.db.destroy();
    const res = await own.request().get('/api/health');
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ success: true, data: { status: 'ok' } });
  });
});

describe('GET /api/health/ready (readiness)', async () => {
  const w = await createWorld();

  it('ready: every check listed and passed, and no probe file left in the files folder', async () => {
    const res = await w.request().get('/api/health/ready');
    expect(res.status).toBe(200);
    expect(res.headers['cache-control']).toBe('no-store');
    expect(res.body).toEqual({
      success: true,
      data: {
        status: 'ready',
        checks: [
          { name: 'database', ok: true },
          { name: 'migrations', ok: true },
          { name: 'storage', ok: true },
          { name: 'disk', ok: true },
        ],
      },
    });
    const folder = filesFolderOf(w.dataDir);
    expect(fs.existsSync(folder) ? fs.readdirSync(folder).filter((f) => f.includes('ready-probe')) : []).toEqual([]);
  });

  it('a closed database → 503 in the error envelope naming database and migrations, the others still passing', async () => {
    const own = await ownApp();
    await own.db.destroy();
    const res = await own.request().get('/api/health/ready');
    expect(res.status).toBe(503);
    expect(res.body.success).toBe(false);
    expect(res.body.error).toBe('Not ready: database, migrations');
    expect(res.body.data.status).toBe('not-ready');
    expect(failing(res.body)).toEqual(['database', 'migrations']);
    const db = res.body.data.checks.find((c: { name: string }) => c.name === 'database');
    expect(db.reason).toMatch(/^the database did not answer/);
    expect(res.body.data.checks.filter((c: { ok: boolean }) => c.ok).map((c: { name: string }) => c.name)).toEqual(['storage', 'disk']);
  });

  it('a migration not applied → 503 naming it; applied again → ready', async () => {
    const own = await ownApp();
    const last = (await own.db('knex_migrations').orderBy('id', 'desc').first()) as { id: number; name: string; batch: number; migration_time: unknown };
    await own.db('knex_migrations').where({ id: last.id }).delete();
    const res = await own.request().get('/api/health/ready');
    expect(res.status).toBe(503);
    expect(failing(res.body)).toEqual(['migrations']);
    expect(res.body.data.checks[1].reason).toBe(`1 migration(s) not applied yet: ${last.name} (they run when the server starts)`);
    await own.db('knex_migrations').insert(last);
    expect((await own.request().get('/api/health/ready')).status).toBe(200);
  });

  it('a migration this version does not know (a newer version ran on the database) → 503 saying so', async () => {
    const own = await ownApp();
    await own.db('knex_migrations').insert({ name: '20991231_999_from_the_future', batch: 99, migration_time: new Date() });
    const res = await own.request().get('/api/health/ready');
    expect(res.status).toBe(503);
    expect(failing(res.body)).toEqual(['migrations']);
    expect(res.body.data.checks[1].reason).toMatch(/does not know: 20991231_999_from_the_future \(a newer version ran on it\)/);
  });

  it('a files folder that cannot be written → 503 naming storage, with the error code and no path', async () => {
    const own = await ownApp();
    // A plain file where the folder should be: nothing can be written under it (whoever runs the test, root included).
    const folder = filesFolderOf(own.dataDir);
    fs.rmSync(folder, { recursive: true, force: true });
    fs.writeFileSync(folder, 'not a folder');
    const res = await own.request().get('/api/health/ready');
    expect(res.status).toBe(503);
    expect(failing(res.body)).toEqual(['storage']);
    expect(res.body.data.checks[2].reason).toMatch(/^the files folder cannot be written \((ENOTDIR|EEXIST)\)$/);
    expect(res.text).not.toContain(own.dataDir);
    fs.rmSync(folder);
    expect((await own.request().get('/api/health/ready')).status).toBe(200);
  });

  it('less free disk than READY_MIN_FREE_MB → 503 naming disk and the setting', async () => {
    const own = await ownApp({ READY_MIN_FREE_MB: '10000000' });
    const res = await own.request().get('/api/health/ready');
    expect(res.status).toBe(503);
    expect(failing(res.body)).toEqual(['disk']);
    expect(res.body.data.checks[3].reason).toMatch(/^\d+ MB free on the files folder's disk, below READY_MIN_FREE_MB \(10000000 MB\)$/);
    expect(res.text).not.toContain(own.dataDir);
  });

  it(`a database that does not answer fails its checks after ${CHECK_TIMEOUT_MS / 1000} s instead of hanging the probe`, async () => {
    const own = await ownApp();
    const config = { ...w.config, ready: { minFreeMb: 0 } };
    // A database whose every call waits for ever (a lost connection, a lock).
    const hanging = new Proxy(own.db, { get: (t, p) => (p === 'raw' ? () => new Promise(() => {}) : p === 'migrate' ? { list: () => new Promise(() => {}) } : Reflect.get(t, p)) }) as Db;
    const health = healthService({ db: hanging, clock: testClock(), config, log: createLogger('silent') }, fileStoreFor(own.dataDir), filesFolderOf(own.dataDir));
    const started = Date.now();
    const readiness = await health.readiness();
    expect(Date.now() - started).toBeLessThan(CHECK_TIMEOUT_MS * 5);
    expect(readiness.status).toBe('not-ready');
    expect(readiness.checks.filter((c) => !c.ok)).toEqual([
      { name: 'database', ok: false, reason: `the database did not answer within ${CHECK_TIMEOUT_MS / 1000} s` },
      { name: 'migrations', ok: false, reason: `the database did not answer within ${CHECK_TIMEOUT_MS / 1000} s` },
    ]);
  });

  it('shutting down → 503 "Not ready: shutdown" at once, the other checks not run (the database may be closed already)', async () => {
    const own = await ownApp();
    const store = fileStoreFor(own.dataDir);
    let writes = 0;
    const counting = { ...store, put: (...args: Parameters<typeof store.put>) => (writes++, store.put(...args)) };
    let shuttingDown = false;
    const health = healthService({ db: own.db, clock: testClock(), config: { ...w.config, ready: { minFreeMb: 0 } }, log: createLogger('silent'), shuttingDown: () => shuttingDown }, counting, filesFolderOf(own.dataDir));
    expect((await health.readiness()).status).toBe('ready');
    expect(writes).toBe(1);
    shuttingDown = true;
    await own.db.destroy();
    expect(await health.readiness()).toEqual({ status: 'not-ready', checks: [{ name: 'shutdown', ok: false, reason: 'this instance is shutting down' }] });
    expect(writes).toBe(1);
  });

  it('probes arriving together share one run of the checks (one probe file written, not one each)', async () => {
    const own = await ownApp();
    const store = fileStoreFor(own.dataDir);
    let writes = 0;
    const counting = { ...store, put: (...args: Parameters<typeof store.put>) => (writes++, store.put(...args)) };
    const health = healthService({ db: own.db, clock: testClock(), config: { ...w.config, ready: { minFreeMb: 0 } }, log: createLogger('silent') }, counting, filesFolderOf(own.dataDir));
    const together = await Promise.all(Array.from({ length: 5 }, () => health.readiness()));
    expect(together.map((r) => r.status)).toEqual(['ready', 'ready', 'ready', 'ready', 'ready']);
    expect(writes).toBe(1);
    await health.readiness();
    expect(writes).toBe(2);
  });
});
