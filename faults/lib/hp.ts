// The provider side of the fault suite: the HP Site Flow simulator running in the test process (so
// it outlives app kills), a site set up for it through the app's own API (store settings, HP
// settings, a design with a provider SKU and its print PDF), and orders delivered as signed store
// webhooks.
import crypto from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import express from 'express';
import { createHpSimulator, type HpSimulator, type HpSimulatorOptions } from '../../server/simulators/hpSiteflow';
import { cardPrintFilePdf } from '../../server/test/cardPdf';
import { shopifyJson, signShopifyBody } from '../../server/simulators/shopify';
import { createStoreSite, sleep, type StoreSite } from './store';

export const HP_KEY = 'faults-hp-key';
export const HP_SECRET = 'faults-hp-secret';
export const HP_POSTBACK_TOKEN = 'faults-postback-token';
export const FAULTS_SKU = 'FAULTS-HP-CARD';

export interface RunningHpSim {
  sim: HpSimulator;
  /** HP_BASE_URL for the site. */
  baseUrl: string;
  close(): Promise<void>;
}

/** The simulator on 127.0.0.1, mounted under /siteflow (the client appends /api/order…). */
export async function startHpSim(options: Partial<HpSimulatorOptions> = {}): Promise<RunningHpSim> {
  const sim = createHpSimulator({ key: HP_KEY, secret: HP_SECRET, autoProgress: false, timeline: 50, ...options });
  const server = http.createServer(express().use('/siteflow', sim.app));
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const port = (server.address() as AddressInfo).port;
  return {
    sim,
    baseUrl: `http://127.0.0.1:${port}/siteflow`,
    close: async () => {
      sim.stop();
      sim.releaseHeld();
      await sim.idle();
      server.closeAllConnections();
      await new Promise<void>((r) => server.close(() => r()));
    },
  };
}

