// The admin UI against a bare react-admin app (bench/bare-admin: <Admin dataProvider={simpleRestProvider('/api')}>
// with one ListGuesser resource, same react-admin / MUI / React / Vite), measured in the same run:
//   tsx bench/admin.bench.ts bundle       initial JavaScript (entry + its static imports), gzip -9 and raw
//   tsx bench/admin.bench.ts jobs [n=15]  time from navigation to the first job row, cold, headless Chromium,
//                                         alternating with the bare list; p50 with its spread, aim ≤ 1.2×
//   tsx bench/admin.bench.ts              both
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import zlib from 'node:zlib';
import type { Browser } from 'playwright-core';
import { launch } from '../e2e/browser';
import { emitSummary, ensureBuilt, freePort, kb, pct, root, startAndTime, tmpDir } from './support';

const AIM_RATIO = 1.1;
/** The Jobs screen's first row against the bare list's (p50, same run). */
const JOBS_AIM_RATIO = 1.2;

interface ManifestChunk {
  file: string;
  name?: string;
  src?: string;
  isEntry?: boolean;
  imports?: string[];
  dynamicImports?: string[];
  css?: string[];
}

interface Chunk {
  file: string;
  raw: number;
  gzip: number;
}

interface Initial {
  app: string;
  chunks: Chunk[];
  raw: number;
  gzip: number;
  css: { raw: number; gzip: number };
  allJs: { raw: number; gzip: number; files: number };
}

function viteBuild(config: string, outDir: string): void {
  const r = spawnSync(process.execPath, [path.join(root, 'node_modules/vite/bin/vite.js'), 'build', '--config', config, '--outDir', outDir, '--emptyOutDir', '--manifest', '--logLevel', 'warn'], {
    cwd: root,
    encoding: 'utf8',
  });
  if (r.status !== 0) throw new Error(`vite build --config ${config} failed:\n${r.stdout}\n${r.stderr}`);
}

const gz = (b: Buffer) => zlib.gzipSync(b, { level: 9 }).length;

