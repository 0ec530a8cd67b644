// The HP Site Flow client: the signature, the retry schedule, typed errors — against a scripted
// fetch and against the simulator.
import crypto from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import express from 'express';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { backoffDelay, createHpClient, hpDate, HpDuplicateOrder, HpError, parseRetryAfter } from '../src/integrations/hpSiteflow';
import { createHpSimulator, validateOrderBody } from '../simulators/hpSiteflow';

const FIXED = new Date('2026-11-21T10:00:00.123Z');
const fixedClock = { now: () => FIXED };

interface Seen {
  url: string;
  method: string;
  headers: Record<string, string>;
  body?: string;
}

/** A fetch that answers from a script and records every call. */
function scriptedFetch(answers: Array<{ status: number; body?: unknown; headers?: Record<string, string> } | 'network-error'>) {
  const seen: Seen[] = [];
  const impl = (async (url: string | URL | Request, init?: RequestInit) => {
    seen.push({ url: String(url), method: String(init?.method), headers: { ...(init?.headers as Record<string, string>) }, body: init?.body as string | undefined });
    const a = answers.shift() ?? { status: 200, body: { success: true } };
    if (a === 'network-error') throw new TypeError('fetch failed');
    return new Response(a.body === undefined ? '' : JSON.stringify(a.body), { status: a.status, headers: { 'content-type': 'application/json', ...a.headers } });
  }) as typeof fetch;
  return { impl, seen };
}

const order = {
  destination: { name: 'presswork' },
  orderData: {
    sourceOrderId: '1001',
    customerName: 'Ada Lovelace',
    items: [{ sourceItemId: 'l1', sku: 'CARD-A5', quantity: 1, shipmentIndex: 0, components: [{ code: 'Content', path: 'https://example.com/a.pdf', fetch: true }] }],
    shipments: [{ shipTo: { name: 'Ada', address1: '1 Street', address2: '', town: 'London', postcode: 'N1 1AA', isoCountry: 'GB' }, carrier: { alias: 'royalmail' } }],
  },
};

describe('HP client: signing', () => {
  it('signs "<METHOD> <path><timestamp>" with HMAC-SHA256, the path holding the base URL prefix', async () => {
    const { impl, seen } = scriptedFetch([{ status: 200, body: { success: true, order: { _id: 'x1' } } }]);
    const client = createHpClient({ baseUrl: 'https://gateway.example.com/siteflow/', key: 'my-key', secret: 'test-secret', fetchImpl: impl, clock: fixedClock });
    await client.submitOrder(order);
    expect(seen).toHaveLength(1);
    expect(seen[0].url).toBe('https://gateway.example.com/siteflow/api/order');
    expect(seen[0].method).toBe('POST');
    // Independently: openssl dgst -sha256 -hmac test-secret over "POST /siteflow/api/order2026-11-21T10:00:00Z".
    expect(seen[0].headers['x-hp-hmac-date']).toBe('2026-11-21T10:00:00Z');
    expect(seen[0].headers['x-hp-hmac-authentication']).toBe('my-key:760705d56dd7d1c61a9e35682e8cd1efdfbc8df7b261e064cb1deb33898db2e7');
    const byHand = crypto.createHmac('sha256', 'test-secret').update('POST /siteflow/api/order' + '2026-11-21T10:00:00Z').digest('hex');
    expect(seen[0].headers['x-hp-hmac-authentication']).toBe(`my-key:${byHand}`);
    expect(JSON.parse(seen[0].body!)).toEqual(order);
  });

  it('signs GET without a query string and without a base prefix', async () => {
    const { impl, seen } = scriptedFetch([{ status: 200, body: { success: true, order: { _id: 'abc' } } }]);
    const client = createHpClient({ baseUrl: 'http://127.0.0.1:9', key: 'k', secret: 'test-secret', fetchImpl: impl, clock: fixedClock });
    await client.getOrder('abc');
    expect(seen[0].headers['x-hp-hmac-authentication']).toBe('k:ace2038d7552f6f4059084cf18f82aaca35fee1af3516f3deeb34264fb2c8f5c');
    expect(seen[0].body).toBeUndefined();
  });

  it('writes the date as ISO-8601 UTC without milliseconds', () => {
    expect(hpDate(new Date('2026-01-02T03:04:05.999Z'))).toBe('2026-01-02T03:04:05Z');
  });
});

