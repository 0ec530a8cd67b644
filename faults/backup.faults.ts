// A backup taken during a webhook storm: a real app process takes signed Shopify order webhooks at
// concurrency 16 while `npm run backup` (another process, as an operator runs it) writes its archive.
// The archive is restored into an empty DATA_DIR with `npm run restore`, an app is started on it, and
// every order whose webhook was acknowledged (2xx) before the backup started is there, at least as
// new as the newest version acknowledged by then.
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { appProcess, FAULTS_JWT_SECRET, type AppProcess } from './lib/appProcess';
import { openAppDb, waitUntilProcessed } from './lib/inspect';
import { createStoreSite, deliverAll, planStorm, signIn, sleep, webhookUrl, type DeliveryOutcome } from './lib/store';

const N = Number(process.env.FAULTS_N ?? 300);
const seed = Number(process.env.FAULTS_SEED ?? Math.floor(Math.random() * 2 ** 31));
const root = path.resolve(import.meta.dirname, '..');

const cleanups: Array<() => Promise<void> | void> = [];
const apps: AppProcess[] = [];
afterEach(async (ctx) => {
  if (ctx.task.result?.state === 'fail') for (const a of apps) console.log(`--- app log (${a.dataDir}) ---\n${a.log().slice(-6000)}`);
  apps.length = 0;
  while (cleanups.length) await Promise.resolve(cleanups.pop()!()).catch(() => {});
});

/** `npm run <script> -- <args>` with DATA_DIR, without blocking this process (the storm goes on). */
function npmRun(script: string, args: string[], dataDir: string): Promise<{ code: number | null; out: string }> {
  const env: NodeJS.ProcessEnv = { ...process.env, NODE_ENV: 'test', DATA_DIR: dataDir, JWT_SECRET: FAULTS_JWT_SECRET, LOG_LEVEL: 'warn' };
  delete env.DATABASE_URL;
  const child = spawn('npm', ['run', '-s', script, '--', ...args], { cwd: root, env, stdio: ['ignore', 'pipe', 'pipe'] });
  let out = '';
  child.stdout.on('data', (d) => (out += d));
  child.stderr.on('data', (d) => (out += d));
  return new Promise((resolve) => child.on('close', (code) => resolve({ code, out })));
}

const quantile = (xs: number[], q: number) => (xs.length ? [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor(q * xs.length))] : NaN);

