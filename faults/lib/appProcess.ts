// A real Presswork process for the fault suite: started on a free port with the settings given,
// killed (SIGKILL: no shutdown hooks, no flush) and restarted on the same port and database.
import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { createPgDatabase, freePort } from '../../server/test/infra';

export { freePort };

const root = path.resolve(import.meta.dirname, '../..');

export const FAULTS_JWT_SECRET = 'faults-suite-secret-that-is-long-enough-0123456789';
export const FAULTS_ADMIN = { email: 'admin@faults.local', password: 'faults-admin-password' };

export interface AppProcess {
  readonly baseUrl: string;
  readonly port: number;
  readonly dataDir: string;
  /** Everything the process printed (all incarnations), for failure messages. */
  log(): string;
  /** Start (or restart after a kill) and wait until /api answers. */
  start(): Promise<void>;
  /** SIGKILL: the process dies at once, mid-request if it was in one. */
  kill(): Promise<void>;
  /** SIGTERM and wait for exit. */
  stop(): Promise<void>;
  /** Wait (up to `waitMs`) for the process to end by itself: how it ended; still running then: undefined. */
  exited(waitMs: number): Promise<{ code: number | null; signal: NodeJS.Signals | null } | undefined>;
  /**
   * SIGTERM and wait (up to `waitMs`) for the process to exit by itself: how long it took and how it
   * ended. Still alive then: SIGKILLed, and `exitedByItself` is false.
   */
  sigterm(opts?: { waitMs?: number; afterSignal?: () => void }): Promise<{ ms: number; code: number | null; signal: NodeJS.Signals | null; exitedByItself: boolean }>;
  /** Stop reading the process's stdout (the pipe fills up, as behind a log reader that is stuck). */
  pauseOutput(): void;
  /** Close our end of its stdout (its writes fail with EPIPE, as when the log reader has gone). */
  closeOutput(): void;
  readonly running: boolean;
  /** The current process id (lease holders are named host:pid:…), undefined when not started. */
  readonly pid: number | undefined;
}

/**
 * One app process. `env` adds settings (DATABASE_URL for PostgreSQL; SQLite in dataDir otherwise).
 * Defaults: no demo seed, no simulators, no scheduler, log level warn, a fixed JWT secret shared by
 * every instance (so two instances accept each other's tokens), the faults admin as first admin.
 */
