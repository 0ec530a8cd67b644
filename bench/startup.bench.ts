// Startup time and memory of the app against a bare Express 5 app, same run:
//   tsx bench/startup.bench.ts [starts=3]
// - time from spawn to the first 200 from GET /api: `npm start` on a fresh DATA_DIR (migrations + demo
//   seed) and on an already-migrated one, and the server alone both ways it runs: built
//   (`node dist/server/main.js`, what npm start runs) and from its sources (`node --import tsx
//   server/src/main.ts`, what it ran before the server was built; the two started in turns) — against
//   bench/bare-express.ts started as `node --import tsx` (median of `starts` starts each);
// - RSS of the server process idle (3 s after it answers), and loaded: after 300 signed order webhooks
//   (concurrency 16, processed), 300 order-list calls and a print PDF of a demo job; peak RSS (VmHWM).
// Settings are npm start's defaults (demo seed, simulators) with a free port and a temporary DATA_DIR.
import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import Database from 'better-sqlite3';
import { fakeOrder, shopifyJson, signShopifyBody } from '../server/simulators/shopify';
import { emitSummary, ensureBuilt, freePort, median, mib, pct, rssOf, sleep, startAndTime, tmpDir, type Started } from './support';

const starts = Number(process.argv[2] ?? 3);
const IDLE_SETTLE_MS = 3_000;

interface Kind {
  label: string;
  run: (dataDir: string, port: number) => Promise<Started>;
}

const appEnv = (dataDir: string, port: number) => ({ PORT: String(port), HOST: '127.0.0.1', PUBLIC_URL: `http://127.0.0.1:${port}`, DATA_DIR: dataDir });
const npmStart: Kind['run'] = (dataDir, port) => startAndTime('npm', ['start', '--silent'], appEnv(dataDir, port), `http://127.0.0.1:${port}/api`);
const fromSources: Kind['run'] = (dataDir, port) => startAndTime(process.execPath, ['--import', 'tsx', 'server/src/main.ts'], appEnv(dataDir, port), `http://127.0.0.1:${port}/api`);
const built: Kind['run'] = (dataDir, port) => startAndTime(process.execPath, ['dist/server/main.js'], appEnv(dataDir, port), `http://127.0.0.1:${port}/api`);
const bare: Kind['run'] = (_dataDir, port) => startAndTime(process.execPath, ['--import', 'tsx', 'bench/bare-express.ts'], { PORT: String(port) }, `http://127.0.0.1:${port}/api`);

function hwmOf(pid: number): number {
  try {
    const m = /VmHWM:\s+(\d+) kB/.exec(fs.readFileSync(`/proc/${pid}/status`, 'utf8'));
    return m ? Number(m[1]) * 1024 : NaN;
  } catch {
    return NaN;
  }
}

interface Row {
  label: string;
  readyMs: number[];
  idleRss: number[];
}

/** `starts` starts of each kind, the kinds in turns (so a busier minute of the machine hits them alike). */
async function measure(kinds: Array<{ label: string; run: Kind['run'] }>, dataDirFor: (i: number) => string): Promise<Row[]> {
  const rows: Row[] = kinds.map((k) => ({ label: k.label, readyMs: [], idleRss: [] }));
  for (let i = 0; i < starts; i++) {
    for (const [k, kind] of kinds.entries()) {
      const s = await kind.run(dataDirFor(i), await freePort());
      try {
        rows[k].readyMs.push(s.readyMs);
        await sleep(IDLE_SETTLE_MS);
        rows[k].idleRss.push(rssOf(s.serverPid));
      } finally {
        await s.stop();
      }
    }
  }
  for (const r of rows) process.stdout.write(`  ${r.label}: ${r.readyMs.map((m) => m.toFixed(0)).join(', ')} ms\n`);
  return rows;
}

async function json<T>(res: Response): Promise<T> {
  const body = (await res.json()) as { data?: T; error?: string };
  if (!res.ok) throw new Error(`${res.url}: ${res.status} ${body.error ?? ''}`);
  return body.data as T;
}

