// The order-list call (GET /api/general-data/shopify-order-log, as List Orders makes it) over one
// SQLite database grown to each size in turn (100,000 then 1,000,000 stored orders by default):
// p50/p99 of page 1, a deep page, a status filter and a search, against a bare Express handler
// running only the same indexed page query on the same database, calls alternating between the
// two; then the cost at the largest size against the smallest (the aim: the same cost). Then the
// header search as an operator types (GET /api/search: "#1", "#10", "#102", a surname prefix, an
// email prefix; staff of the site, and an admin over every site), ms per keystroke against the bare
// page query of the same run. And Needs attention as every open admin tab polls it (GET
// /api/attention, staff of the site and an admin over every site) at each size, against the same
// bare query, and its cost at the largest size against the smallest.
//   tsx bench/orderList.bench.ts [sizes=100000,1000000] [samples=200]
// The orders are written straight through better-sqlite3 into store_orders (and a line each into
// store_order_lines), 100,000 to a transaction, with the columns and indexes the app writes and reads,
// placed one a minute back from now, with the rows of the other big tables Needs attention reads
// (outbox, webhook_deliveries, print_jobs): see fill().
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

/** The newest orders (about ten weeks at one a minute): the floor's open orders and its problems are among them, older history is closed. */
const RECENT = 100_000;
/** Orders are placed one a minute going back from now: a bigger database is the same floor with a longer past. */
const NOW = Date.now();
const MINUTE = 60_000;
const iso = (ms: number) => new Date(ms).toISOString();

/**
 * What order j (the j-th newest) is, as Needs attention reads it: the last two days' orders are on
 * the floor (received, at HP, printed); older ones shipped, one in 101 cancelled; among the recent
 * ones a few are stuck — at HP with no answer, printed by HP and not shipped, never sent (late).
 */
function orderState(j: number, at: number): { status: string; sentAt: string | null; printedByHpAt: string | null } {
  const sent = (status: string) => ({ status, sentAt: iso(at + 10 * MINUTE), printedByHpAt: status === 'printed' ? iso(at + 20 * 60 * MINUTE) : null });
  if (j < 2 * 1440) return j % 3 === 2 ? sent('shipped') : sent(['received', 'sent', 'printready', 'printed'][((j / 3) | 0) % 4] ?? 'received');
  if (j < RECENT) {
    if (j % 401 === 0) return sent('sent');
    if (j % 401 === 200) return sent('printed');
    if (j % 997 === 5) return { status: 'received', sentAt: null, printedByHpAt: null };
  }
  return j % 101 === 7 ? { status: 'cancelled', sentAt: null, printedByHpAt: null } : sent('shipped');
}

/**
 * Orders from..to-1 straight through the driver, in big transactions, with what the big tables
 * hold for each: a line, the send to HP (outbox), the store's order webhook and HP's postback
 * (webhook_deliveries), a store write-back for shipped orders, and a print job for the one order in
 * ten printed in house. A few of the recent rows failed (sends, write-backs, pipeline steps,
 * webhooks), a few jobs are held by preflight; the first batch adds jobs made by hand.
 */
