// Tracking back to the store: a shipped postback or Mark shipped queues a store-fulfilment outbox
// row; the worker creates the Shopify fulfilment of exactly those lines, once. The store here is a
// fake Admin API answering Shopify's shapes (fulfillment orders, fulfillmentCreate, userErrors,
// THROTTLED), and every document it receives is checked against Shopify's published schema.
import { beforeEach, describe, expect, it } from 'vitest';
import { formatDateTime } from '../src/lib/clock';
import { createLogger } from '../src/lib/logger';
import { printJobsRepo } from '../src/modules/print-jobs/repo';
import {
  FULFILLMENT_CREATE_MUTATION,
  FULFILLMENT_ORDERS_QUERY,
  STORE_FULFILMENT_KIND,
  storeFulfilments,
  type StoreRequest,
} from '../src/modules/fulfilment/storeFulfilment';
import { bearer } from './harness';
import { createHpWorld, HP, storeOrder } from './fulfilmentWorld';
import { connectStores, deliver, order as webhookOrder, setSiteEnv } from './ordersKit';
import { adminSchemaProblems } from './shopifyAdminSchema';

const w = await createHpWorld();
await connectStores(w);
await setSiteEnv(w, w.sites.a, { SHOPIFY_ADMIN_TOKEN: 'shpat_test_token' });

type Behaviour = 'throttled' | 'user-errors' | 'lose-answer' | 'crash';

/** A store's Admin API as Shopify documents it: one fulfillment order per order, remaining quantities, fulfilments. */
function fakeStore() {
  const orders = new Map<string, Array<{ id: string; status: string; lines: Array<{ id: string; lineItemId: string; sku: string; remaining: number }> }>>();
  const creates: Array<{ fulfillment: { lineItemsByFulfillmentOrder: Array<{ fulfillmentOrderId: string; fulfillmentOrderLineItems: Array<{ id: string; quantity: number }> }>; trackingInfo: { number: string; url?: string; company?: string }; notifyCustomer: boolean } }> = [];
  const next: Behaviour[] = [];
  let seq = 0;
  let gate: Promise<void> | undefined;
  const error = (kind: string, message: string) => Object.assign(new Error(message), { kind });
  const request = (async (document: string, variables?: Record<string, unknown>) => {
    expect(adminSchemaProblems(document)).toEqual([]);
    await gate;
    if (document.includes('fulfillmentCreate')) {
      const behaviour = next.shift();
      if (behaviour === 'throttled') throw error('throttled', 'Throttled');
      const input = (variables as (typeof creates)[number]).fulfillment;
      if (behaviour === 'user-errors') return { fulfillmentCreate: { fulfillment: null, userErrors: [{ field: ['fulfillment'], message: 'Fulfillment order is not in an open state.' }] } };
      for (const group of input.lineItemsByFulfillmentOrder) {
        for (const item of group.fulfillmentOrderLineItems) {
          const line = [...orders.values()].flat().flatMap((fo) => fo.lines).find((l) => l.id === item.id)!;
          if (line.remaining < item.quantity) return { fulfillmentCreate: { fulfillment: null, userErrors: [{ field: ['fulfillment'], message: 'Invalid fulfillment order line item quantity requested.' }] } };
          line.remaining -= item.quantity;
        }
      }
      creates.push({ fulfillment: input });
      const answer = { fulfillmentCreate: { fulfillment: { id: `gid://shopify/Fulfillment/${++seq}`, status: 'SUCCESS', createdAt: '2026-11-25T10:00:00Z', trackingInfo: [{ number: input.trackingInfo.number, url: input.trackingInfo.url ?? null, company: input.trackingInfo.company ?? null }] }, userErrors: [] } };
      // Landed in the store, but the answer never came back.
      if (behaviour === 'lose-answer') throw error('network', 'socket hang up');
      // The app dies here: the fulfilment landed, nobody ever hears back.
      if (behaviour === 'crash') return new Promise<never>(() => {});
      return answer;
    }
    const id = String(variables?.id ?? '');
    const fos = orders.get(id.slice(id.lastIndexOf('/') + 1));
    if (!fos) return { order: null };
    return {
      order: {
        id,
        fulfillmentOrders: { nodes: fos.map((fo) => ({ id: fo.id, status: fo.lines.some((l) => l.remaining > 0) ? fo.status : 'CLOSED', lineItems: { nodes: fo.lines.map((l) => ({ id: l.id, remainingQuantity: l.remaining, lineItem: { id: `gid://shopify/LineItem/${l.lineItemId}`, sku: l.sku } })) } })) },
      },
    };
  }) as StoreRequest;
  return {
    request,
    creates,
    next,
    hold(p: Promise<void> | undefined) {
      gate = p;
    },
    addOrder(orderId: string, lines: Array<{ id: string; sku: string; quantity?: number; remaining?: number }>) {
      orders.set(orderId, [{ id: `gid://shopify/FulfillmentOrder/${orderId}1`, status: 'OPEN', lines: lines.map((l, i) => ({ id: `gid://shopify/FulfillmentOrderLineItem/${orderId}${i}`, lineItemId: l.id, sku: l.sku, remaining: l.remaining ?? l.quantity ?? 1 })) }]);
    },
  };
}

