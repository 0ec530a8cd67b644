// The print-file cache with files in the bucket: the print file of an order sent to HP is drawn
// once, kept as an object under <site>/print-files/…, and fetched by the provider from /files/….
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fileStoreOf } from '../src/services';
import { bearer } from './harness';
import { createHpWorld, storeOrder, type HpWorld } from './fulfilmentWorld';
import { startTestS3, type TestS3 } from './s3Server';

let s3: TestS3;
let w: HpWorld;
beforeAll(async () => {
  s3 = await startTestS3();
  w = await createHpWorld({}, s3.env('hp/'));
});
afterAll(async () => {
  await s3?.close();
});

describe('print files in the bucket', () => {
  it('send-hp: the print file is an object in the bucket, and the provider fetches the same bytes at /files/…', async () => {
    const orderId = '7000000001';
    await w.insertDesign(w.sites.a, { sku: 'CARD-S3' });
    await w.insertOrder(w.sites.a, storeOrder(orderId, [{ id: '11', sku: 'CARD-S3' }]));
    const res = await w.request().post('/api/online-stores/shopify-webhook/send-hp').set(bearer(w.tokens.userA)).send({ orderId });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    const body = w.sim.orderBySource(orderId)!.body as unknown as { orderData: { items: Array<{ components: Array<{ path: string }> }> } };
    const url = body.orderData.items[0].components[0].path;
    const key = new URL(url).pathname.slice('/files/'.length);
    expect(key).toMatch(new RegExp(`^${w.sites.a}/print-files/[0-9a-f]{40}/print-file\\.pdf$`));
    const stored = await fileStoreOf(w.config).read(key);
    expect(stored?.subarray(0, 5).toString()).toBe('%PDF-');
    const fetched = await fetch(url);
    expect(fetched.status).toBe(200);
    expect(Buffer.compare(Buffer.from(await fetched.arrayBuffer()), stored!)).toBe(0);
  }, 60_000);
});