describe('backup during a webhook storm', () => {
  it('every order acknowledged before the backup started is in the restored database', async () => {
    const live = appProcess();
    apps.push(live);
    cleanups.push(() => live.stop());
    await live.start();
    const token = await signIn(live.baseUrl);
    const site = await createStoreSite(live.baseUrl, token, `backup-${seed % 100_000}`);
    // More orders than will be sent: the storm goes on until well after the backup, then stops.
    const plan = planStorm({ orders: N * 10, seed });
    console.log(`[backup storm] seed ${seed} (FAULTS_SEED=${seed} to replay), up to ${plan.deliveries.length} deliveries`);

    const acks: DeliveryOutcome[] = [];
    let backupStartedAt = Infinity;
    let backupEndedAt = Infinity;
    let ackedAtBackupEnd = Infinity;
    const storm = deliverAll(plan.deliveries, {
      url: () => webhookUrl(live.baseUrl, site),
      site,
      concurrency: 16,
      onAck: (o) => void acks.push(o),
      stopWhen: () => acks.length >= ackedAtBackupEnd + 100,
    });
    // The app's answers to a cheap call meanwhile: how the backup weighs on it (printed, not asserted).
    const probes: Array<{ at: number; ms: number }> = [];
    let probing = true;
    const probe = (async () => {
      while (probing) {
        const t = performance.now();
        await fetch(`${live.baseUrl}/api`).then((r) => r.arrayBuffer()).catch(() => {});
        probes.push({ at: Date.now(), ms: performance.now() - t });
        await sleep(50);
      }
    })();

    while (acks.length < plan.deliveries.length * 0.06) await sleep(10);
    const backupFile = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'presswork-backups-')), 'storm.tar.gz');
    cleanups.push(() => fs.rmSync(path.dirname(backupFile), { recursive: true, force: true }));
    backupStartedAt = Date.now();
    const ackedBefore = [...acks];
    const backup = await npmRun('backup', [backupFile], live.dataDir);
    backupEndedAt = Date.now();
    ackedAtBackupEnd = acks.length;
    const { stats } = await storm;
    probing = false;
    await probe;
    expect(backup.code, backup.out).toBe(0);
    expect(backup.out).toMatch(/^Backup written: /m);
    const during = acks.filter((a) => a.ackedAt >= backupStartedAt && a.ackedAt <= backupEndedAt).length;
    const latency = (from: number, to: number) => probes.filter((p) => p.at >= from && p.at <= to).map((p) => p.ms);
    const [before, while_] = [latency(0, backupStartedAt), latency(backupStartedAt, backupEndedAt)];
    console.log(
      `[backup storm] ${ackedBefore.length} acks before the backup, ${during} during its ${backupEndedAt - backupStartedAt} ms (npm + tsx start included), ${acks.length} in all; ${JSON.stringify(stats.byStatus)}; ` +
        `GET /api p50/max before ${quantile(before, 0.5).toFixed(1)}/${Math.max(...before).toFixed(1)} ms, during ${quantile(while_, 0.5).toFixed(1)}/${Math.max(...while_).toFixed(1)} ms\n${backup.out.trim()}`,
    );
    expect(during, 'the storm went on while the backup ran').toBeGreaterThan(0);
    expect(acks.length, 'and after it').toBeGreaterThan(ackedAtBackupEnd);

    // Restored into an empty DATA_DIR, by the command, and an app started on it.
    const restoredDir = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'presswork-restored-')), 'data');
    cleanups.push(() => fs.rmSync(path.dirname(restoredDir), { recursive: true, force: true }));
    const restore = await npmRun('restore', [backupFile], restoredDir);
    expect(restore.code, restore.out).toBe(0);
    expect(restore.out).toMatch(/every checksum matched/);
    await live.stop();
    const restored = appProcess({}, { dataDir: restoredDir });
    apps.push(restored);
    cleanups.push(() => restored.stop());
    await restored.start();
    const db = openAppDb(restored);
    cleanups.push(() => db.destroy());
    // Acknowledged but not yet processed when copied: the restored app's recovery pass processes them.
    await waitUntilProcessed(db);

    const events = new Set((await db('webhook_deliveries').where({ source: 'shopify', site_id: site.siteId }).pluck('event_id')) as string[]);
    const lostEvents = ackedBefore.filter((a) => !events.has(a.delivery.eventId)).map((a) => a.delivery.eventId);
    expect(lostEvents, 'deliveries acknowledged before the backup started, missing from the restore').toEqual([]);
    const newestAcked = new Map<string, DeliveryOutcome['delivery']['order']>();
    for (const a of ackedBefore) {
      const o = a.delivery.order;
      if ((newestAcked.get(o.orderId)?.version ?? -1) < o.version) newestAcked.set(o.orderId, o);
    }
    const rows = (await db('store_orders').where({ site_id: site.siteId }).select('store_order_id', 'store_data')) as Array<{ store_order_id: string; store_data: string }>;
    const stored = new Map(rows.map((r) => [r.store_order_id, JSON.parse(r.store_data) as { updated_at: string }]));
    const missing = [...newestAcked.keys()].filter((id) => !stored.has(id));
    expect(missing, 'orders acknowledged before the backup started, missing from the restore').toEqual([]);
    const older = [...newestAcked.values()].filter((o) => stored.get(o.orderId)!.updated_at < o.updatedAt).map((o) => `${o.orderId}: ${stored.get(o.orderId)!.updated_at} < ${o.updatedAt}`);
    expect(older, 'orders restored older than a version acknowledged before the backup').toEqual([]);
    // The restore is the backup's moment, not the live database's end: the storm's later orders are not in it.
    expect(events.size).toBeLessThan(new Set(acks.map((a) => a.delivery.eventId)).size);
    console.log(`[backup storm] restored: ${events.size} deliveries, ${stored.size} orders; ${newestAcked.size} orders acknowledged before the backup, all there`);
  });
});