/** Polls a condition of the world (no timing assumption: it waits as long as the test may). */
async function waitUntil(ok: () => Promise<boolean>) {
  while (!(await ok())) await new Promise((r) => setTimeout(r, 5));
}

let store = fakeStore();
const adminFor = () => ({ request: store.request });
w.services.storeFulfilments.configure({ adminFor });

beforeEach(() => {
  store = fakeStore();
});

let seq = 0;
const newOrderId = () => `${5_100_000_000 + ++seq * 17}`;

async function storedOrder(lines = [{ id: '21', sku: 'SF-A' }, { id: '22', sku: 'SF-B' }]) {
  const orderId = newOrderId();
  await w.insertOrder(w.sites.a, storeOrder(orderId, lines));
  store.addOrder(orderId, lines);
  return orderId;
}

const hook = (body: unknown) => w.request().post('/api/online-stores/hp-webhook?site=site-a').set('x-postback-token', HP.token).send(body as object);
const shipped = (sourceOrderId: string, trackingNumber = 'RM123456789GB') => ({
  event: 'shipment.shipped',
  sourceOrderId,
  orderId: 'hp-order-1',
  status: 'shipped',
  timestamp: '2026-11-25T09:00:00Z',
  shipment: { trackingNumber, trackingUrl: `https://track.example/${trackingNumber}`, shippedDate: '2026-11-25', carrier: { code: 'rm', service: 'Tracked 48', alias: 'royalmail' } },
});
const rowsOf = (orderId: string) => w.db('outbox').where({ kind: STORE_FULFILMENT_KIND }).where('dedupe_key', 'like', `store-fulfilment:${w.sites.a}:${orderId}:%`).orderBy('id');
const pass = () => w.services.storeFulfilments.processDue();
/** The order's timeline entries of its write-backs: action, from, to, who, why. */
const writeBackHistory = async (orderId: string) => {
  const res = await w.request().get(`/api/online-stores/order-history?id=${orderId}`).set(bearer(w.tokens.userA));
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return (res.body.data.list as Array<{ action: string; from: string | null; to: string | null; actor: { automatic?: string }; reason: string | null }>)
    .filter((e) => e.action.startsWith('store-') || (e.action === 'rescheduled' && e.actor.automatic === 'Store write-back (Shopify)'))
    .map((e) => [e.action, e.from, e.to, e.actor.automatic, e.reason]);
};
const later = () => w.clock.advance(2 * 60 * 60_000);

async function inHouseJobs(orderId: string, lineIds: string[], madeBy: 'inHouse' | 'provider' = 'inHouse') {
  const at = w.clock.now().toISOString();
  for (const lineItemId of lineIds) {
    await printJobsRepo(w.db).insert({
      productName: 'Card',
      previewUrl: null,
      quantity: 1,
      createdAt: at,
      updatedAt: at,
      readyForPrint: true,
      clientId: w.sites.a,
      artworkUrls: [],
      productId: null,
      designId: null,
      shopifyOrderId: orderId,
      lineItemId,
      data: {} as never,
      madeBy,
      isPrinted: true,
      isPDFDownloaded: true,
      isRePrinted: false,
      reprintCount: 0,
      downloadedAt: null,
      downloadedByUserId: null,
      printedAt: at,
      printedByUserId: null,
      printedByName: null,
      packedAt: null,
      packedByUserId: null,
      packedByName: null,
    } as never);
  }
}

describe('the documents', () => {
  it('are valid against Shopify\'s published Admin schema', () => {
    expect(adminSchemaProblems(FULFILLMENT_ORDERS_QUERY)).toEqual([]);
    expect(adminSchemaProblems(FULFILLMENT_CREATE_MUTATION)).toEqual([]);
  });
});

