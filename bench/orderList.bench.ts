// The order-list call (GET /api/general-data/shopify-order-log, as List Orders makes it) over a
// database holding N stored orders: p50/p99 of page 1, a deep page, a status filter and a search,
// against a bare Express handler running the same indexed page query (no count, no envelope), in
// the same run on the same database.
//   tsx bench/orderList.bench.ts [orders=100000] [samples=200]
import fs from 'node:fs';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import express from 'express';
import { createApp } from '../server/src/app';
import { loadConfig, type Config } from '../server/src/config';
import { createDb, migrate, type Db } from '../server/src/db';
import { systemClock } from '../server/src/lib/clock';
import { createLogger } from '../server/src/lib/logger';
import { signToken } from '../server/src/modules/auth/tokens';
import { createServices, fileStoreFor } from '../server/src/services';

const orders = Number(process.argv[2] ?? 100_000);
const samples = Number(process.argv[3] ?? 200);
const STATUSES = ['received', 'sent', 'printready', 'printed', 'shipped'];
const FIRST = ['Ada', 'Grace', 'Alan', 'Edsger', 'Barbara', 'Donald', 'Frances', 'Ken'];
const LAST = ['Lovelace', 'Hopper', 'Turing', 'Dijkstra', 'Liskov', 'Knuth', 'Allen', 'Thompson'];

async function fill(db: Db, siteId: number) {
  const start = Date.parse('2025-01-01T00:00:00Z');
  const batch = 500;
  for (let i = 0; i < orders; i += batch) {
    const rows = [];
    for (let j = i; j < Math.min(orders, i + batch); j++) {
      const first = FIRST[j % FIRST.length];
      const last = LAST[(j >> 3) % LAST.length];
      const at = new Date(start + j * 60_000).toISOString();
      const data = {
        id: String(5_000_000_000 + j), name: `#${1000 + j}`, order_number: 1000 + j, created_at: at, status: STATUSES[j % 5],
        customer: { first_name: first, last_name: last }, line_items: [{ id: String(j), sku: `CARD-${j % 40}`, name: 'Card', quantity: 1, product_id: '1' }],
      };
      rows.push({
        type: 'shopify-order-log', field1: data.id, field2: data.name, name: 'order-log', status: data.status,
        search_text: `${data.name} ${data.order_number} ${first} ${last}`.toLowerCase(), data: JSON.stringify(data), site_id: siteId,
        user_id: null, perm_create: false, perm_read: true, perm_update: false, perm_delete: false, created_at: at, updated_at: at,
      });
    }
    await db.batchInsert('general_data', rows, batch);
  }
}

const listen = (app: express.Express) => new Promise<Server>((resolve) => { const s = app.listen(0, '127.0.0.1', () => resolve(s)); });
const pct = (xs: number[], p: number) => [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor((p / 100) * xs.length))];

async function time(url: string, headers: Record<string, string>) {
  const ms: number[] = [];
  for (let i = 0; i < samples; i++) {
    const t = performance.now();
    const r = await fetch(url, { headers });
    await r.arrayBuffer();
    if (!r.ok) throw new Error(`${url}: ${r.status}`);
    ms.push(performance.now() - t);
  }
  return { p50: pct(ms, 50), p99: pct(ms, 99) };
}

async function main() {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'presswork-bench-orders-'));
  const config: Config = { ...loadConfig({ NODE_ENV: 'test', DATA_DIR: dir, JWT_SECRET: 'bench-secret-that-is-long-enough-0123456789', LOG_LEVEL: 'silent', SEED_DEMO: '0' }), database: { client: 'sqlite', filename: path.join(dir, 'orders.sqlite') } };
  const db = createDb(config.database);
  await migrate(db);
  const now = new Date().toISOString();
  const [site] = await db('sites').insert({ name: 'Bench', slug: 'bench', logo: null, theme: '{}', settings: '{"env":[]}', created_at: now, updated_at: now }).returning('id');
  const siteId = typeof site === 'object' ? site.id : site;
  const deps = { db, clock: systemClock, config, log: createLogger('silent') };
  const services = createServices(deps, fileStoreFor(dir));
  const admin = await services.users.createUser({ firstName: 'Bench', lastName: '', email: 'bench@example.com', password: 'bench-password', role: 'user', siteId });
  const t0 = Date.now();
  await fill(db, siteId);
  console.log(`\nStored ${orders.toLocaleString()} orders in ${((Date.now() - t0) / 1000).toFixed(1)} s (SQLite, WAL)`);

  const ours = await listen(createApp(deps, services).app);
  const bare = express();
  bare.get('/orders', async (req, res) => {
    const page = Math.max(1, Number(req.query.page ?? 1));
    const q = db('general_data').where({ type: 'shopify-order-log', site_id: siteId });
    if (req.query.status) q.where('status', String(req.query.status));
    res.json(await q.orderBy('created_at', 'desc').orderBy('id', 'desc').limit(20).offset((page - 1) * 20));
  });
  const baseline = await listen(bare);
  const o = `http://127.0.0.1:${(ours.address() as AddressInfo).port}/api/general-data/shopify-order-log`;
  const b = `http://127.0.0.1:${(baseline.address() as AddressInfo).port}/orders`;
  const auth = { Authorization: `Bearer ${signToken(config.jwt, admin.id)}` };

  const cases: Array<[string, string, string | null]> = [
    ['page 1', '?page=1', '?page=1'],
    ['page 50', '?page=50', '?page=50'],
    ['status=shipped, page 1', '?page=1&status=shipped', '?page=1&status=shipped'],
    ['search "hopper", page 1', '?page=1&q=hopper', null],
  ];
  const rows = [];
  for (const [name, oq, bq] of cases) {
    const mine = await time(o + oq, auth);
    const base = bq ? await time(b + bq, {}) : null;
    rows.push({
      call: name,
      'ours p50 ms': mine.p50.toFixed(2),
      'ours p99 ms': mine.p99.toFixed(2),
      'bare query p50 ms': base ? base.p50.toFixed(2) : '—',
      'p50 vs bare': base ? `${(mine.p50 / base.p50).toFixed(2)}×` : '—',
    });
  }
  console.log(`Order list over ${orders.toLocaleString()} stored orders, ${samples} sequential calls each (ours: auth + page + total count + envelope; bare: the page query alone)`);
  console.table(rows);
  ours.close();
  baseline.close();
  await db.destroy();
  fs.rmSync(dir, { recursive: true, force: true });
}

await main();
