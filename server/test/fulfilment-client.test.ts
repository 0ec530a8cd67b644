// The HP Site Flow client: the signature, the retry schedule, typed errors — against a scripted
// fetch and against the simulator.
import crypto from 'node:crypto';
import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import express from 'express';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { backoffDelay, createHpClient, hpDate, HpDuplicateOrder, HpError, isAcknowledgement, parseRetryAfter, providerOrderIdOf } from '../src/integrations/hpSiteflow';
import { createHpSimulator, validateOrderBody } from '../simulators/hpSiteflow';

// HP's published samples, byte for byte.
const repoRoot = fileURLToPath(new URL('../../', import.meta.url));
const FIXTURES = path.resolve(repoRoot, 'server/test/fixtures/vendor');
const sample = (name: string) => fs.readFileSync(path.join(FIXTURES, name), 'utf8');

const FIXED = new Date('2026-11-21T10:00:00.123Z');
const fixedClock = { now: () => FIXED };

interface Seen {
  url: string;
  method: string;
  headers: Record<string, string>;
  body?: string;
}

/** A fetch that answers from a script and records every call. */
function scriptedFetch(answers: Array<{ status: number; body?: unknown; raw?: string; headers?: Record<string, string> } | 'network-error'>) {
  const seen: Seen[] = [];
  const impl = (async (url: string | URL | Request, init?: RequestInit) => {
    seen.push({ url: String(url), method: String(init?.method), headers: { ...(init?.headers as Record<string, string>) }, body: init?.body as string | undefined });
    const a = answers.shift() ?? { status: 200, body: { success: true } };
    if (a === 'network-error') throw new TypeError('fetch failed');
    return new Response(a.raw ?? (a.body === undefined ? '' : JSON.stringify(a.body)), { status: a.status, headers: { 'content-type': 'application/json', ...a.headers } });
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
  it('printos: signs "<METHOD> <path><timestamp>", the path without the base URL\'s own path, and names SHA256', async () => {
    const { impl, seen } = scriptedFetch([{ status: 200, body: { success: true, order: { _id: 'x1' } } }]);
    const client = createHpClient({ baseUrl: 'https://gateway.example.com/siteflow/', key: 'my-key', secret: 'test-secret', fetchImpl: impl, clock: fixedClock });
    await client.submitOrder(order);
    expect(seen).toHaveLength(1);
    expect(seen[0].url).toBe('https://gateway.example.com/siteflow/api/order');
    expect(seen[0].method).toBe('POST');
    // Independently: printf 'POST /api/order2026-11-21T10:00:00Z' | openssl dgst -sha256 -hmac test-secret
    expect(seen[0].headers['x-hp-hmac-date']).toBe('2026-11-21T10:00:00Z');
    expect(seen[0].headers['x-hp-hmac-authentication']).toBe('my-key:d025c88cb0c6f4aaafbe241b64922b12991dc19c6835961e04f611a2b946027c');
    // Without it HP assumes SHA1, which it refuses.
    expect(seen[0].headers['x-hp-hmac-algorithm']).toBe('SHA256');
    expect(seen[0].headers['x-oneflow-authorization']).toBeUndefined();
    expect(JSON.parse(seen[0].body!)).toEqual(order);
  });

  it('signs GET without a query string and without a base prefix', async () => {
    const { impl, seen } = scriptedFetch([{ status: 200, body: { success: true, order: { _id: 'abc' } } }]);
    const client = createHpClient({ baseUrl: 'http://127.0.0.1:9', key: 'k', secret: 'test-secret', fetchImpl: impl, clock: fixedClock });
    await client.getOrder('abc');
    expect(seen[0].headers['x-hp-hmac-authentication']).toBe('k:ace2038d7552f6f4059084cf18f82aaca35fee1af3516f3deeb34264fb2c8f5c');
    expect(seen[0].body).toBeUndefined();
  });

  it('oneflow: signs "<METHOD> <pathname> <timestamp>" over the URL\'s whole pathname, in x-oneflow-* headers', async () => {
    const { impl, seen } = scriptedFetch([{ status: 200, body: { success: true, order: { _id: 'x1' } } }]);
    const client = createHpClient({ scheme: 'oneflow', baseUrl: 'https://gateway.example.com/siteflow', key: 'token-1', secret: 'test-secret', fetchImpl: impl, clock: fixedClock });
    await client.submitOrder(order);
    // printf 'POST /siteflow/api/order 2026-11-21T10:00:00Z' | openssl dgst -sha256 -hmac test-secret
    expect(seen[0].headers['x-oneflow-authorization']).toBe('token-1:1e044e6de9a821da2b1c4979d949fb09555e6ca2cdebd63ee3519625b39dcb85');
    expect(seen[0].headers['x-oneflow-date']).toBe('2026-11-21T10:00:00Z');
    expect(seen[0].headers['x-oneflow-algorithm']).toBe('SHA256');
    expect(seen[0].headers['x-hp-hmac-authentication']).toBeUndefined();
  });

  it('submits orders to HP_SUBMIT_URL (an endpoint or a base), everything else to the API base', async () => {
    const { impl, seen } = scriptedFetch([]);
    const client = createHpClient({ scheme: 'oneflow', baseUrl: 'https://api.example.com', submitUrl: 'https://orders.example.com/api/order', key: 'k', secret: 'test-secret', fetchImpl: impl, clock: fixedClock });
    await client.submitOrder(order);
    await client.getOrder('abc');
    await client.validateOrder(order);
    expect(seen.map((c) => c.url)).toEqual(['https://orders.example.com/api/order', 'https://api.example.com/api/order/abc', 'https://api.example.com/api/order/validate']);
    // printf 'POST /api/order 2026-11-21T10:00:00Z' | openssl dgst -sha256 -hmac test-secret
    expect(seen[0].headers['x-oneflow-authorization']).toBe('k:9b946b216af48d23d0bf53afdeee5b13fef63bbb8f2843e2121e34282fbb08f6');
    const asBase = createHpClient({ baseUrl: 'https://api.example.com', submitUrl: 'https://orders.example.com/', key: 'k', secret: 's', fetchImpl: impl });
    await asBase.submitOrder(order);
    expect(seen[3].url).toBe('https://orders.example.com/api/order');
    expect(() => createHpClient({ baseUrl: 'https://api.example.com', submitUrl: 'not a url', key: 'k', secret: 's' })).toThrow(/HP_SUBMIT_URL is not a valid URL/);
  });

  it('writes the date as ISO-8601 UTC without milliseconds', () => {
    expect(hpDate(new Date('2026-01-02T03:04:05.999Z'))).toBe('2026-01-02T03:04:05Z');
  });
});

describe('HP client: the vendor\'s published submit answers', () => {
  const submitWith = async (raw: string) => {
    const { impl } = scriptedFetch([{ status: 200, raw }]);
    return createHpClient({ baseUrl: 'https://hp.example.com', key: 'k', secret: 's', fetchImpl: impl }).submitOrder(order);
  };

  it('PrintOS: the created order, its id and status', async () => {
    const answer = await submitWith(sample('hp-submit-response-printos.json'));
    expect(providerOrderIdOf(answer)).toBe('57d07ba6872ba4110086ca0d');
    expect(isAcknowledgement(answer)).toBe(false);
    expect(answer.order?.orderData?.status).toBe('dataready');
  });

  it('Site Flow submit host: an acknowledgement, its id read without the published sample\'s stray space', async () => {
    const answer = await submitWith(sample('hp-submit-ack-oneflow.json'));
    expect(isAcknowledgement(answer)).toBe(true);
    // The same id as in the acknowledgement's own url.
    expect(providerOrderIdOf(answer)).toBe('5910757faab8ec6f60127999');
    expect(answer.url).toBe('https://s3.amazonaws.com/order/5910757faab8ec6f60127999');
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

  it('refuses a wrong secret or key (401), SHA1 or no algorithm header (400), a path signed with the gateway prefix (401)', async () => {
    expect((await client({ secret: 'wrong' }).submitOrder(order).catch((e) => e)).status).toBe(401);
    expect((await client({ key: 'other' }).submitOrder(order).catch((e) => e)).status).toBe(401);
    expect((await client({ scheme: 'oneflow' }).submitOrder(order).catch((e) => e)).status).toBe(401);
    const date = hpDate(new Date());
    const post = (headers: Record<string, string>) =>
      fetch(`${base}/api/order`, { method: 'POST', headers: { 'content-type': 'application/json', 'x-hp-hmac-date': date, ...headers }, body: JSON.stringify(order) });
    const sha1 = crypto.createHmac('sha1', 'sim-secret').update(`POST /api/order${date}`).digest('hex');
    expect((await post({ 'x-hp-hmac-authentication': `sim-key:${sha1}`, 'x-hp-hmac-algorithm': 'SHA1' })).status).toBe(400);
    // A right SHA256 signature without the algorithm header: HP assumes SHA1 and refuses it.
    const right = crypto.createHmac('sha256', 'sim-secret').update(`POST /api/order${date}`).digest('hex');
    const noAlgorithm = await post({ 'x-hp-hmac-authentication': `sim-key:${right}` });
    expect(noAlgorithm.status).toBe(400);
    expect(((await noAlgorithm.json()) as { error: { message: string } }).error.message).toMatch(/SHA1/);
    // Signed with the gateway's own prefix: refused.
    const withPrefix = crypto.createHmac('sha256', 'sim-secret').update(`POST /siteflow/api/order${date}`).digest('hex');
    expect((await post({ 'x-hp-hmac-authentication': `sim-key:${withPrefix}`, 'x-hp-hmac-algorithm': 'SHA256' })).status).toBe(401);
    // No headers; a date far from now (a replayed request).
    expect((await fetch(`${base}/api/order`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{}' })).status).toBe(401);
    const old = createHpClient({ baseUrl: base, key: 'sim-key', secret: 'sim-secret', clock: { now: () => new Date(Date.now() - 3_600_000) }, retry: { retries: 0 } });
    expect((await old.submitOrder(order).catch((e) => e)).status).toBe(401);
    expect(sim.stats.submitCalls).toBe(1);
  });

  it('takes HP\'s own sample order (carrier by code and service, lower-case shipmentindex)', async () => {
    const hpSample = JSON.parse(sample('hp-order-sample.json'));
    expect(validateOrderBody(hpSample)).toEqual([]);
    const answer = await client().submitOrder(hpSample);
    expect(providerOrderIdOf(answer)).toBe(answer.order?._id);
    expect(sim.orderBySource('42')?.body.orderData.shipments).toEqual(hpSample.orderData.shipments);
  });

  it('validate refuses a sourceOrderId it already holds, as the submit does', async () => {
    const body = { ...order, orderData: { ...order.orderData, sourceOrderId: 'val-dup' } };
    expect((await client().validateOrder(body)).success).toBe(true);
    await client().submitOrder(body);
    const err = await client().validateOrder(body).catch((e) => e);
    expect(err).toBeInstanceOf(HpDuplicateOrder);
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
