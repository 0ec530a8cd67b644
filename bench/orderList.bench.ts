// The order-list call (GET /api/general-data/shopify-order-log, as List Orders makes it) over one
// SQLite database grown to each size in turn (100,000 then 1,000,000 stored orders by default):
// p50/p99 of page 1, a deep page, a status filter and a search, against a bare Express handler
// running only the same indexed page query on the same database, calls alternating between the
// two; then the cost at the largest size against the smallest (the aim: the same cost). Then the
// header search as an operator types (GET /api/search: "#1", "#10", "#102", a surname prefix, an
// email prefix; staff of the site, and an admin over every site), ms per keystroke against the bare
// page query of the same run.
//   tsx bench/orderList.bench.ts [sizes=100000,1000000] [samples=200]
// The orders are written straight through better-sqlite3 into store_orders (and a line each into
// store_order_lines), 100,000 to a transaction, with the columns and indexes the app writes and reads.
import fs from 'node:fs';
import http, { type Server } from 'node:http';
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
import { orderSearchColumns } from '../server/src/modules/orders/searchKeys';
import { createServices, fileStoreFor } from '../server/src/services';
import { emitSummary } from './support';

const sizes = (process.argv[2] ?? '100000,1000000')
  .split(',')
  .map((s) => Number(s.trim()))
  .filter((n) => Number.isSafeInteger(n) && n > 0)
  .sort((a, b) => a - b);
const samples = Number(process.argv[3] ?? 200);
const STATUSES = ['received', 'sent', 'printready', 'printed', 'shipped'];
const FIRST = ['Ada', 'Grace', 'Alan', 'Edsger', 'Barbara', 'Donald', 'Frances', 'Ken'];
const LAST = ['Lovelace', 'Hopper', 'Turing', 'Dijkstra', 'Liskov', 'Knuth', 'Allen', 'Thompson'];
const PER_TRANSACTION = 100_000;
const label = (n: number) => (n >= 1_000_000 ? `${n / 1_000_000}M` : `${n / 1000}k`);

interface RawStatement {
  run(...params: unknown[]): unknown;
}
interface RawConnection {
  prepare(sql: string): RawStatement;
  transaction(fn: () => void): () => void;
}

/** Orders from..to-1 (created one a minute from 2025-01-01), straight through the driver, in big transactions. */
async function fill(db: Db, siteId: number, from: number, to: number) {
  const conn = (await db.client.acquireConnection()) as RawConnection;
  try {
    // The orders table and its lines, ids taken from the shared record counter (as the orders repo does).
    const insert = conn.prepare(
      `insert into store_orders (id, site_id, store_order_id, order_name, order_number, status, search_text, name_lower, customer_lower, surname_lower, email_lower, store_data, our_data, user_id, created_at, updated_at)
       values (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, null, ?, ?)`,
    );
    const insertLine = conn.prepare('insert into store_order_lines (order_id, line_id, sku, quantity, title) values (?, ?, ?, 1, ?)');
    const takeIds = conn.prepare("update sqlite_sequence set seq = seq + ? where name = 'general_data' returning seq") as RawStatement & { get(...params: unknown[]): { seq: number } };
    const start = Date.parse('2025-01-01T00:00:00Z');
    for (let i = from; i < to; i += PER_TRANSACTION) {
      const end = Math.min(to, i + PER_TRANSACTION);
      conn.transaction(() => {
        const firstId = takeIds.get(end - i).seq - (end - i) + 1;
        for (let j = i; j < end; j++) {
          const first = FIRST[j % FIRST.length];
          const last = LAST[(j >> 3) % LAST.length];
          const at = new Date(start + j * 60_000).toISOString();
          const data = {
            id: String(5_000_000_000 + j), name: `#${1000 + j}`, order_number: 1000 + j, created_at: at, updated_at: at, email: `${first}.${last}.${j}@example.com`,
            customer: { first_name: first, last_name: last }, line_items: [{ id: String(j), sku: `CARD-${j % 40}`, name: 'Card', quantity: 1, product_id: '1', properties: [] }],
          };
          const id = firstId + (j - i);
          // The header search's keys, as the orders repo writes them.
          const keys = orderSearchColumns(data.name, data);
          insert.run(id, siteId, data.id, data.name, String(data.order_number), STATUSES[j % 5], `${data.name} ${data.order_number} ${first} ${last}`.toLowerCase(), keys.name_lower, keys.customer_lower, keys.surname_lower, keys.email_lower, JSON.stringify(data), '{"preGeneratedHPItems":[],"hpOrderId":null,"tracking":null}', at, at);
          insertLine.run(id, String(j), `CARD-${j % 40}`, 'Card');
        }
      })();
    }
  } finally {
    await db.client.releaseConnection(conn);
  }
}

