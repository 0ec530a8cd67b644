// No HTML where none belongs: the admin UI's index.html answers its pages only (deep links like
// /design/3 or /check-order?id=…); unknown paths under /api, /uploads, /files, /metrics, the
// simulators and the sync service answer 404 in the error envelope, even to a browser; any other
// unknown path is a 404 too (the UI's own "not found" page for a browser, the envelope otherwise).
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import express from 'express';
import supertest from 'supertest';
import { afterAll, describe, expect, it } from 'vitest';
import { UI_PAGE_ROOTS, isUiPage } from '../../common/uiPages';
import { createAdestraSimulator } from '../simulators/adestra';
import { HP_SIMULATOR_PATH } from '../simulators/hpDemo';
import { SHOPIFY_ADMIN_SIMULATOR_PATH } from '../simulators/shopifyAdminDemo';
import { ADESTRA_SIMULATOR_PATH, RE_SIMULATOR_PATH } from '../simulators/syncDemo';
import { SIMULATORS_PATH, createApp } from '../src/app';
import { createLogger } from '../src/lib/logger';
import { createWorld } from './harness';

const BROWSER = 'text/html,application/xhtml+xml,application/xml;q=0.9,image/avif,image/webp,*/*;q=0.8';
const INDEX = '<!doctype html><html><head><title>Presswork</title></head><body><div id="root"></div></body></html>';

const dirs: string[] = [];
afterAll(() => dirs.forEach((d) => fs.rmSync(d, { recursive: true, force: true })));
const tempDir = () => {
  const d = fs.mkdtempSync(path.join(os.tmpdir(), 'presswork-pages-'));
  dirs.push(d);
  return d;
};

