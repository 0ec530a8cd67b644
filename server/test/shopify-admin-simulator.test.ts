// The Shopify Admin GraphQL simulator, from the outside: a real HTTP listener on 127.0.0.1:0,
// spoken to with plain fetch. Its schema is a true subset of Shopify's published 2026-07 schema,
// and its answers to the documented operations are valid answers of that schema.
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeEach, describe, expect, it } from 'vitest';
import { createAdminApiClient } from '@shopify/admin-api-client';
import { buildSchema, execute, isEnumType, isInputObjectType, isInterfaceType, isObjectType, isUnionType, parse, type GraphQLNamedType } from 'graphql';
import { ADMIN_SDL } from '../simulators/shopifyAdminSchema.graphql';
import { createShopifyAdminSimulator, INVALID_TOKEN_BODY } from '../simulators/shopifyAdmin';
import { cancelledOrder, createShopifySender, fakeOrder, orderEdit, signShopifyBody } from '../simulators/shopify';
import { adminSchema, adminSchemaProblems } from './shopifyAdminSchema';

const TOKEN = 'shpat_0123456789abcdef0123456789abcdef';
const VERSION = '2026-07';

// The operations docs/connect-shopify.md and shopify.dev document for this integration.
const DOCS = {
  shop: `query { shop { name myshopifyDomain } }`,
  fulfillmentOrders: `query FulfillmentOrders($id: ID!) {
    order(id: $id) {
      id legacyResourceId name displayFulfillmentStatus
      fulfillmentOrders(first: 5) {
        nodes { id status lineItems(first: 50) { nodes { id remainingQuantity totalQuantity lineItem { id sku } } } }
      }
    }
  }`,
  fulfillmentCreate: `mutation FulfillmentCreate($fulfillment: FulfillmentInput!) {
    fulfillmentCreate(fulfillment: $fulfillment) {
      fulfillment { id status trackingInfo(first: 10) { number url company } }
      userErrors { field message }
    }
  }`,
  ordersEdges: `query Orders($first: Int!, $after: String, $query: String) {
    orders(first: $first, after: $after, query: $query, sortKey: UPDATED_AT) {
      edges { cursor node { id legacyResourceId name updatedAt } }
      pageInfo { hasNextPage endCursor }
    }
  }`,
  ordersNodes: `query Orders($first: Int!, $after: String, $query: String) {
    orders(first: $first, after: $after, query: $query) {
      nodes {
        id legacyResourceId name createdAt updatedAt cancelledAt cancelReason email
        displayFinancialStatus displayFulfillmentStatus currentSubtotalLineItemsQuantity
        customer { id firstName lastName defaultEmailAddress { emailAddress } }
        shippingAddress { name address1 address2 city zip provinceCode countryCodeV2 phone company }
        shippingLines(first: 5) { nodes { title code } }
        lineItems(first: 50) { nodes { id sku name title quantity currentQuantity customAttributes { key value } variant { id } product { id } } }
      }
      pageInfo { hasNextPage endCursor }
    }
  }`,
  subscriptions: `query Subs($first: Int!, $after: String) {
    webhookSubscriptions(first: $first, after: $after) {
      nodes { id topic uri format createdAt }
      pageInfo { hasNextPage endCursor }
    }
  }`,
  subscriptionCreate: `mutation Create($topic: WebhookSubscriptionTopic!, $webhookSubscription: WebhookSubscriptionInput!) {
    webhookSubscriptionCreate(topic: $topic, webhookSubscription: $webhookSubscription) {
      webhookSubscription { id topic uri callbackUrl format }
      userErrors { field message }
    }
  }`,
  subscriptionUpdate: `mutation Update($id: ID!, $webhookSubscription: WebhookSubscriptionInput!) {
    webhookSubscriptionUpdate(id: $id, webhookSubscription: $webhookSubscription) {
      webhookSubscription { id topic uri }
      userErrors { field message }
    }
  }`,
  subscriptionDelete: `mutation Delete($id: ID!) {
    webhookSubscriptionDelete(id: $id) { deletedWebhookSubscriptionId userErrors { field message } }
  }`,
};

/** An answer is valid for Shopify's schema when executing the document over it yields it unchanged, without errors. */
function validAnswer(document: string, data: unknown, variables: Record<string, unknown> = {}) {
  const result = execute({ schema: adminSchema(), document: parse(document), rootValue: data, variableValues: variables }) as { data?: unknown; errors?: unknown[] };
  expect(result.errors ?? []).toEqual([]);
  expect(JSON.parse(JSON.stringify(result.data))).toEqual(data);
}

