// The orders module's pure rules, and mapLines against a real database.
import { describe, expect, it } from 'vitest';
import { providerBlockers, readyForProvider } from '../src/modules/production/designForLine';
import {
  isOlder,
  mergeOrderData,
  nextStatus,
  normaliseOrder,
  orderNameOf,
  orderSearchText,
  parseJsonInt64Safe,
  shopifySignature,
  verifyShopifySignature,
} from '../src/modules/orders/shopify';
import { applyStoreInput } from '../src/modules/orders/stores';
import { shopifyJson } from '../simulators/shopify';
import { bearer, createWorld } from './harness';
import { makeDesign } from './ordersKit';

describe('shopify signature', () => {
  const body = Buffer.from('{"id":1}');
  it('accepts the current or the previous secret, nothing else', () => {
    const sig = shopifySignature('new', body);
    expect(verifyShopifySignature(body, sig, ['new', undefined])).toBe(true);
    expect(verifyShopifySignature(body, shopifySignature('old', body), ['new', 'old'])).toBe(true);
    expect(verifyShopifySignature(body, shopifySignature('other', body), ['new', 'old'])).toBe(false);
    expect(verifyShopifySignature(body, 'not base64 at all', ['new'])).toBe(false);
    expect(verifyShopifySignature(body, '', ['new'])).toBe(false);
    expect(verifyShopifySignature(body, sig, [undefined, ''])).toBe(false);
    expect(verifyShopifySignature(Buffer.from('{"id": 1}'), sig, ['new'])).toBe(false);
  });
});

describe('parseJsonInt64Safe', () => {
  it('keeps integers beyond 2^53 exact as strings and leaves everything else alone', () => {
    const text = '{"id":9007199254740993,"n":42,"neg":-9223372036854775807,"f":1.5e3,"s":"12345678901234567890","arr":[18446744073709551615, 9007199254740991],"x":{"id":820982911946154508}}';
    expect(parseJsonInt64Safe(text)).toEqual({
      id: '9007199254740993',
      n: 42,
      neg: '-9223372036854775807',
      f: 1500,
      s: '12345678901234567890',
      arr: ['18446744073709551615', 9007199254740991],
      x: { id: '820982911946154508' },
    });
  });
  it('is not fooled by escaped quotes in strings', () => {
    expect(parseJsonInt64Safe('{"a":"say \\"9007199254740993\\"","b":9007199254740993}')).toEqual({ a: 'say "9007199254740993"', b: '9007199254740993' });
  });
  it('throws on invalid JSON', () => {
    expect(() => parseJsonInt64Safe('{"id":')).toThrow();
  });
  it('reads back what the simulator writes', () => {
    const json = shopifyJson({ id: '5000000000000000001', line_items: [{ id: '1300000000000000002', sku: '5000000000000000001' }] });
    expect(json).toContain('"id":5000000000000000001');
    expect(json).toContain('"sku":"5000000000000000001"');
    expect(parseJsonInt64Safe(json)).toEqual({ id: '5000000000000000001', line_items: [{ id: '1300000000000000002', sku: '5000000000000000001' }] });
  });
});

describe('the stored order', () => {
  const payload = {
    id: 123,
    name: '#1001',
    order_number: 1001,
    created_at: '2026-11-20T10:00:00-05:00',
    updated_at: '2026-11-20T10:05:00-05:00',
    email: 'ada@example.com',
    customer: null,
    line_items: [{ id: 5, sku: ' CARD-1 ', quantity: '2', properties: [{ name: 'Message', value: 'Hi' }, { value: 'no name' }] }, { sku: 'no id' }],
    shipping_address: null,
  };
  it('normalises ids to strings, trims SKUs, drops lines without an id', () => {
    const o = normaliseOrder(payload);
    expect(o).toMatchObject({ id: '123', name: '#1001', customer: null, shipping_address: null, shipping_lines: [] });
    expect(o.line_items).toEqual([{ id: '5', name: null, title: null, product_id: null, variant_id: null, sku: 'CARD-1', quantity: 2, current_quantity: null, properties: [{ name: 'Message', value: 'Hi' }] }]);
    expect(() => normaliseOrder({ name: '#1' })).toThrow('no order id');
    expect(() => normaliseOrder([])).toThrow('no order id');
  });
  it('compares updated_at as instants, whatever the offset', () => {
    expect(isOlder({ updated_at: '2026-11-20T15:04:00Z' }, { updated_at: '2026-11-20T10:05:00-05:00' })).toBe(true);
    expect(isOlder({ updated_at: '2026-11-20T15:05:00Z' }, { updated_at: '2026-11-20T10:05:00-05:00' })).toBe(false);
    expect(isOlder({ updated_at: null }, { updated_at: '2026-11-20T10:05:00Z' })).toBe(true);
    expect(isOlder({ updated_at: '2026-11-20T10:05:00Z' }, { updated_at: null })).toBe(false);
  });
  it('keeps the provider side of the order on a store update', () => {
    const o = normaliseOrder(payload);
    const merged = mergeOrderData({ status: 'shipped', hpOrderId: 'hp-1', tracking: { number: 'T1' }, preGeneratedHPItems: [{ sku: 'x' }] }, o, 'orders/updated', 'shipped');
    expect(merged).toMatchObject({ id: '123', status: 'shipped', hpOrderId: 'hp-1', tracking: { number: 'T1' }, preGeneratedHPItems: [{ sku: 'x' }], lastTopic: 'orders/updated' });
    expect(mergeOrderData(undefined, o, 'orders/create', 'received')).toMatchObject({ hpOrderId: null, tracking: null, preGeneratedHPItems: [] });
  });
  it('status: received or no-lines until the provider side moves it', () => {
    const withLines = normaliseOrder(payload);
    const noLines = normaliseOrder({ ...payload, line_items: [] });
    expect(nextStatus(undefined, withLines)).toBe('received');
    expect(nextStatus(undefined, noLines)).toBe('no-lines');
    expect(nextStatus('no-lines', withLines)).toBe('received');
    expect(nextStatus('sent', noLines)).toBe('sent');
    expect(nextStatus('shipped', withLines)).toBe('shipped');
  });
  it('search text and names', () => {
    expect(orderSearchText(normaliseOrder({ ...payload, customer: { first_name: 'Ada', last_name: 'Lovelace' } }))).toBe('#1001 1001 ada lovelace ada@example.com 123');
    expect(orderNameOf('1001')).toBe('#1001');
    expect(orderNameOf(' #1001 ')).toBe('#1001');
  });
});

