// Backup of a sizeable DATA_DIR while the app writes: how long it takes and how big the archive is
// (against `tar -czf` of the same folder, which is neither consistent nor checked), and how long
// the event loop of the process running it is blocked (a scheduled backup runs in the server),
// against the same process writing without a backup. The database copy done on the main thread in
// one step is measured too: what the worker thread spares the server.
//   npx tsx bench/backup.bench.ts [rows=40000] [files=100]   (files of 1 MiB, incompressible like artwork)
import { spawn } from 'node:child_process';
import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import Database from 'better-sqlite3';
import { loadConfig } from '../server/src/config';
import { createDb, migrate } from '../server/src/db';
import { writeBackup } from '../server/src/modules/backup';
import { emitSummary, pct, sleep } from './support';

const rows = Number(process.argv[2] ?? 40_000);
const fileCount = Number(process.argv[3] ?? 100);
const mb = (n: number) => `${(n / 1024 / 1024).toFixed(1)} MB`;
const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'presswork-bench-backup-'));
const dataDir = path.join(dir, 'data');
const config = loadConfig({ NODE_ENV: 'test', DATA_DIR: dataDir, LOG_LEVEL: 'silent', SEED_DEMO: '0' });
const db = createDb(config.database);

async function timed<T>(work: () => Promise<T>): Promise<{ value: T; ms: number }> {
  const t = performance.now();
  const value = await work();
  return { value, ms: performance.now() - t };
}

/** tar -czf in another process (exit 1 is GNU tar's "a file changed as it was read": archive written). */
function tarCzf(from: string, to: string): Promise<{ code: number | null; stderr: string }> {
  return new Promise((resolve) => {
    const child = spawn('tar', ['-czf', to, '-C', from, '.'], { stdio: ['ignore', 'ignore', 'pipe'] });
    let stderr = '';
    child.stderr.on('data', (d) => (stderr += d));
    child.on('close', (code) => resolve({ code, stderr }));
    child.on('error', (err) => resolve({ code: null, stderr: err.message }));
  });
}

/** The app at work meanwhile: one webhook-like insert every 5 ms; each one's time, and the loop's delays. */
async function whileWriting<T>(work: () => Promise<T>): Promise<{ value: T; ms: number; loopMaxMs: number; loopP99Ms: number; insertP99Ms: number }> {
  const loop = monitorEventLoopDelay({ resolution: 5 });
  const inserts: number[] = [];
  let writing = true;
  const writer = (async () => {
    for (let i = 0; writing; i++) {
      const t = performance.now();
      await db('webhook_deliveries').insert({ source: 'bench', event_id: crypto.randomUUID(), topic: 'orders/create', payload: JSON.stringify({ i }), received_at: new Date().toISOString() });
      inserts.push(performance.now() - t);
      await sleep(5);
    }
  })();
  await sleep(200);
  loop.enable();
  const t = performance.now();
  const value = await work();
  const ms = performance.now() - t;
  // A block that lasted to the end of the work is recorded when the timer fires next.
  await sleep(20);
  loop.disable();
  writing = false;
  await writer;
  return { value, ms, loopMaxMs: loop.max / 1e6, loopP99Ms: loop.percentile(99) / 1e6, insertP99Ms: pct([...inserts].sort((a, b) => a - b), 99) };
}