async function fill(db: Db, siteId: number, from: number, to: number) {
  const conn = (await db.client.acquireConnection()) as RawConnection;
  try {
    // The orders table and its lines, ids taken from the shared record counter (as the orders repo does).
    const insert = conn.prepare(
      `insert into store_orders (id, site_id, store_order_id, order_name, order_number, status, search_text, name_lower, customer_lower, surname_lower, email_lower, store_data, our_data, user_id, created_at, updated_at, sent_to_provider_at, printed_by_provider_at)
       values (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, null, ?, ?, ?, ?)`,
    );
    const insertLine = conn.prepare('insert into store_order_lines (order_id, line_id, sku, quantity, title) values (?, ?, ?, 1, ?)');
    const insertOutbox = conn.prepare(
      `insert into outbox (kind, dedupe_key, site_id, payload, status, attempts, next_attempt_at, error, created_at, updated_at) values (?, ?, ?, ?, ?, 1, ?, ?, ?, ?)`,
    );
    const insertDelivery = conn.prepare(
      `insert into webhook_deliveries (source, event_id, delivery_id, site_id, topic, payload, status, error, attempts, received_at, processed_at) values (?, ?, ?, ?, ?, ?, ?, ?, 1, ?, ?)`,
    );
    const insertJob = conn.prepare(
      `insert into print_jobs (client_id, product_name, quantity, shopify_order_id, line_item_id, is_printed, ready_for_print, artwork_urls, data, printed_at, created_at, updated_at, held, preflight_checked_at)
       values (?, 'Card', 1, ?, ?, ?, 1, '[]', '{}', ?, ?, ?, ?, ?)`,
    );
    const takeIds = conn.prepare("update sqlite_sequence set seq = seq + ? where name = 'general_data' returning seq") as RawStatement & { get(...params: unknown[]): { seq: number } };
    if (from === 0) {
      conn.transaction(() => {
        // Jobs made by hand (no order) over the last four weeks, not printed: late or at risk.
        for (let k = 0; k < 60; k++) {
          const at = iso(NOW - k * 11 * 60 * MINUTE);
          insertJob.run(siteId, null, null, 0, null, at, at, 0, null);
        }
      })();
    }
    for (let i = from; i < to; i += PER_TRANSACTION) {
      const end = Math.min(to, i + PER_TRANSACTION);
      conn.transaction(() => {
        const firstId = takeIds.get(end - i).seq - (end - i) + 1;
        for (let j = i; j < end; j++) {
          const first = FIRST[j % FIRST.length];
          const last = LAST[(j >> 3) % LAST.length];
          const placed = NOW - (j + 1) * MINUTE;
          const at = iso(placed);
          const data = {
            id: String(5_000_000_000 + j), name: `#${1000 + j}`, order_number: 1000 + j, created_at: at, updated_at: at, email: `${first}.${last}.${j}@example.com`,
            customer: { first_name: first, last_name: last }, line_items: [{ id: String(j), sku: `CARD-${j % 40}`, name: 'Card', quantity: 1, product_id: '1', properties: [] }],
          };
          const id = firstId + (j - i);
          const state = orderState(j, placed);
          const updated = state.printedByHpAt ?? state.sentAt ?? at;
          // The header search's keys, as the orders repo writes them.
          const keys = orderSearchColumns(data.name, data);
          insert.run(id, siteId, data.id, data.name, String(data.order_number), state.status, `${data.name} ${data.order_number} ${first} ${last}`.toLowerCase(), keys.name_lower, keys.customer_lower, keys.surname_lower, keys.email_lower, JSON.stringify(data), '{"preGeneratedHPItems":[],"hpOrderId":null,"tracking":null}', at, updated, state.sentAt, state.printedByHpAt);
          insertLine.run(id, String(j), `CARD-${j % 40}`, 'Card');
          const recent = j < RECENT;
          const payload = JSON.stringify({ siteId, orderId: data.id, lineId: null, actorId: null });
          if (state.sentAt) {
            const failed = recent && j % 1009 === 3;
            insertOutbox.run('hp-order', `hp:${siteId}:${data.id}`, siteId, payload, failed ? 'failed' : 'sent', state.sentAt, failed ? 'HP Site Flow answered 400: invalid address' : null, at, state.sentAt);
          }
          if (state.status === 'shipped' && j % 3 === 0) {
            const failed = recent && j % 1013 === 0;
            insertOutbox.run('store-fulfilment', `store-fulfilment:${siteId}:${data.id}:${j.toString(16).padStart(24, '0')}`, siteId, payload, failed ? 'failed' : 'sent', updated, failed ? 'Shopify answered 422: line already fulfilled' : null, updated, updated);
          }
          if (recent && j % 2011 === 0) {
            const step = JSON.stringify({ siteId, orderId: data.id, lineId: null, actorId: null, step: 'addToAdestra', rerun: false });
            insertOutbox.run('order-pipeline', `pipeline:${siteId}:${data.id}:addToAdestra`, siteId, step, 'failed', at, 'Adestra answered 503', at, at);
          }
          const deliveryFailed = recent && j % 1999 === 0;
          insertDelivery.run('shopify', `orders/create:${data.id}`, `d-${j}`, siteId, 'orders/create', '{}', deliveryFailed ? 'failed' : 'processed', deliveryFailed ? 'Order has no line items' : null, at, deliveryFailed ? null : at);
          if (state.sentAt) insertDelivery.run('hp', `hp:${data.id}:${state.status}`, null, siteId, state.status, '{}', 'processed', null, updated, updated);
          if (j % 10 === 0) {
            // Printed in house: printed a day after it was placed, except the floor's last two days (some held by preflight).
            const onFloor = j < 2 * 1440;
            const printedAt = onFloor ? null : iso(placed + 1440 * MINUTE);
            const held = onFloor && j % 30 === 0;
            insertJob.run(siteId, data.id, String(j), onFloor ? 0 : 1, printedAt, at, printedAt ?? at, held ? 1 : 0, held ? at : null);
          }
        }
      })();
      // Let the event loop turn between transactions: a minute-long block leaves the HTTP servers'
      // timeout checks with a stale clock, and they drop the next fresh connection.
      await new Promise((r) => setImmediate(r));
    }
  } finally {
    await db.client.releaseConnection(conn);
  }
}

