// Server rendering through the API: /api/images/from-polotno, the order line images
// (hood-generate-image, hood-generate-page-content-image), order-to-arwork for a customizable
// design with a document, the review flag for missing properties, validation and the time limit,
// and the whole loop: Shopify order → print job → 4-page A5 PDF showing the customer's text.
import type { Response } from 'superagent';
import { PDFDocument } from 'pdf-lib';
import sharp from 'sharp';
import { afterAll, describe, expect, it } from 'vitest';
import { closeRenderWorkers, configureRender, DEFAULT_RENDER_SETTINGS } from '../src/modules/render/service';
import { fieldProperties } from '../../common/design-doc/render';
import { seedPrintProduction } from '../../seeds/demo';
import { createLogger } from '../src/lib/logger';
import { createShopifySender, fakeOrder } from '../simulators/shopify';
import { bearer, createWorld } from './harness';
import { imagesOnPage, storeFile } from './imageFixtures';
import { SECRET_A, SHOP_A, connectStores, deliver, makeDesign, order } from './ordersKit';
import { NAME_BOX, boxPx, cardDoc, diff, nameLayer, rawOf, referenceRender, type Raw } from './renderKit';

const binary = (res: Response, cb: (err: Error | null, body: Buffer) => void) => {
  const chunks: Buffer[] = [];
  res.on('data', (c: Buffer) => chunks.push(c));
  res.on('end', () => cb(null, Buffer.concat(chunks)));
};

afterAll(async () => {
  configureRender(DEFAULT_RENDER_SETTINGS);
  await closeRenderWorkers();
});