describe('store settings', () => {
  const env = [
    { key: 'OTHER', value: 'x' },
    { key: 'SHOPIFY_WEBHOOK_SECRET', value: 'old' },
  ];
  it('a masked secret is kept, a new one starts a rotation, empty removes', () => {
    expect(applyStoreInput(env, { webhookSecret: '********' })).toEqual(env);
    expect(applyStoreInput(env, { webhookSecret: 'new' })).toEqual([
      { key: 'OTHER', value: 'x' },
      { key: 'SHOPIFY_WEBHOOK_SECRET', value: 'new' },
      { key: 'SHOPIFY_WEBHOOK_SECRET_PREVIOUS', value: 'old' },
    ]);
    expect(applyStoreInput(env, { webhookSecret: 'new', previousSecret: '' })).toEqual([
      { key: 'OTHER', value: 'x' },
      { key: 'SHOPIFY_WEBHOOK_SECRET', value: 'new' },
    ]);
    expect(applyStoreInput(env, { webhookSecret: '', shopDomain: 'a.myshopify.com', autoSendToHP: true })).toEqual([
      { key: 'OTHER', value: 'x' },
      { key: 'SHOPIFY_SHOP_DOMAIN', value: 'a.myshopify.com' },
      { key: 'HP_AUTO_SEND', value: '1' },
    ]);
  });
});

describe('mapLines', async () => {
  const w = await createWorld();
  const withHp = await makeDesign(w, w.tokens.adminA, { name: 'Card', sku: 'MAP-CARD', hpSKU: 'HP-CARD-A5' });
  const noHp = await makeDesign(w, w.tokens.adminA, { name: 'Mug', sku: 'MAP-MUG' });
  const onB = await makeDesign(w, w.tokens.adminB, { name: 'B card', sku: 'MAP-B', hpSKU: 'HP-B' });
  const product = (body: Record<string, unknown>, token = w.tokens.adminA) => w.request().post('/api/admin/products').set(bearer(token)).send(body);
  expect((await product({ storeSku: 'SHOP-CARD-RED', designId: withHp.id })).status).toBe(201);
  // A product record naming a design of another site (written around the API) maps to nothing.
  await w.db('general_data').insert({ type: 'product', field1: 'SHOP-FOREIGN', field2: String(onB.id), name: 'x', data: '{}', site_id: w.sites.a, created_at: 'x', updated_at: 'x' });
  const line = (id: string, sku: string | null) => ({ id, name: null, title: null, product_id: null, variant_id: null, sku, quantity: 1, properties: [] });

  it('design by SKU, else a product record, else a reason', async () => {
    const m = await w.services.orders.mapLines(w.sites.a, {
      line_items: [line('1', 'MAP-CARD'), line('2', 'SHOP-CARD-RED'), line('3', 'MAP-MUG'), line('4', 'NOPE'), line('5', null), line('6', 'MAP-B'), line('7', 'SHOP-FOREIGN')],
    });
    expect(m.map((x) => [x.line.id, x.design?.id ?? null, x.via])).toEqual([
      ['1', withHp.id, 'design'],
      ['2', withHp.id, 'product'],
      ['3', noHp.id, 'design'],
      ['4', null, null],
      ['5', null, null],
      ['6', null, null],
      ['7', null, null],
    ]);
    expect(m[3].reason).toBe('No design or product has the SKU NOPE');
    expect(m[4].reason).toBe('The line has no SKU');
    expect(m[6].reason).toContain('names a design that does not exist');
    expect(readyForProvider(m.slice(0, 2))).toBe(true);
    expect(readyForProvider(m.slice(0, 3))).toBe(false);
    expect(readyForProvider([])).toBe(false);
    expect(providerBlockers(m.slice(0, 3))).toEqual([{ lineId: '3', reason: 'The design "Mug" has no provider SKU (hpSKU)' }]);
  });
});
