// The sign-in throttle keeps its failures in the database: the rule (per email, per address at four
// times as many) against a real database, two instances sharing one count, a restart keeping it,
// a spray of addresses not resetting an account's count, and expired failures pruned.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import Database from 'better-sqlite3';
import supertest from 'supertest';
import { afterAll, beforeEach, describe, expect, it } from 'vitest';
import { createApp } from '../src/app';
import type { Config } from '../src/config';
import { createDb, isPostgres, migrate, type Db } from '../src/db';
import { createLogger } from '../src/lib/logger';
import { PRUNE_BATCH } from '../src/modules/auth/repo';
import { signInThrottle } from '../src/modules/auth/throttle';
import { PASSWORD, createWorld } from './harness';
import { createPgDatabase } from './infra';

const log = createLogger('silent');
const settings = { maxFailures: 3, windowSeconds: 60 };
const t0 = 1_700_000_000_000;

describe('sign-in throttle', async () => {
  const w = await createWorld();
  const throttle = signInThrottle(w.db, settings, log);
  const failuresStored = async () => Number((await w.db('sign_in_failures').count({ n: '*' }))[0].n);
  beforeEach(async () => {
    await w.db('sign_in_failures').del();
  });

  describe('the rule, against the database', () => {
    it('lets attempts through until maxFailures failures, then asks to wait until the oldest one leaves the window', async () => {
      expect(await throttle.retryAfter('a@x', 'ip1', t0)).toBe(0);
      await throttle.recordFailure('a@x', 'ip1', t0);
      await throttle.recordFailure('a@x', 'ip1', t0 + 10_000);
      expect(await throttle.retryAfter('a@x', 'ip1', t0 + 10_000)).toBe(0);
      await throttle.recordFailure('a@x', 'ip1', t0 + 20_000);
      expect(await throttle.retryAfter('a@x', 'ip1', t0 + 20_000)).toBe(40);
      expect(await throttle.retryAfter('a@x', 'ip1', t0 + 59_500)).toBe(1);
      expect(await throttle.retryAfter('a@x', 'ip1', t0 + 60_001)).toBe(0);
    });

    it('counts per email; another email from another address is not affected', async () => {
      for (let i = 0; i < 3; i++) await throttle.recordFailure('a@x', 'ip1', t0 + i);
      expect(await throttle.retryAfter('a@x', 'ip2', t0 + 10)).toBeGreaterThan(0);
      expect(await throttle.retryAfter('b@x', 'ip2', t0 + 10)).toBe(0);
    });

    it('counts per address, at four times the per-email limit', async () => {
      for (let i = 0; i < 11; i++) await throttle.recordFailure(`u${i}@x`, 'ip1', t0 + i);
      expect(await throttle.retryAfter('new@x', 'ip1', t0 + 20)).toBe(0);
      await throttle.recordFailure('u11@x', 'ip1', t0 + 11);
      expect(await throttle.retryAfter('new@x', 'ip1', t0 + 20)).toBeGreaterThan(0);
      expect(await throttle.retryAfter('new@x', 'ip2', t0 + 20)).toBe(0);
    });

    it('a success clears the email count, not the address count', async () => {
      await throttle.recordFailure('a@x', 'ip1', t0);
      await throttle.recordFailure('a@x', 'ip1', t0 + 1);
      await throttle.recordSuccess('a@x');
      await throttle.recordFailure('a@x', 'ip1', t0 + 2);
      await throttle.recordFailure('a@x', 'ip1', t0 + 3);
      expect(await throttle.retryAfter('a@x', 'ip9', t0 + 4)).toBe(0);
      // The address still counts all four failures.
      for (let i = 0; i < 8; i++) await throttle.recordFailure(`other${i}@x`, 'ip1', t0 + 10 + i);
      expect(await throttle.retryAfter('new@x', 'ip1', t0 + 20)).toBeGreaterThan(0);
    });

    it('keeps neither the email nor the address in clear, whatever its length', async () => {
      const typed = `${'x'.repeat(5000)}@example.com`;
      await throttle.recordFailure(typed, '2001:db8::1', t0);
      const rows = (await w.db('sign_in_failures').select('kind', 'subject')) as Array<{ kind: string; subject: string }>;
      expect(rows.map((r) => r.kind).sort()).toEqual(['address', 'email']);
      for (const r of rows) expect(r.subject).toMatch(/^[0-9a-f]{64}$/);
      for (let i = 1; i < 3; i++) await throttle.recordFailure(typed, '2001:db8::1', t0 + i);
      expect(await throttle.retryAfter(typed, 'ip2', t0 + 5)).toBeGreaterThan(0);
    });
  });

  it('two app instances on one database share the count: N instances do not give N× the tries', async () => {
    // On PostgreSQL the second instance has its own connection pool, as another process would.
    const db2 = isPostgres(w.db) ? createDb(w.config.database) : w.db;
    afterAll(async () => {
      if (db2 !== w.db) await db2.destroy();
    });
    const second = createApp({ db: db2, clock: w.clock, config: w.config, log }).app;
    const email = 'user-a2@example.com';
    const login = (app: typeof second, password: string, ip: string) => supertest(app).post('/api/users/login').set('X-Forwarded-For', ip).send({ email, password });
    expect(w.config.login.maxFailures).toBe(5);
    // Five failures spread over both instances and several addresses.
    for (let i = 0; i < 5; i++) expect((await login(i % 2 ? second : w.app, 'nope', `198.51.100.${i + 1}`)).status).toBe(401);
    for (const app of [w.app, second]) {
      const blocked = await login(app, PASSWORD, '198.51.100.99');
      expect(blocked.status).toBe(429);
      expect(Number(blocked.headers['retry-after'])).toBeGreaterThan(0);
    }
    w.clock.advance(61_000);
    expect((await login(second, PASSWORD, '198.51.100.99')).status).toBe(200);
  });

  it('a spray of other emails and addresses does not reset an account’s count, and the table holds only the window', async () => {
    for (let i = 0; i < 3; i++) await throttle.recordFailure('victim@x', `10.0.0.${i}`, t0 + i);
    const spray = 2_000;
    for (let i = 0; i < spray; i++) await throttle.recordFailure(`spray-${i}@x`, `172.16.${i >> 8}.${i & 255}`, t0 + 1_000 + i);
    expect(await throttle.retryAfter('victim@x', '10.9.9.9', t0 + 5_000)).toBeGreaterThan(0);
    // Every failure of the window is still there: nothing evicted to make room.
    expect(await failuresStored()).toBe(2 * (3 + spray));
    // Once the window has passed, later failures prune the spray away.
    const later = t0 + 1_000 + spray + 60_000;
    const prunes = Math.ceil((2 * (3 + spray)) / PRUNE_BATCH) + 1;
    for (let i = 0; i < prunes; i++) await throttle.recordFailure('late@x', `192.0.2.${i}`, later + i);
    expect(await failuresStored()).toBe(2 * prunes);
  });

  it('pruning removes failures outside the window only', async () => {
    await throttle.recordFailure('old@x', 'ip-old', t0);
    await throttle.recordFailure('recent@x', 'ip-recent', t0 + 30_000);
    await throttle.recordFailure('recent@x', 'ip-recent', t0 + 59_999);
    // A failure a moment after t0's window ended prunes t0's rows and keeps the others.
    await throttle.recordFailure('other@x', 'ip-other', t0 + 60_001);
    const left = (await w.db('sign_in_failures').orderBy('failed_at').select('failed_at')) as Array<{ failed_at: string }>;
    expect(left.map((r) => r.failed_at)).toEqual([t0 + 30_000, t0 + 30_000, t0 + 59_999, t0 + 59_999, t0 + 60_001, t0 + 60_001].map((t) => new Date(t).toISOString()));
    await throttle.recordFailure('recent@x', 'ip-recent', t0 + 60_002);
    expect(await throttle.retryAfter('recent@x', 'ip9', t0 + 60_003)).toBe(30);
  });
});

