// Backups and restore: a backup restores to the same rows and bytes; a damaged, truncated or edited
// archive, a newer schema and a non-empty DATA_DIR are refused with DATA_DIR left as it was; the
// scheduled backups keep BACKUP_KEEP, take each period once across instances and stop on shutdown.
import { spawnSync } from 'node:child_process';
import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { pipeline } from 'node:stream/promises';
import zlib from 'node:zlib';
import Database from 'better-sqlite3';
import tar from 'tar-stream';
import { afterAll, describe, expect, it } from 'vitest';
import { ConfigError, loadConfig, type Config } from '../src/config';
import { createDb, migrate, type Db } from '../src/db';
import { createLogger } from '../src/lib/logger';
import { BackupError, restoreBackup, startScheduledBackups, writeBackup } from '../src/modules/backup';
import { formatSums, parseSums } from '../src/modules/backup/manifest';
import { testClock } from './harness';
import { createPgDatabase } from './infra';

const root = fs.mkdtempSync(path.join(os.tmpdir(), 'presswork-backup-test-'));
const handles: Db[] = [];
afterAll(async () => {
  for (const db of handles) await db.destroy();
  fs.rmSync(root, { recursive: true, force: true });
});

let counter = 0;
const freshDir = (name: string) => path.join(root, `${name}-${++counter}`);
const configFor = (dataDir: string, env: Record<string, string> = {}): Config =>
  loadConfig({ NODE_ENV: 'test', DATA_DIR: dataDir, LOG_LEVEL: 'silent', SEED_DEMO: '0', ...env }, { leaveDataDir: true });
const sha = (b: Buffer) => crypto.createHash('sha256').update(b).digest('hex');

