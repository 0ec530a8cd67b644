// The Shopify simulator: a sender of signed order webhooks, faithful to docs/connect-shopify.md and the
// published example Order (server/test/fixtures/vendor/shopify-order-1001.json) — base64 HMAC-SHA256 over
// the raw body, X-Shopify-* headers (X-Shopify-Event-Id may be absent), int64 ids as bare JSON
// numbers, retries on non-2xx and timeouts keeping the same webhook and event ids, and faults on
// demand (duplicates, bad signatures, a wrong shop domain). `fakeOrder` makes realistic orders
// (unpaid ones too); an order's life follows Shopify's topics: orders/create (`orders/create` does
// not mean paid), orders/paid, orders/cancelled (cancelled_at, cancel_reason), orders/edited (an
// `order_edit` body of line deltas, not an Order, followed by orders/updated with the new lines).
import crypto from 'node:crypto';
import { prng } from './prng';

export type ShopifyTopic = 'orders/create' | 'orders/updated' | 'orders/paid' | 'orders/cancelled' | 'orders/edited' | 'orders/fulfilled' | (string & {});

export interface FakeLineItem {
  id: string;
  admin_graphql_api_id: string;
  product_id: string;
  variant_id: string;
  sku: string;
  name: string;
  title: string;
  quantity: number;
  /** Units still ordered after edits and refunds; fulfillable_quantity follows it until fulfilled. */
  current_quantity: number;
  fulfillable_quantity: number;
  fulfillment_status: string | null;
  price: string;
  properties: Array<{ name: string; value: string }>;
}

export interface FakeAddress {
  name: string;
  first_name: string;
  last_name: string;
  address1: string;
  address2: string | null;
  city: string;
  zip: string;
  province: string | null;
  province_code: string | null;
  company: string | null;
  country: string;
  country_code: string;
  phone: string | null;
}

export interface FakeOrder {
  id: string;
  name: string;
  order_number: number;
  created_at: string;
  updated_at: string;
  email: string | null;
  contact_email: string | null;
  currency: string;
  total_price: string;
  /** `pending` (e.g. bank transfer, manual payment), `paid`, `partially_refunded`, `refunded`, `voided`, … */
  financial_status: string;
  fulfillment_status: string | null;
  cancelled_at: string | null;
  cancel_reason: string | null;
  customer: { id: string; first_name: string; last_name: string; email: string } | null;
  line_items: FakeLineItem[];
  shipping_address: FakeAddress | null;
  shipping_lines: Array<{ title: string; code: string }>;
  [k: string]: unknown;
}

export interface SendOptions {
  topic?: ShopifyTopic;
  /** After the delivery succeeds, deliver the same event again (same event id, a new webhook id). */
  duplicate?: boolean;
  /** Sign with a wrong secret. */
  badSignature?: boolean;
  /** Claim another shop in X-Shopify-Shop-Domain. */
  wrongDomain?: boolean;
  /** Defaults: fresh UUIDs. */
  eventId?: string;
  /** Leave X-Shopify-Event-Id out (Shopify's validator treats it as optional): dedupe is then by the webhook id. */
  withoutEventId?: boolean;
  webhookId?: string;
  /** Override the schedule of this send (ms before each retry). */
  retryDelaysMs?: number[];
}

export interface DeliveryAttempt {
  webhookId: string;
  status: number | null;
  error?: string;
  body?: unknown;
}

export interface SendResult {
  ok: boolean;
  eventId: string;
  webhookId: string;
  status: number | null;
  body: unknown;
  attempts: DeliveryAttempt[];
}

export interface ShopifySenderOptions {
  webhookUrl: string;
  shopDomain: string;
  secret: string;
  fetchImpl?: typeof fetch;
  /** Delays before each retry. Shopify: 8 retries over 4 hours; tests use a few milliseconds. */
  retryDelaysMs?: number[];
  /** Shopify gives up after 5 s. */
  timeoutMs?: number;
  apiVersion?: string;
}

/** Shopify's own schedule, roughly: 8 retries spread over 4 hours. */
export const SHOPIFY_RETRY_DELAYS_MS = [60_000, 120_000, 300_000, 600_000, 1_200_000, 1_800_000, 3_600_000, 6_600_000];

const ID_KEYS = ['id', 'product_id', 'variant_id', 'order_id', 'customer_id', 'line_item_id'];

/** JSON as Shopify writes it: int64 ids are bare numbers, however large (our objects keep them as strings). */
export function shopifyJson(order: object): string {
  const json = JSON.stringify(order);
  return json.replace(new RegExp(`"(${ID_KEYS.join('|')})":"(\\d{1,20})"`, 'g'), '"$1":$2');
}

