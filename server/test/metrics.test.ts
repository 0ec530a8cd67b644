// GET /metrics: the Prometheus text of one app — each kind of work moves its own series (a webhook,
// an outbox send to the provider and to the store, a PDF, a render, a sync run), queue depths and
// ages are read at scrape time, HTTP latency is labelled by route pattern (never an id), and the
// endpoint is protected: METRICS_TOKEN as a bearer token, or loopback clients only.
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import type { Request } from 'express';
import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import { createMetrics } from '../src/lib/metrics';
import { HP_ORDER_KIND } from '../src/modules/fulfilment/outbox';
import { HP_SOURCE } from '../src/modules/fulfilment/postbacks';
import { STORE_FULFILMENT_KIND, storeFulfilmentRepo } from '../src/modules/fulfilment/storeFulfilmentRepo';
import { isLocalClient } from '../src/modules/metrics/routes';
import { finishRun } from '../src/modules/sync/runs';
import type { RunData } from '../src/modules/sync/records';
import { bearer, createWorld, testClock } from './harness';
import { createHpWorld, HP, storeOrder } from './fulfilmentWorld';
import { cardDoc } from './renderKit';

type Labels = Record<string, string>;

/** The value of the series `name{labels…}` (the labels given must match; others may be there too), or undefined. */
function valueOf(text: string, name: string, labels: Labels = {}): number | undefined {
  for (const line of text.split('\n')) {
    const m = /^([a-zA-Z_:][\w:]*)(?:\{(.*)\})? (\S+)$/.exec(line);
    if (!m || m[1] !== name) continue;
    const have = Object.fromEntries([...(m[2] ?? '').matchAll(/(\w+)="((?:[^"\\]|\\.)*)"/g)].map((x) => [x[1], x[2]]));
    if (Object.entries(labels).every(([k, v]) => have[k] === v)) return Number(m[3]);
  }
  return undefined;
}