describe('HP client: retries', () => {
  const make = (answers: Parameters<typeof scriptedFetch>[0]) => {
    const { impl, seen } = scriptedFetch(answers);
    const sleeps: number[] = [];
    const client = createHpClient({
      baseUrl: 'https://hp.example.com',
      key: 'k',
      secret: 's',
      fetchImpl: impl,
      clock: fixedClock,
      retry: { retries: 3, baseMs: 100, maxMs: 1_000 },
      sleep: async (ms) => void sleeps.push(ms),
      random: () => 0.5,
    });
    return { client, seen, sleeps };
  };

  it('retries a 503 three times with exponential backoff and full jitter, then gives up', async () => {
    const { client, seen, sleeps } = make([{ status: 503 }, { status: 503 }, { status: 503 }, { status: 503 }]);
    const err = await client.submitOrder(order).catch((e) => e);
    expect(err).toBeInstanceOf(HpError);
    expect(err.status).toBe(503);
    expect(seen).toHaveLength(4);
    // random 0.5 × min(1000, 100 · 2^(n-1)) for retries 1..3
    expect(sleeps).toEqual([50, 100, 200]);
  });

  it('succeeds after transient failures (network error, 500, 429)', async () => {
    const { client, seen } = make(['network-error', { status: 500 }, { status: 429 }, { status: 200, body: { success: true, order: { _id: 'ok' } } }]);
    const answer = await client.submitOrder(order);
    expect(answer.order?._id).toBe('ok');
    expect(seen).toHaveLength(4);
  });

  it('honours Retry-After on 429', async () => {
    const { client, sleeps } = make([{ status: 429, headers: { 'retry-after': '2' } }, { status: 200, body: { success: true, order: { _id: 'a' } } }]);
    await client.submitOrder(order);
    expect(sleeps).toEqual([2000]);
  });

  it('never retries a 400 (or a 401/404)', async () => {
    for (const status of [400, 401, 404]) {
      const { client, seen, sleeps } = make([{ status, body: { success: false, error: { message: 'nope', code: 'X', validations: [{ path: 'orderData.items', message: 'bad' }] } } }]);
      const err = await client.submitOrder(order).catch((e) => e);
      expect(err).toBeInstanceOf(HpError);
      expect(err.status).toBe(status);
      expect(err.validations).toEqual([{ path: 'orderData.items', message: 'bad' }]);
      expect(seen).toHaveLength(1);
      expect(sleeps).toEqual([]);
    }
  });

  it('types a repeated sourceOrderId as HpDuplicateOrder', async () => {
    const { client } = make([{ status: 400, body: { success: false, error: { message: 'Source Order ID already exists', name: 'ValidationError' } } }]);
    const err = await client.submitOrder(order).catch((e) => e);
    expect(err).toBeInstanceOf(HpDuplicateOrder);
    expect(err.retryable).toBe(false);
  });

  it('times out a call that does not answer, and retries it', async () => {
    let calls = 0;
    const hanging = ((_url: string, init?: RequestInit) => {
      calls++;
      return new Promise((_, reject) => init?.signal?.addEventListener('abort', () => reject(new DOMException('aborted', 'AbortError'))));
    }) as unknown as typeof fetch;
    const client = createHpClient({ baseUrl: 'https://hp.example.com', key: 'k', secret: 's', fetchImpl: hanging, timeoutMs: 20, retry: { retries: 2, baseMs: 1, maxMs: 1 } });
    const err = await client.submitOrder(order).catch((e) => e);
    expect(err).toBeInstanceOf(HpError);
    expect(err.code).toBe('TIMEOUT');
    expect(calls).toBe(3);
  });

  it('reads Retry-After as seconds or an HTTP date; backoff is capped', () => {
    expect(parseRetryAfter('3', FIXED)).toBe(3000);
    expect(parseRetryAfter(new Date(FIXED.getTime() + 5000).toUTCString(), FIXED)).toBeGreaterThanOrEqual(4000);
    expect(parseRetryAfter('soon', FIXED)).toBeUndefined();
    expect(backoffDelay(10, { baseMs: 100, maxMs: 1000 }, () => 0.999)).toBeLessThan(1000);
  });
});

