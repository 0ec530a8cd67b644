// npm run backup -- s3://bucket/key and npm run restore -- s3://bucket/key: the archive kept in a
// bucket (the S3_* settings reach it), never overwritten, restored with every checksum verified.
import { execFile } from 'node:child_process';
import fs from 'node:fs';
import { Readable } from 'node:stream';
import os from 'node:os';
import path from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../src/config';
import { createDb, migrate } from '../src/db';
import { createLogger } from '../src/lib/logger';
import { startScheduledBackups } from '../src/modules/backup';
import { s3Store } from '../src/modules/uploads';
import { testClock } from './harness';
import { startTestS3, type TestS3 } from './s3Server';

let s3: TestS3;
beforeAll(async () => {
  s3 = await startTestS3();
});
afterAll(async () => {
  await s3?.close();
});

const freshDir = (what: string) => fs.mkdtempSync(path.join(os.tmpdir(), `presswork-${what}-`));

/** Not spawnSync: the bucket's server runs in this process and must go on answering. */
const run = (script: string, args: string[], env: Record<string, string>) =>
  new Promise<{ status: number | null; stdout: string; stderr: string }>((resolve) => {
    const child = execFile(
      process.execPath,
      ['--import', 'tsx', `server/src/cli/${script}.ts`, '--', ...args],
      { cwd: path.resolve(import.meta.dirname, '../..'), env: { ...process.env, NODE_ENV: 'test', JWT_SECRET: 'x'.repeat(40), ...env }, encoding: 'utf8' },
      (_err, stdout, stderr) => resolve({ status: child.exitCode, stdout, stderr }),
    );
  });

describe('backups in a bucket', () => {
  it('backup to s3://…, refused a second time under that key; restore from it into an empty DATA_DIR', async () => {
    const dataDir = freshDir('source');
    const db = new Database(path.join(dataDir, 'presswork.sqlite'));
    db.exec("CREATE TABLE sites (id INTEGER PRIMARY KEY, name TEXT); INSERT INTO sites (name) VALUES ('Hope Harbour');");
    db.close();
    fs.mkdirSync(path.join(dataDir, 'files', 'logos'), { recursive: true });
    fs.writeFileSync(path.join(dataDir, 'files', 'logos', 'a.png'), 'a logo');
    // The bucket comes from the address; the S3_* settings give the endpoint and key (S3_BUCKET unset).
    const { S3_BUCKET: _unused, ...bucketSettings } = s3.env();
    const address = `s3://${s3.bucket}/backups/first.tar.gz`;

    const backup = await run('backup', [address], { DATA_DIR: dataDir, ...bucketSettings, STORAGE: 'local' });
    expect(backup.status, backup.stderr).toBe(0);
    expect(backup.stdout).toContain(`Backup written: ${address}`);
    const again = await run('backup', [address], { DATA_DIR: dataDir, ...bucketSettings, STORAGE: 'local' });
    expect(again.status).toBe(1);
    expect(again.stderr).toContain(`${address} already exists`);

    const target = path.join(freshDir('restore'), 'data');
    const restore = await run('restore', [address], { DATA_DIR: target, ...bucketSettings, STORAGE: 'local' });
    expect(restore.status, restore.stderr).toBe(0);
    expect(restore.stdout).toContain('every checksum matched');
    expect(fs.readFileSync(path.join(target, 'files', 'logos', 'a.png'), 'utf8')).toBe('a logo');
    const restored = new Database(path.join(target, 'presswork.sqlite'), { readonly: true });
    expect(restored.prepare('SELECT name FROM sites').all()).toEqual([{ name: 'Hope Harbour' }]);
    restored.close();

    const missing = await run('restore', [`s3://${s3.bucket}/backups/none.tar.gz`], { DATA_DIR: path.join(freshDir('restore'), 'data'), ...bucketSettings });
    expect(missing.status).toBe(1);
    expect(missing.stderr).toMatch(/There is no backup at s3:\/\//);
    expect(missing.stderr).not.toMatch(/\n\s+at /);
  }, 120_000);
});

describe('scheduled backups into a bucket (BACKUP_DIR=s3://bucket/prefix/)', () => {
  it('one per period under the prefix, the newest BACKUP_KEEP kept, other objects left alone; each restores', async () => {
    const dataDir = freshDir('scheduled-source');
    const { S3_BUCKET: _unused, ...bucketSettings } = s3.env();
    const env = { NODE_ENV: 'test', DATA_DIR: dataDir, LOG_LEVEL: 'silent', SEED_DEMO: '0', JWT_SECRET: 'x'.repeat(40), ...bucketSettings, STORAGE: 'local' };
    const config = loadConfig({ ...env, BACKUP_DIR: `s3://${s3.bucket}/nightly/`, BACKUP_EVERY_HOURS: '6', BACKUP_KEEP: '2' });
    expect(config.backups).toMatchObject({ dir: `s3://${s3.bucket}/nightly/`, bucket: { bucket: s3.bucket, endpoint: s3.endpoint } });
    expect(() => loadConfig({ ...env, BACKUP_DIR: `s3://${s3.bucket}/nightly` })).toThrow(/BACKUP_DIR: a bucket is written s3:\/\/my-bucket\/presswork-backups\/ \(ending in \/\)/);
    const db = createDb(config.database);
    await migrate(db);
    fs.mkdirSync(path.join(dataDir, 'files', '1', 'logos'), { recursive: true });
    fs.writeFileSync(path.join(dataDir, 'files', '1', 'logos', 'a.png'), 'a logo');
    const bucket = s3Store({ ...config.backups.bucket!, prefix: '' });
    await bucket.put('nightly/notes.txt', Readable.from(Buffer.from('not ours')));
    const clock = testClock(new Date('2026-11-26T01:30:00Z'));
    const backups = startScheduledBackups({ db, clock, config, log: createLogger('silent') }, { checkEveryMs: 3_600_000 });
    try {
      for (let period = 0; period < 3; period++) {
        const run = await backups.runDue();
        expect(run.ran).toBe(true);
        expect((await backups.runDue()).ran).toBe(false);
        clock.advance(6 * 3_600_000);
      }
      const kept = (await bucket.list('nightly/')).map((f) => f.key);
      expect(kept).toEqual(['nightly/notes.txt', 'nightly/presswork-backup-20261126T073000Z.tar.gz', 'nightly/presswork-backup-20261126T133000Z.tar.gz']);
      const target = path.join(freshDir('scheduled-restore'), 'data');
      const restore = await run('restore', [`s3://${s3.bucket}/nightly/presswork-backup-20261126T133000Z.tar.gz`], { DATA_DIR: target, ...bucketSettings, STORAGE: 'local' });
      expect(restore.status, restore.stderr).toBe(0);
      expect(fs.readFileSync(path.join(target, 'files', '1', 'logos', 'a.png'), 'utf8')).toBe('a logo');
    } finally {
      await backups.stop();
      await db.destroy();
    }
  }, 120_000);
});
