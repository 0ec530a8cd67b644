// The demo order trickle (outside production, SIMULATORS=1): the demo site's "store" sends a
// signed order to the app's own webhook now and then, so List Orders keeps moving. The orders
// use the demo site's design SKUs and go through the real webhook path (signature, dedupe,
// processing), and live a store's life: some are placed unpaid and paid a little later
// (orders/create, then orders/paid), some are edited (orders/edited, then orders/updated), now and
// then one is cancelled (orders/cancelled), and some deliveries carry no X-Shopify-Event-Id.
import type { Logger } from 'pino';
import type { Db } from '../src/db';
import { envValue } from '../src/lib/secrets';
import { sitesRepo } from '../src/modules/sites/repo';
import { prng } from './prng';
import { cancelledOrder, createShopifySender, fakeOrder, orderEdit, paidOrder, type FakeOrder, type ShopifySender } from './shopify';
import type { ShopifyAdminSimulator } from './shopifyAdmin';
import { demoSigningSecret } from './shopifyAdminDemo';

export const DEMO_STORE_SITE = 'demo';

export interface ShopifyDemoOptions {
  db: Db;
  /** The app's own address, e.g. http://127.0.0.1:8080. */
  baseUrl: string;
  log: Logger;
  /** Orders sent at once (a freshly seeded demo), then one every intervalMs. */
  initialOrders?: number;
  intervalMs?: number;
  /** The demo store's Admin API simulator: it holds every order sent, as the real store would. */
  adminStore?: Pick<ShopifyAdminSimulator, 'addOrder' | 'updateOrder' | 'order'>;
}

