// Shopify order webhooks: the pure rules (no database, no HTTP) — signature check, int64-safe
// parsing, the order as we store it, and which of two versions of an order is newer.
import crypto from 'node:crypto';
import { PAID_FINANCIAL_STATUSES, type OrderAddress } from '../../../../common/api/orders';
import { unitsToMake } from '../../../../common/api/units';

export const ORDER_TOPICS = ['orders/create', 'orders/updated', 'orders/paid', 'orders/cancelled', 'orders/edited', 'orders/fulfilled'] as const;
export type OrderTopic = (typeof ORDER_TOPICS)[number];
export const isOrderTopic = (topic: string): topic is OrderTopic => (ORDER_TOPICS as readonly string[]).includes(topic);

/** Header names (Node lower-cases incoming header names; `req.get` is case-insensitive anyway). */
export const SHOPIFY_HEADERS = {
  hmac: 'X-Shopify-Hmac-Sha256',
  topic: 'X-Shopify-Topic',
  shopDomain: 'X-Shopify-Shop-Domain',
  apiVersion: 'X-Shopify-API-Version',
  webhookId: 'X-Shopify-Webhook-Id',
  eventId: 'X-Shopify-Event-Id',
  triggeredAt: 'X-Shopify-Triggered-At',
} as const;

/** base64(HMAC-SHA256(secret, raw body)) — what Shopify sends in X-Shopify-Hmac-Sha256. */
export function shopifySignature(secret: string, rawBody: Buffer | string): string {
  return crypto.createHmac('sha256', secret).update(rawBody).digest('base64');
}

/** Timing-safe check of the signature against each secret that is set (current, then previous during a rotation). */
export function verifyShopifySignature(rawBody: Buffer, header: string, secrets: Array<string | undefined>): boolean {
  const given = Buffer.from(header.trim(), 'base64');
  if (given.length !== 32) return false;
  let ok = false;
  for (const secret of secrets) {
    if (!secret) continue;
    const expected = crypto.createHmac('sha256', secret).update(rawBody).digest();
    // No early exit: both secrets are always tried, so timing does not tell which one matched.
    if (crypto.timingSafeEqual(expected, given)) ok = true;
  }
  return ok;
}

/** - + 0-9 . e E: the characters of a JSON number literal. */
const isNumberChar = (c: number) => (c >= 48 && c <= 57) || c === 45 || c === 43 || c === 46 || c === 101 || c === 69;

/**
 * JSON.parse that keeps integers beyond 2^53 exact: such number literals become strings before
 * parsing (Shopify ids are int64). Measured on Node 24 with a Shopify order: this scan and a plain
 * JSON.parse take half the time of a reviver reading each number's source text.
 * A linear scan that skips string literals, so text that merely looks like a number is untouched.
 */
export function parseJsonInt64Safe(text: string): unknown {
  let out = '';
  let last = 0;
  const n = text.length;
  for (let i = 0; i < n; i++) {
    const c = text.charCodeAt(i);
    if (c === 34 /* " */) {
      for (i++; i < n; i++) {
        const d = text.charCodeAt(i);
        if (d === 92 /* \ */) i++;
        else if (d === 34) break;
      }
    } else if (c === 45 /* - */ || (c >= 48 && c <= 57)) {
      const start = i;
      while (i + 1 < n && isNumberChar(text.charCodeAt(i + 1))) i++;
      const token = text.slice(start, i + 1);
      if (/^-?\d{16,}$/.test(token) && !Number.isSafeInteger(Number(token))) {
        out += `${text.slice(last, start)}"${token}"`;
        last = i + 1;
      }
    }
  }
  return JSON.parse(last === 0 ? text : out + text.slice(last));
}

// ---------------------------------------------------------------------------------------------
// The order as stored in the shopify-order-log record's data (docs/orders-fulfilment.md)

