// Outside production, on a freshly seeded demo: the charity's shop (hope-harbour) sends a few paid
// orders through the real webhook — a card with an e-card to a friend from a buyer who consented to
// e-mail marketing, an e-card for a date a few days ahead, a card and a picture e-card from a buyer
// who did not consent —
// so every step of the order pipeline runs against the CRM and Adestra simulators and the mail catcher.
import type { Db } from '../src/db';
import type { Deps } from '../src/deps';
import { envValue } from '../src/lib/secrets';
import { sitesRepo } from '../src/modules/sites/repo';
import { createShopifySender } from './shopify';

export const CHARITY_SITE = 'hope-harbour';
export const CHARITY_SHOP_DOMAIN = 'hope-harbour-shop.myshopify.com';
const CARD_SKU = 'HH-XMAS-01';
const ECARD_SKU = 'ECARD-SEASONS';
const PICTURE_ECARD_SKU = 'ECARD-ROBIN';

interface Buyer {
  first: string;
  last: string;
  email: string;
  consent: 'subscribed' | 'not_subscribed';
}

function charityOrder(n: number, buyer: Buyer, lines: Array<{ sku: string; title: string; properties?: Record<string, string> }>, now: Date) {
  const id = String(8_100_000_000_000 + n);
  const at = new Date(now.getTime() - (10 - n) * 60_000).toISOString();
  const address = { first_name: buyer.first, last_name: buyer.last, name: `${buyer.first} ${buyer.last}`, address1: `${10 + n} Harbour Road`, address2: null, city: 'Whitby', zip: 'YO21 3PU', province: null, province_code: null, country: 'United Kingdom', country_code: 'GB', company: null, phone: null };
  return {
    id: Number(id),
    name: `#HH${2000 + n}`,
    order_number: 2000 + n,
    email: buyer.email,
    created_at: at,
    updated_at: at,
    processed_at: at,
    financial_status: 'paid',
    fulfillment_status: null,
    buyer_accepts_marketing: buyer.consent === 'subscribed',
    customer: { id: 6_200_000_000_000 + n, first_name: buyer.first, last_name: buyer.last, email: buyer.email, email_marketing_consent: { state: buyer.consent, opt_in_level: 'single_opt_in', consent_updated_at: at } },
    billing_address: address,
    shipping_address: address,
    shipping_lines: [{ title: 'Royal Mail 2nd Class', code: 'RM2' }],
    line_items: lines.map((l, i) => ({
      id: Number(id) * 10 + i,
      sku: l.sku,
      name: l.title,
      title: l.title,
      quantity: 1,
      current_quantity: 1,
      product_id: 7_300_000_000 + i,
      variant_id: 4_300_000_000 + i,
      properties: Object.entries(l.properties ?? {}).map(([name, value]) => ({ name, value })),
    })),
  };
}

/** Sends the charity's demo orders (once, on a fresh demo). */
export async function sendCharityDemoOrders(o: { db: Db; baseUrl: string; log: Deps['log']; now?: Date }): Promise<number> {
  const site = await sitesRepo(o.db).bySlug(CHARITY_SITE);
  const secret = site ? envValue(site.settings.env, 'SHOPIFY_WEBHOOK_SECRET') : undefined;
  if (!site || !secret) return 0;
  const now = o.now ?? new Date();
  const inFiveDays = new Date(now.getTime() + 5 * 86_400_000).toISOString().slice(0, 10);
  const orders = [
    charityOrder(1, { first: 'Maya', last: 'Fenwick', email: 'maya.fenwick@example.com', consent: 'subscribed' }, [
      { sku: CARD_SKU, title: 'Harbour Lights Christmas Card' },
      { sku: ECARD_SKU, title: "Season's greetings e-card", properties: { 'Recipient name': 'Tom', 'Recipient email': 'tom.fenwick@example.net', Message: 'Merry Christmas, Tom! Thinking of you by the sea.' } },
    ], now),
    charityOrder(2, { first: 'Oliver', last: 'Grant', email: 'oliver.grant@example.com', consent: 'not_subscribed' }, [
      { sku: ECARD_SKU, title: "Season's greetings e-card", properties: { 'Recipient name': 'Aunt Jo', 'Recipient email': 'jo.grant@example.net', Message: 'Happy holidays from all of us!', 'Send date': inFiveDays } },
    ], now),
    charityOrder(3, { first: 'Priya', last: 'Shah', email: 'priya.shah@example.com', consent: 'not_subscribed' }, [
      { sku: CARD_SKU, title: 'Harbour Lights Christmas Card' },
      { sku: PICTURE_ECARD_SKU, title: 'Robin in the snow picture e-card', properties: { 'Recipient name': 'Sam', 'Recipient email': 'sam.shah@example.net', Message: 'A little robin to say we miss you. Love, Priya' } },
    ], now),
  ];
  const sender = createShopifySender({ webhookUrl: `${o.baseUrl}/api/online-stores/shopify-webhook`, shopDomain: envValue(site.settings.env, 'SHOPIFY_SHOP_DOMAIN') ?? CHARITY_SHOP_DOMAIN, secret, retryDelaysMs: [2_000, 10_000] });
  let sent = 0;
  for (const order of orders) {
    const result = await sender.sendOrder(order, { topic: 'orders/paid' });
    if (result.ok) sent++;
    else o.log.warn({ status: result.status, body: result.body }, 'charity demo order was not accepted');
  }
  return sent;
}
