// Tracking back to the store under faults: two app instances on one PostgreSQL database, orders
// pulled from the Shopify Admin API simulator (in this process, so it outlives the apps), the
// provider's `shipped` postbacks queued as store-fulfilment outbox rows, and the apps SIGKILLed while
// fulfillmentCreate has landed in the store but its answer is held (the app never hears back): first
// one instance (the other takes the row over when its lease runs out), then both (the restarted
// instances take them). Afterwards every order has exactly ONE fulfilment in the store, with its
// tracking number, fulfillmentCreate reached the store once per order, and every row is sent.
//
// How the app avoids the double: the worker reads the order's fulfillment orders before every
// fulfillmentCreate and fulfils only what is left; a row sent again after a crash finds its lines
// fulfilled and ends sent, noting the answer to its earlier request was lost.
import type { Knex } from 'knex';
import { afterEach, describe, expect, it } from 'vitest';
import { fakeOrder, type FakeOrder } from '../server/simulators/shopify';
import { createShopifyAdminSimulator } from '../server/simulators/shopifyAdmin';
import { holdingFront } from './lib/holdingFront';
import { freshPostgres, twoInstances } from './lib/appProcess';
import { api, createHpSite, HP_POSTBACK_TOKEN, startHpSim, waitFor } from './lib/hp';
import { openAppDb } from './lib/inspect';
import { prng, signIn, sleep } from './lib/store';

// At least 4: each kill waits for both instances to hold a send, so each half needs two rows.
const N = Math.max(4, Number(process.env.FAULTS_N ?? 6));
const baseSeed = Number(process.env.FAULTS_SEED ?? Math.floor(Math.random() * 2 ** 31));
const ADMIN_TOKEN = 'shpat_faults_admin_token';
const KIND = 'store-fulfilment';

const cleanups: Array<() => Promise<void>> = [];
afterEach(async () => {
  while (cleanups.length) await cleanups.pop()!().catch(() => {});
});

const json = <T>(v: unknown): T => (typeof v === 'string' ? (JSON.parse(v) as T) : (v as T));

/**
 * The Admin API simulator behind a front that, while `holding`, keeps the answers of
 * fulfillmentCreate calls: the mutation has run in the store, the caller waits for its answer.
 */