export const signShopifyBody = (secret: string, body: string | Buffer) => crypto.createHmac('sha256', secret).update(body).digest('base64');

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

export function createShopifySender(options: ShopifySenderOptions) {
  const doFetch = options.fetchImpl ?? fetch;
  const timeoutMs = options.timeoutMs ?? 5_000;
  const defaultDelays = options.retryDelaysMs ?? SHOPIFY_RETRY_DELAYS_MS;

  async function attempt(body: string, headers: Record<string, string>): Promise<Omit<DeliveryAttempt, 'webhookId'>> {
    try {
      const res = await doFetch(options.webhookUrl, { method: 'POST', headers, body, signal: AbortSignal.timeout(timeoutMs) });
      const text = await res.text();
      let parsed: unknown = text;
      try {
        parsed = JSON.parse(text);
      } catch {
        /* not JSON: keep the text */
      }
      return { status: res.status, body: parsed };
    } catch (err) {
      return { status: null, error: err instanceof Error ? err.message : String(err) };
    }
  }

  /** One event, delivered until a 2xx answer or the retries run out (same event and webhook ids throughout). */
  async function deliver(body: string, topic: string, eventId: string, webhookId: string, o: SendOptions): Promise<SendResult> {
    const signature = signShopifyBody(o.badSignature ? `${options.secret}-wrong` : options.secret, body);
    const headers: Record<string, string> = {
      'Content-Type': 'application/json',
      'X-Shopify-Topic': topic,
      'X-Shopify-Hmac-Sha256': signature,
      'X-Shopify-Shop-Domain': o.wrongDomain ? 'someone-else.myshopify.com' : options.shopDomain,
      'X-Shopify-API-Version': options.apiVersion ?? '2025-10',
      'X-Shopify-Webhook-Id': webhookId,
      'X-Shopify-Event-Id': eventId,
      'X-Shopify-Triggered-At': new Date().toISOString(),
    };
    if (o.withoutEventId) delete headers['X-Shopify-Event-Id'];
    const delays = o.retryDelaysMs ?? defaultDelays;
    const attempts: DeliveryAttempt[] = [];
    for (let i = 0; ; i++) {
      const a = await attempt(body, headers);
      attempts.push({ webhookId, ...a });
      const ok = a.status !== null && a.status >= 200 && a.status < 300;
      if (ok || i >= delays.length) return { ok, eventId, webhookId, status: a.status, body: a.body, attempts };
      await sleep(delays[i]);
    }
  }

  /** One delivery of a topic's body (an Order, or an orders/edited `order_edit`). */
  async function sendOrder(order: object, o: SendOptions = {}): Promise<SendResult> {
    const topic = o.topic ?? 'orders/create';
    const body = shopifyJson(order);
    const eventId = o.eventId ?? crypto.randomUUID();
    const first = await deliver(body, topic, eventId, o.webhookId ?? crypto.randomUUID(), o);
    if (!o.duplicate || !first.ok) return first;
    const again = await deliver(body, topic, eventId, crypto.randomUUID(), o);
    return { ...again, attempts: [...first.attempts, ...again.attempts] };
  }

  return { sendOrder, webhookUrl: options.webhookUrl, shopDomain: options.shopDomain };
}

export type ShopifySender = ReturnType<typeof createShopifySender>;

// ---------------------------------------------------------------------------------------------
// Fake orders

/** The demo designs' SKUs (seeds/printProduction.ts). */
export const DEMO_SKUS = ['DEMO-CARD-BDAY', 'DEMO-CARD-THANKS', 'DEMO-MUG-01', 'DEMO-POSTER-01'];

