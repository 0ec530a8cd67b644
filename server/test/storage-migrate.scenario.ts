// npm run storage:migrate: every file of DATA_DIR/files into the bucket, checked, re-runnable.
import { execFile } from 'node:child_process';
import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Readable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../src/config';
import { migrateFiles } from '../src/modules/uploads/migrate';
import { s3Store } from '../src/modules/uploads/s3Store';
import { startTestS3, type TestS3 } from './s3Server';

let s3: TestS3;
beforeAll(async () => {
  s3 = await startTestS3();
});
afterAll(async () => {
  await s3?.close();
});

/** A DATA_DIR whose files folder holds a few files (one large), and a leftover of an unfinished write. */
function installWithFiles() {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'presswork-migrate-'));
  const files: Record<string, Buffer> = {
    'logos/1-aa-logo.png': crypto.randomBytes(2_000),
    'print-files/3/abc/print.pdf': crypto.randomBytes(9 * 1024 * 1024),
    'renders/card-page-1.png': crypto.randomBytes(40_000),
  };
  for (const [key, bytes] of Object.entries(files)) {
    fs.mkdirSync(path.dirname(path.join(dataDir, 'files', key)), { recursive: true });
    fs.writeFileSync(path.join(dataDir, 'files', key), bytes);
  }
  fs.writeFileSync(path.join(dataDir, 'files', 'logos', '1-aa-logo.png.part-123-1700000000000000001'), 'half');
  return { dataDir, folder: path.join(dataDir, 'files'), files };
}

const bucketFor = (prefix: string) => {
  const config = loadConfig({ NODE_ENV: 'test', DATA_DIR: ':memory:', JWT_SECRET: 'x'.repeat(40), ...s3.env(prefix) });
  if (config.storage.kind !== 's3') throw new Error('not s3');
  return s3Store(config.storage);
};

describe('migrating the files folder into the bucket', () => {
  it('copies every file under its key, checked; a second run copies nothing; a differing copy is replaced', async () => {
    const { folder, files } = installWithFiles();
    const bucket = bucketFor('m1');
    const first = await migrateFiles(folder, bucket);
    expect(first).toMatchObject({ copied: 3, alreadyThere: 0, failed: [] });
    expect(first.bytes).toBe(Object.values(files).reduce((n, b) => n + b.length, 0));
    for (const [key, bytes] of Object.entries(files)) expect((await bucket.read(key))?.equals(bytes)).toBe(true);
    expect(await bucket.read('logos/1-aa-logo.png.part-123-1700000000000000001')).toBeNull();

    expect(await migrateFiles(folder, bucket)).toMatchObject({ copied: 0, alreadyThere: 3, failed: [] });

    // A copy of the same size but other bytes (a write cut short elsewhere) is not taken for the file.
    await bucket.put('renders/card-page-1.png', Readable.from(crypto.randomBytes(40_000)));
    expect(await migrateFiles(folder, bucket)).toMatchObject({ copied: 1, alreadyThere: 2 });
    expect((await bucket.read('renders/card-page-1.png'))?.equals(files['renders/card-page-1.png'])).toBe(true);
  }, 60_000);

  it('stopped half-way, a second run finishes the rest', async () => {
    const { folder, files } = installWithFiles();
    const bucket = bucketFor('m2');
    const stop = new AbortController();
    const partial = await migrateFiles(folder, bucket, { signal: stop.signal, onFile: () => stop.abort() });
    expect(partial.copied).toBe(1);
    const rest = await migrateFiles(folder, bucket);
    expect(rest).toMatchObject({ copied: 2, alreadyThere: 1, failed: [] });
    for (const [key, bytes] of Object.entries(files)) expect((await bucket.read(key))?.equals(bytes)).toBe(true);
  }, 60_000);

  it('the command: copies, says how to switch; a bucket it cannot use: exit 1 with the reason', async () => {
    const { dataDir, files } = installWithFiles();
    // Not spawnSync: the bucket's server runs in this process and must go on answering.
    const run = (env: Record<string, string>) =>
      new Promise<{ status: number | null; stdout: string; stderr: string }>((resolve) => {
        const child = execFile(
          process.execPath,
          ['--import', 'tsx', 'server/src/cli/storage-migrate.ts'],
          { cwd: path.resolve(import.meta.dirname, '../..'), env: { ...process.env, NODE_ENV: 'test', DATA_DIR: dataDir, JWT_SECRET: 'x'.repeat(40), STORAGE: 'local', ...env }, encoding: 'utf8' },
          (_err, stdout, stderr) => resolve({ status: child.exitCode, stdout, stderr }),
        );
      });
    const ok = await run({ ...s3.env('m3'), STORAGE: 'local' });
    expect(ok.status, ok.stderr).toBe(0);
    expect(ok.stdout).toContain(`Copied ${Object.keys(files).length} file(s)`);
    expect(ok.stdout).toContain('set STORAGE=s3');
    const again = await run({ ...s3.env('m3'), STORAGE: 'local' });
    expect(again.stdout).toContain(`Copied 0 file(s) (0.00 MB), each read back with the same size and SHA-256; ${Object.keys(files).length} already in the bucket.`);
    const missing = await run({ ...s3.env('m3'), S3_BUCKET: 'no-such-bucket' });
    expect(missing.status).toBe(1);
    expect(missing.stderr).toMatch(/cannot be used: the bucket does not exist \(NoSuchBucket\)/);
    expect(missing.stderr).not.toMatch(/\n\s+at /);
  }, 120_000);
});