let agent = new http.Agent({ keepAlive: true, maxSockets: 4 });
function get(url: string, headers: Record<string, string>, retried = false): Promise<number> {
  return new Promise((resolve, reject) => {
    const req = http.get(url, { agent, headers }, (res) => {
      res.resume();
      res.on('end', () => resolve(res.statusCode ?? 0));
      res.on('error', reject);
    });
    // A kept-alive socket the server closed as it was reused (Node's documented race): once more,
    // on a new one. Under load, after a long fill, the first calls met it.
    req.on('error', (err: NodeJS.ErrnoException) => {
      if (!retried && req.reusedSocket && err.code === 'ECONNRESET') resolve(get(url, headers, true));
      else reject(err);
    });
  });
}

const pct = (sorted: number[], p: number) => sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))];

/** `samples` calls of each, alternating (so both see the same moments of a shared machine). */
async function timeBoth(ours: { url: string; headers: Record<string, string>; status?: number; before?: () => Promise<unknown> }, bare: string | null, n = samples) {
  const a: number[] = [];
  const b: number[] = [];
  for (let i = 0; i < n; i++) {
    await ours.before?.();
    let t = performance.now();
    const s = await get(ours.url, ours.headers);
    if (s !== (ours.status ?? 200)) throw new Error(`${ours.url}: ${s}`);
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

/**
 * Needs attention as every open admin tab polls it (every 30 s): staff of the site, and an admin
 * over every site; each as a tab asks (the answer kept since the last change), with the ETag it holds
 * (304), and right after a change (a print job written before each call: the answer recomputed,
 * which takes most of a second at 1M: fewer samples).
 */
const attentionSamples = Math.min(samples, 40);
const recomputeSamples = Math.min(samples, 12);
const ATTENTION: Array<{ name: string; as: 'staff' | 'admin' }> = [
  { name: 'Needs attention, staff of the site', as: 'staff' },
  { name: 'Needs attention, admin (every site)', as: 'admin' },
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
  const attentionUrl = `http://127.0.0.1:${(ours.address() as AddressInfo).port}/api/attention`;

  console.log(`\nOrder list: ${sizes.map(label).join(', ')} stored orders of one site (SQLite, WAL), ${samples} sequential calls of each, ours and bare alternating`);
  console.log(`Machine: ${os.cpus().length} × ${os.cpus()[0]?.model.trim()}, Node ${process.version}`);
  type Timed = { name: string; p50: number; p99: number; bareP50: number | null; bareP99: number | null };
  type AttentionTimed = Timed & { counts: Record<string, number>; notModified: Timed; recomputed: Timed };
  const results: Array<{ size: number; load: string; rows: Timed[]; attention: AttentionTimed[] }> = [];
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
    const attention: AttentionTimed[] = [];
    // A write Needs attention reads (a job's last change): the next ask recomputes.
    const someJob = (await db('print_jobs').where({ client_id: siteId }).first('id')) as { id: number };
    const touchJob = () => db('print_jobs').where({ id: someJob.id }).update({ updated_at: new Date().toISOString() });
    for (const a of ATTENTION) {
      const h = a.as === 'admin' ? adminHeaders : headers;
      const first = await fetch(attentionUrl, { headers: h });
      const answer = (await first.json()) as { data: { counts: Record<string, number> } };
      const etag = first.headers.get('etag') ?? '';
      for (let i = 0; i < 5; i++) await get(attentionUrl, h);
      const polled = await timeBoth({ url: attentionUrl, headers: h }, `${b}?page=1`, attentionSamples);
      const notModified = await timeBoth({ url: attentionUrl, headers: { ...h, 'If-None-Match': etag }, status: 304 }, `${b}?page=1`, attentionSamples);
      const recomputed = await timeBoth({ url: attentionUrl, headers: h, before: touchJob }, `${b}?page=1`, recomputeSamples);
      attention.push({ name: a.name, counts: answer.data.counts, ...polled, notModified: { name: a.name, ...notModified }, recomputed: { name: a.name, ...recomputed } });
    }
    results.push({ size, load: loadAvg, rows, attention });
    console.log(`Needs attention over ${size.toLocaleString('en')} stored orders (GET /api/attention as a tab polls it: the answer kept since the last change; with its ETag: 304; after a change: auth + every kind's bounded query + ship-by of the open orders and jobs; bare: page 1 of the list query alone, same run); counts ${JSON.stringify(attention[0]?.counts ?? {})}`);
    console.table(
      attention.flatMap((a) =>
        [
          ['polled (kept answer)', a],
          ['ETag unchanged → 304', a.notModified],
          ['after a change (recomputed)', a.recomputed],
        ].map(([how, t]) => ({
          call: `${a.name}, ${how as string}`,
          'p50 ms': (t as Timed).p50.toFixed(2),
          'p99 ms': (t as Timed).p99.toFixed(2),
          'bare page 1 p50 ms': (t as Timed).bareP50!.toFixed(2),
          'p50 vs bare': `${((t as Timed).p50 / (t as Timed).bareP50!).toFixed(2)}×`,
        })),
      ),
    );
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

  const biggest = results[results.length - 1];
  for (const a of biggest?.attention ?? []) {
    emitSummary({
      figure: `${a.name} at ${label(biggest.size)} orders, as a tab polls it, p50 (p99)`,
      value: `${a.p50.toFixed(1)} ms (${a.p99.toFixed(1)})`,
      baseline: `${a.recomputed.p50.toFixed(1)} ms recomputed after a change; bare page query ${a.bareP50!.toFixed(1)} ms`,
      ratio: `${(a.p50 / a.bareP50!).toFixed(1)}× bare`,
      aim: '≤ 20 ms p50',
      met: a.p50 <= 20,
    });
    emitSummary({
      figure: `${a.name} at ${label(biggest.size)} orders, ETag unchanged → 304, p50 (p99)`,
      value: `${a.notModified.p50.toFixed(1)} ms (${a.notModified.p99.toFixed(1)})`,
      baseline: `bare page query ${a.notModified.bareP50!.toFixed(1)} ms`,
      ratio: `${(a.notModified.p50 / a.notModified.bareP50!).toFixed(1)}× bare`,
      aim: '≤ 20 ms p50, no body',
      met: a.notModified.p50 <= 20,
    });
  }
  if (results.length >= 2) {
    const small = results[0];
    const big = results[results.length - 1];
    for (const [i, sa] of small.attention.entries()) {
      const s = sa.recomputed;
      const l = big.attention[i].recomputed;
      const ratio = l.p50 / s.p50;
      emitSummary({
        figure: `${s.name}, recomputed after a change, ${label(big.size)} vs ${label(small.size)} orders (p50; p99 ${s.p99.toFixed(1)} → ${l.p99.toFixed(1)} ms)`,
        value: `${l.p50.toFixed(1)} ms`,
        baseline: `${s.p50.toFixed(1)} ms at ${label(small.size)}; bare page query ${l.bareP50!.toFixed(1)} ms (${(l.p50 / l.bareP50!).toFixed(1)}×)`,
        ratio: `${ratio.toFixed(2)}×`,
        aim: 'same cost (≤ 1.5×)',
        met: ratio <= 1.5,
      });
    }
  } else {
    for (const { recomputed: a } of results[0]?.attention ?? []) {
      emitSummary({ figure: `${a.name} at ${label(results[0].size)} orders, recomputed after a change, p50 / p99`, value: `${a.p50.toFixed(1)} / ${a.p99.toFixed(1)} ms`, baseline: `${a.bareP50!.toFixed(1)} ms bare page query (p50)`, ratio: `${(a.p50 / a.bareP50!).toFixed(1)}×`, aim: '—', met: null });
    }
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