const FIRST = ['Amelia', 'Oliver', 'Isla', 'George', 'Ava', 'Noah', 'Mia', 'Arthur', 'Freya', 'Leo', 'Grace', 'Harry', 'Siobhan', 'Rhys', 'Zainab', 'Tomasz'];
const LAST = ['Smith', 'Jones', 'Taylor', 'Brown', 'Williams', "O'Connor", 'Patel', 'Khan', 'Evans', 'Thomas', 'Roberts', 'Nowak', 'MacLeod', 'Davies'];
const STREETS = ['High Street', 'Station Road', 'Church Lane', 'Victoria Road', 'Mill Lane', 'Park Avenue', 'The Green', 'Queens Road'];
const TOWNS: Array<[string, string, string | null, string | null]> = [
  ['London', 'SW1A 1AA', 'England', 'ENG'],
  ['Manchester', 'M1 1AE', 'England', 'ENG'],
  ['Bristol', 'BS1 4DJ', 'England', 'ENG'],
  ['Cardiff', 'CF10 1EP', 'Wales', 'WLS'],
  ['Edinburgh', 'EH1 1YZ', 'Scotland', 'SCT'],
  ['Belfast', 'BT1 5GS', 'Northern Ireland', 'NIR'],
  ['York', 'YO1 7HH', 'England', 'ENG'],
];
const COMPANIES = ['Acme Ltd', 'Northwind Traders', 'The Card Shop'];
const PRICES: Record<string, string> = { 'DEMO-CARD-BDAY': '3.50', 'DEMO-CARD-THANKS': '3.50', 'DEMO-CARD-PHOTO': '4.50', 'DEMO-MUG-01': '12.00', 'DEMO-POSTER-01': '18.00' };
const MESSAGES = ['Happy birthday Gran!', 'Thank you for everything x', 'Congratulations on the new job', 'To the best teacher ever', 'Merry Christmas from all of us'];
const TITLES: Record<string, string> = {
  'DEMO-CARD-BDAY': 'Birthday Balloons Card',
  'DEMO-CARD-THANKS': 'Thank You Leaves Card',
  'DEMO-CARD-PHOTO': 'Family Photo Card',
  'DEMO-MUG-01': 'Morning Mug',
  'DEMO-POSTER-01': 'City Skyline Poster',
};


/** An int64 id beyond 2^53 (as Shopify's are), as a string. */
const bigId = (r: ReturnType<typeof prng>, prefix: bigint) => (prefix * 10n ** 15n + BigInt(r.int(0, 999_999)) * 10n ** 9n + BigInt(r.int(0, 999_999_999))).toString();

export interface FakeOrderOptions {
  skus?: string[];
  orderNumber?: number;
  createdAt?: Date;
  /** Force a customer/address (true) or their absence (false); default: mostly present. */
  withCustomer?: boolean;
  withAddress?: boolean;
  lineCount?: number;
  /** Default `paid`; `pending` for an order paid later (orders/paid follows). */
  financialStatus?: string;
}

export function fakeOrder(seed: number, opts: FakeOrderOptions = {}): FakeOrder {
  const r = prng(seed);
  const skus = opts.skus?.length ? opts.skus : DEMO_SKUS;
  const first = r.pick(FIRST);
  const last = r.pick(LAST);
  const email = `${first}.${last}`.toLowerCase().replace(/[^a-z.]/g, '') + `${r.int(1, 99)}@example.com`;
  const orderNumber = opts.orderNumber ?? 1000 + r.int(1, 8999);
  const created = opts.createdAt ?? new Date();
  const withCustomer = opts.withCustomer ?? !r.chance(0.1);
  const withAddress = opts.withAddress ?? !r.chance(0.1);
  const [city, zip, province, provinceCode] = r.pick(TOWNS);
  const lineCount = opts.lineCount ?? r.int(1, 3);
  const line_items: FakeLineItem[] = Array.from({ length: lineCount }, () => {
    const sku = r.pick(skus);
    const title = TITLES[sku] ?? sku;
    const personalised = r.chance(0.4);
    const id = bigId(r, 1_300n);
    const quantity = r.chance(0.8) ? 1 : r.int(2, 5);
    return {
      id,
      admin_graphql_api_id: `gid://shopify/LineItem/${id}`,
      product_id: bigId(r, 7_000n),
      variant_id: bigId(r, 4_100n),
      sku,
      name: title,
      title,
      quantity,
      current_quantity: quantity,
      fulfillable_quantity: quantity,
      fulfillment_status: null,
      price: PRICES[sku] ?? '5.00',
      properties: personalised ? [{ name: 'Message', value: r.pick(MESSAGES) }, ...(r.chance(0.5) ? [{ name: 'Recipient name', value: r.pick(FIRST) }] : [])] : [],
    };
  });
  return {
    id: bigId(r, 5_000n),
    name: `#${orderNumber}`,
    order_number: orderNumber,
    created_at: created.toISOString(),
    updated_at: created.toISOString(),
    email: withCustomer ? email : null,
    contact_email: withCustomer ? email : null,
    currency: 'GBP',
    total_price: line_items.reduce((sum, l) => sum + Number(l.price) * l.quantity, 0).toFixed(2),
    financial_status: opts.financialStatus ?? 'paid',
    fulfillment_status: null,
    cancelled_at: null,
    cancel_reason: null,
    customer: withCustomer ? { id: bigId(r, 6_000n), first_name: first, last_name: last, email } : null,
    line_items,
    shipping_address: withAddress
      ? {
          name: `${first} ${last}`,
          first_name: first,
          last_name: last,
          address1: `${r.int(1, 240)} ${r.pick(STREETS)}`,
          address2: r.chance(0.3) ? `Flat ${r.int(1, 30)}` : null,
          city,
          zip,
          province,
          province_code: provinceCode,
          company: r.chance(0.15) ? r.pick(COMPANIES) : null,
          country: 'United Kingdom',
          country_code: 'GB',
          phone: r.chance(0.5) ? `+44 7${r.int(100, 999)} ${r.int(100000, 999999)}` : null,
        }
      : null,
    shipping_lines: [r.chance(0.7) ? { title: 'Royal Mail 2nd Class', code: 'RM2' } : { title: 'Royal Mail Tracked 24', code: 'RMT24' }],
  };
}

