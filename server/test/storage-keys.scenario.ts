// Keys per site (`<site id>/<kind>/…`): new files are written there; a file of the former layout is
// still served at its address once storage:migrate has moved it under its site; the sync's drop
// files are read from the bucket with STORAGE=s3.
import { execFile } from 'node:child_process';
import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { Readable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Response } from 'supertest';
import { findSite } from '../src/modules/sites';
import { syncSettingsOf } from '../src/modules/sync';
import { s3Store } from '../src/modules/uploads';
import { fileStoreOf } from '../src/services';
import { createWorld, type TestWorld } from './harness';
import { startTestS3, type TestS3 } from './s3Server';

const binary = (res: Response, cb: (err: Error | null, body: Buffer) => void) => {
  const chunks: Buffer[] = [];
  res.on('data', (c: Buffer) => chunks.push(c));
  res.on('end', () => cb(null, Buffer.concat(chunks)));
};
const PNG = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==', 'base64');

let s3: TestS3;
beforeAll(async () => {
  s3 = await startTestS3();
});
afterAll(async () => {
  await s3?.close();
});
const prefix = () => `k-${crypto.randomBytes(4).toString('hex')}/`;
const bucketAt = (p: string) => s3Store({ bucket: s3.bucket, endpoint: s3.endpoint, region: 'us-east-1', forcePathStyle: true, prefix: p, credentials: { accessKeyId: 'S3RVER', secretAccessKey: 'S3RVER' } });
const row = (w: TestWorld, key: string, contentType: string, size: number, siteId: number | null) =>
  w.db('uploads').insert({ key, content_type: contentType, size, user_id: null, site_id: siteId, created_at: new Date().toISOString() });

describe('files of the former layout, in the bucket', () => {
  it('served at their address from their per-site key; a key nobody recorded stays 404', async () => {
    const p = prefix();
    const w = await createWorld(s3.env(p));
    const bucket = bucketAt(p);
    await row(w, 'logos/1-aa-old.png', 'image/png', PNG.length, w.sites.a);
    await bucket.put(`${w.sites.a}/logos/1-aa-old.png`, Readable.from(PNG));
    const got = await w.request().get('/files/logos/1-aa-old.png').buffer(true).parse(binary);
    expect(got.status).toBe(200);
    expect(Buffer.compare(got.body as Buffer, PNG)).toBe(0);
    // Another module reading it by its address (as a design's artwork) finds it too.
    expect((await w.services.store.read('logos/1-aa-old.png'))?.equals(PNG)).toBe(true);

    // A print file's address the provider was given before: print-files/<site>/… → <site>/print-files/….
    const pdf = Buffer.from('%PDF-1.7 former print file');
    await row(w, `print-files/${w.sites.a}/abc/print-file.pdf`, 'application/pdf', pdf.length, w.sites.a);
    await bucket.put(`${w.sites.a}/print-files/abc/print-file.pdf`, Readable.from(pdf));
    const file = await w.request().get(`/files/print-files/${w.sites.a}/abc/print-file.pdf`).buffer(true).parse(binary);
    expect(file.status).toBe(200);
    expect((file.body as Buffer).toString()).toBe(pdf.toString());

    await bucket.put(`${w.sites.a}/logos/2-bb-nobody.png`, Readable.from(PNG));
    expect((await w.request().get('/files/logos/2-bb-nobody.png')).status).toBe(404);
  });
});