let agent = new http.Agent({ keepAlive: true, maxSockets: 4 });
function get(url: string, headers: Record<string, string>): Promise<number> {
  return new Promise((resolve, reject) => {
    const req = http.get(url, { agent, headers }, (res) => {
      res.resume();
      res.on('end', () => resolve(res.statusCode ?? 0));
      res.on('error', reject);
    });
    req.on('error', reject);
  });
}

const pct = (sorted: number[], p: number) => sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))];

/** `samples` calls of each, alternating (so both see the same moments of a shared machine). */
async function timeBoth(ours: { url: string; headers: Record<string, string> }, bare: string | null) {
  const a: number[] = [];
  const b: number[] = [];
  for (let i = 0; i < samples; i++) {
    let t = performance.now();
    const s = await get(ours.url, ours.headers);
    if (s !== 200) throw new Error(`${ours.url}: ${s}`);
    a.push(performance.now() - t);
    if (bare) {
      t = performance.now();
      const sb = await get(bare, {});
      if (sb !== 200) throw new Error(`${bare}: ${sb}`);
      b.push(performance.now() - t);
    }
  }
  const sa = a.sort((x, y) => x - y);
  const sb = b.sort((x, y) => x - y);
  return { p50: pct(sa, 50), p99: pct(sa, 99), bareP50: bare ? pct(sb, 50) : null, bareP99: bare ? pct(sb, 99) : null };
}

const CASES: Array<{ name: string; ours: string; bare: string | null }> = [
  { name: 'page 1', ours: '?page=1', bare: '?page=1' },
  { name: 'page 50', ours: '?page=50', bare: '?page=50' },
  { name: 'status = shipped, page 1', ours: '?page=1&status=shipped', bare: '?page=1&status=shipped' },
  { name: 'search "hopper", page 1', ours: '?page=1&q=hopper', bare: null },
];

/** The header search as an operator types: one call per keystroke that reaches the server (after the box's pause). */
const KEYSTROKES: Array<{ q: string; what: string; as: 'staff' | 'admin' }> = [
  { q: '#1', what: 'order name', as: 'staff' },
  { q: '#10', what: 'order name', as: 'staff' },
  { q: '#102', what: 'order name', as: 'staff' },
  { q: 'Hopp', what: 'surname prefix', as: 'staff' },
  { q: 'grace.hopper.10', what: 'email prefix', as: 'staff' },
  { q: '#102', what: 'order name, every site', as: 'admin' },
  { q: 'Hopp', what: 'surname prefix, every site', as: 'admin' },
  { q: 'grace.hopper.10', what: 'email prefix, every site', as: 'admin' },
];

