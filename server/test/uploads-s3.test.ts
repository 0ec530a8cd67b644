// Uploads with files in a bucket: get-upload-url answers a presigned S3 PUT (type and length
// signed), the file is checked on its first read before anything uses it, a refused file is
// removed; and the same size binding on the server's own signed link (STORAGE=local).
import crypto from 'node:crypto';
import { Readable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Response } from 'supertest';
import { bearer, createWorld, type TestWorld } from './harness';
import { startTestS3, type TestS3 } from './s3Server';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import supertest from 'supertest';
import { createApp } from '../src/app';
import { loadConfig } from '../src/config';
import { createLogger } from '../src/lib/logger';
import { createServices, fileStoreOf } from '../src/services';
import { syncDropPrefix } from '../src/modules/uploads';
import { writeEnvValue } from '../src/modules/sync/siteSettings';
import { demoSyncSimulators, RE_SIMULATOR_PATH } from '../simulators/syncDemo';

const PNG = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==', 'base64');

const binary = (res: Response, cb: (err: Error | null, body: Buffer) => void) => {
  const chunks: Buffer[] = [];
  res.on('data', (c: Buffer) => chunks.push(c));
  res.on('end', () => cb(null, Buffer.concat(chunks)));
};

let s3: TestS3;
beforeAll(async () => {
  s3 = await startTestS3();
});
afterAll(async () => {
  await s3?.close();
});

const prefix = () => `t-${crypto.randomBytes(4).toString('hex')}`;

describe('uploads into the bucket (STORAGE=s3)', () => {
  let w: TestWorld;
  beforeAll(async () => {
    w = await createWorld(s3.env(prefix()));
  });

  const grant = (body: Record<string, unknown>) => w.request().post('/api/users/me/get-upload-url').set(bearer(w.tokens.userA)).send(body);
  const link = async (contentLength = PNG.length, contentType = 'image/png') => {
    const res = await grant({ serverSidePath: 'logos/My Logo.png', contentType, contentLength });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    return { url: res.body.data as string, fileUrl: new URL(res.headers['x-file-url']).pathname };
  };
  const putTo = (url: string, body: Buffer, contentType = 'image/png') => fetch(url, { method: 'PUT', body: new Uint8Array(body), headers: { 'Content-Type': contentType } });
  const getFile = (fileUrl: string) => w.request().get(fileUrl).buffer(true).parse(binary);

  it('the link is a presigned PUT into the bucket, with type and length signed, living UPLOAD_URL_TTL_SECONDS', async () => {
    const { url, fileUrl } = await link();
    const u = new URL(url);
    expect(u.origin).toBe(s3.endpoint);
    expect(u.pathname).toMatch(new RegExp(`^/${s3.bucket}/t-[0-9a-f]{8}/incoming/${w.sites.a}/logos/\\d+-[0-9a-f]{24}-My-Logo\\.png$`));
    expect(u.searchParams.get('X-Amz-SignedHeaders')).toBe('content-length;content-type;host');
    expect(u.searchParams.get('X-Amz-Expires')).toBe(String(w.config.uploads.urlTtlSeconds));
    expect(fileUrl).toMatch(new RegExp(`^/files/${w.sites.a}/logos/\\d+-[0-9a-f]{24}-My-Logo\\.png$`));
  });

  it('without the size, or larger than UPLOAD_MAX_BYTES → 400', async () => {
    const none = await grant({ serverSidePath: 'a.png', contentType: 'image/png' });
    expect(none.status).toBe(400);
    expect(none.body.error).toMatch(/contentLength/);
    const huge = await grant({ serverSidePath: 'a.png', contentType: 'image/png', contentLength: w.config.uploads.maxBytes + 1 });
    expect(huge.status).toBe(400);
  });

  it('PUT then read at the address the grant gave: the checked file, its row, nothing left under incoming/', async () => {
    const { url, fileUrl } = await link();
    expect((await putTo(url, PNG)).status).toBe(200);
    const key = fileUrl.slice('/files/'.length);
    // Not usable under its final key, nor readable where it landed, before the check.
    expect(await w.db('uploads').where({ key }).first()).toBeUndefined();
    expect(await w.services.store.read(`incoming/${key}`)).toBeNull();
    const file = await getFile(fileUrl);
    expect(file.status).toBe(200);
    expect(file.headers['content-type']).toBe('image/png');
    expect(Buffer.compare(file.body as Buffer, PNG)).toBe(0);
    expect(await w.db('uploads').where({ key }).first()).toMatchObject({ content_type: 'image/png', user_id: w.users.userA, site_id: w.sites.a });
    const bucket = fileStoreOf(w.config);
    expect(await bucket.open(`incoming/${key}`)).toBeNull();
    expect((await bucket.read(key))?.equals(PNG)).toBe(true);
  });

  it('the artwork reader gets a direct upload checked too (it need not be read at /files/ first)', async () => {
    const { url, fileUrl } = await link();
    expect((await putTo(url, PNG)).status).toBe(200);
    expect((await w.services.store.read(fileUrl.slice('/files/'.length)))?.equals(PNG)).toBe(true);
  });

  it('a PUT of another size or another type than signed is refused by the bucket: nothing lands', async () => {
    const { url, fileUrl } = await link();
    expect((await putTo(url, Buffer.concat([PNG, Buffer.from('more')]))).status).toBe(403);
    expect((await putTo(url, PNG, 'image/jpeg')).status).toBe(403);
    expect((await getFile(fileUrl)).status).toBe(404);
  });

  it('bytes that are not what the type says: the first read says why, the file is removed', async () => {
    const fake = Buffer.alloc(PNG.length, 0x41);
    const { url, fileUrl } = await link(fake.length);
    expect((await putTo(url, fake)).status).toBe(200);
    const first = await w.request().get(fileUrl);
    expect(first.status).toBe(400);
    expect(first.body.error).toMatch(/not a valid image\/png/);
    expect((await w.request().get(fileUrl)).status).toBe(404);
    const key = fileUrl.slice('/files/'.length);
    expect(await w.db('uploads').where({ key }).first()).toBeUndefined();
    expect(await fileStoreOf(w.config).open(`incoming/${key}`)).toBeNull();
  });
});

