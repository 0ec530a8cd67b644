// SIGTERM on a real app process: it exits within SHUTDOWN_TIMEOUT_MS whatever is under way —
// - its stdout a pipe nobody reads (full), closed before or right after the signal, or left open:
//   the logger must not hold the exit;
// - mid webhook storm, with provider sends whose answers the provider holds: every acknowledged
//   webhook is there after a restart, and nothing is left held (no lease, no claim) — the held
//   sends are claimable at once, not after their 10-minute lease;
// - mid-render: print PDFs being made in the worker threads;
// - idle keep-alive connections open: they do not delay the exit.
// Each prints how long the shutdown took.
import http from 'node:http';
import { afterEach, describe, expect, it } from 'vitest';
import { artworkRgb, pngOf } from '../server/test/imageFixtures';
import { appProcess, type AppProcess } from './lib/appProcess';
import { api, createHpSite, deliverOrder, planOrders, startHpSim, waitFor } from './lib/hp';
import { expectStormStored, openAppDb, waitUntilProcessed } from './lib/inspect';
import { createStoreSite, deliverAll, planStorm, signIn, sleep, webhookUrl, type DeliveryOutcome } from './lib/store';

const N = Number(process.env.FAULTS_N ?? 300);
const seed = Number(process.env.FAULTS_SEED ?? Math.floor(Math.random() * 2 ** 31));
const BOUND_MS = 10_000;
// A generous allowance for a loaded machine (signal delivery, process teardown), on top of the bound.
const SLACK_MS = 3_000;

const cleanups: Array<() => Promise<void>> = [];
afterEach(async () => {
  while (cleanups.length) await cleanups.pop()!().catch(() => {});
});

async function started(env: Record<string, string> = {}): Promise<AppProcess & { fail: (err: unknown) => never }> {
  const app = appProcess({ SHUTDOWN_TIMEOUT_MS: String(BOUND_MS), ...env });
  cleanups.push(() => app.stop());
  const fail = (err: unknown): never => {
    throw new Error(`${err instanceof Error ? err.message : String(err)}\n--- app log ---\n${app.log().slice(-4000)}`);
  };
  await app.start().catch(fail);
  return Object.assign(app, { fail });
}

/** SIGTERM: it exits by itself within the bound (with slack); answers the measurement. */
async function expectExitWithinBound(app: AppProcess, what: string, afterSignal?: () => void) {
  const out = await app.sigterm({ waitMs: BOUND_MS + 30_000, afterSignal });
  console.log(`[shutdown] ${what}: exited ${out.exitedByItself ? `after ${out.ms} ms` : 'NOT by itself'} (code ${out.code}, signal ${out.signal}; bound ${BOUND_MS} ms)`);
  expect(out.exitedByItself, `${what}: the process exited by itself\n${app.log().slice(-3000)}`).toBe(true);
  expect(out.ms, `${what}: exit within SHUTDOWN_TIMEOUT_MS`).toBeLessThan(BOUND_MS + SLACK_MS);
  return out;
}

/** Requests that log a line each (/api is logged at info), many at once. */
async function loggedRequests(app: AppProcess, n: number) {
  for (let i = 0; i < n; i += 20) {
    await Promise.all(Array.from({ length: 20 }, (_, k) => fetch(`${app.baseUrl}/api/shutdown-test-${i + k}?pad=${'x'.repeat(300)}`).then((r) => r.text())));
  }
}

describe('SIGTERM with a log reader that is stuck or gone', () => {
  it('stdout a full pipe nobody reads, then closed: the process exits within the bound', async () => {
    const app = await started({ LOG_LEVEL: 'info' });
    app.pauseOutput();
    await loggedRequests(app, 400);
    app.closeOutput();
    const out = await expectExitWithinBound(app, 'stdout full then closed');
    expect(out.code).toBe(0);
  });

  it('stdout a full pipe nobody reads, closed right after the signal (a harness that exits once it sent it): the process exits within the bound', async () => {
    const app = await started({ LOG_LEVEL: 'info' });
    app.pauseOutput();
    await loggedRequests(app, 400);
    const out = await expectExitWithinBound(app, 'stdout full, closed right after SIGTERM', () => app.closeOutput());
    expect(out.code).toBe(0);
  });

  it('stdout a full pipe nobody reads (left open): the process exits within the bound', async () => {
    const app = await started({ LOG_LEVEL: 'info' });
    app.pauseOutput();
    await loggedRequests(app, 400);
    const out = await expectExitWithinBound(app, 'stdout full, never read');
    expect(out.code).toBe(0);
  });
});

