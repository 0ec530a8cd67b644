// The database handle: SQLite (WAL, foreign keys on) by default, PostgreSQL when configured.
// JSON columns go through toJson/fromJson so both engines behave the same.
import fs from 'node:fs';
import path from 'node:path';
import knexFactory, { type Knex } from 'knex';
import type { Config } from './config';
import { migrationSource } from '../../migrations';

export type Db = Knex;

/** Longest wait for a lock before a statement fails (and the call answers 503): PostgreSQL lock_timeout. */
export const DEFAULT_LOCK_TIMEOUT_MS = 5_000;
/**
 * SQLite busy_timeout. Presswork is the only writer of its SQLite file (one connection), so a busy
 * database means another process holds a write lock (a backup tool, a shell). better-sqlite3 waits
 * synchronously, blocking every request of the process, so the wait is kept short: a few hundred
 * waiting writes of 5 s each would stall the process for minutes (found by the fault suite).
 */
export const DEFAULT_SQLITE_BUSY_TIMEOUT_MS = 200;

export function createDb(database: Config['database']): Db {
  const db = openDb(database);
  if (database.client === 'sqlite' && database.filename !== ':memory:') sqliteFiles.set(db, path.resolve(database.filename));
  return db;
}

function openDb(database: Config['database']): Db {
  if (database.client === 'pg') {
    const lockTimeoutMs = database.lockTimeoutMs ?? DEFAULT_LOCK_TIMEOUT_MS;
    return knexFactory({
      client: 'pg',
      // A statement waiting on a lock another session holds (a LOCK TABLE, a long migration) gives
      // up after lock_timeout instead of holding its request and pool connection for ever.
      // (node-postgres sends lock_timeout at connect; knex's types do not list it.)
      connection: { connectionString: database.url, lock_timeout: lockTimeoutMs } as Knex.PgConnectionConfig,
      pool: { min: 0, max: 10 },
      // Every pool connection busy: fail (503) rather than queue requests for a minute.
      acquireConnectionTimeout: Math.max(10_000, 2 * lockTimeoutMs),
    });
  }
  const { filename, maxPageCount, synchronous = 'FULL' } = database;
  const busyTimeoutMs = database.busyTimeoutMs ?? DEFAULT_SQLITE_BUSY_TIMEOUT_MS;
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
        conn.pragma(`busy_timeout = ${Math.floor(busyTimeoutMs)}`);
        // FULL (default): a commit is on disk (fsync) before the call answers, so a 2xx — a store
        // webhook acknowledged, a print job marked printed — survives a power cut or an OS crash, not
        // only a crash of the process. NORMAL (SQLITE_SYNCHRONOUS=NORMAL) skips that fsync in WAL
        // mode: faster, still safe against a killed process, but the last commits can be lost with
        // the machine.
        conn.pragma(`synchronous = ${synchronous === 'NORMAL' ? 'NORMAL' : 'FULL'}`);
        cacheStatements(conn as unknown as StatementSource);
        if (maxPageCount) conn.pragma(`max_page_count = ${Math.floor(maxPageCount)}`);
        done(null, conn);
      },
    },
  });
}

/** The file of each SQLite database opened by createDb (an in-memory one has none). */
const sqliteFiles = new WeakMap<Db, string>();

interface SqliteConnection {
  pragma(sql: string, options?: { simple: boolean }): unknown;
}

/** A write whose commit is made durable off the main thread: see `deferredCommitSync`. */
export interface DeferredCommitSync {
  /**
   * Runs `write` holding the connection (give it to the query with `.connection(conn)`) with the
   * commit's fsync left out: the WAL frames are written, not yet on disk. Call `sync` before
   * telling anyone the write is stored.
   */
  write<T>(write: (conn: unknown) => Promise<T>): Promise<T>;
  /** Resolves once an fsync of the WAL begun after this call has finished: every commit made before the call is then on disk. */
  sync(): Promise<void>;
}

/**
 * SQLite with synchronous=FULL fsyncs the WAL inside each commit, on the main thread: 4–12 ms on a
 * shared virtual disk, during which no request moves. For writes whose callers can wait for the
 * fsync without holding the thread (store webhooks, answered 200 only once the delivery is on
 * disk): the commit is made with synchronous=NORMAL (WAL frames written, no fsync), then the WAL is
 * fsynced on the thread pool, one fsync for every commit made before it began — what FULL's
 * commit does, as WAL frames are only appended and a checkpoint fsyncs the WAL before copying it
 * and the database after. Every other write keeps the connection's setting. Undefined (write
 * normally) for PostgreSQL, an in-memory database, or a connection already set to NORMAL or OFF.
 */