describe('two instances, one database, one bucket, no shared disk', () => {
  it('a file granted by one is checked and served by the other; a file one stores the other reads', async () => {
    const w = await createWorld(s3.env(prefix()));
    // The second instance: same database and bucket, its own empty DATA_DIR.
    const otherDir = fs.mkdtempSync(path.join(os.tmpdir(), 'presswork-other-'));
    const config = { ...loadConfig({ NODE_ENV: 'test', DATA_DIR: otherDir, JWT_SECRET: 'test-secret-that-is-long-enough-0123456789', LOG_LEVEL: 'silent', SEED_DEMO: '0', ...s3.env(w.config.storage.kind === 's3' ? w.config.storage.prefix : '') }), database: w.config.database };
    const deps = { db: w.db, clock: w.clock, config, log: createLogger('silent') };
    const other = createServices(deps, fileStoreOf(config));
    const otherApp = createApp(deps, other).app;

    const res = await w.request().post('/api/users/me/get-upload-url').set(bearer(w.tokens.userA)).send({ serverSidePath: 'art/front.png', contentType: 'image/png', contentLength: PNG.length });
    expect((await fetch(res.body.data, { method: 'PUT', body: new Uint8Array(PNG), headers: { 'Content-Type': 'image/png' } })).status).toBe(200);
    const fileUrl = new URL(res.headers['x-file-url']).pathname;
    const served = await supertest(otherApp).get(fileUrl).buffer(true).parse(binary);
    expect(served.status).toBe(200);
    expect(Buffer.compare(served.body as Buffer, PNG)).toBe(0);
    expect((await w.request().get(fileUrl).buffer(true).parse(binary)).status).toBe(200);

    await w.services.store.put('print-files/1/abc/print-file.pdf', Readable.from(Buffer.from('%PDF-1.7 drawn on the first')));
    expect((await other.store.read('print-files/1/abc/print-file.pdf'))?.toString()).toBe('%PDF-1.7 drawn on the first');
    expect(fs.readdirSync(otherDir).filter((f) => f === 'files')).toEqual([]);
  });
});