describe('pages and 404s', async () => {
  const w = await createWorld();
  // A built admin UI of its own (the repository's dist/admin may or may not exist).
  const built = tempDir();
  fs.mkdirSync(path.join(built, 'assets'));
  fs.writeFileSync(path.join(built, 'index.html'), INDEX);
  fs.writeFileSync(path.join(built, 'assets', 'index-abc123.js'), 'console.log(1)');
  const deps = { db: w.db, clock: w.clock, config: w.config, log: createLogger('silent') };
  const withUi = createApp(deps, w.services, { adminDist: built }).app;
  const notBuilt = createApp(deps, w.services, { adminDist: tempDir() }).app;
  // As main.ts runs it outside production: the simulators mounted in front of the app.
  const adestra = createAdestraSimulator({ token: 'adestra-token', dropDir: tempDir() });
  const root = express().use(ADESTRA_SIMULATOR_PATH, adestra.app).use(withUi);

  it.each(['/print-jobs', '/design/3', '/check-order?id=1001', '/', '/login', '/sites/4/show', '/re-n-adestra-sync?tab=files', '/editor'])('the page %s → index.html (200) for a browser', async (url) => {
    const res = await supertest(withUi).get(url).set('Accept', BROWSER);
    expect(res.status).toBe(200);
    expect(res.headers['content-type']).toMatch(/^text\/html/);
    expect(res.text).toBe(INDEX);
  });

  it('the built assets are served as files', async () => {
    const res = await supertest(withUi).get('/assets/index-abc123.js');
    expect(res.status).toBe(200);
    expect(res.text).toBe('console.log(1)');
  });

  const reserved = [
    '/api/nope',
    '/uploads',
    '/uploads/',
    '/uploads/logos/no-such-file.png',
    '/files',
    '/files/no/such/file.png',
    '/metrics/x',
    SIMULATORS_PATH,
    `${HP_SIMULATOR_PATH}/api/order`,
    `${SHOPIFY_ADMIN_SIMULATOR_PATH}/admin/api/graphql.json`,
    `${RE_SIMULATOR_PATH}/constituent/v1/constituents`,
    `${ADESTRA_SIMULATOR_PATH}/nothing-here`,
    '/sync-service',
  ];

  it.each(reserved)('%s → 404 in the error envelope, also to a browser', async (url) => {
    for (const accept of [BROWSER, '*/*', 'application/json']) {
      const res = await supertest(root).get(url).set('Accept', accept);
      expect(res.status, `${url} ${accept}`).toBe(404);
      expect(res.headers['content-type'], `${url} ${accept}`).toMatch(/^application\/json/);
      expect(res.body.success).toBe(false);
      expect(typeof res.body.error).toBe('string');
    }
  });

  it.each(['/healthz', '/health', '/favicon.ico', '/assets/index-gone.js', '/robots.txt', '/wp-login.php'])('%s (no page) → 404: the envelope for a monitor or a script', async (url) => {
    for (const accept of ['*/*', 'application/json', undefined]) {
      const req = supertest(withUi).get(url);
      const res = await (accept ? req.set('Accept', accept) : req);
      expect(res.status, `${url} ${accept}`).toBe(404);
      expect(res.body, `${url} ${accept}`).toEqual({ success: false, error: `No such call: GET ${url}` });
    }
  });

  it("an unknown path asked for by a browser → 404 with the UI's page (it shows its own \"not found\" screen)", async () => {
    const res = await supertest(withUi).get('/no-such-page').set('Accept', BROWSER);
    expect(res.status).toBe(404);
    expect(res.text).toBe(INDEX);
  });

  it('a page asked for as JSON → 404 envelope, as before', async () => {
    const res = await supertest(withUi).get('/print-jobs').set('Accept', 'application/json');
    expect(res.status).toBe(404);
    expect(res.body.success).toBe(false);
  });

  it('the UI not built: a page → 503 saying how to build it; any other path → the 404 envelope', async () => {
    const page = await supertest(notBuilt).get('/print-jobs').set('Accept', BROWSER);
    expect(page.status).toBe(503);
    expect(page.text).toMatch(/npm run build/);
    const other = await supertest(notBuilt).get('/healthz').set('Accept', BROWSER);
    expect(other.status).toBe(404);
    expect(other.body.success).toBe(false);
  });

  it('every simulator is mounted under the path that is never a page', () => {
    for (const p of [HP_SIMULATOR_PATH, SHOPIFY_ADMIN_SIMULATOR_PATH, RE_SIMULATOR_PATH, ADESTRA_SIMULATOR_PATH]) expect(p.startsWith(`${SIMULATORS_PATH}/`), p).toBe(true);
  });
});

describe("the UI's pages (common/uiPages.ts) and the admin's routes agree", () => {
  it('every <Route path> and <Resource name> of admin/src/App.tsx is a page the server answers with index.html', () => {
    const app = fs.readFileSync(path.resolve(import.meta.dirname, '../../admin/src/App.tsx'), 'utf8');
    const routes = [...app.matchAll(/<Route\s+path="([^"]+)"/g)].map((m) => m[1]);
    const resources = [...app.matchAll(/<Resource\s+name="([^"]+)"/g)].map((m) => `/${m[1]}`);
    expect(routes.length).toBeGreaterThan(10);
    expect(resources.length).toBeGreaterThan(3);
    const missing = [...routes, ...resources].filter((p) => !isUiPage(p.replace(/:\w+/g, '1')));
    expect(missing, `add these pages' first path segment to UI_PAGE_ROOTS in common/uiPages.ts:\n${missing.join('\n')}`).toEqual([]);
    expect(isUiPage('/login')).toBe(true);
    expect(UI_PAGE_ROOTS).not.toContain('api');
  });

  it('isUiPage: the root and the listed first segments only', () => {
    expect(isUiPage('/')).toBe(true);
    expect(isUiPage('/design/3')).toBe(true);
    expect(isUiPage('/designs')).toBe(true);
    expect(isUiPage('/designsx')).toBe(false);
    expect(isUiPage('//print-jobs')).toBe(false);
    expect(isUiPage('/healthz')).toBe(false);
    expect(isUiPage('/metrics')).toBe(false);
  });
});
