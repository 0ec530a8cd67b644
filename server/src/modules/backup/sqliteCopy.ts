// A consistent copy of a live SQLite database, through SQLite's online backup API.
//
// better-sqlite3's backup() copies 100 pages per event-loop turn by default, but every write the app
// commits on its own connection between two steps restarts the copy from page 1: measured with a
// writer committing every millisecond, a 40 MB database was restarted 14,000 times in 15 s and never
// finished. Copying every page in one step holds one read transaction (WAL: the app's writes go on)
// and is consistent, but blocks its thread for the whole copy (0.5 s for 40 MB here). So the copy
// runs in a worker thread: one step there, and the server's event loop stays free.
//
// The worker is a few lines of plain JavaScript given as a string, so it needs no entry point of its
// own in the build; it loads the same better-sqlite3 the server does.
import { createRequire } from 'node:module';
import { Worker } from 'node:worker_threads';
import { BackupError } from './errors';

const WORKER_SOURCE = `
const { parentPort, workerData } = require('node:worker_threads');
const Database = require(workerData.driver);
async function copy() {
  const source = new Database(workerData.source, { fileMustExist: true });
  let pages;
  try {
    source.pragma('busy_timeout = ' + workerData.busyTimeoutMs);
    pages = (await source.backup(workerData.target, { progress: () => 0x7fffffff })).totalPages;
  } finally {
    source.close();
  }
  const copied = new Database(workerData.target, { fileMustExist: true });
  try {
    const check = copied.pragma('quick_check', { simple: true });
    const hasMigrations = copied.prepare("select 1 from sqlite_master where type = 'table' and name = 'knex_migrations'").get();
    const migrations = hasMigrations ? copied.prepare('select name from knex_migrations order by id').pluck().all() : [];
    copied.pragma('journal_mode = DELETE');
    return { pages, check, migrations };
  } finally {
    copied.close();
  }
}
copy().then(
  (result) => parentPort.postMessage({ ok: true, ...result }),
  (err) => parentPort.postMessage({ ok: false, message: String((err && err.message) || err), code: err && err.code }),
);
`;

export interface SqliteCopy {
  /** Pages copied (of the database's page size). */
  pages: number;
  /** The migrations applied to the copy, in order. */
  migrations: string[];
}

type Reply = { ok: true; pages: number; check: string; migrations: string[] } | { ok: false; message: string; code?: string };

/**
 * Copies the database `source` to the new file `target` (a single file, rollback journal mode) and
 * checks the copy (quick_check). `signal` stops the copy (the worker is terminated).
 */
export async function copySqliteDatabase(source: string, target: string, options: { signal?: AbortSignal; busyTimeoutMs?: number } = {}): Promise<SqliteCopy> {
  options.signal?.throwIfAborted();
  const driver = createRequire(import.meta.url).resolve('better-sqlite3');
  const worker = new Worker(WORKER_SOURCE, { eval: true, workerData: { driver, source, target, busyTimeoutMs: options.busyTimeoutMs ?? 10_000 } });
  const stop = () => void worker.terminate();
  options.signal?.addEventListener('abort', stop, { once: true });
  try {
    const reply = await new Promise<Reply>((resolve, reject) => {
      worker.once('message', resolve);
      worker.once('error', reject);
      worker.once('exit', (code) => reject(options.signal?.aborted ? options.signal.reason : new Error(`the database copy stopped (exit code ${code})`)));
    });
    if (!reply.ok) throw new BackupError(`The database could not be copied: ${reply.message}${reply.code ? ` (${reply.code})` : ''}`);
    if (reply.check !== 'ok') throw new BackupError(`The database copy failed SQLite's check (${reply.check}): the database itself may be damaged; nothing was written`);
    return { pages: reply.pages, migrations: reply.migrations };
  } finally {
    options.signal?.removeEventListener('abort', stop);
    await worker.terminate();
  }
}
