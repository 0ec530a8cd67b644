// Tokens: expired, wrong algorithm, wrong key, malformed, a deleted user's, a demoted admin's, a
// signed-out one, a moved user's — each refused with 401 (403 for the demoted admin on admin
// calls) in the spec's envelope, on a few representative routes of each access level.
import crypto from 'node:crypto';
import jwt from 'jsonwebtoken';
import { beforeAll, describe, expect, it } from 'vitest';
import { PASSWORD, bearer } from '../server/test/harness';
import { checkBody, send, type Answer, type ExampleRequest } from './lib/request';
import { buildSecurityWorld, type SecurityWorld } from './lib/world';

let world: SecurityWorld;
beforeAll(async () => {
  world = await buildSecurityWorld();
}, 120_000);

/** One route of each access level that takes a session (site A's records named where a record is). */
const REPRESENTATIVE = (s: SecurityWorld): Array<{ method: string; path: string; ex: ExampleRequest; admin?: boolean }> => [
  { method: 'GET', path: '/api/users/me', ex: {} },
  { method: 'GET', path: '/api/print-jobs', ex: {} },
  { method: 'GET', path: '/api/designs/:id', ex: { params: { id: String(s.fx.designId) } } },
  { method: 'GET', path: '/api/sites/:site/sync-status', ex: { params: { site: s.fx.siteASlug } } },
  { method: 'GET', path: '/api/admin/resellers', ex: { query: { range: '[0,9]' } } },
  { method: 'POST', path: '/api/users/register', ex: { body: { firstName: 'X', email: 'never-made@example.com', password: PASSWORD, siteId: s.fx.siteA } }, admin: true },
  { method: 'GET', path: '/api/admin/users', ex: { query: { range: '[0,9]' } }, admin: true },
];

const secret = () => world.w.config.jwt.secret;
const b64 = (v: unknown) => Buffer.from(typeof v === 'string' ? v : JSON.stringify(v)).toString('base64url');
const nowSec = () => Math.floor(world.w.clock.now().getTime() / 1000);
const claims = (userId: number, extra: Record<string, unknown> = {}) => ({ sub: String(userId), jti: crypto.randomBytes(16).toString('hex'), iat: nowSec(), exp: nowSec() + 3600, ...extra });

async function callAll(token: string): Promise<Array<{ route: string; answer: Answer }>> {
  const out: Array<{ route: string; answer: Answer }> = [];
  for (const r of REPRESENTATIVE(world)) out.push({ route: `${r.method} ${r.path}`, answer: await send(world, r, r.ex, 'anonymous', token) });
  return out;
}

/** Every representative route answers 401 with the envelope. */
async function expectRefused(token: string, what: string) {
  const answers = await callAll(token);
  const bad = answers.filter(({ answer }) => answer.status !== 401 || checkBody(answer).length > 0 || !/sign in/i.test((answer.json as { error?: string })?.error ?? ''));
  expect(bad.map(({ route, answer }) => `${what}: ${route} → ${answer.status} ${answer.text.slice(0, 160)}`)).toEqual([]);
}

async function signIn(email: string): Promise<string> {
  const res = await world.request().post('/api/users/login').send({ email, password: PASSWORD });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body.data.token as string;
}

async function newUser(role: 'admin' | 'user', siteId = world.fx.siteA) {
  const email = `${world.unique(role)}@example.com`;
  const res = await world.request().post('/api/admin/users').set(bearer(world.w.tokens.adminA)).send({ firstName: 'Token', email, password: PASSWORD, role, siteId });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return { id: res.body.id as number, email };
}