async function startAdminSim(shopDomain: string) {
  const sim = createShopifyAdminSimulator({ accessToken: ADMIN_TOKEN, shopDomain, shopName: 'Faults shop' });
  const front = await holdingFront(sim.app, (req) => {
    const query = (req.body as { query?: unknown } | undefined)?.query;
    return typeof query === 'string' && /\bfulfillmentCreate\s*\(/.test(query);
  });
  return { sim, ...front };
}

async function scenario(name: string, seed: number) {
  console.log(`[${name}] seed ${seed} (FAULTS_SEED=${seed} to replay), ${N} orders`);
  const r = prng(seed);
  const slug = `writeback-${seed % 100_000}`;
  const store = await startAdminSim(`${slug}.myshopify.com`);
  cleanups.push(store.close);
  const hp = await startHpSim({ seed });
  cleanups.push(hp.close);
  const db = await freshPostgres();
  cleanups.push(db.drop);
  const env = { DATABASE_URL: db.url, OUTBOX_LEASE_SECONDS: '5', OUTBOX_RETRY_BASE_SECONDS: '1' };
  const { apps, fail } = await twoInstances(env, cleanups);
  const token = await signIn(apps[0].baseUrl);
  const site = await createHpSite(apps[0].baseUrl, token, slug, hp.baseUrl, { SHOPIFY_ADMIN_URL: store.baseUrl, SHOPIFY_ADMIN_TOKEN: ADMIN_TOKEN, SHOPIFY_API_VERSION: '2026-07' }).catch(fail);
  const appDb: Knex = openAppDb(apps[0], db.url);
  cleanups.push(() => appDb.destroy());

  // The store holds N one-line orders; a reconciliation pulls them into the app.
  const orders: FakeOrder[] = Array.from({ length: N }, (_, i) =>
    fakeOrder(seed + i, { skus: ['FAULTS-HP-CARD'], lineCount: 1, financialStatus: 'paid', orderNumber: 30_000 + i, createdAt: new Date(Date.now() - 60_000) }),
  );
  for (const o of orders) store.sim.addOrder(o);
  const pulled = await api<{ data: { found: number; stored: number } }>(apps[1].baseUrl, token, 'POST', '/api/online-stores/reconcile', { site: slug, since: new Date(Date.now() - 3_600_000).toISOString() });
  expect(pulled.status, JSON.stringify(pulled.body)).toBe(200);
  expect(pulled.body.data.found).toBe(N);
  const orderCount = async () => Number((await appDb('store_orders').where({ site_id: site.siteId }).count({ n: '*' }).first())?.n ?? 0);
  await waitFor('the orders to be stored', async () => (await orderCount()) === N).catch(fail);

  // The provider's `shipped` postbacks (retried, like HP, until an instance answers 200).
  const trackingOf = (o: FakeOrder) => `RM${String(seed % 1_000_000).padStart(6, '0')}${o.order_number}GB`;
  const shipped = async (o: FakeOrder) => {
    const line = o.line_items[0];
    const body = {
      event: 'shipment.shipped',
      sourceOrderId: `${o.id}-${line.id}`,
      orderId: `hp-${trackingOf(o)}`,
      status: 'shipped',
      timestamp: new Date().toISOString(),
      shipment: { trackingNumber: trackingOf(o), trackingUrl: `https://track.example/${trackingOf(o)}`, shippedDate: '2026-11-25', carrier: { code: 'rm', service: 'Tracked 48', alias: 'royalmail' } },
    };
    for (let k = 0; ; k++) {
      const up = apps.filter((a) => a.running);
      const res = await fetch(`${up[k % up.length].baseUrl}/api/online-stores/hp-webhook?site=${slug}`, {
        method: 'POST',
        headers: { 'Content-Type': 'application/json', 'x-postback-token': HP_POSTBACK_TOKEN },
        body: JSON.stringify(body),
      }).catch(() => undefined);
      if (res?.status === 200) return;
      if (k > 50) throw new Error(`the shipped postback of ${o.id} was never answered 200 (last ${res?.status})`);
      await sleep(200);
    }
  };
  const rowsOf = async () => (await appDb('outbox').where({ site_id: site.siteId, kind: KIND }).select('id', 'status', 'result', 'payload', 'error')) as Array<{ id: number; status: string; result: unknown; payload: unknown; error: string | null }>;

  // Kill 1: both instances are each waiting for a fulfillmentCreate answer (a worker pass sends one
  // row at a time); one of them, chosen by the seed, is killed. The other gets its answer.
  const first = orders.slice(0, Math.ceil(N / 2));
  store.hold(true);
  await Promise.all(first.map(shipped)).catch(fail);
  await waitFor('both instances to wait for a fulfillmentCreate answer', async () => store.held() === 2, 60_000, 50).catch(fail);
  const victim = r.int(0, 1);
  await apps[victim].kill();
  store.hold(false);
  store.release();
  console.log(`[${name}] killed instance ${victim} while it waited for its fulfillmentCreate answer`);
  const done = async (n: number) => {
    const rows = await rowsOf();
    return rows.length === n && rows.every((x) => x.status !== 'pending');
  };
  await waitFor('the first write-back rows to be done', () => done(first.length), 60_000).catch(fail);
  await apps[victim].start().catch(fail);

  // Kill 2: both instances killed while both wait for their answers; restarted, they take the rows over.
  const second = orders.slice(first.length);
  store.hold(true);
  await Promise.all(second.map(shipped)).catch(fail);
  await waitFor('both instances to wait for a fulfillmentCreate answer', async () => store.held() === Math.min(2, second.length), 60_000, 50).catch(fail);
  const heldAtSecondKill = store.held();
  await Promise.all(apps.map((a) => a.kill()));
  store.hold(false);
  store.release();
  console.log(`[${name}] killed both instances with ${heldAtSecondKill} fulfillmentCreate answers held`);
  await Promise.all(apps.map((a) => a.start())).catch(fail);
  await waitFor('every write-back row to be done', () => done(N), 120_000).catch(fail);

  // --- in the store: exactly one fulfilment per order, with its tracking ----------------------
  const creates = store.sim.calls().filter((c) => c.fields.includes('fulfillmentCreate') && !c.throttled);
  console.log(`[${name}] store: ${creates.length} fulfillmentCreate calls, ${store.sim.fulfillments().length} fulfilments`);
  for (const o of orders) {
    const made = store.sim.fulfillments(o.id);
    expect(made, `fulfilments of order ${o.id}`).toHaveLength(1);
    expect(made[0].trackingInfo.map((t) => t.number)).toEqual([trackingOf(o)]);
    expect(made[0].lines.map((l) => [l.lineItemId, l.quantity])).toEqual([[o.line_items[0].id, o.line_items[0].current_quantity]]);
  }
  // Sent once each: a row sent again after the crash read its lines fulfilled and did not ask again.
  expect(creates).toHaveLength(N);

  // --- the app knows ------------------------------------------------------------------------
  const rows = await rowsOf();
  expect(rows.filter((x) => x.status !== 'sent'), 'write-back rows not sent').toEqual([]);
  for (const o of orders) expect(rows.filter((x) => json<{ orderId: string }>(x.payload).orderId === o.id), `rows of ${o.id}`).toHaveLength(1);
  // The killed sends (one, then every held one) were recognised in the store, not sent again.
  const lost = rows.filter((x) => (json<{ alreadyFulfilledLineIds?: string[] }>(x.result)?.alreadyFulfilledLineIds ?? []).length > 0);
  expect(lost.length, 'rows finished as fulfilled in the store after a kill').toBe(1 + heldAtSecondKill);
  for (const x of lost) expect(json<{ note?: string }>(x.result).note).toMatch(/answer to our earlier request was lost/);
}

describe('tracking back to the store under faults', () => {
  it('PostgreSQL, two instances: a shipment killed mid-send is one fulfilment in the store, with its tracking', () => scenario('writeback/pg', baseSeed), 300_000);
});