describe('SIGTERM mid webhook storm, with provider sends in flight', () => {
  it(`every acknowledged webhook is there after a restart, and no lease or claim is left held (${N} orders)`, async () => {
    console.log(`[shutdown storm] seed ${seed} (FAULTS_SEED=${seed} to replay), ${N} orders`);
    const hp = await startHpSim({ seed });
    cleanups.push(hp.close);
    // A 10-minute outbox lease: a claim not handed back would hold its send that long.
    const app = await started({ OUTBOX_LEASE_SECONDS: '600' });
    const db = openAppDb(app);
    cleanups.push(() => db.destroy());
    const token = await signIn(app.baseUrl);
    const storeSite = await createStoreSite(app.baseUrl, token, `storm-${seed % 100_000}`);
    const hpSite = await createHpSite(app.baseUrl, token, `sends-${seed % 100_000}`, hp.baseUrl, { HP_AUTO_SEND: '1' });

    // Orders sent automatically to the provider, which accepts them and holds its answers (the
    // outbox worker's pass sends one after the other: it waits on the first held answer).
    const autoSent = planOrders(3, seed);
    hp.sim.holdNext(autoSent.length);
    await Promise.all(autoSent.map((o) => deliverOrder([app.baseUrl], hpSite, o))).catch(app.fail);
    await Promise.race([hp.sim.whenHeld(1), sleep(30_000)]);
    await sleep(1000);
    const inFlight = hp.sim.heldCount();
    expect(inFlight, 'provider sends in flight (their answers held)').toBeGreaterThan(0);

    // The storm; SIGTERM when a third of it is acknowledged (the store keeps delivering, and retries
    // what the stopping app does not answer).
    const plan = planStorm({ orders: N, seed });
    let acked = 0;
    const storm = deliverAll(plan.deliveries, { url: () => webhookUrl(app.baseUrl, storeSite), site: storeSite, concurrency: 16, onAck: () => void acked++ });
    while (acked < plan.deliveries.length / 3) await sleep(10);
    const ackedAtSigterm = acked;
    const out = await expectExitWithinBound(app, `mid-storm (${ackedAtSigterm} of ${plan.deliveries.length} deliveries acknowledged, ${inFlight} provider sends in flight)`);
    hp.sim.releaseHeld(); // to nobody: the app has gone

    // Nothing held: every lease and claim is free now, not when it would have run out.
    const now = new Date().toISOString();
    const heldRows = {
      outbox: await db('outbox').where('status', 'pending').where('locked_until', '>=', now).select('id', 'locked_until'),
      webhooks: await db('webhook_deliveries').where('locked_until', '>=', now).select('id', 'locked_until'),
      jobLeases: await db('job_leases').where('lease_until', '>=', now).select('name', 'lease_until'),
    };
    expect(heldRows, 'leases and claims still held after the exit').toEqual({ outbox: [], webhooks: [], jobLeases: [] });
    const sends = await db('outbox').where({ site_id: hpSite.siteId }).select('status', 'attempts', 'locked_until');
    expect(sends.filter((r) => r.attempts === 1).length, 'the sends in flight at SIGTERM were claimed once').toBe(inFlight);
    expect(sends, 'every send: pending and claimable (the ones in flight handed back)').toEqual(autoSent.map(() => expect.objectContaining({ status: 'pending', locked_until: null })));

    const restarting = Date.now();
    await app.start().catch(app.fail);
    // The handed-back sends go out on the first outbox pass after the restart (the provider knows them already).
    await waitFor('the handed-back sends to be sent', async () => !(await db('outbox').where({ site_id: hpSite.siteId, status: 'pending' }).first()), 60_000, 100).catch(app.fail);
    console.log(`[shutdown storm] exit ${out.ms} ms; every send done ${Date.now() - restarting} ms after the restart began (a claim not handed back would have waited for its 600 s lease)`);
    const { outcomes } = await storm.catch(app.fail);
    await waitUntilProcessed(db).catch(app.fail);
    await expectStormStored({ db, baseUrl: app.baseUrl, token, siteId: storeSite.siteId, plan, outcomes: outcomes as DeliveryOutcome[] });
    expect(hp.sim.stats.created).toBe(autoSent.length);
    expect(hp.sim.stats.duplicates).toBeGreaterThanOrEqual(inFlight);
  }, 300_000);
});