/** What an SDL declares that Shopify's published schema lacks, or types differently. */
function subsetProblems(sdl: string): string[] {
  const ours = buildSchema(sdl);
  const real = adminSchema();
  const problems: string[] = [];
  const kind = (t: GraphQLNamedType) => (isObjectType(t) ? 'object' : isInterfaceType(t) ? 'interface' : isInputObjectType(t) ? 'input' : isEnumType(t) ? 'enum' : isUnionType(t) ? 'union' : 'scalar');
  type Field = { name: string; type: unknown; args?: ReadonlyArray<{ name: string; type: unknown }> };
  for (const t of Object.values(ours.getTypeMap())) {
    if (t.name.startsWith('__')) continue;
    const r = real.getType(t.name);
    if (!r) {
      problems.push(`type ${t.name} is not Shopify's`);
      continue;
    }
    if (kind(t) !== kind(r)) problems.push(`${t.name} is a ${kind(t)} here, a ${kind(r)} at Shopify`);
    if ((isObjectType(t) || isInterfaceType(t) || isInputObjectType(t)) && (isObjectType(r) || isInterfaceType(r) || isInputObjectType(r))) {
      const theirs = r.getFields() as Record<string, Field>;
      for (const f of Object.values(t.getFields()) as Field[]) {
        const g = theirs[f.name];
        if (!g) problems.push(`${t.name}.${f.name} is not Shopify's`);
        else if (String(g.type) !== String(f.type)) problems.push(`${t.name}.${f.name}: ${String(f.type)} here, ${String(g.type)} at Shopify`);
        for (const a of f.args ?? []) {
          const ga = g?.args?.find((x) => x.name === a.name);
          if (g && !ga) problems.push(`${t.name}.${f.name}(${a.name}) is not Shopify's`);
          else if (ga && String(ga.type) !== String(a.type)) problems.push(`${t.name}.${f.name}(${a.name}): ${String(a.type)} here, ${String(ga.type)} at Shopify`);
        }
      }
      if ((isObjectType(t) || isInterfaceType(t)) && (isObjectType(r) || isInterfaceType(r)))
        for (const i of t.getInterfaces()) if (!r.getInterfaces().some((x) => x.name === i.name)) problems.push(`${t.name} implements ${i.name} only here`);
    }
    if (isEnumType(t) && isEnumType(r)) for (const v of t.getValues()) if (!r.getValue(v.name)) problems.push(`${t.name}.${v.name} is not Shopify's`);
    if (isUnionType(t) && isUnionType(r)) for (const m of t.getTypes()) if (!r.getTypes().some((x) => x.name === m.name)) problems.push(`${m.name} is not in Shopify's ${t.name}`);
  }
  return problems;
}

let clock = Date.parse('2026-11-20T10:00:00Z');
const sim = createShopifyAdminSimulator({ accessToken: TOKEN, shopDomain: 'presswork-test.myshopify.com', now: () => clock });
const base = await sim.start();
const endpoint = sim.endpoint(base, VERSION);
afterAll(() => sim.stop());

interface Answer<T = Record<string, unknown>> {
  status: number;
  body: { data?: T; errors?: Array<{ message: string; extensions?: Record<string, unknown> }>; extensions?: { cost: { requestedQueryCost: number; actualQueryCost: number | null; throttleStatus: { maximumAvailable: number; currentlyAvailable: number; restoreRate: number } } } };
}

async function gql<T = Record<string, unknown>>(query: string, variables: Record<string, unknown> = {}, token: string | null = TOKEN): Promise<Answer<T>> {
  const headers: Record<string, string> = { 'Content-Type': 'application/json' };
  if (token !== null) headers['X-Shopify-Access-Token'] = token;
  const res = await fetch(endpoint, { method: 'POST', headers, body: JSON.stringify({ query, variables }) });
  return { status: res.status, body: await res.json() };
}

beforeEach(() => {
  sim.reset();
  sim.setThrottledStatus(200);
  sim.setBucket({ maximumAvailable: 2000, restoreRate: 100, currentlyAvailable: 2000 });
});