export interface OrderLine {
  id: string;
  name: string | null;
  title: string | null;
  product_id: string | null;
  variant_id: string | null;
  sku: string | null;
  quantity: number;
  /** Units still ordered after edits and refunds (Shopify's current_quantity); null when the store did not say. */
  current_quantity?: number | null;
  /** The store's fulfilment of the line (`fulfilled`, `partial`, null) and what is left to fulfil: a line fulfilled by hand is not written back again. */
  fulfillment_status?: string | null;
  fulfillable_quantity?: number | null;
  properties: Array<{ name: string; value: string }>;
}

/** The store's shipping address as it is kept with the order (one type with the admin's). */
export type { OrderAddress } from '../../../../common/api/orders';

/** The fields that come from the store: a newer webhook replaces all of them. */
export interface ShopifyOrder {
  id: string;
  name: string;
  order_number: number | string | null;
  created_at: string | null;
  updated_at: string | null;
  email: string | null;
  financial_status: string | null;
  fulfillment_status: string | null;
  cancelled_at: string | null;
  cancel_reason: string | null;
  customer: {
    id: string | null;
    first_name: string | null;
    last_name: string | null;
    email: string | null;
    /** What the buyer said to e-mail marketing (state subscribed, not_subscribed, unsubscribed…): the CRM consent follows it. */
    email_marketing_consent?: { state: string | null; opt_in_level: string | null; consent_updated_at: string | null } | null;
  } | null;
  line_items: OrderLine[];
  shipping_address: OrderAddress | null;
  shipping_lines: Array<{ title: string | null; code: string | null }>;
  /** The buyer's address (a new constituent's address in the CRM). */
  billing_address?: OrderAddress | null;
  /** The older consent flag, read when the customer's email_marketing_consent is absent. */
  buyer_accepts_marketing?: boolean | null;
  processed_at?: string | null;
  /** The store's tags, comma-separated (routing rules read them); kept only when the store says. */
  tags?: string | null;
  /** The order's total as the store wrote it (routing rules read it). */
  total_price?: string | null;
  /** The sales channel it came through (web, pos, …: a routing rule's store). */
  source_name?: string | null;
}

/** The fields the provider side keeps (status, what was sent, tracking): a store webhook never touches them. */
export interface FulfilmentFields {
  status: string;
  preGeneratedHPItems: unknown[];
  hpOrderId: string | null;
  tracking: { number?: string | null; method?: string | null; url?: string | null } | null;
}

/** The store's cancellation of the order (`cancelled_at`, `cancel_reason`), kept once seen. */
export interface Cancellation {
  cancelledAt: string;
  reason: string | null;
}

export type OrderData = ShopifyOrder &
  FulfilmentFields & {
    lastTopic: string;
    cancelled?: Cancellation | null;
    /** created_at of the newest order edit applied from an orders/edited body (a version of the order, like updated_at). */
    editedAt?: string | null;
    [k: string]: unknown;
  };

/** Order statuses of the contract, plus `no-lines` for orders the list hides (nothing to print). */
export const NO_LINES = 'no-lines';
export const RECEIVED = 'received';
export const CANCELLED = 'cancelled';

export class PayloadError extends Error {}

const str = (v: unknown): string | null => (v === null || v === undefined || v === '' ? null : String(v));
const idOf = (v: unknown): string | null => (typeof v === 'number' || typeof v === 'bigint' || (typeof v === 'string' && v !== '') ? String(v) : null);
const obj = (v: unknown): Record<string, unknown> | null => (v && typeof v === 'object' && !Array.isArray(v) ? (v as Record<string, unknown>) : null);
const arr = (v: unknown): unknown[] => (Array.isArray(v) ? v : []);

function address(v: unknown): OrderAddress | null {
  const a = obj(v);
  if (!a) return null;
  const keys = ['name', 'company', 'first_name', 'last_name', 'address1', 'address2', 'city', 'zip', 'province', 'province_code', 'country', 'country_code', 'phone'] as const;
  return Object.fromEntries(keys.map((k) => [k, str(a[k])])) as OrderAddress;
}

