// A loopback Shopify Admin GraphQL API (docs/connect-shopify.md), written from
// shopify.dev (GraphQL Admin reference, "API rate limits", "Response codes") and executed by
// graphql-js against a subset of the published 2026-07 schema (./shopifyAdminSchema.graphql.ts).
// - POST /admin/api/{version}/graphql.json, X-Shopify-Access-Token checked (401 otherwise).
// - Cost-based throttling: a leaky bucket for the shop, requested cost computed statically by
//   Shopify's documented rules, refunded down to the actual cost after execution; over budget →
//   `errors[{message: 'Throttled', extensions: {code: 'THROTTLED', documentation}}]`.
// - Orders made from the REST Orders the webhook simulator sends (`fakeOrder`), each with one
//   fulfillment order holding its lines; fulfillmentCreate with Shopify's userErrors.
// - Webhook subscriptions (uri; the deprecated callbackUrl too).
// Time goes through `now` so tests never sleep. Details nothing public says are options, marked
// (ours) in docs/connect-shopify.md.
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import express, { type ErrorRequestHandler, type Request, type Response } from 'express';
import {
  GraphQLError,
  Kind,
  buildSchema,
  execute,
  getNamedType,
  getNullableType,
  isAbstractType,
  isLeafType,
  isListType,
  isObjectType,
  parse,
  validate,
  type DocumentNode,
  type FragmentDefinitionNode,
  type FieldNode,
  type GraphQLEnumType,
  type GraphQLObjectType,
  type GraphQLOutputType,
  type OperationDefinitionNode,
  type SelectionSetNode,
  type ValueNode,
} from 'graphql';
import { ADMIN_SDL } from './shopifyAdminSchema.graphql';
import type { FakeOrder, ShopifySender } from './shopify';
import { DEFAULT_APP_SCOPES, createShopifyOAuthSim, type ShopifyAppOptions, type TokenLifetimes } from './shopifyOAuth';

// ---------------------------------------------------------------------------------------------
// Options and state

export interface ShopifyAdminSimOptions {
  /** A legacy custom app's static Admin API access token (shpat_…) the simulator accepts. */
  accessToken?: string;
  /** The Dev Dashboard app installed on the store: its tokens come from /admin/oauth/access_token. */
  app?: ShopifyAppOptions;
  /** Token lifetimes (Shopify's by default; short ones for tests). */
  lifetimes?: Partial<TokenLifetimes>;
  /** The static token's scopes (default: what Presswork needs). */
  scopes?: string[];
  shopDomain?: string;
  shopName?: string;
  /** Bucket size (default 2000) and restore rate in points/second (default 100: Shopify's Standard plan). */
  maximumAvailable?: number;
  restoreRate?: number;
  /** HTTP status of a THROTTLED answer: 200 (what Shopify's GraphQL docs show; default) or 429. */
  throttledStatus?: 200 | 429;
  /** Wall clock in ms (tests inject one; the bucket restores by it). */
  now?: () => number;
  /** When set, a fulfilment sends orders/fulfilled (or orders/partially_fulfilled) and orders/updated through it. */
  webhookSender?: ShopifySender;
  /** Refuse subscription URIs that are not https:// (Shopify does; default false so loopback demos work). */
  requireHttpsUris?: boolean;
}

export interface SimFulfillmentOrderLine {
  id: string;
  lineItemId: string;
  totalQuantity: number;
  remainingQuantity: number;
}

export type SimFulfillmentOrderStatus = 'OPEN' | 'IN_PROGRESS' | 'CLOSED' | 'CANCELLED' | 'ON_HOLD' | 'INCOMPLETE' | 'SCHEDULED';

export interface SimFulfillmentHold {
  id: string;
  handle: string;
  reason: string;
  reasonNotes: string | null;
}

export interface SimFulfillmentOrder {
  id: string;
  orderId: string;
  status: SimFulfillmentOrderStatus;
  createdAt: string;
  updatedAt: string;
  lines: SimFulfillmentOrderLine[];
  /** Holds placed with fulfillmentOrderHold (all by the one app the simulator knows): the order is ON_HOLD while any is. */
  holds: SimFulfillmentHold[];
}

/** The scopes that let an app hold and release merchant-managed fulfillment orders (shopify.dev, fulfillmentOrderHold). */
export const HOLD_SCOPES = ['write_merchant_managed_fulfillment_orders', 'write_third_party_fulfillment_orders'];

export interface SimFulfillment {
  id: string;
  orderId: string;
  status: 'SUCCESS' | 'CANCELLED';
  createdAt: string;
  notifyCustomer: boolean;
  /** Who made it: the API (a fulfillmentCreate) or a person in the Shopify admin (markFulfilled). */
  source: 'api' | 'admin';
  trackingInfo: Array<{ number: string | null; url: string | null; company: string | null }>;
  lines: Array<{ id: string; fulfillmentOrderId: string; fulfillmentOrderLineItemId: string; lineItemId: string; quantity: number }>;
}

export interface SimWebhookSubscription {
  id: string;
  topic: string;
  uri: string;
  format: 'JSON' | 'XML';
  filter: string | null;
  includeFields: string[];
  name: string | null;
  apiVersion: string;
  createdAt: string;
  updatedAt: string;
}

export interface SimUserError {
  field: string[] | null;
  message: string;
}

export interface AdminCall {
  version: string;
  status: number | 'dropped';
  operation: 'query' | 'mutation' | null;
  /** Top-level fields asked for (e.g. ['orders'], ['fulfillmentCreate']). */
  fields: string[];
  variables: Record<string, unknown>;
  requestedQueryCost: number | null;
  throttled: boolean;
}

interface StoredOrder {
  rest: FakeOrder;
  fulfillmentOrders: SimFulfillmentOrder[];
  fulfillments: SimFulfillment[];
}

export const THROTTLE_DOCUMENTATION = 'https://shopify.dev/api/usage/rate-limits';
/** Shopify's answer to a missing or wrong access token (HTTP 401). */
export const INVALID_TOKEN_BODY = { errors: '[API] Invalid API key or access token (unrecognized login or wrong password)' };
/** No single query may cost more than this (shopify.dev "API rate limits"). */
export const MAX_QUERY_COST = 1000;
/** The most a connection's first/last may ask for. */
export const MAX_PAGE_SIZE = 250;

const gid = (type: string, id: string | number) => `gid://shopify/${type}/${id}`;
const legacyOf = (id: string) => id.slice(id.lastIndexOf('/') + 1);
const upper = (s: string | null | undefined) => (s ? s.toUpperCase() : null);

/** The documented cost rules: scalars and enums 0, objects 1, connections 2 + first × a node's cost, mutations 10. */
export function requestedCost(schema: ReturnType<typeof buildSchema>, document: DocumentNode, variables: Record<string, unknown>, operationName?: string): number {
  const op = pickOperation(document, operationName);
  if (!op) return 0;
  const fragments = fragmentsOf(document);
  if (op.operation === 'mutation') return op.selectionSet.selections.filter((s) => s.kind === Kind.FIELD && !s.name.value.startsWith('__')).length * 10;
  const root = op.operation === 'query' ? schema.getQueryType() : null;
  return root ? selectionCost(schema, root, op.selectionSet, fragments, variables) : 0;
}

function pickOperation(document: DocumentNode, operationName?: string): OperationDefinitionNode | undefined {
  const ops = document.definitions.filter((d): d is OperationDefinitionNode => d.kind === Kind.OPERATION_DEFINITION);
  return operationName ? ops.find((o) => o.name?.value === operationName) : ops[0];
}

function fragmentsOf(document: DocumentNode): Map<string, FragmentDefinitionNode> {
  return new Map(document.definitions.filter((d): d is FragmentDefinitionNode => d.kind === Kind.FRAGMENT_DEFINITION).map((f) => [f.name.value, f]));
}

function argValue(node: ValueNode | undefined, variables: Record<string, unknown>): unknown {
  if (!node) return undefined;
  if (node.kind === Kind.VARIABLE) return variables[node.name.value];
  if (node.kind === Kind.INT) return Number(node.value);
  if (node.kind === Kind.STRING || node.kind === Kind.ENUM) return node.value;
  if (node.kind === Kind.BOOLEAN) return node.value;
  return undefined;
}