try {
  await migrate(db);
  const payload = JSON.stringify({ note: 'x'.repeat(900) });
  for (let i = 0; i < rows; i += 400) {
    const batch = Array.from({ length: Math.min(400, rows - i) }, (_, k) => ({ source: 'shopify', event_id: `e-${i + k}`, topic: 'orders/create', payload, received_at: new Date().toISOString() }));
    await db('webhook_deliveries').insert(batch);
  }
  for (let i = 0; i < fileCount; i++) {
    const file = path.join(dataDir, 'files', 'designs', `${i}-artwork.png`);
    fs.mkdirSync(path.dirname(file), { recursive: true });
    fs.writeFileSync(file, crypto.randomBytes(1024 * 1024));
  }
  const dbBytes = fs.statSync(config.database.client === 'sqlite' ? config.database.filename : '').size;
  console.log(`DATA_DIR: database ${mb(dbBytes)} (${rows} webhook rows), ${fileCount} files of 1 MiB`);

  // Speed, the app idle: ours against tar -czf of the same folder (another process, as fast as gzip goes).
  const alone = await timed(() => writeBackup(config, path.join(dir, 'alone.tar.gz')));
  const tar = await timed(() => tarCzf(dataDir, path.join(dir, 'plain.tar.gz')));
  const tarBytes = fs.existsSync(path.join(dir, 'plain.tar.gz')) ? fs.statSync(path.join(dir, 'plain.tar.gz')).size : NaN;
  // The event loop, the app writing: no backup, ours, and the database copied on the main thread.
  const idle = await whileWriting(() => sleep(3000));
  const ours = await whileWriting(() => writeBackup(config, path.join(dir, 'busy.tar.gz')));
  const mainThread = await whileWriting(async () => {
    const source = new Database(config.database.client === 'sqlite' ? config.database.filename : '');
    try {
      await source.backup(path.join(dir, 'main-thread.sqlite'), { progress: () => 0x7fffffff });
    } finally {
      source.close();
    }
  });

  const loopCells = (r: { loopMaxMs: number; loopP99Ms: number; insertP99Ms: number }) => ({ 'loop max ms': r.loopMaxMs.toFixed(1), 'loop p99 ms': r.loopP99Ms.toFixed(1), 'insert p99 ms': r.insertP99Ms.toFixed(1) });
  console.table([
    { run: 'writeBackup, app idle', 'time s': (alone.ms / 1000).toFixed(1), archive: mb(alone.value.bytes) },
    { run: `tar -czf DATA_DIR, app idle (not consistent, no checks${tar.value.code === 1 ? '; tar: files changed' : ''})`, 'time s': (tar.ms / 1000).toFixed(1), archive: Number.isFinite(tarBytes) ? mb(tarBytes) : `failed: ${tar.value.stderr}` },
    { run: 'app writing, no backup (baseline)', 'time s': (idle.ms / 1000).toFixed(1), ...loopCells(idle) },
    { run: 'app writing, writeBackup (database copy in a worker)', 'time s': (ours.ms / 1000).toFixed(1), archive: mb(ours.value.bytes), ...loopCells(ours) },
    { run: 'app writing, database copied on the main thread (one step)', 'time s': (mainThread.ms / 1000).toFixed(1), ...loopCells(mainThread) },
  ]);
  const x = alone.ms / tar.ms;
  emitSummary({ figure: `Backup of DATA_DIR (${mb(dbBytes)} database, ${fileCount} MiB of files)`, value: `${(alone.ms / 1000).toFixed(1)} s, ${mb(alone.value.bytes)}`, baseline: `${(tar.ms / 1000).toFixed(1)} s tar -czf`, ratio: `${x.toFixed(2)}×`, aim: '≤ 2×', met: x <= 2 });
  const y = ours.loopP99Ms / idle.loopP99Ms;
  emitSummary({
    figure: 'Event-loop delay while the app writes and backs up (p99; max)',
    value: `${ours.loopP99Ms.toFixed(0)} ms; ${ours.loopMaxMs.toFixed(0)} ms`,
    baseline: `${idle.loopP99Ms.toFixed(0)} ms; ${idle.loopMaxMs.toFixed(0)} ms no backup (copy on the main thread: max ${mainThread.loopMaxMs.toFixed(0)} ms)`,
    ratio: `${y.toFixed(2)}× (p99)`,
    aim: '≤ 2× (p99)',
    met: y <= 2,
  });
} finally {
  await db.destroy();
  fs.rmSync(dir, { recursive: true, force: true });
}