/** A webhook payload → the store-side fields we keep, ids as strings. Throws PayloadError without an order id. */
export function normaliseOrder(payload: unknown): ShopifyOrder {
  const p = obj(payload);
  const id = p ? idOf(p.id) : null;
  if (!p || !id || !/^\d{1,20}$/.test(id)) throw new PayloadError('The payload has no order id');
  const customer = obj(p.customer);
  return {
    id,
    name: str(p.name) ?? `#${str(p.order_number) ?? id}`,
    order_number: typeof p.order_number === 'number' || typeof p.order_number === 'string' ? p.order_number : null,
    created_at: str(p.created_at),
    updated_at: str(p.updated_at),
    email: str(p.email) ?? str(p.contact_email),
    financial_status: str(p.financial_status),
    fulfillment_status: str(p.fulfillment_status),
    cancelled_at: str(p.cancelled_at),
    cancel_reason: str(p.cancel_reason),
    customer: customer ? { id: idOf(customer.id), first_name: str(customer.first_name), last_name: str(customer.last_name), email: str(customer.email), ...marketingConsent(customer.email_marketing_consent) } : null,
    line_items: arr(p.line_items)
      .map(obj)
      .filter((l): l is Record<string, unknown> => l !== null && idOf(l.id) !== null)
      .map((l) => ({
        id: idOf(l.id)!,
        name: str(l.name),
        title: str(l.title),
        product_id: idOf(l.product_id),
        variant_id: idOf(l.variant_id),
        sku: str(l.sku)?.trim() || null,
        quantity: Number.isSafeInteger(Number(l.quantity)) && Number(l.quantity) > 0 ? Number(l.quantity) : 1,
        current_quantity: l.current_quantity === null || l.current_quantity === undefined || l.current_quantity === '' || !Number.isSafeInteger(Number(l.current_quantity)) ? null : Math.max(0, Number(l.current_quantity)),
        // Kept only when the store says (older stored orders and other sources have neither).
        ...(l.fulfillment_status === undefined ? {} : { fulfillment_status: str(l.fulfillment_status) }),
        ...(l.fulfillable_quantity === undefined || l.fulfillable_quantity === null || l.fulfillable_quantity === '' || !Number.isSafeInteger(Number(l.fulfillable_quantity)) ? {} : { fulfillable_quantity: Math.max(0, Number(l.fulfillable_quantity)) }),
        properties: arr(l.properties)
          .map(obj)
          .filter((x): x is Record<string, unknown> => x !== null && str(x.name) !== null)
          .map((x) => ({ name: String(x.name), value: x.value === null || x.value === undefined ? '' : String(x.value) })),
      })),
    shipping_address: address(p.shipping_address),
    shipping_lines: arr(p.shipping_lines)
      .map(obj)
      .filter((x): x is Record<string, unknown> => x !== null)
      .map((x) => ({ title: str(x.title), code: str(x.code) })),
    billing_address: address(p.billing_address),
    buyer_accepts_marketing: typeof p.buyer_accepts_marketing === 'boolean' ? p.buyer_accepts_marketing : null,
    processed_at: str(p.processed_at),
    // Kept only when the store says, so an order stored before is read back the same.
    ...(p.tags === undefined ? {} : { tags: str(p.tags) }),
    ...(p.total_price === undefined ? {} : { total_price: str(p.total_price) }),
    ...(p.source_name === undefined ? {} : { source_name: str(p.source_name) }),
  };
}

/** customer.email_marketing_consent, kept when the store sends it (absent: nothing said). */
function marketingConsent(v: unknown): Pick<NonNullable<ShopifyOrder['customer']>, 'email_marketing_consent'> {
  const c = obj(v);
  return c ? { email_marketing_consent: { state: str(c.state), opt_in_level: str(c.opt_in_level), consent_updated_at: str(c.consent_updated_at) } } : {};
}

const timeOf = (iso: string | null | undefined) => {
  const t = iso ? Date.parse(iso) : NaN;
  return Number.isNaN(t) ? undefined : t;
};

/** Newest updated_at wins; a version without a usable updated_at never replaces one that has it. */
export function isOlder(incoming: Pick<ShopifyOrder, 'updated_at'>, stored: Pick<ShopifyOrder, 'updated_at'>): boolean {
  const a = timeOf(incoming.updated_at);
  const b = timeOf(stored.updated_at);
  if (b === undefined) return false;
  if (a === undefined) return true;
  return a < b;
}

