// The demo order trickle (outside production, SIMULATORS=1): the demo site's "store" sends a
// signed order to the app's own webhook now and then, so List Orders keeps moving. The orders
// use the demo site's design SKUs and go through the real webhook path (signature, dedupe, processing).
import type { Logger } from 'pino';
import type { Db } from '../src/db';
import { envValue } from '../src/lib/secrets';
import { sitesRepo } from '../src/modules/sites/repo';
import { createShopifySender, fakeOrder } from './shopify';

export const DEMO_STORE_SITE = 'demo';

export interface ShopifyDemoOptions {
  db: Db;
  /** The app's own address, e.g. http://127.0.0.1:8080. */
  baseUrl: string;
  log: Logger;
  /** Orders sent at once (a freshly seeded demo), then one every intervalMs. */
  initialOrders?: number;
  intervalMs?: number;
}

export function startShopifyDemo(o: ShopifyDemoOptions): () => void {
  let stopped = false;
  let sent = 0;
  let nextNumber: number | undefined;

  async function sendOne(): Promise<void> {
    const site = await sitesRepo(o.db).bySlug(DEMO_STORE_SITE);
    if (!site) return;
    const domain = envValue(site.settings.env, 'SHOPIFY_SHOP_DOMAIN');
    const secret = envValue(site.settings.env, 'SHOPIFY_WEBHOOK_SECRET');
    if (!domain || !secret) return; // the demo store was disconnected: nothing to send
    const rows = (await o.db('designs').where({ site_id: site.id }).whereNotNull('sku').select('sku')) as Array<{ sku: string }>;
    const sender = createShopifySender({ webhookUrl: `${o.baseUrl}/api/online-stores/shopify-webhook`, shopDomain: domain, secret, retryDelaysMs: [2_000, 10_000, 30_000] });
    // Order numbers follow on from the orders the demo store already has: #1001, #1002, …
    nextNumber ??= 1001 + Number(((await o.db('general_data').where({ type: 'shopify-order-log', site_id: site.id }).count({ n: '*' }).first()) as { n: number | string } | undefined)?.n ?? 0);
    const seed = (Date.now() % 1_000_000_007) + sent++;
    const result = await sender.sendOrder(fakeOrder(seed, { skus: rows.map((r) => r.sku), orderNumber: nextNumber++ }));
    if (!result.ok) o.log.warn({ status: result.status, body: result.body }, 'demo shopify order was not accepted');
  }

  const tick = () => {
    if (!stopped) sendOne().catch((err) => o.log.warn({ err }, 'demo shopify order could not be sent'));
  };

  void (async () => {
    for (let i = 0; i < (o.initialOrders ?? 0) && !stopped; i++) await sendOne().catch((err) => o.log.warn({ err }, 'demo shopify order could not be sent'));
  })();
  const timer = setInterval(tick, o.intervalMs ?? 45_000);
  timer.unref();
  return () => {
    stopped = true;
    clearInterval(timer);
  };
}