export function appProcess(env: Record<string, string> = {}, opts: { dataDir?: string; port?: number; entry?: string } = {}): AppProcess {
  const dataDir = opts.dataDir ?? fs.mkdtempSync(path.join(os.tmpdir(), 'presswork-faults-'));
  let port = opts.port ?? 0;
  let child: ChildProcess | undefined;
  let output = '';
  async function launch(): Promise<void> {
    child = spawn(process.execPath, ['--import', 'tsx', opts.entry ?? 'server/src/main.ts'], {
      cwd: root,
      env: {
        ...process.env,
        NODE_ENV: 'test',
        PORT: String(port),
        HOST: '127.0.0.1',
        PUBLIC_URL: `http://127.0.0.1:${port}`,
        DATA_DIR: dataDir,
        SEED_DEMO: '0',
        SIMULATORS: '0',
        SYNC_SCHEDULER: '0',
        LOG_LEVEL: 'warn',
        JWT_SECRET: FAULTS_JWT_SECRET,
        ADMIN_EMAIL: FAULTS_ADMIN.email,
        ADMIN_PASSWORD: FAULTS_ADMIN.password,
        ...env,
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    const c = child;
    // Ready when this process said it listens AND /api answers: another process that grabbed the
    // port between freePort() and our listen must not pass for ours (ours then exits EADDRINUSE).
    let own = '';
    c.stdout?.on('data', (d) => ((output += d), (own += d)));
    c.stderr?.on('data', (d) => (output += d));
    const deadline = Date.now() + 60_000;
    for (;;) {
      try {
        const r = await fetch(`${self.baseUrl}/api`);
        if (r.ok && own.includes('Presswork is running at') && c.exitCode === null) return;
      } catch {
        /* not up yet */
      }
      if (c.exitCode !== null || Date.now() > deadline) throw new Error(`the app did not start:\n${output.slice(-4000)}`);
      await new Promise((r) => setTimeout(r, 100));
    }
  }

  const self: AppProcess = {
    get baseUrl() {
      return `http://127.0.0.1:${port}`;
    },
    get port() {
      return port;
    },
    dataDir,
    log: () => output,
    get running() {
      return !!child && child.exitCode === null && child.signalCode === null;
    },
    get pid() {
      return child?.pid;
    },
    async start() {
      if (self.running) return;
      if (!port) {
        // First start on a port of our choosing: if another process takes it before we listen, choose again.
        for (let tries = 0; ; tries++) {
          port = await freePort();
          try {
            return await launch();
          } catch (err) {
            if (tries >= 3 || !/EADDRINUSE/.test(String((err as Error).message))) throw err;
          }
        }
      }
      return launch();
    },
    async kill() {
      const c = child;
      if (!c || c.exitCode !== null || c.signalCode !== null) return;
      const exited = new Promise((r) => c.once('exit', r));
      c.kill('SIGKILL');
      await exited;
    },
    async sigterm({ waitMs = 60_000, afterSignal }: { waitMs?: number; afterSignal?: () => void } = {}) {
      const c = child;
      if (!c || c.exitCode !== null || c.signalCode !== null) throw new Error('the app is not running');
      const exited = new Promise<void>((r) => c.once('exit', () => r()));
      const started = performance.now();
      c.kill('SIGTERM');
      afterSignal?.();
      const byItself = await Promise.race([exited.then(() => true), new Promise<boolean>((r) => setTimeout(() => r(false), waitMs))]);
      const ms = Math.round(performance.now() - started);
      if (!byItself) await self.kill();
      return { ms, code: c.exitCode, signal: c.signalCode, exitedByItself: byItself };
    },
    async exited(waitMs) {
      const c = child;
      if (!c) throw new Error('the app was never started');
      if (c.exitCode === null && c.signalCode === null) {
        await Promise.race([new Promise((r) => c.once('exit', r)), new Promise((r) => setTimeout(r, waitMs))]);
      }
      return c.exitCode === null && c.signalCode === null ? undefined : { code: c.exitCode, signal: c.signalCode };
    },
    pauseOutput() {
      child?.stdout?.pause();
    },
    closeOutput() {
      child?.stdout?.destroy();
    },
    async stop() {
      const c = child;
      if (!c || c.exitCode !== null || c.signalCode !== null) return;
      const exited = new Promise((r) => c.once('exit', r));
      c.kill('SIGTERM');
      await Promise.race([exited, new Promise((r) => setTimeout(r, 10_000))]);
      if (c.exitCode === null && c.signalCode === null) await self.kill();
    },
  };
  return self;
}

/** A fresh PostgreSQL database (FAULTS_DATABASE_URL or TEST_DATABASE_URL, else the local `test`), dropped by `drop()`. */
export async function freshPostgres(): Promise<{ url: string; drop: () => Promise<void> }> {
  const base = process.env.FAULTS_DATABASE_URL ?? process.env.TEST_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test';
  return createPgDatabase(base, 'pw_faults');
}

/**
 * Two app instances on the same settings, started, stopped by `cleanups`; `fail` rethrows an error
 * with both instances' recent logs (what a failed fault run needs to be understood).
 */
export async function twoInstances(env: Record<string, string>, cleanups: Array<() => Promise<void>>) {
  const apps: AppProcess[] = [appProcess(env), appProcess(env)];
  for (const a of apps) cleanups.push(() => a.stop());
  const fail = (err: unknown): never => {
    throw new Error(`${err instanceof Error ? err.message : String(err)}\n--- app logs ---\n${apps.map((a, i) => `[instance ${i}]\n${a.log().slice(-3000)}`).join('\n')}`);
  };
  await Promise.all(apps.map((a) => a.start())).catch(fail);
  return { apps, fail };
}