describe('SIGTERM mid-render', () => {
  it('print PDFs being made in the worker threads: the process exits within the bound', async () => {
    const app = await started();
    const token = await signIn(app.baseUrl);
    // Artwork with an alpha channel: each page is decoded and its pixels compressed into the PDF.
    const width = 1748;
    const height = 2480;
    const urls: string[] = [];
    for (let i = 0; i < 4; i++) {
      const rgb = artworkRgb(width, height, i + 1);
      const rgba = Buffer.alloc(width * height * 4);
      for (let p = 0; p < width * height; p++) {
        rgb.copy(rgba, p * 4, p * 3, p * 3 + 3);
        rgba[p * 4 + 3] = 200 + (p % 56);
      }
      const png = await pngOf(rgba, width, height, 4);
      const grant = await api<{ data: string }>(app.baseUrl, token, 'POST', '/api/users/me/get-upload-url', { serverSidePath: `shutdown/page-${i}.png`, contentType: 'image/png' });
      expect(grant.status).toBe(200);
      const up = await fetch(grant.body.data, { method: 'PUT', headers: { 'Content-Type': 'image/png' }, body: new Uint8Array(png) });
      const upBody = (await up.json()) as { data?: { url?: string } };
      expect(up.ok, JSON.stringify(upBody)).toBe(true);
      urls.push(upBody.data!.url!);
    }
    // Several downloads at once, each its own page order (so none is another's cached file).
    const orders = [
      [0, 1, 2, 3],
      [1, 2, 3, 0],
      [2, 3, 0, 1],
      [3, 0, 1, 2],
      [0, 2, 1, 3],
      [3, 1, 2, 0],
    ];
    let finished = 0;
    const downloads = orders.map((o) =>
      fetch(`${app.baseUrl}/api/pdf/from-image`, {
        method: 'POST',
        headers: { 'Content-Type': 'application/json', Authorization: `Bearer ${token}` },
        body: JSON.stringify({ urls: [...o, ...o, ...o].map((k) => urls[k]) }),
      })
        .then((r) => r.status)
        .catch((err: Error) => err.message)
        .finally(() => void finished++),
    );
    await sleep(1500);
    expect(finished, 'the downloads are still being made at SIGTERM').toBe(0);
    await expectExitWithinBound(app, `mid-render (${orders.length} print PDFs of 12 pages being made)`);
    const answers = await Promise.all(downloads);
    console.log(`[shutdown] the downloads under way got: ${JSON.stringify(answers)}`);
  }, 180_000);
});

describe('SIGTERM with idle keep-alive connections', () => {
  it('idle keep-alive connections do not delay the exit', async () => {
    const app = await started();
    const agent = new http.Agent({ keepAlive: true });
    cleanups.push(async () => agent.destroy());
    // Eight connections, each answered once and left open (the server keeps them 65 s).
    await Promise.all(
      Array.from(
        { length: 8 },
        () =>
          new Promise<void>((resolve, reject) => {
            http.get(`${app.baseUrl}/api`, { agent }, (res) => res.resume().on('end', resolve)).on('error', reject);
          }),
      ),
    );
    expect(Object.values(agent.freeSockets).flat().length).toBe(8);
    const out = await expectExitWithinBound(app, 'eight idle keep-alive connections');
    expect(out.code).toBe(0);
    // Not held until the drain time ran out: the idle connections were closed at once.
    expect(out.ms).toBeLessThan(BOUND_MS / 2);
  });
});
