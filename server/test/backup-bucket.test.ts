// npm run backup -- s3://bucket/key and npm run restore -- s3://bucket/key: the archive kept in a
// bucket (the S3_* settings reach it), never overwritten, restored with every checksum verified.
import { execFile } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
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