/** Loads a running instance the way a busy day does; answers its RSS right after, and its peak. */
async function load(s: Started, base: string, dataDir: string): Promise<{ rss: number; hwm: number; detail: string }> {
  const admin = await json<{ token: string }>(await fetch(`${base}/api/users/login`, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify({ email: 'admin@presswork.local', password: 'presswork' }) }));
  const auth = { Authorization: `Bearer ${admin.token}` };
  const db = new Database(path.join(dataDir, 'presswork.sqlite'), { readonly: true, fileMustExist: true });
  const settings = JSON.parse((db.prepare("select settings from sites where slug = 'demo'").get() as { settings: string }).settings) as { env: Array<{ key: string; value: string }> };
  const env = Object.fromEntries(settings.env.map((e) => [e.key, e.value]));
  const shop = env.SHOPIFY_SHOP_DOMAIN;
  // The demo store is a Dev Dashboard app: it signs webhooks with its client secret (a store
  // connected with a custom app's token has a webhook secret of its own instead).
  const secret = env.SHOPIFY_WEBHOOK_SECRET ?? env.SHOPIFY_CLIENT_SECRET;
  if (!shop || !secret) throw new Error("the demo site has no Shopify store connected (SHOPIFY_SHOP_DOMAIN and a webhook or client secret)");
  const processed = () => Number((db.prepare("select count(*) as n from webhook_deliveries where status = 'processed'").get() as { n: number }).n);
  const before = processed();

  const N = 300;
  let next = 0;
  let non200 = 0;
  const t0 = performance.now();
  await Promise.all(
    Array.from({ length: 16 }, async () => {
      while (next < N) {
        const i = next++;
        const body = shopifyJson(fakeOrder(90_000 + i, { orderNumber: 50_000 + i }));
        const r = await fetch(`${base}/api/online-stores/shopify-webhook`, {
          method: 'POST',
          headers: {
            'Content-Type': 'application/json',
            'X-Shopify-Topic': 'orders/create',
            'X-Shopify-Hmac-Sha256': signShopifyBody(secret, body),
            'X-Shopify-Shop-Domain': shop,
            'X-Shopify-API-Version': '2025-10',
            'X-Shopify-Webhook-Id': crypto.randomUUID(),
            'X-Shopify-Event-Id': crypto.randomUUID(),
          },
          body,
        });
        await r.arrayBuffer();
        if (r.status !== 200) non200++;
      }
    }),
  );
  // Answered is not the end: wait for the orders to be processed (at most a minute).
  const deadline = Date.now() + 60_000;
  while (processed() - before < N - non200 && Date.now() < deadline) await sleep(200);
  const done = processed() - before;
  const hooksS = (performance.now() - t0) / 1000;

  const listLatencies: number[] = [];
  for (let i = 0; i < 300; i++) {
    const t = performance.now();
    const r = await fetch(`${base}/api/general-data/shopify-order-log?page=${(i % 10) + 1}`, { headers: auth });
    await r.arrayBuffer();
    if (!r.ok) throw new Error(`order list: ${r.status}`);
    listLatencies.push(performance.now() - t);
  }

  const jobs = await json<{ list: Array<{ id: number }> }>(await fetch(`${base}/api/print-jobs?page=1&readyForPrint=1&isPrinted=0`, { headers: auth }));
  let pdfBytes = 0;
  if (jobs.list[0]) {
    const r = await fetch(`${base}/api/pdf/from-print-job`, { method: 'POST', headers: { ...auth, 'Content-Type': 'application/json', Accept: 'application/pdf' }, body: JSON.stringify({ id: jobs.list[0].id }) });
    pdfBytes = (await r.arrayBuffer()).byteLength;
    if (!r.ok) throw new Error(`print PDF: ${r.status}`);
  }
  db.close();
  const sorted = [...listLatencies].sort((a, b) => a - b);
  return {
    rss: rssOf(s.serverPid),
    hwm: hwmOf(s.serverPid),
    detail: `${N} webhooks (${non200} non-200, ${done} processed in ${hooksS.toFixed(1)} s), 300 order-list calls (p50 ${pct(sorted, 50).toFixed(1)} ms), a print PDF (${(pdfBytes / 1024).toFixed(0)} KB)`,
  };
}