export async function api<T = unknown>(baseUrl: string, token: string | null, method: string, path: string, body?: unknown): Promise<{ status: number; body: T }> {
  const res = await fetch(`${baseUrl}${path}`, {
    method,
    headers: { ...(body === undefined ? {} : { 'Content-Type': 'application/json' }), ...(token ? { Authorization: `Bearer ${token}` } : {}) },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await res.text();
  let parsed: unknown = text;
  try {
    parsed = text ? JSON.parse(text) : null;
  } catch {
    /* not JSON */
  }
  return { status: res.status, body: parsed as T };
}

export interface HpSite extends StoreSite {
  designId: number;
  pdfUrl: string;
}

/**
 * A site with a store and HP Site Flow pointing at `hpBaseUrl`, postbacks to the app, and one
 * design (SKU FAULTS_SKU, a provider SKU, a 1-page print PDF uploaded through the signed-URL flow).
 */
export async function createHpSite(appUrl: string, token: string, slug: string, hpBaseUrl: string, extraEnv: Record<string, string> = {}): Promise<HpSite> {
  const store = await createStoreSite(appUrl, token, slug);
  const env = {
    SHOPIFY_SHOP_DOMAIN: store.shopDomain,
    SHOPIFY_WEBHOOK_SECRET: store.secret,
    HP_BASE_URL: hpBaseUrl,
    HP_API_KEY: HP_KEY,
    HP_API_SECRET: HP_SECRET,
    HP_DESTINATION: 'presswork-faults',
    HP_CARRIER_ALIAS: 'royalmail',
    HP_POSTBACK_TOKEN,
    ...extraEnv,
  };
  const put = await api(appUrl, token, 'PUT', `/api/admin/sites/${store.siteId}`, {
    name: `Faults ${slug}`,
    slug,
    settings: { env: Object.entries(env).map(([key, value]) => ({ key, value })) },
  });
  if (put.status !== 200) throw new Error(`site settings: ${put.status} ${JSON.stringify(put.body)}`);

  // A card's print file preflight accepts (4 pages with bleed): a held job is never sent.
  const pdf = await cardPrintFilePdf();
  const grant = await api<{ data: string }>(appUrl, token, 'POST', '/api/users/me/get-upload-url', { serverSidePath: `designs/${slug}.pdf`, contentType: 'application/pdf' });
  if (grant.status !== 200) throw new Error(`upload grant: ${grant.status} ${JSON.stringify(grant.body)}`);
  const up = await fetch(grant.body.data, { method: 'PUT', headers: { 'Content-Type': 'application/pdf' }, body: new Uint8Array(pdf) });
  const upBody = (await up.json()) as { data?: { url?: string } };
  if (!up.ok || !upBody.data?.url) throw new Error(`upload: ${up.status} ${JSON.stringify(upBody)}`);
  const pdfUrl = upBody.data.url;

  const design = await api<{ data: { id: number } }>(appUrl, token, 'POST', '/api/designs', {
    name: 'Faults card',
    sku: FAULTS_SKU,
    hpSKU: `HP-${FAULTS_SKU}`,
    productPdf: pdfUrl,
    productType: 'Card',
    siteId: store.siteId,
  });
  if (design.status !== 200) throw new Error(`design: ${design.status} ${JSON.stringify(design.body)}`);
  return { ...store, designId: design.body.data.id, pdfUrl };
}

export interface FaultOrder {
  orderId: string;
  lineId: string;
  payload: Record<string, unknown>;
}

/** N one-line orders (distinct ids per seed) for FAULTS_SKU, with a shipping address. */
export function planOrders(n: number, seed: number): FaultOrder[] {
  return Array.from({ length: n }, (_, i) => {
    const orderId = (8_200_000_000_000_000_000n + BigInt(seed % 1_000_000) * 1_000_000n + BigInt(i)).toString();
    const lineId = (1_400_000_000_000_000_000n + BigInt(seed % 1_000_000) * 1_000_000n + BigInt(i)).toString();
    const at = new Date(Date.parse('2026-11-20T09:00:00Z') + i * 1000).toISOString();
    return {
      orderId,
      lineId,
      payload: {
        id: orderId,
        name: `#${20_000 + i}`,
        order_number: 20_000 + i,
        created_at: at,
        updated_at: at,
        email: `send${i}@faults.example.com`,
        financial_status: 'paid',
        fulfillment_status: null,
        customer: { id: (6_100_000_000_000_000_000n + BigInt(i)).toString(), first_name: 'Send', last_name: `Customer ${i}`, email: `send${i}@faults.example.com` },
        line_items: [{ id: lineId, product_id: '7000000000000000002', variant_id: '4100000000000000002', sku: FAULTS_SKU, name: 'Faults card', title: 'Faults card', quantity: 1, properties: [] }],
        shipping_address: { name: `Send Customer ${i}`, first_name: 'Send', last_name: `Customer ${i}`, address1: `${i} Mill Lane`, address2: null, city: 'York', zip: 'YO1 7HH', province: null, country: 'United Kingdom', country_code: 'GB', phone: null },
        shipping_lines: [{ title: 'Royal Mail 2nd Class', code: 'RM2' }],
      },
    };
  });
}

/** One signed orders/create delivery, retried (like the store) until it is answered 2xx. */
export async function deliverOrder(appUrls: string[], site: StoreSite, order: FaultOrder, deadlineMs = 60_000): Promise<void> {
  const body = shopifyJson(order.payload);
  const eventId = crypto.randomUUID();
  const webhookId = crypto.randomUUID();
  const started = Date.now();
  for (let attempt = 0; ; attempt++) {
    const url = appUrls[attempt % appUrls.length];
    try {
      const res = await fetch(`${url}/api/online-stores/shopify-webhook`, {
        method: 'POST',
        headers: {
          'Content-Type': 'application/json',
          'X-Shopify-Topic': 'orders/create',
          'X-Shopify-Hmac-Sha256': signShopifyBody(site.secret, body),
          'X-Shopify-Shop-Domain': site.shopDomain,
          'X-Shopify-API-Version': '2025-10',
          'X-Shopify-Webhook-Id': webhookId,
          'X-Shopify-Event-Id': eventId,
          'X-Shopify-Triggered-At': new Date().toISOString(),
        },
        body,
      });
      await res.text();
      if (res.ok) return;
    } catch {
      /* refused or reset: retry */
    }
    if (Date.now() - started > deadlineMs) throw new Error(`order ${order.orderId} was never acknowledged`);
    await sleep(200);
  }
}

/** Polls until `check` answers true (or throws with `what` after timeoutMs). */
export async function waitFor(what: string, check: () => Promise<boolean>, timeoutMs = 120_000, everyMs = 500): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    if (await check()) return;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await sleep(everyMs);
  }
}
