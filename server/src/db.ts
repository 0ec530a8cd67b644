// The database handle: SQLite (WAL, foreign keys on) by default, PostgreSQL when configured.
// JSON columns go through toJson/fromJson so both engines behave the same.
import fs from 'node:fs';
import path from 'node:path';
import knexFactory, { type Knex } from 'knex';
import type { Config } from './config';
import { migrationSource } from '../../migrations';

export type Db = Knex;

export function createDb(database: Config['database']): Db {
  if (database.client === 'pg') {
    return knexFactory({ client: 'pg', connection: database.url, pool: { min: 0, max: 10 } });
  }
  const { filename } = database;
  if (filename !== ':memory:') fs.mkdirSync(path.dirname(filename), { recursive: true });
  return knexFactory({
    client: 'better-sqlite3',
    connection: { filename },
    useNullAsDefault: true,
    // One connection: SQLite has a single writer, and an in-memory database lives in its connection.
    pool: {
      min: 1,
      max: 1,
      afterCreate(conn: { pragma(sql: string): unknown }, done: (err: Error | null, conn: unknown) => void) {
        conn.pragma('journal_mode = WAL');
        conn.pragma('foreign_keys = ON');
        conn.pragma('busy_timeout = 5000');
        conn.pragma('synchronous = NORMAL');
        done(null, conn);
      },
    },
  });
}

export async function migrate(db: Db): Promise<void> {
  await db.migrate.latest({ migrationSource });
}

/** The PostgreSQL advisory lock key of the start-up work (migrations, first site and admin, demo seed). */
const STARTUP_LOCK_KEY = 7_300_100_001;

/**
 * Runs the start-up work (migrations, first-start setup) while holding a database-wide lock, so
 * instances started at the same moment on one PostgreSQL database do it one after the other: the
 * second finds the tables and the first admin there instead of racing to create them. The lock is
 * a transaction-scoped advisory lock held by one pool connection while `fn` uses the others; it
 * goes with the transaction, also when the process dies. SQLite: one process owns the file.
 */
export async function withStartupLock<T>(db: Db, fn: () => Promise<T>): Promise<T> {
  if (!isPostgres(db)) return fn();
  return db.transaction(async (trx) => {
    await trx.raw('set local lock_timeout = 0');
    await trx.raw('select pg_advisory_xact_lock(?)', [STARTUP_LOCK_KEY]);
    return fn();
  });
}

export function isPostgres(db: Db): boolean {
  return db.client.config.client === 'pg';
}

/** JSON value → column value (text in SQLite, jsonb in PostgreSQL; both accept a JSON string). */
export function toJson(value: unknown): string {
  return JSON.stringify(value ?? null);
}

/** Column value → JSON value (SQLite returns text, PostgreSQL returns the parsed value). */
export function fromJson<T>(value: unknown, fallback: T): T {
  if (value === null || value === undefined) return fallback;
  if (typeof value === 'string') {
    try {
      return JSON.parse(value) as T;
    } catch {
      return fallback;
    }
  }
  return value as T;
}

/** Count rows of a query builder portably (PostgreSQL answers counts as strings). */
export async function countOf(query: Knex.QueryBuilder): Promise<number> {
  const row = (await query.clone().clearSelect().clearOrder().count({ n: '*' }).first()) as { n: number | string } | undefined;
  return Number(row?.n ?? 0);
}

/** A unique index refused the write (SQLite or PostgreSQL): the caller answers 409. */
export function isUniqueViolation(err: unknown): boolean {
  const code = (err as { code?: unknown } | null)?.code;
  return code === '23505' || code === 'SQLITE_CONSTRAINT_UNIQUE';
}