describe('shipped postback → store fulfilment', () => {
  it('creates exactly one fulfilment with the tracking and notifyCustomer, for exactly the shipped line', async () => {
    const orderId = await storedOrder();
    expect((await hook(shipped(`${orderId}-21`))).status).toBe(200);
    // A repeat of the postback is the same shipment.
    await hook({ ...shipped(`${orderId}-21`), timestamp: '2026-11-25T09:05:00Z' });
    expect(await rowsOf(orderId)).toHaveLength(1);
    const { outcomes } = await pass();
    expect(outcomes.map((o) => o.status)).toEqual(['sent']);
    await pass();
    expect(store.creates).toHaveLength(1);
    const f = store.creates[0].fulfillment;
    expect(f.notifyCustomer).toBe(true);
    expect(f.trackingInfo).toEqual({ number: 'RM123456789GB', url: 'https://track.example/RM123456789GB', company: 'royalmail' });
    expect(f.lineItemsByFulfillmentOrder).toEqual([{ fulfillmentOrderId: `gid://shopify/FulfillmentOrder/${orderId}1`, fulfillmentOrderLineItems: [{ id: `gid://shopify/FulfillmentOrderLineItem/${orderId}0`, quantity: 1 }] }]);
    // Check order / HP Data see what went back.
    const res = await w.request().get(`/api/orders/${orderId}/store-fulfilments`).set(bearer(w.tokens.userA));
    expect(res.body.data).toEqual([expect.objectContaining({ status: 'sent', source: 'provider', lineIds: ['21'], fulfillmentId: 'gid://shopify/Fulfillment/1', fulfilledLineIds: ['21'] })]);
    const detail = await w.request().get(`/api/hp-data/order/${orderId}`).set(bearer(w.tokens.userA));
    expect(detail.body.data.storeFulfilments).toEqual([expect.objectContaining({ status: 'sent', tracking: expect.objectContaining({ number: 'RM123456789GB' }) })]);
    // The order's timeline says it went back, once, with the carrier and tracking.
    expect(await writeBackHistory(orderId)).toEqual([['store-fulfilled', 'pending', 'sent', 'Store write-back (Shopify)', 'line 21, tracking RM123456789GB (royalmail), fulfilment 1']]);
  });

  it('a whole-order shipment fulfils every line; another site\'s user sees none of it', async () => {
    const orderId = await storedOrder();
    await hook(shipped(orderId, 'TRK-WHOLE'));
    await pass();
    expect(store.creates).toHaveLength(1);
    expect(store.creates[0].fulfillment.lineItemsByFulfillmentOrder[0].fulfillmentOrderLineItems.map((i) => i.id)).toEqual([`gid://shopify/FulfillmentOrderLineItem/${orderId}0`, `gid://shopify/FulfillmentOrderLineItem/${orderId}1`]);
    expect((await w.request().get(`/api/orders/${orderId}/store-fulfilments`).set(bearer(w.tokens.userB))).status).toBe(404);
  });

  it('a line already fulfilled in the store is not fulfilled twice: done, "already fulfilled in the store"', async () => {
    const orderId = newOrderId();
    await w.insertOrder(w.sites.a, storeOrder(orderId, [{ id: '31', sku: 'SF-A' }]));
    store.addOrder(orderId, [{ id: '31', sku: 'SF-A', remaining: 0 }]);
    await hook(shipped(`${orderId}-31`));
    const { outcomes } = await pass();
    expect(store.creates).toHaveLength(0);
    expect(outcomes).toEqual([expect.objectContaining({ status: 'sent', note: 'already fulfilled in the store', alreadyFulfilledLineIds: ['31'] })]);
    expect(await writeBackHistory(orderId)).toEqual([['store-fulfilled', 'pending', 'sent', 'Store write-back (Shopify)', 'already fulfilled in the store']]);
  });

  it('a line the store\'s webhooks said is fulfilled (by hand) queues nothing', async () => {
    const body = webhookOrder({ skus: ['SF-A'] });
    await deliver(w, body, { topic: 'orders/create' });
    const line = body.line_items[0];
    const fulfilled = { ...body, fulfillment_status: 'fulfilled', updated_at: '2026-11-21T10:00:00Z', line_items: [{ ...line, fulfillment_status: 'fulfilled', fulfillable_quantity: 0 }] };
    expect((await deliver(w, fulfilled, { topic: 'orders/fulfilled' })).status).toBe(200);
    await hook(shipped(`${body.id}-${line.id}`));
    expect(await rowsOf(body.id)).toHaveLength(0);
  });

  it('userErrors: the row fails with Shopify\'s message, for an operator', async () => {
    const orderId = await storedOrder();
    store.next.push('user-errors');
    await hook(shipped(`${orderId}-22`));
    const { outcomes } = await pass();
    expect(outcomes).toEqual([expect.objectContaining({ status: 'failed', error: 'The store refused the fulfilment: fulfillment: Fulfillment order is not in an open state.' })]);
    expect(await writeBackHistory(orderId)).toEqual([['store-failed', 'pending', 'failed', 'Store write-back (Shopify)', 'The store refused the fulfilment: fulfillment: Fulfillment order is not in an open state.']]);
    later();
    expect((await pass()).claimed).toBe(0);
    expect(store.creates).toHaveLength(0);
  });

  it('THROTTLED: tried again later, then one fulfilment', async () => {
    const orderId = await storedOrder();
    store.next.push('throttled');
    await hook(shipped(`${orderId}-21`));
    expect((await pass()).outcomes).toEqual([expect.objectContaining({ status: 'pending', error: expect.stringContaining('throttling') })]);
    // The order's timeline says the write-back failed and when the next try is, in the store's time zone.
    const [row] = await rowsOf(orderId);
    const retried = ['rescheduled', null, null, 'Store write-back (Shopify)', `Next try at ${formatDateTime(row.next_attempt_at, w.config.sync.timezone)} (attempt 1 of ${w.services.fulfilment.options.maxAttempts}): ${row.error}`];
    expect(row.error).toMatch(/throttling/);
    expect(await writeBackHistory(orderId)).toEqual([retried]);
    expect((await pass()).claimed).toBe(0);
    later();
    expect((await pass()).outcomes).toEqual([expect.objectContaining({ status: 'sent' })]);
    expect(store.creates).toHaveLength(1);
    expect(await writeBackHistory(orderId)).toEqual([retried, ['store-fulfilled', 'pending', 'sent', 'Store write-back (Shopify)', 'line 21, tracking RM123456789GB (royalmail), fulfilment 1']]);
  });

  it('an answer lost after the fulfilment landed: the retry finds it and creates no second one', async () => {
    const orderId = await storedOrder();
    store.next.push('lose-answer');
    await hook(shipped(`${orderId}-21`));
    expect((await pass()).outcomes).toEqual([expect.objectContaining({ status: 'pending' })]);
    later();
    const { outcomes } = await pass();
    expect(store.creates).toHaveLength(1);
    expect(outcomes).toEqual([expect.objectContaining({ status: 'sent', note: 'Fulfilled in the store (the answer to our earlier request was lost)' })]);
  });

  it('the app killed mid-send (lease held, no outcome): after the lease, the next instance finds the fulfilment and creates none', async () => {
    const orderId = await storedOrder();
    store.next.push('crash');
    await hook(shipped(`${orderId}-21`));
    void pass();
    await waitUntil(async () => store.creates.length === 1);
    const restarted = storeFulfilments({ db: w.db, clock: w.clock, config: w.config, log: createLogger('silent'), production: w.services.production, options: w.services.fulfilment.options }, { adminFor });
    // Still leased: the restarted instance leaves it alone.
    expect((await restarted.processDue()).claimed).toBe(0);
    w.clock.advance(w.services.fulfilment.options.leaseMs + 1);
    const { outcomes } = await restarted.processDue();
    expect(outcomes).toEqual([expect.objectContaining({ status: 'sent', note: 'Fulfilled in the store (the answer to our earlier request was lost)' })]);
    expect(store.creates).toHaveLength(1);
  });

  it('two workers (two instances) → one send', async () => {
    const orderId = await storedOrder();
    await hook(shipped(`${orderId}-21`));
    let open!: () => void;
    store.hold(new Promise<void>((r) => (open = r)));
    const other = storeFulfilments({ db: w.db, clock: w.clock, config: w.config, log: createLogger('silent'), production: w.services.production, options: w.services.fulfilment.options }, { adminFor });
    const both = Promise.all([pass(), other.processDue()]);
    await new Promise((r) => setTimeout(r, 20));
    open();
    const [a, b] = await both;
    expect(a.claimed + b.claimed).toBe(1);
    expect(store.creates).toHaveLength(1);
  });

  it('a store without an Admin API token: nothing is queued', async () => {
    await setSiteEnv(w, w.sites.a, { SHOPIFY_ADMIN_TOKEN: '' });
    try {
      const orderId = await storedOrder();
      await hook(shipped(`${orderId}-21`));
      expect(await rowsOf(orderId)).toHaveLength(0);
    } finally {
      await setSiteEnv(w, w.sites.a, { SHOPIFY_ADMIN_TOKEN: 'shpat_test_token' });
    }
  });
});