describe('tokens', () => {
  it('control: a fresh token of ours is accepted on every representative route (admin routes: an admin)', async () => {
    const admin = await callAll(await signIn('admin-a@example.com'));
    expect(admin.filter(({ answer }) => answer.status >= 400).map(({ route, answer }) => `${route} → ${answer.status}`)).toEqual([]);
  });

  it('an expired token → 401', async () => {
    const { userA } = world.fx;
    await expectRefused(jwt.sign(claims(userA, { iat: nowSec() - 7200, exp: nowSec() - 60 }), secret(), { algorithm: 'HS256' }), 'exp in the past');
    // A real token, once the clock passes its expiry (JWT_EXPIRES_IN is 12h; signing reads the real time).
    const token = await signIn('user-a@example.com');
    const exp = (jwt.decode(token) as { exp: number }).exp * 1000;
    const back = world.w.clock.now();
    world.w.clock.set(new Date(exp + 1000));
    try {
      await expectRefused(token, 'after its expiry');
    } finally {
      world.w.clock.set(back);
    }
    expect((await world.request().get('/api/users/me').set(bearer(token))).status).toBe(200);
  });

  it('a token without an expiry, or not yet valid → 401', async () => {
    const { userA } = world.fx;
    const { exp: _exp, ...noExp } = claims(userA);
    await expectRefused(jwt.sign(noExp, secret(), { algorithm: 'HS256' }), 'no exp');
    await expectRefused(jwt.sign(claims(userA, { nbf: nowSec() + 3600 }), secret(), { algorithm: 'HS256' }), 'nbf in the future');
  });

  it('the wrong algorithm → 401: HS512 and HS384 with our key, RS256 with a generated key, RS256 → HS256 confusion, alg none', async () => {
    const { userA } = world.fx;
    await expectRefused(jwt.sign(claims(userA), secret(), { algorithm: 'HS512' }), 'HS512');
    await expectRefused(jwt.sign(claims(userA), secret(), { algorithm: 'HS384' }), 'HS384');
    const { privateKey, publicKey } = crypto.generateKeyPairSync('rsa', { modulusLength: 2048 });
    await expectRefused(jwt.sign(claims(userA), privateKey, { algorithm: 'RS256' }), 'RS256');
    // The public key used as an HMAC secret under an RS256 header.
    const pem = publicKey.export({ type: 'spki', format: 'pem' }).toString();
    const head = `${b64({ alg: 'RS256', typ: 'JWT' })}.${b64(claims(userA))}`;
    await expectRefused(`${head}.${crypto.createHmac('sha256', pem).update(head).digest('base64url')}`, 'RS256 header, HMAC signature');
    // alg none: no signature at all, with and without the trailing dot; and "None" spelled otherwise.
    for (const alg of ['none', 'None', 'NONE']) {
      const unsigned = `${b64({ alg, typ: 'JWT' })}.${b64(claims(userA))}`;
      await expectRefused(`${unsigned}.`, `alg ${alg}`);
      await expectRefused(unsigned, `alg ${alg}, no dot`);
    }
    // An HS256 header over a body signed with HS512.
    const h = `${b64({ alg: 'HS256', typ: 'JWT' })}.${b64(claims(userA))}`;
    await expectRefused(`${h}.${crypto.createHmac('sha512', secret()).update(h).digest('base64url')}`, 'HS256 header, HS512 signature');
  });

  it('the wrong key → 401', async () => {
    const { userA, admin } = world.fx;
    await expectRefused(jwt.sign(claims(userA), 'another-secret-that-is-long-enough-0123456789', { algorithm: 'HS256' }), 'another secret');
    await expectRefused(jwt.sign(claims(admin), `${secret()}x`, { algorithm: 'HS256' }), 'our secret plus one byte');
    await expectRefused(jwt.sign(claims(admin), '', { algorithm: 'none' }), 'empty secret');
    // Our token with its claims changed (a user making themselves another user).
    const [h, , sig] = (await signIn('user-a@example.com')).split('.');
    await expectRefused(`${h}.${b64(claims(admin))}.${sig}`, 'claims swapped under our signature');
  });

  it('malformed tokens → 401', async () => {
    const { userA } = world.fx;
    const good = jwt.sign(claims(userA), secret(), { algorithm: 'HS256' });
    const [h, p, s] = good.split('.');
    const malformed = [
      'abc',
      'a.b.c',
      '..',
      `${h}.${p}`,
      `${h}.${p}.${s}.extra`,
      `${h}.${p}.${s.slice(0, -2)}`,
      `${h}.!!!.${s}`,
      `${b64('not json')}.${p}.${s}`,
      `${h}.${b64('[]')}.${s}`,
      'x'.repeat(10_000),
      good.replace(/./g, (c, i: number) => (i === 10 ? (c === 'A' ? 'B' : 'A') : c)),
      // Valid signatures over claims that do not name a user of ours.
      jwt.sign(claims(userA, { sub: 'admin' }), secret(), { algorithm: 'HS256' }),
      jwt.sign(claims(userA, { sub: '0' }), secret(), { algorithm: 'HS256' }),
      jwt.sign(claims(userA, { sub: '-1' }), secret(), { algorithm: 'HS256' }),
      jwt.sign(claims(userA, { sub: '1e3' }), secret(), { algorithm: 'HS256' }),
      jwt.sign(claims(userA, { sub: '99999999' }), secret(), { algorithm: 'HS256' }),
      jwt.sign(claims(userA, { sub: 12 }), secret(), { algorithm: 'HS256' }),
      jwt.sign({ ...claims(userA), jti: undefined }, secret(), { algorithm: 'HS256' }),
      jwt.sign({ ...claims(userA), sub: undefined }, secret(), { algorithm: 'HS256' }),
    ];
    for (const [i, t] of malformed.entries()) await expectRefused(t, `malformed #${i}`);
    // Other shapes of the header: no token, another scheme.
    for (const header of ['Bearer', 'Bearer ', `Basic ${Buffer.from('a:b').toString('base64')}`, `Bearer ${good} ${good}`, `Token ${good}`]) {
      const res = await world.request().get('/api/users/me').set('Authorization', header);
      expect(res.status, header).toBe(401);
      expect(res.body).toMatchObject({ success: false, error: expect.any(String) });
    }
  });

  it("a deleted user's unexpired token → 401", async () => {
    const u = await newUser('user');
    const token = await signIn(u.email);
    expect((await world.request().get('/api/users/me').set(bearer(token))).status).toBe(200);
    const del = await world.request().delete(`/api/admin/users/${u.id}`).set(bearer(world.w.tokens.adminA));
    expect(del.status, JSON.stringify(del.body)).toBe(200);
    await expectRefused(token, 'deleted user');
  });

  it("a demoted admin's token: admin calls answer 403 at once, the rest go on as a user", async () => {
    const u = await newUser('admin');
    const token = await signIn(u.email);
    expect((await world.request().get('/api/admin/users').set(bearer(token))).status).toBe(200);
    const demote = await world.request().put(`/api/admin/users/${u.id}`).set(bearer(world.w.tokens.adminA)).send({ role: 'user' });
    expect(demote.status, JSON.stringify(demote.body)).toBe(200);
    for (const r of REPRESENTATIVE(world)) {
      const a = await send(world, r, r.ex, 'anonymous', token);
      expect(checkBody(a), `${r.method} ${r.path}`).toEqual([]);
      if (r.admin) expect(a.status, `${r.method} ${r.path}`).toBe(403);
      else expect(a.status, `${r.method} ${r.path}`).toBeLessThan(400);
    }
    const me = await world.request().get('/api/users/me').set(bearer(token));
    expect(me.body.data).toMatchObject({ id: u.id, role: 'user' });
  });

  it('a signed-out token → 401 (either sign-out path), and signing out twice is not an error', async () => {
    for (const logout of ['/api/users/logout', '/users/logout']) {
      const token = await signIn('user-a@example.com');
      expect((await world.request().get('/api/users/me').set(bearer(token))).status).toBe(200);
      const out = await world.request().post(logout).set(bearer(token));
      expect(out.status).toBe(200);
      await expectRefused(token, `signed out via ${logout}`);
      expect((await world.request().post(logout).set(bearer(token))).status).toBe(200);
    }
    // Signing out one session leaves the user's others alone.
    const one = await signIn('user-a@example.com');
    const two = await signIn('user-a@example.com');
    await world.request().post('/api/users/logout').set(bearer(one));
    expect((await world.request().get('/api/users/me').set(bearer(two))).status).toBe(200);
  });

  it("a token of a user moved to another site → 401 (the move ends the user's sessions)", async () => {
    const u = await newUser('user', world.fx.siteA);
    const token = await signIn(u.email);
    const design = await send(world, { method: 'GET', path: '/api/designs/:id' }, { params: { id: String(world.fx.designId) } }, 'anonymous', token);
    expect(design.status).toBe(200);
    const move = await world.request().put(`/api/admin/users/${u.id}`).set(bearer(world.w.tokens.adminA)).send({ siteId: world.fx.siteB });
    expect(move.status, JSON.stringify(move.body)).toBe(200);
    await expectRefused(token, 'moved to site B');
    // Signing in again gives a session of the new site.
    const again = await signIn(u.email);
    const me = await world.request().get('/api/users/me').set(bearer(again));
    expect(me.body.data).toMatchObject({ id: u.id, siteId: world.fx.siteB });
    expect((await send(world, { method: 'GET', path: '/api/designs/:id' }, { params: { id: String(world.fx.designId) } }, 'anonymous', again)).status).toBe(404);
  });
});
