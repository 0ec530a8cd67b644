// Rendered pages and previews (what e-cards send, what print files are drawn from) with files in
// the bucket: stored as objects, served at /files/… like any file, by another instance too.
import type { Response } from 'superagent';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { closeRenderWorkers } from '../src/modules/render/service';
import { fileStoreOf } from '../src/services';
import { bearer, createWorld } from './harness';
import { connectStores, deliver, makeDesign, order } from './ordersKit';
import { cardDoc } from './renderKit';
import { startTestS3, type TestS3 } from './s3Server';

const binary = (res: Response, cb: (err: Error | null, body: Buffer) => void) => {
  const chunks: Buffer[] = [];
  res.on('data', (c: Buffer) => chunks.push(c));
  res.on('end', () => cb(null, Buffer.concat(chunks)));
};

let s3: TestS3;
beforeAll(async () => {
  s3 = await startTestS3();
});
afterAll(async () => {
  await closeRenderWorkers();
  await s3?.close();
});

describe('rendered pages in the bucket', () => {
  it("an order line's pages and preview are objects in the bucket, served at /files/…", async () => {
    const w = await createWorld(s3.env('render/'));
    await connectStores(w);
    const sku = 'CARD-S3-1';
    await makeDesign(w, w.tokens.userA, { name: 'Bucket card', sku, productType: 'Card', isCustomizable: true, data: { document: cardDoc() } });
    const o = order({ skus: [sku] });
    o.line_items[0].properties = [{ name: 'recipient name', value: 'Grace' }];
    expect((await deliver(w, o)).status).toBe(200);
    const res = await w.request().post('/api/online-stores/shopify-webhook/hood-generate-image').set(bearer(w.tokens.userA)).send({ id: o.id, lineId: o.line_items[0].id });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    const { images, preview } = res.body.data as { images: string[]; preview: string };
    expect(images).toHaveLength(4);
    // In the bucket (under S3_PREFIX), not in this instance's DATA_DIR.
    const bucket = fileStoreOf(w.config);
    for (const url of [...images, preview]) {
      const key = decodeURIComponent(url.slice('/files/'.length));
      const stored = await bucket.read(key);
      expect(stored?.subarray(1, 4).toString()).toBe('PNG');
      const served = await w.request().get(url).buffer(true).parse(binary);
      expect(served.status).toBe(200);
      expect(Buffer.compare(served.body as Buffer, stored!)).toBe(0);
    }
    expect((await sharp((await bucket.read(decodeURIComponent(preview.slice('/files/'.length))))!).metadata()).width).toBe(600);
  }, 60_000);
});