async function main() {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'presswork-bench-orders-'));
  const config: Config = {
    ...loadConfig({ NODE_ENV: 'test', DATA_DIR: dir, JWT_SECRET: 'bench-secret-that-is-long-enough-0123456789', LOG_LEVEL: 'silent', SEED_DEMO: '0' }),
    database: { client: 'sqlite', filename: path.join(dir, 'orders.sqlite') },
  };
  const db = createDb(config.database);
  await migrate(db);
  const now = new Date().toISOString();
  const [site] = await db('sites').insert({ name: 'Bench', slug: 'bench', logo: null, theme: '{}', settings: '{"env":[]}', created_at: now, updated_at: now }).returning('id');
  const siteId = typeof site === 'object' ? site.id : site;
  const deps = { db, clock: systemClock, config, log: createLogger('silent') };
  const services = createServices(deps, fileStoreFor(dir));
  const user = await services.users.createUser({ firstName: 'Bench', lastName: '', email: 'bench@example.com', password: 'bench-password', role: 'user', siteId });
  const admin = await services.users.createUser({ firstName: 'Bench', lastName: 'Admin', email: 'bench-admin@example.com', password: 'bench-password', role: 'admin', siteId });

  const ours = await new Promise<Server>((resolve) => {
    const s = createApp(deps, services).app.listen(0, '127.0.0.1', () => resolve(s));
  });
  const bareApp = express();
  bareApp.get('/orders', async (req, res) => {
    const page = Math.max(1, Number(req.query.page ?? 1));
    const q = db('store_orders').where({ site_id: siteId });
    if (req.query.status) q.where('status', String(req.query.status));
    res.json(await q.orderBy('created_at', 'desc').orderBy('id', 'desc').limit(20).offset((page - 1) * 20));
  });
  const bare = await new Promise<Server>((resolve) => {
    const s = bareApp.listen(0, '127.0.0.1', () => resolve(s));
  });
  const o = `http://127.0.0.1:${(ours.address() as AddressInfo).port}/api/general-data/shopify-order-log`;
  const b = `http://127.0.0.1:${(bare.address() as AddressInfo).port}/orders`;
  const headers = { Authorization: `Bearer ${signToken(config.jwt, user.id)}` };
  const adminHeaders = { Authorization: `Bearer ${signToken(config.jwt, admin.id)}` };
  const searchUrl = `http://127.0.0.1:${(ours.address() as AddressInfo).port}/api/search?q=`;

  console.log(`\nOrder list: ${sizes.map(label).join(', ')} stored orders of one site (SQLite, WAL), ${samples} sequential calls of each, ours and bare alternating`);
  console.log(`Machine: ${os.cpus().length} × ${os.cpus()[0]?.model.trim()}, Node ${process.version}`);
  const results: Array<{ size: number; load: string; rows: Array<{ name: string; p50: number; p99: number; bareP50: number | null; bareP99: number | null }> }> = [];
  let typing: Array<{ keystroke: string; what: string; as: string; hits: number; p50: number; p99: number; bareP50: number; bareP99: number }> = [];
  let stored = 0;
  for (const size of sizes) {
    const t0 = Date.now();
    await fill(db, siteId, stored, size);
    stored = size;
    // Sockets left idle through the fill may have been closed by the server: a fresh agent.
    agent.destroy();
    agent = new http.Agent({ keepAlive: true, maxSockets: 4 });
    const loadAvg = os.loadavg().map((n) => n.toFixed(1)).join(' ');
    console.log(`Stored ${size.toLocaleString('en')} orders (+${((Date.now() - t0) / 1000).toFixed(1)} s); load average ${loadAvg}`);
    // A few calls first: the page cache and the JIT, as on a server that has been up a while.
    for (const c of CASES) {
      for (let i = 0; i < 5; i++) await get(o + c.ours, headers);
    }
    const rows = [];
    for (const c of CASES) rows.push({ name: c.name, ...(await timeBoth({ url: o + c.ours, headers }, c.bare ? b + c.bare : null)) });
    results.push({ size, load: loadAvg, rows });
    if (size === sizes[sizes.length - 1]) {
      // Search as you type, at the largest size; each keystroke against the bare page-1 query, alternating.
      typing = [];
      for (const k of KEYSTROKES) {
        const h = k.as === 'admin' ? adminHeaders : headers;
        const url = searchUrl + encodeURIComponent(k.q);
        const answer = (await (await fetch(url, { headers: h })).json()) as { data: { orders: unknown[] } };
        for (let i = 0; i < 5; i++) await get(url, h);
        typing.push({ keystroke: k.q, what: k.what, as: k.as, hits: answer.data.orders.length, ...((await timeBoth({ url, headers: h }, `${b}?page=1`)) as { p50: number; p99: number; bareP50: number; bareP99: number }) });
      }
    }
    console.log(`Order list over ${size.toLocaleString('en')} stored orders (ours: auth + page + bounded total + envelope; bare: the page query alone)`);
    console.table(
      rows.map((r) => ({
        call: r.name,
        'ours p50 ms': r.p50.toFixed(2),
        'ours p99 ms': r.p99.toFixed(2),
        'bare query p50 ms': r.bareP50 === null ? '—' : r.bareP50.toFixed(2),
        'bare query p99 ms': r.bareP99 === null ? '—' : r.bareP99.toFixed(2),
        'p50 vs bare': r.bareP50 === null ? '—' : `${(r.p50 / r.bareP50).toFixed(2)}×`,
      })),
    );
  }

  if (results.length >= 2) {
    const small = results[0];
    const big = results[results.length - 1];
    console.log(`\nCost at ${label(big.size)} against ${label(small.size)} stored orders (p50 ratio; the aim: the same cost, index-backed paging, no scans)`);
    console.table(
      small.rows.map((s, i) => {
        const l = big.rows[i];
        return {
          call: s.name,
          [`ours p50 ${label(small.size)} → ${label(big.size)} ms`]: `${s.p50.toFixed(2)} → ${l.p50.toFixed(2)}`,
          [`ours ${label(big.size)}/${label(small.size)}`]: `${(l.p50 / s.p50).toFixed(2)}×`,
          [`bare ${label(big.size)}/${label(small.size)}`]: s.bareP50 && l.bareP50 ? `${(l.bareP50 / s.bareP50).toFixed(2)}×` : '—',
        };
      }),
    );
    for (const [i, s] of small.rows.entries()) {
      const l = big.rows[i];
      const ratio = l.p50 / s.p50;
      emitSummary({
        figure: `Order list ${s.name}, ${label(big.size)} vs ${label(small.size)} orders (p50; p99 ${s.p99.toFixed(1)} → ${l.p99.toFixed(1)} ms)`,
        value: `${l.p50.toFixed(1)} ms`,
        baseline: `${s.p50.toFixed(1)} ms at ${label(small.size)}${l.bareP50 ? `; bare page query ${l.bareP50.toFixed(1)} ms` : ''}`,
        ratio: `${ratio.toFixed(2)}×`,
        aim: 'same cost (≤ 1.5×)',
        met: ratio <= 1.5,
      });
    }
  } else {
    for (const r of results[0]?.rows ?? []) {
      emitSummary({ figure: `Order list ${r.name} at ${label(results[0].size)} orders, p50 / p99`, value: `${r.p50.toFixed(1)} / ${r.p99.toFixed(1)} ms`, baseline: r.bareP50 ? `${r.bareP50.toFixed(1)} ms bare page query (p50)` : '—', ratio: r.bareP50 ? `${(r.p50 / r.bareP50).toFixed(1)}×` : '—', aim: '—', met: null });
    }
  }
  if (typing.length) {
    const big = sizes[sizes.length - 1];
    console.log(`\nHeader search as you type over ${big.toLocaleString('en')} stored orders (GET /api/search: auth + orders, jobs, designs; bare: page 1 of the list query alone, same run)`);
    console.table(
      typing.map((t) => ({
        keystroke: t.keystroke,
        matches: t.what,
        as: t.as,
        'orders found': t.hits,
        'p50 ms': t.p50.toFixed(2),
        'p99 ms': t.p99.toFixed(2),
        'bare page 1 p50 ms': t.bareP50.toFixed(2),
        'p50 vs bare': `${(t.p50 / t.bareP50).toFixed(2)}×`,
      })),
    );
    const worst = typing.reduce((a, t) => (t.p99 > a.p99 ? t : a));
    for (const t of typing) {
      emitSummary({
        figure: `Header search "${t.keystroke}" (${t.what}, ${t.as}) at ${label(big)} orders, p50 / p99 per keystroke`,
        value: `${t.p50.toFixed(1)} / ${t.p99.toFixed(1)} ms`,
        baseline: `${t.bareP50.toFixed(1)} ms bare page query (p50)`,
        ratio: `${(t.p50 / t.bareP50).toFixed(2)}×`,
        aim: 'well under 100 ms (p50 < 20 ms, p99 < 100 ms)',
        met: t.p50 < 20 && t.p99 < 100,
      });
    }
    console.log(`Slowest keystroke: "${worst.keystroke}" (${worst.as}) p99 ${worst.p99.toFixed(2)} ms`);
  }
  const out = path.resolve(import.meta.dirname, 'results');
  fs.mkdirSync(out, { recursive: true });
  fs.writeFileSync(path.join(out, `order-list-${new Date().toISOString().replace(/[:.]/g, '-')}.json`), JSON.stringify({ samples, machine: { cpus: os.cpus().length, model: os.cpus()[0]?.model, node: process.version }, results, typing }, null, 2));

  agent.destroy();
  ours.close();
  bare.close();
  await db.destroy();
  fs.rmSync(dir, { recursive: true, force: true });
}

await main();
