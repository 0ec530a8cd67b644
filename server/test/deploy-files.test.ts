// The deploy folder stays true to the server: the env file lists every setting config.ts reads
// (and nothing it does not), with the defaults config.ts applies; the example loads as a production
// configuration once its secrets are filled in; the unit stops within the server's shutdown bound
// and lets it write where it writes; the proxies forward to the example's address with limits and
// timeouts above the server's own.
import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig, SETTING_NAMES, settingDefaults } from '../src/config';
import {
  CADDYFILE,
  ENV_EXAMPLE,
  envSetting,
  findAll,
  NGINX_CONF,
  parseCaddyfile,
  parseNginx,
  readEnvExample,
  readUnit,
  ROOT,
  splitCommand,
  timespanMs,
  unitValue,
  type Directive,
} from './deployFiles';

const env = readEnvExample();
const unit = readUnit();

/** The secrets a deployment fills in before the first start (the example carries none). */
const FILLED_SECRETS = { JWT_SECRET: crypto.randomBytes(36).toString('base64url'), ADMIN_EMAIL: 'owner@example.com', ADMIN_PASSWORD: 'a long first password' };

/** Shutdown's bound when the env file leaves it at its default (the server's default). */
const shutdownMs = () => Number(envSetting(env, 'SHUTDOWN_TIMEOUT_MS') ?? 10_000);

/** express's body size ("1mb", "512kb", "100b"), in bytes. */
function bodyLimitBytes(limit: string): number {
  const m = /^(\d+)(b|kb|mb)$/i.exec(limit);
  if (!m) throw new Error(`not a body limit: ${limit}`);
  return Number(m[1]) * { b: 1, kb: 1024, mb: 1024 * 1024 }[m[2].toLowerCase() as 'b' | 'kb' | 'mb'];
}

/** nginx's sizes ("2m", "512k", "100") and Caddy's ("2MiB", "2MB", "512KiB"), in bytes. */
function sizeBytes(size: string): number {
  const m = /^(\d+)\s*([kmg]?)(i?b?)$/i.exec(size);
  if (!m) throw new Error(`not a size: ${size}`);
  const nginxStyle = m[3] === '';
  const base = nginxStyle || /i/i.test(m[3]) ? 1024 : 1000;
  return Number(m[1]) * base ** ' kmg'.indexOf(m[2].toLowerCase() || ' ');
}

/** nginx's and Caddy's durations ("300s", "5m", "60"), in ms. */
const durationMs = (value: string) => timespanMs(value.replace(/^(\d+)m$/, '$1min'));

/** The server's own keep-alive timeout (where the HTTP server is created). */
function serverKeepAliveMs(): number {
  const found: number[] = [];
  const walk = (dir: string) => {
    for (const e of fs.readdirSync(dir, { withFileTypes: true })) {
      const p = path.join(dir, e.name);
      if (e.isDirectory()) walk(p);
      else if (p.endsWith('.ts')) for (const m of fs.readFileSync(p, 'utf8').matchAll(/keepAliveTimeout\s*=\s*([\d_]+)/g)) found.push(Number(m[1].replace(/_/g, '')));
    }
  };
  walk(path.join(ROOT, 'server/src'));
  if (!found.length) throw new Error('server/src sets no keepAliveTimeout: the proxies\' idle timeouts cannot be checked against it');
  return Math.min(...found);
}

const upstream = () => `${env.values.HOST}:${env.values.PORT}`;