async function main() {
  await ensureBuilt(['admin', 'server']);
  const dir = tmpDir('presswork-bench-startup-');
  try {
    console.log(`\nStartup: spawn → first 200 from GET /api, ${starts} starts each (idle RSS ${IDLE_SETTLE_MS / 1000} s after)`);
    const migrated = path.join(dir, 'migrated');
    const rows: Row[] = [
      ...(await measure([{ label: 'bare Express 5 (node --import tsx)', run: bare }], () => dir)),
      ...(await measure([{ label: 'Presswork npm start, fresh DATA_DIR', run: npmStart }], (i) => (i === 0 ? migrated : path.join(dir, `fresh-${i}`)))),
      ...(await measure([{ label: 'Presswork npm start, migrated DATA_DIR', run: npmStart }], () => migrated)),
      ...(await measure(
        [
          { label: 'Presswork server alone, built (node dist/server/main.js), migrated', run: built },
          { label: 'Presswork server alone, sources (node --import tsx), migrated', run: fromSources },
        ],
        () => migrated,
      )),
    ];

    const base = rows[0];
    const bareReady = median(base.readyMs);
    const bareRss = median(base.idleRss);
    console.table(
      rows.map((r) => ({
        process: r.label + (r === base ? ' (baseline)' : ''),
        'ready p50 ms': median(r.readyMs).toFixed(0),
        'ready max ms': Math.max(...r.readyMs).toFixed(0),
        'vs baseline': `${(median(r.readyMs) / bareReady).toFixed(1)}×`,
        'idle RSS': mib(median(r.idleRss)),
        'RSS vs baseline': `${(median(r.idleRss) / bareRss).toFixed(1)}×`,
      })),
    );

    // A loaded instance: npm start on the migrated DATA_DIR, then a busy few seconds.
    const port = await freePort();
    const s = await npmStart(migrated, port);
    let loaded: Awaited<ReturnType<typeof load>>;
    let idle: number;
    try {
      await sleep(IDLE_SETTLE_MS);
      idle = rssOf(s.serverPid);
      loaded = await load(s, `http://127.0.0.1:${port}`, migrated);
    } finally {
      await s.stop();
    }
    console.log(`\nMemory (RSS of the server process): idle ${mib(idle)}; loaded ${mib(loaded.rss)}, peak ${mib(loaded.hwm)} — after ${loaded.detail}; bare Express idle ${mib(bareRss)}`);

    const fresh = median(rows[1].readyMs);
    const warm = median(rows[2].readyMs);
    const alone = median(rows[3].readyMs);
    const aloneTsx = median(rows[4].readyMs);
    const aloneRss = median(rows[3].idleRss);
    const aloneTsxRss = median(rows[4].idleRss);
    emitSummary({ figure: 'Start → /api answers, npm start, migrated', value: `${warm.toFixed(0)} ms`, baseline: `${bareReady.toFixed(0)} ms bare Express`, ratio: `${(warm / bareReady).toFixed(1)}×`, aim: '—', met: null });
    emitSummary({ figure: 'Start → /api answers, npm start, fresh (migrate + seed)', value: `${fresh.toFixed(0)} ms`, baseline: `${bareReady.toFixed(0)} ms bare Express`, ratio: `${(fresh / bareReady).toFixed(1)}×`, aim: '—', met: null });
    emitSummary({ figure: 'Start → /api answers, built server alone, migrated', value: `${alone.toFixed(0)} ms`, baseline: `${bareReady.toFixed(0)} ms bare Express`, ratio: `${(alone / bareReady).toFixed(1)}×`, aim: '≤ 3×', met: alone <= 3 * bareReady });
    emitSummary({ figure: 'Start → /api answers, built (node) vs sources (tsx)', value: `${alone.toFixed(0)} ms`, baseline: `${aloneTsx.toFixed(0)} ms node --import tsx`, ratio: `${(alone / aloneTsx).toFixed(2)}×`, aim: '< 1×', met: alone < aloneTsx });
    emitSummary({ figure: 'RSS idle, built (node) vs sources (tsx)', value: mib(aloneRss), baseline: `${mib(aloneTsxRss)} node --import tsx`, ratio: `${(aloneRss / aloneTsxRss).toFixed(2)}×`, aim: '≤ 1×', met: aloneRss <= aloneTsxRss });
    emitSummary({ figure: 'RSS idle', value: mib(idle), baseline: `${mib(bareRss)} bare Express`, ratio: `${(idle / bareRss).toFixed(1)}×`, aim: '—', met: null });
    emitSummary({ figure: 'RSS loaded (peak)', value: `${mib(loaded.rss)} (${mib(loaded.hwm)})`, baseline: `${mib(bareRss)} bare Express idle`, ratio: `${(loaded.rss / bareRss).toFixed(1)}×`, aim: '—', met: null });
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

await main();
