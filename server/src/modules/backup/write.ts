// Writing a backup: the database first (a consistent copy), then the files under DATA_DIR, streamed
// into one gzipped tar with a manifest and checksums. Safe while the app runs.
import crypto from 'node:crypto';
import fs from 'node:fs';
import fsp from 'node:fs/promises';
import path from 'node:path';
import { Readable, Transform, type Writable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import zlib from 'node:zlib';
import tar from 'tar-stream';
import type { Config } from '../../config';
import { createDb, type Db } from '../../db';
import { systemClock, type Clock } from '../../lib/clock';
import pkg from '../../../../package.json';
import { BackupError } from './errors';
import {
  BACKUP_FORMAT,
  BACKUP_FORMAT_VERSION,
  DATABASE_ENTRY,
  LABEL_ENTRY,
  MANIFEST_ENTRY,
  MAX_ENTRY_BYTES,
  SUMS_ENTRY,
  dataEntryOf,
  formatSums,
  type BackupLabel,
  type BackupManifest,
  type ManifestEntry,
} from './manifest';
import { RESTORE_STAGING_PREFIX, fsyncDir, fsyncFile, isInside } from './disk';
import { copySqliteDatabase } from './sqliteCopy';
import { instanceLockFilesOf } from '../../lib/sqliteOwner';

export interface BackupSummary {
  file: string;
  /** The archive's size. */
  bytes: number;
  createdAt: string;
  /** sqlite: the copy's size; postgresql: not in the archive (pg_dump's). */
  database: { engine: 'sqlite'; bytes: number } | { engine: 'postgresql' };
  files: { count: number; bytes: number };
  /** Paths under DATA_DIR left out because they are not regular files (symlinks, sockets, …). */
  skipped: string[];
  schemaLatest: string | null;
  ms: number;
}

export interface BackupOptions {
  /** PostgreSQL: the app's handle, to read the schema level (a short-lived one is made otherwise). */
  db?: Db;
  clock?: Clock;
  signal?: AbortSignal;
}

/** A file diskStore is still writing (`<key>.part-<pid>-<ms>`): not a file yet, left out. */
const IN_PROGRESS_UPLOAD = /\.part-\d+-\d+$/;

/**
 * Writes a backup of DATA_DIR (and the SQLite database) to `file`, which must not exist. The archive
 * appears only once complete (it is written to `<file>.partial`, flushed, then renamed).
 */
export async function writeBackup(config: Config, file: string, options: BackupOptions = {}): Promise<BackupSummary> {
  const started = performance.now();
  if (options.signal?.aborted) throw new BackupError('The backup was stopped before it started; no archive was written');
  const clock = options.clock ?? systemClock;
  const target = path.resolve(file);
  const { dataDir } = config;
  if (dataDir === ':memory:') throw new BackupError('DATA_DIR is :memory:, so there is nothing on disk to back up');
  if (isInside(dataDir, target)) throw new BackupError(`The backup file must be outside DATA_DIR (${dataDir}): a restore needs an empty DATA_DIR`);
  if (fs.existsSync(target)) throw new BackupError(`${target} already exists; choose a new file name (a backup never overwrites one)`);
  if (!fs.existsSync(dataDir)) throw new BackupError(`DATA_DIR (${dataDir}) does not exist: nothing to back up`);
  const sqlite = config.database.client === 'sqlite' ? config.database.filename : undefined;
  if (sqlite === ':memory:') throw new BackupError('The database is in memory (DATABASE_URL=sqlite::memory:): nothing on disk to back up');
  if (sqlite && !fs.existsSync(sqlite)) throw new BackupError(`There is no database at ${sqlite}: nothing to back up (is DATA_DIR right?)`);

  await fsp.mkdir(path.dirname(target), { recursive: true });
  const partial = `${target}.partial`;
  // Ours from here on (exclusive create): a leftover of an interrupted backup is not overwritten.
  const out = await fsp.open(partial, 'wx').catch((err) => {
    throw (err as NodeJS.ErrnoException).code === 'EEXIST' ? new BackupError(`${partial} exists: another backup to that name is under way, or one was interrupted (remove it)`) : err;
  });
  const databaseCopy = path.join(path.dirname(target), `.${path.basename(target)}.sqlite-${crypto.randomBytes(6).toString('hex')}`);
  const createdAt = clock.now().toISOString();
  try {
    // The database first: every file it names was written before it was copied, so it is found below.
    const copy = sqlite ? await copySqliteDatabase(sqlite, databaseCopy, { signal: options.signal }) : undefined;
    const migrations = copy ? copy.migrations : await postgresMigrations(config, options.db);
    const label: BackupLabel = {
      format: BACKUP_FORMAT,
      formatVersion: BACKUP_FORMAT_VERSION,
      app: { name: pkg.name, version: pkg.version },
      createdAt,
      schema: { migrations, latest: migrations.at(-1) ?? null },
      database: sqlite ? 'sqlite' : 'postgresql',
    };

    const archive = tar.pack();
    const written = pipeline(archive, zlib.createGzip({ chunkSize: 64 * 1024 }), out.createWriteStream(), { signal: options.signal });
    // An entry that fails destroys the archive, and `written` rejects too: awaited below either way.
    written.catch(() => {});
    // Until the archive is finalized `written` only settles by failing (a full disk): no entry waits for ever then.
    const stored = (sink: { stored: Promise<void> }) => Promise.race([sink.stored, written]);
    const entries: ManifestEntry[] = [];
    const skipped: string[] = [];
    let filesBytes = 0;
    const addStream = async (header: { name: string; size: number; mode: number; mtime: Date }, body: Readable) => {
      options.signal?.throwIfAborted();
      if (header.size > MAX_ENTRY_BYTES) throw new BackupError(`${header.name} is larger than 8 GiB, more than this archive format stores`);
      const digest = digestTap();
      const sink = entryStream(archive, { ...header, type: 'file' });
      await Promise.race([pipeline(body, digest.tap, sink), written]);
      await stored(sink);
      entries.push({ path: header.name, size: header.size, sha256: digest.hex() });
    };
    const addBytes = async (name: string, body: Buffer) => {
      const sink = entryStream(archive, { name, size: body.length, mode: 0o644, mtime: new Date(createdAt), type: 'file' });
      sink.end(body);
      await stored(sink);
      return crypto.createHash('sha256').update(body).digest('hex');
    };
    try {
      const sums = [{ path: LABEL_ENTRY, sha256: await addBytes(LABEL_ENTRY, Buffer.from(JSON.stringify(label, null, 2) + '\n')) }];
      if (copy) {
        const size = (await fsp.stat(databaseCopy)).size;
        await addStream({ name: DATABASE_ENTRY, size, mode: 0o644, mtime: new Date(createdAt) }, fs.createReadStream(databaseCopy));
      }
      for await (const found of filesOf(dataDir, sqlite)) {
        if (found.kind === 'other') {
          skipped.push(found.relative);
          continue;
        }
        // Opened first: a file removed from here on is still read whole (and one removed before is not in the backup).
        const fh = await fsp.open(found.full, 'r').catch((err) => ((err as NodeJS.ErrnoException).code === 'ENOENT' ? undefined : Promise.reject(err)));
        if (!fh) continue;
        try {
          const stat = await fh.stat();
          // Files are written elsewhere and renamed into place, so the bytes listed are the file's;
          // only those are read (one that shrinks meanwhile fails the backup: size mismatch).
          const body = stat.size ? fh.createReadStream({ start: 0, end: stat.size - 1, autoClose: false }) : Readable.from([]);
          await addStream({ name: dataEntryOf(found.relative), size: stat.size, mode: stat.mode & 0o777, mtime: stat.mtime }, body);
          filesBytes += stat.size;
        } finally {
          await fh.close();
        }
      }
      const manifest: BackupManifest = { ...label, entries };
      sums.push(...entries.map((e) => ({ path: e.path, sha256: e.sha256 })));
      sums.push({ path: MANIFEST_ENTRY, sha256: await addBytes(MANIFEST_ENTRY, Buffer.from(JSON.stringify(manifest, null, 2) + '\n')) });
      await addBytes(SUMS_ENTRY, Buffer.from(formatSums(sums)));
      archive.finalize();
    } catch (err) {
      archive.destroy(err as Error);
      // The archive's own failure (a full disk) when that is what stopped the entry.
      throw await written.then(
        () => err,
        (writeError: unknown) => writeError,
      );
    }
    await written;
    await fsyncFile(partial);
    await fsp.rename(partial, target);
    await fsyncDir(path.dirname(target));
    return {
      file: target,
      bytes: (await fsp.stat(target)).size,
      createdAt,
      database: copy ? { engine: 'sqlite', bytes: entries[0].size } : { engine: 'postgresql' },
      files: { count: entries.length - (copy ? 1 : 0), bytes: filesBytes },
      skipped,
      schemaLatest: label.schema.latest,
      ms: Math.round(performance.now() - started),
    };
  } catch (err) {
    await out.close().catch(() => {});
    await fsp.rm(partial, { force: true });
    if (options.signal?.aborted) throw new BackupError('The backup was stopped before it finished; no archive was written');
    const code = (err as NodeJS.ErrnoException).code;
    if (code === 'ENOSPC' || code === 'EDQUOT') throw new BackupError(`There is no room left for the backup in ${path.dirname(target)} (${code}); nothing was written`);
    throw err;
  } finally {
    await fsp.rm(databaseCopy, { force: true });
  }
}

async function postgresMigrations(config: Config, given: Db | undefined): Promise<string[]> {
  const db = given ?? createDb(config.database);
  try {
    const hasTable = await db.schema.hasTable('knex_migrations');
    return hasTable ? ((await db('knex_migrations').orderBy('id').pluck('name')) as string[]) : [];
  } finally {
    if (!given) await db.destroy();
  }
}

type Found = { kind: 'file' | 'other'; full: string; relative: string };

/**
 * Every file under DATA_DIR, in a stable order, less what the backup holds otherwise or what is not
 * data: the SQLite database and its -wal/-shm/-journal (copied above), the running server's claim on
 * it (never opened here: closing it would drop the server's lock), uploads still being written, and
 * restores under way. Directories are walked, not stored (the app creates them as it needs).
 */
async function* filesOf(dataDir: string, sqlite: string | undefined): AsyncGenerator<Found> {
  const database = sqlite ? path.resolve(sqlite) : undefined;
  const databaseFiles = database === undefined ? [] : [database, `${database}-wal`, `${database}-shm`, `${database}-journal`, ...instanceLockFilesOf(database)];
  const leftOut = (full: string) => databaseFiles.includes(full) || IN_PROGRESS_UPLOAD.test(full);
  async function* walk(dir: string): AsyncGenerator<Found> {
    let names: fs.Dirent[];
    try {
      names = await fsp.readdir(dir, { withFileTypes: true });
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code === 'ENOENT' && dir !== dataDir) return;
      throw err;
    }
    names.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
    for (const d of names) {
      const full = path.join(dir, d.name);
      const relative = path.relative(dataDir, full);
      if (leftOut(full) || (dir === dataDir && d.name.startsWith(RESTORE_STAGING_PREFIX))) continue;
      if (d.isDirectory()) yield* walk(full);
      else yield { kind: d.isFile() ? 'file' : 'other', full, relative };
    }
  }
  yield* walk(dataDir);
}

/** The tar entry's body stream, once the archive takes it; `stored` settles when it is in the archive. */
function entryStream(archive: tar.Pack, header: tar.Headers): Writable & { stored: Promise<void> } {
  let settle!: (err?: Error | null) => void;
  const stored = new Promise<void>((resolve, reject) => (settle = (err) => (err ? reject(err) : resolve())));
  stored.catch(() => {});
  const sink = archive.entry(header, (err) => settle(err));
  if (!sink) throw new Error('the archive stopped being written');
  return Object.assign(sink, { stored });
}

/** A pass-through stream that hashes (SHA-256) what goes through it. */
function digestTap() {
  const hash = crypto.createHash('sha256');
  const tap = new Transform({
    transform(chunk: Buffer, _enc, done) {
      hash.update(chunk);
      done(null, chunk);
    },
  });
  return { tap, hex: () => hash.digest('hex') };
}
