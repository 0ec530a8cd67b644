// The presigned-upload flow: ask for a link, PUT the file to it, read it back at /files/….
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import type { Response } from 'supertest';
import { bearer, createWorld } from './harness';

// A real 1×1 PNG.
const PNG = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==', 'base64');

const binary = (res: Response, cb: (err: Error | null, body: Buffer) => void) => {
  const chunks: Buffer[] = [];
  res.on('data', (c: Buffer) => chunks.push(c));
  res.on('end', () => cb(null, Buffer.concat(chunks)));
};

describe('uploads', async () => {
  const w = await createWorld();
  const grant = (body: Record<string, unknown>, token = w.tokens.userA) => w.request().post('/api/users/me/get-upload-url').set(bearer(token)).send(body);
  /** A signed link, as path + query (the test server's host changes per request). */
  const linkFor = async (serverSidePath = 'logos/My Logo.png', contentType = 'image/png', token = w.tokens.userA) => {
    const res = await grant({ serverSidePath, contentType }, token);
    expect(res.status).toBe(200);
    const url = new URL(res.body.data);
    return { url, target: `${url.pathname}${url.search}` };
  };
  const put = (target: string, body: Buffer | string, contentType = 'image/png') => w.request().put(target).set('Content-Type', contentType).send(body);

  it('a link is an absolute URL to /uploads/<site>/<folder>/<timestamp>-<random>-<safe name>', async () => {
    const res = await grant({ serverSidePath: 'logos/My Logo.png', contentType: 'image/png' });
    expect(res.status).toBe(200);
    expect(res.body.success).toBe(true);
    expect(typeof res.body.data).toBe('string');
    const url = new URL(res.body.data);
    expect(url.protocol).toMatch(/^https?:$/);
    expect(url.pathname).toMatch(new RegExp(`^/uploads/${w.sites.a}/logos/(\\d+)-[0-9a-f]{24}-My-Logo\\.png$`));
    const stamp = Number(/\/(\d+)-/.exec(url.pathname)![1]);
    expect(Math.abs(stamp - w.clock.now().getTime())).toBeLessThan(5000);
    expect(url.searchParams.get('sig')).toMatch(/^[0-9a-f]{64}$/);
    expect(url.searchParams.get('expires')).toBeTruthy();
    // Two links for the same name never collide.
    const again = new URL((await grant({ serverSidePath: 'logos/My Logo.png', contentType: 'image/png' })).body.data);
    expect(again.pathname).not.toBe(url.pathname);
  });

  it('PUT the file with its type → data.url /files/…; GET returns the same bytes, type and nosniff', async () => {
    const { url, target } = await linkFor();
    const res = await put(target, PNG);
    expect(res.status).toBe(200);
    expect(res.body.success).toBe(true);
    const key = url.pathname.slice('/uploads/'.length);
    expect(res.body.data.url).toBe(`/files/${key}`);
    const row = await w.db('uploads').where({ key }).first();
    expect(row).toMatchObject({ content_type: 'image/png', user_id: w.users.userA, site_id: w.sites.a });
    expect(Number(row.size)).toBe(PNG.length);

    const file = await w.request().get(res.body.data.url).buffer(true).parse(binary);
    expect(file.status).toBe(200);
    expect(file.headers['content-type']).toBe('image/png');
    expect(file.headers['x-content-type-options']).toBe('nosniff');
    expect(Buffer.compare(file.body as Buffer, PNG)).toBe(0);
  });

  it('a text file type works end to end too', async () => {
    const { target } = await linkFor('exports/list.csv', 'text/csv');
    const res = await put(target, 'a,b\n1,2\n', 'text/csv; charset=utf-8');
    expect(res.status).toBe(200);
    const file = await w.request().get(res.body.data.url).buffer(true).parse(binary);
    expect(file.headers['content-type']).toMatch(/^text\/csv/);
    expect((file.body as Buffer).toString()).toBe('a,b\n1,2\n');
  });

  it('a tampered signature → 403', async () => {
    const { url } = await linkFor();
    const sig = url.searchParams.get('sig')!;
    url.searchParams.set('sig', `${sig.slice(0, -1)}${sig.endsWith('0') ? '1' : '0'}`);
    const res = await put(`${url.pathname}${url.search}`, PNG);
    expect(res.status).toBe(403);
    expect(res.body.success).toBe(false);
    url.searchParams.delete('sig');
    expect((await put(`${url.pathname}${url.search}`, PNG)).status).toBe(403);
  });

  it('a changed key, owner, site, type or expiry → 403', async () => {
    const { url } = await linkFor();
    const variants: URL[] = [];
    const renamed = new URL(url);
    renamed.pathname = url.pathname.replace('My-Logo.png', 'Other.png');
    variants.push(renamed);
    for (const [param, value] of [
      ['u', String(w.users.adminA)],
      ['s', String(w.sites.b)],
      ['ct', 'image/gif'],
      ['expires', String(Number(url.searchParams.get('expires')) + 3600)],
    ]) {
      const v = new URL(url);
      v.searchParams.set(param, value);
      variants.push(v);
    }
    for (const v of variants) {
      const res = await put(`${v.pathname}${v.search}`, v.searchParams.get('ct') === 'image/gif' ? Buffer.from('GIF89a') : PNG, v.searchParams.get('ct')!);
      expect(res.status).toBe(403);
    }
    expect(await w.db('uploads').where('key', 'like', '%Other.png').first()).toBeUndefined();
    // The untouched link still works.
    expect((await put(`${url.pathname}${url.search}`, PNG)).status).toBe(200);
  });

  it('an expired link → 403', async () => {
    const { target } = await linkFor();
    w.clock.advance((w.config.uploads.urlTtlSeconds + 1) * 1000);
    const res = await put(target, PNG);
    expect(res.status).toBe(403);
    expect(res.body.error).toMatch(/expired/);
  });

  it('a Content-Type other than the one of the link → 400', async () => {
    const { target } = await linkFor();
    const res = await put(target, PNG, 'image/jpeg');
    expect(res.status).toBe(400);
    expect(res.body.success).toBe(false);
    expect(res.body.error).toContain('image/png');
  });

  it('bytes that are not what the type says, or no bytes → 400', async () => {
    const { target } = await linkFor();
    const text = await put(target, Buffer.from('<html><script>alert(1)</script></html>'));
    expect(text.status).toBe(400);
    expect(text.body.error).toMatch(/not a valid image\/png/);
    expect((await put(target, Buffer.alloc(0))).status).toBe(400);
    // Nothing was stored, so the link can still be used for the real file.
    expect((await put(target, PNG)).status).toBe(200);
  });

  it('the same link a second time → 409, the first file stays', async () => {
    const { target } = await linkFor();
    const first = await put(target, PNG);
    expect(first.status).toBe(200);
    const other = Buffer.concat([PNG, Buffer.from('extra')]);
    const second = await put(target, other);
    expect(second.status).toBe(409);
    expect(second.body.success).toBe(false);
    const file = await w.request().get(first.body.data.url).buffer(true).parse(binary);
    expect(Buffer.compare(file.body as Buffer, PNG)).toBe(0);
  });

  it('the same link used by several uploads at once: one wins, the others get 409, the stored file is the winner', async () => {
    const { url, target } = await linkFor();
    const bodies = [1, 2, 3, 4].map((i) => Buffer.concat([PNG, Buffer.alloc(100 * i, i)]));
    const answers = await Promise.all(bodies.map((b) => put(target, b)));
    expect(answers.map((r) => r.status).sort()).toEqual([200, 409, 409, 409]);
    const winner = bodies[answers.findIndex((r) => r.status === 200)];
    const key = url.pathname.slice('/uploads/'.length);
    const rows = await w.db('uploads').where({ key });
    expect(rows).toHaveLength(1);
    expect(Number(rows[0].size)).toBe(winner.length);
    const file = await w.request().get(`/files/${key}`).buffer(true).parse(binary);
    expect(Buffer.compare(file.body as Buffer, winner)).toBe(0);
  });

  it.each(['image/svg+xml', 'text/html', 'application/javascript', ''])('contentType %j → 400 naming contentType', async (contentType) => {
    const res = await grant({ serverSidePath: 'x/evil.svg', contentType });
    expect(res.status).toBe(400);
    expect(res.body.field).toBe('contentType');
  });

  it('serverSidePath is required', async () => {
    const res = await grant({ contentType: 'image/png' });
    expect(res.status).toBe(400);
    expect(res.body.field).toBe('serverSidePath');
  });

  it.each(['../../etc/passwd', '/../../../etc/passwd', 'a/../../b/..', '..', '..\\..\\win.ini', '%2e%2e/%2e%2e/x.png'])('serverSidePath %j cannot escape the store', async (serverSidePath) => {
    const res = await grant({ serverSidePath, contentType: 'text/csv' });
    expect(res.status).toBe(200);
    const url = new URL(res.body.data);
    const key = decodeURIComponent(url.pathname.slice('/uploads/'.length));
    expect(key.split('/')).not.toContain('..');
    expect(key).not.toMatch(/\.\.|\\|%/);
    expect(key.split('/').pop()).toMatch(/^\d+-[0-9a-f]{24}-[\w.-]+$/);
    const done = await put(`${url.pathname}${url.search}`, 'x,y\n', 'text/csv');
    expect(done.status).toBe(200);
    const stored = path.resolve(w.dataDir, 'files', key);
    expect(stored.startsWith(path.resolve(w.dataDir, 'files') + path.sep)).toBe(true);
    expect(fs.existsSync(stored)).toBe(true);
  });

  it('the signed URL without its query serves the stored file (the S3 convention), as its /files/ address does', async () => {
    const { url, target } = await linkFor('samples/Robin.png');
    // Before the upload: nothing there, in the envelope (never the UI's page).
    const before = await w.request().get(url.pathname).set('Accept', 'text/html,*/*;q=0.8');
    expect(before.status).toBe(404);
    expect(before.body).toEqual({ success: false, error: 'File not found' });
    const done = await put(target, PNG);
    expect(done.status).toBe(200);
    const [atUploads, atFiles] = await Promise.all([url.pathname, done.body.data.url].map((p: string) => w.request().get(p).buffer(true).parse(binary)));
    expect(atUploads.status).toBe(200);
    expect(Buffer.compare(atUploads.body as Buffer, PNG)).toBe(0);
    // The same answer, headers included: public by its unguessable key, typed, nosniff, sandboxed.
    for (const h of ['content-type', 'content-length', 'cache-control', 'content-security-policy', 'x-content-type-options']) expect(atUploads.headers[h], h).toBe(atFiles.headers[h]);
    expect(atUploads.headers['content-type']).toBe('image/png');
    // With the query (a GET of the very link), the same file: the signature only ever grants the PUT.
    expect((await w.request().get(target).buffer(true).parse(binary)).status).toBe(200);
    expect((await w.request().get('/uploads/samples/nothing-here.png')).status).toBe(404);
    expect((await w.request().get('/uploads/samples/%2e%2e/%2e%2e/jwt-secret')).status).toBe(404);
  });

  it('GET /files of an unknown or traversing key → 404', async () => {
    expect((await w.request().get('/files/logos/nothing-here.png')).status).toBe(404);
    expect((await w.request().get('/files/logos/%2e%2e/%2e%2e/jwt-secret')).status).toBe(404);
    expect((await w.request().get('/files/..%2f..%2fjwt-secret')).status).toBe(404);
  });

  it('asking for a link without a token → 401', async () => {
    const res = await w.request().post('/api/users/me/get-upload-url').send({ serverSidePath: 'a.png', contentType: 'image/png' });
    expect(res.status).toBe(401);
    expect(res.body.success).toBe(false);
  });

  describe('UPLOAD_MAX_BYTES=1000', async () => {
    const small = await createWorld({ UPLOAD_MAX_BYTES: '1000' });
    it('a file over the limit → 413, nothing stored', async () => {
      const res = await small.request().post('/api/users/me/get-upload-url').set(bearer(small.tokens.userA)).send({ serverSidePath: 'big.png', contentType: 'image/png' });
      const url = new URL(res.body.data);
      const big = Buffer.concat([PNG, Buffer.alloc(2000, 1)]);
      const tooBig = await small.request().put(`${url.pathname}${url.search}`).set('Content-Type', 'image/png').send(big);
      expect(tooBig.status).toBe(413);
      expect(tooBig.body.success).toBe(false);
      expect(await small.db('uploads').first()).toBeUndefined();
      const fits = await small.request().put(`${url.pathname}${url.search}`).set('Content-Type', 'image/png').send(PNG);
      expect(fits.status).toBe(200);
    });
  });
});
