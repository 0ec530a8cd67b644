// npm run docs:screenshots — the screenshots the README and the guides show, made from the demo so
// they stay current: the built app started as the browser tests start it (a fresh data folder, the
// demo seeded, `node dist/server/main.js` on a free loopback port), driven in Debian's Chromium
// with playwright-core at a 1280 × 800 laptop's size, each screen saved to docs/images/<name>.png.
// Names given (`npm run docs:screenshots -- routing`) take only those.
// Then the buyer's proof page at a 360 px phone's width (docs/images/proof-page.png): it needs a
// paid personalised order, its rendered pages and the proof e-mail's signed link, which its browser
// test (server/test/proof-page.scenario.ts, in `npm run test:scenarios`) makes; that test is run
// here and saves its picture for the docs. `npm run docs:screenshots -- proof-page` makes that one alone.
import { spawn, spawnSync } from 'node:child_process';
import { createRequire } from 'node:module';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { chromium, type Page } from 'playwright-core';
import { ensureBuilt, serverEntryFile } from './lib/builds.mjs';
import { freePort } from '../server/test/infra';

const root = path.resolve(import.meta.dirname, '..');
const images = path.join(root, 'docs/images');
const DEMO_PASSWORD = 'presswork';

interface Shot {
  name: string;
  /** What the image shows (its alt text in the docs). */
  what: string;
  as: 'staff@presswork.local' | 'admin@presswork.local';
  path: string;
  /** The page is ready to be photographed once this shows. */
  ready: (page: Page) => Promise<unknown>;
  /** What the demo needs first, through the API as the signed-in user (e.g. rules to show). */
  prepare?: (call: (method: string, path: string, body?: unknown) => Promise<unknown>) => Promise<void>;
}

/** docs/routing.md's first worked example, with capacity and an out-of-stock fallback. */
const ROUTING_EXAMPLE = {
  rules: [
    { id: 'cards', name: 'Cards in house', when: { sku: 'DEMO-CARD-*' }, then: { action: 'inHouse', ifFull: { action: 'provider' }, ifOutOfStock: { action: 'provider' } } },
    { id: 'posters', name: 'Posters to HP', when: { productType: 'Poster' }, then: { action: 'provider' } },
  ],
  default: { action: 'hold', reason: 'Not a card or a poster: check it' },
  capacity: [{ productType: 'Card', unitsPerDay: 200, cutoff: '15:00' }],
};

const SHOTS: Shot[] = [
  {
    name: 'jobs',
    what: "The demo's Jobs screen: the print queue with each job's ship-by, a reprint's reason and the Held tab",
    as: 'staff@presswork.local',
    path: '/print-jobs',
    ready: (page) => page.locator('table tbody tr').first().waitFor(),
  },
  {
    name: 'stock',
    what: "The demo's Stock: on hand, reserved and available of each blank, the mugs under their reorder point",
    as: 'staff@presswork.local',
    path: '/stock-items',
    ready: (page) => page.getByText('White mugs 11 oz').waitFor(),
  },
  {
    name: 'needs-attention',
    what: 'Needs attention: what is wrong on the floor, worst first',
    as: 'staff@presswork.local',
    path: '/attention',
    ready: (page) => page.getByRole('heading', { name: /Needs attention/ }).first().waitFor(),
  },
  {
    name: 'held-jobs',
    what: 'Jobs → Held: a job preflight stopped, with its finding and the page marked',
    as: 'staff@presswork.local',
    path: '/print-jobs?tab=held',
    ready: (page) => page.locator('[data-testid^="held-job-"]').first().waitFor(),
  },
  {
    name: 'api-reference',
    what: "Setup → API reference: every route from the server's OpenAPI document",
    as: 'admin@presswork.local',
    path: '/api-reference',
    ready: (page) => page.getByRole('table', { name: 'Routes' }).waitFor(),
  },
  {
    name: 'routing',
    what: 'Setup → Routing: rules in order (drag by the handle), each with its conditions and action, the default and the floor capacity',
    as: 'admin@presswork.local',
    path: '/routing',
    prepare: async (call) => {
      const sites = (await call('GET', '/api/sites')) as { list?: Array<{ id: number; slug: string }> } | Array<{ id: number; slug: string }>;
      const demo = (Array.isArray(sites) ? sites : (sites.list ?? [])).find((x) => x.slug === 'demo');
      if (!demo) throw new Error('The demo site is missing');
      await call('PUT', `/api/sites/${demo.id}/routing`, ROUTING_EXAMPLE);
    },
    ready: async (page) => {
      await page.getByRole('combobox', { name: 'Site' }).click();
      await page.getByRole('option', { name: 'Presswork Demo', exact: true }).click();
      await page.locator('.MuiMenu-root').waitFor({ state: 'detached' });
      await page.getByTestId('rule-0').waitFor();
    },
  },
];