describe('the env file (deploy/presswork.env.example)', () => {
  const listed = env.listed.map((s) => s.name);

  it('lists every setting config.ts reads', () => {
    expect(SETTING_NAMES.filter((name) => !listed.includes(name))).toEqual([]);
  });

  it('lists only settings config.ts reads, each once', () => {
    expect(listed.filter((name) => !SETTING_NAMES.includes(name))).toEqual([]);
    expect(listed.filter((name, i) => listed.indexOf(name) !== i)).toEqual([]);
  });

  it('says what each setting is, and shows the default config.ts applies on each commented line', () => {
    const defaults = settingDefaults();
    for (const s of env.listed) {
      expect(s.comment, `${s.name} has no comment above it`).not.toBe('');
      if (s.active || s.value === '') continue;
      expect(defaults[s.name] === undefined ? undefined : String(defaults[s.name]), `the commented ${s.name}= line (line ${s.line}) shows the default`).toBe(s.value);
    }
  });

  it('marks every secret and carries none', () => {
    const secretLike = env.listed.filter((s) => /SECRET|PASSWORD|TOKEN/.test(s.name) || ['DATABASE_URL', 'SMTP_URL'].includes(s.name));
    expect(secretLike.map((s) => s.name)).toEqual(expect.arrayContaining(['JWT_SECRET', 'ADMIN_PASSWORD', 'DATABASE_URL', 'SMTP_URL']));
    for (const s of secretLike) {
      expect(s.comment, `${s.name} is not marked [secret]`).toContain('[secret]');
      expect(s.value, `${s.name} carries a value`).toBe('');
    }
  });

  it('cannot start unfilled: the production values refuse to load until the secrets are set', () => {
    expect(() => loadConfig(env.values)).toThrow(ConfigError);
    expect(() => loadConfig(env.values)).toThrow(/JWT_SECRET/);
  });

  it('loads as a production configuration once its secrets are filled in', () => {
    const config = loadConfig({ ...env.values, ...FILLED_SECRETS });
    expect(config.isProduction).toBe(true);
    expect(config.simulators).toBe(false);
    expect(config.seedDemo).toBe(false);
    expect(config.firstAdmin?.email).toBe(FILLED_SECRETS.ADMIN_EMAIL);
    expect(config.host).toBe('127.0.0.1');
    expect(config.publicUrl).toMatch(/^https:\/\//);
  });
});

describe('the systemd unit (deploy/presswork.service)', () => {
  it('runs the built server with plain node from the project folder, with the env file', () => {
    const command = splitCommand(unitValue(unit, 'Service', 'ExecStart') ?? '');
    expect(command[0]).toMatch(/^\/.*\/node$/);
    expect(command.slice(1)).toEqual(['dist/server/main.js']);
    expect(command.join(' ')).not.toMatch(/npm|tsx|\.ts\b/);
    expect(unitValue(unit, 'Service', 'WorkingDirectory')).toMatch(/^\//);
    expect(path.basename(unitValue(unit, 'Service', 'EnvironmentFile') ?? '')).toBe(path.basename(ENV_EXAMPLE, '.example'));
    expect(unitValue(unit, 'Service', 'User')).toBeTruthy();
    expect(unitValue(unit, 'Service', 'User')).not.toBe('root');
  });

  it('restarts after a crash, and stops with SIGTERM, waiting longer than the server\'s shutdown bound', () => {
    expect(unitValue(unit, 'Service', 'Restart')).toBe('on-failure');
    expect(unitValue(unit, 'Service', 'KillSignal')).toBe('SIGTERM');
    const stopMs = timespanMs(unitValue(unit, 'Service', 'TimeoutStopSec') ?? '90');
    expect(stopMs).toBeGreaterThan(shutdownMs() * 1.5);
  });

  it('is hardened, and still lets the server write DATA_DIR and BACKUP_DIR and run its children', () => {
    const service = unit.Service;
    expect(unitValue(unit, 'Service', 'ProtectSystem')).toBe('strict');
    expect(unitValue(unit, 'Service', 'NoNewPrivileges')).toBe('yes');
    expect(unitValue(unit, 'Service', 'PrivateTmp')).toBe('yes');
    const writable = [
      ...(service.ReadWritePaths ?? []).flatMap((v) => v.split(/\s+/)).map((p) => p.replace(/^-/, '')),
      ...(service.StateDirectory ?? []).flatMap((v) => v.split(/\s+/)).map((d) => `/var/lib/${d}`),
    ];
    const inside = (dir: string) => writable.some((w) => dir === w || dir.startsWith(`${w}/`));
    expect(inside(env.values.DATA_DIR), `DATA_DIR ${env.values.DATA_DIR} is writable`).toBe(true);
    if (env.values.BACKUP_DIR) expect(inside(env.values.BACKUP_DIR), `BACKUP_DIR ${env.values.BACKUP_DIR} is writable`).toBe(true);
    // V8 compiles code into memory it then runs; Node reads /proc/stat and /proc/meminfo.
    expect(unitValue(unit, 'Service', 'MemoryDenyWriteExecute') ?? 'no').toBe('no');
    expect(unitValue(unit, 'Service', 'ProcSubset') ?? 'all').toBe('all');
  });
});

describe('the reverse proxies (deploy/nginx.conf, deploy/Caddyfile)', () => {
  const config = loadConfig({ ...env.values, ...FILLED_SECRETS });
  const keepAliveMs = serverKeepAliveMs();

  describe('nginx', () => {
    const conf = parseNginx(fs.readFileSync(NGINX_CONF, 'utf8'));
    const up = findAll(conf, 'upstream').find((u) => u.args[0] === 'presswork')!;
    const tls = findAll(conf, 'server').find((s) => s.block && findAll(s.block, 'listen').some((l) => l.args.includes('ssl')))!;
    const own = (block: Directive[], name: string) => block.find((d) => d.name === name)?.args[0];
    const location = (path: string) => findAll(tls.block!, 'location').find((l) => l.args.at(-1) === path);

    it('forwards to the env file\'s HOST:PORT over kept-alive connections the server does not close first', () => {
      expect(findAll(up.block!, 'server')[0].args[0]).toBe(upstream());
      expect(own(tls.block!, 'proxy_http_version')).toBe('1.1');
      expect(durationMs(own(up.block!, 'keepalive_timeout') ?? '60s')).toBeLessThan(keepAliveMs);
    });

    it('lets bodies up to the server\'s limits through, and waits longer than a PDF may render', () => {
      expect(sizeBytes(own(tls.block!, 'client_max_body_size') ?? '1m')).toBeGreaterThan(bodyLimitBytes(config.bodyLimit));
      expect(sizeBytes(own(location('/uploads/')!.block!, 'client_max_body_size') ?? '1m')).toBeGreaterThan(config.uploads.maxBytes);
      expect(durationMs(own(tls.block!, 'proxy_read_timeout') ?? '60s')).toBeGreaterThan(2 * config.artwork.pdfTimeoutMs);
    });

    it('tells the server who the client is (TRUST_PROXY=loopback believes it) and keeps /metrics private', () => {
      expect(config.trustProxy).toBe('loopback');
      expect(findAll(tls.block!, 'proxy_set_header').map((h) => h.args[0])).toEqual(expect.arrayContaining(['X-Forwarded-For', 'X-Forwarded-Proto', 'Host']));
      for (const p of ['/metrics', '/metrics/']) {
        const loc = location(p);
        expect(loc, `a location for ${p}`).toBeDefined();
        expect(own(loc!.block!, 'return')).toBe('404');
        expect(findAll(loc!.block!, 'proxy_pass')).toEqual([]);
      }
    });
  });

  describe('Caddy', () => {
    const conf = parseCaddyfile(fs.readFileSync(CADDYFILE, 'utf8'));
    const site = conf.find((d) => d.name.includes('.'))!;
    const handles = findAll(site.block!, 'handle');
    const sizesOf = (h: Directive) => findAll(h.block!, 'max_size').map((d) => sizeBytes(d.args[0]));

    it('forwards to the env file\'s HOST:PORT, waiting longer than a PDF may render, idling less than the server', () => {
      const proxies = findAll(conf, 'reverse_proxy');
      expect(proxies.map((p) => p.args[0])).toEqual([upstream()]);
      const transport = proxies[0].block!;
      expect(durationMs(findAll(transport, 'response_header_timeout')[0].args[0])).toBeGreaterThan(2 * config.artwork.pdfTimeoutMs);
      expect(durationMs(findAll(transport, 'keepalive')[0].args[0])).toBeLessThan(keepAliveMs);
    });

    it('lets bodies up to the server\'s limits through', () => {
      const uploads = handles.find((h) => h.args[0] === '/uploads/*')!;
      const rest = handles.find((h) => h.args.length === 0)!;
      expect(Math.min(...sizesOf(uploads))).toBeGreaterThan(config.uploads.maxBytes);
      expect(Math.min(...sizesOf(rest))).toBeGreaterThan(bodyLimitBytes(config.bodyLimit));
    });

    it('keeps /metrics private', () => {
      const matcher = findAll(site.block!, '@metrics')[0];
      expect(matcher.args).toEqual(['path', '/metrics', '/metrics/*']);
      const handle = handles.find((h) => h.args[0] === '@metrics')!;
      expect(findAll(handle.block!, 'respond')[0].args.at(-1)).toBe('404');
      expect(findAll(handle.block!, 'import')).toEqual([]);
    });
  });
});
