// Restoring a backup into an empty DATA_DIR: unpacked beside it first, every entry checked against
// the manifest and SHA256SUMS, and only then put in DATA_DIR's place. A damaged, truncated or edited
// archive is refused with DATA_DIR as it was.
import crypto from 'node:crypto';
import fs from 'node:fs';
import fsp from 'node:fs/promises';
import path from 'node:path';
import { Transform, type Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import zlib from 'node:zlib';
import tar from 'tar-stream';
import type { z } from 'zod';
import type { Config } from '../../config';
import { BackupError } from './errors';
import {
  BACKUP_FORMAT,
  BACKUP_FORMAT_VERSION,
  DATABASE_ENTRY,
  LABEL_ENTRY,
  MANIFEST_ENTRY,
  SUMS_ENTRY,
  isSafeDataEntry,
  labelOf,
  labelSchema,
  manifestSchema,
  parseSums,
  unknownMigrations,
  type BackupLabel,
  type BackupManifest,
  type ManifestEntry,
} from './manifest';
import { migrationSource } from '../../../../migrations';
import { RESTORE_STAGING_PREFIX, fsyncDir, fsyncFile, isInside } from './disk';

export interface RestoreSummary {
  dataDir: string;
  label: BackupLabel;
  /** Where the SQLite database was put (none for a PostgreSQL backup: pg_restore's). */
  database: string | undefined;
  files: { count: number; bytes: number };
  ms: number;
}

/** The largest manifest or checksum list read into memory (a million files is about 200 MB). */
const MAX_INDEX_BYTES = 512 * 1024 * 1024;
const MAX_LABEL_BYTES = 1024 * 1024;

const damaged = (why: string) => new BackupError(`The backup archive is damaged or was altered (${why}); nothing was restored and DATA_DIR is as it was`);

/** Restores the backup `file` into config.dataDir, which must be empty or absent. */
export async function restoreBackup(config: Config, file: string): Promise<RestoreSummary> {
  const started = performance.now();
  const source = path.resolve(file);
  const { dataDir } = config;
  if (dataDir === ':memory:') throw new BackupError('DATA_DIR is :memory:; set DATA_DIR to the (empty) folder to restore into');
  const sourceStat = await fsp.stat(source).catch(() => undefined);
  if (!sourceStat?.isFile()) throw new BackupError(`There is no backup file at ${source}`);
  await refuseUnlessEmpty(dataDir);
  if (config.database.client === 'sqlite' && config.database.filename === ':memory:') {
    throw new BackupError('The database is in memory (DATABASE_URL=sqlite::memory:); unset DATABASE_URL to restore the backup\'s database into DATA_DIR');
  }
  const database = config.database.client === 'sqlite' ? path.resolve(config.database.filename) : undefined;
  const databaseOutside = database !== undefined && !isInside(dataDir, database);
  if (databaseOutside && fs.existsSync(database)) throw new BackupError(`${database} (DATABASE_URL) already exists; a restore never replaces a database: move it away first`);

  const staging = await stagingFor(dataDir);
  const databaseStaging = databaseOutside ? `${database}.restoring-${crypto.randomBytes(6).toString('hex')}` : undefined;
  const databaseTarget = database === undefined ? undefined : databaseOutside ? databaseStaging! : path.join(staging.dir, path.relative(dataDir, database));
  let databaseMoved = false;
  try {
    const unpacked = await unpack(source, { staging: staging.dir, databaseTarget, databaseEngine: database ? 'sqlite' : 'postgresql' });
    const { label } = unpacked;
    // In place: the database outside DATA_DIR first (DATA_DIR then shows a complete restore).
    if (databaseStaging && database) {
      if (fs.existsSync(database)) throw new BackupError(`${database} appeared while the backup was being restored; nothing was restored`);
      await fsp.rename(databaseStaging, database);
      databaseMoved = true;
      await fsyncDir(path.dirname(database));
    }
    await staging.commit();
    return {
      dataDir,
      label,
      database: label.database === 'sqlite' ? database : undefined,
      files: unpacked.files,
      ms: Math.round(performance.now() - started),
    };
  } catch (err) {
    await staging.discard();
    if (databaseStaging) await fsp.rm(databaseMoved ? database! : databaseStaging, { force: true });
    throw err;
  }
}

async function refuseUnlessEmpty(dataDir: string): Promise<void> {
  const stat = await fsp.stat(dataDir).catch(() => undefined);
  if (!stat) return;
  if (!stat.isDirectory()) throw new BackupError(`DATA_DIR (${dataDir}) is not a folder`);
  const names = (await fsp.readdir(dataDir)).sort();
  if (names.length) {
    const shown = names.slice(0, 5).join(', ') + (names.length > 5 ? ` and ${names.length - 5} more` : '');
    throw new BackupError(`DATA_DIR (${dataDir}) is not empty (it holds ${shown}); a restore only goes into an empty DATA_DIR, so nothing is overwritten. Move those away or choose another DATA_DIR`);
  }
}

/**
 * Where to unpack: a new folder beside DATA_DIR, renamed into its place at the end (one step). When
 * DATA_DIR is a mount point (a volume: it cannot be renamed over), inside it, its entries moved up
 * at the end. Either way a failed restore leaves DATA_DIR as it was.
 */
async function stagingFor(dataDir: string): Promise<{ dir: string; commit(): Promise<void>; discard(): Promise<void> }> {
  const parent = path.dirname(dataDir);
  await fsp.mkdir(parent, { recursive: true });
  const existing = await fsp.stat(dataDir).catch(() => undefined);
  const mountPoint = existing !== undefined && existing.dev !== (await fsp.stat(parent)).dev;
  const dir = await fsp.mkdtemp(path.join(mountPoint ? dataDir : parent, RESTORE_STAGING_PREFIX));
  // The restored DATA_DIR keeps the permissions of the empty one it replaces (mkdtemp makes 0700).
  if (existing && !mountPoint) await fsp.chmod(dir, existing.mode & 0o7777);
  return {
    dir,
    async commit() {
      if (mountPoint) {
        for (const name of await fsp.readdir(dir)) await fsp.rename(path.join(dir, name), path.join(dataDir, name));
        await fsp.rmdir(dir);
        await fsyncDir(dataDir);
      } else {
        // Over an empty DATA_DIR or none: rename(2) replaces an empty directory.
        await refuseUnlessEmpty(dataDir);
        await fsp.rename(dir, dataDir);
        await fsyncDir(parent);
      }
    },
    discard: () => fsp.rm(dir, { recursive: true, force: true }),
  };
}

interface Unpacked {
  label: BackupLabel;
  files: { count: number; bytes: number };
}

/**
 * Reads the archive once: the label first (format and schema checked before anything is unpacked),
 * every entry written under `staging` with its SHA-256, then the manifest and SHA256SUMS checked
 * against what was actually read.
 */
async function unpack(source: string, where: { staging: string; databaseTarget: string | undefined; databaseEngine: 'sqlite' | 'postgresql' }): Promise<Unpacked> {
  // The migrations this build knows (a backup naming others comes from a newer build).
  const known = await migrationSource.getMigrations([]);
  const seen = new Map<string, ManifestEntry>();
  let label: BackupLabel | undefined;
  let labelSha: string | undefined;
  let manifest: { value: BackupManifest; sha256: string } | undefined;
  let sums: Map<string, string> | undefined;

  const extract = tar.extract();
  extract.on('entry', (header, body, next) => {
    const name = header.name;
    const entry = async () => {
      if (sums) throw damaged(`an entry (${name}) follows ${SUMS_ENTRY}, the last one`);
      if (header.type !== 'file') throw damaged(`it holds ${name}, a ${header.type ?? 'special'} entry, where a backup has only files`);
      if (seen.has(name) || name === LABEL_ENTRY && label) throw damaged(`${name} is in it twice`);
      if (!label && name !== LABEL_ENTRY) throw damaged(`it does not start with ${LABEL_ENTRY}`);
      if (name === LABEL_ENTRY) {
        const bytes = await readAll(body, MAX_LABEL_BYTES, name);
        label = checkLabel(bytes, where.databaseEngine, known);
        labelSha = sha256(bytes);
      } else if (name === MANIFEST_ENTRY) {
        if (manifest) throw damaged(`${name} is in it twice`);
        const bytes = await readAll(body, MAX_INDEX_BYTES, name);
        manifest = { value: parseJson(bytes, manifestSchema, name), sha256: sha256(bytes) };
      } else if (name === SUMS_ENTRY) {
        sums = parseSums((await readAll(body, MAX_INDEX_BYTES, name)).toString('utf8'));
        if (!sums) throw damaged(`${SUMS_ENTRY} is not a list of checksums`);
      } else {
        if (manifest) throw damaged(`an entry (${name}) follows ${MANIFEST_ENTRY}`);
        const target = targetOf(name, where);
        await fsp.mkdir(path.dirname(target), { recursive: true });
        const digest = crypto.createHash('sha256');
        let size = 0;
        const tap = new Transform({
          transform(chunk: Buffer, _enc, done) {
            digest.update(chunk);
            size += chunk.length;
            done(null, chunk);
          },
        });
        await pipeline(body, tap, fs.createWriteStream(target, { flags: 'wx', mode: (header.mode ?? 0o644) & 0o777 }));
        await fsyncFile(target);
        seen.set(name, { path: name, size, sha256: digest.digest('hex') });
      }
    };
    entry().then(() => next(), (err: Error) => next(err));
  });

  try {
    await pipeline(fs.createReadStream(source), zlib.createGunzip(), extract);
  } catch (err) {
    if (err instanceof BackupError) throw err;
    const e = err as NodeJS.ErrnoException;
    if (e.code === 'EACCES' || e.code === 'ENOSPC' || e.code === 'EDQUOT' || e.code === 'EROFS') throw new BackupError(`The restored files could not be written (${e.message}); nothing was restored and DATA_DIR is as it was`);
    if (e.code === 'Z_BUF_ERROR') throw damaged('it ends early: truncated');
    if (typeof e.code === 'string' && e.code.startsWith('Z_')) throw damaged(`it does not decompress: ${e.message}`);
    if (/Unexpected end of data/i.test(e.message)) throw damaged('it ends in the middle of an entry: truncated');
    if (/Invalid tar header/i.test(e.message)) throw damaged('an entry header is not valid');
    throw err;
  }
  return { label: verify({ label, labelSha, manifest, sums, seen }), files: countFiles(seen) };
}

function checkLabel(bytes: Buffer, databaseEngine: 'sqlite' | 'postgresql', known: string[]): BackupLabel {
  const peek = parseJsonLoose(bytes);
  if (peek?.format !== BACKUP_FORMAT) throw new BackupError('This file is not a Presswork backup (its first entry is not a Presswork backup label); nothing was restored');
  if (typeof peek.formatVersion === 'number' && peek.formatVersion > BACKUP_FORMAT_VERSION) {
    throw new BackupError(`This backup was written in a newer backup format (${peek.formatVersion}) than this Presswork reads (${BACKUP_FORMAT_VERSION}); restore it with the Presswork that took it or a newer one`);
  }
  const label = parseJson(bytes, labelSchema, LABEL_ENTRY);
  const unknown = unknownMigrations(label, known);
  if (unknown.length) {
    throw new BackupError(
      `This backup was taken by a newer Presswork (${label.app.version}): its database has migrations this build does not know (${unknown.join(', ')}). Restore it with that version or a newer one; nothing was restored`,
    );
  }
  if (label.database === 'sqlite' && databaseEngine === 'postgresql') {
    throw new BackupError('This backup holds a SQLite database, but DATABASE_URL names a PostgreSQL database. Restore it without DATABASE_URL (SQLite in DATA_DIR); nothing was restored');
  }
  if (label.database === 'postgresql' && databaseEngine === 'sqlite') {
    throw new BackupError('This backup holds the files only (its database was PostgreSQL: pg_dump\'s). Restore the database with pg_restore, then this backup with DATABASE_URL set to it; nothing was restored');
  }
  return label;
}

function targetOf(name: string, where: { staging: string; databaseTarget: string | undefined }): string {
  if (name === DATABASE_ENTRY) {
    if (!where.databaseTarget) throw damaged(`it holds ${DATABASE_ENTRY} though its label says the database was PostgreSQL`);
    return where.databaseTarget;
  }
  if (!isSafeDataEntry(name)) throw damaged(`it holds ${JSON.stringify(name)}, a path a Presswork backup never writes`);
  const target = path.join(where.staging, ...name.split('/').slice(1));
  if (target === where.databaseTarget) throw damaged(`${name} would overwrite the database`);
  return target;
}

function verify(o: { label?: BackupLabel; labelSha?: string; manifest?: { value: BackupManifest; sha256: string }; sums?: Map<string, string>; seen: Map<string, ManifestEntry> }): BackupLabel {
  const { label, manifest, sums, seen } = o;
  if (!label) throw damaged('it holds no entry at all');
  if (!manifest) throw damaged(`${MANIFEST_ENTRY} is missing: the archive is truncated`);
  if (!sums) throw damaged(`${SUMS_ENTRY} is missing: the archive is truncated`);
  if (JSON.stringify(labelOf(manifest.value)) !== JSON.stringify(labelOf(label))) throw damaged(`${MANIFEST_ENTRY} and ${LABEL_ENTRY} disagree`);
  // Every checksum listed matches what was read, and nothing read is unlisted.
  const read = new Map<string, string>([[LABEL_ENTRY, o.labelSha!], [MANIFEST_ENTRY, manifest.sha256], ...[...seen].map(([k, v]) => [k, v.sha256] as [string, string])]);
  for (const [p, sha] of sums) {
    if (!read.has(p)) throw damaged(`${p} is listed in ${SUMS_ENTRY} but not in the archive`);
    if (read.get(p) !== sha) throw damaged(`${p} does not match its checksum`);
  }
  for (const p of read.keys()) if (!sums.has(p)) throw damaged(`${p} has no checksum in ${SUMS_ENTRY}`);
  // And the manifest names exactly those entries, with their sizes.
  const listed = new Map(manifest.value.entries.map((e) => [e.path, e]));
  if (listed.size !== manifest.value.entries.length) throw damaged(`${MANIFEST_ENTRY} lists an entry twice`);
  for (const [p, e] of listed) {
    const got = seen.get(p);
    if (!got) throw damaged(`${p} is listed in ${MANIFEST_ENTRY} but not in the archive`);
    if (got.size !== e.size || got.sha256 !== e.sha256) throw damaged(`${p} does not match ${MANIFEST_ENTRY} (size or SHA-256)`);
  }
  for (const p of seen.keys()) if (!listed.has(p)) throw damaged(`${p} is not listed in ${MANIFEST_ENTRY}`);
  if (label.database === 'sqlite' && !seen.has(DATABASE_ENTRY)) throw damaged(`the database (${DATABASE_ENTRY}) is missing`);
  return label;
}

function countFiles(seen: Map<string, ManifestEntry>) {
  let count = 0;
  let bytes = 0;
  for (const e of seen.values()) {
    if (e.path === DATABASE_ENTRY) continue;
    count++;
    bytes += e.size;
  }
  return { count, bytes };
}

async function readAll(body: Readable, limit: number, name: string): Promise<Buffer> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of body) {
    size += (chunk as Buffer).length;
    if (size > limit) throw damaged(`${name} is larger than any backup writes`);
    chunks.push(chunk as Buffer);
  }
  return Buffer.concat(chunks);
}

const sha256 = (bytes: Buffer) => crypto.createHash('sha256').update(bytes).digest('hex');

function parseJsonLoose(bytes: Buffer): Record<string, unknown> | undefined {
  try {
    const v = JSON.parse(bytes.toString('utf8')) as unknown;
    return v && typeof v === 'object' ? (v as Record<string, unknown>) : undefined;
  } catch {
    return undefined;
  }
}

function parseJson<T>(bytes: Buffer, schema: z.ZodType<T>, name: string): T {
  const parsed = schema.safeParse(parseJsonLoose(bytes));
  if (!parsed.success) throw damaged(`${name} is not a valid backup ${name === LABEL_ENTRY ? 'label' : 'manifest'}`);
  return parsed.data;
}