/** The same order, changed later (an `orders/updated` with a newer updated_at). */
export function updatedOrder(order: FakeOrder, change: Partial<FakeOrder> = {}, laterByMs = 60_000): FakeOrder {
  return { ...order, ...change, updated_at: new Date(Date.parse(order.updated_at) + laterByMs).toISOString() };
}

// ---------------------------------------------------------------------------------------------
// An order's life, as Shopify's topics tell it

const laterThan = (order: FakeOrder, ms: number) => new Date(Date.parse(order.updated_at) + ms).toISOString();

/** The orders/paid body: the order, paid (payment captured later than it was placed). */
export function paidOrder(order: FakeOrder, laterByMs = 60_000): FakeOrder {
  return { ...order, financial_status: 'paid', updated_at: laterThan(order, laterByMs) };
}

/** Shopify's cancel reasons. */
export type CancelReason = 'customer' | 'declined' | 'fraud' | 'inventory' | 'staff' | 'other';

/** The orders/cancelled body: cancelled_at and cancel_reason set; an unpaid order's payment voided, a paid one refunded. */
export function cancelledOrder(order: FakeOrder, reason: CancelReason = 'customer', laterByMs = 60_000): FakeOrder {
  const at = laterThan(order, laterByMs);
  const financial_status = order.financial_status === 'pending' ? 'voided' : 'refunded';
  return { ...order, financial_status, cancelled_at: at, cancel_reason: reason, updated_at: at };
}

export interface OrderEditChange {
  /** Units removed from an existing line. */
  removals?: Array<{ lineId: string; delta: number }>;
  /** Units added to an existing line, or a new line (its SKU). */
  additions?: Array<{ lineId: string; delta: number } | { sku: string; quantity: number }>;
}

/**
 * An order edit: the orders/edited body (`{order_edit: {id, order_id, created_at, line_items:
 * {additions, removals}, …}}`, the deltas only) and the order after it, which Shopify then sends
 * as orders/updated (current_quantity changed, new lines appended; quantity stays as first ordered).
 */
export function orderEdit(order: FakeOrder, change: OrderEditChange, seed = 1, laterByMs = 60_000): { edited: object; updated: FakeOrder } {
  const r = prng(seed);
  const createdAt = laterThan(order, laterByMs);
  const lines = order.line_items.map((l) => ({ ...l }));
  const removals: Array<{ id: string; delta: number }> = [];
  const additions: Array<{ id: string; delta: number }> = [];
  for (const { lineId, delta } of change.removals ?? []) {
    const line = lines.find((l) => l.id === lineId);
    if (!line) continue;
    const d = Math.min(delta, line.current_quantity);
    line.current_quantity -= d;
    line.fulfillable_quantity = line.current_quantity;
    removals.push({ id: lineId, delta: d });
  }
  for (const add of change.additions ?? []) {
    if ('lineId' in add) {
      const line = lines.find((l) => l.id === add.lineId);
      if (!line) continue;
      line.current_quantity += add.delta;
      line.fulfillable_quantity = line.current_quantity;
      additions.push({ id: add.lineId, delta: add.delta });
    } else {
      const id = bigId(r, 1_300n);
      const title = TITLES[add.sku] ?? add.sku;
      lines.push({ id, admin_graphql_api_id: `gid://shopify/LineItem/${id}`, product_id: bigId(r, 7_000n), variant_id: bigId(r, 4_100n), sku: add.sku, name: title, title, quantity: add.quantity, current_quantity: add.quantity, fulfillable_quantity: add.quantity, fulfillment_status: null, price: PRICES[add.sku] ?? '5.00', properties: [] });
      additions.push({ id, delta: add.quantity });
    }
  }
  const edited = {
    order_edit: {
      id: bigId(r, 7_800n),
      app_id: null,
      created_at: createdAt,
      notify_customer: false,
      order_id: order.id,
      staff_note: '',
      user_id: null,
      line_items: { additions, removals },
      discounts: { line_item: { additions: [], removals: [] } },
      shipping_lines: { additions: [], removals: [] },
    },
  };
  return { edited, updated: { ...order, line_items: lines, updated_at: new Date(Date.parse(createdAt) + 1_000).toISOString() } };
}
