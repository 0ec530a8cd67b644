// Missed orders, pulled from the store's Admin GraphQL API: the query documents (every field the
// webhook ingest path reads of an Order — shopify.ts normaliseOrder — and nothing else), and the
// GraphQL Order in the webhook's REST shape, so a pulled order goes through the same ingest as a
// delivered one and is stored the same. Field meanings per Shopify's Admin GraphQL reference:
// ids are `legacyResourceId` (the REST id, int64: kept as text), enums are the REST values upper-cased,
// line items' `customAttributes` are the REST `properties`, DateTime is UTC ISO.

/**
 * A page of orders costs about ORDERS_PAGE × (16 + LINES_PAGE × 4) by Shopify's cost rules (a line
 * is itself, its product, its variant and its attributes): 5 × 25 lines asks ~600 points, under the
 * 1000-point limit on one query (5 × 50 asked 1092 and was refused). An order with more lines is
 * completed by ORDER_LINES_QUERY.
 */
export const ORDERS_PAGE = 5;
export const LINES_PAGE = 25;

const LINE_FIELDS = `fragment PressworkLine on LineItem {
  id
  name
  title
  sku
  quantity
  currentQuantity
  unfulfilledQuantity
  customAttributes { key value }
  product { legacyResourceId }
  variant { legacyResourceId }
}`;

const ADDRESS_FIELDS = `fragment PressworkAddress on MailingAddress {
  name
  company
  firstName
  lastName
  address1
  address2
  city
  zip
  province
  provinceCode
  country
  countryCodeV2
  phone
}`;

/** `orders(first, after, query: "updated_at:>'<ISO>'")`, oldest change first, with cursor paging. */
export const ORDERS_QUERY = `query PressworkOrdersSince($first: Int!, $after: String, $query: String!, $lines: Int!) {
  orders(first: $first, after: $after, query: $query, sortKey: UPDATED_AT) {
    pageInfo { hasNextPage endCursor }
    nodes {
      id
      legacyResourceId
      name
      number
      email
      createdAt
      updatedAt
      cancelledAt
      cancelReason
      displayFinancialStatus
      displayFulfillmentStatus
      processedAt
      customerAcceptsMarketing
      tags
      sourceName
      totalPriceSet { shopMoney { amount } }
      customer { legacyResourceId firstName lastName defaultEmailAddress { emailAddress marketingState marketingOptInLevel marketingUpdatedAt } }
      shippingAddress { ...PressworkAddress }
      billingAddress { ...PressworkAddress }
      shippingLines(first: 10) { nodes { title code } }
      lineItems(first: $lines) { pageInfo { hasNextPage endCursor } nodes { ...PressworkLine } }
    }
  }
}
${ADDRESS_FIELDS}
${LINE_FIELDS}`;

/** The rest of an order's lines, after the first page. */
export const ORDER_LINES_QUERY = `query PressworkOrderLines($id: ID!, $after: String, $lines: Int!) {
  order(id: $id) {
    lineItems(first: $lines, after: $after) { pageInfo { hasNextPage endCursor } nodes { ...PressworkLine } }
  }
}
${LINE_FIELDS}`;

/** Shopify's search syntax for "changed after": `updated_at:>'2026-11-25T10:00:00Z'`. */
export const updatedSinceQuery = (sinceIso: string) => `updated_at:>'${new Date(sinceIso).toISOString().replace(/\.\d{3}Z$/, 'Z')}'`;

export interface PageInfo {
  hasNextPage: boolean;
  endCursor: string | null;
}

export interface GraphqlLineItem {
  id: string;
  name: string | null;
  title: string | null;
  sku: string | null;
  quantity: number;
  currentQuantity: number | null;
  unfulfilledQuantity?: number | null;
  customAttributes: Array<{ key: string; value: string | null }> | null;
  product: { legacyResourceId: string | number } | null;
  variant: { legacyResourceId: string | number } | null;
}

export interface GraphqlAddress {
  name?: string | null;
  company?: string | null;
  firstName?: string | null;
  lastName?: string | null;
  address1?: string | null;
  address2?: string | null;
  city?: string | null;
  zip?: string | null;
  province?: string | null;
  provinceCode?: string | null;
  country?: string | null;
  countryCodeV2?: string | null;
  phone?: string | null;
}

export interface GraphqlOrder {
  id: string;
  legacyResourceId: string | number;
  name: string;
  number: number | null;
  email: string | null;
  createdAt: string | null;
  updatedAt: string | null;
  cancelledAt: string | null;
  cancelReason: string | null;
  displayFinancialStatus: string | null;
  displayFulfillmentStatus: string | null;
  processedAt?: string | null;
  customerAcceptsMarketing?: boolean | null;
  /** What routing rules read, as the webhook's REST order carries them. */
  tags?: string[] | null;
  sourceName?: string | null;
  totalPriceSet?: { shopMoney: { amount: string } } | null;
  customer: {
    legacyResourceId: string | number;
    firstName: string | null;
    lastName: string | null;
    defaultEmailAddress: { emailAddress: string | null; marketingState?: string | null; marketingOptInLevel?: string | null; marketingUpdatedAt?: string | null } | null;
  } | null;
  shippingAddress: GraphqlAddress | null;
  billingAddress?: GraphqlAddress | null;
  shippingLines: { nodes: Array<{ title: string | null; code: string | null }> } | null;
  lineItems: { pageInfo?: PageInfo; nodes: GraphqlLineItem[] };
}