describe('render API', async () => {
  const w = await createWorld();
  await connectStores(w);
  const post = (path: string, body: unknown, token = w.tokens.userA) => w.request().post(path).set(bearer(token)).send(body as object);
  const png = (path: string, body: unknown, token = w.tokens.userA) => w.request().post(path).set(bearer(token)).send(body as object).buffer(true).parse(binary);
  const file = async (url: string) => {
    const res = await w.request().get(url).buffer(true).parse(binary);
    expect(res.status, url).toBe(200);
    expect(res.headers['content-type']).toBe('image/png');
    return res.body as Buffer;
  };

  const sku = 'CARD-NAME-1';
  const design = await makeDesign(w, w.tokens.userA, { name: 'Name card', sku, productType: 'Card', isCustomizable: true, data: { document: cardDoc() } });

  /** A Shopify order for the SKU, delivered through the webhook, with line properties. */
  async function orderWith(properties: Array<{ name: string; value: string }>) {
    const o = order({ skus: [sku] });
    o.line_items[0].properties = properties;
    const res = await deliver(w, o);
    expect(res.status).toBe(200);
    return { orderId: o.id, lineId: o.line_items[0].id };
  }

  describe('POST /api/images/from-polotno', () => {
    it('renders a page of a document given as JSON to a PNG at print size (300 dpi with bleed)', async () => {
      const res = await png('/api/images/from-polotno', { document: cardDoc(), values: { 'Recipient name': 'Zainab' } });
      expect(res.status, String(res.body)).toBe(200);
      expect(res.headers['content-type']).toBe('image/png');
      expect(JSON.parse(decodeURIComponent(res.headers['x-missing-fields']))).toEqual([]);
      const raw = await rawOf(res.body);
      expect([raw.width, raw.height]).toEqual([1819, 2551]);
      const ref = await referenceRender(cardDoc(), 0, { 'Recipient name': 'Zainab' });
      const d = diff(raw, ref.raw, undefined, 2);
      expect(d.inside + d.outside).toBeLessThan(50);
    });

    it('a page and a dpi; a design by id; values as line properties; missing fields in a header', async () => {
      const res = await png('/api/images/from-polotno', { designId: design.id, page: 3, dpi: 100, values: [{ name: 'Other', value: 'x' }] });
      expect(res.status).toBe(200);
      const meta = await sharp(res.body).metadata();
      expect([meta.width, meta.height]).toEqual([Math.round((154 * 100) / 25.4), Math.round((216 * 100) / 25.4)]);
      // Page 3 has no field, page 1 has: only the rendered page's fields count.
      expect(JSON.parse(decodeURIComponent(res.headers['x-missing-fields']))).toEqual([]);
      const front = await png('/api/images/from-polotno', { designId: design.id, dpi: 50, values: [{ name: 'Other', value: 'x' }] });
      expect(JSON.parse(decodeURIComponent(front.headers['x-missing-fields']))).toEqual(['Recipient name']);
      // Another site's design is unknown.
      expect((await post('/api/images/from-polotno', { designId: design.id }, w.tokens.userB)).status).toBe(404);
      expect((await post('/api/images/from-polotno', { document: cardDoc(), page: 5 })).body.error).toBe('Page must be at most 4 (the document has 4 pages).');
    });

    it('an invalid document is refused with the path of the bad field', async () => {
      const doc = cardDoc();
      (doc.pages[0].layers[1] as { fontSize: unknown }).fontSize = 'huge';
      const res = await post('/api/images/from-polotno', { document: doc });
      expect(res.status).toBe(400);
      expect(res.body.success).toBe(false);
      expect(res.body.error).toMatch(/^Font size of layers item 2\b/);
      const noFormat = await post('/api/images/from-polotno', { document: { version: 1, pages: [] } });
      expect(noFormat.status).toBe(400);
      expect(noFormat.body.error).toMatch(/^Format\b/);
      expect((await post('/api/images/from-polotno', {})).body.error).toMatch(/^Document\b/);
      expect((await post('/api/images/from-polotno', { document: cardDoc(), dpi: 5000 })).body.error).toBe('Resolution (dpi) must be at most 600.');
      expect((await w.request().post('/api/images/from-polotno').send({ document: cardDoc() })).status).toBe(401);
    });

    it('a document too large to render is refused (413), a render over the time limit is stopped (503), never a hang', async () => {
      const poster = { version: 1, format: 'poster-a2', pages: [{ id: 'p', name: 'Poster', background: '#fff', layers: [] }] };
      const big = await post('/api/images/from-polotno', { document: poster, dpi: 600 });
      expect(big.status).toBe(413);
      expect(big.body.error).toMatch(/too large to render at 600 dpi/);

      configureRender({ maxLayers: 5 });
      const many = await post('/api/images/from-polotno', { document: cardDoc({ frontExtra: [1, 2, 3, 4].map((i) => ({ ...nameLayer(), id: `n${i}` })) }) });
      expect(many.status).toBe(413);
      expect(many.body.error).toMatch(/too many layers/);
      configureRender({ maxLayers: DEFAULT_RENDER_SETTINGS.maxLayers });

      configureRender({ timeoutMs: 30 });
      const started = Date.now();
      const slow = await post('/api/images/from-polotno', { document: { ...poster, format: 'poster-a3' }, dpi: 300 });
      expect(slow.status).toBe(503);
      expect(slow.body.error).toBe('Rendering took too long');
      expect(Date.now() - started).toBeLessThan(5_000);
      configureRender({ timeoutMs: DEFAULT_RENDER_SETTINGS.timeoutMs });
      // The pool recovers: the next render works.
      expect((await png('/api/images/from-polotno', { document: cardDoc(), dpi: 72 })).status).toBe(200);
    });

    it('image layers: our stored files are drawn; a customer image that is not allowed draws the sample and is missing', async () => {
      const red = await sharp({ create: { width: 40, height: 40, channels: 3, background: '#ff0000' } }).png().toBuffer();
      const blue = await sharp({ create: { width: 40, height: 40, channels: 3, background: '#0000ff' } }).png().toBuffer();
      const redUrl = await storeFile(w.services.store, 'red.png', red);
      const blueUrl = await storeFile(w.services.store, 'blue.png', blue);
      const box = { x: 40, y: 100, width: 60, height: 40 };
      const photo = { id: 'photo', name: 'Photo', type: 'image' as const, ...box, rotation: 0, opacity: 1, src: redUrl, fit: 'cover' as const, field: { property: 'Photo', sample: redUrl, fit: 'clip' as const } };
      const doc = cardDoc({ frontExtra: [photo] });
      const pixelAt = async (body: Buffer) => {
        const raw = await rawOf(body);
        const c = boxPx(box, 100);
        const x = Math.floor((c.x0 + c.x1) / 2);
        const y = Math.floor((c.y0 + c.y1) / 2);
        return [...raw.data.subarray((y * raw.width + x) * 3, (y * raw.width + x) * 3 + 3)];
      };
      const customer = await png('/api/images/from-polotno', { document: doc, dpi: 100, values: { 'Recipient name': 'A', Photo: blueUrl } });
      expect(customer.status).toBe(200);
      expect(await pixelAt(customer.body)).toEqual([0, 0, 255]);
      const refused = await png('/api/images/from-polotno', { document: doc, dpi: 100, values: { 'Recipient name': 'A', Photo: 'http://169.254.169.254/latest/meta-data' } });
      expect(refused.status).toBe(200);
      expect(await pixelAt(refused.body)).toEqual([255, 0, 0]);
      expect(JSON.parse(decodeURIComponent(refused.headers['x-missing-fields']))).toEqual(['Photo']);
      // The design's own image missing is an error naming the layer.
      const broken = cardDoc({ frontExtra: [{ ...photo, field: undefined, src: '/files/test/nothing-here.png' }] });
      const res = await post('/api/images/from-polotno', { document: broken });
      expect(res.status).toBe(400);
      expect(res.body.error).toMatch(/^Image of layers item 4 cannot be used: Artwork file not found/);
    });
  });

  describe('order lines', () => {
    it('hood-generate-image renders the line with its properties and stores the pages; page-content-image one page', async () => {
      const { orderId, lineId } = await orderWith([{ name: 'recipient name', value: 'Grace' }]);
      const res = await post('/api/online-stores/shopify-webhook/hood-generate-image', { id: orderId, lineId });
      expect(res.status, JSON.stringify(res.body)).toBe(200);
      const { images, preview, missing } = res.body.data;
      expect(images).toHaveLength(4);
      expect(missing).toEqual([]);
      for (const url of images) expect(url).toMatch(/^\/files\/\d+\/renders\/[^/]+-name-card-page-\d\.png$/);
      expect(new Set(images).size).toBe(4);
      const rows = await w.db('uploads').whereIn('key', images.map((u: string) => decodeURIComponent(u.slice('/files/'.length))));
      expect(rows).toHaveLength(4);
      const front = await rawOf(await file(images[0]));
      const ref = await referenceRender(cardDoc(), 0, { 'Recipient name': 'Grace' });
      expect(diff(front, ref.raw, undefined, 2).outside).toBeLessThan(50);
      expect((await sharp(await file(preview)).metadata()).width).toBe(600);

      const one = await post('/api/online-stores/shopify-webhook/hood-generate-page-content-image', { orderId, lineId, page: 3 });
      expect(one.status).toBe(200);
      expect(one.body.data.images).toHaveLength(1);
      expect(one.body.data.images[0]).toMatch(/page-3\.png$/);
      const bad = await post('/api/online-stores/shopify-webhook/hood-generate-page-content-image', { id: orderId, lineId, page: 9 });
      expect(bad.status).toBe(400);
      expect(bad.body.error).toBe('Page must be at most 4 (the document has 4 pages).');
      expect((await post('/api/online-stores/shopify-webhook/hood-generate-image', { id: orderId, lineId }, w.tokens.userB)).status).toBe(404);
    });

    it('a missing property: the sample is drawn and the print job is flagged for review', async () => {
      const { orderId, lineId } = await orderWith([{ name: 'Message', value: 'hi' }]);
      const res = await post('/api/online-stores/shopify-webhook/order-to-arwork', { id: orderId });
      expect(res.status, JSON.stringify(res.body)).toBe(200);
      expect(res.body.data.skipped).toEqual([]);
      const [job] = res.body.data.jobs;
      expect(job.lineItemId).toBe(lineId);
      expect(job.data).toMatchObject({ personalised: true, needsReview: true, missingFields: ['Recipient name'] });
      expect(job.artworkUrls).toHaveLength(4);
      const front = await rawOf(await file(job.artworkUrls[0]));
      const sample = await referenceRender(cardDoc(), 0, { 'Recipient name': 'Sam' });
      const d = diff(front, sample.raw, undefined, 2);
      expect(d.inside + d.outside).toBeLessThan(50);
      // Again: the line's job is answered, nothing is rendered twice.
      const again = await post('/api/online-stores/shopify-webhook/order-to-arwork', { id: orderId });
      expect(again.body.data.jobs.map((j: { id: number }) => j.id)).toEqual([job.id]);
    });

    it('a design whose stored document is invalid: the line is skipped, naming the design and the field', async () => {
      const doc = cardDoc();
      (doc.pages[1] as { background: unknown }).background = 42;
      await makeDesign(w, w.tokens.userA, { name: 'Broken card', sku: 'CARD-BROKEN', isCustomizable: true, data: { document: doc, artworkUrls: ['/files/x/1.png'] } });
      const o = order({ skus: ['CARD-BROKEN'] });
      await deliver(w, o);
      const res = await post('/api/online-stores/shopify-webhook/order-to-arwork', { id: o.id });
      expect(res.status).toBe(200);
      expect(res.body.data.jobs).toEqual([]);
      expect(res.body.data.skipped[0].reason).toMatch(/^The design "Broken card" \(id \d+\): Background of pages item 2 /);
    });

    it('a design without a document keeps answering its artwork', async () => {
      const art = ['/files/a/1.png', '/files/a/2.png', '/files/a/3.png', '/files/a/4.png'];
      await makeDesign(w, w.tokens.userA, { name: 'Plain', sku: 'CARD-PLAIN', isCustomizable: true, image: art[0], data: { artworkUrls: art } });
      const o = order({ skus: ['CARD-PLAIN'] });
      await deliver(w, o);
      const res = await post('/api/online-stores/shopify-webhook/hood-generate-image', { id: o.id, lineId: o.line_items[0].id });
      expect(res.body.data).toEqual({ images: art, preview: art[0], missing: [] });
      const one = await post('/api/online-stores/shopify-webhook/hood-generate-page-content-image', { id: o.id, lineId: o.line_items[0].id, page: 2 });
      expect(one.body.data.images).toEqual([art[1]]);
      const arw = await post('/api/online-stores/shopify-webhook/order-to-arwork', { id: o.id });
      expect(arw.body.data.jobs[0].artworkUrls).toEqual(art);
      expect(arw.body.data.jobs[0].data.needsReview).toBeUndefined();
    });
  });

  describe('end to end', () => {
    it('a Shopify order with the customer’s text → order-to-arwork → print job → 4 card pages (A5 + bleed) showing the text', async () => {
      // The store sends the order (the Shopify simulator's sender: signed, to our webhook).
      const server = w.app.listen(0, '127.0.0.1');
      await new Promise((r) => server.once('listening', r));
      const port = (server.address() as { port: number }).port;
      const o = order({ skus: [sku] });
      o.line_items[0].properties = [{ name: 'Recipient name', value: 'Siobhán' }];
      try {
        const sender = createShopifySender({ webhookUrl: `http://127.0.0.1:${port}/api/online-stores/shopify-webhook`, shopDomain: SHOP_A, secret: SECRET_A, retryDelaysMs: [] });
        const sent = await sender.sendOrder(o as never);
        expect(sent.ok).toBe(true);
      } finally {
        await new Promise((r) => server.close(r));
      }
      await w.services.orders.idle();

      const arw = await post('/api/online-stores/shopify-webhook/order-to-arwork', { orderId: o.id });
      expect(arw.status, JSON.stringify(arw.body)).toBe(200);
      const [job] = arw.body.data.jobs;
      expect(job.data.needsReview).toBeUndefined();
      expect(job.readyForPrint).toBe(true);
      expect(job.artworkUrls).toHaveLength(4);

      const pdfRes = await w.request().post('/api/pdf/from-print-job').set(bearer(w.tokens.userA)).send({ id: job.id }).buffer(true).parse(binary);
      expect(pdfRes.status).toBe(200);
      expect(pdfRes.headers['content-type']).toBe('application/pdf');
      const pdf = await PDFDocument.load(pdfRes.body);
      expect(pdf.getPageCount()).toBe(4);
      // Card pages: A5 + 3 mm bleed each side, the TrimBox A5.
      for (const p of pdf.getPages()) {
        expect(p.getWidth()).toBeCloseTo(436.54, 1);
        expect(p.getHeight()).toBeCloseTo(612.28, 1);
        expect(p.getTrimBox()).toMatchObject({ width: expect.closeTo(419.53, 1), height: expect.closeTo(595.28, 1) });
      }
      // The PDF's front page image (decoded by pdf.js) against a reference render made here.
      const [img] = await imagesOnPage(pdfRes.body, 1);
      const fromPdf: Raw = { width: img.width, height: img.height, channels: 3, data: img.rgb };
      const reference = await referenceRender(cardDoc(), 0, { 'Recipient name': 'Siobhán' });
      const same = diff(fromPdf, reference.raw, undefined, 2);
      expect(same.inside + same.outside).toBeLessThan(50);
      // …and the name is really there: the box differs from the card without it, nothing else does.
      const noName = await referenceRender(cardDoc({ name: null }), 0);
      const d = diff(fromPdf, noName.raw, boxPx(NAME_BOX, 300, 3, 2), 2);
      expect(d.inside).toBeGreaterThan(2000);
      expect(d.outside).toBe(0);
      expect((await w.request().get(`/api/print-jobs/${job.id}`).set(bearer(w.tokens.userA))).body.data.isPDFDownloaded).toBe(true);
    });
  });
});

