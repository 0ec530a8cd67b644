// Orders and fulfilment (docs/orders-fulfilment.md): store orders, provider events and sends.
// Order data is loose on purpose: records imported from the old system lack many fields.
import type { Id, RecordId } from './envelope';
import type { MadeBy } from './printProduction';
import type { Due } from './shipBy';
import type { DataRecord } from './records';
import type { LineRouting } from './routing';

export interface OrderLineItem {
  id: Id;
  name?: string | null;
  title?: string | null;
  product_id?: Id | null;
  sku?: string | null;
  quantity?: number | null;
  /** Units still ordered after edits and refunds (Shopify); what is printed when given. */
  current_quantity?: number | null;
  /** The store's fulfilment of the line (orders/fulfilled, orders/updated): `fulfilled`, `partial` or null. */
  fulfillment_status?: string | null;
  /** Units the store still has to fulfil. */
  fulfillable_quantity?: number | null;
  properties?: unknown;
  /** When the line must ship (ISO; null for an e-card), and how close that is: added by the order views (List Orders, Check order), never stored. */
  shipBy?: string | null;
  due?: Due;
  /** Where the site's routing rules (or a person) sent the line, and when: added by Check order, never stored. */
  route?: LineRouting;
}

export interface OrderAddress {
  name?: string | null;
  first_name?: string | null;
  last_name?: string | null;
  address1?: string | null;
  address2?: string | null;
  city?: string | null;
  zip?: string | null;
  province?: string | null;
  /** Shopify's `province_code` (e.g. `KY`): sent to the provider as the ship-to state. */
  province_code?: string | null;
  /** Sent to the provider as the ship-to companyName. */
  company?: string | null;
  country?: string | null;
  country_code?: string | null;
  phone?: string | null;
}

/** A line prepared for the provider: its print file, and once sent, the provider's order id. */
export interface PreGeneratedHPItem {
  lineId?: string;
  sourceOrderId?: string;
  sourceItemId?: string;
  sku?: string;
  quantity?: number;
  path?: string;
  printJobId?: RecordId | null;
  hpOrderId?: string | null;
  sentAt?: string;
}

const text = (v: unknown) => (v === null || v === undefined ? '' : String(v)).trim();

/** The parts of a store order that name its customer. */
export interface CustomerNameSource {
  customer?: { first_name?: string | null; last_name?: string | null } | null;
  shipping_address?: Pick<OrderAddress, 'name' | 'first_name' | 'last_name'> | null;
  email?: string | null;
}

/**
 * Who an order is for, as every screen and the provider's body show it: the customer's name, else
 * the shipping address's (guest checkouts and imported orders have no customer), else the email.
 */
export function customerNameOf(order: CustomerNameSource | null | undefined): string {
  const c = order?.customer;
  const a = order?.shipping_address;
  return (
    [text(c?.first_name), text(c?.last_name)].filter(Boolean).join(' ') ||
    text(a?.name) ||
    [text(a?.first_name), text(a?.last_name)].filter(Boolean).join(' ') ||
    text(order?.email)
  );
}

/** data of a shopify-order-log record (spec §3, order log entry). */
export interface OrderData {
  created_at?: string | null;
  status?: string | null;
  id: Id;
  order_number?: Id | null;
  name?: string | null;
  email?: string | null;
  customer?: { first_name?: string | null; last_name?: string | null; email?: string | null } | null;
  line_items?: OrderLineItem[] | null;
  shipping_address?: OrderAddress | null;
  preGeneratedHPItems?: PreGeneratedHPItem[] | null;
  hpOrderId?: string | null;
  tracking?: { number?: string | null; method?: string | null; url?: string | null } | null;
  providerError?: ProviderError | null;
  [key: string]: unknown;
}

/** An order log entry. */
export type OrderRecord = DataRecord<OrderData>;

/** data of an hp-log record: one postback of the provider. */
export interface ProviderEvent {
  timestamp?: string | null;
  status?: string | null;
  shopifyOrderId?: string | null;
  trackingNumber?: string | null;
  shippingMethod?: string | null;
  event?: string | null;
  /** An "Order Submission Error": why Site Flow refused the order, in its words. */
  error?: string | null;
  raw?: unknown;
}

/** On the order (data.providerError) while Site Flow's refusal of it stands. */
export interface ProviderError {
  message: string;
  sourceOrderId: string;
  at: string;
}

export type ProviderEventRecord = DataRecord<ProviderEvent> & {
  /** In the /api/hp-data list: the order is a store order (false: a manual send's, or unknown). */
  hasStoreOrder?: boolean;
};

