// Webhook storm: a Shopify-like store delivers N orders (creates and out-of-order updates, 20 %
// duplicate deliveries, 16 at a time, retrying every non-2xx) while the app is SIGKILLed and
// restarted at random moments. Afterwards every order is stored exactly once with its latest data,
// no acknowledged delivery is lost and none is left unprocessed. On SQLite, on PostgreSQL, and on
// two instances sharing one PostgreSQL database.
import { afterEach, describe, expect, it } from 'vitest';
import { appProcess, freshPostgres, type AppProcess } from './lib/appProcess';
import { expectStormStored, openAppDb, waitUntilProcessed } from './lib/inspect';
import { createStoreSite, deliverAll, planStorm, prng, signIn, sleep, webhookUrl, type DeliveryOutcome } from './lib/store';

const N = Number(process.env.FAULTS_N ?? 300);
const baseSeed = Number(process.env.FAULTS_SEED ?? Math.floor(Math.random() * 2 ** 31));

const cleanups: Array<() => Promise<void>> = [];
afterEach(async () => {
  while (cleanups.length) await cleanups.pop()!().catch(() => {});
});

interface StormOptions {
  name: string;
  seed: number;
  pg: boolean;
  instances: 1 | 2;
  kills: number;
}

async function storm(o: StormOptions) {
  console.log(`[${o.name}] seed ${o.seed} (FAULTS_SEED=${o.seed} to replay), ${N} orders`);
  const r = prng(o.seed);
  const pg = o.pg ? await freshPostgres() : undefined;
  if (pg) cleanups.push(pg.drop);
  const env: Record<string, string> = pg ? { DATABASE_URL: pg.url } : {};
  const apps: AppProcess[] = Array.from({ length: o.instances }, () => appProcess(env));
  for (const a of apps) cleanups.push(() => a.stop());
  const fail = (err: unknown): never => {
    throw new Error(`${err instanceof Error ? err.message : String(err)}\n--- app logs ---\n${apps.map((a, i) => `[instance ${i}]\n${a.log().slice(-3000)}`).join('\n')}`);
  };
  // Two instances start at the same moment: both run the migrations and the first-start setup.
  await Promise.all(apps.map((a) => a.start())).catch(fail);
  const token = await signIn(apps[0].baseUrl).catch(fail);
  const site = await createStoreSite(apps[0].baseUrl, token, `storm-${o.seed % 100_000}`).catch(fail);

  const plan = planStorm({ orders: N, seed: o.seed });
  console.log(`[${o.name}] ${plan.deliveries.length} deliveries: ${plan.events} events, ${plan.duplicates} duplicates, ${plan.inversions} older-after-newer`);
  expect(plan.duplicates).toBeGreaterThan(plan.events * 0.1);
  expect(plan.inversions).toBeGreaterThan(0);

  // Chaos: kill (SIGKILL) at random points of the storm, restart after a random pause.
  const killAt = Array.from({ length: o.kills }, () => Math.floor(plan.deliveries.length * (0.05 + 0.85 * r.next()))).sort((a, b) => a - b);
  let acked = 0;
  let stormDone = false;
  const kills: string[] = [];
  const restarting = new Set<number>();
  const restarts: Array<Promise<void>> = [];
  const chaos = (async () => {
    for (const at of killAt) {
      while (acked < at && !stormDone) await sleep(20);
      if (stormDone) break;
      // An instance that is up (not one still restarting), at a random moment.
      let up = apps.map((_, i) => i).filter((i) => !restarting.has(i));
      while (!up.length) {
        await sleep(20);
        up = apps.map((_, i) => i).filter((i) => !restarting.has(i));
      }
      const i = up[r.int(0, up.length - 1)];
      await sleep(r.int(0, 200));
      restarting.add(i);
      await apps[i].kill();
      kills.push(`instance ${i} at ${acked} acks`);
      const pause = r.int(0, 800);
      restarts.push(
        (async () => {
          await sleep(pause);
          await apps[i].start();
          restarting.delete(i);
        })(),
      );
    }
    await Promise.all(restarts);
  })();
  const urls = apps.map((a) => webhookUrl(a.baseUrl, site));
  const started = Date.now();
  const { outcomes, stats } = await deliverAll(plan.deliveries, {
    url: () => urls[Math.floor(Math.random() * urls.length)],
    site,
    concurrency: 16,
    onAck: () => void acked++,
  })
    .catch(fail)
    .finally(() => void (stormDone = true));
  await chaos.catch(fail);
  const seconds = (Date.now() - started) / 1000;
  console.log(`[${o.name}] storm over in ${seconds.toFixed(1)} s; kills: ${kills.join(', ')}; ${JSON.stringify(stats)}`);
  expect(kills.length, 'the chaos loop killed the app during the storm').toBe(o.kills);
  expect(outcomes.length).toBe(plan.deliveries.length);
  expect(stats.attempts, 'some deliveries had to be retried').toBeGreaterThan(plan.deliveries.length);

  // One last kill and restart (whatever was answered but not processed is the recovery pass's).
  for (const a of apps) await a.kill();
  await Promise.all(apps.map((a) => a.start())).catch(fail);
  const db = openAppDb(apps[0], pg?.url);
  cleanups.push(() => db.destroy());
  await waitUntilProcessed(db).catch(fail);
  await expectStormStored({ db, baseUrl: apps[apps.length - 1].baseUrl, token, siteId: site.siteId, plan, outcomes: outcomes as DeliveryOutcome[] });
}

describe('webhook storm', () => {
  it(`SQLite: ${N} orders, duplicates, reordered updates, SIGKILL and restart`, async () => {
    await storm({ name: 'storm sqlite', seed: baseSeed, pg: false, instances: 1, kills: 5 });
  });

  it(`PostgreSQL: ${N} orders, duplicates, reordered updates, SIGKILL and restart`, async () => {
    await storm({ name: 'storm pg', seed: baseSeed + 1, pg: true, instances: 1, kills: 5 });
  });
});

describe('two instances on one PostgreSQL database', () => {
  it(`${N} orders spread over both, one instance killed and restarted mid-storm`, async () => {
    await storm({ name: 'two instances', seed: baseSeed + 2, pg: true, instances: 2, kills: 3 });
  });
});
