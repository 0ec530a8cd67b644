// A Presswork world wired to a loopback HP simulator: the app listens on 127.0.0.1:0 (the provider
// fetches print files from it and posts back to it), the simulator too (under a path prefix).
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { Readable } from 'node:stream';
import express from 'express';
import { afterAll } from 'vitest';
import { createHpSimulator, type HpSimulatorOptions } from '../simulators/hpSiteflow';
import { generalDataRepo } from '../src/modules/general-data/repo';
import { designsRepo } from '../src/modules/designs/repo';
import { orderTablesRepo } from '../src/modules/orders/tablesRepo';
import { cardPrintFilePdf } from './cardPdf';
import { createWorld, type TestWorld } from './harness';

export async function listen(handler: http.RequestListener): Promise<{ url: string; server: http.Server; close: () => Promise<void> }> {
  const server = http.createServer(handler);
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    url,
    server,
    close: () =>
      new Promise<void>((r) => {
        server.closeAllConnections?.();
        server.close(() => r());
      }),
  };
}

export const HP = { key: 'hp-test-key', secret: 'hp-test-secret', token: 'postback-token-a', prefix: '/siteflow' };

/** The order record's data as the tests read it. */
export interface OrderData {
  status: string;
  hpOrderId: string | null;
  tracking: { number: string | null; method: string | null; url: string | null };
  preGeneratedHPItems: Array<{ lineId: string; path: string; hpOrderId: string | null }>;
  shipping_address: Record<string, unknown>;
  [k: string]: unknown;
}

export interface HpWorld extends TestWorld {
  sim: ReturnType<typeof createHpSimulator>;
  appUrl: string;
  simUrl: string;
  insertOrder(siteId: number, order: Record<string, unknown>, status?: string): Promise<number>;
  insertDesign(siteId: number, d: { sku: string; hpSKU?: string | null; name?: string; artworkUrls?: string[]; productPdf?: string | null; hpAdditionData?: unknown }): Promise<number>;
  orderRecord(siteId: number, orderId: string): Promise<{ id: number; status: string | null; data: OrderData }>;
  setHpEnv(siteId: number, env: Record<string, string>): Promise<void>;
}

/** A card's print file as preflight accepts it: 4 pages of A5 + 3 mm bleed, the TrimBox the A5. */
export const samplePdf = cardPrintFilePdf;

export function storeOrder(id: string, lines: Array<{ id: string; sku: string; quantity?: number }>, over: Record<string, unknown> = {}) {
  return {
    id,
    name: `#${id.slice(-4)}`,
    order_number: Number(id.slice(-4)),
    created_at: '2026-11-20T09:00:00Z',
    status: 'received',
    email: 'ada@example.com',
    customer: { first_name: 'Ada', last_name: 'Lovelace' },
    line_items: lines.map((l) => ({ id: l.id, name: `Card ${l.sku}`, product_id: `p-${l.sku}`, sku: l.sku, quantity: l.quantity ?? 1, properties: [] })),
    shipping_address: { name: 'Ada Lovelace', address1: '12 Analytical Row', address2: '', city: 'London', zip: 'N1 1AA', country: 'United Kingdom', country_code: 'GB', phone: '' },
    shipping_lines: [{ title: 'Standard', code: 'std' }],
    preGeneratedHPItems: [],
    ...over,
  };
}

/** `env`: settings of the world (e.g. STORAGE=s3 and its bucket). */
export async function createHpWorld(simOptions: Partial<HpSimulatorOptions> = {}, env: Record<string, string> = {}): Promise<HpWorld> {
  const world = await createWorld(env);
  const appServer = await listen(world.app);
  world.config.publicUrl = appServer.url;
  // The provider's clock is the world's: moving test time does not look like clock skew.
  const sim = createHpSimulator({ key: HP.key, secret: HP.secret, autoProgress: false, timeline: 10, now: () => world.clock.now(), ...simOptions });
  const simServer = await listen(express().use(HP.prefix, sim.app));
  sim.setPostback({ url: `${appServer.url}/api/online-stores/hp-webhook?site=site-a`, token: HP.token });
  world.services.fulfilment.configure({ retry: { retries: 3, baseMs: 1, maxMs: 4 }, backoff: { baseMs: 60_000, maxMs: 60_000 }, leaseMs: 120_000, maxAttempts: 3, waitForOtherMs: 10_000 });

  const setHpEnv = async (siteId: number, env: Record<string, string>) => {
    await world.db('sites')
      .where({ id: siteId })
      .update({ settings: JSON.stringify({ env: Object.entries(env).map(([key, value]) => ({ key, value })) }) });
  };
  await setHpEnv(world.sites.a, {
    HP_BASE_URL: `${simServer.url}${HP.prefix}`,
    HP_API_KEY: HP.key,
    HP_API_SECRET: HP.secret,
    HP_DESTINATION: 'presswork-test',
    HP_CARRIER_ALIAS: 'royalmail',
    HP_POSTBACK_TOKEN: HP.token,
    HP_AUTO_SEND: '0',
  });

  const pdf = await samplePdf();
  await world.services.store.put('test/design.pdf', Readable.from(pdf));

  const records = generalDataRepo(world.db);
  const now = () => world.clock.now().toISOString();
  const hpWorld: HpWorld = {
    ...world,
    sim,
    appUrl: appServer.url,
    simUrl: `${simServer.url}${HP.prefix}`,
    setHpEnv,
    async insertOrder(siteId, order, status = 'received') {
      return records.insert({
        type: 'shopify-order-log',
        field1: String(order.id),
        field2: String(order.name ?? ''),
        name: 'order-log',
        status,
        data: order,
        siteId,
        userId: null,
        publicPermission: { create: false, read: true, update: false, delete: false },
        createdAt: now(),
        updatedAt: now(),
      });
    },
    async insertDesign(siteId, d) {
      return designsRepo(world.db).insert({
        name: d.name ?? `Design ${d.sku}`,
        image: null,
        sku: d.sku,
        isCustomizable: true,
        productPdf: d.productPdf === undefined ? (d.artworkUrls ? null : '/files/test/design.pdf') : d.productPdf,
        createdByUserId: null,
        productId: null,
        productType: 'Card',
        hpSKU: d.hpSKU === undefined ? `HP-${d.sku}` : d.hpSKU,
        hpAdditionData: (d.hpAdditionData as never) ?? { attributes: [], stockItems: [] },
        data: d.artworkUrls ? { artworkUrls: d.artworkUrls } : {},
        siteId,
        createdAt: now(),
        updatedAt: now(),
      });
    },
    async orderRecord(siteId, orderId) {
      const r = (await orderTablesRepo(world.db).orderOf(siteId, orderId))!;
      return { id: r.id, status: r.status, data: r.data as unknown as OrderData };
    },
  };
  afterAll(async () => {
    sim.stop();
    await sim.idle();
    await simServer.close();
    await appServer.close();
  });
  return hpWorld;
}
