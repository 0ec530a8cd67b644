// Migration 20261124_011_order_tables on a database holding the old shape (orders, provider events
// and provider sends as general_data records): the API answers the same records afterwards, the
// same ids, one order per (site, store order id) — the newest update of duplicates kept.
// Runs on SQLite, and on PostgreSQL under `npm run test:pg`.
import { describe, expect, it } from 'vitest';
import { migrationSource } from '../../migrations';
import { bearer, createWorld } from './harness';
import { connectStores, deliver, order } from './ordersKit';

const w = await createWorld();
const t0 = '2026-11-20T09:00:00.000Z';

// Back to the schema before the order tables, undoing any later migration first (down runs on empty tables here).
for (let undone = 0; (await w.db.schema.hasTable('store_orders')) && undone < 60; undone++) await w.db.migrate.down({ migrationSource });
expect(await w.db.schema.hasTable('store_orders')).toBe(false);

const storeJson = (id: string, name: string, updatedAt: string, extra: Record<string, unknown> = {}) => ({
  id,
  name,
  order_number: Number(name.slice(1)),
  created_at: t0,
  updated_at: updatedAt,
  email: 'ada@example.com',
  financial_status: 'paid',
  fulfillment_status: null,
  customer: { id: '9', first_name: 'Ada', last_name: 'Lovelace', email: 'ada@example.com' },
  line_items: [{ id: '501', name: 'Card', title: 'Card', product_id: '7', variant_id: null, sku: 'CARD-1', quantity: 2, properties: [] }],
  shipping_address: null,
  shipping_lines: [],
  lastTopic: 'orders/updated',
  preGeneratedHPItems: [],
  hpOrderId: null,
  tracking: null,
  ...extra,
});

const oldRow = (r: { type: string; field1: string | null; field2: string | null; name: string; status: string | null; data: unknown; siteId: number; createdAt: string; updatedAt: string; search?: string }) => ({
  type: r.type,
  field1: r.field1,
  field2: r.field2,
  name: r.name,
  status: r.status,
  search_text: r.search ?? null,
  data: JSON.stringify(r.data),
  site_id: r.siteId,
  user_id: null,
  perm_create: false,
  perm_read: true,
  perm_update: false,
  perm_delete: false,
  created_at: r.createdAt,
  updated_at: r.updatedAt,
});

const insertOld = async (row: ReturnType<typeof oldRow>) => {
  const [r] = await w.db('general_data').insert(row).returning('id');
  return Number(typeof r === 'object' ? r.id : r);
};

// Site A: order 1001 twice (an old race), the newer one shipped; order 1002; events and sends. Site B: its own 1001.
const dupOld = await insertOld(oldRow({ type: 'shopify-order-log', field1: '1001', field2: '#1001', name: 'order-log', status: 'received', data: storeJson('1001', '#1001', '2026-11-20T09:00:00Z', { status: 'received' }), siteId: w.sites.a, createdAt: t0, updatedAt: '2026-11-20T09:00:01.000Z', search: '#1001 1001 ada lovelace' }));
const kept = await insertOld(oldRow({ type: 'shopify-order-log', field1: '1001', field2: '#1001', name: 'order-log', status: 'shipped', data: storeJson('1001', '#1001', '2026-11-20T10:00:00Z', { status: 'shipped', hpOrderId: 'HP-1', tracking: { number: 'TRK-1' }, hpProgress: 'shipped' }), siteId: w.sites.a, createdAt: t0, updatedAt: '2026-11-21T12:00:00.000Z', search: '#1001 1001 ada lovelace' }));
const second = await insertOld(oldRow({ type: 'shopify-order-log', field1: '1002', field2: '#1002', name: 'order-log', status: 'received', data: storeJson('1002', '#1002', '2026-11-20T11:00:00Z', { status: 'received' }), siteId: w.sites.a, createdAt: '2026-11-20T11:00:00.000Z', updatedAt: '2026-11-20T11:00:00.000Z', search: '#1002 1002 grace hopper' }));
const onB = await insertOld(oldRow({ type: 'shopify-order-log', field1: '1001', field2: '#1001', name: 'order-log', status: 'received', data: storeJson('1001', '#1001', '2026-11-20T09:00:00Z', { status: 'received' }), siteId: w.sites.b, createdAt: t0, updatedAt: t0 }));
const event = await insertOld(oldRow({ type: 'hp-log', field1: '1001', field2: 'HP-1', name: 'shipment.shipped', status: 'shipped', data: { status: 'shipped', shopifyOrderId: '1001', trackingNumber: 'TRK-1' }, siteId: w.sites.a, createdAt: '2026-11-21T12:00:00.000Z', updatedAt: '2026-11-21T12:00:00.000Z' }));
const send = await insertOld(oldRow({ type: 'shopify-hp-log', field1: '1001', field2: '', name: 'send', status: 'sent', data: { sentData: { orderData: { sourceOrderId: '1001' } }, attempts: 1 }, siteId: w.sites.a, createdAt: '2026-11-21T10:00:00.000Z', updatedAt: '2026-11-21T10:00:00.000Z' }));
const note = await insertOld({ ...oldRow({ type: 'production-note', field1: '1', field2: null, name: 'note', status: null, data: { note: 'stays' }, siteId: w.sites.a, createdAt: t0, updatedAt: t0 }), user_id: w.users.userA, perm_create: true, perm_update: true } as never);

const get = (path: string, token = w.tokens.adminA) => w.request().get(path).set(bearer(token));

