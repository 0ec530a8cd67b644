// The provider's order body (docs/orders-fulfilment.md) from a store order, and from the manual form.
import { customerNameOf } from '../../../../common/api/orders';
import type { HpAdditionData } from '../designs/schema';
import type { OrderAddress } from '../orders/shopify';
import type { HpSettings } from './settings';

/** The parts of a stored store order (`shopify-order-log` data) a send reads. */
export interface StoreLineItem {
  id: string | number;
  name?: string | null;
  title?: string | null;
  product_id?: string | number | null;
  sku?: string | null;
  quantity?: number | string | null;
  properties?: Array<{ name: string; value: unknown }> | null;
}

/** The store's shipping address, as the orders module stores it. */
export type StoreAddress = OrderAddress;

export interface StoreOrder {
  id?: string | number;
  name?: string;
  order_number?: string | number;
  email?: string | null;
  status?: string;
  customer?: { first_name?: string | null; last_name?: string | null; email?: string | null } | null;
  line_items?: StoreLineItem[];
  shipping_address?: StoreAddress | null;
  hpOrderId?: string | null;
  preGeneratedHPItems?: PreGeneratedItem[];
  tracking?: { number?: string | null; method?: string | null; url?: string | null };
  [k: string]: unknown;
}

/** One provider item as sent: kept on the order (`preGeneratedHPItems`). */
export interface PreGeneratedItem {
  lineId: string;
  sourceOrderId: string;
  sourceItemId: string;
  sku: string;
  quantity: number;
  path: string;
  printJobId: number | null;
  hpOrderId: string | null;
  sentAt: string;
}

export interface HpItem {
  sourceItemId: string;
  sku: string;
  quantity: number;
  shipmentIndex: number;
  components: Array<{ code: string; path: string; fetch: boolean; attributes?: Record<string, string> }>;
}

export interface HpOrderBody {
  destination: { name: string };
  orderData: {
    sourceOrderId: string;
    customerName: string;
    postbackAddress?: string;
    items: HpItem[];
    shipments: Array<{
      shipTo: { name: string; companyName?: string; address1: string; address2: string; town: string; state?: string; postcode: string; isoCountry: string; email?: string; phone?: string };
      carrier: { alias: string };
    }>;
    stockItems?: Array<{ code: string; name: string; quantity: number }>;
  };
}

/** The component code when a design names none: Site Flow's default product component. */
export const COMPONENT_CODE = 'Content';

const s = (v: unknown) => (v === null || v === undefined ? '' : String(v)).trim();

export const sourceOrderIdOf = (orderId: string, lineId: string | null) => (lineId ? `${orderId}-${lineId}` : orderId);


/** The shipment's address from the store's shipping address; null when the order has none. */
export function shipToOf(order: StoreOrder): HpOrderBody['orderData']['shipments'][number]['shipTo'] | null {
  const a = order.shipping_address as StoreAddress | null | undefined;
  if (!a || !s(a.address1)) return null;
  const shipTo: HpOrderBody['orderData']['shipments'][number]['shipTo'] = {
    name: s(a.name) || [s(a.first_name), s(a.last_name)].filter(Boolean).join(' ') || customerNameOf(order),
    address1: s(a.address1),
    address2: s(a.address2),
    town: s(a.city),
    postcode: s(a.zip),
    isoCountry: s(a.country_code).toUpperCase(),
  };
  // Site Flow's optional fields: a carrier needs the state of a US or Canadian address.
  if (s(a.company)) shipTo.companyName = s(a.company);
  const state = s(a.province_code) || s(a.province);
  if (state) shipTo.state = state;
  const email = s(order.email) || s(order.customer?.email);
  if (email) shipTo.email = email;
  if (s(a.phone)) shipTo.phone = s(a.phone);
  return shipTo;
}

export interface MappedLine {
  line: StoreLineItem;
  lineId: string;
  hpSKU: string;
  quantity: number;
  pdfUrl: string;
  hpAdditionData: HpAdditionData;
}

/** attributes (name/value list) → the component's attributes object. */
export function attributesOf(extra: HpAdditionData | undefined): Record<string, string> | undefined {
  const list = extra?.attributes ?? [];
  if (!list.length) return undefined;
  return Object.fromEntries(list.map((a) => [a.name, a.value]));
}

export function buildOrderBody(input: { sourceOrderId: string; order: StoreOrder; lines: MappedLine[]; settings: HpSettings; postbackAddress?: string }): HpOrderBody {
  const shipTo = shipToOf(input.order);
  if (!shipTo) throw new Error('The order has no shipping address');
  const stock = new Map<string, { code: string; name: string; quantity: number }>();
  const items: HpItem[] = input.lines.map((l) => {
    for (const st of l.hpAdditionData.stockItems ?? []) {
      const prev = stock.get(st.code);
      stock.set(st.code, { code: st.code, name: st.name || prev?.name || '', quantity: (prev?.quantity ?? 0) + st.quantity * l.quantity });
    }
    const attributes = attributesOf(l.hpAdditionData);
    return {
      sourceItemId: l.lineId,
      sku: l.hpSKU,
      quantity: l.quantity,
      shipmentIndex: 0,
      components: [{ code: l.hpAdditionData.componentCode || COMPONENT_CODE, path: l.pdfUrl, fetch: true, ...(attributes ? { attributes } : {}) }],
    };
  });
  const body: HpOrderBody = {
    destination: { name: input.settings.destination },
    orderData: {
      sourceOrderId: input.sourceOrderId,
      customerName: customerNameOf(input.order),
      items,
      shipments: [{ shipTo, carrier: { alias: input.settings.carrierAlias } }],
    },
  };
  if (input.postbackAddress) body.orderData.postbackAddress = input.postbackAddress;
  if (stock.size) body.orderData.stockItems = [...stock.values()];
  return body;
}

/** The manual form (spec §3, §5): no validation, quantity made a number. */
export interface ManualInput {
  orderData: { sourceOrderId: string; customerName: string };
  items: Array<{ pdfUrl: string; sku: string; quantity: number; sourceItemId: string }>;
  shipTo: { name: string; address1: string; address2: string; town: string; isoCountry: string; postcode: string };
}

export function buildManualBody(input: ManualInput, settings: HpSettings): HpOrderBody {
  return {
    destination: { name: settings.destination },
    orderData: {
      sourceOrderId: input.orderData.sourceOrderId,
      customerName: input.orderData.customerName,
      items: input.items.map((i) => ({
        sourceItemId: i.sourceItemId,
        sku: i.sku,
        quantity: i.quantity,
        shipmentIndex: 0,
        components: [{ code: COMPONENT_CODE, path: i.pdfUrl, fetch: true }],
      })),
      shipments: [{ shipTo: { ...input.shipTo }, carrier: { alias: settings.carrierAlias } }],
    },
  };
}