export function deferredCommitSync(db: Db): DeferredCommitSync | undefined {
  const file = sqliteFiles.get(db);
  if (!file) return undefined;
  const wal = `${file}-wal`;
  // Commits left to `sync`, and how many of them are known to be on disk.
  let deferred = 0;
  let onDisk = 0;
  let running: Promise<void> | undefined;
  let following: Promise<void> | undefined;
  // The WAL stays open while syncs follow each other (closed after a second without one). An
  // fsync through any descriptor of the file flushes it; one whose file was removed is opened again.
  let fd: number | undefined;
  let closeTimer: NodeJS.Timeout | undefined;
  const closeWal = () => {
    if (fd !== undefined) fs.closeSync(fd);
    fd = undefined;
  };
  const fsyncOf = (descriptor: number) => new Promise<void>((resolve, reject) => fs.fsync(descriptor, (err) => (err ? reject(err) : resolve())));
  const fsyncWal = async () => {
    const upTo = deferred;
    clearTimeout(closeTimer);
    if (fd !== undefined && fs.fstatSync(fd).nlink === 0) closeWal();
    try {
      fd ??= fs.openSync(wal, 'r');
    } catch (err) {
      // No WAL: the last connection checkpointed it into the database and removed it; sync that.
      if ((err as { code?: string }).code !== 'ENOENT') throw err;
      const db = fs.openSync(file, 'r');
      try {
        await fsyncOf(db);
      } finally {
        fs.closeSync(db);
      }
      onDisk = Math.max(onDisk, upTo);
      return;
    }
    try {
      await fsyncOf(fd);
    } finally {
      closeTimer = setTimeout(closeWal, 1000).unref();
    }
    onDisk = Math.max(onDisk, upTo);
  };
  const sync = (): Promise<void> => {
    if (onDisk >= deferred) return Promise.resolve();
    if (!running) {
      running = fsyncWal().finally(() => (running = undefined));
      return running;
    }
    // The fsync under way may have begun before the caller's commit: the next one, shared by all who ask meanwhile.
    following ??= running
      .then(
        () => undefined,
        () => undefined,
      )
      .then(() => {
        following = undefined;
        return sync();
      });
    return following;
  };
  return {
    async write(write) {
      const conn = (await db.client.acquireConnection()) as SqliteConnection;
      try {
        const level = Number(conn.pragma('synchronous', { simple: true }));
        // FULL (2) or EXTRA (3): the commit's fsync is left to `sync`. NORMAL or OFF: as set, nothing to sync.
        if (level < 2) return await write(conn);
        conn.pragma('synchronous = NORMAL');
        try {
          return await write(conn);
        } finally {
          conn.pragma(`synchronous = ${level}`);
          deferred++;
        }
      } finally {
        await db.client.releaseConnection(conn);
      }
    },
    sync,
  };
}

interface StatementSource {
  prepare(sql: string): unknown;
}

/** Compiled statements kept per connection (least recently used dropped past this many). */
const STATEMENT_CACHE_SIZE = 500;

/**
 * knex prepares every query anew, and better-sqlite3 compiles the SQL each time (a third of a
 * simple INSERT's cost): the connection keeps the statements it compiled, by SQL text. knex runs
 * them with all()/run() (never a live iterator), and SQLite re-prepares a statement by itself
 * after a schema change.
 */
function cacheStatements(conn: StatementSource): void {
  const prepare = conn.prepare.bind(conn);
  const cache = new Map<string, unknown>();
  conn.prepare = (sql: string) => {
    let statement = cache.get(sql);
    if (statement !== undefined) cache.delete(sql);
    else statement = prepare(sql);
    cache.set(sql, statement);
    if (cache.size > STATEMENT_CACHE_SIZE) cache.delete(cache.keys().next().value as string);
    return statement;
  };
}

export async function migrate(db: Db): Promise<void> {
  await db.migrate.latest({ migrationSource });
}

/**
 * The database against this code's migrations (the readiness check): those not applied yet, and
 * applied ones this code does not know (a newer version ran on the database).
 */