export function startShopifyDemo(o: ShopifyDemoOptions): () => void {
  let stopped = false;
  let sent = 0;
  let nextNumber: number | undefined;

  async function sendOne(): Promise<void> {
    const site = await sitesRepo(o.db).bySlug(DEMO_STORE_SITE);
    if (!site) return;
    const domain = envValue(site.settings.env, 'SHOPIFY_SHOP_DOMAIN');
    const secret = demoSigningSecret(site.settings.env);
    if (!domain || !secret) return; // the demo store was disconnected: nothing to send
    const rows = (await o.db('designs').where({ site_id: site.id }).whereNotNull('sku').select('sku', 'data')) as Array<{ sku: string; data: unknown }>;
    const sender = createShopifySender({ webhookUrl: `${o.baseUrl}/api/online-stores/shopify-webhook`, shopDomain: domain, secret, retryDelaysMs: [2_000, 10_000, 30_000] });
    // Order numbers follow on from the orders the demo store already has: #1001, #1002, …
    nextNumber ??= 1001 + Number(((await o.db('general_data').where({ type: 'shopify-order-log', site_id: site.id }).count({ n: '*' }).first()) as { n: number | string } | undefined)?.n ?? 0);
    const seed = (Date.now() % 1_000_000_007) + sent++;
    const r = prng(seed);
    const made = fakeOrder(seed, { skus: rows.map((x) => x.sku), orderNumber: nextNumber++, financialStatus: r.chance(0.3) ? 'pending' : 'paid' });
    await lifeOf(sender, withPersonalisation(made, rows), r);
  }

  /** Sends an order's life: created now; then, a few seconds apart and without holding up the next order, perhaps paid, edited or cancelled. */
  async function lifeOf(sender: ShopifySender, order: FakeOrder, r: ReturnType<typeof prng>): Promise<void> {
    const send = async (body: object, topic: string) => {
      // The store holds the order as it stands before telling the app (an order edit's body is not an order).
      if (o.adminStore && topic !== 'orders/edited') {
        const stored = body as FakeOrder;
        if (o.adminStore.order(stored.id)) o.adminStore.updateOrder(stored);
        else o.adminStore.addOrder(stored);
      }
      const result = await sender.sendOrder(body, { topic, withoutEventId: r.chance(0.25) });
      if (!result.ok) o.log.warn({ status: result.status, body: result.body, topic }, 'demo shopify delivery was not accepted');
    };
    await send(order, 'orders/create');
    void afterwards(order, r, send).catch((err) => o.log.warn({ err }, 'demo shopify order could not be updated'));
  }

  async function afterwards(order: FakeOrder, r: ReturnType<typeof prng>, send: (body: object, topic: string) => Promise<void>): Promise<void> {
    const pause = () => new Promise((resolve) => setTimeout(resolve, 3_000).unref());
    let current = order;
    if (current.financial_status === 'pending') {
      await pause();
      if (stopped) return;
      if (r.chance(0.2)) return send(cancelledOrder(current, 'customer'), 'orders/cancelled');
      current = paidOrder(current);
      await send(current, 'orders/paid');
    }
    if (r.chance(0.15) && current.line_items[0]) {
      await pause();
      if (stopped) return;
      const { edited, updated } = orderEdit(current, { removals: [{ lineId: current.line_items[0].id, delta: 1 }] }, r.int(1, 1_000_000));
      await send(edited, 'orders/edited');
      await send(updated, 'orders/updated');
    }
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

/**
 * The demo store's "Cancel order" (its admin's button, which a newcomer cannot reach: the webhook
 * secret is masked): the store marks its order cancelled and tells the app with a signed
 * orders/cancelled, through the real webhook path. The order is the demo store's own copy, else the
 * app's (orders the store sent before this process started). Answers the webhook's HTTP status.
 */
export async function cancelDemoStoreOrder(o: Pick<ShopifyDemoOptions, 'db' | 'baseUrl' | 'adminStore'>, orderId: string): Promise<{ status: number | null }> {
  const site = await sitesRepo(o.db).bySlug(DEMO_STORE_SITE);
  const domain = site && envValue(site.settings.env, 'SHOPIFY_SHOP_DOMAIN');
  const secret = site && envValue(site.settings.env, 'SHOPIFY_WEBHOOK_SECRET');
  if (!site || !domain || !secret) throw new Error('The demo store is disconnected');
  let order = o.adminStore?.order(orderId);
  if (!order) {
    const row = (await o.db('store_orders').where({ site_id: site.id, store_order_id: orderId }).first('store_data')) as { store_data: unknown } | undefined;
    if (!row) throw new Error(`The demo store has no order ${orderId}`);
    order = (typeof row.store_data === 'string' ? JSON.parse(row.store_data) : row.store_data) as FakeOrder;
  }
  // Cancelled now (and always after the order's last change: the app keeps the newest version).
  const cancelled = cancelledOrder(order, 'customer', Math.max(1_000, Date.now() - Date.parse(order.updated_at)));
  if (o.adminStore) {
    if (o.adminStore.order(orderId)) o.adminStore.updateOrder(cancelled);
    else o.adminStore.addOrder(cancelled);
  }
  const sender = createShopifySender({ webhookUrl: `${o.baseUrl}/api/online-stores/shopify-webhook`, shopDomain: domain, secret, retryDelaysMs: [] });
  const result = await sender.sendOrder(cancelled, { topic: 'orders/cancelled' });
  return { status: result.status };
}

/**
 * A store's checkout asks for every personalisation of a personalised product: each demo line
 * carries a value for each field its design has (the random one when it has it, else the field's
 * sample), so the trickle does not fill the Held list with lines a real store could not send.
 */
export function withPersonalisation(order: FakeOrder, designs: Array<{ sku: string; data: unknown }>): FakeOrder {
  const fieldsOf = (sku: string | null) => {
    const raw = designs.find((d) => d.sku === sku)?.data;
    const data = (typeof raw === 'string' ? JSON.parse(raw) : raw) as { document?: { pages?: Array<{ layers?: Array<{ field?: { property: string; sample: string } }> }> } } | null;
    return (data?.document?.pages ?? []).flatMap((p) => (p.layers ?? []).flatMap((l) => (l.field ? [l.field] : [])));
  };
  const lines = order.line_items.map((line) => {
    const properties = [...line.properties];
    for (const field of fieldsOf(line.sku)) {
      if (!properties.some((p) => p.name.trim().toLowerCase() === field.property.trim().toLowerCase())) properties.push({ name: field.property, value: field.sample });
    }
    return { ...line, properties };
  });
  return { ...order, line_items: lines };
}
