// Helpers of the orders tests: connect a site's store, post signed webhooks, make designs.
import crypto from 'node:crypto';
import { expect } from 'vitest';
import { fromJson } from '../src/db';
import { recordFromRow, type RecordRow } from '../src/modules/records';
import { orderTablesRepo } from '../src/modules/orders/tablesRepo';
import type { EnvVar } from '../src/lib/secrets';
import { shopifyJson, signShopifyBody } from '../simulators/shopify';
import { bearer, type TestWorld } from './harness';

export const SHOP_A = 'site-a-shop.myshopify.com';
export const SHOP_B = 'site-b-shop.myshopify.com';
export const SECRET_A = 'whsec-site-a-0123456789';
export const SECRET_B = 'whsec-site-b-9876543210';

/** Sets settings.env keys of a site directly (an empty value removes the key). */
export async function setSiteEnv(w: TestWorld, siteId: number, values: Record<string, string>): Promise<void> {
  const row = await w.db('sites').where({ id: siteId }).first('settings');
  const settings = fromJson<{ env: EnvVar[] }>(row.settings, { env: [] });
  let env = settings.env ?? [];
  for (const [key, value] of Object.entries(values)) {
    env = env.filter((v) => v.key !== key);
    if (value !== '') env.push({ key, value });
  }
  await w.db('sites').where({ id: siteId }).update({ settings: JSON.stringify({ ...settings, env }) });
  w.services.orders.invalidateSites();
}

export async function connectStores(w: TestWorld): Promise<void> {
  await setSiteEnv(w, w.sites.a, { SHOPIFY_SHOP_DOMAIN: SHOP_A, SHOPIFY_WEBHOOK_SECRET: SECRET_A });
  await setSiteEnv(w, w.sites.b, { SHOPIFY_SHOP_DOMAIN: SHOP_B, SHOPIFY_WEBHOOK_SECRET: SECRET_B });
}

let counter = 0;
/** A unique int64 order id beyond 2^53, as a string. */
export const bigOrderId = () => (9_007_199_254_740_993n + BigInt(Date.now() % 1_000_000) * 1000n + BigInt(++counter)).toString();
export const lineId = () => (1_300_000_000_000_000_000n + BigInt(++counter)).toString();

export interface OrderOpts {
  id?: string;
  name?: string;
  updatedAt?: string;
  createdAt?: string;
  skus?: Array<string | null>;
  first?: string;
  last?: string;
  email?: string;
}

/** An order payload (ids as strings here; shopifyJson writes them as bare numbers). */
export function order(o: OrderOpts = {}) {
  const id = o.id ?? bigOrderId();
  const created = o.createdAt ?? '2026-11-20T10:00:00Z';
  return {
    id,
    name: o.name ?? `#${1000 + (counter % 9000)}`,
    order_number: Number((o.name ?? '#1000').replace(/\D/g, '')) || 1000,
    created_at: created,
    updated_at: o.updatedAt ?? created,
    email: o.email ?? 'ada@example.com',
    financial_status: 'paid',
    fulfillment_status: null,
    customer: { id: '6000000000000000001', first_name: o.first ?? 'Ada', last_name: o.last ?? 'Lovelace', email: o.email ?? 'ada@example.com' },
    line_items: (o.skus ?? ['SKU-CARD']).map((sku, i) => ({
      id: lineId(),
      product_id: '7000000000000000001',
      variant_id: '4100000000000000001',
      sku,
      name: `Item ${i + 1}`,
      title: `Item ${i + 1}`,
      quantity: 1,
      properties: i === 0 ? [{ name: 'Message', value: 'Happy birthday' }] : [],
    })),
    shipping_address: { name: 'Ada Lovelace', first_name: 'Ada', last_name: 'Lovelace', address1: '12 High Street', address2: null, city: 'London', zip: 'SW1A 1AA', province: null, country: 'United Kingdom', country_code: 'GB', phone: null },
    shipping_lines: [{ title: 'Royal Mail 2nd Class', code: 'RM2' }],
  };
}

export interface PostOpts {
  topic?: string;
  shop?: string | null;
  secret?: string;
  eventId?: string;
  webhookId?: string;
  query?: string;
  omit?: string[];
  signature?: string;
}

/** POSTs a raw body to the webhook, signed like Shopify (override anything). */
export function postWebhook(w: TestWorld, body: string | object, o: PostOpts = {}) {
  const raw = typeof body === 'string' ? body : shopifyJson(body);
  const headers: Record<string, string> = {
    'Content-Type': 'application/json',
    'X-Shopify-Topic': o.topic ?? 'orders/create',
    'X-Shopify-Hmac-Sha256': o.signature ?? signShopifyBody(o.secret ?? SECRET_A, raw),
    'X-Shopify-Shop-Domain': o.shop === undefined ? SHOP_A : (o.shop ?? ''),
    'X-Shopify-API-Version': '2025-10',
    'X-Shopify-Webhook-Id': o.webhookId ?? crypto.randomUUID(),
    'X-Shopify-Event-Id': o.eventId ?? crypto.randomUUID(),
    'X-Shopify-Triggered-At': new Date().toISOString(),
  };
  if (o.shop === null) delete headers['X-Shopify-Shop-Domain'];
  for (const name of o.omit ?? []) delete headers[name];
  const req = w.request().post(`/api/online-stores/shopify-webhook${o.query ?? ''}`);
  for (const [k, v] of Object.entries(headers)) req.set(k, v);
  return req.send(raw);
}

/** Posts and waits for the processing that follows the answer. */
export async function deliver(w: TestWorld, body: string | object, o: PostOpts = {}) {
  const res = await postWebhook(w, body, o);
  await w.services.orders.idle();
  return res;
}

export interface OrderRow {
  id: number;
  type: string;
  field1: string;
  field2: string;
  name: string;
  status: string;
  search_text: string;
  site_id: number;
  created_at: string;
  data: Record<string, unknown> & { line_items: Array<{ id: string; sku: string | null }> };
}

export async function orderRows(w: TestWorld, orderId: string): Promise<OrderRow[]> {
  // The orders table's rows in the record's columns (data as the API shows it).
  const rows = (await orderTablesRepo(w.db).recordSource(['shopify-order-log']).where({ field1: orderId }).orderBy('id').select('*')) as RecordRow[];
  return rows.map((r) => ({ ...r, data: recordFromRow(r).data }) as unknown as OrderRow);
}

export async function deliveries(w: TestWorld, where: Record<string, unknown> = {}) {
  return w.db('webhook_deliveries').where(where).orderBy('id');
}

/** A design through the API (as the given user). */
export async function makeDesign(w: TestWorld, token: string, body: Record<string, unknown>) {
  const res = await w.request().post('/api/designs').set(bearer(token)).send(body);
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body.data as { id: number; sku: string; name: string; siteId: number };
}
