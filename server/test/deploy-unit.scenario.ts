// Starts the built server the way deploy/presswork.service does: the unit's ExecStart command line
// (the node running this test stands in for the unit's /usr/bin/node, the project folder for its
// WorkingDirectory), with nothing in its environment but what systemd gives a service and the
// unit's EnvironmentFile (deploy/presswork.env.example, its secrets filled in and made safe for a
// test: a free port, a temporary DATA_DIR and BACKUP_DIR). It must come up in production mode,
// answer its health checks, let the first admin sign in, log pino JSON on stdout, and stop on
// SIGTERM with exit code 0 before systemd would kill it (TimeoutStopSec).
// Builds the server first (npm run build) when dist/ has no build of it.
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freePort } from './infra';
import { ENV_EXAMPLE, readEnvExample, readUnit, ROOT, splitCommand, timespanMs, unitValue } from './deployFiles';

const unit = readUnit();
const execStart = splitCommand(unitValue(unit, 'Service', 'ExecStart') ?? '');
const [binary, ...args] = execStart;
const stopTimeoutMs = timespanMs(unitValue(unit, 'Service', 'TimeoutStopSec') ?? '90');

/** What systemd puts in a system service's environment before its EnvironmentFile (User= set). */
const systemdEnvironment = (home: string) => ({
  PATH: '/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin',
  HOME: home,
  USER: unitValue(unit, 'Service', 'User') ?? 'presswork',
  LOGNAME: unitValue(unit, 'Service', 'User') ?? 'presswork',
  SHELL: '/usr/sbin/nologin',
  LANG: 'C.UTF-8',
});

const ADMIN = { email: 'owner@deploy.example', password: 'a long first password' };

let child: ChildProcess | undefined;
let scratch: string | undefined;
let stdout = '';
let stderr = '';

beforeAll(() => {
  const entry = path.join(ROOT, args[0] ?? '');
  if (fs.existsSync(entry)) return;
  const build = spawnSync('npm', ['run', 'build'], { cwd: ROOT, stdio: ['ignore', 'pipe', 'pipe'], encoding: 'utf8' });
  if (build.status !== 0) throw new Error(`npm run build failed (${build.status}):\n${`${build.stdout}\n${build.stderr}`.slice(-4000)}`);
  if (!fs.existsSync(entry)) throw new Error(`npm run build did not write ${args[0]}, the unit's ExecStart`);
}, 15 * 60_000);

afterAll(() => {
  if (child && child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
  if (scratch) fs.rmSync(scratch, { recursive: true, force: true });
});

const output = () => `--- stdout ---\n${stdout.slice(-3000)}\n--- stderr ---\n${stderr.slice(-3000)}`;

describe('the built server, started as deploy/presswork.service starts it', () => {
  it('runs plain node on the built entry', () => {
    expect(path.basename(binary)).toBe('node');
    expect(args).toEqual(['dist/server/main.js']);
  });

  it('comes up on the env file\'s settings, answers its health checks, and stops on SIGTERM in time', async () => {
    scratch = fs.mkdtempSync(path.join(os.tmpdir(), 'presswork-deploy-unit-'));
    const port = await freePort();
    const example = readEnvExample();
    expect(example.values.NODE_ENV, `${path.basename(ENV_EXAMPLE)} is for production`).toBe('production');
    const env: Record<string, string> = {
      ...systemdEnvironment(scratch),
      ...example.values,
      PORT: String(port),
      HOST: '127.0.0.1',
      PUBLIC_URL: `http://127.0.0.1:${port}`,
      DATA_DIR: path.join(scratch, 'data'),
      ...(example.values.BACKUP_DIR !== undefined ? { BACKUP_DIR: path.join(scratch, 'backups') } : {}),
      JWT_SECRET: crypto.randomBytes(36).toString('base64url'),
      ADMIN_EMAIL: ADMIN.email,
      ADMIN_PASSWORD: ADMIN.password,
    };
    // The unit's WorkingDirectory is where the project is installed; here, this checkout.
    child = spawn(process.execPath, args, { cwd: ROOT, env, stdio: ['ignore', 'pipe', 'pipe'] });
    const proc = child;
    proc.stdout!.on('data', (d: Buffer) => (stdout += d));
    proc.stderr!.on('data', (d: Buffer) => (stderr += d));
    const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) => proc.once('exit', (code, signal) => resolve({ code, signal })));
    const base = `http://127.0.0.1:${port}`;

    // Up when /api/health answers (migrations and the first admin are done before it listens).
    const deadline = Date.now() + 90_000;
    let health: Response | undefined;
    while (!health) {
      if (proc.exitCode !== null || proc.signalCode !== null) throw new Error(`the server exited (${proc.exitCode ?? proc.signalCode}) before answering\n${output()}`);
      if (Date.now() > deadline) throw new Error(`the server did not answer /api/health within 90 s\n${output()}`);
      health = await fetch(`${base}/api/health`).catch(() => undefined);
      if (!health) await new Promise((r) => setTimeout(r, 200));
    }
    expect(health.status, output()).toBe(200);
    expect(await health.json()).toEqual({ success: true, data: { status: 'ok' } });

    const ready = await fetch(`${base}/api/health/ready`);
    const readyBody = await ready.text();
    expect(ready.status, readyBody).toBe(200);
    expect(JSON.parse(readyBody)).toMatchObject({ success: true });

    // The env file's first admin exists; nothing of the demo does (production).
    const login = await fetch(`${base}/api/users/login`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(ADMIN) });
    expect(login.status, await login.clone().text()).toBe(200);
    const demo = await fetch(`${base}/api/users/login`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ email: 'admin@presswork.local', password: 'presswork' }) });
    expect(demo.status).toBe(401);

    // journald gets pino's JSON lines (what docs/deploy.md's jq examples read).
    const logged = stdout.split('\n').flatMap((line) => {
      try {
        const entry = JSON.parse(line) as { level?: unknown; msg?: unknown; req?: { url?: string } };
        return typeof entry.level === 'number' ? [entry] : [];
      } catch {
        return [];
      }
    });
    expect(logged.some((e) => e.req?.url === '/api/users/login'), output()).toBe(true);

    const stopping = Date.now();
    proc.kill('SIGTERM');
    const killTimer = setTimeout(() => proc.kill('SIGKILL'), stopTimeoutMs);
    const { code, signal } = await exited;
    clearTimeout(killTimer);
    const tookMs = Date.now() - stopping;
    expect({ code, signal }, output()).toEqual({ code: 0, signal: null });
    expect(tookMs, 'stopped before systemd would kill it (TimeoutStopSec)').toBeLessThan(stopTimeoutMs);
  }, 180_000);
});
