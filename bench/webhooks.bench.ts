// Shopify order webhooks per second and latency (p50/p99) at concurrency 32 on one instance:
// Presswork's real path (raw body, HMAC, site lookup, dedupe insert, 200, then processing into an
// order record) against a bare Express 5 JSON POST handler inserting the same two rows, same run.
//   tsx bench/webhooks.bench.ts [requests=3000] [concurrency=32]
// SQLite in a temporary directory by default; BENCH_DATABASE_URL=postgres://… to use PostgreSQL.
import crypto from 'node:crypto';
import fs from 'node:fs';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import express from 'express';
import knexFactory from 'knex';
import { createApp } from '../server/src/app';
import { loadConfig, type Config } from '../server/src/config';
import { createDb, migrate, toJson, type Db } from '../server/src/db';
import { systemClock } from '../server/src/lib/clock';
import { createLogger } from '../server/src/lib/logger';
import { createServices, fileStoreFor } from '../server/src/services';
import { fakeOrder, shopifyJson, signShopifyBody } from '../server/simulators/shopify';

const requests = Number(process.argv[2] ?? 3000);
const concurrency = Number(process.argv[3] ?? 32);
const SHOP = 'bench-shop.myshopify.com';
const SECRET = 'bench-secret';

async function freshDatabase(dir: string, name: string): Promise<{ database: Config['database']; drop: () => Promise<void> }> {
  const url = process.env.BENCH_DATABASE_URL;
  if (!url) return { database: { client: 'sqlite', filename: path.join(dir, `${name}.sqlite`) }, drop: async () => {} };
  const db = `pw_bench_${name}_${crypto.randomBytes(4).toString('hex')}`;
  const admin = knexFactory({ client: 'pg', connection: url, pool: { min: 0, max: 1 } });
  await admin.raw(`create database ${db}`);
  await admin.destroy();
  const u = new URL(url);
  u.pathname = `/${db}`;
  return {
    database: { client: 'pg', url: u.toString() },
    drop: async () => {
      const a = knexFactory({ client: 'pg', connection: url, pool: { min: 0, max: 1 } });
      await a.raw(`drop database if exists ${db} with (force)`);
      await a.destroy();
    },
  };
}

async function siteRow(db: Db): Promise<number> {
  const now = new Date().toISOString();
  const env = [
    { key: 'SHOPIFY_SHOP_DOMAIN', value: SHOP },
    { key: 'SHOPIFY_WEBHOOK_SECRET', value: SECRET },
  ];
  const [r] = await db('sites').insert({ name: 'Bench', slug: 'bench', logo: null, theme: '{}', settings: JSON.stringify({ env }), created_at: now, updated_at: now }).returning('id');
  return typeof r === 'object' ? r.id : r;
}

const listen = (app: express.Express) =>
  new Promise<Server>((resolve) => {
    const s = app.listen(0, '127.0.0.1', () => resolve(s));
  });

/** The baseline: parse JSON, insert the delivery row and the order record, answer. No signature, no dedupe, no site lookup. */
function bareApp(db: Db, siteId: number) {
  const app = express();
  app.post('/hook', express.json({ limit: '1mb' }), async (req, res) => {
    const o = req.body as { id: number; name: string; updated_at: string };
    const now = new Date().toISOString();
    await db('webhook_deliveries').insert({ source: 'shopify', event_id: String(req.get('x-shopify-event-id')), delivery_id: req.get('x-shopify-webhook-id'), site_id: siteId, topic: 'orders/create', payload: toJson(o), status: 'processed', attempts: 0, received_at: now });
    await db('general_data').insert({ type: 'shopify-order-log', field1: String(o.id), field2: o.name, name: 'order-log', status: 'received', search_text: o.name, data: toJson(o), site_id: siteId, created_at: now, updated_at: now });
    res.json({ success: true });
  });
  return app;
}

interface Shot {
  body: string;
  headers: Record<string, string>;
}

function shots(n: number): Shot[] {
  return Array.from({ length: n }, (_, i) => {
    const body = shopifyJson(fakeOrder(i + 1, { orderNumber: 10_000 + i, createdAt: new Date('2026-11-20T10:00:00Z') }));
    return {
      body,
      headers: {
        'Content-Type': 'application/json',
        'X-Shopify-Topic': 'orders/create',
        'X-Shopify-Hmac-Sha256': signShopifyBody(SECRET, body),
        'X-Shopify-Shop-Domain': SHOP,
        'X-Shopify-API-Version': '2025-10',
        'X-Shopify-Webhook-Id': crypto.randomUUID(),
        'X-Shopify-Event-Id': crypto.randomUUID(),
      },
    };
  });
}