describe('HP client against the simulator', () => {
  const sim = createHpSimulator({ key: 'sim-key', secret: 'sim-secret', autoProgress: false });
  let server: http.Server;
  let base = '';
  beforeAll(async () => {
    // Mounted under a prefix: the signature covers it.
    server = http.createServer(express().use('/siteflow', sim.app));
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}/siteflow`;
  });
  afterAll(async () => {
    sim.stop();
    await new Promise((r) => server.close(r));
  });
  const client = (over: Partial<Parameters<typeof createHpClient>[0]> = {}) =>
    createHpClient({ baseUrl: base, key: 'sim-key', secret: 'sim-secret', retry: { retries: 3, baseMs: 1, maxMs: 2 }, ...over });

  it('accepts a correctly signed order, answers dataready, and keeps it', async () => {
    const answer = await client().submitOrder({ ...order, orderData: { ...order.orderData, sourceOrderId: 'sim-1' } });
    expect(answer.success).toBe(true);
    expect(answer.order?.orderData?.status).toBe('dataready');
    const got = await client().getOrder(answer.order!._id);
    expect(got.order?.orderData?.sourceOrderId).toBe('sim-1');
    expect(sim.stats.created).toBe(1);
  });

  it('refuses a wrong secret or key (401), and SHA1 (400)', async () => {
    expect((await client({ secret: 'wrong' }).submitOrder(order).catch((e) => e)).status).toBe(401);
    expect((await client({ key: 'other' }).submitOrder(order).catch((e) => e)).status).toBe(401);
    const date = hpDate(new Date());
    const sha1 = crypto.createHmac('sha1', 'sim-secret').update(`POST /siteflow/api/order${date}`).digest('hex');
    const res = await fetch(`${base}/api/order`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-hp-hmac-authentication': `sim-key:${sha1}`, 'x-hp-hmac-date': date },
      body: JSON.stringify(order),
    });
    expect(res.status).toBe(400);
    // Signed without the mount prefix: refused.
    const noPrefix = crypto.createHmac('sha256', 'sim-secret').update(`POST /api/order${date}`).digest('hex');
    const res2 = await fetch(`${base}/api/order`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-hp-hmac-authentication': `sim-key:${noPrefix}`, 'x-hp-hmac-date': date },
      body: JSON.stringify(order),
    });
    expect(res2.status).toBe(401);
    // No headers; a date far from now (a replayed request).
    expect((await fetch(`${base}/api/order`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{}' })).status).toBe(401);
    const old = createHpClient({ baseUrl: base, key: 'sim-key', secret: 'sim-secret', clock: { now: () => new Date(Date.now() - 3_600_000) }, retry: { retries: 0 } });
    expect((await old.submitOrder(order).catch((e) => e)).status).toBe(401);
    expect(sim.stats.submitCalls).toBe(1);
  });

  it('validates the body: at least one item and one shipment, the required fields', async () => {
    const err = await client()
      .submitOrder({ destination: { name: 'd' }, orderData: { sourceOrderId: 'v-1', items: [], shipments: [] } })
      .catch((e) => e);
    expect(err.status).toBe(400);
    expect(err.validations.map((v: { path: string }) => v.path)).toEqual(expect.arrayContaining(['orderData.items', 'orderData.shipments']));
    expect(validateOrderBody(order)).toEqual([]);
    const ok = await client().validateOrder(order);
    expect(ok.success).toBe(true);
  });

  it('answers a repeated sourceOrderId with 400 "Source Order ID already exists"', async () => {
    const body = { ...order, orderData: { ...order.orderData, sourceOrderId: 'dup-1' } };
    await client().submitOrder(body);
    const err = await client().submitOrder(body).catch((e) => e);
    expect(err).toBeInstanceOf(HpDuplicateOrder);
    expect(err.status).toBe(400);
  });

  it('injected 503s and dropped connections are retried through', async () => {
    sim.failNext(2, 503);
    const a = await client().submitOrder({ ...order, orderData: { ...order.orderData, sourceOrderId: 'f-1' } });
    expect(a.success).toBe(true);
    sim.faults.dropConnections = 1;
    const b = await client().submitOrder({ ...order, orderData: { ...order.orderData, sourceOrderId: 'f-2' } });
    expect(b.success).toBe(true);
    sim.failNext(4, 500);
    const err = await client().submitOrder({ ...order, orderData: { ...order.orderData, sourceOrderId: 'f-3' } }).catch((e) => e);
    expect(err.status).toBe(500);
    expect(sim.orderBySource('f-3')).toBeUndefined();
  });

  it('cancels by sourceAccount and sourceOrderId', async () => {
    await client().submitOrder({ ...order, orderData: { ...order.orderData, sourceOrderId: 'c-1' } });
    const answer = await client().cancelOrder(sim.sourceAccount, 'c-1');
    expect(answer.order?.orderData?.status).toBe('cancelled');
    expect((await client().cancelOrder(sim.sourceAccount, 'nope').catch((e) => e)).status).toBe(404);
  });
});