/** What the order list searches: "name order_number first last email id", lower-case. */
export function orderSearchText(o: ShopifyOrder): string {
  return [o.name, o.order_number, o.customer?.first_name, o.customer?.last_name, o.email ?? o.customer?.email, o.id]
    .filter((v) => v !== null && v !== undefined && v !== '')
    .join(' ')
    .toLowerCase()
    .slice(0, 2000);
}

/**
 * The record's status: a new order is `received` (or `no-lines`, hidden from the list); later
 * store updates keep whatever the provider side set, except that an order gaining or losing
 * all its lines before it was sent moves between `received` and `no-lines`.
 */
export function nextStatus(current: string | null | undefined, order: ShopifyOrder): string {
  const hasLines = order.line_items.length > 0;
  // Cancelled before it was sent: nothing more happens to it. A sent order keeps the provider's
  // status until the provider confirms the cancellation (fulfilment/cancel.ts).
  if (order.cancelled_at && (!current || current === NO_LINES || current === RECEIVED)) return CANCELLED;
  if (!current || current === NO_LINES || current === RECEIVED) return hasLines ? RECEIVED : NO_LINES;
  return current;
}

/** The stored data: the previous record's provider-side fields, the store's fields from this version. */
export function mergeOrderData(previous: Partial<OrderData> | undefined, order: ShopifyOrder, topic: string, status: string): OrderData {
  return {
    ...previous,
    ...order,
    status,
    preGeneratedHPItems: Array.isArray(previous?.preGeneratedHPItems) ? previous.preGeneratedHPItems : [],
    hpOrderId: previous?.hpOrderId ?? null,
    tracking: previous?.tracking ?? null,
    // A cancellation is final in Shopify: a later version without cancelled_at does not undo it.
    cancelled: order.cancelled_at ? { cancelledAt: order.cancelled_at, reason: order.cancel_reason } : (previous?.cancelled ?? null),
    lastTopic: topic,
  };
}

/** The record's created_at: when the order was placed (UTC ISO, so it sorts as text), else now. */
export function orderCreatedAt(order: ShopifyOrder, now: string): string {
  const t = timeOf(order.created_at);
  return t === undefined ? now : new Date(t).toISOString();
}

/** "#1001", "1001" or " #1001 " → "#1001" (order names as Shopify writes them). */
export function orderNameOf(name: string): string {
  const n = name.trim();
  return n.startsWith('#') ? n : `#${n}`;
}

// ---------------------------------------------------------------------------------------------
// Payment and cancellation

/**
 * Money taken: `paid`, `partially_paid`, and `partially_refunded` (PAID_FINANCIAL_STATUSES). Not
 * paid: `pending`, `authorized` (not captured yet; Shopify sends orders/paid on capture),
 * `refunded`, `voided`, `expired`, or nothing said.
 */
export const isPaid = (order: { financial_status?: unknown }) => (PAID_FINANCIAL_STATUSES as readonly string[]).includes(String(order.financial_status ?? '').toLowerCase());

/** What the topic itself says beyond the body: orders/paid means paid, orders/cancelled means cancelled. */
export function withTopic(order: ShopifyOrder, topic: string, now: string): ShopifyOrder {
  if (topic === 'orders/paid' && !isPaid(order)) return { ...order, financial_status: 'paid' };
  if (topic === 'orders/cancelled' && !order.cancelled_at) return { ...order, cancelled_at: order.updated_at ?? now };
  return order;
}

// ---------------------------------------------------------------------------------------------
// orders/edited: Shopify sends `{order_edit: {id, order_id, created_at, line_items: {additions:
// [{id, delta}], removals: [{id, delta}]}, …}}`, not an Order. The deltas are applied to the
// stored lines; what the body cannot say (a new line's SKU and properties) the orders/updated
// that follows every edit brings (the newest version wins).

export interface OrderEdit {
  orderId: string;
  editId: string | null;
  createdAt: string | null;
  additions: Array<{ lineId: string; delta: number }>;
  removals: Array<{ lineId: string; delta: number }>;
}

