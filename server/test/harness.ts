// A fresh Presswork for one test file: its own migrated database (in-memory SQLite opened from the
// worker's migrated image, or when TEST_DATABASE_URL is set a PostgreSQL copy of the run's migrated
// template, pgTemplate.ts), with two sites and a user of each role.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Response } from 'superagent';
import bcrypt from 'bcryptjs';
import supertest from 'supertest';
import { afterAll, inject } from 'vitest';
import { createApp } from '../src/app';
import { loadConfig, type Config } from '../src/config';
import { createDb, migrate, type Db } from '../src/db';
import type { Clock } from '../src/lib/clock';
import { createLogger } from '../src/lib/logger';
import { signToken } from '../src/modules/auth/tokens';
import { createServices, fileStoreOf } from '../src/services';
import { createPgDatabase } from './infra';

export const PASSWORD = 'correct horse battery';

/** A clock tests can move. */
export function testClock(start = new Date()): Clock & { advance(ms: number): void; set(d: Date): void } {
  let now = start.getTime();
  return { now: () => new Date(now), advance: (ms) => void (now += ms), set: (d) => void (now = d.getTime()) };
}

// Running every migration costs about half a second a world; the worker migrates one in-memory
// SQLite database once and each world opens a copy of its bytes (better-sqlite3 deserialize).
let sqliteImage: Promise<Buffer> | undefined;
const migratedSqliteImage = () =>
  (sqliteImage ??= (async () => {
    const db = createDb({ client: 'sqlite', filename: ':memory:' });
    try {
      await migrate(db);
      const conn = (await db.client.acquireConnection()) as { serialize(): Buffer };
      try {
        return conn.serialize();
      } finally {
        await db.client.releaseConnection(conn);
      }
    } finally {
      await db.destroy();
    }
  })());

/** The world's knex: on SQLite its one connection opens the migrated image instead of an empty database. */
async function openDb(database: Config['database'], migrated: boolean): Promise<Db> {
  const db = createDb(database);
  if (database.client === 'sqlite' && migrated) {
    // knex opens the connection on first use, with these settings (createDb's pragmas still apply).
    (db.client as { connectionSettings: { filename: string | Buffer } }).connectionSettings.filename = await migratedSqliteImage();
  }
  return db;
}

/** A database for one world; `migrated` when it is a copy of a migrated template. */
async function freshDatabase(): Promise<{ database: Config['database']; migrated: boolean; drop: () => Promise<void> }> {
  const url = process.env.TEST_DATABASE_URL;
  if (!url) return { database: { client: 'sqlite', filename: ':memory:' }, migrated: true, drop: async () => {} };
  // pgTemplate.ts (the suite's globalSetup) migrated one database for the whole run.
  const template = inject('pgTemplate') ?? undefined;
  const pg = await createPgDatabase(url, 'pw_test', template);
  return { database: { client: 'pg', url: pg.url }, migrated: Boolean(template), drop: pg.drop };
}

// bcrypt is slow on purpose (about 0.1 s a hash and as much a sign-in at the users service's
// BCRYPT_COST): PASSWORD is hashed once per test worker, and every world's users share that hash.
// Its cost is the lowest bcrypt takes, so the many sign-ins of the suite check in a millisecond; the
// service's cost (new users, changed passwords, the unknown-email equaliser) is not touched.
const TEST_USER_BCRYPT_COST = 4;
let passwordHash: Promise<string> | undefined;
const testPasswordHash = () => (passwordHash ??= bcrypt.hash(PASSWORD, TEST_USER_BCRYPT_COST));

export interface TestWorld {
  db: Db;
  config: Config;
  clock: ReturnType<typeof testClock>;
  app: ReturnType<typeof createApp>['app'];
  services: ReturnType<typeof createServices>;
  request: () => supertest.Agent;
  sites: { a: number; b: number };
  users: { adminA: number; userA: number; userA2: number; adminB: number; userB: number };
  tokens: { adminA: string; userA: string; userA2: string; adminB: string; userB: string };
  tokenFor(userId: number): string;
  dataDir: string;
}

/** Build a world; torn down after the file's tests. `env` overrides settings. */
export async function createWorld(env: Record<string, string> = {}): Promise<TestWorld> {
  const { database, migrated, drop } = await freshDatabase();
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'presswork-test-'));
  const config: Config = {
    ...loadConfig({ NODE_ENV: 'test', DATA_DIR: dataDir, JWT_SECRET: 'test-secret-that-is-long-enough-0123456789', LOG_LEVEL: 'silent', SEED_DEMO: '0', ...env }),
    database,
  };
  const db = await openDb(database, migrated);
  if (!migrated) await migrate(db);
  const clock = testClock();
  const deps = { db, clock, config, log: createLogger('silent') };
  const services = createServices(deps, fileStoreOf(config));
  const { app } = createApp(deps, services);

  const now = clock.now().toISOString();
  const site = async (name: string, slug: string) => {
    const [r] = await db('sites')
      .insert({ name, slug, logo: null, theme: JSON.stringify({ mainColor: '#e91e63' }), settings: JSON.stringify({ env: [] }), created_at: now, updated_at: now })
      .returning('id');
    return typeof r === 'object' ? r.id : r;
  };
  const a = await site('Site A', 'site-a');
  const b = await site('Site B', 'site-b');
  const passwordHash = await testPasswordHash();
  const user = async (email: string, role: 'admin' | 'user', siteId: number) => {
    const [r] = await db('users')
      .insert({ first_name: email.split('@')[0], last_name: 'Tester', email, password_hash: passwordHash, role, site_id: siteId, created_at: now, updated_at: now })
      .returning('id');
    return typeof r === 'object' ? (r.id as number) : (r as number);
  };
  const users = {
    adminA: await user('admin-a@example.com', 'admin', a),
    userA: await user('user-a@example.com', 'user', a),
    userA2: await user('user-a2@example.com', 'user', a),
    adminB: await user('admin-b@example.com', 'admin', b),
    userB: await user('user-b@example.com', 'user', b),
  };
  const tokenFor = (id: number) => signToken(config.jwt, id);
  const tokens = {
    adminA: tokenFor(users.adminA),
    userA: tokenFor(users.userA),
    userA2: tokenFor(users.userA2),
    adminB: tokenFor(users.adminB),
    userB: tokenFor(users.userB),
  };
  afterAll(async () => {
    await db.destroy();
    await drop();
    fs.rmSync(dataDir, { recursive: true, force: true });
  });
  return { db, config, clock, app, services, request: () => supertest.agent(app), sites: { a, b }, users, tokens, tokenFor, dataDir };
}

export const bearer = (token: string) => ({ Authorization: `Bearer ${token}` });

/** supertest parser keeping a binary answer (a PDF, a PNG) as one Buffer. */
export const binary = (res: Response, cb: (err: Error | null, body: Buffer) => void) => {
  const chunks: Buffer[] = [];
  res.on('data', (c: Buffer) => chunks.push(c));
  res.on('end', () => cb(null, Buffer.concat(chunks)));
};