/** data of a shopify-hp-log record: what was sent to the provider and its answer. */
export interface ProviderSend {
  sentData?: unknown;
  results?: unknown;
  attempts?: number;
  error?: string;
  manual?: boolean;
  [key: string]: unknown;
}

export type ProviderSendRecord = DataRecord<ProviderSend>;

export interface ProviderOrderLine {
  lineId: string;
  sku: string | null;
  /** As the order has it: text in some imported orders. */
  quantity: number | string | null;
  productName: string;
  productId: string | null;
  previewUrl: string | null;
  pdfUrl: string | null;
  printJobId: RecordId | null;
  /** Where the line is made; null while it has no print job. */
  madeBy: MadeBy | null;
  hpSKU: string | null;
}

/** Where each line of an order with a job is made (check-order puts it on the order record as data.production). */
export interface LineProduction {
  lineId: string;
  printJobId: RecordId;
  madeBy: MadeBy;
  isPrinted: boolean;
  /** Why the job left the queue unprinted (the order was cancelled, no units left), if it did. */
  withdrawn?: string | null;
}

/**
 * Whether the order's store takes Admin API calls (check-order puts it on the order record as
 * data.storeConnection): without, nothing goes back to the store and its fulfilment is not known.
 */
export interface StoreConnectionState {
  connected: boolean;
  /** When Shopify said the app was uninstalled (the store disconnected itself). */
  uninstalledAt?: string | null;
}

/** GET /api/hp-data/order/:orderId */
export interface ProviderOrderDetail {
  order: OrderRecord | null;
  lines: ProviderOrderLine[];
  events: ProviderEventRecord[];
  sent: ProviderSendRecord[];
  /** What went back to the store: each shipment's tracking, pending, sent or failed with why. */
  storeFulfilments?: StoreFulfilment[];
}

/** Tracking of a shipment written back to the store as a fulfilment (GET /api/orders/:orderId/store-fulfilments). */
export interface StoreFulfilment {
  outboxId: number;
  /** pending: not in the store yet (retried); sent: in the store; failed: an operator must look (error). */
  status: 'pending' | 'sent' | 'failed';
  /** provider: HP Site Flow's shipped postback; in-house: Mark shipped. */
  source: 'provider' | 'in-house';
  lineIds: string[];
  tracking: { number: string; url: string | null; company: string | null };
  error: string | null;
  /** e.g. "already fulfilled in the store" (nothing was created for those lines). */
  note: string | null;
  /** The store's fulfilment Presswork created (gid://shopify/Fulfillment/…). */
  fulfillmentId: string | null;
  fulfilledLineIds: string[];
  alreadyFulfilledLineIds: string[];
  createdAt: string;
  doneAt: string | null;
}

/** POST /api/orders/mark-shipped: lines printed in house (all of them when none are named) leave with this tracking. */
export interface MarkShippedInput {
  site?: string;
  siteId?: number;
  orderId: string;
  lineIds?: string[];
  carrier: string;
  trackingNumber: string;
  trackingUrl?: string | null;
}

/**
 * Answer of send-hp and send-hp-single-line: sent now, the provider already had it, or queued
 * after a transient failure (HTTP 202). A refusal is {success:false, error, errorMes} (422).
 */
export type SendOutcome =
  | {
      status: 'sent' | 'already-sent';
      hpOrderId: string | null;
      /** When the provider took the order; null when it had it from a send we did not make. */
      sentAt: string | null;
      /** The order's status after the send. */
      orderStatus: string | null;
    }
  | { status: 'queued'; error: string | null; nextAttemptAt: string | null };

export interface RerunFlags {
  addToAdestra: boolean;
  addToRaisersEdge: boolean;
  sendEcard: boolean;
  sendToHP: boolean;
}

/** rerun-order's answer: each chosen step done now, skipped (and why), or failed with the service's message. */
export interface RerunResult {
  ran: string[];
  skipped: Array<{ step: string; reason: string }>;
  /** `retrying`: a temporary failure, tried again automatically. */
  failed: Array<{ step: string; error: string; retrying?: boolean }>;
}

/** The manual provider submission (spec §3). */
export interface ManualSubmission {
  orderData: { sourceOrderId: string; customerName: string };
  items: Array<{ sku: string; quantity: number; pdfUrl: string; sourceItemId: string }>;
  shipTo: { name: string; address1: string; address2: string; town: string; isoCountry: string; postcode: string };
  siteId?: Id;
}

/** Order statuses of the order log (docs/orders-fulfilment.md). */
export const ORDER_STATUSES = ['received', 'sent', 'dataready', 'printready', 'printed', 'shipped', 'cancelled', 'error', 'onhold'] as const;