export interface OrdersPage {
  orders: { pageInfo: PageInfo; nodes: GraphqlOrder[] };
}

export interface OrderLinesPage {
  order: { lineItems: { pageInfo: PageInfo; nodes: GraphqlLineItem[] } } | null;
}

/** A REST id from a legacyResourceId (UnsignedInt64: a string, or a number when small), or from a gid's tail. */
export function legacyId(v: string | number | null | undefined): string | null {
  if (v === null || v === undefined) return null;
  const s = String(v).trim();
  const tail = /^gid:\/\/shopify\/\w+\/(\d+)(\?.*)?$/.exec(s)?.[1] ?? s;
  return /^\d{1,20}$/.test(tail) ? tail : null;
}

const lower = (v: string | null | undefined) => (v ? v.toLowerCase() : null);

/** displayFulfillmentStatus in REST's fulfillment_status words (null: nothing fulfilled yet). */
function fulfillmentStatus(v: string | null | undefined): string | null {
  switch (v) {
    case 'FULFILLED':
      return 'fulfilled';
    case 'PARTIALLY_FULFILLED':
      return 'partial';
    case 'RESTOCKED':
      return 'restocked';
    default:
      return null;
  }
}

function address(a: GraphqlAddress | null | undefined) {
  if (!a) return null;
  return {
    name: a.name ?? null,
    company: a.company ?? null,
    first_name: a.firstName ?? null,
    last_name: a.lastName ?? null,
    address1: a.address1 ?? null,
    address2: a.address2 ?? null,
    city: a.city ?? null,
    zip: a.zip ?? null,
    province: a.province ?? null,
    province_code: a.provinceCode ?? null,
    country: a.country ?? null,
    country_code: a.countryCodeV2 ?? null,
    phone: a.phone ?? null,
  };
}

function line(l: GraphqlLineItem) {
  return {
    id: legacyId(l.id),
    name: l.name,
    title: l.title,
    product_id: legacyId(l.product?.legacyResourceId),
    variant_id: legacyId(l.variant?.legacyResourceId),
    sku: l.sku,
    quantity: l.quantity,
    current_quantity: l.currentQuantity,
    fulfillable_quantity: l.unfulfilledQuantity ?? l.currentQuantity,
    fulfillment_status: lineFulfillmentStatus(l),
    properties: (l.customAttributes ?? []).map((a) => ({ name: a.key, value: a.value ?? '' })),
  };
}

/**
 * REST's per-line fulfillment_status (null, "partial", "fulfilled") from the current fields
 * (LineItem.fulfillmentStatus is deprecated): a pulled order must tell a line fulfilled by hand in
 * the store just as its webhook does, so its tracking is not written again.
 */
function lineFulfillmentStatus(l: GraphqlLineItem): string | null {
  const current = l.currentQuantity ?? l.quantity ?? 0;
  const unfulfilled = l.unfulfilledQuantity ?? current;
  if (current <= 0 || unfulfilled >= current) return null;
  return unfulfilled === 0 ? 'fulfilled' : 'partial';
}

/** The GraphQL Order as a webhook's REST Order (`lines`: all its line items, when more than the first page). */
export function storeOrderFromGraphql(o: GraphqlOrder, lines: GraphqlLineItem[] = o.lineItems.nodes) {
  const customer = o.customer;
  return {
    id: legacyId(o.legacyResourceId) ?? legacyId(o.id),
    admin_graphql_api_id: o.id,
    name: o.name,
    order_number: o.number,
    email: o.email,
    created_at: o.createdAt,
    updated_at: o.updatedAt,
    cancelled_at: o.cancelledAt,
    cancel_reason: lower(o.cancelReason),
    financial_status: lower(o.displayFinancialStatus),
    fulfillment_status: fulfillmentStatus(o.displayFulfillmentStatus),
    processed_at: o.processedAt ?? null,
    buyer_accepts_marketing: o.customerAcceptsMarketing ?? null,
    tags: o.tags ? o.tags.join(', ') : null,
    source_name: o.sourceName ?? null,
    total_price: o.totalPriceSet?.shopMoney.amount ?? null,
    customer: customer
      ? {
          id: legacyId(customer.legacyResourceId),
          first_name: customer.firstName,
          last_name: customer.lastName,
          email: customer.defaultEmailAddress?.emailAddress ?? null,
          // The webhook's email_marketing_consent, from the address's marketing fields (the CRM consent follows it).
          ...(customer.defaultEmailAddress?.marketingState
            ? { email_marketing_consent: { state: lower(customer.defaultEmailAddress.marketingState), opt_in_level: lower(customer.defaultEmailAddress.marketingOptInLevel ?? null), consent_updated_at: customer.defaultEmailAddress.marketingUpdatedAt ?? null } }
            : {}),
        }
      : null,
    line_items: lines.map(line),
    shipping_address: address(o.shippingAddress),
    billing_address: address(o.billingAddress ?? null),
    shipping_lines: (o.shippingLines?.nodes ?? []).map((s) => ({ title: s.title, code: s.code })),
  };
}

export type RestOrder = ReturnType<typeof storeOrderFromGraphql>;