describe('the simulated schema', () => {
  it("is a true subset of Shopify's published 2026-07 Admin schema", () => {
    expect(subsetProblems(ADMIN_SDL)).toEqual([]);
    expect(buildSchema(ADMIN_SDL).getQueryType()?.name).toBe(adminSchema().getQueryType()?.name);
  });

  it('the subset check names what Shopify does not have', () => {
    const wrong = ADMIN_SDL.replace('remainingQuantity: Int!', 'remainingQuantity: Int\n  remainingQty: Int!')
      .replace('enum FulfillmentStatus { CANCELLED', 'enum FulfillmentStatus { SHIPPED CANCELLED')
      .replace('fulfillmentCreate(fulfillment: FulfillmentInput!, message: String)', 'fulfillmentCreate(fulfillment: FulfillmentInput!, message: String, notify: Boolean)');
    expect(subsetProblems(wrong)).toEqual([
      'FulfillmentOrderLineItem.remainingQuantity: Int here, Int! at Shopify',
      "FulfillmentOrderLineItem.remainingQty is not Shopify's",
      "FulfillmentStatus.SHIPPED is not Shopify's",
      "Mutation.fulfillmentCreate(notify) is not Shopify's",
    ]);
  });

  it('the answer check refuses what Shopify could not answer', () => {
    const result = execute({ schema: adminSchema(), document: parse(DOCS.shop), rootValue: { shop: { name: null, myshopifyDomain: 'x' } } }) as { errors?: unknown[] };
    expect(result.errors?.length).toBe(1); // Shop.name is String!
  });

  it('the documented operations are valid against the published schema', () => {
    for (const [name, doc] of Object.entries(DOCS)) expect([name, adminSchemaProblems(doc)]).toEqual([name, []]);
  });
});

describe('access token', () => {
  it("answers 401 with Shopify's body when the token is missing or wrong", async () => {
    for (const token of [null, 'shpat_wrong']) {
      const a = await gql(DOCS.shop, {}, token);
      expect(a.status).toBe(401);
      expect(a.body).toEqual(INVALID_TOKEN_BODY);
    }
    const ok = await gql<{ shop: { name: string; myshopifyDomain: string } }>(DOCS.shop);
    expect(ok.status).toBe(200);
    expect(ok.body.data?.shop.myshopifyDomain).toBe('presswork-test.myshopify.com');
    validAnswer(DOCS.shop, ok.body.data);
    expect(ok.body.extensions?.cost).toMatchObject({ requestedQueryCost: 1, actualQueryCost: 1, throttleStatus: { maximumAvailable: 2000, restoreRate: 100 } });
  });

  it('answers 400 to a body without a query or not JSON', async () => {
    for (const body of [JSON.stringify({ variables: {} }), '{not json']) {
      const res = await fetch(endpoint, { method: 'POST', headers: { 'Content-Type': 'application/json', 'X-Shopify-Access-Token': TOKEN }, body });
      expect([res.status, await res.json()]).toEqual([400, { errors: { query: 'Required parameter missing or invalid' } }]);
    }
  });

  it('refuses a field the schema has not, as GraphQL errors with HTTP 200', async () => {
    const a = await gql('query { shop { nam } }');
    expect(a.status).toBe(200);
    expect(a.body.data).toBeUndefined();
    expect(a.body.errors?.[0].message).toMatch(/Cannot query field "nam" on type "Shop"/);
  });
});