/** A store: a site's Shopify connection (admin REST `stores`). */
export interface Store {
  id: RecordId;
  siteId: RecordId;
  siteName: string;
  siteSlug: string;
  shopDomain: string;
  /** "********" when set: the server never sends a secret back. */
  webhookSecret: string;
  previousSecret: string;
  webhookUrl: string;
  autoSendToHP: boolean;
  /** SHOPIFY_SEND_WHEN: an order goes to print or to HP once `paid` (the default), or as soon as `created`. */
  sendWhen: 'paid' | 'created';
  /** When missed orders were last pulled from the store (schedule or Sync from store); null: never. */
  lastReconciledAt: string | null;
  /** How many orders that run found (new, changed or already known). */
  lastReconcileFound: number | null;
  /** Why that run failed, or null. */
  lastReconcileError: string | null;
  /** SHOPIFY_ADMIN_TOKEN, the custom app's Admin API token: "********" when set, never sent back. */
  adminToken: string;
  /** SHOPIFY_API_VERSION (e.g. 2026-07); empty: the server's default. */
  apiVersion: string;
  /** SHOPIFY_ADMIN_URL: where Admin API calls go instead of https://<shop domain> (a simulator). */
  adminUrl: string;
  /** When Shopify said the app was uninstalled (the token was cleared then); null while connected. */
  disconnectedAt: string | null;
  /** SHOPIFY_AUTH: how the store is connected. */
  auth: StoreAuth;
  /** SHOPIFY_CLIENT_ID of the Dev Dashboard app (not a secret). */
  clientId: string;
  /** SHOPIFY_CLIENT_SECRET: "********" when set, never sent back. */
  clientSecret: string;
  /** Until when the previous client secret (after a rotation) still signs accepted webhooks; null: none. */
  previousClientSecretUntil: string | null;
}

/** POST /api/online-stores/check-connection {site} → data. */
export interface StoreConnectionCheck {
  shopName: string;
}

/** How a store's Admin API token is obtained (SHOPIFY_AUTH). */
export type StoreAuth = 'client_credentials' | 'authorization_code' | 'static_token';

/** The Admin API scopes Presswork needs, and what stops working without each (any of `satisfiedBy` will do; write_x implies read_x). */
export const NEEDED_STORE_SCOPES: ReadonlyArray<{ scope: string; satisfiedBy: readonly string[]; without: string }> = [
  { scope: 'read_orders', satisfiedBy: ['read_orders', 'write_orders'], without: 'orders cannot be pulled from the store nor their webhooks registered' },
  {
    scope: 'write_merchant_managed_fulfillment_orders',
    satisfiedBy: ['write_merchant_managed_fulfillment_orders', 'write_assigned_fulfillment_orders', 'write_third_party_fulfillment_orders'],
    without: 'tracking cannot be written back',
  },
];

/** The needed scopes a store's token lacks. */
export function missingStoreScopes(granted: readonly string[]): string[] {
  const have = new Set(granted.map((s) => s.trim().toLowerCase()));
  return NEEDED_STORE_SCOPES.filter((n) => !n.satisfiedBy.some((s) => have.has(s))).map((n) => n.scope);
}

/** "tracking cannot be written back: the app lacks write_merchant_managed_fulfillment_orders". */
export const missingScopeSentence = (scope: string) => `${NEEDED_STORE_SCOPES.find((n) => n.scope === scope)?.without ?? 'some calls will be refused'}: the app lacks ${scope}`;

/** GET /api/online-stores/connection?site=<slug> → data. */
export interface StoreConnection {
  auth: StoreAuth;
  /** The store can be called: a token is held (or can be asked for) and Shopify has not refused it. */
  connected: boolean;
  shopName: string | null;
  scopes: string[];
  missingScopes: string[];
  /** When the access token in hand stops working (it is renewed before); null: it does not expire, or none yet. */
  expiresAt: string | null;
  /** Shopify refused the grant (or the app was uninstalled): every store call fails with `reason` until an admin reconnects. */
  needsReconnect: boolean;
  reason: string | null;
  /** When the app connection was made (Connect, or the OAuth install), and by whom. */
  connectedAt: string | null;
}

/** POST /api/online-stores/connect {site} → data: the token just obtained and what it may do. */
export interface StoreConnectResult {
  shopName: string;
  scopes: string[];
  missingScopes: string[];
  expiresAt: string | null;
}

/** POST /api/online-stores/shopify/install-url {site} → data: where to send the browser (Shopify's consent screen). */
export interface StoreInstallStart {
  url: string;
  expiresAt: string;
  redirectUri: string;
}

