// The built server as production runs it: `npm run build:server`, then `node dist/server/main.js`
// in a copy of the project that has the built files and the runtime packages only — no tsx, no
// esbuild, no TypeScript sources — so anything that still needs TypeScript at run time fails here.
// The demo seed draws its designs in the render worker threads; the print PDF is made in a PDF
// worker thread: both built worker entries load.
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { PDFDocument } from 'pdf-lib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LAZY_PACKAGES } from '../../scripts/lib/lazyPackages.mjs';
import { createPgDatabase, freePort } from './infra';

const root = path.resolve(import.meta.dirname, '../..');
/** What a production install (`npm ci --omit=dev`) would not have, and the TypeScript loader above all. */
const DEV_ONLY = ['tsx', 'esbuild', '@esbuild', 'vite', 'typescript', 'vitest'];

let project: string;
let server: ChildProcess;
let base: string;
let output = '';
let dropDatabase = async () => {};

/** The project as deployed: package.json, dist/server and node_modules without the dev tools. */
function deployedCopy(): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'presswork-build-'));
  fs.copyFileSync(path.join(root, 'package.json'), path.join(dir, 'package.json'));
  fs.cpSync(path.join(root, 'dist/server'), path.join(dir, 'dist/server'), { recursive: true });
  fs.mkdirSync(path.join(dir, 'node_modules'));
  const modules = fs.realpathSync(path.join(root, 'node_modules'));
  for (const name of fs.readdirSync(modules)) {
    if (!DEV_ONLY.includes(name)) fs.symlinkSync(path.join(modules, name), path.join(dir, 'node_modules', name));
  }
  return dir;
}

const waitForExit = (child: ChildProcess) => new Promise<void>((resolve) => (child.exitCode !== null || child.signalCode !== null ? resolve() : child.once('exit', () => resolve())));

beforeAll(async () => {
  const built = spawnSync(process.execPath, ['scripts/build-server.mjs'], { cwd: root, encoding: 'utf8' });
  expect(built.status, built.stderr).toBe(0);
  project = deployedCopy();
  const port = await freePort();
  base = `http://127.0.0.1:${port}`;
  const pg = process.env.TEST_DATABASE_URL ? await createPgDatabase(process.env.TEST_DATABASE_URL, 'pw_build') : null;
  if (pg) dropDatabase = pg.drop;
  server = spawn(process.execPath, ['dist/server/main.js'], {
    cwd: project,
    env: {
      PATH: process.env.PATH,
      NODE_ENV: 'test',
      PORT: String(port),
      HOST: '127.0.0.1',
      PUBLIC_URL: base,
      DATA_DIR: path.join(project, 'data'),
      ...(pg ? { DATABASE_URL: pg.url } : {}),
      SEED_DEMO: '1',
      SIMULATORS: '0',
      SYNC_SCHEDULER: '0',
      LOG_LEVEL: 'warn',
      JWT_SECRET: 'build-test-secret-that-is-long-enough-0123456789',
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  server.stdout!.on('data', (d) => (output += d));
  server.stderr!.on('data', (d) => (output += d));
  const deadline = Date.now() + 90_000;
  for (;;) {
    const answered = await fetch(`${base}/api`).then((r) => r.ok, () => false);
    if (answered) break;
    if (server.exitCode !== null || Date.now() > deadline) throw new Error(`the built server did not start:\n${output.slice(-4000)}`);
    await new Promise((r) => setTimeout(r, 200));
  }
}, 120_000);

afterAll(async () => {
  if (server) {
    server.kill('SIGTERM');
    await Promise.race([waitForExit(server), new Promise((r) => setTimeout(r, 15_000))]);
    if (server.exitCode === null && server.signalCode === null) server.kill('SIGKILL');
  }
  await dropDatabase();
  if (project) fs.rmSync(project, { recursive: true, force: true });
});

describe('the built server', () => {
  it('runs on plain node: no loader flags, and no tsx it could load', () => {
    const cmdline = fs.readFileSync(`/proc/${server.pid}/cmdline`, 'utf8').split('\0').filter(Boolean);
    expect(cmdline).toEqual([process.execPath, 'dist/server/main.js']);
    expect(fs.existsSync(path.join(project, 'node_modules/tsx'))).toBe(false);
    for (const file of fs.readdirSync(path.join(project, 'dist/server'), { recursive: true }) as string[]) {
      if (file.endsWith('.js')) expect(fs.readFileSync(path.join(project, 'dist/server', file), 'utf8'), file).not.toMatch(/from\s*["']tsx|import\(\s*["']tsx/);
    }
  });

  it('imports none of the packages it loads on first use (a start needs none of them)', () => {
    for (const file of ['main.bundle.js', 'cli/backup.bundle.js']) {
      const code = fs.readFileSync(path.join(project, 'dist/server', file), 'utf8');
      for (const name of Object.keys(LAZY_PACKAGES)) expect(code, `${file} imports ${name}`).not.toMatch(new RegExp(`(from|import\\()\\s*["']${name}["']`));
    }
  });

  it('answers the API and makes a demo job’s print PDF in a worker thread', async () => {
    const login = await fetch(`${base}/api/users/login`, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify({ email: 'admin@presswork.local', password: 'presswork' }) });
    expect(login.status).toBe(200);
    const auth = { Authorization: `Bearer ${((await login.json()) as { data: { token: string } }).data.token}` };
    const jobs = (await (await fetch(`${base}/api/print-jobs?page=1&readyForPrint=1&isPrinted=0`, { headers: auth })).json()) as { data: { list: Array<{ id: number; data?: { format?: string } }> } };
    // A card's print file: four A5 pages (the demo's mug and poster print one page each).
    jobs.data.list = jobs.data.list.filter((j) => (j.data?.format ?? 'card-a5') === 'card-a5');
    expect(jobs.data.list.length, `no demo job to print (the seed draws them in the render workers):\n${output.slice(-2000)}`).toBeGreaterThan(0);
    const pdf = await fetch(`${base}/api/pdf/from-print-job`, { method: 'POST', headers: { ...auth, 'Content-Type': 'application/json', Accept: 'application/pdf' }, body: JSON.stringify({ id: jobs.data.list[0].id }) });
    expect(pdf.status, output.slice(-2000)).toBe(200);
    expect(pdf.headers.get('content-type')).toMatch(/^application\/pdf/);
    const doc = await PDFDocument.load(new Uint8Array(await pdf.arrayBuffer()));
    expect(doc.getPageCount()).toBe(4);
  }, 60_000);

  it('names TypeScript lines in its stack traces', () => {
    // A data folder that cannot be made: the start fails with the error's stack.
    const blocked = path.join(project, 'package.json', 'data');
    const r = spawnSync(process.execPath, ['dist/server/main.js'], { cwd: project, env: { PATH: process.env.PATH, NODE_ENV: 'test', DATA_DIR: blocked, LOG_LEVEL: 'silent' }, encoding: 'utf8', timeout: 30_000 });
    expect(r.status).toBe(1);
    expect(r.stderr).toMatch(/ENOTDIR/);
    expect(r.stderr).toMatch(/server\/src\/config\.ts:\d+:\d+/);
  });
});