describe('npm run storage:migrate on an install with files of both layouts', () => {
  it('moves the former layout under each file\'s site, keeps per-site keys, copies the drop folders; a re-run copies nothing', async () => {
    const w = await createWorld({ STORAGE: 'local' });
    const files = path.join(w.dataDir, 'files');
    const put = (key: string, bytes: Buffer) => {
      fs.mkdirSync(path.dirname(path.join(files, key)), { recursive: true });
      fs.writeFileSync(path.join(files, key), bytes);
    };
    const old = crypto.randomBytes(3000);
    put('logos/1-aa-old.png', old);
    await row(w, 'logos/1-aa-old.png', 'image/png', old.length, w.sites.b);
    const orphan = crypto.randomBytes(100);
    put('renders/1-cc-nobody.png', orphan);
    const current = crypto.randomBytes(2000);
    put(`${w.sites.a}/designs/2-bb-new.png`, current);
    await row(w, `${w.sites.a}/designs/2-bb-new.png`, 'image/png', current.length, w.sites.a);
    const printed = crypto.randomBytes(5000);
    put(`print-files/${w.sites.a}/tok/print-file.pdf`, printed);
    const site = (await findSite(w.db, w.sites.a))!;
    const dropDir = syncSettingsOf(site, w.config).dropDir;
    fs.mkdirSync(dropDir, { recursive: true });
    fs.writeFileSync(path.join(dropDir, 'export_80_20261101.csv'), 'email\na@example.org\n');
    fs.writeFileSync(path.join(dropDir, 'notes.txt'), 'not a drop file');

    // The command reads the install's database: PostgreSQL's, or a copy of the in-memory SQLite one in a file.
    let databaseUrl: string;
    if (w.config.database.client === 'pg') databaseUrl = w.config.database.url;
    else {
      const file = path.join(w.dataDir, 'presswork.sqlite');
      await w.db.raw('VACUUM INTO ?', [file]);
      databaseUrl = `sqlite:${file}`;
    }
    const p = prefix();
    const run = () =>
      new Promise<{ status: number | null; stdout: string; stderr: string }>((resolve) => {
        const child = execFile(
          process.execPath,
          ['--import', 'tsx', 'server/src/cli/storage-migrate.ts'],
          { cwd: path.resolve(import.meta.dirname, '../..'), env: { ...process.env, NODE_ENV: 'test', DATA_DIR: w.dataDir, DATABASE_URL: databaseUrl, JWT_SECRET: 'x'.repeat(40), ...s3.env(p), STORAGE: 'local' }, encoding: 'utf8' },
          (_err, stdout, stderr) => resolve({ status: child.exitCode, stdout, stderr }),
        );
      });
    const first = await run();
    expect(first.status, first.stderr).toBe(0);
    expect(first.stdout).toContain('Copied 5 file(s)');
    const bucket = bucketAt(p);
    expect((await bucket.read(`${w.sites.b}/logos/1-aa-old.png`))?.equals(old)).toBe(true);
    expect((await bucket.read('shared/renders/1-cc-nobody.png'))?.equals(orphan)).toBe(true);
    expect((await bucket.read(`${w.sites.a}/designs/2-bb-new.png`))?.equals(current)).toBe(true);
    expect((await bucket.read(`${w.sites.a}/print-files/tok/print-file.pdf`))?.equals(printed)).toBe(true);
    expect((await bucket.read(`${w.sites.a}/sync-drop/export_80_20261101.csv`))?.toString()).toBe('email\na@example.org\n');
    expect((await bucket.list(`${w.sites.a}/sync-drop/`)).map((f) => f.key)).toEqual([`${w.sites.a}/sync-drop/export_80_20261101.csv`]);
    expect(await bucket.read('logos/1-aa-old.png')).toBeNull();

    const again = await run();
    expect(again.status, again.stderr).toBe(0);
    expect(again.stdout).toContain('Copied 0 file(s) (0.00 MB), each read back with the same size and SHA-256; 5 already in the bucket.');
  }, 120_000);
});

describe('the sync\'s drop files with STORAGE=s3', () => {
  it('listed and downloaded from <site>/sync-drop/ in the bucket; only names of ours, only the site\'s own', async () => {
    const p = prefix();
    const w = await createWorld(s3.env(p));
    const store = fileStoreOf(w.config);
    await store.put(`${w.sites.a}/sync-drop/export_80_20261101.csv`, Readable.from(Buffer.from('email\na@example.org\n')));
    await store.put(`${w.sites.a}/sync-drop/unsubscribe_20261102.csv`, Readable.from(Buffer.from('email\nb@example.org\n')));
    await store.put(`${w.sites.a}/sync-drop/secret.csv`, Readable.from(Buffer.from('secret')));
    await store.put(`${w.sites.b}/sync-drop/export_80_20261103.csv`, Readable.from(Buffer.from('email\nc@example.org\n')));
    const s = syncSettingsOf((await findSite(w.db, w.sites.a))!, w.config);
    const listed = await w.services.sync.listFiles(s, 'export80');
    expect(listed.map((f) => [f.name, f.day, f.size])).toEqual([['export_80_20261101.csv', '2026-11-01', 20]]);
    expect((await w.services.sync.downloadFile(s, 'export_80_20261101.csv')).toString()).toBe('email\na@example.org\n');
    await expect(w.services.sync.downloadFile(s, 'secret.csv')).rejects.toThrow('No such export file');
    await expect(w.services.sync.downloadFile(s, 'export_80_20261103.csv')).rejects.toThrow('No such export file');
    await expect(w.services.sync.downloadFile(s, '../export_80_20261103.csv')).rejects.toThrow('No such export file');
  });
});