describe('sign-in throttle across a restart', () => {
  it('a restarted server still counts the failures from before', async () => {
    let database: Config['database'];
    let drop: () => Promise<void>;
    if (process.env.TEST_DATABASE_URL) {
      const pg = await createPgDatabase(process.env.TEST_DATABASE_URL, 'pw_test');
      database = { client: 'pg', url: pg.url };
      drop = pg.drop;
    } else {
      const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'presswork-throttle-'));
      database = { client: 'sqlite', filename: path.join(dir, 'presswork.sqlite') };
      drop = async () => fs.rmSync(dir, { recursive: true, force: true });
    }
    const start = async (): Promise<Db> => {
      const db = createDb(database);
      await migrate(db);
      return db;
    };
    try {
      const before = await start();
      for (let i = 0; i < 3; i++) await signInThrottle(before, settings, log).recordFailure('a@x', 'ip1', t0 + i);
      await before.destroy();

      const after = await start();
      try {
        expect(await signInThrottle(after, settings, log).retryAfter('a@x', 'ip2', t0 + 10)).toBe(60);
      } finally {
        await after.destroy();
      }
    } finally {
      await drop();
    }
  });
});

describe.skipIf(Boolean(process.env.TEST_DATABASE_URL))('sign-in throttle while another process holds SQLite\'s write lock', () => {
  it('a successful sign-in with no failures to clear writes nothing, so it still goes through', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'presswork-throttle-lock-'));
    const filename = path.join(dir, 'presswork.sqlite');
    const db = createDb({ client: 'sqlite', filename, busyTimeoutMs: 50 });
    const holder = new Database(filename);
    try {
      await migrate(db);
      const throttle = signInThrottle(db, settings, log);
      await throttle.recordFailure('failed@x', 'ip1', t0);
      holder.prepare('begin immediate').run();
      await expect(throttle.recordSuccess('clean@x')).resolves.toBeUndefined();
      // Clearing real failures does write: it waits for the lock like any write.
      await expect(throttle.recordSuccess('failed@x')).rejects.toThrow(/locked|busy/i);
    } finally {
      if (holder.inTransaction) holder.prepare('rollback').run();
      holder.close();
      await db.destroy();
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});