export async function migrationState(db: Db): Promise<{ pending: string[]; unknown: string[] }> {
  const [completed, pending] = (await db.migrate.list({ migrationSource, disableMigrationsListValidation: true })) as [Array<{ name: string }>, string[]];
  const known = new Set(await migrationSource.getMigrations([]));
  return { pending, unknown: completed.map((m) => m.name).filter((name) => !known.has(name)) };
}

/** The PostgreSQL advisory lock key of the start-up work (migrations, first site and admin, demo seed). */
const STARTUP_LOCK_KEY = 7_300_100_001;

/**
 * Runs the start-up work (migrations, first-start setup) while holding a database-wide lock, so
 * instances started at the same moment on one PostgreSQL database do it one after the other: the
 * second finds the tables and the first admin there instead of racing to create them. The lock is
 * a transaction-scoped advisory lock held by one pool connection while `fn` uses the others; it
 * goes with the transaction, also when the process dies. SQLite: one process owns the file (lib/sqliteOwner.ts).
 */
export async function withStartupLock<T>(db: Db, fn: () => Promise<T>): Promise<T> {
  if (!isPostgres(db)) return fn();
  return db.transaction(async (trx) => {
    await trx.raw('set local lock_timeout = 0');
    await trx.raw('select pg_advisory_xact_lock(?)', [STARTUP_LOCK_KEY]);
    return fn();
  });
}

/** Ids are 32-bit integer columns (PostgreSQL `integer`): a larger id names no row (asking PostgreSQL would be an error). */
export const MAX_ROW_ID = 2_147_483_647;
export const canBeRowId = (id: number) => Number.isSafeInteger(id) && id > 0 && id <= MAX_ROW_ID;

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

/** Text taken literally in a LIKE pattern (its %, _ and the escape character escaped): use with `like ? escape '!'`. */
export const likeLiteral = (text: string): string => text.replace(/[!%_]/g, (c) => `!${c}`);

/**
 * The smallest string above every string that starts with `prefix`, in byte (code point) order:
 * `col >= prefix and col < prefixEnd(prefix)` is a prefix search an ordinary index answers, and
 * needs no escaping (no character is a wildcard).
 */
export function prefixEnd(prefix: string): string {
  const chars = Array.from(prefix);
  while (chars.length) {
    const last = chars.pop()!.codePointAt(0)!;
    // The next code point, skipping the surrogate range no string holds alone.
    const next = last === 0xd7ff ? 0xe000 : last + 1;
    if (next <= 0x10ffff) return chars.join('') + String.fromCodePoint(next);
  }
  return '\u{10FFFF}';
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

/** A write the storage could not take: 507 (full) or 503 (busy, locked, unavailable), and what to tell the caller. */
export interface StorageFault {
  status: 503 | 507;
  message: string;
  retryAfterSeconds?: number;
}

const FULL = 'The server\'s storage is full; the request was not completed. Try again later.';
const BUSY = 'The database is busy; the request was not completed. Try again in a moment.';
const FILES_UNAVAILABLE = 'File storage is unavailable; the request was not completed. Try again later.';

/**
 * Disk full, a database lock that did not come free in time, a pool with no free connection:
 * conditions of the server, not of the request, that pass. The error handler answers them with a
 * clear 507/503 (the store's webhook delivery then retries) instead of a 500. Anything else: undefined.
 */
export function storageFault(err: unknown): StorageFault | undefined {
  const e = err as { code?: unknown; name?: unknown } | null;
  const code = typeof e?.code === 'string' ? e.code : '';
  // SQLite (better-sqlite3 extended codes), PostgreSQL SQLSTATEs, Node file-system errors.
  if (code === 'SQLITE_FULL' || code === '53100' || code === 'ENOSPC' || code === 'EDQUOT') return { status: 507, message: FULL };
  if (code.startsWith('SQLITE_BUSY') || code.startsWith('SQLITE_LOCKED')) return { status: 503, message: BUSY, retryAfterSeconds: 5 };
  // lock_not_available (lock_timeout), query_canceled (statement_timeout), serialization failure, deadlock, too many connections.
  if (['55P03', '57014', '40001', '40P01', '53300'].includes(code)) return { status: 503, message: BUSY, retryAfterSeconds: 5 };
  if (e?.name === 'KnexTimeoutError') return { status: 503, message: BUSY, retryAfterSeconds: 5 };
  if (code === 'EROFS' || code === 'EACCES' || code === 'EPERM') return { status: 503, message: FILES_UNAVAILABLE, retryAfterSeconds: 60 };
  return undefined;
}