async function startDemo(): Promise<{ baseUrl: string; stop: () => Promise<void> }> {
  await ensureBuilt(['admin', 'server'], { log: (line) => console.log(line) });
  const port = await freePort();
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'presswork-docs-'));
  const baseUrl = `http://127.0.0.1:${port}`;
  const logFile = path.join(dataDir, 'server.log');
  const log = fs.createWriteStream(logFile);
  // As the browser tests run it: the demo seeded, its simulators on, no scheduled syncs.
  const child = spawn(process.execPath, [serverEntryFile('main')], {
    cwd: root,
    env: { ...process.env, PORT: String(port), HOST: '127.0.0.1', DATA_DIR: dataDir, PUBLIC_URL: baseUrl, NODE_ENV: 'test', SEED_DEMO: '1', LOG_LEVEL: 'warn', SMTP_CATCHER_PORT: '0', SYNC_SCHEDULER: '0' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  child.stdout?.pipe(log);
  child.stderr?.pipe(log);
  const deadline = Date.now() + 90_000;
  for (;;) {
    try {
      if ((await fetch(`${baseUrl}/api`)).ok) break;
    } catch {
      // not listening yet
    }
    if (child.exitCode !== null || Date.now() > deadline) throw new Error(`The demo did not start:\n${fs.readFileSync(logFile, 'utf8')}`);
    await new Promise((r) => setTimeout(r, 200));
  }
  return {
    baseUrl,
    stop: async () => {
      child.kill('SIGTERM');
      await new Promise((r) => child.once('exit', r));
      fs.rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

async function signIn(page: Page, baseUrl: string, email: string): Promise<void> {
  await page.goto(`${baseUrl}/login`);
  await page.getByLabel(/email/i).fill(email);
  await page.getByLabel(/password/i).fill(DEMO_PASSWORD);
  await page.getByRole('button', { name: /sign in|log ?in/i }).click();
  await page.waitForURL((u) => !u.pathname.startsWith('/login'), { timeout: 20_000 });
}

/** The proof page at 360 px, from its browser test (a world with the render pipeline and a mail catcher). */
function proofPageShot(): void {
  // The package's own bin (its exports do not list it): node_modules/vitest/vitest.mjs.
  const vitest = path.join(path.dirname(createRequire(import.meta.url).resolve('vitest/package.json')), 'vitest.mjs');
  const file = path.join(images, 'proof-page.png');
  const run = spawnSync(process.execPath, [vitest, 'run', '--config', 'vitest.scenarios.config.ts', 'server/test/proof-page.scenario.ts'], { cwd: root, stdio: 'inherit', env: { ...process.env, PROOF_PAGE_IMAGE: file } });
  if (run.status !== 0) throw new Error('The proof page test failed: docs/images/proof-page.png was not made');
  console.log("docs/images/proof-page.png — the buyer's proof page on a 360 px phone");
}

async function main(): Promise<void> {
  // `proof-page` (or `--proof-page`) names the proof page's picture like any other.
  const only = process.argv.slice(2).map((a) => a.replace(/^--/, ''));
  const shots = only.length ? SHOTS.filter((s) => only.includes(s.name)) : SHOTS;
  if (shots.length) await demoShots(shots);
  if (!only.length || only.includes('proof-page')) proofPageShot();
}

async function demoShots(shots: Shot[]): Promise<void> {
  const demo = await startDemo();
  const browser = await chromium.launch({
    executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
    args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--no-first-run', '--disable-sync'],
  });
  try {
    fs.mkdirSync(images, { recursive: true });
    for (const who of new Set(shots.map((s) => s.as))) {
      const context = await browser.newContext({ viewport: { width: 1280, height: 800 }, deviceScaleFactor: 1 });
      const page = await context.newPage();
      await signIn(page, demo.baseUrl, who);
      const token = await page.evaluate(() => localStorage.getItem('token'));
      const call = async (method: string, path: string, body?: unknown) => {
        const res = await fetch(`${demo.baseUrl}${path}`, { method, headers: { Authorization: `Bearer ${token}`, 'Content-Type': 'application/json' }, body: body === undefined ? undefined : JSON.stringify(body) });
        const json = (await res.json()) as { success: boolean; data: unknown; error?: string };
        if (!json.success) throw new Error(`${method} ${path}: ${json.error}`);
        return json.data;
      };
      for (const shot of shots.filter((s) => s.as === who)) {
        await shot.prepare?.(call);
        await page.goto(`${demo.baseUrl}${shot.path}`);
        await shot.ready(page);
        // Fonts, images and the menu's counts settle before the picture is taken.
        await page.waitForLoadState('networkidle');
        const file = path.join(images, `${shot.name}.png`);
        await page.screenshot({ path: file });
        console.log(`docs/images/${shot.name}.png — ${shot.what}`);
      }
      await context.close();
    }
  } finally {
    await browser.close();
    await demo.stop();
  }
}

main().catch((err: unknown) => {
  console.error(err instanceof Error ? err.message : err);
  process.exit(1);
});
