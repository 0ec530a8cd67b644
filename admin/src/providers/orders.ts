// Records of orders and fulfilment (docs/orders-fulfilment.md): store orders, provider events and sends.
import { ApiError } from './api';
import type { Id } from './printProduction';

/** A general-data record as the product API answers it. */
export interface DataRecord<D = Record<string, unknown>> {
  id: Id;
  type: string;
  field1: string | null;
  field2: string | null;
  name: string | null;
  status: string | null;
  data: D;
  siteId: Id;
  userId?: Id | null;
  createdAt: string;
  updatedAt?: string;
}

export interface OrderLineItem {
  id: Id;
  name?: string | null;
  title?: string | null;
  product_id?: Id | null;
  sku?: string | null;
  quantity?: number | null;
  properties?: unknown;
}

export interface PreGeneratedHPItem {
  lineId?: string;
  sku?: string;
  path?: string;
  hpOrderId?: string | null;
  sentAt?: string;
  [key: string]: unknown;
}

/** data of a shopify-order-log record (spec §3, order log entry). */
export interface StoreOrder {
  created_at?: string | null;
  status?: string | null;
  id: Id;
  order_number?: Id | null;
  name?: string | null;
  email?: string | null;
  customer?: { first_name?: string | null; last_name?: string | null; email?: string | null } | null;
  line_items?: OrderLineItem[] | null;
  shipping_address?: Record<string, unknown> | null;
  preGeneratedHPItems?: PreGeneratedHPItem[] | null;
  hpOrderId?: string | null;
  tracking?: { number?: string | null; method?: string | null; url?: string | null } | null;
  [key: string]: unknown;
}

export type OrderRecord = DataRecord<StoreOrder>;

/** data of an hp-log record: one postback of the provider. */
export interface ProviderEvent {
  timestamp?: string | null;
  status?: string | null;
  shopifyOrderId?: string | null;
  trackingNumber?: string | null;
  shippingMethod?: string | null;
  event?: string | null;
  raw?: unknown;
}

export type ProviderEventRecord = DataRecord<ProviderEvent>;

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
  lineId?: string;
  sku?: string | null;
  quantity?: number | null;
  productName: string;
  productId: string | null;
  previewUrl: string | null;
  pdfUrl: string | null;
  printJobId?: Id | null;
  /** Where the line is made: by the provider, in house (Jobs), or not decided yet (no job). */
  madeBy?: MadeBy | null;
  hpSKU?: string | null;
}

export type MadeBy = 'inHouse' | 'provider';

/** Where a line is made, in the operators' words. */
export function madeByLabel(madeBy: MadeBy | null | undefined, printJobId?: Id | null): string {
  const job = printJobId ? ` (job #${printJobId})` : '';
  if (madeBy === 'provider') return `HP Site Flow${job}`;
  if (madeBy === 'inHouse') return `In house, Jobs${job}`;
  return 'Not decided yet';
}

/** GET /api/hp-data/order/:orderId */
export interface ProviderOrderDetail {
  order: OrderRecord | null;
  lines: ProviderOrderLine[];
  events: ProviderEventRecord[];
  sent: ProviderSendRecord[];
}

/** A page of the general-data list call (spec §7: the list is data.data). */
export interface DataPage<T> {
  data: T[];
  hasNext?: boolean;
  total?: number;
  page?: number;
}

export interface OrderListQuery {
  page: number;
  /** The admin's all-clients view (/all-orders). */
  allClients?: boolean;
  /** Order name, number, customer name or email. */
  q?: string;
  status?: string;
}

export interface ProductTypeOfSku {
  sku: string;
  productType: string | null;
}

/** Answer of send-hp: sent now, the provider already had it, or queued after a transient failure (HTTP 202). */
export interface SendOutcome {
  status: 'sent' | 'already-sent' | 'queued';
  hpOrderId?: string | null;
  error?: string | null;
  nextAttemptAt?: string | null;
}

export interface RerunFlags {
  addToAdestra: boolean;
  addToRaisersEdge: boolean;
  sendEcard: boolean;
  sendToHP: boolean;
}

export interface RerunResult {
  ran: string[];
  skipped: Array<{ step: string; reason: string }>;
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

/** The store order id of an order record (field1, else data.id). */
export function storeOrderId(order: OrderRecord): string {
  return order.field1 ?? String(order.data?.id ?? '');
}

export function orderStatusOf(order: OrderRecord): string {
  return order.status ?? order.data?.status ?? '';
}

export function customerNameOf(order: OrderRecord): string {
  const c = order.data?.customer;
  return [c?.first_name, c?.last_name].filter(Boolean).join(' ');
}

export function lineItemsOf(order: OrderRecord): OrderLineItem[] {
  return Array.isArray(order.data?.line_items) ? order.data.line_items : [];
}

export function hasPreGeneratedItems(order: OrderRecord): boolean {
  return Array.isArray(order.data?.preGeneratedHPItems) && order.data.preGeneratedHPItems.length > 0;
}

/**
 * The `errorMes` of a failed answer (send-hp, rerun-order, manual send), for the Error Data panel;
 * undefined when the failure carries none.
 */
export function errorDataOf(error: unknown): unknown {
  if (!(error instanceof ApiError)) return undefined;
  const body = error.body as { errorMes?: unknown } | undefined;
  const mes = body && typeof body === 'object' ? body.errorMes : undefined;
  return mes === null || mes === undefined || mes === '' ? undefined : mes;
}

/** The `data` of a failed answer: the provider's own answer of a refused manual send. */
export function failureDataOf(error: unknown): unknown {
  if (!(error instanceof ApiError)) return undefined;
  const body = error.body as { data?: unknown } | undefined;
  return body && typeof body === 'object' ? (body.data ?? undefined) : undefined;
}