describe('the demo', async () => {
  const w = await createWorld();
  await connectStores(w);

  it('the seeded Birthday Balloons card has a document whose fields the demo store’s orders fill; its order renders with them', async () => {
    const deps = { db: w.db, clock: w.clock, config: w.config, log: createLogger('silent') };
    const { designs } = await seedPrintProduction(deps, w.services, { demo: w.sites.a, 'hope-harbour': w.sites.b });
    const card = designs.find((d) => d.sku === 'DEMO-CARD-BDAY')!;
    expect(card.isCustomizable).toBe(true);
    const doc = w.services.render.parseDocument(card.data.document);
    expect(fieldProperties(doc)).toEqual(['Recipient name', 'Message']);
    expect(card.data.artworkUrls).toHaveLength(4);

    // The demo generator's personalised lines carry exactly these properties.
    const names = new Set<string>();
    for (let seed = 1; seed < 200 && names.size < 2; seed++) for (const l of fakeOrder(seed, { skus: ['DEMO-CARD-BDAY'] }).line_items) for (const p of l.properties) names.add(p.name);
    expect([...names].sort()).toEqual(['Message', 'Recipient name']);

    const o = fakeOrder(42, { skus: ['DEMO-CARD-BDAY'], lineCount: 1 });
    o.line_items[0].properties = [{ name: 'Message', value: 'Thank you for everything x' }, { name: 'Recipient name', value: 'Freya' }];
    expect((await deliver(w, o)).status).toBe(200);
    const res = await w.request().post('/api/online-stores/shopify-webhook/order-to-arwork').set(bearer(w.tokens.adminA)).send({ id: o.id });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    const [job] = res.body.data.jobs;
    expect(job.data).toMatchObject({ personalised: true });
    expect(job.data.needsReview).toBeUndefined();
    const front = await w.request().get(job.artworkUrls[0]).buffer(true).parse(binary);
    const ref = await referenceRender(doc, 0, { 'Recipient name': 'Freya', Message: 'Thank you for everything x' });
    const d = diff(await rawOf(front.body), ref.raw, undefined, 2);
    expect(d.inside + d.outside).toBeLessThan(50);
  });
});
