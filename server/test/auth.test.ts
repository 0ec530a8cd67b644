// Sign-in, throttling and bearer tokens as a client sees them.
import crypto from 'node:crypto';
import jwt from 'jsonwebtoken';
import { describe, expect, it } from 'vitest';
import { PASSWORD, bearer, createWorld } from './harness';

const WRONG = 'Wrong email or password';

describe('auth', async () => {
  const w = await createWorld();
  const secret = w.config.jwt.secret;
  let ipCounter = 0;
  /** Each test signs in from its own address, so the per-address limit of one test does not leak into another. */
  const freshIp = () => `198.51.100.${++ipCounter}`;
  const login = (body: Record<string, unknown>, ip = freshIp()) => w.request().post('/api/users/login').set('X-Forwarded-For', ip).send(body);
  const me = (token: string) => w.request().get('/api/users/me').set(bearer(token));
  /** A token for userA signed with `key` and any options. */
  const forge = (payload: object, key: jwt.Secret, options: jwt.SignOptions = {}) =>
    jwt.sign(payload, key, { algorithm: 'HS256', subject: String(w.users.userA), jwtid: 'forged-id', expiresIn: '1h', ...options });

  describe('POST /api/users/login', () => {
    it('answers a working token and the public user, never a password or hash', async () => {
      const res = await login({ email: 'user-a@example.com', password: PASSWORD });
      expect(res.status).toBe(200);
      expect(res.body.success).toBe(true);
      expect(typeof res.body.data.token).toBe('string');
      expect(res.body.data.publicInfo).toMatchObject({ id: w.users.userA, email: 'user-a@example.com', role: 'user', siteId: w.sites.a, firstName: 'user-a' });
      const text = JSON.stringify(res.body);
      expect(text).not.toMatch(/password|\$2[aby]\$/i);
      const who = await me(res.body.data.token);
      expect(who.status).toBe(200);
      expect(who.body.data.id).toBe(w.users.userA);
    });

    it('accepts the email in any case and with spaces around it', async () => {
      const res = await login({ email: '  User-A@Example.COM ', password: PASSWORD });
      expect(res.status).toBe(200);
      expect(res.body.data.publicInfo.id).toBe(w.users.userA);
    });

    it('answers the same 401 for a wrong password and an unknown email', async () => {
      const wrongPassword = await login({ email: 'user-a@example.com', password: 'not the password' });
      const unknownEmail = await login({ email: 'nobody@example.com', password: PASSWORD });
      expect(wrongPassword.status).toBe(401);
      expect(unknownEmail.status).toBe(401);
      expect(wrongPassword.body).toEqual({ success: false, error: WRONG });
      expect(unknownEmail.body).toEqual(wrongPassword.body);
      // Clear userA's failure so later tests start from zero.
      expect((await login({ email: 'user-a@example.com', password: PASSWORD })).status).toBe(200);
    });

    it.each([
      ['no email', { password: PASSWORD }],
      ['no password', { email: 'user-a@example.com' }],
      ['empty email', { email: '', password: PASSWORD }],
      ['blank email', { email: '   ', password: PASSWORD }],
      ['empty password', { email: 'user-a@example.com', password: '' }],
      ['no body', undefined],
      ['email not text', { email: 42, password: PASSWORD }],
    ])('answers 400 "Please input your email and password" with %s', async (_name, body) => {
      const res = await login(body as Record<string, unknown>);
      expect(res.status).toBe(400);
      expect(res.body).toMatchObject({ success: false, error: 'Please input your email and password' });
    });
  });

  describe('throttling', () => {
    it('refuses even the right password with 429 + Retry-After after LOGIN_MAX_FAILURES failures, until the window passes', async () => {
      const email = 'user-a2@example.com';
      expect(w.config.login.maxFailures).toBe(5);
      for (let i = 0; i < 5; i++) {
        const res = await login({ email, password: `wrong-${i}` });
        expect(res.status).toBe(401);
      }
      const blocked = await login({ email, password: 'wrong again' });
      expect(blocked.status).toBe(429);
      expect(blocked.body.success).toBe(false);
      expect(blocked.body.error).toMatch(/try again/i);
      const retryAfter = Number(blocked.headers['retry-after']);
      expect(retryAfter).toBeGreaterThan(0);
      expect(retryAfter).toBeLessThanOrEqual(60);

      const rightButBlocked = await login({ email, password: PASSWORD });
      expect(rightButBlocked.status).toBe(429);
      expect(rightButBlocked.body.data).toBeUndefined();

      // Another account is not affected.
      expect((await login({ email: 'user-a@example.com', password: PASSWORD })).status).toBe(200);

      w.clock.advance(61_000);
      const after = await login({ email, password: PASSWORD });
      expect(after.status).toBe(200);
      expect(typeof after.body.data.token).toBe('string');
    });

    it('counts failures per email whatever its case', async () => {
      const email = 'admin-b@example.com';
      for (const variant of ['admin-b@example.com', 'ADMIN-B@example.com', 'Admin-B@Example.com', 'admin-b@EXAMPLE.com', ' admin-b@example.com ']) {
        expect((await login({ email: variant, password: 'nope' })).status).toBe(401);
      }
      expect((await login({ email, password: PASSWORD })).status).toBe(429);
      w.clock.advance(61_000);
      expect((await login({ email, password: PASSWORD })).status).toBe(200);
    });

    it('a successful sign-in clears the failure count', async () => {
      const email = 'user-b@example.com';
      for (let i = 0; i < 4; i++) expect((await login({ email, password: 'nope' })).status).toBe(401);
      expect((await login({ email, password: PASSWORD })).status).toBe(200);
      for (let i = 0; i < 4; i++) expect((await login({ email, password: 'nope' })).status).toBe(401);
      // Eight failures in the window, but only four since the success: not throttled.
      expect((await login({ email, password: PASSWORD })).status).toBe(200);
      w.clock.advance(61_000);
    });

    it('limits failures from one address across many emails', async () => {
      const ip = '203.0.113.9';
      let throttled = 0;
      for (let i = 0; i < 25; i++) {
        const res = await login({ email: `spray-${i}@example.com`, password: 'nope' }, ip);
        if (res.status === 429) throttled++;
        else expect(res.status).toBe(401);
      }
      expect(throttled).toBeGreaterThan(0);
      // The same address is refused even for a real account, another address is not.
      expect((await login({ email: 'admin-a@example.com', password: PASSWORD }, ip)).status).toBe(429);
      expect((await login({ email: 'admin-a@example.com', password: PASSWORD })).status).toBe(200);
      w.clock.advance(61_000);
      expect((await login({ email: 'admin-a@example.com', password: PASSWORD }, ip)).status).toBe(200);
    });
  });

  describe('bearer tokens', () => {
    const expectRejected = async (token: string) => {
      const res = await me(token);
      expect(res.status).toBe(401);
      expect(res.body.success).toBe(false);
      expect(typeof res.body.error).toBe('string');
      expect(res.body.data).toBeUndefined();
    };

    it('no token, or a header that is not a bearer token → 401', async () => {
      const none = await w.request().get('/api/users/me');
      expect(none.status).toBe(401);
      expect(none.body).toEqual({ success: false, error: 'Please sign in' });
      const basic = await w.request().get('/api/users/me').set('Authorization', `Basic ${Buffer.from('a:b').toString('base64')}`);
      expect(basic.status).toBe(401);
      await expectRejected('not-a-jwt');
    });

    it('the harness token works (control)', async () => {
      expect((await me(w.tokens.userA)).status).toBe(200);
      expect((await me(forge({}, secret))).status).toBe(200);
    });

    it('refuses alg:none', async () => {
      const header = Buffer.from(JSON.stringify({ alg: 'none', typ: 'JWT' })).toString('base64url');
      const now = Math.floor(w.clock.now().getTime() / 1000);
      const payload = Buffer.from(JSON.stringify({ sub: String(w.users.adminA), jti: 'x', iat: now, exp: now + 3600 })).toString('base64url');
      await expectRejected(`${header}.${payload}.`);
      await expectRejected(jwt.sign({ jti: 'x' }, '', { algorithm: 'none', subject: String(w.users.adminA), expiresIn: '1h' }));
    });

    it('refuses a token signed with another key', async () => {
      await expectRejected(forge({}, 'another-secret-that-is-long-enough-0123456789'));
    });

    it('refuses a token whose payload was changed after signing', async () => {
      const [h, , s] = w.tokens.userA.split('.');
      const now = Math.floor(w.clock.now().getTime() / 1000);
      const payload = Buffer.from(JSON.stringify({ sub: String(w.users.adminA), jti: 'abc', iat: now, exp: now + 3600 })).toString('base64url');
      await expectRejected(`${h}.${payload}.${s}`);
    });

    it('refuses other algorithms: HS512 with our key, RS256, and RS→HS confusion', async () => {
      await expectRejected(forge({}, secret, { algorithm: 'HS512' }));
      await expectRejected(forge({}, secret, { algorithm: 'HS384' }));
      const { privateKey, publicKey } = crypto.generateKeyPairSync('rsa', { modulusLength: 2048 });
      await expectRejected(forge({}, privateKey.export({ type: 'pkcs8', format: 'pem' }) as string, { algorithm: 'RS256' }));
      // Signing HS256 with a public key as the secret only passes a verifier that uses that key.
      await expectRejected(forge({}, publicKey.export({ type: 'spki', format: 'pem' }) as string));
    });

    it('refuses a token without a subject, id or expiry, or with a bad subject', async () => {
      await expectRejected(jwt.sign({}, secret, { algorithm: 'HS256', jwtid: 'x', expiresIn: '1h' }));
      await expectRejected(jwt.sign({}, secret, { algorithm: 'HS256', subject: String(w.users.userA), expiresIn: '1h' }));
      await expectRejected(jwt.sign({}, secret, { algorithm: 'HS256', subject: String(w.users.userA), jwtid: 'x' }));
      await expectRejected(forge({}, secret, { subject: 'abc' }));
      await expectRejected(forge({}, secret, { subject: '-1' }));
      await expectRejected(forge({}, secret, { subject: '999999' }));
    });

    it('refuses a token once it has expired (12 h)', async () => {
      const token = w.tokenFor(w.users.userA);
      expect((await me(token)).status).toBe(200);
      w.clock.advance(11 * 3600_000);
      expect((await me(token)).status).toBe(200);
      w.clock.advance(3600_000 + 5_000);
      await expectRejected(token);
      w.clock.advance(-(12 * 3600_000 + 5_000));
      expect((await me(token)).status).toBe(200);
    });

    it('refuses the token of a deleted user', async () => {
      const u = await w.services.users.createUser({ firstName: 'Gone', lastName: 'Soon', email: 'gone@example.com', password: PASSWORD, role: 'user', siteId: w.sites.a });
      const token = w.tokenFor(u.id);
      expect((await me(token)).status).toBe(200);
      await w.db('users').where({ id: u.id }).delete();
      await expectRejected(token);
    });

    it('a role change applies at once to tokens already handed out', async () => {
      const u = await w.services.users.createUser({ firstName: 'Temp', lastName: 'Admin', email: 'temp-admin@example.com', password: PASSWORD, role: 'admin', siteId: w.sites.a });
      const token = w.tokenFor(u.id);
      expect((await w.request().get('/api/sites').set(bearer(token))).status).toBe(200);
      const demote = await w.request().post('/api/users/upsert').set(bearer(w.tokens.adminA)).send({ id: u.id, role: 'user' });
      expect(demote.status).toBe(200);
      expect(demote.body.data.role).toBe('user');
      const after = await w.request().get('/api/sites').set(bearer(token));
      expect(after.status).toBe(403);
      expect(after.body.success).toBe(false);
      expect((await me(token)).body.data.role).toBe('user');
    });
  });

  describe('logout', () => {
    it.each(['/api/users/logout', '/users/logout'])('POST %s revokes the token', async (path) => {
      const signedIn = await login({ email: 'user-a@example.com', password: PASSWORD });
      const token = signedIn.body.data.token as string;
      const other = w.tokenFor(w.users.userA);
      expect((await me(token)).status).toBe(200);
      const out = await w.request().post(path).set(bearer(token));
      expect(out.status).toBe(200);
      expect(out.body.success).toBe(true);
      const after = await me(token);
      expect(after.status).toBe(401);
      expect(after.body.success).toBe(false);
      // Only that token: another session of the same user goes on.
      expect((await me(other)).status).toBe(200);
      // Signing out again with the revoked token is harmless.
      expect((await w.request().post(path).set(bearer(token))).status).toBe(200);
    });

    it.each(['/api/users/logout', '/users/logout'])('POST %s without a token answers 200', async (path) => {
      const res = await w.request().post(path);
      expect(res.status).toBe(200);
      expect(res.body.success).toBe(true);
    });
  });
});