describe('orders', () => {
  const seed = (n: number) => {
    const ids: string[] = [];
    for (let i = 0; i < n; i++) {
      const o = fakeOrder(100 + i, { orderNumber: 1001 + i, createdAt: new Date(Date.parse('2026-11-01T09:00:00Z') + i * 3_600_000), withCustomer: true, withAddress: true });
      ids.push(sim.addOrder(o));
    }
    return ids;
  };

  it('pages with cursors, through edges and through nodes alike', async () => {
    const ids = seed(5);
    const seen: string[] = [];
    let after: string | null = null;
    for (let page = 0; page < 5; page++) {
      const a: Answer<{ orders: { edges: Array<{ cursor: string; node: { id: string } }>; pageInfo: { hasNextPage: boolean; endCursor: string | null } } }> = await gql(DOCS.ordersEdges, { first: 2, after });
      validAnswer(DOCS.ordersEdges, a.body.data, { first: 2, after });
      const conn = a.body.data!.orders;
      seen.push(...conn.edges.map((e) => e.node.id));
      expect(conn.pageInfo.endCursor).toBe(conn.edges.at(-1)?.cursor ?? null);
      after = conn.pageInfo.endCursor;
      if (!conn.pageInfo.hasNextPage) break;
    }
    expect(seen).toEqual(ids);

    const n = await gql<{ orders: { nodes: Array<{ id: string; lineItems: { nodes: Array<{ customAttributes: unknown[] }> } }>; pageInfo: { hasNextPage: boolean; endCursor: string } } }>(DOCS.ordersNodes, { first: 3 });
    validAnswer(DOCS.ordersNodes, n.body.data, { first: 3 });
    expect(n.body.data!.orders.nodes.map((o) => o.id)).toEqual(ids.slice(0, 3));
    expect(n.body.data!.orders.pageInfo.hasNextPage).toBe(true);
    const rest = await gql<{ orders: { nodes: Array<{ id: string }>; pageInfo: { hasNextPage: boolean } } }>(DOCS.ordersNodes, { first: 3, after: n.body.data!.orders.pageInfo.endCursor });
    expect(rest.body.data!.orders.nodes.map((o) => o.id)).toEqual(ids.slice(3));
    expect(rest.body.data!.orders.pageInfo.hasNextPage).toBe(false);
  });

  it('maps the REST order faithfully (ids, quantities, properties as customAttributes)', async () => {
    const o = fakeOrder(7, { orderNumber: 2001, withCustomer: true, withAddress: true, lineCount: 2 });
    o.line_items[0].properties = [{ name: 'Message', value: 'Happy birthday' }];
    sim.addOrder(o);
    const a = await gql<{ orders: { nodes: Array<Record<string, unknown> & { lineItems: { nodes: Array<Record<string, unknown>> } }> } }>(DOCS.ordersNodes, { first: 1 });
    const node = a.body.data!.orders.nodes[0];
    expect(node).toMatchObject({ id: `gid://shopify/Order/${o.id}`, legacyResourceId: o.id, name: '#2001', displayFinancialStatus: 'PAID', displayFulfillmentStatus: 'UNFULFILLED', email: o.email });
    expect(node).toMatchObject({ shippingAddress: { city: o.shipping_address!.city, zip: o.shipping_address!.zip, countryCodeV2: 'GB' }, shippingLines: { nodes: [{ title: o.shipping_lines[0].title, code: o.shipping_lines[0].code }] }, customer: { firstName: o.customer!.first_name, defaultEmailAddress: { emailAddress: o.customer!.email } } });
    validAnswer(DOCS.ordersNodes, a.body.data, { first: 1 });
    expect(node.lineItems.nodes[0]).toMatchObject({ id: `gid://shopify/LineItem/${o.line_items[0].id}`, sku: o.line_items[0].sku, quantity: o.line_items[0].quantity, customAttributes: [{ key: 'Message', value: 'Happy birthday' }], variant: { id: `gid://shopify/ProductVariant/${o.line_items[0].variant_id}` } });
  });

  it("honours updated_at:>'ISO' and updated_at:>= in the query", async () => {
    const [a, b, c] = seed(3);
    sim.setUpdatedAt(a, '2026-11-10T00:00:00Z');
    sim.setUpdatedAt(b, '2026-11-15T12:00:00Z');
    sim.setUpdatedAt(c, '2026-11-18T00:00:00Z');
    const ask = async (query: string) => (await gql<{ orders: { edges: Array<{ node: { id: string } }> } }>(DOCS.ordersEdges, { first: 10, query })).body.data!.orders.edges.map((e) => e.node.id);
    expect(await ask("updated_at:>'2026-11-15T12:00:00Z'")).toEqual([c]);
    expect(await ask("updated_at:>='2026-11-15T12:00:00Z'")).toEqual([b, c]);
    expect(await ask('updated_at:>"2026-11-01T00:00:00Z"')).toEqual([a, b, c]);
    expect(await ask("updated_at:>'2026-11-30T00:00:00Z'")).toEqual([]);
  });

  it('asks for first or last, as Shopify does', async () => {
    const a = await gql('query { orders { nodes { id } } }');
    expect(a.body.errors?.[0].message).toMatch(/first or last/);
  });
});

