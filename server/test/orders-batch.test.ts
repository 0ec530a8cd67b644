// Webhook deliveries answered close together are processed together (one transaction), with the
// same rules as one at a time: newest updated_at wins, each order stored once, a failing delivery
// holds back no other, auto-send sites still decide per delivery. And the site cache: a secret
// changed around the store screen is accepted at once.
import crypto from 'node:crypto';
import { describe, expect, it, vi } from 'vitest';
import { fromJson } from '../src/db';
import { inboxRepo } from '../src/modules/inbox/repo';
import { shopifyJson, signShopifyBody } from '../simulators/shopify';
import { createWorld } from './harness';
import { SECRET_A, SECRET_B, SHOP_A, SHOP_B, connectStores, deliveries, makeDesign, order, orderRows, postWebhook, setSiteEnv } from './ordersKit';

describe('shopify webhook processing in batches', async () => {
  const w = await createWorld();
  await connectStores(w);
  const orders = w.services.orders;

  /** Stores a signed delivery (as the route does) without processing it: the caller decides when. */
  async function store(body: object, o: { shop?: string; secret?: string; topic?: string; eventId?: string } = {}): Promise<number | undefined> {
    const raw = Buffer.from(shopifyJson(body));
    const headers: Record<string, string> = {
      'x-shopify-topic': o.topic ?? 'orders/updated',
      'x-shopify-hmac-sha256': signShopifyBody(o.secret ?? SECRET_A, raw),
      'x-shopify-shop-domain': o.shop ?? SHOP_A,
      'x-shopify-webhook-id': crypto.randomUUID(),
      'x-shopify-api-version': '2026-07',
      'x-shopify-event-id': o.eventId ?? crypto.randomUUID(),
    };
    const answer = await orders.receiveWebhook({ rawBody: raw, header: (name) => headers[name.toLowerCase()] });
    return 'received' in answer ? answer.deliveryId : undefined;
  }

  /** Hands the deliveries to processing in one go (as answers arriving together do) and counts the statements marking deliveries processed. */
  async function processTogether(ids: number[]): Promise<{ batchedMarks: number; singleMarks: number }> {
    const marks = { batchedMarks: 0, singleMarks: 0 };
    const listener = (q: { sql: string }) => {
      const sql = q.sql.toLowerCase();
      if (!sql.startsWith('update') || !sql.includes('webhook_deliveries') || !sql.includes('processed_at')) return;
      if (sql.includes(' in (')) marks.batchedMarks++;
      else marks.singleMarks++;
    };
    w.db.on('query', listener);
    try {
      for (const id of ids) orders.processSoon(id);
      await orders.idle();
    } finally {
      w.db.off('query', listener);
    }
    return marks;
  }

  it('deliveries processed together follow the one-at-a-time rules, in one transaction', async () => {
    // An order stored before the batch.
    const x1 = order({ name: '#2001', updatedAt: '2026-11-20T10:00:00Z' });
    const first = await store(x1, { topic: 'orders/create' });
    await processTogether([first!]);
    expect((await orderRows(w, x1.id)).map((r) => r.field2)).toEqual(['#2001']);

    const x3 = { ...order({ id: x1.id, name: '#2001-new', updatedAt: '2026-11-20T12:00:00Z' }) };
    const x2 = order({ id: x1.id, name: '#2001-stale', updatedAt: '2026-11-20T11:00:00Z' });
    const y1 = order({ name: '#2002', createdAt: '2026-11-19T09:00:00Z', updatedAt: '2026-11-19T09:00:00Z' });
    const y2 = order({ id: y1.id, name: '#2002', createdAt: '2026-11-19T09:00:00Z', updatedAt: '2026-11-19T09:30:00Z', skus: [] });
    const z = order({ name: '#2003', first: 'Grace', last: 'Hopper' });
    const b = order({ name: '#3001' });
    const dupEvent = crypto.randomUUID();
    const ids = [
      await store(x3),
      await store(x2), // older than x3, which comes first: stale
      await store(y1, { topic: 'orders/create', eventId: dupEvent }),
      await store(y1, { topic: 'orders/create', eventId: dupEvent }), // the same event again: not stored
      await store(y2), // the lines removed: no-lines
      await store(z, { topic: 'orders/create' }),
      await store(b, { topic: 'orders/create', shop: SHOP_B, secret: SECRET_B }),
    ];
    expect(ids[3]).toBeUndefined();
    const stored = ids.filter((id): id is number => id !== undefined);
    const marks = await processTogether(stored);
    expect(marks).toEqual({ batchedMarks: 1, singleMarks: 0 });

    const [x] = await orderRows(w, x1.id);
    expect(await orderRows(w, x1.id)).toHaveLength(1);
    expect(x).toMatchObject({ field2: '#2001-new', status: 'received', data: { name: '#2001-new', updated_at: '2026-11-20T12:00:00Z', lastTopic: 'orders/updated' } });
    const y = await orderRows(w, y1.id);
    expect(y).toHaveLength(1);
    expect(y[0]).toMatchObject({ status: 'no-lines', created_at: '2026-11-19T09:00:00.000Z', data: { line_items: [], updated_at: '2026-11-19T09:30:00Z' } });
    expect(await orderRows(w, z.id)).toMatchObject([{ field2: '#2003', site_id: w.sites.a, status: 'received', search_text: expect.stringContaining('grace hopper') }]);
    expect(await orderRows(w, b.id)).toMatchObject([{ field2: '#3001', site_id: w.sites.b }]);
    const after = await w.db('webhook_deliveries').whereIn('id', stored).select('status', 'attempts');
    expect(after).toHaveLength(6);
    expect(after.every((d: { status: string; attempts: number }) => d.status === 'processed' && Number(d.attempts) === 0)).toBe(true);
  });

  it("a batch looks each SKU's design up once; a design that asks for proofs still makes each order's own line wait", async () => {
    const made = await makeDesign(w, w.tokens.adminA, { name: 'Proofed in a batch', sku: 'BATCH-PROOF', productType: 'Card', isCustomizable: true, data: { proof: 'required' } });
    expect(made.id).toEqual(expect.any(Number));
    const list = [order({ skus: ['BATCH-PROOF', 'SKU-CARD'] }), order({ skus: ['SKU-CARD', 'BATCH-PROOF'] }), order({ skus: ['SKU-CARD'] })];
    const ids: number[] = [];
    for (const o of list) ids.push((await store(o, { topic: 'orders/create' }))!);
    const lookups: unknown[] = [];
    const listener = (q: { sql: string; bindings?: unknown[] }) => {
      if (/select/i.test(q.sql) && /designs/.test(q.sql) && /sku/.test(q.sql)) lookups.push(...(q.bindings ?? []).filter((b) => b === 'BATCH-PROOF' || b === 'SKU-CARD'));
    };
    w.db.on('query', listener);
    try {
      expect(await processTogether(ids)).toEqual({ batchedMarks: 1, singleMarks: 0 });
    } finally {
      w.db.off('query', listener);
    }
    // Each SKU asked for once in the batch (one query for all of them), not once per order (that was most of a burst's statements).
    expect([...lookups].sort()).toEqual(['BATCH-PROOF', 'SKU-CARD']);
    const waits = async (orderId: string) => (await w.db('line_waits').where({ order_id: orderId }).orderBy('id')).map((x: { line_id: string; state: string }) => [x.line_id, x.state]);
    expect(await waits(list[0].id)).toEqual([[list[0].line_items[0].id, 'proof-due']]);
    expect(await waits(list[1].id)).toEqual([[list[1].line_items[1].id, 'proof-due']]);
    expect(await waits(list[2].id)).toEqual([]);
  });

  it('40 deliveries together: one transaction on PostgreSQL (64 a batch), two on SQLite (32, its statements hold the answers back)', async () => {
    const list = Array.from({ length: 40 }, () => order());
    const ids: number[] = [];
    for (const o of list) ids.push((await store(o, { topic: 'orders/create' }))!);
    const marks = await processTogether(ids);
    expect(marks).toEqual({ batchedMarks: w.config.database.client === 'pg' ? 1 : 2, singleMarks: 0 });
    expect((await deliveries(w)).filter((d: { id: number; status: string }) => ids.includes(Number(d.id)) && d.status === 'processed')).toHaveLength(40);
    for (const o of list) expect((await orderRows(w, o.id)).length).toBe(1);
  });

  it('a delivery that cannot be processed holds back no other: the batch is redone one by one', async () => {
    const good1 = order({ name: '#4001' });
    const good2 = order({ name: '#4002' });
    const a = await store(good1, { topic: 'orders/create' });
    // Stored around the route's checks (an old delivery, a payload a later version rejects).
    const bad = await inboxRepo(w.db).insert({ source: 'shopify', eventId: crypto.randomUUID(), deliveryId: null, siteId: w.sites.a, topic: 'orders/create', payload: { note: 'no id' }, status: 'received', receivedAt: new Date().toISOString() });
    const c = await store(good2, { topic: 'orders/create' });
    const marks = await processTogether([a!, bad!, c!]);
    expect(marks).toEqual({ batchedMarks: 0, singleMarks: 2 });
    expect(await orderRows(w, good1.id)).toHaveLength(1);
    expect(await orderRows(w, good2.id)).toHaveLength(1);
    expect(await deliveries(w, { id: bad })).toMatchObject([{ status: 'failed', attempts: 1, error: 'The payload has no order id' }]);
    expect((await deliveries(w, { id: a })).map((d: { status: string }) => d.status)).toEqual(['processed']);
  });

  it('an auto-send site in a batch decides per delivery; each order queued once', async () => {
    await makeDesign(w, w.tokens.adminA, { name: 'Batch auto card', sku: 'BATCH-AUTO', hpSKU: 'HP-BATCH' });
    await setSiteEnv(w, w.sites.a, { HP_AUTO_SEND: '1' });
    const calls: Array<{ orderId: string }> = [];
    vi.spyOn(w.services.fulfilment, 'enqueueOrderSend').mockImplementation(async (_trx, input) => (calls.push(input), []));
    try {
      const ready = order({ skus: ['BATCH-AUTO'] });
      const unmapped = order({ skus: ['NO-SUCH-SKU'] });
      const ids = [await store(ready, { topic: 'orders/create' }), await store(unmapped, { topic: 'orders/create' })];
      await processTogether(ids as number[]);
      expect(calls.map((c) => c.orderId)).toEqual([ready.id]);
      expect(await orderRows(w, ready.id)).toHaveLength(1);
      expect(await orderRows(w, unmapped.id)).toHaveLength(1);
    } finally {
      vi.restoreAllMocks();
      await setSiteEnv(w, w.sites.a, { HP_AUTO_SEND: '' });
    }
  });

  it('deliveries arriving together are stored by one INSERT; an event id twice among them is stored once', async () => {
    const inserts: string[] = [];
    const listener = (q: { sql: string }) => {
      if (/^insert into .webhook_deliveries./i.test(q.sql)) inserts.push(q.sql);
    };
    const orders5 = Array.from({ length: 5 }, (_, i) => order({ name: `#50${i}` }));
    const twice = crypto.randomUUID();
    w.db.on('query', listener);
    let ids: Array<number | undefined>;
    try {
      ids = await Promise.all([...orders5.map((o, i) => store(o, { topic: 'orders/create', eventId: i === 2 ? twice : undefined })), store(orders5[2], { topic: 'orders/create', eventId: twice })]);
    } finally {
      w.db.off('query', listener);
    }
    expect(inserts).toHaveLength(1);
    expect(ids.slice(0, 5).every((id) => typeof id === 'number')).toBe(true);
    expect(new Set(ids.slice(0, 5)).size).toBe(5);
    expect(ids[5]).toBeUndefined(); // the second copy of the event: a duplicate
    expect(await deliveries(w, { event_id: twice })).toHaveLength(1);
    await processTogether(ids.filter((id): id is number => id !== undefined));
    for (const o of orders5) expect(await orderRows(w, o.id)).toHaveLength(1);
  });

  it('a secret changed around the store screen (no invalidation) is accepted at once; the old one within the cache time at most', async () => {
    expect((await postWebhook(w, order(), { secret: SECRET_A })).status).toBe(200); // the site is now cached
    const row = await w.db('sites').where({ id: w.sites.a }).first('settings');
    const before = JSON.stringify(fromJson(row.settings, {}));
    const changed = before.replace(SECRET_A, 'rotated-secret-0123456789');
    expect(changed).not.toBe(before);
    await w.db('sites').where({ id: w.sites.a }).update({ settings: changed });
    try {
      expect((await postWebhook(w, order(), { secret: 'rotated-secret-0123456789' })).status).toBe(200);
      // The refused webhook re-read the site: the old secret is refused from then on.
      const res = await postWebhook(w, order(), { secret: SECRET_A });
      expect(res.status).toBe(401);
      expect(res.body.error).toBe('Invalid webhook signature');
    } finally {
      await w.db('sites').where({ id: w.sites.a }).update({ settings: before });
      orders.invalidateSites();
      await orders.idle();
    }
  });
});
