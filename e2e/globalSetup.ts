// Starts the built app as production runs it (`node dist/server/main.js`, building first what is
// missing or stale) on a free port with a fresh data folder; tests read its address via inject('baseUrl').
import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { TestProject } from 'vitest/node';
import { ensureBuilt, serverEntryFile } from '../scripts/lib/builds.mjs';
import { freePort } from '../server/test/infra';

declare module 'vitest' {
  export interface ProvidedContext {
    baseUrl: string;
  }
}

const root = path.resolve(import.meta.dirname, '..');
let child: ChildProcess | undefined;
let dataDir: string | undefined;

export default async function setup(project: TestProject) {
  await ensureBuilt(['admin', 'server']);
  const port = await freePort();
  dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'presswork-e2e-'));
  const baseUrl = `http://127.0.0.1:${port}`;
  const log = fs.createWriteStream(path.join(dataDir, 'server.log'));
  // SCAN_REPEAT_SECONDS=0: a browser test's scans follow each other faster than any double-read window
  // (scan.test.ts covers the window with a clock it controls). SYNC_SCHEDULER=0: the demo's Export 80
  // runs daily at 04:00 UTC, and a run crossing that hour found its dropped files already processed;
  // the browser tests run the sync jobs themselves (the scheduler has its own tests).
  child = spawn(process.execPath, [serverEntryFile('main')], {
    cwd: root,
    env: { ...process.env, PORT: String(port), HOST: '127.0.0.1', DATA_DIR: dataDir, PUBLIC_URL: baseUrl, NODE_ENV: 'test', SEED_DEMO: '1', LOG_LEVEL: 'warn', SMTP_CATCHER_PORT: '0', SCAN_REPEAT_SECONDS: '0', SYNC_SCHEDULER: '0' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  child.stdout?.pipe(log);
  child.stderr?.pipe(log);
  const deadline = Date.now() + 60_000;
  for (;;) {
    try {
      const r = await fetch(`${baseUrl}/api`);
      if (r.ok) break;
    } catch {
      /* not up yet */
    }
    if (child.exitCode !== null || Date.now() > deadline) {
      throw new Error(`the app did not start:\n${fs.readFileSync(path.join(dataDir, 'server.log'), 'utf8')}`);
    }
    await new Promise((r) => setTimeout(r, 200));
  }
  project.provide('baseUrl', baseUrl);
  return async () => {
    child?.kill('SIGTERM');
    await new Promise((r) => setTimeout(r, 300));
    if (dataDir) fs.rmSync(dataDir, { recursive: true, force: true });
  };
}