describe('fulfillmentCreate', () => {
  async function fulfillmentOrdersOf(orderGid: string) {
    const a = await gql<{ order: { fulfillmentOrders: { nodes: Array<{ id: string; status: string; lineItems: { nodes: Array<{ id: string; remainingQuantity: number; totalQuantity: number; lineItem: { id: string; sku: string } }> } }> } } }>(DOCS.fulfillmentOrders, { id: orderGid });
    validAnswer(DOCS.fulfillmentOrders, a.body.data, { id: orderGid });
    return a.body.data!.order.fulfillmentOrders.nodes;
  }
  const order = (qty = 3) => {
    const o = fakeOrder(42, { orderNumber: 3001, lineCount: 2 });
    o.line_items[0].quantity = o.line_items[0].current_quantity = o.line_items[0].fulfillable_quantity = qty;
    return { rest: o, id: sim.addOrder(o) };
  };

  it('derives a fulfillment order from the lines, remaining = current quantity', async () => {
    const { rest, id } = order(3);
    const [fo] = await fulfillmentOrdersOf(id);
    expect(fo.status).toBe('OPEN');
    expect(fo.lineItems.nodes.map((l) => [l.lineItem.id, l.remainingQuantity, l.totalQuantity])).toEqual(rest.line_items.map((l) => [`gid://shopify/LineItem/${l.id}`, l.current_quantity, l.current_quantity]));
  });

  it('follows an order edit and a cancel', async () => {
    const { rest, id } = order(3);
    const { updated } = orderEdit(rest, { removals: [{ lineId: rest.line_items[0].id, delta: 1 }], additions: [{ sku: 'DEMO-MUG-01', quantity: 2 }] });
    sim.updateOrder(updated);
    const [fo] = await fulfillmentOrdersOf(id);
    expect(fo.lineItems.nodes.map((l) => [l.lineItem.id, l.remainingQuantity])).toEqual(updated.line_items.map((l) => [`gid://shopify/LineItem/${l.id}`, l.current_quantity]));
    expect(fo.lineItems.nodes[0].remainingQuantity).toBe(2);
    sim.updateOrder(cancelledOrder(updated));
    expect((await fulfillmentOrdersOf(id))[0].status).toBe('CLOSED');
  });

  it('fulfils the named lines with tracking, and the rest later', async () => {
    const { rest, id } = order(3);
    const [fo] = await fulfillmentOrdersOf(id);
    const first = fo.lineItems.nodes[0];
    const a = await gql<{ fulfillmentCreate: { fulfillment: { id: string; status: string; trackingInfo: unknown[] }; userErrors: unknown[] } }>(DOCS.fulfillmentCreate, {
      fulfillment: { lineItemsByFulfillmentOrder: [{ fulfillmentOrderId: fo.id, fulfillmentOrderLineItems: [{ id: first.id, quantity: 2 }] }], trackingInfo: { number: 'RM123456789GB', url: 'https://track.example/RM123456789GB', company: 'Royal Mail' }, notifyCustomer: true },
    });
    validAnswer(DOCS.fulfillmentCreate, a.body.data, { fulfillment: { lineItemsByFulfillmentOrder: [] } });
    expect(a.body.data!.fulfillmentCreate).toMatchObject({ fulfillment: { status: 'SUCCESS', trackingInfo: [{ number: 'RM123456789GB', url: 'https://track.example/RM123456789GB', company: 'Royal Mail' }] }, userErrors: [] });
    expect(a.body.extensions?.cost.requestedQueryCost).toBe(10);
    const [made] = sim.fulfillments(id);
    expect(made).toMatchObject({ id: a.body.data!.fulfillmentCreate.fulfillment.id, notifyCustomer: true, source: 'api', trackingInfo: [{ number: 'RM123456789GB' }], lines: [{ lineItemId: rest.line_items[0].id, quantity: 2 }] });
    const [after] = await fulfillmentOrdersOf(id);
    expect(after.status).toBe('IN_PROGRESS');
    expect(after.lineItems.nodes[0].remainingQuantity).toBe(1);
    expect(sim.order(id)?.fulfillment_status).toBe('partial');

    // No line items named: every remaining line of the fulfillment order.
    const all = await gql<{ fulfillmentCreate: { userErrors: unknown[] } }>(DOCS.fulfillmentCreate, { fulfillment: { lineItemsByFulfillmentOrder: [{ fulfillmentOrderId: fo.id }] } });
    expect(all.body.data!.fulfillmentCreate.userErrors).toEqual([]);
    const [closed] = await fulfillmentOrdersOf(id);
    expect(closed.status).toBe('CLOSED');
    expect(sim.order(id)).toMatchObject({ fulfillment_status: 'fulfilled', updated_at: new Date(clock).toISOString() });
    expect(sim.fulfillments(id)).toHaveLength(2);
  });

  it('answers userErrors for an unknown fulfillment order, too many units, a closed fulfillment order', async () => {
    const { id } = order(2);
    const [fo] = await fulfillmentOrdersOf(id);
    const create = async (fulfillment: unknown) => (await gql<{ fulfillmentCreate: { fulfillment: unknown; userErrors: Array<{ field: string[]; message: string }> } }>(DOCS.fulfillmentCreate, { fulfillment })).body.data!.fulfillmentCreate;

    const unknown = await create({ lineItemsByFulfillmentOrder: [{ fulfillmentOrderId: 'gid://shopify/FulfillmentOrder/999' }] });
    expect(unknown.fulfillment).toBeNull();
    expect(unknown.userErrors[0].field).toEqual(['fulfillment', 'lineItemsByFulfillmentOrder', '0', 'fulfillmentOrderId']);

    const tooMany = await create({ lineItemsByFulfillmentOrder: [{ fulfillmentOrderId: fo.id, fulfillmentOrderLineItems: [{ id: fo.lineItems.nodes[0].id, quantity: 3 }] }] });
    expect(tooMany.fulfillment).toBeNull();
    expect(tooMany.userErrors[0].message).toMatch(/quantity/i);
    expect(sim.fulfillments(id)).toEqual([]);

    sim.markFulfilled(id);
    const closed = await create({ lineItemsByFulfillmentOrder: [{ fulfillmentOrderId: fo.id }] });
    expect(closed.fulfillment).toBeNull();
    expect(closed.userErrors[0].message).toMatch(/closed/);
    expect(sim.fulfillments(id).map((f) => f.source)).toEqual(['admin']);
  });

  it('answers a queued userError or THROTTLED once, then works again', async () => {
    const { id } = order(1);
    const [fo] = await fulfillmentOrdersOf(id);
    sim.failNextFulfillmentCreate({ userErrors: [{ field: ['fulfillment'], message: 'Something Shopify says' }] });
    sim.failNextFulfillmentCreate('throttled');
    const input = { fulfillment: { lineItemsByFulfillmentOrder: [{ fulfillmentOrderId: fo.id }] } };
    const a = await gql<{ fulfillmentCreate: { userErrors: unknown[] } }>(DOCS.fulfillmentCreate, input);
    expect(a.body.data!.fulfillmentCreate.userErrors).toEqual([{ field: ['fulfillment'], message: 'Something Shopify says' }]);
    const b = await gql(DOCS.fulfillmentCreate, input);
    expect(b.body.errors?.[0].extensions?.code).toBe('THROTTLED');
    expect(sim.fulfillments(id)).toEqual([]);
    const c = await gql<{ fulfillmentCreate: { userErrors: unknown[] } }>(DOCS.fulfillmentCreate, input);
    expect(c.body.data!.fulfillmentCreate.userErrors).toEqual([]);
    expect(sim.fulfillments(id)).toHaveLength(1);
  });

  it('drops the connection before the mutation runs, or after it landed', async () => {
    const { id } = order(2);
    const [fo] = await fulfillmentOrdersOf(id);
    const input = { fulfillment: { lineItemsByFulfillmentOrder: [{ fulfillmentOrderId: fo.id, fulfillmentOrderLineItems: [{ id: fo.lineItems.nodes[0].id, quantity: 1 }] }] } };
    sim.dropNext('before');
    await expect(gql(DOCS.fulfillmentCreate, input)).rejects.toThrow();
    expect(sim.fulfillments(id)).toEqual([]);
    sim.dropNext('after');
    await expect(gql(DOCS.fulfillmentCreate, input)).rejects.toThrow();
    expect(sim.fulfillments(id)).toHaveLength(1);
    expect(sim.calls().slice(-2).map((c) => c.status)).toEqual(['dropped', 'dropped']);
  });

  it('sends signed orders/fulfilled and orders/updated webhooks when asked', async () => {
    const received: Array<{ topic: string; hmac: string; body: string }> = [];
    const receiver = http.createServer((req, res) => {
      let body = '';
      req.on('data', (c) => (body += c));
      req.on('end', () => {
        received.push({ topic: String(req.headers['x-shopify-topic']), hmac: String(req.headers['x-shopify-hmac-sha256']), body });
        res.end('ok');
      });
    });
    await new Promise<void>((r) => receiver.listen(0, '127.0.0.1', r));
    try {
      const url = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hook`;
      sim.setWebhookSender(createShopifySender({ webhookUrl: url, shopDomain: 'presswork-test.myshopify.com', secret: 'whsec', retryDelaysMs: [] }));
      const { rest, id } = order(1);
      const [fo] = await fulfillmentOrdersOf(id);
      await gql(DOCS.fulfillmentCreate, { fulfillment: { lineItemsByFulfillmentOrder: [{ fulfillmentOrderId: fo.id }], trackingInfo: { number: 'TN1' } } });
      await sim.webhooksSettled();
      expect(received.map((r) => r.topic)).toEqual(['orders/fulfilled', 'orders/updated']);
      for (const r of received) expect(r.hmac).toBe(signShopifyBody('whsec', r.body));
      const body = JSON.parse(received[0].body);
      expect(received[0].body).toContain(`"id":${rest.id},`); // int64 ids as bare JSON numbers, as Shopify writes them
      expect(body.fulfillment_status).toBe('fulfilled');
      expect(body.fulfillments[0]).toMatchObject({ status: 'success', tracking_number: 'TN1' });
    } finally {
      sim.setWebhookSender(undefined);
      await new Promise<void>((r) => receiver.close(() => r()));
    }
  });
});

describe('cost and throttling', () => {
  it('computes the requested cost by the documented rules and refunds to the actual cost', async () => {
    const o = fakeOrder(5, { lineCount: 1 });
    const id = sim.addOrder(o);
    const a = await gql(DOCS.fulfillmentOrders, { id });
    // order 1 + fulfillmentOrders (2 + 5 × (node 1 + lineItems (2 + 50 × (node 1 + lineItem 1))))
    expect(a.body.extensions?.cost.requestedQueryCost).toBe(1 + 2 + 5 * (1 + 2 + 50 * 2));
    // first: 10 would ask 1033, over the single-query maximum of 1000
    const tooDear = await gql(DOCS.fulfillmentOrders.replace('fulfillmentOrders(first: 5)', 'fulfillmentOrders(first: 10)'), { id });
    expect(tooDear.body.errors?.[0]).toMatchObject({ extensions: { code: 'MAX_COST_EXCEEDED', cost: 1033, maxCost: 1000 } });
    // what came back: one fulfillment order with one line
    expect(a.body.extensions?.cost.actualQueryCost).toBe(1 + 2 + 1 * (1 + 2 + 1 * 2));
    expect(a.body.extensions?.cost.throttleStatus.currentlyAvailable).toBe(2000 - (1 + 2 + 1 + 2 + 2));
  });

  it('throttles over budget (HTTP 200 or 429) and restores over injected time', async () => {
    sim.setBucket({ maximumAvailable: 100, restoreRate: 10, currentlyAvailable: 100 });
    const query = 'query { orders(first: 40) { nodes { id } } }'; // 2 + 40 × 1 = 42
    const first = await gql(query);
    // no orders: actual cost is 2, so 98 remain
    expect(first.body.extensions?.cost).toMatchObject({ requestedQueryCost: 42, actualQueryCost: 2, throttleStatus: { currentlyAvailable: 98 } });
    sim.setBucket({ currentlyAvailable: 30 });
    const throttled = await gql(query);
    expect(throttled.status).toBe(200);
    expect(throttled.body).toEqual({
      errors: [{ message: 'Throttled', extensions: { code: 'THROTTLED', documentation: 'https://shopify.dev/api/usage/rate-limits' } }],
      extensions: { cost: { requestedQueryCost: 42, actualQueryCost: null, throttleStatus: { maximumAvailable: 100, currentlyAvailable: 30, restoreRate: 10 } } },
    });
    sim.setThrottledStatus(429);
    expect((await gql(query)).status).toBe(429);
    clock += 1_200; // +12 points
    const again = await gql(query);
    expect(again.status).toBe(200);
    expect(again.body.extensions?.cost.throttleStatus.currentlyAvailable).toBe(30 + 12 - 2);
    clock += 60_000;
    expect(sim.throttleStatus().currentlyAvailable).toBe(100);
  });

  it('refuses a query above the single-query maximum', async () => {
    const a = await gql('query { orders(first: 250) { nodes { lineItems(first: 250) { nodes { id } } } } }');
    expect(a.body.errors?.[0].extensions?.code).toBe('MAX_COST_EXCEEDED');
  });

  it('throttleNext answers THROTTLED whatever the bucket holds', async () => {
    sim.throttleNext(1);
    expect((await gql(DOCS.shop)).body.errors?.[0].extensions?.code).toBe('THROTTLED');
    expect((await gql(DOCS.shop)).body.errors).toBeUndefined();
  });
});

describe('webhook subscriptions', () => {
  it('creates with uri or the deprecated callbackUrl, refuses a duplicate, lists, pages, updates, deletes', async () => {
    const elsewhere = sim.addSubscription({ topic: 'orders/create', uri: 'https://other-app.example/hooks' });
    const create = async (topic: string, webhookSubscription: Record<string, unknown>) =>
      (await gql<{ webhookSubscriptionCreate: { webhookSubscription: { id: string; topic: string; uri: string; callbackUrl: string; format: string } | null; userErrors: Array<{ field: string[]; message: string }> } }>(DOCS.subscriptionCreate, { topic, webhookSubscription })).body.data!.webhookSubscriptionCreate;
    const a = await create('ORDERS_CREATE', { uri: 'http://127.0.0.1:8080/api/online-stores/shopify-webhook', format: 'JSON' });
    expect(a.userErrors).toEqual([]);
    expect(a.webhookSubscription).toMatchObject({ topic: 'ORDERS_CREATE', uri: 'http://127.0.0.1:8080/api/online-stores/shopify-webhook', format: 'JSON' });
    const b = await create('ORDERS_PAID', { callbackUrl: 'http://127.0.0.1:8080/api/online-stores/shopify-webhook', format: 'JSON' });
    expect(b.webhookSubscription?.uri).toBe('http://127.0.0.1:8080/api/online-stores/shopify-webhook');
    const dup = await create('ORDERS_CREATE', { uri: 'http://127.0.0.1:8080/api/online-stores/shopify-webhook' });
    expect(dup.webhookSubscription).toBeNull();
    expect(dup.userErrors[0].message).toMatch(/already been taken/);
    const blank = await create('ORDERS_UPDATED', { format: 'JSON' });
    expect(blank.userErrors[0].field).toEqual(['webhookSubscription', 'uri']);

    const list = await gql<{ webhookSubscriptions: { nodes: Array<{ id: string; uri: string }>; pageInfo: { hasNextPage: boolean; endCursor: string } } }>(DOCS.subscriptions, { first: 2 });
    validAnswer(DOCS.subscriptions, list.body.data, { first: 2 });
    expect(list.body.data!.webhookSubscriptions.nodes.map((n) => n.id)).toEqual([elsewhere.id, a.webhookSubscription!.id]);
    expect(list.body.data!.webhookSubscriptions.pageInfo.hasNextPage).toBe(true);
    const page2 = await gql<{ webhookSubscriptions: { nodes: Array<{ id: string }>; pageInfo: { hasNextPage: boolean } } }>(DOCS.subscriptions, { first: 2, after: list.body.data!.webhookSubscriptions.pageInfo.endCursor });
    expect(page2.body.data!.webhookSubscriptions.nodes.map((n) => n.id)).toEqual([b.webhookSubscription!.id]);
    const byTopic = await gql<{ webhookSubscriptions: { nodes: Array<{ id: string }> } }>('query { webhookSubscriptions(first: 10, topics: [ORDERS_CREATE]) { nodes { id } } }');
    expect(byTopic.body.data!.webhookSubscriptions.nodes).toHaveLength(2);

    const upd = await gql<{ webhookSubscriptionUpdate: { webhookSubscription: { uri: string }; userErrors: unknown[] } }>(DOCS.subscriptionUpdate, { id: elsewhere.id, webhookSubscription: { uri: 'https://presswork.example/api/online-stores/shopify-webhook' } });
    validAnswer(DOCS.subscriptionUpdate, upd.body.data, { id: elsewhere.id, webhookSubscription: {} });
    expect(upd.body.data!.webhookSubscriptionUpdate).toMatchObject({ webhookSubscription: { uri: 'https://presswork.example/api/online-stores/shopify-webhook' }, userErrors: [] });
    const del = await gql<{ webhookSubscriptionDelete: { deletedWebhookSubscriptionId: string; userErrors: unknown[] } }>(DOCS.subscriptionDelete, { id: b.webhookSubscription!.id });
    validAnswer(DOCS.subscriptionDelete, del.body.data, { id: 'x' });
    expect(del.body.data!.webhookSubscriptionDelete).toEqual({ deletedWebhookSubscriptionId: b.webhookSubscription!.id, userErrors: [] });
    expect(sim.subscriptions().map((s) => s.topic)).toEqual(['ORDERS_CREATE', 'ORDERS_CREATE']);
    const gone = await gql<{ webhookSubscriptionDelete: { deletedWebhookSubscriptionId: null; userErrors: unknown[] } }>(DOCS.subscriptionDelete, { id: b.webhookSubscription!.id });
    expect(gone.body.data!.webhookSubscriptionDelete.userErrors).toHaveLength(1);
    validAnswer(DOCS.subscriptionCreate, { webhookSubscriptionCreate: a }, { topic: 'ORDERS_CREATE', webhookSubscription: {} });
  });
});

describe("Shopify's own client against the simulator", () => {
  // @shopify/admin-api-client always calls https://<storeDomain>: its fetch is pointed at the simulator.
  const client = createAdminApiClient({
    storeDomain: 'presswork-test.myshopify.com',
    apiVersion: VERSION,
    accessToken: TOKEN,
    customFetchApi: (url, init) => fetch(String(url).replace('https://presswork-test.myshopify.com', base), init),
  });

  it('reads data and cost, and sees THROTTLED as a GraphQL error', async () => {
    const id = sim.addOrder(fakeOrder(9, { lineCount: 1 }));
    const ok = await client.request<{ order: { id: string; fulfillmentOrders: { nodes: Array<{ status: string }> } } }>(DOCS.fulfillmentOrders, { variables: { id } });
    expect(ok.errors).toBeUndefined();
    expect(ok.data?.order).toMatchObject({ id, fulfillmentOrders: { nodes: [{ status: 'OPEN' }] } });
    expect(ok.extensions?.cost).toMatchObject({ requestedQueryCost: 518, throttleStatus: { maximumAvailable: 2000, restoreRate: 100 } });
    sim.throttleNext(1);
    const throttled = await client.request(DOCS.shop);
    expect(throttled.errors?.graphQLErrors?.[0]).toMatchObject({ message: 'Throttled', extensions: { code: 'THROTTLED' } });
  });

  it('sees a wrong token as a 401', async () => {
    const wrong = createAdminApiClient({ storeDomain: 'presswork-test.myshopify.com', apiVersion: VERSION, accessToken: 'shpat_nope', customFetchApi: (url, init) => fetch(String(url).replace('https://presswork-test.myshopify.com', base), init) });
    const a = await wrong.request(DOCS.shop);
    expect(a.errors).toMatchObject({ networkStatusCode: 401 });
  });
});