/** The fields a selection set asks of `type`, fragments spread in (those that apply to it). */
function fieldsFor(schema: ReturnType<typeof buildSchema>, type: GraphQLObjectType, set: SelectionSetNode, fragments: Map<string, FragmentDefinitionNode>) {
  const out: FieldNode[] = [];
  const applies = (name: string | undefined) => !name || name === type.name || type.getInterfaces().some((i) => i.name === name) || (schema.getType(name) && isAbstractType(schema.getType(name)!) && schema.isSubType(schema.getType(name) as never, type));
  const walk = (s: SelectionSetNode) => {
    for (const sel of s.selections) {
      if (sel.kind === Kind.FIELD) out.push(sel);
      else if (sel.kind === Kind.INLINE_FRAGMENT) {
        if (applies(sel.typeCondition?.name.value)) walk(sel.selectionSet);
      } else {
        const f = fragments.get(sel.name.value);
        if (f && applies(f.typeCondition.name.value)) walk(f.selectionSet);
      }
    }
  };
  walk(set);
  return out;
}

function objectTypesOf(schema: ReturnType<typeof buildSchema>, type: GraphQLOutputType): GraphQLObjectType[] {
  const named = getNamedType(type);
  if (isObjectType(named)) return [named];
  if (isAbstractType(named)) return [...schema.getPossibleTypes(named)];
  return [];
}

const isConnection = (type: GraphQLOutputType) => getNamedType(type).name.endsWith('Connection');

function selectionCost(schema: ReturnType<typeof buildSchema>, type: GraphQLObjectType, set: SelectionSetNode, fragments: Map<string, FragmentDefinitionNode>, variables: Record<string, unknown>): number {
  let total = 0;
  for (const field of fieldsFor(schema, type, set, fragments)) {
    const def = type.getFields()[field.name.value];
    if (!def || isLeafType(getNamedType(def.type)) || !field.selectionSet) continue;
    if (isConnection(def.type)) {
      const arg = (n: string) => argValue(field.arguments?.find((a) => a.name.value === n)?.value, variables);
      const size = Number(arg('first') ?? arg('last') ?? 0) || 0;
      const conn = getNamedType(def.type) as GraphQLObjectType;
      total += 2 + size * nodeCost(schema, conn, field.selectionSet, fragments, variables);
      continue;
    }
    const costs = objectTypesOf(schema, def.type).map((t) => selectionCost(schema, t, field.selectionSet!, fragments, variables));
    total += 1 + Math.max(0, ...costs);
  }
  return total;
}

/** The cost of one item of a connection: its node (1 + what is selected of it), asked through edges.node or nodes. */
function nodeCost(schema: ReturnType<typeof buildSchema>, conn: GraphQLObjectType, set: SelectionSetNode, fragments: Map<string, FragmentDefinitionNode>, variables: Record<string, unknown>): number {
  let cost = 0;
  for (const field of fieldsFor(schema, conn, set, fragments)) {
    if (!field.selectionSet) continue;
    if (field.name.value === 'nodes') {
      const nodeType = getNamedType(conn.getFields().nodes.type) as GraphQLObjectType;
      cost += 1 + selectionCost(schema, nodeType, field.selectionSet, fragments, variables);
    } else if (field.name.value === 'edges') {
      const edgeType = getNamedType(conn.getFields().edges.type) as GraphQLObjectType;
      for (const ef of fieldsFor(schema, edgeType, field.selectionSet, fragments)) {
        if (ef.name.value !== 'node' || !ef.selectionSet) continue;
        const nodeType = getNamedType(edgeType.getFields().node.type) as GraphQLObjectType;
        cost += 1 + selectionCost(schema, nodeType, ef.selectionSet, fragments, variables);
      }
    }
  }
  return cost;
}

/** The actual cost: the same rules over what was returned (connections count the items they hold; a null object costs its own point only). */
function actualCost(schema: ReturnType<typeof buildSchema>, type: GraphQLObjectType, set: SelectionSetNode, fragments: Map<string, FragmentDefinitionNode>, data: Record<string, unknown> | null | undefined): number {
  if (!data) return 0;
  let total = 0;
  for (const field of fieldsFor(schema, type, set, fragments)) {
    const def = type.getFields()[field.name.value];
    if (!def || isLeafType(getNamedType(def.type)) || !field.selectionSet) continue;
    const value = data[field.alias?.value ?? field.name.value];
    if (isConnection(def.type)) {
      const conn = getNamedType(def.type) as GraphQLObjectType;
      total += 2;
      for (const cf of fieldsFor(schema, conn, field.selectionSet, fragments)) {
        const items = (value as Record<string, unknown> | null)?.[cf.alias?.value ?? cf.name.value];
        if (!Array.isArray(items) || !cf.selectionSet) continue;
        if (cf.name.value === 'nodes') {
          const nodeType = getNamedType(conn.getFields().nodes.type) as GraphQLObjectType;
          for (const item of items) total += 1 + actualCost(schema, nodeType, cf.selectionSet, fragments, item as Record<string, unknown>);
        } else if (cf.name.value === 'edges') {
          const edgeType = getNamedType(conn.getFields().edges.type) as GraphQLObjectType;
          const nodeType = getNamedType(edgeType.getFields().node.type) as GraphQLObjectType;
          for (const ef of fieldsFor(schema, edgeType, cf.selectionSet, fragments)) {
            if (ef.name.value !== 'node' || !ef.selectionSet) continue;
            for (const edge of items) total += 1 + actualCost(schema, nodeType, ef.selectionSet, fragments, (edge as Record<string, unknown>)[ef.alias?.value ?? 'node'] as Record<string, unknown>);
          }
        }
      }
      continue;
    }
    const items = isListType(getNullableType(def.type)) ? ((value as unknown[] | null) ?? []) : [value];
    let child = 0;
    for (const item of items) {
      if (!item || typeof item !== 'object') continue;
      const t = (item as { __typename?: string }).__typename;
      const types = objectTypesOf(schema, def.type).filter((ot) => !t || ot.name === t);
      for (const ot of types) child = Math.max(child, actualCost(schema, ot, field.selectionSet, fragments, item as Record<string, unknown>));
    }
    total += 1 + child;
  }
  return total;
}

// ---------------------------------------------------------------------------------------------
// The simulator