const deltas = (v: unknown) =>
  arr(v)
    .map(obj)
    .filter((x): x is Record<string, unknown> => x !== null && idOf(x.id) !== null && Number.isSafeInteger(Number(x.delta)) && Number(x.delta) > 0)
    .map((x) => ({ lineId: idOf(x.id)!, delta: Number(x.delta) }));

/** The order edit of an orders/edited body, or undefined when the body is a full Order. Throws PayloadError without an order id. */
export function orderEditOf(payload: unknown): OrderEdit | undefined {
  const edit = obj(obj(payload)?.order_edit);
  if (!edit) return undefined;
  const orderId = idOf(edit.order_id);
  if (!orderId || !/^\d{1,20}$/.test(orderId)) throw new PayloadError('The order edit has no order id');
  const lines = obj(edit.line_items);
  return { orderId, editId: idOf(edit.id), createdAt: str(edit.created_at), additions: deltas(lines?.additions), removals: deltas(lines?.removals) };
}

/** The stored order with an edit's deltas applied; a line the order does not have yet is added without details. */
export function applyOrderEdit(order: ShopifyOrder, edit: OrderEdit): ShopifyOrder {
  const lines = order.line_items.map((l) => ({ ...l }));
  for (const { lineId, delta } of edit.removals) {
    const line = lines.find((l) => l.id === lineId);
    if (line) line.current_quantity = Math.max(0, unitsToMake(line) - delta);
  }
  for (const { lineId, delta } of edit.additions) {
    const line = lines.find((l) => l.id === lineId);
    if (line) line.current_quantity = unitsToMake(line) + delta;
    else lines.push({ id: lineId, name: null, title: 'Added by an order edit (details follow from the store)', product_id: null, variant_id: null, sku: null, quantity: delta, current_quantity: delta, properties: [] });
  }
  return { ...order, line_items: lines };
}

/** What a delivery carries: a version of the order, or an edit of it. */
export type StoreChange = { kind: 'order'; orderId: string; order: ShopifyOrder } | { kind: 'edit'; orderId: string; edit: OrderEdit };

/** The delivery's change; throws PayloadError when it names no order. */
export function storeChangeOf(topic: string, payload: unknown): StoreChange {
  const edit = topic === 'orders/edited' ? orderEditOf(payload) : undefined;
  if (edit) return { kind: 'edit', orderId: edit.orderId, edit };
  const order = normaliseOrder(payload);
  return { kind: 'order', orderId: order.id, order };
}

/** The time a stored order stands for: its updated_at, or a later edit applied to it. */
export function versionOf(data: Pick<OrderData, 'updated_at' | 'editedAt'>): Pick<ShopifyOrder, 'updated_at'> {
  const a = timeOf(data.updated_at);
  const b = timeOf(data.editedAt);
  return { updated_at: b !== undefined && (a === undefined || b > a) ? data.editedAt! : data.updated_at };
}

export type AppliedChange = { order: ShopifyOrder; status: string; data: OrderData } | { skipped: string };

/** A store change applied to the stored order (none yet: undefined): the next record, or why nothing changes. */
export function applyStoreChange(current: { status?: string | null; data: OrderData } | undefined, change: StoreChange, topic: string, now: string): AppliedChange {
  let order: ShopifyOrder;
  if (change.kind === 'order') {
    order = withTopic(change.order, topic, now);
    if (current && isOlder(order, versionOf(current.data))) return { skipped: 'An older version of the order than the one stored' };
  } else {
    if (!current) return { skipped: 'An edit of an order not received yet: the orders/updated that follows brings it' };
    const { edit } = change;
    if (edit.createdAt && !isOlder({ updated_at: versionOf(current.data).updated_at }, { updated_at: edit.createdAt })) return { skipped: 'The stored order already includes this edit' };
    order = applyOrderEdit(current.data, edit);
  }
  const status = nextStatus(current?.status, order);
  const data = mergeOrderData(current?.data, order, topic, status);
  if (change.kind === 'edit') data.editedAt = change.edit.createdAt ?? current?.data.editedAt ?? null;
  return { order, status, data };
}
