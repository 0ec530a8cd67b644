// loadConfig: every setting validated once; production refuses unsafe settings.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { ConfigError, DEMO_ADMIN, loadConfig } from '../src/config';
import { createDb } from '../src/db';

const GOOD_SECRET = 'Zq8v3Lw1Xr7Tn2Pk9Hs4Md6Bf0Gj5Ya-unguessable';

describe('loadConfig', () => {
  const dirs: string[] = [];
  const tempDir = () => {
    const d = fs.mkdtempSync(path.join(os.tmpdir(), 'presswork-config-'));
    dirs.push(d);
    return d;
  };
  afterAll(() => dirs.forEach((d) => fs.rmSync(d, { recursive: true, force: true })));
  const prod = (env: Record<string, string> = {}) => loadConfig({ NODE_ENV: 'production', DATA_DIR: tempDir(), ...env });

  describe('production', () => {
    it('refuses to start without JWT_SECRET', () => {
      expect(() => prod()).toThrow(ConfigError);
      expect(() => prod()).toThrow(/JWT_SECRET/);
    });

    it.each(['short', 'x'.repeat(31), 'please-change-me-please-change-me-123', 'my-secret-my-secret-my-secret-my-secret', 'default-default-default-default-default'])(
      'refuses a short or default-looking secret (%s)',
      (secret) => {
        expect(() => prod({ JWT_SECRET: secret })).toThrow(ConfigError);
        expect(() => prod({ JWT_SECRET: secret })).toThrow(/JWT_SECRET/);
      },
    );

    it('refuses SIMULATORS=1', () => {
      expect(() => prod({ JWT_SECRET: GOOD_SECRET, SIMULATORS: '1' })).toThrow(ConfigError);
      expect(() => prod({ JWT_SECRET: GOOD_SECRET, SIMULATORS: 'true' })).toThrow(/SIMULATORS/);
    });

    it('starts with a real secret: no simulators, no demo data, no demo admin, no secret file', () => {
      const dir = tempDir();
      const c = loadConfig({ NODE_ENV: 'production', DATA_DIR: dir, JWT_SECRET: GOOD_SECRET });
      expect(c.isProduction).toBe(true);
      expect(c.jwt).toMatchObject({ secret: GOOD_SECRET, secretIsGenerated: false });
      expect(c.simulators).toBe(false);
      expect(c.seedDemo).toBe(false);
      expect(c.firstAdmin).toBeUndefined();
      expect(fs.existsSync(path.join(dir, 'jwt-secret'))).toBe(false);
    });

    it('takes the first admin from ADMIN_EMAIL / ADMIN_PASSWORD', () => {
      const c = prod({ JWT_SECRET: GOOD_SECRET, ADMIN_EMAIL: 'Boss@Example.com', ADMIN_PASSWORD: 'a long password' });
      expect(c.firstAdmin).toEqual({ email: 'boss@example.com', password: 'a long password' });
      expect(() => prod({ JWT_SECRET: GOOD_SECRET, ADMIN_EMAIL: 'boss@example.com', ADMIN_PASSWORD: 'short' })).toThrow(/ADMIN_PASSWORD/);
    });
  });

  describe('outside production', () => {
    it('generates a secret once, keeps it in DATA_DIR/jwt-secret, and reuses it', () => {
      const dir = tempDir();
      const first = loadConfig({ NODE_ENV: 'development', DATA_DIR: dir });
      expect(first.jwt.secretIsGenerated).toBe(true);
      expect(first.jwt.secret.length).toBeGreaterThanOrEqual(32);
      const file = path.join(dir, 'jwt-secret');
      expect(fs.readFileSync(file, 'utf8').trim()).toBe(first.jwt.secret);
      if (process.platform !== 'win32') expect(fs.statSync(file).mode & 0o077).toBe(0);
      const second = loadConfig({ NODE_ENV: 'development', DATA_DIR: dir });
      expect(second.jwt.secret).toBe(first.jwt.secret);
      // Another data directory gets another secret.
      expect(loadConfig({ DATA_DIR: tempDir() }).jwt.secret).not.toBe(first.jwt.secret);
    });

    it('creates DATA_DIR when it does not exist yet', () => {
      const dir = path.join(tempDir(), 'nested', 'data');
      const c = loadConfig({ DATA_DIR: dir });
      expect(fs.readFileSync(path.join(dir, 'jwt-secret'), 'utf8').trim()).toBe(c.jwt.secret);
    });

    it('documented defaults', () => {
      const dir = tempDir();
      const c = loadConfig({ DATA_DIR: dir });
      expect(c).toMatchObject({
        env: 'development',
        isProduction: false,
        port: 8080,
        database: { client: 'sqlite', filename: path.join(dir, 'presswork.sqlite') },
        bodyLimit: '1mb',
        uploads: { maxBytes: 25 * 1024 * 1024, urlTtlSeconds: 900 },
        login: { maxFailures: 5, windowSeconds: 60 },
        simulators: true,
        seedDemo: true,
        firstAdmin: DEMO_ADMIN,
      });
      expect(c.jwt.expiresIn).toBe('12h');
    });
  });

  describe('DATABASE_URL', () => {
    it.each(['postgres://u:p@db:5432/presswork', 'postgresql://db/presswork'])('%s → PostgreSQL', (url) => {
      expect(loadConfig({ DATA_DIR: tempDir(), DATABASE_URL: url }).database).toEqual({ client: 'pg', url });
    });

    it('sqlite: → that SQLite file', () => {
      expect(loadConfig({ DATA_DIR: tempDir(), DATABASE_URL: 'sqlite:/tmp/x.sqlite' }).database).toEqual({ client: 'sqlite', filename: '/tmp/x.sqlite', synchronous: 'FULL' });
    });

    it('SQLite flushes every commit (FULL) unless SQLITE_SYNCHRONOUS=NORMAL; other values are refused', async () => {
      const dir = tempDir();
      const full = createDb(loadConfig({ DATA_DIR: dir }).database);
      const normal = createDb(loadConfig({ DATA_DIR: tempDir(), SQLITE_SYNCHRONOUS: 'normal' }).database);
      try {
        // PRAGMA synchronous: 1 = NORMAL, 2 = FULL.
        expect(await full.raw('pragma synchronous')).toEqual([{ synchronous: 2 }]);
        expect(await normal.raw('pragma synchronous')).toEqual([{ synchronous: 1 }]);
      } finally {
        await full.destroy();
        await normal.destroy();
      }
      expect(() => loadConfig({ DATA_DIR: dir, SQLITE_SYNCHRONOUS: 'OFF' })).toThrow(/SQLITE_SYNCHRONOUS/);
    });

    it('anything else → an error naming DATABASE_URL', () => {
      expect(() => loadConfig({ DATA_DIR: tempDir(), DATABASE_URL: 'mysql://db/x' })).toThrow(ConfigError);
      expect(() => loadConfig({ DATA_DIR: tempDir(), DATABASE_URL: 'mysql://db/x' })).toThrow(/DATABASE_URL/);
    });
  });

  describe('bad values are refused, naming the setting', () => {
    it.each([
      ['PORT', 'abc'],
      ['PORT', '70000'],
      ['PORT', '-1'],
      ['NODE_ENV', 'staging'],
      ['JWT_EXPIRES_IN', 'forever'],
      ['BODY_LIMIT', 'lots'],
      ['UPLOAD_MAX_BYTES', '0'],
      ['UPLOAD_URL_TTL_SECONDS', 'soon'],
      ['LOGIN_MAX_FAILURES', '0'],
      ['LOG_LEVEL', 'loud'],
      ['SHUTDOWN_TIMEOUT_MS', '500'],
      ['SHUTDOWN_TIMEOUT_MS', 'soon'],
      ['SIMULATORS', 'maybe'],
      ['SMTP_CATCHER_PORT', '70000'],
      ['SMTP_URL', 'mail.example.org:25'],
      ['PUBLIC_URL', 'not a url'],
      ['ADMIN_EMAIL', 'nobody'],
      ['METRICS_TOKEN', 'too-short'],
      ['METRICS_TOKEN', 'has a space 0123456789'],
      ['READY_MIN_FREE_MB', '-5'],
      ['READY_MIN_FREE_MB', 'lots'],
    ])('%s=%s', (name, value) => {
      let error: unknown;
      try {
        loadConfig({ DATA_DIR: tempDir(), [name]: value });
      } catch (e) {
        error = e;
      }
      expect(error).toBeInstanceOf(ConfigError);
      expect((error as Error).message).toContain(name);
    });

    it('numbers and lists are parsed', () => {
      const c = loadConfig({ DATA_DIR: tempDir(), PORT: '3000', LOGIN_MAX_FAILURES: '3', PUBLIC_URL: 'https://press.example.com/', SIMULATORS: 'off', SEED_DEMO: '0' });
      expect(c.port).toBe(3000);
      expect(c.login.maxFailures).toBe(3);
      expect(c.publicUrl).toBe('https://press.example.com');
      expect(c.simulators).toBe(false);
      expect(c.seedDemo).toBe(false);
    });

    it('metrics and readiness: no token (loopback scrapers) and 512 MB unless told otherwise; an empty token is no token', () => {
      expect(loadConfig({ DATA_DIR: tempDir() })).toMatchObject({ metrics: { token: undefined }, ready: { minFreeMb: 512 } });
      expect(loadConfig({ DATA_DIR: tempDir(), METRICS_TOKEN: '' }).metrics.token).toBeUndefined();
      expect(loadConfig({ DATA_DIR: tempDir(), METRICS_TOKEN: 'a-scraper-token-0123456789', READY_MIN_FREE_MB: '2048' })).toMatchObject({ metrics: { token: 'a-scraper-token-0123456789' }, ready: { minFreeMb: 2048 } });
    });

    it('a shutdown takes at most 10 s unless SHUTDOWN_TIMEOUT_MS says otherwise', () => {
      expect(loadConfig({ DATA_DIR: tempDir() }).shutdownTimeoutMs).toBe(10_000);
      expect(loadConfig({ DATA_DIR: tempDir(), SHUTDOWN_TIMEOUT_MS: '25000' }).shutdownTimeoutMs).toBe(25_000);
    });

    it('the demo mail catcher listens on 2525 unless told otherwise (0: any free port)', () => {
      expect(loadConfig({ DATA_DIR: tempDir() }).smtpCatcherPort).toBe(2525);
      expect(loadConfig({ DATA_DIR: tempDir(), SMTP_CATCHER_PORT: '0' }).smtpCatcherPort).toBe(0);
    });
  });
});