/** Label sets of every series of `name`. */
function seriesOf(text: string, name: string): Labels[] {
  return text
    .split('\n')
    .filter((l) => l.startsWith(`${name}{`))
    .map((l) => Object.fromEntries([...l.matchAll(/(\w+)="((?:[^"\\]|\\.)*)"/g)].map((x) => [x[1], x[2]])));
}

describe('GET /metrics: what each kind of work counts', async () => {
  const w = await createHpWorld();
  const scrape = async () => {
    const res = await w.request().get('/metrics');
    expect(res.status).toBe(200);
    return res.text;
  };
  let seq = 0;
  const newOrderId = () => `${8_000_000_000 + ++seq * 11}`;

  it('answers Prometheus text with the process metrics and every Presswork family, described', async () => {
    const res = await w.request().get('/metrics');
    expect(res.status).toBe(200);
    expect(res.headers['content-type']).toMatch(/^text\/plain; version=0\.0\.4/);
    expect(res.headers['cache-control']).toBe('no-store');
    for (const family of [
      'presswork_http_request_duration_seconds',
      'presswork_webhooks_received_total',
      'presswork_webhooks_processed_total',
      'presswork_webhooks_failed_total',
      'presswork_inbox_depth',
      'presswork_inbox_oldest_age_seconds',
      'presswork_outbox_depth',
      'presswork_outbox_oldest_age_seconds',
      'presswork_provider_sends_total',
      'presswork_store_sends_total',
      'presswork_pdf_duration_seconds',
      'presswork_render_duration_seconds',
      'presswork_sync_runs_total',
      'process_cpu_seconds_total',
      'process_resident_memory_bytes',
      'nodejs_eventloop_lag_seconds',
      'nodejs_heap_size_used_bytes',
    ]) {
      expect(res.text, family).toContain(`# HELP ${family} `);
    }
  });

  it('a provider postback: received (stored, then duplicate) and processed, by source', async () => {
    const before = await scrape();
    const body = { event: 'order.received', sourceOrderId: newOrderId(), orderId: 'hp-1', status: 'received', timestamp: '2026-11-21T10:00:01Z' };
    const hook = () => w.request().post('/api/online-stores/hp-webhook?site=site-a').set('x-postback-token', HP.token).send(body);
    expect((await hook()).status).toBeLessThan(300);
    expect((await hook()).status).toBeLessThan(300);
    await w.services.inbox.idle();
    const after = await scrape();
    const delta = (name: string, labels: Labels) => (valueOf(after, name, labels) ?? 0) - (valueOf(before, name, labels) ?? 0);
    expect(delta('presswork_webhooks_received_total', { source: HP_SOURCE, outcome: 'stored' })).toBe(1);
    expect(delta('presswork_webhooks_received_total', { source: HP_SOURCE, outcome: 'duplicate' })).toBe(1);
    expect(delta('presswork_webhooks_processed_total', { source: HP_SOURCE })).toBe(1);
    expect(delta('presswork_webhooks_failed_total', { source: HP_SOURCE })).toBe(0);
  });

  it('a delivery whose processing fails counts as failed; one nobody processes shows in the inbox depth with its age', async () => {
    w.services.inbox.register({
      source: 'test-failing',
      mode: 'lease',
      process: async () => {
        throw new Error('boom');
      },
    });
    const at = (secondsAgo: number) => new Date(w.clock.now().getTime() - secondsAgo * 1000).toISOString();
    const failing = await w.services.inbox.store({ source: 'test-failing', eventId: 'f-1', deliveryId: null, siteId: null, topic: null, payload: {}, status: 'received', receivedAt: at(0) });
    w.services.inbox.processSoon(failing!);
    await w.services.inbox.idle();
    // A source with no handler in this app: stored, never processed.
    await w.services.inbox.store({ source: 'test-waiting', eventId: 'w-1', deliveryId: null, siteId: null, topic: null, payload: {}, status: 'received', receivedAt: at(90) });
    const text = await scrape();
    expect(valueOf(text, 'presswork_webhooks_failed_total', { source: 'test-failing' })).toBe(1);
    expect(valueOf(text, 'presswork_inbox_depth', { source: 'test-failing', status: 'failed' })).toBe(1);
    expect(valueOf(text, 'presswork_inbox_depth', { source: 'test-waiting', status: 'received' })).toBe(1);
    expect(valueOf(text, 'presswork_inbox_oldest_age_seconds', { source: 'test-waiting', status: 'received' })).toBeGreaterThanOrEqual(90);
    // Processed or gone: the series stays, at 0 (an alert on it keeps working).
    await w.db('webhook_deliveries').whereIn('source', ['test-failing', 'test-waiting']).delete();
    const later = await scrape();
    expect(valueOf(later, 'presswork_inbox_depth', { source: 'test-waiting', status: 'received' })).toBe(0);
    expect(valueOf(later, 'presswork_inbox_oldest_age_seconds', { source: 'test-waiting', status: 'received' })).toBe(0);
  });

  it('an outbox send to the provider: waiting in the outbox depth with its age, then counted as sent', async () => {
    const orderId = newOrderId();
    await w.insertDesign(w.sites.a, { sku: 'METRICS-SKU' });
    await w.insertOrder(w.sites.a, storeOrder(orderId, [{ id: '11', sku: 'METRICS-SKU' }]));
    const [row] = await w.db.transaction((trx) => w.services.fulfilment.enqueueOrderSend(trx, { siteId: w.sites.a, orderId }, w.users.userA));
    w.clock.advance(120_000);
    const waiting = await scrape();
    expect(valueOf(waiting, 'presswork_outbox_depth', { kind: HP_ORDER_KIND })).toBe(1);
    expect(valueOf(waiting, 'presswork_outbox_oldest_age_seconds', { kind: HP_ORDER_KIND })).toBeGreaterThanOrEqual(120);
    const before = valueOf(waiting, 'presswork_provider_sends_total', { provider: 'hp', action: 'order', outcome: 'sent' }) ?? 0;
    expect((await w.services.fulfilment.sendNow(row.id)).status).toBe('sent');
    const sent = await scrape();
    expect(valueOf(sent, 'presswork_provider_sends_total', { provider: 'hp', action: 'order', outcome: 'sent' })).toBe(before + 1);
    expect(valueOf(sent, 'presswork_outbox_depth', { kind: HP_ORDER_KIND })).toBe(0);
  });

  it('a send that cannot go out (no design for its SKU): counted as failed', async () => {
    const orderId = newOrderId();
    await w.insertOrder(w.sites.a, storeOrder(orderId, [{ id: '11', sku: 'METRICS-NO-DESIGN' }]));
    const [row] = await w.db.transaction((trx) => w.services.fulfilment.enqueueOrderSend(trx, { siteId: w.sites.a, orderId }, w.users.userA));
    const before = valueOf(await scrape(), 'presswork_provider_sends_total', { provider: 'hp', action: 'order', outcome: 'failed' }) ?? 0;
    expect((await w.services.fulfilment.sendNow(row.id)).status).toBe('failed');
    expect(valueOf(await scrape(), 'presswork_provider_sends_total', { provider: 'hp', action: 'order', outcome: 'failed' })).toBe(before + 1);
  });

  it('a write-back to the store: counted by outcome (no Admin API token → failed)', async () => {
    const at = w.clock.now().toISOString();
    await storeFulfilmentRepo(w.db).enqueue({ siteId: w.sites.a, orderId: newOrderId(), lineId: null, actorId: null, lineIds: ['11'], tracking: { number: 'TRK1', url: null, company: null }, source: 'in-house' }, at);
    expect(valueOf(await scrape(), 'presswork_outbox_depth', { kind: STORE_FULFILMENT_KIND })).toBe(1);
    await w.services.storeFulfilments.processDue();
    const text = await scrape();
    expect(valueOf(text, 'presswork_store_sends_total', { store: 'shopify', outcome: 'failed' })).toBe(1);
    expect(valueOf(text, 'presswork_outbox_depth', { kind: STORE_FULFILMENT_KIND })).toBe(0);
  });

  it('a PDF and a render: their durations observed in the worker threads, by task and outcome', async () => {
    const before = await scrape();
    // A colour of its own: not a PDF some other test left in the cache.
    const png = await sharp({ create: { width: 40, height: 56, channels: 3, background: { r: 17, g: 101, b: Date.now() % 256 } } }).png().toBuffer();
    const pdf = await w.request().post('/api/pdf/from-image').set(bearer(w.tokens.userA)).send({ url: `data:image/png;base64,${png.toString('base64')}` });
    expect(pdf.status).toBe(200);
    const render = await w.request().post('/api/images/from-polotno').set(bearer(w.tokens.userA)).send({ document: cardDoc(), dpi: 36 });
    expect(render.status).toBe(200);
    const after = await scrape();
    const count = (text: string, name: string, labels: Labels) => valueOf(text, `${name}_count`, labels) ?? 0;
    expect(count(after, 'presswork_pdf_duration_seconds', { task: 'print-file', outcome: 'ok' }) - count(before, 'presswork_pdf_duration_seconds', { task: 'print-file', outcome: 'ok' })).toBe(1);
    expect(valueOf(after, 'presswork_pdf_duration_seconds_sum', { task: 'print-file', outcome: 'ok' })).toBeGreaterThan(0);
    expect(count(after, 'presswork_render_duration_seconds', { outcome: 'ok' }) - count(before, 'presswork_render_duration_seconds', { outcome: 'ok' })).toBe(1);
  });

  it('HTTP latency is labelled by route pattern, never by the URL: no id, no site slug, `unmatched` for no route', async () => {
    await w.request().get('/api/print-jobs/987654').set(bearer(w.tokens.userA));
    await w.request().get('/api/sites/site-a/sync-status').set(bearer(w.tokens.adminA));
    await w.request().get('/api/no-such-call-4242');
    const text = await scrape();
    const routes = seriesOf(text, 'presswork_http_request_duration_seconds_count');
    expect(valueOf(text, 'presswork_http_request_duration_seconds_count', { method: 'GET', route: '/api/print-jobs/:id', status_class: '4xx' })).toBe(1);
    expect(valueOf(text, 'presswork_http_request_duration_seconds_count', { method: 'GET', route: '/api/sites/:site/sync-status' })).toBe(1);
    expect(valueOf(text, 'presswork_http_request_duration_seconds_count', { method: 'GET', route: 'unmatched', status_class: '4xx' })).toBeGreaterThanOrEqual(1);
    expect(valueOf(text, 'presswork_http_request_duration_seconds_count', { method: 'POST', route: '/api/online-stores/hp-webhook', status_class: '2xx' })).toBeGreaterThanOrEqual(2);
    const labels = routes.map((r) => r.route).join('\n');
    expect(labels).not.toMatch(/987654|site-a|4242/);
    for (const r of routes) expect(r.route === 'unmatched' || r.route.startsWith('/'), r.route).toBe(true);
  });

  it('a sync run: counted by kind and outcome when it finishes', async () => {
    const metrics = createMetrics();
    const saved: RunData[] = [];
    const records = { saveRun: async (_id: number, data: RunData) => void saved.push(data) } as never;
    const data = (errors: RunData['errors'], done: number) => ({ kind: 'day', trigger: 'schedule', status: 'running', startedAt: '', finishedAt: null, results: [], errors, optInList: [], optOutList: [], progress: { pages: 0, seen: 0, total: 0, matched: 0, done, failed: 0 } }) as RunData;
    await finishRun({ records, clock: testClock(), metrics }, 1, data([], 3));
    await finishRun({ records, clock: testClock(), metrics }, 2, data([{ message: 'x' }], 2));
    await finishRun({ records, clock: testClock(), metrics }, 3, data([{ message: 'x' }], 0));
    const text = await metrics.scrape();
    expect(saved.map((d) => d.status)).toEqual(['success', 'partial', 'failed']);
    for (const outcome of ['success', 'partial', 'failed']) expect(valueOf(text, 'presswork_sync_runs_total', { kind: 'day', outcome }), outcome).toBe(1);
  });
});

describe('GET /metrics: who may scrape', async () => {
  const TOKEN = 'metrics-token-0123456789abcdef';

  describe('METRICS_TOKEN set: a bearer token', async () => {
    const w = await createWorld({ METRICS_TOKEN: TOKEN });

    it('no token, a wrong one, or a user session → 401 in the envelope with WWW-Authenticate; the token → 200', async () => {
      for (const auth of [undefined, 'Bearer wrong-token-0123456789abcdef', `Bearer ${TOKEN}x`, `Basic ${Buffer.from(`x:${TOKEN}`).toString('base64')}`, `Bearer ${w.tokens.adminA}`]) {
        const req = w.request().get('/metrics');
        const res = await (auth ? req.set('Authorization', auth) : req);
        expect(res.status, auth).toBe(401);
        expect(res.body).toEqual({ success: false, error: 'The metrics need the METRICS_TOKEN as a bearer token (Authorization: Bearer <token>)' });
        expect(res.headers['www-authenticate']).toBe('Bearer realm="metrics"');
      }
      const ok = await w.request().get('/metrics').set('Authorization', `Bearer ${TOKEN}`);
      expect(ok.status).toBe(200);
      expect(ok.text).toContain('# TYPE presswork_http_request_duration_seconds histogram');
    });

    it('the token works from anywhere, also through a proxy', async () => {
      const res = await w.request().get('/metrics').set('Authorization', `Bearer ${TOKEN}`).set('X-Forwarded-For', '203.0.113.7');
      expect(res.status).toBe(200);
    });
  });

  describe('no METRICS_TOKEN: clients on this machine only', async () => {
    const w = await createWorld();

    it('a loopback client → 200; a request a proxy forwarded (even "from" 127.0.0.1) → 403 in the envelope', async () => {
      expect((await w.request().get('/metrics')).status).toBe(200);
      for (const [header, value] of [
        ['X-Forwarded-For', '127.0.0.1'],
        ['Forwarded', 'for=127.0.0.1'],
        ['X-Real-IP', '127.0.0.1'],
        ['Via', '1.1 proxy'],
      ]) {
        const res = await w.request().get('/metrics').set(header, value);
        expect(res.status, header).toBe(403);
        expect(res.body).toEqual({ success: false, error: 'The metrics are served to clients on this machine only; set METRICS_TOKEN to scrape them from elsewhere' });
      }
    });

    it('decides on the TCP peer, not on req.ip (which X-Forwarded-For sets when the peer is a trusted proxy)', () => {
      const req = (remoteAddress: string, headers: Record<string, string> = {}) => ({ socket: { remoteAddress }, headers, ip: '127.0.0.1' }) as unknown as Request;
      expect(isLocalClient(req('127.0.0.1'))).toBe(true);
      expect(isLocalClient(req('127.8.9.10'))).toBe(true);
      expect(isLocalClient(req('::1'))).toBe(true);
      expect(isLocalClient(req('::ffff:127.0.0.1'))).toBe(true);
      expect(isLocalClient(req('203.0.113.5'))).toBe(false);
      expect(isLocalClient(req('::ffff:203.0.113.5'))).toBe(false);
      expect(isLocalClient(req('fd00::2'))).toBe(false);
      expect(isLocalClient(req('203.0.113.5', { 'x-forwarded-for': '127.0.0.1' }))).toBe(false);
      expect(isLocalClient(req('127.0.0.1', { 'x-forwarded-for': '203.0.113.5' }))).toBe(false);
    });

    const outside = Object.values(os.networkInterfaces())
      .flat()
      .find((i) => i && i.family === 'IPv4' && !i.internal);
    // Needs an address of this machine that is not loopback (most machines and CI runners have one).
    it.skipIf(!outside)('a client reaching the app on a non-loopback address → 403, whatever X-Forwarded-For says', async () => {
      const server = http.createServer(w.app);
      await new Promise<void>((r) => server.listen(0, '0.0.0.0', r));
      try {
        const url = `http://${outside!.address}:${(server.address() as AddressInfo).port}/metrics`;
        expect((await fetch(url)).status).toBe(403);
        expect((await fetch(url, { headers: { 'X-Forwarded-For': '127.0.0.1' } })).status).toBe(403);
        expect((await fetch(url.replace(outside!.address, '127.0.0.1'))).status).toBe(200);
      } finally {
        server.closeAllConnections();
        await new Promise((r) => server.close(r));
      }
    });
  });
});
