// The demo print production: designs with print-ready artwork files (300 ppi, each product's size
// with its bleed) and jobs in every state, so the screens are not empty and the demo jobs pass
// preflight; one demo store order carries a photo too small for its box, so its job is held.
import { PDFDocument } from 'pdf-lib';
import sharp from 'sharp';
import type { Response } from 'supertest';
import { describe, expect, it } from 'vitest';
import { formatSpec, pagePixelSize } from '../../common/design-doc/render';
import { artworkFit, pageImagePpi, printSizeOf } from '../../common/design-doc/printSize';
import { DEFAULT_PPI_THRESHOLDS, effectivePpi } from '../../common/design-doc/resolution';
import type { DesignDocument, ImageLayer } from '../../common/design-doc/types';
import { type StockItem, stockUsesOf } from '../../common/api/stock';
import { seedPrintProduction } from '../../seeds/demo';
import { DEMO_DESIGNS, LOW_RES_PHOTO, LOW_RES_PHOTO_ORDER, PRINT_PPI } from '../../seeds/printProduction';
import { createLogger } from '../src/lib/logger';
import { bearer, createWorld } from './harness';

const binary = (res: Response, cb: (err: Error | null, body: Buffer) => void) => {
  const chunks: Buffer[] = [];
  res.on('data', (c: Buffer) => chunks.push(c));
  res.on('end', () => cb(null, Buffer.concat(chunks)));
};

/** True when every pixel of the region is one colour (nothing drawn there). */
async function plain(png: Buffer, region: { left: number; top: number; width: number; height: number }): Promise<boolean> {
  const { data, info } = await sharp(png).extract(region).raw().toBuffer({ resolveWithObject: true });
  const first = data.subarray(0, info.channels);
  for (let i = info.channels; i < data.length; i += info.channels) if (!data.subarray(i, i + info.channels).equals(first)) return false;
  return true;
}

const hex = (c: string) => [1, 3, 5].map((i) => parseInt(c.slice(i, i + 2), 16));

