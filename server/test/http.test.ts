// The HTTP shell: envelopes for every failure, limits, headers, no leaked internals.
import { describe, expect, it } from 'vitest';
import http from 'node:http';
import net, { type AddressInfo } from 'node:net';
import { onClientError } from '../src/http/clientError';
import type { Response } from 'supertest';
import { bearer, createWorld } from './harness';

/** An answer that gives nothing away: no stack lines, no source paths. */
function expectNoInternals(res: Response) {
  const text = res.text ?? '';
  expect(text).not.toMatch(/\n\s*at\s/);
  expect(text).not.toMatch(/\bat [\w.<>]+ \(/);
  expect(text).not.toMatch(/\/(work|home|usr|tmp|node_modules|server\/src)\//);
  expect(text).not.toMatch(/\.(ts|js|mjs):\d+/);
  expect(text).not.toMatch(/SQLITE_|syntax error|relation "|knex/i);
}

describe('http', async () => {
  const w = await createWorld();

  it('GET /api → health', async () => {
    const res = await w.request().get('/api');
    expect(res.status).toBe(200);
    expect(res.headers['content-type']).toMatch(/application\/json/);
    expect(res.body).toEqual({ success: true, data: { name: 'Presswork', status: 'ok' } });
  });

  it('a NUL character in the path, query or a JSON string → 400 naming it, on SQLite and PostgreSQL alike (fuzz finding)', async () => {
    for (const url of ['/files/a%00b', '/api/sites/a%00b/raiser-edge-webhook', '/api/print-jobs?q=a%00']) {
      const res = await w.request().get(url).set(bearer(w.tokens.userA));
      expect(res.status, url).toBe(400);
      expect(res.body, url).toEqual({ success: false, error: 'The request holds a NUL character (\\u0000), which cannot be stored' });
    }
    const nul = await w.request().post('/api/general-data/note').set(bearer(w.tokens.userA)).set('Content-Type', 'application/json').send('{"name":"a\\u0000b","data":{}}');
    expect(nul.status).toBe(400);
    expect(nul.body).toEqual({ success: false, error: 'The request body holds a NUL character (\\u0000), which cannot be stored' });
    // An escaped backslash followed by "u0000" is plain text, not a NUL.
    const text = await w.request().post('/api/general-data/note').set(bearer(w.tokens.userA)).set('Content-Type', 'application/json').send('{"name":"a\\\\u0000b","data":{}}');
    expect(text.status).toBeLessThan(300);
    expect(text.body.data.name).toBe('a\\u0000b');
  });

  it('half of a surrogate pair in a JSON string → 400 naming it, on SQLite and PostgreSQL alike (fuzz finding)', async () => {
    const refusal = { success: false, error: 'The request body holds half of a Unicode surrogate pair (such as \\ud800 alone), which is not text and cannot be stored' };
    for (const body of ['{"name":"a\\ud800","data":{}}', '{"name":"Fuzz","data":{"a":"\\ud800"}}', '{"name":"\\udc00b","data":{}}', '{"name":"\\ud83d\\ud83d\\ude00","data":{}}']) {
      const res = await w.request().post('/api/general-data/note').set(bearer(w.tokens.userA)).set('Content-Type', 'application/json').send(body);
      expect(res.status, body).toBe(400);
      expect(res.body, body).toEqual(refusal);
    }
    // A whole pair is an emoji and is kept; an escaped backslash before "ud800" is plain text.
    const emoji = await w.request().post('/api/general-data/note').set(bearer(w.tokens.userA)).set('Content-Type', 'application/json').send('{"name":"card \\ud83d\\ude00","data":{"b":"a\\\\ud800"}}');
    expect(emoji.status).toBeLessThan(300);
    expect(emoji.body.data.name).toBe('card 😀');
    const stored = await w.request().get(`/api/general-data/note/${emoji.body.data.id}`).set(bearer(w.tokens.userA));
    expect(stored.body.data.data).toEqual({ b: 'a\\ud800' });
  });

  it('a malformed JSON body → 400 envelope', async () => {
    const res = await w.request().post('/api/users/login').set('Content-Type', 'application/json').send('{"email": "a@b.c", "password": ');
    expect(res.status).toBe(400);
    expect(res.headers['content-type']).toMatch(/application\/json/);
    expect(res.body).toEqual({ success: false, error: 'The request body is not valid JSON' });
    expectNoInternals(res);
    const signedIn = await w.request().post('/api/general-data/note').set(bearer(w.tokens.userA)).set('Content-Type', 'application/json').send('{nope');
    expect(signedIn.status).toBe(400);
    expect(signedIn.body.success).toBe(false);
    const outside = await w.request().post('/users/logout').set('Content-Type', 'application/json').send('{nope');
    expect(outside.status).toBe(400);
    expect(outside.body.success).toBe(false);
  });

  it.each([
    ['GET', '/api/nope'],
    ['POST', '/api/nope/deeper'],
    ['DELETE', '/api/users/me'],
    ['PUT', '/api/sites'],
    ['GET', '/api/admin/nothing'],
  ])('unknown call %s %s → 404 JSON envelope', async (method, path) => {
    const res = await w.request()[method.toLowerCase() as 'get'](path).set(bearer(w.tokens.adminA));
    expect(res.status).toBe(404);
    expect(res.headers['content-type']).toMatch(/application\/json/);
    expect(res.body).toEqual({ success: false, error: expect.any(String) });
    expectNoInternals(res);
  });

  it('an unknown non-page path asked for as JSON → 404 envelope', async () => {
    const res = await w.request().get('/no-such-thing.json').set('Accept', 'application/json');
    expect(res.status).toBe(404);
    expect(res.body.success).toBe(false);
  });

  it('a validation error → 400 with the field first and details', async () => {
    const res = await w.request().post('/api/users/register').set(bearer(w.tokens.adminA)).send({ firstName: 'A', email: 'bad', password: 'short', siteId: w.sites.a });
    expect(res.status).toBe(400);
    expect(res.body.success).toBe(false);
    expect(res.body.error).toMatch(/^Email\b/);
    expect(res.body.details).toEqual(expect.arrayContaining([expect.objectContaining({ field: 'email' }), expect.objectContaining({ field: 'password' })]));
    expectNoInternals(res);
  });

  it('security headers on API answers', async () => {
    const res = await w.request().get('/api');
    expect(res.headers['x-content-type-options']).toBe('nosniff');
    expect(res.headers['x-frame-options']).toBe('SAMEORIGIN');
    expect(res.headers['content-security-policy']).toContain("default-src 'self'");
    expect(res.headers['content-security-policy']).toContain("frame-ancestors 'self'");
    expect(res.headers['x-powered-by']).toBeUndefined();
    expect(res.headers['referrer-policy']).toBe('no-referrer');
  });

  it('error answers carry no stack trace or file path', async () => {
    const answers = [
      await w.request().get('/api/users/me'),
      await w.request().get('/api/users/me').set(bearer('a.b.c')),
      await w.request().get('/api/sites').set(bearer(w.tokens.userA)),
      await w.request().get('/api/users/999999').set(bearer(w.tokens.adminA)),
      await w.request().get('/api/admin/sites?sort=[').set(bearer(w.tokens.adminA)),
      await w.request().post('/api/sites').set(bearer(w.tokens.adminA)).send({ name: 'A', slug: 'site-b' }),
      await w.request().post('/api/users/login').send({ email: 'x@example.com', password: 'wrong-password' }),
      await w.request().get('/api/general-data/Bad_Type!').set(bearer(w.tokens.userA)),
    ];
    for (const res of answers) {
      expect(res.status).toBeGreaterThanOrEqual(400);
      expect(res.body).toMatchObject({ success: false, error: expect.any(String) });
      expectNoInternals(res);
    }
  });

  describe('limits and failures (BODY_LIMIT=1kb)', async () => {
    const small = await createWorld({ BODY_LIMIT: '1kb' });

    it('a body over BODY_LIMIT → 413 envelope; under it is fine', async () => {
      const big = await small.request().post('/api/general-data/note').set(bearer(small.tokens.userA)).send({ data: { text: 'x'.repeat(2000) } });
      expect(big.status).toBe(413);
      expect(big.body).toEqual({ success: false, error: 'The request body is too large' });
      expect(await small.db('general_data').first()).toBeUndefined();
      const fine = await small.request().post('/api/general-data/note').set(bearer(small.tokens.userA)).send({ data: { text: 'x'.repeat(500) } });
      expect(fine.status).toBe(200);
    });

    it('an unexpected failure → 500 with a generic message and nothing internal', async () => {
      await small.db.schema.dropTable('revoked_tokens');
      const res = await small.request().post('/api/users/logout').set(bearer(small.tokens.userA));
      expect(res.status).toBe(500);
      expect(res.body).toEqual({ success: false, error: expect.any(String) });
      expect(res.body.error).not.toMatch(/revoked_tokens/);
      expectNoInternals(res);
    });
  });
});

describe('requests refused by the HTTP parser (main.ts listens with onClientError)', () => {
  const send = async (raw: string) => {
    const w = await createWorld();
    const server = http.createServer(w.app);
    server.on('clientError', onClientError);
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
    try {
      const { port } = server.address() as AddressInfo;
      return await new Promise<string>((resolve, reject) => {
        const socket = net.connect(port, '127.0.0.1', () => socket.write(raw));
        let out = '';
        socket.on('data', (d) => (out += d));
        socket.on('end', () => resolve(out));
        socket.on('error', reject);
      });
    } finally {
      server.close();
    }
  };
  const bodyOf = (answer: string) => JSON.parse(answer.slice(answer.indexOf('\r\n\r\n') + 4));

  it('a request line over 16 KB → 431 in the error envelope', async () => {
    const answer = await send(`GET /api/print-jobs?q=${'x'.repeat(20_000)} HTTP/1.1\r\nHost: x\r\n\r\n`);
    expect(answer).toMatch(/^HTTP\/1\.1 431 /);
    expect(answer).toMatch(/content-type: application\/json/i);
    expect(bodyOf(answer)).toEqual({ success: false, error: 'The request line or headers are too large' });
  });

  it('malformed HTTP → 400 in the error envelope', async () => {
    const answer = await send('GARBAGE\r\n\r\n');
    expect(answer).toMatch(/^HTTP\/1\.1 400 /);
    expect(bodyOf(answer)).toEqual({ success: false, error: 'The request is not valid HTTP' });
  });
});