/** A DATA_DIR as the app leaves it: a migrated SQLite database with rows, uploads, drop files, the generated secret. */
async function businessDataDir(): Promise<{ dataDir: string; config: Config; db: Db }> {
  const dataDir = freshDir('data');
  // Without JWT_SECRET, outside production: the secret is generated into DATA_DIR/jwt-secret (0600).
  const config = loadConfig({ NODE_ENV: 'test', DATA_DIR: dataDir, LOG_LEVEL: 'silent', SEED_DEMO: '0' });
  const db = createDb(config.database);
  handles.push(db);
  await migrate(db);
  const now = new Date().toISOString();
  const [site] = await db('sites').insert({ name: 'Backup shop', slug: 'backup-shop', settings: JSON.stringify({ env: [] }), theme: '{}', created_at: now, updated_at: now }).returning('id');
  const siteId = typeof site === 'object' ? site.id : site;
  for (let i = 0; i < 200; i++) {
    await db('webhook_deliveries').insert({ source: 'shopify', event_id: `evt-${i}`, site_id: siteId, topic: 'orders/create', payload: JSON.stringify({ id: i, note: 'é ✓ '.repeat(i % 7) }), received_at: now });
  }
  const files: Record<string, Buffer> = {
    'files/designs/1795671144031-aa-front.png': crypto.randomBytes(300_000),
    'files/orders/1795671147986-bb-customer-photo.jpg': crypto.randomBytes(5 * 1024 * 1024 + 17),
    'files/print-files/1/0123456789abcdef0123456789abcdef01234567/print-file.pdf': Buffer.from('%PDF-1.7 print file'),
    [`files/renders/${'x'.repeat(120)}-long-name-page-1.png`]: crypto.randomBytes(1000),
    'files/empty.txt': Buffer.alloc(0),
    'adestra-drop/backup-shop/export_80_20261125.csv': Buffer.from('email,first_name\na@example.com,Ann\n'),
  };
  for (const [rel, bytes] of Object.entries(files)) {
    fs.mkdirSync(path.dirname(path.join(dataDir, rel)), { recursive: true });
    fs.writeFileSync(path.join(dataDir, rel), bytes);
  }
  for (const [rel] of Object.entries(files)) await db('uploads').insert({ key: rel.replace(/^files\//, ''), content_type: 'image/png', size: 1, created_at: now }).onConflict('key').ignore();
  return { dataDir, config, db };
}

/** Every file under `dir` (relative path → SHA-256), less what a backup leaves out on purpose. */
function filesUnder(dir: string): Record<string, string> {
  const out: Record<string, string> = {};
  const walk = (d: string) => {
    for (const e of fs.readdirSync(d, { withFileTypes: true })) {
      const full = path.join(d, e.name);
      if (e.isDirectory()) walk(full);
      else if (e.isFile() && !/presswork\.sqlite(-wal|-shm|-journal)?$/.test(e.name) && !/\.part-\d+-\d+$/.test(e.name)) out[path.relative(dir, full)] = sha(fs.readFileSync(full));
    }
  };
  walk(dir);
  return out;
}

/** Every row of every table, for comparing two databases. */
function rowsOf(file: string): Record<string, unknown[]> {
  const db = new Database(file, { readonly: true });
  try {
    const tables = db.prepare("select name from sqlite_master where type = 'table' and name not like 'sqlite_%' order by name").pluck().all() as string[];
    return Object.fromEntries(tables.map((t) => [t, db.prepare(`select * from "${t}" order by rowid`).all()]));
  } finally {
    db.close();
  }
}

/** A listing of a folder (names, recursively): what "left as it was" is checked against. */
function listing(dir: string): string[] {
  if (!fs.existsSync(dir)) return [];
  return fs.readdirSync(dir, { recursive: true, withFileTypes: false }).map(String).sort();
}

interface Entry {
  name: string;
  mode: number;
  body: Buffer;
}

async function readArchive(file: string): Promise<Entry[]> {
  const entries: Entry[] = [];
  const extract = tar.extract();
  extract.on('entry', (header, stream, next) => {
    const chunks: Buffer[] = [];
    stream.on('data', (c: Buffer) => chunks.push(c));
    stream.on('end', () => {
      entries.push({ name: header.name, mode: header.mode ?? 0o644, body: Buffer.concat(chunks) });
      next();
    });
  });
  await pipeline(fs.createReadStream(file), zlib.createGunzip(), extract);
  return entries;
}

async function writeArchive(file: string, entries: Entry[]): Promise<string> {
  const pack = tar.pack();
  const done = pipeline(pack, zlib.createGzip(), fs.createWriteStream(file));
  for (const e of entries) await new Promise<void>((resolve, reject) => pack.entry({ name: e.name, mode: e.mode, size: e.body.length }, e.body, (err) => (err ? reject(err) : resolve())));
  pack.finalize();
  await done;
  return file;
}

/** The archive's entries changed by `edit`, written as a new archive; `resum` recomputes SHA256SUMS as a forger would. */
async function altered(file: string, edit: (entries: Entry[]) => Entry[], opts: { resum?: boolean } = {}): Promise<string> {
  let entries = edit(await readArchive(file));
  if (opts.resum) {
    const sums = parseSums(entries.find((e) => e.name === 'SHA256SUMS')!.body.toString())!;
    const listed = [...sums.keys()].map((p) => ({ path: p, sha256: sha(entries.find((e) => e.name === p)?.body ?? Buffer.alloc(0)) }));
    entries = entries.map((e) => (e.name === 'SHA256SUMS' ? { ...e, body: Buffer.from(formatSums(listed)) } : e));
  }
  return writeArchive(`${file}.altered-${++counter}.tar.gz`, entries);
}

const editJson = (entries: Entry[], name: string, change: (value: Record<string, unknown>) => void): Entry[] =>
  entries.map((e) => {
    if (e.name !== name) return e;
    const value = JSON.parse(e.body.toString()) as Record<string, unknown>;
    change(value);
    return { ...e, body: Buffer.from(JSON.stringify(value, null, 2)) };
  });

describe('backup and restore', () => {
  let source: Awaited<ReturnType<typeof businessDataDir>>;
  let archive: string;

  it('restores the database rows and every file byte for byte, with the checksums the manifest gives', async () => {
    source = await businessDataDir();
    // Left out on purpose: an upload still being written, a symlink (not a regular file).
    fs.writeFileSync(path.join(source.dataDir, 'files/designs/1795671144031-cc.png.part-123-456'), 'half an upload');
    fs.symlinkSync('/etc/hostname', path.join(source.dataDir, 'files/a-link'));
    archive = path.join(freshDir('backups'), 'presswork.tar.gz');
    const summary = await writeBackup(source.config, archive);
    expect(summary).toMatchObject({ file: archive, database: { engine: 'sqlite' }, skipped: ['files/a-link'] });
    expect(summary.files.count).toBe(7); // six files and jwt-secret
    expect(fs.existsSync(`${archive}.partial`)).toBe(false);

    const target = freshDir('restored');
    const restored = await restoreBackup(configFor(target), archive);
    expect(restored.database).toBe(path.join(target, 'presswork.sqlite'));
    expect(restored.label.schema.latest).toBe(summary.schemaLatest);

    // Rows: every table, every column, the same (the source's WAL included).
    expect(rowsOf(path.join(target, 'presswork.sqlite'))).toEqual(rowsOf(source.config.database.client === 'sqlite' ? source.config.database.filename : ''));
    // Files: the same paths and bytes, less the half-written upload and the symlink.
    const expected = filesUnder(source.dataDir);
    delete expected['files/a-link'];
    expect(filesUnder(target)).toEqual(expected);
    expect(fs.statSync(path.join(target, 'jwt-secret')).mode & 0o777).toBe(0o600);
    // The manifest lists every entry with its size and SHA-256, and those are the restored bytes.
    const entries = await readArchive(archive);
    expect(entries.map((e) => e.name).slice(0, 2)).toEqual(['backup.json', 'database/presswork.sqlite']);
    expect(entries.map((e) => e.name).slice(-2)).toEqual(['manifest.json', 'SHA256SUMS']);
    const manifest = JSON.parse(entries.find((e) => e.name === 'manifest.json')!.body.toString()) as { entries: Array<{ path: string; size: number; sha256: string }> };
    for (const e of manifest.entries.filter((m) => m.path.startsWith('data/'))) {
      const bytes = fs.readFileSync(path.join(target, e.path.slice('data/'.length)));
      expect({ path: e.path, size: bytes.length, sha256: sha(bytes) }).toEqual(e);
    }
    const sums = parseSums(entries.at(-1)!.body.toString())!;
    expect(sums.get('manifest.json')).toBe(sha(entries.find((e) => e.name === 'manifest.json')!.body));
    expect(sums.size).toBe(entries.length - 1);
  });

  it('takes a consistent copy while the app writes: whole transactions, everything committed before it started', async () => {
    const { config, db } = source;
    let writing = true;
    let committed = 0;
    const writer = (async () => {
      for (let i = 0; writing; i++) {
        // Two rows in one transaction: a consistent copy has both or neither.
        await db.transaction(async (trx) => {
          await trx('webhook_deliveries').insert({ source: 'pair-a', event_id: `w-${i}`, topic: 't', payload: '{}', received_at: new Date().toISOString() });
          await trx('webhook_deliveries').insert({ source: 'pair-b', event_id: `w-${i}`, topic: 't', payload: '{}', received_at: new Date().toISOString() });
        });
        committed = i + 1;
        // A busy app, not a loop that starves the event loop (each commit waits for its fsync).
        await new Promise((r) => setTimeout(r, 1));
      }
    })();
    while (committed < 50) await new Promise((r) => setTimeout(r, 5));
    const before = committed;
    const file = path.join(freshDir('backups'), 'busy.tar.gz');
    await writeBackup(config, file);
    writing = false;
    await writer;
    const target = freshDir('restored');
    await restoreBackup(configFor(target), file);
    const copy = new Database(path.join(target, 'presswork.sqlite'), { readonly: true });
    const count = (s: string) => (copy.prepare('select count(*) n from webhook_deliveries where source = ?').get(s) as { n: number }).n;
    const [a, b] = [count('pair-a'), count('pair-b')];
    expect(copy.pragma('integrity_check', { simple: true })).toBe('ok');
    copy.close();
    expect(a).toBe(b);
    expect(a).toBeGreaterThanOrEqual(before);
    expect(a).toBeLessThanOrEqual(committed);
  });

  describe('refuses a damaged or edited archive, leaving DATA_DIR as it was', () => {
    const refused = async (file: string, why: RegExp) => {
      const target = freshDir('restored');
      fs.mkdirSync(target); // an empty DATA_DIR, as prepared for a restore
      const parent = path.dirname(target);
      const before = listing(parent);
      const err = await restoreBackup(configFor(target), file).then(
        () => undefined,
        (e: unknown) => e,
      );
      expect(err).toBeInstanceOf(BackupError);
      expect((err as Error).message).toMatch(why);
      expect(listing(target)).toEqual([]);
      expect(listing(parent), 'nothing left beside DATA_DIR').toEqual(before);
    };

    it('one byte flipped in the middle', async () => {
      const bytes = fs.readFileSync(archive);
      for (const at of [Math.floor(bytes.length / 2), Math.floor(bytes.length / 5)]) {
        const copy = Buffer.from(bytes);
        copy[at] ^= 0x10;
        const file = path.join(path.dirname(archive), `flipped-${at}.tar.gz`);
        fs.writeFileSync(file, copy);
        await refused(file, /damaged/);
      }
    });

    it('truncated, cut in the middle or after an entry', async () => {
      const bytes = fs.readFileSync(archive);
      const cut = path.join(path.dirname(archive), 'cut.tar.gz');
      fs.writeFileSync(cut, bytes.subarray(0, Math.floor(bytes.length * 0.6)));
      await refused(cut, /truncated/);
      // A complete gzip of the first entries only: no manifest.
      await refused(await altered(archive, (es) => es.slice(0, 4)), /manifest\.json is missing: the archive is truncated/);
      const empty = path.join(path.dirname(archive), 'empty.tar.gz');
      fs.writeFileSync(empty, '');
      await refused(empty, /damaged/);
    });

    it('an entry removed, or one added', async () => {
      await refused(await altered(archive, (es) => es.filter((e) => !e.name.startsWith('data/files/designs/'))), /data\/files\/designs\/.* (is listed in SHA256SUMS but not in the archive|is listed in manifest\.json but not in the archive)/);
      await refused(await altered(archive, (es) => es.filter((e) => e.name !== 'database/presswork.sqlite')), /database\/presswork\.sqlite/);
      const extra = (name: string) => (es: Entry[]) => [...es.slice(0, 3), { name, mode: 0o644, body: Buffer.from('extra') }, ...es.slice(3)];
      await refused(await altered(archive, extra('data/files/smuggled.png')), /data\/files\/smuggled\.png has no checksum/);
      await refused(await altered(archive, extra('data/../../escaped')), /a path a Presswork backup never writes/);
      await refused(await altered(archive, extra('/etc/evil')), /a path a Presswork backup never writes/);
    });

    it('the manifest or a file edited, also with SHA256SUMS recomputed', async () => {
      const bumpSize = (es: Entry[]) =>
        editJson(es, 'manifest.json', (m) => {
          const first = (m.entries as Array<{ size: number }>)[1];
          first.size += 1;
        });
      await refused(await altered(archive, bumpSize), /manifest\.json does not match its checksum/);
      await refused(await altered(archive, bumpSize, { resum: true }), /does not match manifest\.json/);
      await refused(await altered(archive, (es) => editJson(es, 'manifest.json', (m) => void (m.createdAt = '2020-01-01T00:00:00.000Z')), { resum: true }), /manifest\.json and backup\.json disagree/);
      const editFile = (es: Entry[]) => es.map((e) => (e.name.endsWith('.csv') ? { ...e, body: Buffer.from('email\nmallory@example.com\n') } : e));
      await refused(await altered(archive, editFile), /export_80_20261125\.csv does not match its checksum/);
      await refused(await altered(archive, editFile, { resum: true }), /export_80_20261125\.csv does not match manifest\.json/);
    });

    it('not a Presswork backup', async () => {
      await refused(await writeArchive(path.join(path.dirname(archive), 'other.tar.gz'), [{ name: 'backup.json', mode: 0o644, body: Buffer.from('{"hello":1}') }]), /not a Presswork backup/);
      await refused(await altered(archive, (es) => es.slice(1)), /does not start with backup\.json/);
    });

    it('a backup of a newer schema than this build knows', async () => {
      const future = (es: Entry[]) =>
        ['backup.json', 'manifest.json'].reduce(
          (acc, name) => editJson(acc, name, (v) => void (v.schema = { migrations: [...(v.schema as { migrations: string[] }).migrations, '20991231_999_future'], latest: '20991231_999_future' })),
          es,
        );
      await refused(await altered(archive, future, { resum: true }), /taken by a newer Presswork .*20991231_999_future/);
      const newerFormat = (es: Entry[]) => editJson(es, 'backup.json', (v) => void (v.formatVersion = 2));
      await refused(await altered(archive, newerFormat, { resum: true }), /newer backup format \(2\)/);
    });
  });

  it('refuses a DATA_DIR that is not empty, naming what is there, and changes nothing', async () => {
    const target = freshDir('busy');
    fs.mkdirSync(path.join(target, 'files'), { recursive: true });
    fs.writeFileSync(path.join(target, 'presswork.sqlite'), 'the business');
    await expect(restoreBackup(configFor(target), archive)).rejects.toThrow(/DATA_DIR \(.*\) is not empty \(it holds files, presswork\.sqlite\)/);
    expect(fs.readFileSync(path.join(target, 'presswork.sqlite'), 'utf8')).toBe('the business');
    expect(listing(target)).toEqual(['files', 'presswork.sqlite']);
  });

  it('puts the database where DATABASE_URL=sqlite:<file> says, outside DATA_DIR, and never over one', async () => {
    const target = freshDir('restored');
    const elsewhere = path.join(freshDir('db'), 'shop.sqlite');
    const restored = await restoreBackup(configFor(target, { DATABASE_URL: `sqlite:${elsewhere}` }), archive);
    expect(restored.database).toBe(elsewhere);
    expect(fs.existsSync(path.join(target, 'presswork.sqlite'))).toBe(false);
    expect(rowsOf(elsewhere).webhook_deliveries).toHaveLength(200);
    const again = freshDir('restored');
    await expect(restoreBackup(configFor(again, { DATABASE_URL: `sqlite:${elsewhere}` }), archive)).rejects.toThrow(/shop\.sqlite \(DATABASE_URL\) already exists/);
    expect(fs.existsSync(again)).toBe(false);
  });

  it('refuses to overwrite a file, to write inside DATA_DIR, or to back up a DATA_DIR without a database', async () => {
    await expect(writeBackup(source.config, archive)).rejects.toThrow(/already exists/);
    await expect(writeBackup(source.config, path.join(source.dataDir, 'b.tar.gz'))).rejects.toThrow(/must be outside DATA_DIR/);
    await expect(writeBackup(configFor(freshDir('nothing')), path.join(freshDir('backups'), 'x.tar.gz'))).rejects.toThrow(/does not exist/);
  });

  it('the commands: a sentence and exit 1 when refused, no stack', () => {
    const run = (script: string, args: string[], env: Record<string, string>) =>
      spawnSync(process.execPath, ['--import', 'tsx', `server/src/cli/${script}.ts`, ...args], { cwd: path.resolve(import.meta.dirname, '../..'), env: { ...process.env, NODE_ENV: 'test', ...env }, encoding: 'utf8' });
    const restore = run('restore', ['--', archive], { DATA_DIR: source.dataDir });
    expect(restore.status).toBe(1);
    expect(restore.stderr).toMatch(/^restore: DATA_DIR \(.*\) is not empty/);
    expect(restore.stderr).not.toMatch(/\n\s+at /);
    const usage = run('backup', [], { DATA_DIR: source.dataDir });
    expect(usage.status).toBe(2);
    expect(usage.stderr).toMatch(/Usage: npm run backup -- <file>/);
    const file = path.join(freshDir('backups'), 'cli.tar.gz');
    const backup = run('backup', ['--', file], { DATA_DIR: source.dataDir });
    expect(backup.stdout).toMatch(/^Backup written: .*cli\.tar\.gz/);
    expect(backup.status).toBe(0);
  });
});

describe('settings', () => {
  it('BACKUP_DIR, BACKUP_EVERY_HOURS, BACKUP_KEEP: defaults and refusals naming the setting', () => {
    const dataDir = freshDir('settings');
    expect(configFor(dataDir).backups).toEqual({ dir: undefined, everyHours: 24, keep: 7 });
    expect(configFor(dataDir, { BACKUP_DIR: '/var/backups/presswork', BACKUP_EVERY_HOURS: '6', BACKUP_KEEP: '28' }).backups).toEqual({ dir: '/var/backups/presswork', everyHours: 6, keep: 28 });
    expect(() => configFor(dataDir, { BACKUP_DIR: path.join(dataDir, 'backups') })).toThrow(new ConfigError('BACKUP_DIR must be outside DATA_DIR'));
    expect(() => configFor(dataDir, { BACKUP_EVERY_HOURS: '0.1' })).toThrow(/BACKUP_EVERY_HOURS: must be at least 0\.25/);
    expect(() => configFor(dataDir, { BACKUP_KEEP: '0' })).toThrow(/BACKUP_KEEP/);
  });

  it('the commands read the settings without creating DATA_DIR or its secret', () => {
    const dataDir = freshDir('untouched');
    configFor(dataDir);
    expect(fs.existsSync(dataDir)).toBe(false);
  });
});

describe('scheduled backups', () => {
  it('one per period, the newest BACKUP_KEEP kept, other files left alone', async () => {
    const { dataDir, db } = await businessDataDir();
    const backupDir = freshDir('scheduled');
    fs.mkdirSync(backupDir);
    fs.writeFileSync(path.join(backupDir, 'notes.txt'), 'not ours');
    const config = configFor(dataDir, { BACKUP_DIR: backupDir, BACKUP_EVERY_HOURS: '6', BACKUP_KEEP: '3' });
    const clock = testClock(new Date('2026-11-26T01:30:00Z'));
    const backups = startScheduledBackups({ db, clock, config, log: createLogger('silent') }, { checkEveryMs: 3_600_000 });
    try {
      const taken: string[] = [];
      for (let period = 0; period < 5; period++) {
        const run = await backups.runDue();
        expect(run.ran).toBe(true);
        if (run.ran) taken.push(path.basename(run.summary.file));
        // Later in the same period: already taken.
        clock.advance(2 * 3_600_000);
        expect((await backups.runDue()).ran).toBe(false);
        clock.advance(4 * 3_600_000);
      }
      expect(taken[0]).toBe('presswork-backup-20261126T013000Z.tar.gz');
      expect(fs.readdirSync(backupDir).sort()).toEqual([...taken.slice(-3), 'notes.txt'].sort());
      // Each is a whole backup.
      await restoreBackup(configFor(freshDir('restored')), path.join(backupDir, taken.at(-1)!));
      const lease = await db('job_leases').where({ name: 'backup' }).first();
      expect(lease).toMatchObject({ last_status: 'success', last_slot: '2026-11-27T00:00:00.000Z' });
    } finally {
      await backups.stop();
    }
  });

  it('never two at once, and one per period across instances', async () => {
    const { dataDir, db } = await businessDataDir();
    const backupDir = freshDir('scheduled');
    const config = configFor(dataDir, { BACKUP_DIR: backupDir, BACKUP_EVERY_HOURS: '1', BACKUP_KEEP: '10' });
    const clock = testClock(new Date('2026-11-26T10:15:00Z'));
    const deps = { db, clock, config, log: createLogger('silent') };
    const here = startScheduledBackups(deps, { checkEveryMs: 3_600_000 });
    const there = startScheduledBackups(deps, { checkEveryMs: 3_600_000 });
    try {
      const runs = await Promise.all([here.runDue(), here.runDue(), there.runDue()]);
      expect(runs.filter((r) => r.ran)).toHaveLength(1);
      clock.advance(3_600_000);
      const next = await Promise.all([there.runDue(), here.runDue()]);
      expect(next.filter((r) => r.ran)).toHaveLength(1);
      expect(fs.readdirSync(backupDir)).toHaveLength(2);
    } finally {
      await here.stop();
      await there.stop();
    }
  });

  it('stop() ends a backup under way without leaving a file, and no backup runs after it', async () => {
    const { dataDir, db } = await businessDataDir();
    const backupDir = freshDir('scheduled');
    const config = configFor(dataDir, { BACKUP_DIR: backupDir });
    const backups = startScheduledBackups({ db, clock: testClock(), config, log: createLogger('silent') }, { checkEveryMs: 3_600_000 });
    const run = backups.runDue();
    await backups.stop();
    await expect(run).rejects.toThrow(/stopped before it (started|finished)/);
    expect(fs.existsSync(backupDir) ? fs.readdirSync(backupDir) : []).toEqual([]);
    expect(await db('job_leases').where({ name: 'backup' }).first()).toMatchObject({ last_status: 'failed', holder: null });
    expect(await backups.runDue()).toEqual({ ran: false });
  });
});

describe.runIf(process.env.TEST_DATABASE_URL)('PostgreSQL: the files only (the database is pg_dump\'s)', () => {
  it('backs up and restores DATA_DIR\'s files with the schema level, and refuses to mix engines', async () => {
    const pg = await createPgDatabase(process.env.TEST_DATABASE_URL!, 'pw_backup');
    try {
      const dataDir = freshDir('pgdata');
      fs.mkdirSync(path.join(dataDir, 'files/designs'), { recursive: true });
      fs.writeFileSync(path.join(dataDir, 'files/designs/a.png'), crypto.randomBytes(1000));
      const config = configFor(dataDir, { DATABASE_URL: pg.url, JWT_SECRET: 'x'.repeat(40) });
      const db = createDb(config.database);
      await migrate(db);
      await db.destroy();
      const file = path.join(freshDir('backups'), 'files-only.tar.gz');
      const summary = await writeBackup(config, file);
      expect(summary.database).toEqual({ engine: 'postgresql' });
      expect(summary.schemaLatest).toMatch(/^\d{8}_/);
      expect((await readArchive(file)).map((e) => e.name)).toEqual(['backup.json', 'data/files/designs/a.png', 'manifest.json', 'SHA256SUMS']);
      const target = freshDir('restored');
      expect((await restoreBackup(configFor(target, { DATABASE_URL: pg.url, JWT_SECRET: 'x'.repeat(40) }), file)).database).toBeUndefined();
      expect(filesUnder(target)).toEqual(filesUnder(dataDir));
      await expect(restoreBackup(configFor(freshDir('restored')), file)).rejects.toThrow(/holds the files only .*pg_restore/);
      const sqlite = await businessDataDir();
      const sqliteArchive = path.join(freshDir('backups'), 'sqlite.tar.gz');
      await writeBackup(sqlite.config, sqliteArchive);
      await expect(restoreBackup(configFor(freshDir('restored'), { DATABASE_URL: pg.url, JWT_SECRET: 'x'.repeat(40) }), sqliteArchive)).rejects.toThrow(/holds a SQLite database, but DATABASE_URL names a PostgreSQL database/);
    } finally {
      await pg.drop();
    }
  });
});