describe('seedPrintProduction', async () => {
  const w = await createWorld();
  const deps = { db: w.db, clock: w.clock, config: w.config, log: createLogger('silent') };
  const seeded = await seedPrintProduction(deps, w.services, { demo: w.sites.a, 'hope-harbour': w.sites.b });
  const file = async (url: string) => {
    const res = await w.request().get(url).buffer(true).parse(binary);
    expect(res.status, url).toBe(200);
    return res.body as Buffer;
  };
  const ecard = seeded.designs.find((d) => d.sku === 'ECARD-SEASONS')!;
  const pictureEcard = seeded.designs.find((d) => d.sku === 'ECARD-ROBIN')!;
  const designs = seeded.designs.filter((d) => d.productType !== 'E-card');

  it('makes 7 printed designs (a card 4 stored pages, a mug or poster one), the charity e-card, and 11 jobs: queue, history, reprint, notes, reports', async () => {
    const { jobs } = seeded;
    expect(designs.map((d) => d.sku)).toEqual(DEMO_DESIGNS.map((d) => d.sku));
    expect(jobs).toHaveLength(11);
    // The charity's e-card: one front page drawn from its document, personalised, never printed (no provider SKU).
    expect(ecard).toMatchObject({ sku: 'ECARD-SEASONS', siteId: w.sites.b, isCustomizable: true, hpSKU: null });
    expect(ecard.data.artworkUrls).toHaveLength(1);
    // The picture e-card: its picture only (no document), e-mailed as it is.
    expect(pictureEcard).toMatchObject({ productType: 'E-card', siteId: w.sites.b, hpSKU: null });
    expect(pictureEcard.data.document).toBeUndefined();
    expect(await sharp(await file(pictureEcard.image!)).metadata()).toMatchObject({ format: 'jpeg', width: 1800, height: 1260 });
    expect(ecard.image).toMatch(/^\/files\/\d+\/renders\/.+-preview\.png$/);
    const preview = await sharp(await file(ecard.image!)).metadata();
    expect(preview.width! / preview.height!).toBeCloseTo(148 / 105, 2);
    for (const d of designs) expect(d.data.artworkUrls, d.sku!).toHaveLength(d.productType === 'Card' ? 4 : 1);

    const queue = (await w.request().get('/api/print-jobs?readyForPrint=1&isPrinted=0').set(bearer(w.tokens.adminA))).body.data;
    const history = (await w.request().get('/api/print-jobs?readyForPrint=1&isPrinted=1').set(bearer(w.tokens.adminA))).body.data;
    expect(queue.total).toBeGreaterThanOrEqual(3);
    expect(history.total).toBeGreaterThanOrEqual(2);
    expect(queue.list.some((j: { isRePrinted: boolean }) => j.isRePrinted)).toBe(true);
    expect(queue.list.some((j: { isPDFDownloaded: boolean }) => j.isPDFDownloaded)).toBe(true);
    expect(queue.list.some((j: { productionNote: unknown }) => j.productionNote)).toBe(true);

    const reports = (await w.request().get('/api/print-jobs/reports').set(bearer(w.tokens.adminA))).body.data;
    expect(reports.printedPerDay.length).toBeGreaterThan(0);
    expect(reports.reprints.reprinted).toBe(1);

    for (const job of queue.list.slice(0, 3) as Array<{ id: number; data: { format: string } }>) {
      const pdf = await w.request().post('/api/pdf/from-print-job').set(bearer(w.tokens.adminA)).send({ id: job.id }).buffer(true).parse(binary);
      expect(pdf.status).toBe(200);
      expect((await PDFDocument.load(pdf.body as Buffer)).getPageCount(), job.data.format).toBe(job.data.format === 'card-a5' ? 4 : 1);
    }
  });

  it('makes a mug and a poster in house end to end: job → preflight → batch → sheet → printed → every copy scanned packed', async () => {
    const { inHouse } = seeded;
    expect(inHouse.map((b) => [b.sheet, b.sheets])).toEqual([
      ['Sublimation A3+', 1],
      ['SRA3', 1],
    ]);
    for (const b of inHouse) {
      const batch = (await w.request().get(`/api/batches/${b.batchId}`).set(bearer(w.tokens.adminA))).body.data;
      expect(batch.state).toBe('printed');
      const [job] = b.jobs;
      expect(job).toMatchObject({ held: false, isPrinted: true });
      expect(job.packedAt, `job ${job.id}`).toBeTruthy();
      expect(job.data.format).toBe(batch.item.productType === 'Mug' ? 'mug-wrap' : 'poster-a3');
    }
  });

  it('draws every printed page at 300 ppi in its own product’s size with its bleed, as preflight measures it', async () => {
    for (const d of designs) {
      const demo = DEMO_DESIGNS.find((x) => x.sku === d.sku)!;
      const doc = (d.data.document as DesignDocument | undefined) ?? null;
      const size = printSizeOf(d.productType, doc);
      // The print file sizes a design without a document by its product type: the demo's format must be that one.
      expect(size, d.sku!).toEqual(printSizeOf(d.productType, { format: demo.format }));
      const expected = pagePixelSize({ format: demo.format }, PRINT_PPI);
      for (const url of d.data.artworkUrls!) {
        const meta = await sharp(await file(url)).metadata();
        expect({ sku: d.sku, width: meta.width, height: meta.height, density: meta.density }).toEqual({ sku: d.sku, ...expected, density: PRINT_PPI });
        expect(artworkFit(meta.width!, meta.height!, size), d.sku!).toBe('bleed');
        expect(pageImagePpi(meta.width!, meta.height!, size), d.sku!).toBeGreaterThan(PRINT_PPI - 1);
      }
    }
    // The card of the issue: A5 + 3 mm each side at 300 ppi.
    const card = await sharp(await file(designs.find((d) => d.sku === 'DEMO-CARD-THANKS')!.data.artworkUrls![0])).metadata();
    expect([card.width, card.height]).toEqual([1819, 2551]);
  });

  it('keeps the generated shapes inside the safe area and fills the bleed with the background', async () => {
    for (const demo of DEMO_DESIGNS.filter((x) => x.sku !== 'DEMO-CARD-BDAY' && x.sku !== 'DEMO-CARD-PHOTO')) {
      const d = designs.find((x) => x.sku === demo.sku)!;
      const spec = formatSpec({ format: demo.format });
      const { width, height } = pagePixelSize({ format: demo.format }, PRINT_PPI);
      // The safe box in pixels, widened by a pixel for antialiasing: nothing is drawn outside it.
      const px = (mm: number) => (mm * PRINT_PPI) / 25.4;
      const left = Math.floor(px(spec.bleed + spec.safe)) - 1;
      const top = left;
      const right = Math.ceil(px(spec.bleed + spec.width - spec.safe)) + 1;
      const bottom = Math.ceil(px(spec.bleed + spec.height - spec.safe)) + 1;
      for (const [i, url] of d.data.artworkUrls!.entries()) {
        const png = await file(url);
        const where = `${d.sku} page ${i + 1}`;
        expect(await plain(png, { left: 0, top: 0, width, height: top }), `${where}: top margin`).toBe(true);
        expect(await plain(png, { left: 0, top: bottom, width, height: height - bottom }), `${where}: bottom margin`).toBe(true);
        expect(await plain(png, { left: 0, top: 0, width: left, height }), `${where}: left margin`).toBe(true);
        expect(await plain(png, { left: right, top: 0, width: width - right, height }), `${where}: right margin`).toBe(true);
        // Something is drawn inside (the shape or its frame), except on the blank inside-left page.
        if (i !== 1) expect(await plain(png, { left, top, width: right - left, height: bottom - top }), `${where}: safe area`).toBe(false);
      }
      const corner = await sharp(await file(d.data.artworkUrls![0])).extract({ left: 0, top: 0, width: 1, height: 1 }).raw().toBuffer();
      expect([...corner.subarray(0, 3)], `${d.sku}: the front's bleed is its colour`).toEqual(hex(demo.colour));
    }
  });

  it('shows each design as a small picture of its front’s trim, not the print-size page', async () => {
    for (const d of designs) {
      const meta = await sharp(await file(d.image!)).metadata();
      const { width, height } = formatSpec({ format: DEMO_DESIGNS.find((x) => x.sku === d.sku)!.format });
      expect(meta.width, d.sku!).toBeLessThanOrEqual(600);
      expect(meta.width! / meta.height!, d.sku!).toBeCloseTo(width / height, 2);
    }
  });

  it('brings in a demo store order whose customer photo is too small for its box: its job is made from the order line', async () => {
    const card = designs.find((d) => d.sku === 'DEMO-CARD-PHOTO')!;
    const { photoOrder } = seeded;
    expect(photoOrder).toBeDefined();
    const order = (await w.request().post('/api/online-stores/check-order').set(bearer(w.tokens.adminA)).send({ id: photoOrder!.orderId })).body;
    expect(JSON.stringify(order)).toContain(`#${LOW_RES_PHOTO_ORDER.number}`);

    const job = (await w.request().get(`/api/print-jobs/${photoOrder!.job.id}`).set(bearer(w.tokens.adminA))).body.data;
    expect(job).toMatchObject({ designId: card.id, shopifyOrderId: photoOrder!.orderId, quantity: 1 });
    expect(job.lineItemId).toBeTruthy();
    expect(job.data.properties).toEqual([{ name: 'Photo', value: photoOrder!.photoUrl }]);
    // The customer's photo is on our own host, and is what the job's front page was drawn from.
    expect(new URL(photoOrder!.photoUrl).pathname).toMatch(/^\/files\/\d+\/orders\/.+\.jpe?g$/);
    const photo = await sharp(await file(new URL(photoOrder!.photoUrl).pathname)).metadata();
    expect([photo.width, photo.height]).toEqual([LOW_RES_PHOTO.width, LOW_RES_PHOTO.height]);
    expect(job.data.needsReview).toBeUndefined();

    // At its placed size the photo is well under preflight's error limit (an error: the job is held),
    // while the design's own sample photo prints sharp.
    const layer = (card.data.document as DesignDocument).pages[0].layers.find((l): l is ImageLayer => l.type === 'image' && l.field?.property === 'Photo')!;
    const placed = { widthMm: layer.width, heightMm: layer.height };
    const ppi = effectivePpi({ pixelWidth: photo.width!, pixelHeight: photo.height! }, placed, layer.fit);
    expect(ppi).toBeGreaterThanOrEqual(60);
    expect(ppi).toBeLessThanOrEqual(100);
    expect(ppi).toBeLessThan(DEFAULT_PPI_THRESHOLDS.error);
    const sample = await sharp(await file(layer.field!.sample)).metadata();
    expect(effectivePpi({ pixelWidth: sample.width!, pixelHeight: sample.height! }, placed, layer.fit)).toBeGreaterThanOrEqual(PRINT_PPI);

    // The job's pages are the card drawn with the customer's photo, at print size.
    const front = await file(job.artworkUrls[0]);
    expect(await sharp(front).metadata()).toMatchObject(pagePixelSize({ format: 'card-a5' }, PRINT_PPI));
    const sampleFront = await file(card.data.artworkUrls![0]);
    expect(front.equals(sampleFront)).toBe(false);

    // Preflight held it on intake, naming the page and the photo; it is in the Held list, not in Jobs.
    expect(job.held).toBe(true);
    expect(job.preflightCheckedAt).toBeTruthy();
    expect(job.preflight).toContainEqual(expect.objectContaining({ severity: 'error', code: 'low-resolution', page: 1 }));
    const held = (await w.request().get('/api/print-jobs?held=1').set(bearer(w.tokens.adminA))).body.data.list as Array<{ id: number }>;
    expect(held.map((j) => j.id)).toContain(photoOrder!.job.id);
    const ready = (await w.request().get('/api/print-jobs?readyForPrint=1&isPrinted=0').set(bearer(w.tokens.adminA))).body.data.list as Array<{ id: number }>;
    expect(ready.map((j) => j.id)).not.toContain(photoOrder!.job.id);
  });

  it("has stock for every demo product it prints, each design consuming it, and one item near its reorder point on Home's list", async () => {
    const items = (await w.request().get(`/api/stock-items?clientId=${w.sites.a}&pageSize=100`).set(bearer(w.tokens.adminA))).body.data.list as StockItem[];
    const byId = new Map(items.map((i) => [i.id, i]));
    expect(items.map((i) => i.name).sort()).toEqual(['C5 envelopes', 'Card blanks A5', 'Poster paper A3', 'Sublimation sheets A4', 'White mugs 11 oz']);
    for (const d of designs.filter((x) => x.siteId === w.sites.a)) {
      const uses = stockUsesOf(d.data);
      expect(uses.length, d.sku!).toBeGreaterThan(0);
      for (const u of uses) expect(byId.get(u.stockItemId)?.siteId, d.sku!).toBe(w.sites.a);
    }
    // Near: within a few units of the reorder point (the demo's queue may have reserved some).
    const near = items.filter((i) => i.reorderPoint > 0 && i.available <= i.reorderPoint + 3);
    expect(near.map((i) => i.name)).toEqual(['White mugs 11 oz']);
    const mugs = near[0];
    expect(mugs.reorderQuantity).toBeGreaterThan(0);
    expect(mugs.supplierNote).toBeTruthy();
    // Every item's opening count is on its movements list.
    const moves = (await w.request().get(`/api/stock-items/${mugs.id}/movements`).set(bearer(w.tokens.adminA))).body.data.list as Array<{ kind: string; note: string | null }>;
    expect(moves).toContainEqual(expect.objectContaining({ kind: 'count', note: 'opening count' }));
  });

  it('holds no other demo job: each was checked and its artwork passes preflight', async () => {
    const all = (await w.request().get('/api/print-jobs?page=1&pageSize=100').set(bearer(w.tokens.adminA))).body.data.list as Array<{ id: number; held: boolean; preflightCheckedAt: string | null; preflight: Array<{ severity: string }> }>;
    const others = all.filter((j) => j.id !== seeded.photoOrder!.job.id);
    expect(others.length).toBeGreaterThan(0);
    for (const j of others) {
      expect(j.held, `job ${j.id}`).toBe(false);
      expect(j.preflightCheckedAt, `job ${j.id}`).toBeTruthy();
      expect(j.preflight.filter((f) => f.severity === 'error'), `job ${j.id}`).toEqual([]);
    }
  });
});