describe('a presigned PUT after its lifetime', () => {
  it('is refused by the bucket', async () => {
    const w = await createWorld({ ...s3.env(prefix()), UPLOAD_URL_TTL_SECONDS: '1' });
    const res = await w.request().post('/api/users/me/get-upload-url').set(bearer(w.tokens.userA)).send({ serverSidePath: 'a.png', contentType: 'image/png', contentLength: PNG.length });
    await new Promise((r) => setTimeout(r, 2100));
    const put = await fetch(res.body.data, { method: 'PUT', body: new Uint8Array(PNG), headers: { 'Content-Type': 'image/png' } });
    expect(put.status).toBe(403);
    expect(await put.text()).toMatch(/expired/);
    expect((await w.request().get(new URL(res.headers['x-file-url']).pathname)).status).toBe(404);
  });
});

describe('readiness with files in the bucket', () => {
  it('storage ok; with the bucket down: not ready, naming why; back up: ready', async () => {
    const w = await createWorld(s3.env(prefix()));
    const ready = await w.request().get('/api/health/ready');
    expect(ready.status).toBe(200);
    expect(ready.body.data.checks).toContainEqual({ name: 'storage', ok: true });
    await s3.stop();
    try {
      const down = await w.request().get('/api/health/ready');
      expect(down.status).toBe(503);
      expect(down.body.data.checks.find((c: { name: string }) => c.name === 'storage')).toEqual({ name: 'storage', ok: false, reason: "the bucket's endpoint cannot be reached (ECONNREFUSED)" });
      // A file asked for meanwhile: 503 saying why, to be retried; not a 500, not a 404.
      const file = await w.request().get('/files/logos/1-0123456789abcdef01234567-a.png');
      expect(file.status).toBe(503);
      expect(file.headers['retry-after']).toBe('30');
      expect(file.body.error).toBe("Files cannot be stored or read just now: the bucket's endpoint cannot be reached (ECONNREFUSED). Nothing was lost; try again in a moment.");
    } finally {
      await s3.start();
    }
    expect((await w.request().get('/api/health/ready')).status).toBe(200);
  });
});

describe("the server's own signed link (STORAGE=local) with a size", () => {
  it('binds it: another size → 400, the size asked → 200', async () => {
    const w = await createWorld();
    const res = await w.request().post('/api/users/me/get-upload-url').set(bearer(w.tokens.userA)).send({ serverSidePath: 'a.png', contentType: 'image/png', contentLength: PNG.length });
    const u = new URL(res.body.data);
    expect(u.searchParams.get('n')).toBe(String(PNG.length));
    const target = `${u.pathname}${u.search}`;
    const wrong = await w.request().put(target).set('Content-Type', 'image/png').send(Buffer.concat([PNG, Buffer.from('x')]));
    expect(wrong.status).toBe(400);
    expect(wrong.body.error).toMatch(/made for \d+/);
    u.searchParams.set('n', String(PNG.length + 1));
    expect((await w.request().put(`${u.pathname}${u.search}`).set('Content-Type', 'image/png').send(Buffer.concat([PNG, Buffer.from('x')]))).status).toBe(403);
    expect((await w.request().put(target).set('Content-Type', 'image/png').send(PNG)).status).toBe(200);
  });
});

describe("the demo email platform's files with STORAGE=s3", () => {
  it('are delivered into the site\'s sync-drop prefix, where the sync reads them', async () => {
    const w = await createWorld(s3.env(prefix()));
    await writeEnvValue(w.db, w.clock, w.sites.a, 'RE_BASE_URL', `http://127.0.0.1:1${RE_SIMULATOR_PATH}`);
    const sims = await demoSyncSimulators({ db: w.db, clock: w.clock, config: w.config }, 'http://127.0.0.1:1');
    try {
      expect(sims?.site.id).toBe(w.sites.a);
      const names = (await fileStoreOf(w.config).list(syncDropPrefix(w.sites.a))).map((f) => f.key.slice(syncDropPrefix(w.sites.a).length));
      // Two past days, three files each: the unsubscribes and the two saved exports.
      expect(names.filter((n) => n.startsWith('unsubscribe_'))).toHaveLength(2);
      expect(names.filter((n) => /^export_(80|92)_\d{8}\.csv$/.test(n))).toHaveLength(4);
      // Nothing written beside the bucket is what the sync would read: the bucket's copy is.
      const one = names.find((n) => n.startsWith('export_80_'))!;
      const inBucket = await fileStoreOf(w.config).read(syncDropPrefix(w.sites.a) + one);
      expect(inBucket?.toString().split('\n')[0]).toContain(';');
    } finally {
      sims?.stop();
    }
  });
});