const orderStatus = async (orderId: string) => ((await w.db('store_orders').where({ site_id: w.sites.a, store_order_id: orderId }).first('status')) as { status: string }).status;

describe('Mark shipped (printed in house)', () => {
  const mark = (body: Record<string, unknown>, token = w.tokens.userA) => w.request().post('/api/orders/mark-shipped').set(bearer(token)).send(body);

  it('creates the fulfilment of the in-house lines with the carrier, number and URL, once', async () => {
    const orderId = await storedOrder();
    await inHouseJobs(orderId, ['21']);
    await inHouseJobs(orderId, ['22'], 'provider');
    const body = { site: 'site-a', orderId, carrier: 'Royal Mail', trackingNumber: 'RM000111222GB', trackingUrl: 'https://www.royalmail.com/track-your-item#/tracking-results/RM000111222GB' };
    const res = await mark(body);
    expect(res.status).toBe(200);
    expect(res.body.data).toEqual(expect.objectContaining({ status: 'sent', source: 'in-house', lineIds: ['21'], fulfilledLineIds: ['21'] }));
    expect(store.creates).toHaveLength(1);
    expect(store.creates[0].fulfillment.trackingInfo).toEqual({ number: 'RM000111222GB', url: body.trackingUrl, company: 'Royal Mail' });
    expect(store.creates[0].fulfillment.notifyCustomer).toBe(true);
    // A double click is the same shipment.
    expect((await mark(body)).body.data.status).toBe('sent');
    expect(store.creates).toHaveLength(1);
    // Line 22 is still at the provider: the order is not shipped until its postback says so.
    expect(await orderStatus(orderId)).not.toBe('shipped');
  });

  it('an order printed wholly in house is shipped, with its tracking, once every line has left', async () => {
    const orderId = await storedOrder();
    await inHouseJobs(orderId, ['21', '22']);
    const base = { site: 'site-a', orderId, carrier: 'DPD', trackingNumber: 'DPD-1' };
    expect((await mark({ ...base, lineIds: ['21'] })).status).toBe(200);
    expect(await orderStatus(orderId)).not.toBe('shipped');
    expect((await mark({ ...base, lineIds: ['22'], trackingNumber: 'DPD-2' })).status).toBe(200);
    expect(await orderStatus(orderId)).toBe('shipped');
    const row = await w.db('store_orders').where({ site_id: w.sites.a, store_order_id: orderId }).first('our_data');
    expect(JSON.stringify(row.our_data)).toContain('DPD-2');
  });

  it('an e-card line (e-mailed, never posted) does not hold the order back from shipped', async () => {
    await w.request().post('/api/designs').set(bearer(w.tokens.adminA)).send({ name: 'Mark shipped e-card', sku: 'SF-ECARD', productType: 'E-card' }).expect(200);
    const orderId = await storedOrder([{ id: '21', sku: 'SF-A' }, { id: '23', sku: 'SF-ECARD' }]);
    await inHouseJobs(orderId, ['21']);
    const res = await mark({ site: 'site-a', orderId, carrier: 'DPD', trackingNumber: 'DPD-E1' });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body.data.lineIds).toEqual(['21']);
    expect(await orderStatus(orderId)).toBe('shipped');
  });

  it('refuses a provider line, an unknown line, a missing tracking number or a bad URL, naming the field', async () => {
    const orderId = await storedOrder();
    await inHouseJobs(orderId, ['21']);
    await inHouseJobs(orderId, ['22'], 'provider');
    const base = { site: 'site-a', orderId, carrier: 'Royal Mail', trackingNumber: 'X1' };
    const provider = await mark({ ...base, lineIds: ['22'] });
    expect(provider.status).toBe(400);
    expect(provider.body.field).toBe('lineIds.0');
    expect((await mark({ ...base, lineIds: ['99'] })).body.field).toBe('lineIds.0');
    const noNumber = await mark({ ...base, trackingNumber: '  ' });
    expect(noNumber.status).toBe(400);
    expect(noNumber.body.field).toBe('trackingNumber');
    expect((await mark({ ...base, trackingUrl: 'javascript:alert(1)' })).body.field).toBe('trackingUrl');
    expect((await mark({ ...base, site: undefined }, w.tokens.userB)).status).toBe(404);
    expect(store.creates).toHaveLength(0);
    expect(await rowsOf(orderId)).toHaveLength(0);
  });
});
