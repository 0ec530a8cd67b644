// The world the fuzzing runs in: the test harness's two sites and five users, plus a few records of
// every kind on both sites (so that ids exist, and some of them belong to the other site), a
// connected store (so signed webhooks reach the processing), a provider postback token and an
// uploaded file. No site has the address of an outside service (HP, CRM, Adestra, SMTP): nothing
// the fuzzer sends can reach the internet.
import crypto from 'node:crypto';
import pino from 'pino';
import supertest from 'supertest';
import { expect } from 'vitest';
import { createApp } from '../../server/src/app';
import type { ArtworkFetcherOptions } from '../../server/src/modules/pdf/artwork';
import { createServices, type Services } from '../../server/src/services';
import { signShopifyBody } from '../../server/simulators/shopify';
import { bearer, createWorld, type TestWorld } from '../../server/test/harness';
import { SECRET_A, SHOP_A, connectStores, deliver, order, setSiteEnv } from '../../server/test/ordersKit';

export const POSTBACK_TOKEN = 'fuzz-postback-token-0123456789';

/** A 1×1 opaque PNG. */
export const TINY_PNG = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==', 'base64');

export interface FuzzWorld {
  w: TestWorld;
  /** Requests to an app over the world's services whose error log is kept (`serverErrors`), so a failure can say what broke. */
  request: () => supertest.Agent;
  /** Errors the app logged (unhandled → 500), newest last; a failing case prints the ones it caused. */
  serverErrors: string[];
  /** The services behind `request` (the world's own, or ones built with the artwork hooks). */
  services: Services;
  /** Ids and names that exist, of both sites: the fuzzer mixes them into path parameters. */
  ids: number[];
  names: string[];
  /** A file stored for site A (an artwork URL that works). */
  fileUrl: string;
  /** A valid signed upload URL (path + query) for image/png, made for user A. */
  grant: () => Promise<string>;
  signWebhook: (raw: string) => Record<string, string>;
  /** An order of site A and one of its line items (store ids). */
  orderA: { id: string; lineId: string };
}

async function okData<T>(p: PromiseLike<{ status: number; body: { data?: T } & Record<string, unknown> }>, what: string): Promise<T> {
  const res = await p;
  expect(res.status, `${what}: ${JSON.stringify(res.body)}`).toBeLessThan(300);
  return (res.body.data ?? res.body) as T;
}

/** `artwork`: the artwork fetcher's test hooks (a resolver, a dial override) for the app under test. */
export async function createFuzzWorld(env: Record<string, string> = {}, options: { artwork?: ArtworkFetcherOptions } = {}): Promise<FuzzWorld> {
  const w = await createWorld(env);
  const serverErrors: string[] = [];
  const log = pino({ level: 'error' }, { write: (line: string) => void serverErrors.push(summarize(line)) });
  const deps = { db: w.db, clock: w.clock, config: w.config, log };
  const services = options.artwork ? createServices(deps, w.services.store, { artwork: options.artwork }) : w.services;
  const { app } = createApp(deps, services);
  const request = () => supertest.agent(app);
  const ids = new Set<number>([w.sites.a, w.sites.b, ...Object.values(w.users)]);
  const names = new Set<string>(['site-a', 'site-b']);
  await connectStores(w);
  await setSiteEnv(w, w.sites.a, { HP_POSTBACK_TOKEN: POSTBACK_TOKEN });

  const grant = async (token = w.tokens.userA, serverSidePath = 'fuzz/art.png', contentType = 'image/png') => {
    const url = await okData<string>(w.request().post('/api/users/me/get-upload-url').set(bearer(token)).send({ serverSidePath, contentType }), 'upload grant');
    const u = new URL(url);
    return `${u.pathname}${u.search}`;
  };
  const stored = await okData<{ url: string }>(w.request().put(await grant()).set('Content-Type', 'image/png').send(TINY_PNG), 'upload');
  const fileUrl = stored.url;

  for (const [token, site] of [
    [w.tokens.adminA, 'A'],
    [w.tokens.adminB, 'B'],
  ] as const) {
    const design = await okData<{ id: number; sku: string }>(
      w.request().post('/api/designs').set(bearer(token)).send({ name: `Card ${site}`, sku: `FUZZ-${site}`, productType: 'Card', image: fileUrl, data: { artworkUrls: [fileUrl] } }),
      'design',
    );
    ids.add(design.id);
    names.add(design.sku);
    const job = await okData<{ id: number }>(w.request().post('/api/print-jobs').set(bearer(token)).send({ productName: `Job ${site}`, artworkUrls: [fileUrl, fileUrl, fileUrl, fileUrl] }), 'print job');
    ids.add(job.id);
    const note = await okData<{ id: number }>(w.request().post('/api/general-data/production-note').set(bearer(token)).send({ data: { note: `note ${site}` } }), 'general data');
    ids.add(note.id);
    const product = await okData<{ id: number }>(w.request().post('/api/admin/products').set(bearer(token)).send({ storeSku: `STORE-${site}`, designId: design.id }), 'product');
    ids.add(product.id);
    for (const resource of ['resellers', 'instances']) {
      const res = await w.request().post(`/api/admin/${resource}`).set(bearer(token)).send({ name: `${resource} ${site}` });
      if (res.status < 300 && typeof res.body?.id === 'number') ids.add(res.body.id);
    }
  }
  // An order on each site, through the signed webhook.
  let orderA = { id: '', lineId: '' };
  for (const [secret, shop] of [
    [SECRET_A, SHOP_A],
    [undefined, undefined],
  ] as const) {
    const o = order({ skus: ['FUZZ-A'] });
    const res = await deliver(w, o, secret ? { secret, shop } : { secret: 'whsec-site-b-9876543210', shop: 'site-b-shop.myshopify.com' });
    expect(res.status).toBe(200);
    if (secret) orderA = { id: String(o.id), lineId: String(o.line_items[0].id) };
    names.add(String(o.id));
    names.add(o.name);
  }
  for (const table of ['general_data', 'store_orders', 'provider_events', 'provider_sends']) for (const row of await w.db(table).select('id')) ids.add(Number(row.id));
  for (const row of await w.db('print_jobs').select('id')) ids.add(Number(row.id));

  const signWebhook = (raw: string) => ({
    'Content-Type': 'application/json',
    'X-Shopify-Topic': 'orders/create',
    'X-Shopify-Hmac-Sha256': signShopifyBody(SECRET_A, raw),
    'X-Shopify-Shop-Domain': SHOP_A,
    'X-Shopify-API-Version': '2025-10',
    'X-Shopify-Webhook-Id': crypto.randomUUID(),
    'X-Shopify-Event-Id': crypto.randomUUID(),
    'X-Shopify-Triggered-At': new Date().toISOString(),
  });
  return { w, request, serverErrors, services, orderA, ids: [...ids], names: [...names], fileUrl, grant: () => grant(), signWebhook };
}

/** One logged error as a few lines: message and the first stack frames (for the test output only). */
function summarize(line: string): string {
  try {
    const o = JSON.parse(line) as { msg?: string; err?: { type?: string; message?: string; stack?: string }; method?: string; path?: string };
    const stack = (o.err?.stack ?? '').split('\n').slice(0, 6).join('\n    ');
    return `${o.method ?? ''} ${o.path ?? ''}: ${o.msg ?? ''}\n    ${stack || o.err?.message || ''}`;
  } catch {
    return line.slice(0, 1000);
  }
}