/** The entry chunk and every chunk it reaches through static imports (what the browser must load before the first render). */
function initialJs(app: string, outDir: string): Initial {
  const manifest = JSON.parse(fs.readFileSync(path.join(outDir, '.vite/manifest.json'), 'utf8')) as Record<string, ManifestChunk>;
  const entries = Object.entries(manifest).filter(([, c]) => c.isEntry);
  if (entries.length !== 1) throw new Error(`${app}: expected one entry in the Vite manifest, found ${entries.length}`);
  const seen = new Set<string>();
  const walk = (key: string) => {
    if (seen.has(key)) return;
    seen.add(key);
    for (const i of manifest[key].imports ?? []) walk(i);
  };
  walk(entries[0][0]);
  const files = [...seen].map((k) => manifest[k].file);
  // Cross-check with what index.html makes the browser fetch up front (entry script + modulepreload links).
  const html = fs.readFileSync(path.join(outDir, 'index.html'), 'utf8');
  const fromHtml = new Set([...html.matchAll(/<(?:script[^>]*src|link[^>]*rel="modulepreload"[^>]*href)="\/([^"]+\.js)"/g)].map((m) => m[1]));
  // A classic <script src> that is not a bundle chunk (admin/routePreload.ts's route-preload.js) runs on every load: counted.
  for (const m of html.matchAll(/<script(?![^>]*type="module")[^>]*src="\/([^"]+\.js)"/g)) if (!files.includes(m[1]) && fs.existsSync(path.join(outDir, m[1]))) files.push(m[1]);
  const missing = files.filter((f) => !fromHtml.has(f));
  const extra = [...fromHtml].filter((f) => !files.includes(f));
  if (missing.length || extra.length) console.warn(`  ${app}: manifest and index.html disagree (not preloaded: ${missing.join(', ') || '—'}; preloaded only: ${extra.join(', ') || '—'})`);
  const chunks = files.map((file) => {
    const b = fs.readFileSync(path.join(outDir, file));
    return { file, raw: b.length, gzip: gz(b) };
  });
  const cssFiles = new Set([...seen].flatMap((k) => manifest[k].css ?? []));
  let cssRaw = 0;
  let cssGz = 0;
  for (const f of cssFiles) {
    const b = fs.readFileSync(path.join(outDir, f));
    cssRaw += b.length;
    cssGz += gz(b);
  }
  const all = fs.readdirSync(path.join(outDir, 'assets')).filter((f) => f.endsWith('.js'));
  let allRaw = 0;
  let allGz = 0;
  for (const f of all) {
    const b = fs.readFileSync(path.join(outDir, 'assets', f));
    allRaw += b.length;
    allGz += gz(b);
  }
  return {
    app,
    chunks: chunks.sort((a, b) => b.gzip - a.gzip),
    raw: chunks.reduce((n, c) => n + c.raw, 0),
    gzip: chunks.reduce((n, c) => n + c.gzip, 0),
    css: { raw: cssRaw, gzip: cssGz },
    allJs: { raw: allRaw, gzip: allGz, files: all.length },
  };
}

export async function bundle(): Promise<void> {
  const dir = tmpDir('presswork-bench-admin-');
  try {
    const t0 = performance.now();
    viteBuild('admin/vite.config.ts', path.join(dir, 'presswork'));
    const t1 = performance.now();
    viteBuild('bench/bare-admin/vite.config.ts', path.join(dir, 'bare'));
    const t2 = performance.now();
    const ours = initialJs('Presswork admin', path.join(dir, 'presswork'));
    const bare = initialJs('bare react-admin', path.join(dir, 'bare'));
    const ratio = ours.gzip / bare.gzip;
    console.log(`\nAdmin bundle: initial JavaScript (entry + static imports; dynamic imports excluded), gzip -9 and raw; builds took ${((t1 - t0) / 1000).toFixed(1)} s and ${((t2 - t1) / 1000).toFixed(1)} s`);
    console.table(
      [bare, ours].map((r) => ({
        app: r === bare ? 'bare react-admin, ListGuesser (baseline)' : r.app,
        'initial JS gzip': kb(r.gzip),
        'initial JS raw': kb(r.raw),
        'initial files': r.chunks.length,
        'vs baseline (gzip)': `${(r.gzip / bare.gzip).toFixed(2)}×`,
        'vs baseline (raw)': `${(r.raw / bare.raw).toFixed(2)}×`,
        'initial CSS gzip': kb(r.css.gzip),
        'all JS gzip (files)': `${kb(r.allJs.gzip)} (${r.allJs.files})`,
      })),
    );
    console.log(`Aim: Presswork initial JS gzip ≤ ${AIM_RATIO}× the bare app: ${ratio.toFixed(2)}× — ${ratio <= AIM_RATIO ? 'met' : 'NOT met'}`);
    console.log('Largest initial chunks of the Presswork admin:');
    console.table(ours.chunks.slice(0, 6).map((c) => ({ file: c.file, gzip: kb(c.gzip), raw: kb(c.raw) })));
    emitSummary({ figure: 'Admin initial JS, gzip -9', value: kb(ours.gzip), baseline: `${kb(bare.gzip)} (bare react-admin)`, ratio: `${ratio.toFixed(2)}×`, aim: `≤ ${AIM_RATIO}×`, met: ratio <= AIM_RATIO });
    emitSummary({ figure: 'Admin initial JS, raw', value: kb(ours.raw), baseline: kb(bare.raw), ratio: `${(ours.raw / bare.raw).toFixed(2)}×`, aim: '—', met: null });
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

// ---------------------------------------------------------------------------------------------
// Time to first render of the Jobs screen

/** Records, in the page, performance.now() (ms since navigation start) when the first matching row has a box. */
const firstRowProbe = (selector: string) => `
  (() => {
    const sel = ${JSON.stringify(selector)};
    const check = () => {
      if (window.__firstRowMs !== undefined) return;
      const el = document.querySelector(sel);
      if (el && el.getBoundingClientRect().height > 0) {
        window.__firstRowMs = performance.now();
        obs.disconnect();
      }
    };
    const obs = new MutationObserver(check);
    obs.observe(document, { childList: true, subtree: true, attributes: true });
  })();
`;

interface Samples {
  label: string;
  ms: number[];
  transferred: number[];
}

interface Screen {
  label: string;
  url: string;
  selector: string;
  localStorage: Array<{ name: string; value: string }>;
}

/** One cold load: a fresh browser context (empty cache and storage), signed in through storage. */
async function coldLoad(browser: Browser, { url, selector, localStorage }: Screen): Promise<{ ms: number; bytes: number }> {
  const origin = new URL(url).origin;
  const context = await browser.newContext({ storageState: { cookies: [], origins: [{ origin, localStorage }] }, viewport: { width: 1280, height: 800 } });
  await context.addInitScript(firstRowProbe(selector));
  const page = await context.newPage();
  let bytes = 0;
  page.on('response', async (r) => {
    const size = await r.request().sizes().catch(() => null);
    if (size) bytes += size.responseBodySize + size.responseHeadersSize;
  });
  await page.goto(url, { waitUntil: 'commit' });
  await page.locator(selector).first().waitFor({ state: 'visible', timeout: 30_000 });
  const ms = await page.evaluate(() => (window as unknown as { __firstRowMs?: number }).__firstRowMs ?? NaN);
  await page.waitForLoadState('networkidle').catch(() => undefined);
  await context.close();
  return { ms, bytes };
}

/**
 * n cold loads of each screen, alternating (A B A B …), so a change of the machine's load (it is
 * shared) weighs on both alike. The first load of each warms its server and Chromium: not counted.
 */
async function alternatingColdLoads(browser: Browser, screens: Screen[], n: number): Promise<Samples[]> {
  const samples = screens.map((s): Samples => ({ label: s.label, ms: [], transferred: [] }));
  for (let i = 0; i < n + 1; i++) {
    for (const [k, screen] of screens.entries()) {
      const { ms, bytes } = await coldLoad(browser, screen);
      if (i > 0) {
        samples[k].ms.push(ms);
        samples[k].transferred.push(bytes);
      }
    }
  }
  return samples;
}

const PRESSWORK_ROW = 'tbody tr[data-testid^="print-job-"]';
const BARE_ROW = 'tbody tr.RaDataTable-row, tbody tr.RaDatagrid-row';

export async function jobs(n: number): Promise<void> {
  await ensureBuilt(['admin']);
  const dir = tmpDir('presswork-bench-jobs-');
  const barePort = await freePort();
  const port = await freePort();
  const base = `http://127.0.0.1:${port}`;
  let browser: Browser | undefined;
  const app = await startAndTime(
    process.execPath,
    ['--import', 'tsx', 'server/src/main.ts'],
    { PORT: String(port), HOST: '127.0.0.1', PUBLIC_URL: base, DATA_DIR: path.join(dir, 'data'), SEED_DEMO: '1', LOG_LEVEL: 'warn' },
    `${base}/api`,
  );
  const bareDist = path.join(dir, 'bare-dist');
  viteBuild('bench/bare-admin/vite.config.ts', bareDist);
  let bareServer: Awaited<ReturnType<typeof startAndTime>> | undefined;
  try {
    // Sign in once, as the operator of the demo site.
    const login = await fetch(`${base}/api/users/login`, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify({ email: 'staff@presswork.local', password: 'presswork' }) });
    const body = (await login.json()) as { data?: { token: string; publicInfo: unknown } };
    if (!login.ok || !body.data) throw new Error(`sign-in failed: ${login.status} ${JSON.stringify(body)}`);
    const { token, publicInfo } = body.data;
    const queue = (await (await fetch(`${base}/api/print-jobs?page=1&readyForPrint=1&isPrinted=0`, { headers: { Authorization: `Bearer ${token}` } })).json()) as { data?: { list?: unknown[] } };
    const rows = queue.data?.list?.length ?? 0;
    if (!rows) throw new Error('the demo has no job in the Jobs queue: nothing to render');

    bareServer = await startAndTime(process.execPath, ['--import', 'tsx', 'bench/bare-admin/server.ts'], { PORT: String(barePort), DIST: bareDist, UPSTREAM: base, TOKEN: token }, `http://127.0.0.1:${barePort}/api/jobs`);

    browser = await launch();
    const [ours, bare] = await alternatingColdLoads(
      browser,
      [
        {
          label: 'Presswork Jobs (/print-jobs)',
          url: `${base}/print-jobs`,
          selector: PRESSWORK_ROW,
          localStorage: [
            { name: 'token', value: token },
            { name: 'user', value: JSON.stringify(publicInfo) },
          ],
        },
        { label: 'bare react-admin ListGuesser (/jobs)', url: `http://127.0.0.1:${barePort}/jobs`, selector: BARE_ROW, localStorage: [] },
      ],
      n,
    );

    const sorted = (xs: number[]) => [...xs].sort((a, b) => a - b);
    const stats = (s: Samples) => {
      const ms = sorted(s.ms);
      return { p25: pct(ms, 25), p50: pct(ms, 50), p75: pct(ms, 75), p95: pct(ms, 95), min: ms[0], max: ms[ms.length - 1], kb: pct(sorted(s.transferred), 50) / 1024 };
    };
    const o = stats(ours);
    const b = stats(bare);
    const ratio = o.p50 / b.p50;
    console.log(`\nJobs screen, time from navigation to the first job row visible: ${n} cold loads each, alternating with the baseline (fresh browser context: empty cache, token in localStorage), headless Chromium, ${rows} jobs on page 1`);
    console.table(
      [
        [bare, b],
        [ours, o],
      ].map(([s, st]) => {
        const x = st as ReturnType<typeof stats>;
        return {
          screen: (s as Samples).label + (s === bare ? ' (baseline)' : ''),
          'p50 ms': x.p50.toFixed(0),
          'p25–p75 ms': `${x.p25.toFixed(0)}–${x.p75.toFixed(0)}`,
          'p95 ms': x.p95.toFixed(0),
          'min–max ms': `${x.min.toFixed(0)}–${x.max.toFixed(0)}`,
          'p50 vs baseline': `${(x.p50 / b.p50).toFixed(2)}×`,
          'transferred (p50)': `${x.kb.toFixed(0)} KB`,
        };
      }),
    );
    console.log(`Aim: Jobs first row p50 ≤ ${JOBS_AIM_RATIO}× the bare list's: ${ratio.toFixed(2)}× — ${ratio <= JOBS_AIM_RATIO ? 'met' : 'NOT met'}`);
    emitSummary({
      figure: 'Jobs screen first row, p50 (p25–p75, p95)',
      value: `${o.p50.toFixed(0)} ms (${o.p25.toFixed(0)}–${o.p75.toFixed(0)}, ${o.p95.toFixed(0)})`,
      baseline: `${b.p50.toFixed(0)} ms (${b.p25.toFixed(0)}–${b.p75.toFixed(0)}, ${b.p95.toFixed(0)}) bare list`,
      ratio: `${ratio.toFixed(2)}×`,
      aim: `≤ ${JOBS_AIM_RATIO}×`,
      met: ratio <= JOBS_AIM_RATIO,
    });
  } finally {
    await browser?.close();
    await bareServer?.stop();
    await app.stop();
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

const [what = 'all', count] = process.argv.slice(2);
if (what === 'bundle' || what === 'all') await bundle();
if (what === 'jobs' || what === 'all') await jobs(Number(count ?? 15));
if (!['bundle', 'jobs', 'all'].includes(what)) {
  console.error(`unknown scenario ${what}: bundle | jobs [n] | all`);
  process.exit(2);
}
