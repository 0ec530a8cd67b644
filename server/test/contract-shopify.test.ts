// Contract: Shopify's own published example Order ("#1001", Bob Norman — server/test/fixtures/vendor/
// shopify-order-1001.json), fed byte for byte through the signed webhook endpoint, as an
// orders/paid delivery of an auto-send site. What we store, and what goes to the provider.
import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { bearer } from './harness';
import { createHpWorld } from './fulfilmentWorld';
import { SECRET_A, SHOP_A, connectStores, makeDesign, orderRows, setSiteEnv } from './ordersKit';

const repoRoot = path.resolve(import.meta.dirname, '../..');
const fixtures = path.resolve(repoRoot, 'server/test/fixtures/vendor');

describe('contract: Shopify order webhook (vendor sample, byte for byte)', async () => {
  const raw = fs.readFileSync(path.join(fixtures, 'shopify-order-1001.json'));
  // Sent as text (supertest writes a string as is); the file is UTF-8, so the wire bytes are the file's.
  const body = raw.toString('utf8');
  expect(Buffer.from(body, 'utf8').equals(raw)).toBe(true);
  const w = await createHpWorld();
  await connectStores(w);
  for (const sku of ['IPOD2008GREEN', 'IPOD2008RED', 'IPOD2008BLACK']) await makeDesign(w, w.tokens.adminA, { name: `iPod ${sku}`, sku, hpSKU: `HP-${sku}`, productPdf: '/files/test/design.pdf' });
  await setSiteEnv(w, w.sites.a, { HP_AUTO_SEND: '1', HP_SOURCE_ACCOUNT: 'presswork' });

  /** Signed over the file's exact bytes (its non-ASCII "Léon, Noël" included), sent as those bytes. */
  const send = (topic: string, headers: Record<string, string> = {}) =>
    w
      .request()
      .post('/api/online-stores/shopify-webhook')
      .set({
        'Content-Type': 'application/json',
        'X-Shopify-Topic': topic,
        'X-Shopify-Hmac-Sha256': crypto.createHmac('sha256', SECRET_A).update(raw).digest('base64'),
        'X-Shopify-Shop-Domain': SHOP_A,
        'X-Shopify-API-Version': '2026-07',
        'X-Shopify-Webhook-Id': crypto.randomUUID(),
        'X-Shopify-Triggered-At': '2026-11-24T00:00:00Z',
        ...headers,
      })
      .send(body);

  it('is accepted without X-Shopify-Event-Id, and stored as the store sent it: ids as strings, names, properties, address', async () => {
    const res = await send('orders/paid');
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body.data.received).toBe(true);
    await w.services.orders.idle();
    const [row] = await orderRows(w, '450789469');
    expect(row).toMatchObject({ field1: '450789469', field2: '#1001', site_id: w.sites.a });
    expect(row.data).toMatchObject({
      id: '450789469',
      name: '#1001',
      order_number: 1001,
      email: 'bob.norman@mail.example.com',
      financial_status: 'partially_refunded',
      customer: { id: '207119551', first_name: 'Bob', last_name: 'Norman' },
      cancelled: null,
      shipping_address: { name: 'Bob Norman', company: null, address1: 'Chestnut Street 92', city: 'Louisville', zip: '40202', province: 'Kentucky', province_code: 'KY', country_code: 'US', phone: '+1(502)-459-2181' },
      shipping_lines: [{ title: 'Free Shipping', code: 'Free Shipping' }],
    });
    expect(row.data.line_items).toEqual([
      expect.objectContaining({ id: '466157049', product_id: '632910392', variant_id: '39072856', sku: 'IPOD2008GREEN', quantity: 1, current_quantity: 0, properties: [{ name: 'Custom Engraving Front', value: 'Happy Birthday' }, { name: 'Custom Engraving Back', value: 'Merry Christmas' }] }),
      expect.objectContaining({ id: '518995019', sku: 'IPOD2008RED', quantity: 1, current_quantity: 1, properties: [] }),
      expect.objectContaining({ id: '703073504', sku: 'IPOD2008BLACK', quantity: 1, current_quantity: 0 }),
    ]);
  });

  it('partially_refunded is paid: the order goes automatically, with only the line that still has units', async () => {
    const rows = await w.db('outbox').where({ kind: 'hp-order', dedupe_key: `hp:${w.sites.a}:450789469` });
    expect(rows).toHaveLength(1);
    await w.services.fulfilment.processDue();
    const sent = w.sim.orderBySource('450789469');
    expect(sent, 'HP has the order').toBeDefined();
    expect(sent!.body.orderData.items).toEqual([expect.objectContaining({ sourceItemId: '518995019', sku: 'HP-IPOD2008RED', quantity: 1 })]);
    // The sample's province_code is the state; its company is null, so no companyName is sent.
    expect((sent!.body.orderData.shipments as Array<{ shipTo: Record<string, unknown> }>)[0].shipTo).toMatchObject({ name: 'Bob Norman', state: 'KY', town: 'Louisville', postcode: '40202', isoCountry: 'US' });
    expect((sent!.body.orderData.shipments as Array<{ shipTo: Record<string, unknown> }>)[0].shipTo).not.toHaveProperty('companyName');
    // No print job for the refunded lines.
    const jobs = (await w.request().get('/api/print-jobs/from-shopify-order/450789469').set(bearer(w.tokens.userA))).body.data.list as Array<{ lineItemId: string }>;
    expect(jobs.map((j) => j.lineItemId)).toEqual(['518995019']);
  });

  it('the same bytes again (a retry keeps the webhook id) are a duplicate', async () => {
    const webhookId = crypto.randomUUID();
    expect((await send('orders/updated', { 'X-Shopify-Webhook-Id': webhookId })).body.data.received).toBe(true);
    expect((await send('orders/updated', { 'X-Shopify-Webhook-Id': webhookId })).body).toEqual({ success: true, data: { duplicate: true } });
    await w.services.orders.idle();
  });

  it('one changed byte breaks the signature', async () => {
    const signature = crypto.createHmac('sha256', SECRET_A).update(raw).digest('base64');
    const res = await w
      .request()
      .post('/api/online-stores/shopify-webhook')
      .set({ 'Content-Type': 'application/json', 'X-Shopify-Topic': 'orders/paid', 'X-Shopify-Hmac-Sha256': signature, 'X-Shopify-Shop-Domain': SHOP_A, 'X-Shopify-API-Version': '2026-07', 'X-Shopify-Webhook-Id': crypto.randomUUID() })
      .send(body.replace('Noël', 'Noel'));
    expect(res.status).toBe(401);
  });
});