/** One privacy request Shopify sent for a store (customers/data_request, customers/redact, shop/redact) and what was done. */
export interface StorePrivacyRequest {
  id: number;
  topic: 'customers/data_request' | 'customers/redact' | 'shop/redact';
  receivedAt: string;
  /** listed: a data request answered with the list below; redacted: done; waiting: orders still in production are redacted when they ship. */
  status: 'listed' | 'redacted' | 'waiting';
  customerId: string | null;
  /** The customer's e-mail while the request is open (a data request, or a redaction still waiting); null once redacted. */
  customerEmail: string | null;
  /** The orders it is about (store order names where known). */
  orders: string[];
  /** Orders still in production: redacted when they ship. */
  waitingOrders: string[];
  /** A data request: what Presswork holds on the customer, order by order. */
  held: StorePrivacyHolding[] | null;
  doneAt: string | null;
}

export interface StorePrivacyHolding {
  orderId: string;
  orderName: string | null;
  placedAt: string | null;
  status: string | null;
  /** Kinds of personal data held, e.g. "name", "e-mail", "phone", "shipping address". */
  kinds: string[];
  /** The values themselves, for the shop's admin to pass on to the customer. */
  values: Record<string, string>;
  /** Print jobs whose personalisation names the customer. */
  printJobs: number;
}

/** One webhook subscription the store holds, as POST /api/online-stores/register-webhooks {site} answers it. */
export interface StoreWebhookSubscription {
  id: string;
  /** The Admin API's topic, e.g. ORDERS_CREATE. */
  topic: string;
  callbackUrl: string;
  /** It delivers to this site's webhook URL (this instance's, or an old one of ours). */
  ours: boolean;
  /** kept: already right; created/updated: by this call; elsewhere: left alone (delivers somewhere else). */
  action: 'kept' | 'created' | 'updated' | 'elsewhere';
}

export interface StoreWebhookRegistration {
  subscriptions: StoreWebhookSubscription[];
}

/** POST /api/online-stores/reconcile `{site, since?}`: what a reconciliation found. */
export interface ReconcileCounts {
  found: number;
  stored: number;
  alreadyKnown: number;
}

/**
 * The provider side of a cancellation (the store's, or an operator's "Cancel at HP"), as the order
 * record keeps it in data.providerCancellation and cancel-hp answers it.
 */
export interface ProviderCancellation {
  status: 'pending' | 'cancelled' | 'failed';
  message: string;
  at: string;
  /** The provider orders concerned (`<order>` and/or `<order>-<line>`). */
  sourceOrderIds?: string[];
}
/**
 * Shopify financial_status values that mean the money was taken (partially_refunded: it was paid;
 * the refunded units show in the lines' current_quantity). The server's SHOPIFY_SEND_WHEN=paid
 * rule and the order list's "unpaid" mark both read this.
 */
export const PAID_FINANCIAL_STATUSES = ['paid', 'partially_paid', 'partially_refunded'] as const;

/** order-to-arwork `{ids}`: the most orders one call makes in house (the caller splits more, and shows progress). */
export const MAKE_IN_HOUSE_LIMIT = 25;

/**
 * Why an order, or one of its lines, was not made in house: cancelled in the store, not paid yet
 * (the site sends once paid), shipped, sent to HP Site Flow, an e-card (e-mailed), not found, or
 * the line cannot be made (no design, no artwork, no units left: the reason says).
 */
export type MakeInHouseRefusalCode = 'cancelled' | 'unpaid' | 'shipped' | 'at-provider' | 'ecard' | 'not-found' | 'cannot-make' | 'waiting';

export interface MakeInHouseRefusal {
  /** The line refused; null: the whole order. */
  lineId: string | null;
  code: MakeInHouseRefusalCode;
  reason: string;
}

/**
 * One order of order-to-arwork `{ids}`: `made` when at least one job was made now, `already` when
 * its lines were in Jobs before, `refused` when nothing of it is in Jobs (the refusals say why).
 */
export interface OrderMadeInHouse {
  orderId: string;
  name: string | null;
  siteId: RecordId | null;
  outcome: 'made' | 'already' | 'refused';
  /** Jobs made by this call. */
  made: RecordId[];
  /** Jobs the order's lines had in Jobs already. */
  already: RecordId[];
  refused: MakeInHouseRefusal[];
}

/** POST /api/online-stores/shopify-webhook/order-to-arwork `{ids: [...], siteId?}`. */
export interface MakeInHouseResult {
  orders: OrderMadeInHouse[];
}