describe('migration 20261124_011_order_tables on the old shape', () => {
  it('moves the records, keeping ids; duplicates of one order: the newest update stays', async () => {
    await w.db.migrate.latest({ migrationSource });
    expect((await w.db('store_orders').orderBy('id')).map((r: { id: number }) => Number(r.id))).toEqual([kept, second, onB]);
    expect(await w.db('store_orders').where({ id: dupOld }).first()).toBeUndefined();
    expect((await w.db('provider_events')).map((r: { id: number }) => Number(r.id))).toEqual([event]);
    expect((await w.db('provider_sends')).map((r: { id: number }) => Number(r.id))).toEqual([send]);
    // The moved rows left general_data; other types stayed.
    expect((await w.db('general_data')).map((r: { id: number }) => Number(r.id))).toEqual([note]);
    expect(await w.db('store_order_lines').where({ order_id: kept })).toMatchObject([{ line_id: '501', sku: 'CARD-1', quantity: 2 }]);
    // Status has one home: the column (not in the stored JSON).
    const row = await w.db('store_orders').where({ id: kept }).first();
    expect(row.status).toBe('shipped');
    const ours = typeof row.our_data === 'string' ? JSON.parse(row.our_data) : row.our_data;
    expect(ours.status).toBeUndefined();
    expect(ours).toMatchObject({ hpOrderId: 'HP-1', hpProgress: 'shipped' });
  });

  it('the API answers the same records: list, search, status, one record, tenancy', async () => {
    const list = await get('/api/general-data/shopify-order-log', w.tokens.userA);
    expect(list.status).toBe(200);
    expect(list.body.data.data.map((r: { id: number }) => r.id)).toEqual([second, kept]);
    const one = list.body.data.data[1];
    expect(one).toMatchObject({
      id: kept,
      type: 'shopify-order-log',
      siteId: w.sites.a,
      field1: '1001',
      field2: '#1001',
      name: 'order-log',
      status: 'shipped',
      publicPermission: { create: false, read: true, update: false, delete: false },
      createdAt: t0,
      updatedAt: '2026-11-21T12:00:00.000Z',
    });
    expect(one.data).toMatchObject({ id: '1001', name: '#1001', status: 'shipped', hpOrderId: 'HP-1', tracking: { number: 'TRK-1' }, preGeneratedHPItems: [], line_items: [{ id: '501', sku: 'CARD-1' }] });
    expect((await get('/api/general-data/shopify-order-log?q=grace', w.tokens.userA)).body.data.data.map((r: { id: number }) => r.id)).toEqual([second]);
    expect((await get('/api/general-data/shopify-order-log?status=shipped', w.tokens.userA)).body.data.data.map((r: { id: number }) => r.id)).toEqual([kept]);
    expect((await get('/api/general-data/shopify-order-log?allClients=1')).body.data.data.map((r: { id: number }) => r.id).sort()).toEqual([kept, second, onB].sort());
    expect((await get(`/api/general-data/shopify-order-log/${kept}`, w.tokens.userA)).body.data).toMatchObject({ id: kept, status: 'shipped' });
    expect((await get(`/api/general-data/shopify-order-log/${onB}`, w.tokens.userA)).status).toBe(404);
    expect((await get(`/api/general-data/shopify-order-log/${event}`, w.tokens.userA)).status).toBe(404);
    expect((await get(`/api/general-data/hp-log/${event}`, w.tokens.userA)).body.data).toMatchObject({ id: event, type: 'hp-log', field1: '1001', field2: 'HP-1', name: 'shipment.shipped', status: 'shipped', data: { trackingNumber: 'TRK-1' } });
    expect((await get(`/api/general-data/shopify-hp-log/${send}`, w.tokens.userA)).body.data).toMatchObject({ id: send, type: 'shopify-hp-log', field1: '1001', field2: '', status: 'sent' });
    expect((await get(`/api/general-data/hp-log/${event}`, w.tokens.userB)).status).toBe(404);
    // The untyped admin resource finds every record by its id alone.
    for (const [id, type] of [[kept, 'shopify-order-log'], [event, 'hp-log'], [send, 'shopify-hp-log'], [note, 'production-note']] as const) {
      expect((await get(`/api/admin/general-data/${id}`)).body).toMatchObject({ id, type });
    }
    expect((await get(`/api/admin/orders/${kept}`, w.tokens.userA)).body).toMatchObject({ id: kept, field1: '1001' });
    expect((await get(`/api/admin/orders/${onB}`, w.tokens.userA)).status).toBe(404);
  });

  it('check-order shows the order with its events and sends, newest first', async () => {
    const res = await w.request().post('/api/online-stores/check-order').set(bearer(w.tokens.userA)).send({ id: '1001' });
    expect(res.status).toBe(200);
    expect(res.body.data.map((r: { id: number; type: string }) => [r.id, r.type])).toEqual([
      [event, 'hp-log'],
      [send, 'shopify-hp-log'],
      [kept, 'shopify-order-log'],
    ]);
  });

  it('new records after the migration take ids no moved record has, whatever their table', async () => {
    await connectStores(w);
    const o = order({ name: '#1003' });
    expect((await deliver(w, o)).status).toBe(200);
    await w.services.orders.idle();
    const fresh = await w.db('store_orders').where({ store_order_id: o.id }).first();
    const newNote = await w.request().post('/api/general-data/note').set(bearer(w.tokens.userA)).send({ data: {} });
    const ids = [Number(fresh.id), newNote.body.data.id];
    const max = Math.max(dupOld, kept, second, onB, event, send, note);
    expect(ids.every((id) => id > max)).toBe(true);
    expect(new Set(ids).size).toBe(2);
    expect((await get(`/api/admin/general-data/${fresh.id}`)).body).toMatchObject({ type: 'shopify-order-log', field1: o.id });
  });
});
