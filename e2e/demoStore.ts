// The API with a token, and the demo site's store as the Shopify simulator (browser tests that need
// store orders deliver them signed like the real store).
import { expect } from 'vitest';
import { createShopifySender } from '../server/simulators/shopify';

export const DEMO_SHOP_DOMAIN = 'presswork-demo.myshopify.com';

/** A call with `token`; the JSON as answered (admin REST answers are not enveloped). */
export async function callAs<T>(baseUrl: string, token: string, method: string, path: string, body?: unknown): Promise<T> {
  const res = await fetch(`${baseUrl}${path}`, {
    method,
    headers: { Authorization: `Bearer ${token}`, ...(body === undefined ? {} : { 'Content-Type': 'application/json' }) },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  if (!res.ok) throw new Error(`${method} ${path} → ${res.status} ${await res.text()}`);
  return (await res.json()) as T;
}

/** The demo store's webhook sender. Its secret is masked in every answer: a known one is set (the old one becomes the previous). */
export async function demoStoreSender(baseUrl: string, adminToken: string, secret: string) {
  const stores = await callAs<Array<{ id: number; siteSlug: string }>>(baseUrl, adminToken, 'GET', '/api/admin/stores');
  const demo = stores.find((s) => s.siteSlug === 'demo');
  expect(demo, 'the demo store').toBeTruthy();
  const saved = await callAs<{ shopDomain: string }>(baseUrl, adminToken, 'PUT', `/api/admin/stores/${demo!.id}`, { webhookSecret: secret });
  expect(saved.shopDomain).toBe(DEMO_SHOP_DOMAIN);
  return createShopifySender({ webhookUrl: `${baseUrl}/api/online-stores/shopify-webhook`, shopDomain: DEMO_SHOP_DOMAIN, secret, retryDelaysMs: [] });
}