async function load(url: string, list: Shot[]): Promise<{ seconds: number; latencies: number[]; failures: number }> {
  const latencies: number[] = [];
  let failures = 0;
  let next = 0;
  const started = performance.now();
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (next < list.length) {
        const shot = list[next++];
        const t = performance.now();
        const res = await fetch(url, { method: 'POST', headers: shot.headers, body: shot.body });
        await res.arrayBuffer();
        latencies.push(performance.now() - t);
        if (res.status !== 200) failures++;
      }
    }),
  );
  return { seconds: (performance.now() - started) / 1000, latencies, failures };
}

const pct = (sorted: number[], p: number) => sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))];

export interface WebhookBenchRow {
  handler: string;
  perSecond: number;
  p50: number;
  p99: number;
  failures: number;
  processedPerSecond?: number;
}

async function main() {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'presswork-webhook-bench-'));
  const log = createLogger('silent');
  const rows: WebhookBenchRow[] = [];
  const warm = shots(200);
  const list = shots(requests);

  // Baseline
  {
    const { database, drop } = await freshDatabase(dir, 'bare');
    const db = createDb(database);
    await migrate(db);
    const siteId = await siteRow(db);
    const server = await listen(bareApp(db, siteId));
    const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/hook`;
    await load(url, warm.map((s) => ({ ...s, headers: { ...s.headers, 'X-Shopify-Event-Id': crypto.randomUUID() } })));
    const r = await load(url, list);
    const sorted = [...r.latencies].sort((a, b) => a - b);
    rows.push({ handler: 'bare Express 5 JSON insert (baseline)', perSecond: list.length / r.seconds, p50: pct(sorted, 50), p99: pct(sorted, 99), failures: r.failures });
    await new Promise<void>((res) => server.close(() => res()));
    await db.destroy();
    await drop();
  }

  // Presswork
  {
    const { database, drop } = await freshDatabase(dir, 'presswork');
    const config: Config = { ...loadConfig({ NODE_ENV: 'test', DATA_DIR: dir, JWT_SECRET: 'bench-secret-that-is-long-enough-0123456789', LOG_LEVEL: 'silent', SEED_DEMO: '0' }), database };
    const db = createDb(database);
    await migrate(db);
    await siteRow(db);
    const deps = { db, clock: systemClock, config, log };
    const services = createServices(deps, fileStoreFor(dir));
    const { app } = createApp(deps, services);
    const server = await listen(app);
    const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/api/online-stores/shopify-webhook`;
    await load(url, warm);
    await services.orders.idle();
    const t0 = performance.now();
    const r = await load(url, list);
    await services.orders.idle();
    // Answered is not the end: every order record written too.
    const drainedSeconds = (performance.now() - t0) / 1000;
    const sorted = [...r.latencies].sort((a, b) => a - b);
    const processed = Number(((await db('webhook_deliveries').where({ status: 'processed' }).count({ n: '*' }).first()) as { n: number | string }).n);
    if (processed !== warm.length + list.length) throw new Error(`only ${processed} of ${warm.length + list.length} deliveries were processed`);
    rows.push({ handler: 'Presswork webhook (HMAC, dedupe, 200, then processing)', perSecond: list.length / r.seconds, p50: pct(sorted, 50), p99: pct(sorted, 99), failures: r.failures, processedPerSecond: list.length / drainedSeconds });
    await new Promise<void>((res) => server.close(() => res()));
    await db.destroy();
    await drop();
  }
  fs.rmSync(dir, { recursive: true, force: true });

  const base = rows[0];
  console.log(`\nShopify order webhooks: ${requests} signed orders, concurrency ${concurrency}, ${process.env.BENCH_DATABASE_URL ? 'PostgreSQL' : 'SQLite (WAL)'}, one instance`);
  console.table(
    rows.map((r) => ({
      handler: r.handler,
      'req/s': r.perSecond.toFixed(0),
      'vs baseline': `${(r.perSecond / base.perSecond).toFixed(2)}×`,
      'p50 ms': r.p50.toFixed(1),
      'p99 ms': r.p99.toFixed(1),
      'non-200': r.failures,
      'orders stored/s': (r.processedPerSecond ?? r.perSecond).toFixed(0),
    })),
  );
  console.log(JSON.stringify({ requests, concurrency, rows }));
}

await main();