export function createShopifyAdminSimulator(options: ShopifyAdminSimOptions) {
  const schema = buildSchema(ADMIN_SDL);
  const now = options.now ?? (() => Date.now());
  const iso = () => new Date(now()).toISOString();
  const shopDomain = options.shopDomain ?? 'presswork-demo.myshopify.com';
  const settings = {
    accessToken: options.accessToken,
    throttledStatus: options.throttledStatus ?? 200,
    requireHttpsUris: options.requireHttpsUris ?? false,
    webhookSender: options.webhookSender,
  };
  const oauth = createShopifyOAuthSim({ shopDomain, shopName: options.shopName ?? 'Presswork Demo Store', app: options.app, now, lifetimes: options.lifetimes });
  /** The scopes of the token a request carries, or undefined when the store does not take it. */
  const scopesOfToken = (token: string | undefined) => (token && settings.accessToken && token === settings.accessToken ? (options.scopes ?? DEFAULT_APP_SCOPES) : oauth.accessTokenScopes(token));
  let requestScopes: string[] = [];
  const bucket = { maximumAvailable: options.maximumAvailable ?? 2000, restoreRate: options.restoreRate ?? 100, available: options.maximumAvailable ?? 2000, at: now() };
  const orders = new Map<string, StoredOrder>();
  const subscriptions: SimWebhookSubscription[] = [];
  const calls: AdminCall[] = [];
  const webhookSends = new Set<Promise<unknown>>();
  const faults = {
    nextFulfillmentCreate: [] as Array<{ userErrors: SimUserError[] } | 'throttled'>,
    throttleNext: 0,
    /** Drop the connection: `before` doing anything, or `after` the operation ran (its effect landed, no answer). */
    drops: [] as Array<'before' | 'after'>,
  };
  let seq = 0;
  const nextId = (base: number) => String(base * 1_000_000_000 + ++seq);

  // -- the bucket --------------------------------------------------------------------------
  function restore() {
    const t = now();
    bucket.available = Math.min(bucket.maximumAvailable, bucket.available + ((t - bucket.at) / 1000) * bucket.restoreRate);
    bucket.at = t;
  }
  const throttleStatus = () => ({ maximumAvailable: bucket.maximumAvailable, currentlyAvailable: Math.floor(bucket.available), restoreRate: bucket.restoreRate });

  // -- orders ------------------------------------------------------------------------------
  function fulfillmentOrderFor(rest: FakeOrder): SimFulfillmentOrder {
    const lines = rest.line_items
      .filter((l) => l.current_quantity > 0)
      .map((l) => {
        const remaining = l.fulfillment_status === 'fulfilled' ? 0 : Math.min(l.current_quantity, l.fulfillable_quantity ?? l.current_quantity);
        return { id: nextId(7_200), lineItemId: l.id, totalQuantity: l.current_quantity, remainingQuantity: remaining };
      });
    const fo: SimFulfillmentOrder = { id: nextId(7_100), orderId: rest.id, status: 'OPEN', createdAt: rest.created_at, updatedAt: rest.updated_at, lines, holds: [] };
    fo.status = rest.cancelled_at ? 'CLOSED' : foStatus(fo);
    return fo;
  }

  function foStatus(fo: SimFulfillmentOrder): SimFulfillmentOrderStatus {
    if (fo.holds.length) return 'ON_HOLD';
    const remaining = fo.lines.reduce((s, l) => s + l.remainingQuantity, 0);
    const total = fo.lines.reduce((s, l) => s + l.totalQuantity, 0);
    if (remaining === 0) return 'CLOSED';
    return remaining < total ? 'IN_PROGRESS' : 'OPEN';
  }

  function orderOf(id: string): StoredOrder {
    const o = orders.get(legacyOf(String(id)));
    if (!o) throw new Error(`shopify admin simulator: no order ${id}`);
    return o;
  }

  /** Keeps the REST order (what webhooks carry) in step with the fulfilment state. */
  function syncRest(o: StoredOrder, touch = true) {
    const remaining = new Map<string, number>();
    for (const fo of o.fulfillmentOrders) for (const l of fo.lines) remaining.set(l.lineItemId, (remaining.get(l.lineItemId) ?? 0) + l.remainingQuantity);
    const lineItems = o.rest.line_items.map((l) => {
      const left = remaining.get(l.id) ?? 0;
      const status = l.current_quantity === 0 ? l.fulfillment_status : left === 0 ? 'fulfilled' : left < l.current_quantity ? 'partial' : null;
      return { ...l, fulfillable_quantity: left, fulfillment_status: status };
    });
    const open = lineItems.filter((l) => l.current_quantity > 0);
    const allDone = open.length > 0 && open.every((l) => l.fulfillment_status === 'fulfilled');
    const some = open.some((l) => l.fulfillment_status !== null);
    o.rest = {
      ...o.rest,
      line_items: lineItems,
      fulfillment_status: allDone ? 'fulfilled' : some ? 'partial' : null,
      fulfillments: o.fulfillments.map((f) => restFulfillment(o, f)),
      updated_at: touch ? iso() : o.rest.updated_at,
    };
  }

  function restFulfillment(o: StoredOrder, f: SimFulfillment) {
    const first = f.trackingInfo[0];
    return {
      id: legacyOf(f.id),
      admin_graphql_api_id: f.id,
      order_id: o.rest.id,
      status: f.status.toLowerCase(),
      created_at: f.createdAt,
      tracking_company: first?.company ?? null,
      tracking_number: first?.number ?? null,
      tracking_numbers: f.trackingInfo.map((t) => t.number).filter(Boolean),
      tracking_url: first?.url ?? null,
      tracking_urls: f.trackingInfo.map((t) => t.url).filter(Boolean),
      line_items: f.lines.map((l) => ({ ...o.rest.line_items.find((li) => li.id === l.lineItemId), quantity: l.quantity })),
    };
  }

  function displayFulfillmentStatus(o: StoredOrder) {
    const lines = o.fulfillmentOrders.flatMap((fo) => fo.lines);
    const remaining = lines.reduce((s, l) => s + l.remainingQuantity, 0);
    const total = lines.reduce((s, l) => s + l.totalQuantity, 0);
    if (total > 0 && remaining === 0) return 'FULFILLED';
    return remaining < total ? 'PARTIALLY_FULFILLED' : 'UNFULFILLED';
  }

  // -- GraphQL views ------------------------------------------------------------------------
  function connection<T>(items: T[], args: { first?: number | null; last?: number | null; after?: string | null; before?: string | null; reverse?: boolean | null }, keyOf: (item: T) => string, view: (item: T) => unknown) {
    if (args.first == null && args.last == null) throw new GraphQLError('you must provide one of first or last');
    const size = args.first ?? args.last ?? 0;
    if (size > MAX_PAGE_SIZE) throw new GraphQLError(`The maximum page size is ${MAX_PAGE_SIZE}.`);
    const list = args.reverse ? [...items].reverse() : items;
    const cursorOf = (item: T) => Buffer.from(JSON.stringify({ last_id: keyOf(item) })).toString('base64url');
    const indexOf = (cursor: string | null | undefined) => (cursor ? list.findIndex((item) => cursorOf(item) === cursor) : -1);
    let start = 0;
    let end = list.length;
    if (args.after) {
      const i = indexOf(args.after);
      if (i < 0) throw new GraphQLError('Invalid cursor for current pagination sort.');
      start = i + 1;
    }
    if (args.before) {
      const i = indexOf(args.before);
      if (i < 0) throw new GraphQLError('Invalid cursor for current pagination sort.');
      end = i;
    }
    let page = list.slice(start, end);
    let hasNextPage = false;
    let hasPreviousPage = start > 0;
    if (args.first != null) {
      hasNextPage = page.length > args.first || end < list.length;
      page = page.slice(0, args.first);
    } else if (args.last != null) {
      hasPreviousPage = page.length > args.last || start > 0;
      page = page.slice(Math.max(0, page.length - args.last));
      hasNextPage = end < list.length;
    }
    const edges = page.map((item) => ({ cursor: cursorOf(item), node: view(item) }));
    return {
      edges,
      nodes: edges.map((e) => e.node),
      pageInfo: { hasNextPage, hasPreviousPage, startCursor: edges[0]?.cursor ?? null, endCursor: edges.at(-1)?.cursor ?? null },
    };
  }

  const money = (amount: string, currency: string) => {
    const m = { amount, currencyCode: currency };
    return { shopMoney: m, presentmentMoney: m };
  };

  function lineItemView(o: StoredOrder, lineId: string) {
    const l = o.rest.line_items.find((li) => li.id === lineId)!;
    const remaining = o.fulfillmentOrders.flatMap((fo) => fo.lines).filter((fl) => fl.lineItemId === l.id).reduce((s, fl) => s + fl.remainingQuantity, 0);
    const product = { id: gid('Product', l.product_id), legacyResourceId: l.product_id, title: l.title, vendor: options.shopName ?? 'Presswork Demo Store', createdAt: o.rest.created_at, updatedAt: o.rest.created_at };
    return {
      id: l.admin_graphql_api_id ?? gid('LineItem', l.id),
      name: l.name,
      title: l.title,
      sku: l.sku || null,
      vendor: null,
      quantity: l.quantity,
      currentQuantity: l.current_quantity,
      unfulfilledQuantity: remaining,
      nonFulfillableQuantity: l.quantity - l.current_quantity,
      customAttributes: (l.properties ?? []).map((p) => ({ key: p.name, value: p.value })),
      originalUnitPriceSet: money(l.price, o.rest.currency),
      variant: l.variant_id ? { id: gid('ProductVariant', l.variant_id), legacyResourceId: l.variant_id, sku: l.sku || null, title: 'Default Title', displayName: `${l.title} - Default Title`, product, createdAt: o.rest.created_at, updatedAt: o.rest.created_at } : null,
      product: l.product_id ? product : null,
    };
  }

  function fulfillmentOrderView(o: StoredOrder, fo: SimFulfillmentOrder): Record<string, unknown> {
    return {
      id: gid('FulfillmentOrder', fo.id),
      orderId: gid('Order', o.rest.id),
      orderName: o.rest.name,
      order: () => orderView(o),
      status: fo.status,
      requestStatus: 'UNSUBMITTED',
      createdAt: fo.createdAt,
      updatedAt: fo.updatedAt,
      fulfillAt: null,
      fulfillmentHolds: fo.holds.map(holdView),
      lineItems: (args: Parameters<typeof connection>[1]) =>
        connection(fo.lines, args, (l) => l.id, (l) => ({ id: gid('FulfillmentOrderLineItem', l.id), sku: lineItemView(o, l.lineItemId).sku, remainingQuantity: l.remainingQuantity, totalQuantity: l.totalQuantity, lineItem: lineItemView(o, l.lineItemId), variant: lineItemView(o, l.lineItemId).variant })),
    };
  }

  const holdView = (h: SimFulfillmentHold) => ({ id: h.id, handle: h.handle, reason: h.reason, reasonNotes: h.reasonNotes, heldByRequestingApp: true, displayReason: h.reason === 'OTHER' ? 'Other' : h.reason.charAt(0) + h.reason.slice(1).toLowerCase().replace(/_/g, ' ') });

  function fulfillmentView(o: StoredOrder, f: SimFulfillment): Record<string, unknown> {
    return {
      id: f.id,
      legacyResourceId: legacyOf(f.id),
      name: `${o.rest.name}-F${o.fulfillments.indexOf(f) + 1}`,
      status: f.status,
      createdAt: f.createdAt,
      updatedAt: f.createdAt,
      totalQuantity: f.lines.reduce((s, l) => s + l.quantity, 0),
      order: () => orderView(o),
      trackingInfo: (args: { first?: number | null }) => (args.first != null ? f.trackingInfo.slice(0, args.first) : f.trackingInfo),
      fulfillmentLineItems: (args: Parameters<typeof connection>[1]) => connection(f.lines, args, (l) => l.id, (l) => ({ id: gid('FulfillmentLineItem', l.id), quantity: l.quantity, lineItem: lineItemView(o, l.lineItemId) })),
      fulfillmentOrders: (args: Parameters<typeof connection>[1]) =>
        connection(
          o.fulfillmentOrders.filter((fo) => f.lines.some((l) => l.fulfillmentOrderId === gid('FulfillmentOrder', fo.id))),
          args,
          (fo) => fo.id,
          (fo) => fulfillmentOrderView(o, fo),
        ),
    };
  }

  const mailingAddress = (orderId: string, n: string, a: FakeOrder['shipping_address']) =>
    a
      ? { id: gid('MailingAddress', `${orderId}${n}`), name: a.name, firstName: a.first_name, lastName: a.last_name, company: a.company, address1: a.address1, address2: a.address2, city: a.city, zip: a.zip, province: a.province, provinceCode: a.province_code, country: a.country, countryCodeV2: a.country_code, phone: a.phone }
      : null;
  const shippingLineView = (l: { title: string; code: string }) => ({ id: null, title: l.title, code: l.code, source: 'shopify', carrierIdentifier: null, phone: null });

  function orderView(o: StoredOrder): Record<string, unknown> {
    const r = o.rest;
    const a = r.shipping_address;
    const financial = upper(r.financial_status);
    const quantity = r.line_items.reduce((s, l) => s + l.quantity, 0);
    const current = r.line_items.reduce((s, l) => s + l.current_quantity, 0);
    const remaining = o.fulfillmentOrders.flatMap((fo) => fo.lines).reduce((s, l) => s + l.remainingQuantity, 0);
    return {
      id: gid('Order', r.id),
      legacyResourceId: r.id,
      name: r.name,
      number: r.order_number,
      createdAt: r.created_at,
      updatedAt: r.updated_at,
      processedAt: r.created_at,
      customerAcceptsMarketing: (r as { buyer_accepts_marketing?: unknown }).buyer_accepts_marketing === true,
      cancelledAt: r.cancelled_at,
      cancelReason: upper(r.cancel_reason),
      closed: false,
      confirmed: true,
      test: false,
      fulfillable: !r.cancelled_at && remaining > 0,
      fullyPaid: r.financial_status === 'paid',
      unpaid: r.financial_status === 'pending' || r.financial_status === 'authorized',
      displayFinancialStatus: financial,
      displayFulfillmentStatus: displayFulfillmentStatus(o),
      email: r.email,
      phone: null,
      note: (r.note as string | undefined) ?? null,
      tags: [],
      sourceName: 'web',
      currencyCode: r.currency,
      totalPriceSet: money(r.total_price, r.currency),
      currentTotalPriceSet: money(r.total_price, r.currency),
      subtotalLineItemsQuantity: quantity,
      currentSubtotalLineItemsQuantity: current,
      customAttributes: ((r.note_attributes as Array<{ name: string; value: string }> | undefined) ?? []).map((n) => ({ key: n.name, value: n.value })),
      customer: r.customer
        ? {
            id: gid('Customer', r.customer.id),
            legacyResourceId: r.customer.id,
            firstName: r.customer.first_name,
            lastName: r.customer.last_name,
            displayName: `${r.customer.first_name} ${r.customer.last_name}`.trim(),
            defaultEmailAddress: r.customer.email ? { emailAddress: r.customer.email, ...emailMarketing(r.customer as { email_marketing_consent?: unknown }) } : null,
            email: r.customer.email,
            createdAt: r.created_at,
            updatedAt: r.updated_at,
          }
        : null,
      shippingAddress: mailingAddress(r.id, '1', a),
      billingAddress: mailingAddress(r.id, '2', (r.billing_address as FakeOrder['shipping_address'] | undefined) ?? null),
      shippingLine: r.shipping_lines?.[0] ? shippingLineView(r.shipping_lines[0]) : null,
      shippingLines: (args: Parameters<typeof connection>[1]) => connection(r.shipping_lines ?? [], args, (l) => `${l.code}:${l.title}`, shippingLineView),
      lineItems: (args: Parameters<typeof connection>[1]) => connection(r.line_items, args, (l) => l.id, (l) => lineItemView(o, l.id)),
      fulfillmentOrders: (args: Parameters<typeof connection>[1]) => connection(o.fulfillmentOrders, args, (fo) => fo.id, (fo) => fulfillmentOrderView(o, fo)),
      fulfillments: (args: { first?: number | null }) => (args.first != null ? o.fulfillments.slice(0, args.first) : o.fulfillments).map((f) => fulfillmentView(o, f)),
    };
  }

  function subscriptionView(s: SimWebhookSubscription) {
    return {
      ...s,
      legacyResourceId: legacyOf(s.id),
      callbackUrl: s.uri,
      endpoint: { __typename: 'WebhookHttpEndpoint', callbackUrl: s.uri },
      apiVersion: { handle: s.apiVersion, displayName: s.apiVersion, supported: true },
    };
  }

  // -- search syntax: updated_at / created_at comparisons (the subset Presswork's reconciliation needs)
  function matchesQuery(o: StoredOrder, query: string | null | undefined): boolean {
    if (!query?.trim()) return true;
    const terms = query.match(/(\w+):(>=|<=|>|<)?('([^']*)'|"([^"]*)"|\S+)/g) ?? [];
    return terms.every((term) => {
      const m = /^(\w+):(>=|<=|>|<)?(?:'([^']*)'|"([^"]*)"|(\S+))$/.exec(term);
      if (!m) return true;
      const [, key, cmp, q1, q2, bare] = m;
      const value = q1 ?? q2 ?? bare ?? '';
      const field = key === 'updated_at' ? o.rest.updated_at : key === 'created_at' ? o.rest.created_at : key === 'processed_at' ? o.rest.created_at : null;
      if (field !== null) {
        const a = Date.parse(field);
        const b = Date.parse(value);
        if (Number.isNaN(b)) return false;
        return cmp === '>' ? a > b : cmp === '>=' ? a >= b : cmp === '<' ? a < b : cmp === '<=' ? a <= b : a === b;
      }
      if (key === 'name') return o.rest.name === value || o.rest.name === `#${value}`;
      if (key === 'id') return o.rest.id === value;
      return true; // other filters are not modelled (ours): they match everything
    });
  }

  function sortOrders(list: StoredOrder[], sortKey: string | null | undefined) {
    const key = sortKey ?? 'PROCESSED_AT';
    const by = (o: StoredOrder): string | number =>
      key === 'UPDATED_AT' ? o.rest.updated_at : key === 'CREATED_AT' || key === 'PROCESSED_AT' ? o.rest.created_at : key === 'ORDER_NUMBER' ? o.rest.order_number : o.rest.id.padStart(20, '0');
    return [...list].sort((a, b) => {
      const x = by(a);
      const y = by(b);
      if (x < y) return -1;
      if (x > y) return 1;
      return a.rest.id.padStart(20, '0') < b.rest.id.padStart(20, '0') ? -1 : 1;
    });
  }

  // -- mutations ---------------------------------------------------------------------------
  interface FulfillmentInputArg {
    lineItemsByFulfillmentOrder: Array<{ fulfillmentOrderId: string; fulfillmentOrderLineItems?: Array<{ id: string; quantity: number }> | null }>;
    notifyCustomer?: boolean | null;
    trackingInfo?: { company?: string | null; number?: string | null; numbers?: string[] | null; url?: string | null; urls?: string[] | null } | null;
  }

  function findFulfillmentOrder(id: string): { o: StoredOrder; fo: SimFulfillmentOrder } | undefined {
    const legacy = legacyOf(id);
    if (!id.startsWith('gid://shopify/FulfillmentOrder/')) return undefined;
    for (const o of orders.values()) {
      const fo = o.fulfillmentOrders.find((f) => f.id === legacy);
      if (fo) return { o, fo };
    }
    return undefined;
  }

  function fulfillmentCreate(args: { fulfillment: FulfillmentInputArg }) {
    const forced = faults.nextFulfillmentCreate.shift();
    if (forced && forced !== 'throttled') return { fulfillment: null, userErrors: forced.userErrors };
    const input = args.fulfillment;
    const userErrors: SimUserError[] = [];
    const field = (...path: Array<string | number>) => ['fulfillment', 'lineItemsByFulfillmentOrder', ...path.map(String)];
    if (!input.lineItemsByFulfillmentOrder.length) return { fulfillment: null, userErrors: [{ field: ['fulfillment', 'lineItemsByFulfillmentOrder'], message: 'Line items by fulfillment order must not be empty.' }] };
    const plan: Array<{ o: StoredOrder; fo: SimFulfillmentOrder; line: SimFulfillmentOrderLine; quantity: number }> = [];
    let order: StoredOrder | undefined;
    input.lineItemsByFulfillmentOrder.forEach((group, gi) => {
      const found = findFulfillmentOrder(group.fulfillmentOrderId);
      if (!found) {
        userErrors.push({ field: field(gi, 'fulfillmentOrderId'), message: 'Fulfillment order does not exist.' });
        return;
      }
      if (order && order !== found.o) userErrors.push({ field: field(gi, 'fulfillmentOrderId'), message: 'All fulfillment orders must belong to the same order.' });
      order = found.o;
      if (found.fo.status !== 'OPEN' && found.fo.status !== 'IN_PROGRESS') {
        userErrors.push({ field: field(gi, 'fulfillmentOrderId'), message: `Fulfillment order ${group.fulfillmentOrderId} has an unfulfillable status= ${found.fo.status.toLowerCase()}.` });
        return;
      }
      const wanted = group.fulfillmentOrderLineItems?.length ? group.fulfillmentOrderLineItems : found.fo.lines.filter((l) => l.remainingQuantity > 0).map((l) => ({ id: gid('FulfillmentOrderLineItem', l.id), quantity: l.remainingQuantity }));
      wanted.forEach((w, li) => {
        const line = found.fo.lines.find((l) => gid('FulfillmentOrderLineItem', l.id) === w.id);
        if (!line) userErrors.push({ field: field(gi, 'fulfillmentOrderLineItems', li, 'id'), message: 'Fulfillment order line item does not exist.' });
        else if (!Number.isInteger(w.quantity) || w.quantity <= 0 || w.quantity > line.remainingQuantity) userErrors.push({ field: field(gi, 'fulfillmentOrderLineItems', li, 'quantity'), message: 'Invalid fulfillment order line item quantity requested.' });
        else plan.push({ ...found, line, quantity: w.quantity });
      });
    });
    if (userErrors.length || !order || !plan.length) return { fulfillment: null, userErrors: userErrors.length ? userErrors : [{ field: ['fulfillment'], message: 'Nothing to fulfill.' }] };
    const t = input.trackingInfo ?? {};
    const numbers = t.numbers?.length ? t.numbers : t.number ? [t.number] : [];
    const urls = t.urls?.length ? t.urls : t.url ? [t.url] : [];
    const trackingInfo = (numbers.length ? numbers : urls.length ? urls.map(() => null) : []).map((n, i) => ({ number: n, url: urls[i] ?? null, company: t.company ?? null }));
    return { fulfillment: fulfil(order, plan, { trackingInfo, notifyCustomer: input.notifyCustomer ?? false, source: 'api' }), userErrors: [] };
  }

  /** Shopify's answer to a field the token's scopes do not reach: a GraphQL error, the field null. */
  function requireScope(field: string, anyOf: string[]) {
    if (anyOf.some((scope) => requestScopes.includes(scope))) return;
    const requiredAccess = `${anyOf.map((scope) => `\`${scope}\` access scope`).join(' or ')}. Also: The user must have fulfill_and_ship_orders permission.`;
    throw new GraphQLError(`Access denied for ${field} field. Required access: ${requiredAccess}`, { extensions: { code: 'ACCESS_DENIED', documentation: 'https://shopify.dev/api/usage/access-scopes', requiredAccess } });
  }

  function fulfillmentOrderHold(args: { id: string; fulfillmentHold: { reason: string; reasonNotes?: string | null; handle?: string | null; notifyMerchant?: boolean | null; fulfillmentOrderLineItems?: unknown[] | null; externalId?: string | null } }) {
    requireScope('fulfillmentOrderHold', HOLD_SCOPES);
    const found = findFulfillmentOrder(args.id);
    const none = { fulfillmentHold: null, fulfillmentOrder: null, remainingFulfillmentOrder: null };
    if (!found) return { ...none, userErrors: [{ field: ['id'], message: 'Fulfillment order does not exist.', code: 'FULFILLMENT_ORDER_NOT_FOUND' }] };
    const { o, fo } = found;
    const input = args.fulfillmentHold;
    // Holding some lines splits the fulfillment order: not modelled (ours), refused as Shopify refuses it on a held one.
    if (input.fulfillmentOrderLineItems?.length) return { ...none, userErrors: [{ field: ['fulfillmentHold', 'fulfillmentOrderLineItems'], message: 'The fulfillment order is not able to be split.', code: 'FULFILLMENT_ORDER_NOT_SPLITTABLE' }] };
    if (fo.status === 'CLOSED' || fo.status === 'CANCELLED') return { ...none, userErrors: [{ field: ['id'], message: `Fulfillment order ${args.id} has an unholdable status= ${fo.status.toLowerCase()}.`, code: null }] };
    const handle = input.handle ?? '';
    if (fo.holds.some((h) => h.handle === handle)) return { ...none, userErrors: [{ field: ['fulfillmentHold', 'handle'], message: 'The handle provided for the fulfillment hold is already in use by this app for another hold on this fulfillment order.', code: 'DUPLICATE_FULFILLMENT_HOLD_HANDLE' }] };
    if (fo.holds.length >= 10) return { ...none, userErrors: [{ field: ['id'], message: 'The maximum number of fulfillment holds for this fulfillment order has been reached for this app.', code: 'FULFILLMENT_ORDER_HOLD_LIMIT_REACHED' }] };
    const hold: SimFulfillmentHold = { id: gid('FulfillmentHold', nextId(7_300)), handle, reason: input.reason, reasonNotes: input.reasonNotes ?? null };
    fo.holds.push(hold);
    fo.status = foStatus(fo);
    fo.updatedAt = iso();
    return { fulfillmentHold: holdView(hold), fulfillmentOrder: fulfillmentOrderView(o, fo), remainingFulfillmentOrder: null, userErrors: [] };
  }

  function fulfillmentOrderReleaseHold(args: { id: string; holdIds?: string[] | null }) {
    requireScope('fulfillmentOrderReleaseHold', HOLD_SCOPES);
    const found = findFulfillmentOrder(args.id);
    if (!found) return { fulfillmentOrder: null, userErrors: [{ field: ['id'], message: 'Fulfillment order does not exist.', code: 'FULFILLMENT_ORDER_NOT_FOUND' }] };
    const { o, fo } = found;
    if (!fo.holds.length) return { fulfillmentOrder: null, userErrors: [{ field: ['id'], message: 'The fulfillment order is not on hold.', code: null }] };
    const unknown = (args.holdIds ?? []).filter((id) => !fo.holds.some((h) => h.id === id));
    if (unknown.length) return { fulfillmentOrder: null, userErrors: [{ field: ['holdIds'], message: `Fulfillment hold ${unknown[0]} does not exist on this fulfillment order.`, code: null }] };
    // No holdIds: every hold of the requesting app is released.
    fo.holds = args.holdIds?.length ? fo.holds.filter((h) => !args.holdIds!.includes(h.id)) : [];
    fo.status = foStatus(fo);
    fo.updatedAt = iso();
    return { fulfillmentOrder: fulfillmentOrderView(o, fo), userErrors: [] };
  }

  function fulfil(o: StoredOrder, plan: Array<{ fo: SimFulfillmentOrder; line: SimFulfillmentOrderLine; quantity: number }>, how: Pick<SimFulfillment, 'trackingInfo' | 'notifyCustomer' | 'source'>) {
    const at = iso();
    const f: SimFulfillment = {
      id: gid('Fulfillment', nextId(5_500)),
      orderId: o.rest.id,
      status: 'SUCCESS',
      createdAt: at,
      ...how,
      lines: plan.map((p) => ({ id: nextId(5_600), fulfillmentOrderId: gid('FulfillmentOrder', p.fo.id), fulfillmentOrderLineItemId: gid('FulfillmentOrderLineItem', p.line.id), lineItemId: p.line.lineItemId, quantity: p.quantity })),
    };
    for (const p of plan) {
      p.line.remainingQuantity -= p.quantity;
      p.fo.status = foStatus(p.fo);
      p.fo.updatedAt = at;
    }
    o.fulfillments.push(f);
    syncRest(o);
    notify(o);
    return fulfillmentView(o, f);
  }

  /** orders/fulfilled (all lines) or orders/partially_fulfilled, then orders/updated, as Shopify sends them. */
  function notify(o: StoredOrder) {
    const sender = settings.webhookSender;
    if (!sender) return;
    const body = structuredClone(o.rest);
    const topic = body.fulfillment_status === 'fulfilled' ? 'orders/fulfilled' : 'orders/partially_fulfilled';
    const p = (async () => {
      await sender.sendOrder(body, { topic });
      await sender.sendOrder(body, { topic: 'orders/updated' });
    })().catch(() => undefined);
    webhookSends.add(p);
    void p.finally(() => webhookSends.delete(p));
  }

  const TOPICS = new Set((schema.getType('WebhookSubscriptionTopic') as GraphQLEnumType).getValues().map((v) => v.name));
  const topicOf = (rest: string) => rest.toUpperCase().replace(/\//g, '_');

  function checkUri(input: { uri?: string | null; callbackUrl?: string | null }, path: string[]): { uri?: string; error?: SimUserError } {
    const uri = input.uri ?? input.callbackUrl ?? undefined;
    const fieldName = input.uri != null ? 'uri' : 'callbackUrl';
    if (!uri) return { error: { field: [...path, 'uri'], message: "Address can't be blank" } };
    let parsed: URL;
    try {
      parsed = new URL(uri);
    } catch {
      return { error: { field: [...path, fieldName], message: 'Address is invalid' } };
    }
    if (!/^(https?|pubsub|arn):?$/.test(parsed.protocol.replace(/:$/, '')) && !uri.startsWith('arn:')) return { error: { field: [...path, fieldName], message: 'Address is invalid' } };
    if (settings.requireHttpsUris && parsed.protocol === 'http:') return { error: { field: [...path, fieldName], message: 'Address protocol http:// is not supported' } };
    return { uri };
  }

  let version = '2026-07';
  const root = {
    currentAppInstallation: () => ({ id: gid('AppInstallation', '70000000001'), accessScopes: requestScopes.map((handle) => ({ handle, description: handle.replace(/_/g, ' ') })) }),
    shop: () => ({ id: gid('Shop', '60000000001'), name: options.shopName ?? 'Presswork Demo Store', email: `owner@${shopDomain}`, contactEmail: `hello@${shopDomain}`, myshopifyDomain: shopDomain, url: `https://${shopDomain}`, currencyCode: 'GBP', ianaTimezone: 'Europe/London' }),
    order: (args: { id: string }) => {
      if (!args.id.startsWith('gid://shopify/Order/')) throw new GraphQLError(`Invalid global id '${args.id}'`, { extensions: { code: 'argumentLiteralsIncompatible', typeName: 'CoercionError' } });
      const o = orders.get(legacyOf(args.id));
      return o ? orderView(o) : null;
    },
    orders: (args: Parameters<typeof connection>[1] & { query?: string | null; sortKey?: string | null }) =>
      connection(sortOrders([...orders.values()].filter((o) => matchesQuery(o, args.query)), args.sortKey), args, (o) => o.rest.id, (o) => orderView(o)),
    webhookSubscriptions: (args: Parameters<typeof connection>[1] & { topics?: string[] | null; uri?: string | null; callbackUrl?: string | null; format?: string | null; sortKey?: string | null }) => {
      const list = subscriptions.filter((s) => (!args.topics?.length || args.topics.includes(s.topic)) && (!args.uri || s.uri === args.uri) && (!args.callbackUrl || s.uri === args.callbackUrl) && (!args.format || s.format === args.format));
      const sorted = args.sortKey === 'ID' ? [...list].sort((a, b) => Number(legacyOf(a.id)) - Number(legacyOf(b.id))) : list;
      return connection(sorted, args, (s) => legacyOf(s.id), subscriptionView);
    },
    fulfillmentCreate,
    fulfillmentOrderHold,
    fulfillmentOrderReleaseHold,
    webhookSubscriptionCreate: (args: { topic: string; webhookSubscription: { uri?: string | null; callbackUrl?: string | null; format?: string | null; filter?: string | null; includeFields?: string[] | null; name?: string | null } }) => {
      const input = args.webhookSubscription;
      const { uri, error } = checkUri(input, ['webhookSubscription']);
      if (error) return { webhookSubscription: null, userErrors: [error] };
      if (subscriptions.some((s) => s.topic === args.topic && s.uri === uri)) return { webhookSubscription: null, userErrors: [{ field: ['webhookSubscription', input.uri != null ? 'uri' : 'callbackUrl'], message: 'Address for this topic has already been taken' }] };
      const at = iso();
      const s: SimWebhookSubscription = { id: gid('WebhookSubscription', nextId(1_400)), topic: args.topic, uri: uri!, format: (input.format as 'JSON' | 'XML') ?? 'JSON', filter: input.filter ?? null, includeFields: input.includeFields ?? [], name: input.name ?? null, apiVersion: version, createdAt: at, updatedAt: at };
      subscriptions.push(s);
      return { webhookSubscription: subscriptionView(s), userErrors: [] };
    },
    webhookSubscriptionUpdate: (args: { id: string; webhookSubscription: { uri?: string | null; callbackUrl?: string | null; format?: string | null; filter?: string | null; includeFields?: string[] | null; name?: string | null } }) => {
      const s = subscriptions.find((x) => x.id === args.id);
      if (!s) return { webhookSubscription: null, userErrors: [{ field: ['id'], message: 'Webhook subscription does not exist' }] };
      const input = args.webhookSubscription;
      if (input.uri != null || input.callbackUrl != null) {
        const { uri, error } = checkUri(input, ['webhookSubscription']);
        if (error) return { webhookSubscription: null, userErrors: [error] };
        if (subscriptions.some((x) => x !== s && x.topic === s.topic && x.uri === uri)) return { webhookSubscription: null, userErrors: [{ field: ['webhookSubscription', input.uri != null ? 'uri' : 'callbackUrl'], message: 'Address for this topic has already been taken' }] };
        s.uri = uri!;
      }
      if (input.format) s.format = input.format as 'JSON' | 'XML';
      if (input.filter !== undefined) s.filter = input.filter ?? null;
      if (input.includeFields) s.includeFields = input.includeFields;
      if (input.name !== undefined) s.name = input.name ?? null;
      s.apiVersion = version;
      s.updatedAt = iso();
      return { webhookSubscription: subscriptionView(s), userErrors: [] };
    },
    webhookSubscriptionDelete: (args: { id: string }) => {
      const i = subscriptions.findIndex((x) => x.id === args.id);
      if (i < 0) return { deletedWebhookSubscriptionId: null, userErrors: [{ field: ['id'], message: 'Webhook subscription does not exist' }] };
      subscriptions.splice(i, 1);
      return { deletedWebhookSubscriptionId: args.id, userErrors: [] };
    },
  };

  // -- HTTP --------------------------------------------------------------------------------
  const app = express();
  app.post('/admin/api/:version/graphql.json', express.json({ limit: '1mb' }), (req: Request, res: Response) => {
    const call: AdminCall = { version: String(req.params.version), status: 200, operation: null, fields: [], variables: {}, requestedQueryCost: null, throttled: false };
    calls.push(call);
    const drop = faults.drops[0];
    if (drop === 'before') {
      faults.drops.shift();
      call.status = 'dropped';
      req.socket.destroy();
      return;
    }
    const answer = (status: number, body: unknown) => {
      call.status = status;
      res.status(status).json(body);
    };
    const granted = scopesOfToken(req.get('X-Shopify-Access-Token'));
    if (!granted) return answer(401, INVALID_TOKEN_BODY);
    requestScopes = granted;
    if (!/^(\d{4}-(01|04|07|10)|unstable)$/.test(call.version)) return answer(404, { errors: 'Not Found' });
    version = call.version;
    const body = (req.body ?? {}) as { query?: unknown; variables?: unknown; operationName?: unknown };
    if (typeof body.query !== 'string' || !body.query.trim()) return answer(400, { errors: { query: 'Required parameter missing or invalid' } });
    const variables = (body.variables && typeof body.variables === 'object' ? body.variables : {}) as Record<string, unknown>;
    call.variables = variables;
    let document: DocumentNode;
    try {
      document = parse(body.query);
    } catch (err) {
      const e = err as GraphQLError;
      return answer(200, { errors: [{ message: e.message, locations: e.locations }] });
    }
    const operationName = typeof body.operationName === 'string' ? body.operationName : undefined;
    const op = pickOperation(document, operationName);
    call.operation = op?.operation === 'mutation' ? 'mutation' : op ? 'query' : null;
    call.fields = op ? op.selectionSet.selections.flatMap((s) => (s.kind === Kind.FIELD ? [s.name.value] : [])) : [];
    const problems = validate(schema, document);
    if (problems.length) return answer(200, { errors: problems.map((p) => ({ message: p.message, locations: p.locations, extensions: { code: 'GRAPHQL_VALIDATION_FAILED' } })) });
    const cost = requestedCost(schema, document, variables, operationName);
    call.requestedQueryCost = cost;
    if (cost > MAX_QUERY_COST)
      return answer(200, { errors: [{ message: `Query cost is ${cost}, which exceeds the single query max cost limit (${MAX_QUERY_COST}).`, extensions: { code: 'MAX_COST_EXCEEDED', cost, maxCost: MAX_QUERY_COST, documentation: THROTTLE_DOCUMENTATION } }] });
    restore();
    const forcedThrottle = faults.throttleNext > 0 || (call.fields.includes('fulfillmentCreate') && faults.nextFulfillmentCreate[0] === 'throttled');
    if (forcedThrottle || cost > bucket.available) {
      if (faults.throttleNext > 0) faults.throttleNext--;
      else if (forcedThrottle) faults.nextFulfillmentCreate.shift();
      call.throttled = true;
      return answer(settings.throttledStatus, {
        errors: [{ message: 'Throttled', extensions: { code: 'THROTTLED', documentation: THROTTLE_DOCUMENTATION } }],
        extensions: { cost: { requestedQueryCost: cost, actualQueryCost: null, throttleStatus: throttleStatus() } },
      });
    }
    bucket.available -= cost;
    const result = execute({ schema, document, rootValue: root, variableValues: variables, operationName }) as Awaited<ReturnType<typeof execute>>;
    const rootType = op?.operation === 'mutation' ? schema.getMutationType()! : schema.getQueryType()!;
    const actual = op?.operation === 'mutation' ? cost : Math.min(cost, actualCost(schema, rootType, op!.selectionSet, fragmentsOf(document), result.data as Record<string, unknown>));
    bucket.available = Math.min(bucket.maximumAvailable, bucket.available + (cost - actual));
    if (drop === 'after') {
      faults.drops.shift();
      call.status = 'dropped';
      req.socket.destroy();
      return;
    }
    const out: Record<string, unknown> = {};
    if (result.errors?.length) out.errors = result.errors.map((e) => ({ message: e.message, locations: e.locations, path: e.path, ...(e.extensions && Object.keys(e.extensions).length ? { extensions: e.extensions } : {}) }));
    out.data = result.data ?? null;
    out.extensions = { cost: { requestedQueryCost: cost, actualQueryCost: actual, throttleStatus: throttleStatus() } };
    return answer(200, out);
  });
  // The OAuth endpoints: the consent page and the token endpoint (shopifyOAuth.ts).
  app.use(oauth.router);
  app.use((req, res) => res.status(404).json({ errors: 'Not Found' }));
  // A body that isn't JSON: Shopify's 400 shape, never a stack trace.
  app.use(((err, _req, res, _next) => {
    void _next;
    res.status(400).json({ errors: { query: 'Required parameter missing or invalid' } });
    void err;
  }) as ErrorRequestHandler);

  let server: http.Server | undefined;

  return {
    app,
    shopDomain,
    /** Listens on 127.0.0.1 (port 0 unless given) and answers the base URL, e.g. http://127.0.0.1:PORT. */
    async start(port = 0): Promise<string> {
      server = http.createServer(app);
      await new Promise<void>((r) => server!.listen(port, '127.0.0.1', r));
      return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    },
    async stop(): Promise<void> {
      const s = server;
      server = undefined;
      if (!s) return;
      await new Promise<void>((r) => {
        s.closeAllConnections?.();
        s.close(() => r());
      });
    },
    /** The GraphQL endpoint for a base URL and version. */
    endpoint: (baseUrl: string, apiVersion = '2026-07') => `${baseUrl.replace(/\/+$/, '')}/admin/api/${apiVersion}/graphql.json`,

    // -- orders
    /** Holds a REST Order (fakeOrder's shape); one fulfillment order is derived from its lines (remaining = current quantity). Answers its GraphQL id. */
    addOrder(order: FakeOrder): string {
      const rest = structuredClone(order);
      const o: StoredOrder = { rest, fulfillmentOrders: [], fulfillments: [] };
      o.fulfillmentOrders.push(fulfillmentOrderFor(rest));
      orders.set(rest.id, o);
      return gid('Order', rest.id);
    },
    /** The REST Order as it stands now (fulfillment_status, fulfillments, updated_at kept in step). */
    order: (id: string): FakeOrder | undefined => (orders.has(legacyOf(id)) ? structuredClone(orderOf(id).rest) : undefined),
    orderIds: () => [...orders.keys()],
    fulfillmentOrders: (orderId: string): SimFulfillmentOrder[] => structuredClone(orderOf(orderId).fulfillmentOrders).map((fo) => ({ ...fo, id: gid('FulfillmentOrder', fo.id), lines: fo.lines.map((l) => ({ ...l, id: gid('FulfillmentOrderLineItem', l.id) })) })),
    /** Every fulfilment made (through the API or by hand), optionally of one order. */
    fulfillments: (orderId?: string): SimFulfillment[] => structuredClone([...orders.values()].filter((o) => !orderId || o.rest.id === legacyOf(orderId)).flatMap((o) => o.fulfillments)),
    /** A person fulfils lines in the Shopify admin (all remaining lines when none are named). */
    markFulfilled(orderId: string, opts: { lines?: Array<{ lineItemId: string; quantity?: number }>; tracking?: { number?: string; url?: string; company?: string } } = {}) {
      const o = orderOf(orderId);
      const plan: Array<{ fo: SimFulfillmentOrder; line: SimFulfillmentOrderLine; quantity: number }> = [];
      for (const fo of o.fulfillmentOrders) {
        if (fo.status === 'CLOSED' || fo.status === 'CANCELLED') continue;
        for (const line of fo.lines) {
          const want = opts.lines ? opts.lines.find((l) => legacyOf(l.lineItemId) === line.lineItemId) : { quantity: line.remainingQuantity };
          const quantity = Math.min(line.remainingQuantity, want?.quantity ?? line.remainingQuantity);
          if (want && quantity > 0) plan.push({ fo, line, quantity });
        }
      }
      if (!plan.length) throw new Error(`shopify admin simulator: nothing left to fulfil on order ${orderId}`);
      const t = opts.tracking;
      return fulfil(o, plan, { trackingInfo: t ? [{ number: t.number ?? null, url: t.url ?? null, company: t.company ?? null }] : [], notifyCustomer: false, source: 'admin' });
    },
    /** Sets an order's updated_at (what `updated_at:>…` searches compare). */
    setUpdatedAt(orderId: string, at: Date | string) {
      const o = orderOf(orderId);
      o.rest.updated_at = new Date(at).toISOString();
    },
    /** Replaces an order's REST body (an edit, a cancel…) keeping its fulfilment state; the fulfillment order follows edits and cancels. */
    updateOrder(order: FakeOrder) {
      const o = orderOf(order.id);
      o.rest = { ...structuredClone(order), fulfillments: o.rest.fulfillments };
      // An edit changes the fulfillment order's lines: units added or removed, new lines appended.
      const fo = o.fulfillmentOrders[0];
      for (const l of o.rest.line_items) {
        const fl = fo.lines.find((x) => x.lineItemId === l.id);
        if (fl) {
          const delta = l.current_quantity - fl.totalQuantity;
          fl.totalQuantity += delta;
          fl.remainingQuantity = Math.max(0, fl.remainingQuantity + delta);
        } else if (l.current_quantity > 0) fo.lines.push({ id: nextId(7_200), lineItemId: l.id, totalQuantity: l.current_quantity, remainingQuantity: l.current_quantity });
      }
      if (order.cancelled_at) for (const f of o.fulfillmentOrders) f.status = 'CLOSED';
      else if (fo.status !== 'CANCELLED') fo.status = foStatus(fo);
      syncRest(o, false);
    },

    // -- webhook subscriptions
    /** Pre-seeds a subscription Shopify already holds (e.g. one pointing at another app). Answers it. */
    addSubscription(s: { topic: string; uri: string; format?: 'JSON' | 'XML'; apiVersion?: string; createdAt?: string }): SimWebhookSubscription {
      const topic = TOPICS.has(s.topic) ? s.topic : topicOf(s.topic);
      if (!TOPICS.has(topic)) throw new Error(`shopify admin simulator: topic ${s.topic} is not modelled`);
      const at = s.createdAt ?? iso();
      const sub: SimWebhookSubscription = { id: gid('WebhookSubscription', nextId(1_400)), topic, uri: s.uri, format: s.format ?? 'JSON', filter: null, includeFields: [], name: null, apiVersion: s.apiVersion ?? version, createdAt: at, updatedAt: at };
      subscriptions.push(sub);
      return structuredClone(sub);
    },
    subscriptions: (): SimWebhookSubscription[] => structuredClone(subscriptions),
    removeSubscription(id: string) {
      const i = subscriptions.findIndex((s) => s.id === id);
      if (i >= 0) subscriptions.splice(i, 1);
    },

    // -- throttling and faults
    /** The bucket now (restored to the clock). */
    throttleStatus() {
      restore();
      return throttleStatus();
    },
    /** Changes the bucket: size, restore rate, what is available now. */
    setBucket(b: { maximumAvailable?: number; restoreRate?: number; currentlyAvailable?: number }) {
      restore();
      if (b.maximumAvailable != null) bucket.maximumAvailable = b.maximumAvailable;
      if (b.restoreRate != null) bucket.restoreRate = b.restoreRate;
      bucket.available = Math.min(bucket.maximumAvailable, b.currentlyAvailable ?? bucket.available);
    },
    /** THROTTLED answers: 200 (Shopify's GraphQL documentation) or 429. */
    setThrottledStatus(status: 200 | 429) {
      settings.throttledStatus = status;
    },
    /** The next n requests are answered THROTTLED whatever the bucket holds. */
    throttleNext(n = 1) {
      faults.throttleNext += n;
    },
    /** The next fulfillmentCreate answers these userErrors (nothing is fulfilled), or THROTTLED. Queued in order. */
    failNextFulfillmentCreate(answer: { userErrors: SimUserError[] } | 'throttled') {
      faults.nextFulfillmentCreate.push(answer);
    },
    /** Drops the connection of the next request(s) with no answer: `before` anything runs, or `after` the operation has landed. */
    dropNext(when: 'before' | 'after' = 'before', n = 1) {
      for (let i = 0; i < n; i++) faults.drops.push(when);
    },
    /** Sends (or stops sending) orders/fulfilled + orders/updated webhooks on each fulfilment. */
    setWebhookSender(sender: ShopifySender | undefined) {
      settings.webhookSender = sender;
    },
    /** Resolves when every webhook a fulfilment sent has been delivered (or given up). */
    async webhooksSettled() {
      while (webhookSends.size) await Promise.all([...webhookSends]);
    },
    /** Every request received, newest last. */
    calls: (): AdminCall[] => [...calls],
    /** The app and its tokens: approve an install, rotate the secret, uninstall, token faults and lifetimes. */
    oauth,
    reset() {
      orders.clear();
      subscriptions.length = 0;
      calls.length = 0;
      faults.nextFulfillmentCreate.length = 0;
      faults.throttleNext = 0;
      faults.drops.length = 0;
      bucket.available = bucket.maximumAvailable;
      bucket.at = now();
    },
  };
}

export type ShopifyAdminSimulator = ReturnType<typeof createShopifyAdminSimulator>;

/** The REST customer's email_marketing_consent as the GraphQL CustomerEmailAddress marketing fields (states upper-cased). */
function emailMarketing(c: { email_marketing_consent?: unknown }) {
  const m = (c.email_marketing_consent ?? null) as { state?: string | null; opt_in_level?: string | null; consent_updated_at?: string | null } | null;
  const state = (m?.state ?? '').toUpperCase();
  const level = (m?.opt_in_level ?? '').toUpperCase();
  return {
    // The REST states the GraphQL enum has no value for (redacted) read as not subscribed.
    marketingState: ['INVALID', 'NOT_SUBSCRIBED', 'PENDING', 'SUBSCRIBED', 'UNSUBSCRIBED'].includes(state) ? state : 'NOT_SUBSCRIBED',
    marketingOptInLevel: ['CONFIRMED_OPT_IN', 'SINGLE_OPT_IN', 'UNKNOWN'].includes(level) ? level : null,
    marketingUpdatedAt: m?.consent_updated_at ? new Date(m.consent_updated_at).toISOString() : null,
  };
}
