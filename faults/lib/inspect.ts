// Looking into an app's database from the outside (the test process), and through its API, to check
// what the fault suite's apps stored.
import path from 'node:path';
import knexFactory, { type Knex } from 'knex';
import { expect } from 'vitest';
import type { AppProcess } from './appProcess';
import { sleep, type StormPlan } from './store';
import type { DeliveryOutcome } from './store';

/** A knex handle on the app's database: its SQLite file (WAL: readers do not block it) or the PostgreSQL URL. */
export function openAppDb(app: AppProcess, databaseUrl?: string): Knex {
  if (databaseUrl) return knexFactory({ client: 'pg', connection: databaseUrl, pool: { min: 0, max: 2 } });
  return knexFactory({
    client: 'better-sqlite3',
    connection: { filename: path.join(app.dataDir, 'presswork.sqlite') },
    useNullAsDefault: true,
    pool: { min: 1, max: 1, afterCreate: (c: { pragma(s: string): unknown }, done: (e: Error | null, c: unknown) => void) => done(null, (c.pragma('busy_timeout = 10000'), c)) },
  });
}

const json = <T>(v: unknown): T => (typeof v === 'string' ? (JSON.parse(v) as T) : (v as T));

/** Waits until no delivery is left `received` or `failed` (the apps' processing and recovery passes). */
export async function waitUntilProcessed(db: Knex, timeoutMs = 150_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const pending = await db('webhook_deliveries').whereIn('status', ['received', 'failed']).select('id', 'status', 'attempts', 'error');
    if (!pending.length) return;
    if (Date.now() > deadline) throw new Error(`${pending.length} deliveries left unprocessed, e.g. ${JSON.stringify(pending.slice(0, 3))}`);
    await sleep(500);
  }
}

interface StoredOrder {
  field1: string;
  data: { updated_at?: string; email?: string; shipping_address?: { city?: string } };
}

/** The orders table refuses a second row of one (site, store order id): exactly-once rests on it. */
export async function expectOrderUniqueConstraint(db: Knex): Promise<void> {
  const pg = db.client.config.client === 'pg';
  const indexes = pg
    ? ((await db.raw("select indexdef as sql from pg_indexes where tablename = 'store_orders'")) as { rows: Array<{ sql: string }> }).rows
    : ((await db.raw("select sql from sqlite_master where type = 'index' and tbl_name = 'store_orders' and sql is not null")) as Array<{ sql: string }>);
  expect(indexes.some((i) => /unique/i.test(i.sql) && /site_id.*store_order_id/.test(i.sql)), 'UNIQUE(site_id, store_order_id) on store_orders').toBe(true);
}

/** Every check of "each order stored once, with its latest data, no acknowledged delivery lost, nothing unprocessed". */
export async function expectStormStored(o: { db: Knex; baseUrl: string; token: string; siteId: number; plan: StormPlan; outcomes: DeliveryOutcome[] }) {
  const { db, plan } = o;
  // 1. In the database: each order id exactly once (the orders table's UNIQUE(site_id, store_order_id)
  //    guarantees it; checked all the same, and that the constraint is there), holding its newest version.
  await expectOrderUniqueConstraint(db);
  const rows = (await db('store_orders').where({ site_id: o.siteId }).select('store_order_id as field1', 'store_data as data')) as StoredOrder[];
  const counts = new Map<string, number>();
  for (const r of rows) counts.set(r.field1, (counts.get(r.field1) ?? 0) + 1);
  const twice = [...counts].filter(([, n]) => n > 1);
  expect(twice, 'orders stored more than once').toEqual([]);
  const missing = [...plan.latest.keys()].filter((id) => !counts.has(id));
  expect(missing, 'orders never stored').toEqual([]);
  expect(rows.length).toBe(plan.latest.size);
  const stale: string[] = [];
  for (const r of rows) {
    const want = plan.latest.get(r.field1)!;
    const data = json<StoredOrder['data']>(r.data);
    if (data.updated_at !== want.updatedAt || data.email !== want.email || data.shipping_address?.city !== want.city) {
      stale.push(`${r.field1}: has ${data.updated_at} ${data.email}, latest is ${want.updatedAt} ${want.email}`);
    }
  }
  expect(stale, 'orders not holding their latest update').toEqual([]);

  // 2. Deliveries: every acknowledged event is stored and processed; nothing left behind.
  const deliveries = (await db('webhook_deliveries').where({ source: 'shopify', site_id: o.siteId }).select('event_id', 'status', 'error')) as Array<{ event_id: string; status: string; error: string | null }>;
  const byEvent = new Map(deliveries.map((d) => [d.event_id, d]));
  const lost = o.outcomes.filter((x) => !byEvent.has(x.delivery.eventId)).map((x) => x.delivery.eventId);
  expect(lost, 'acknowledged deliveries the app does not have').toEqual([]);
  const unprocessed = deliveries.filter((d) => d.status !== 'processed');
  expect(unprocessed, 'deliveries not processed').toEqual([]);
  expect(deliveries.length).toBe(plan.events);
  // An event is reported `received` (stored anew) at most once, however often it was delivered.
  const receivedTwice = new Map<string, number>();
  for (const x of o.outcomes) {
    const b = x.body as { data?: { received?: boolean; duplicate?: boolean } };
    expect(b.data?.received === true || b.data?.duplicate === true, `2xx answer ${JSON.stringify(b)}`).toBe(true);
    if (b.data?.received) receivedTwice.set(x.delivery.eventId, (receivedTwice.get(x.delivery.eventId) ?? 0) + 1);
  }
  expect([...receivedTwice].filter(([, n]) => n > 1), 'events stored as new twice').toEqual([]);

  // 3. Through the API (List Orders' call): the same orders, once each.
  const seen: string[] = [];
  for (let page = 1; ; page++) {
    const res = await fetch(`${o.baseUrl}/api/general-data/shopify-order-log?siteId=${o.siteId}&pageSize=100&page=${page}`, { headers: { Authorization: `Bearer ${o.token}` } });
    expect(res.status).toBe(200);
    const body = (await res.json()) as { data: { data: Array<{ field1: string; data: StoredOrder['data'] }>; hasNext: boolean } };
    for (const r of body.data.data) {
      seen.push(r.field1);
      expect(r.data.updated_at).toBe(plan.latest.get(r.field1)?.updatedAt);
    }
    if (!body.data.hasNext) break;
  }
  expect(seen.length, 'orders listed by the API').toBe(plan.latest.size);
  expect(new Set(seen).size).toBe(plan.latest.size);
}
