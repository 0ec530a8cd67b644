// The demo print production: designs with real artwork files and jobs in every state, so the screens are not empty.
import { PDFDocument } from 'pdf-lib';
import sharp from 'sharp';
import type { Response } from 'supertest';
import { describe, expect, it } from 'vitest';
import { seedPrintProduction } from '../../seeds/demo';
import { createLogger } from '../src/lib/logger';
import { bearer, createWorld } from './harness';

const binary = (res: Response, cb: (err: Error | null, body: Buffer) => void) => {
  const chunks: Buffer[] = [];
  res.on('data', (c: Buffer) => chunks.push(c));
  res.on('end', () => cb(null, Buffer.concat(chunks)));
};

describe('seedPrintProduction', async () => {
  const w = await createWorld();
  const deps = { db: w.db, clock: w.clock, config: w.config, log: createLogger('silent') };

  it('makes 6 printed designs with 4 stored A5 pages each, the charity e-card, and 8 jobs: queue, history, reprint, notes, reports', async () => {
    const seeded = await seedPrintProduction(deps, w.services, { demo: w.sites.a, 'hope-harbour': w.sites.b });
    const ecard = seeded.designs.find((d) => d.productType === 'E-card')!;
    const designs = seeded.designs.filter((d) => d !== ecard);
    const { jobs } = seeded;
    expect(designs).toHaveLength(6);
    expect(jobs).toHaveLength(8);
    // The charity's e-card: one front page drawn from its document, personalised, never printed (no provider SKU).
    expect(ecard).toMatchObject({ sku: 'ECARD-SEASONS', siteId: w.sites.b, isCustomizable: true, hpSKU: null });
    expect(ecard.data.artworkUrls).toHaveLength(1);
    expect(ecard.image).toMatch(/^\/files\/renders\/.+-preview\.png$/);
    const preview = await sharp((await w.request().get(ecard.image!).buffer(true).parse(binary)).body as Buffer).metadata();
    expect(preview.width! / preview.height!).toBeCloseTo(148 / 105, 2);
    for (const d of designs) {
      expect(d.data.artworkUrls).toHaveLength(4);
      // A design with a document (the personalised card) shows its rendered preview; the others their front page.
      if (d.data.document) expect(d.image).toMatch(/^\/files\/renders\/.+-preview\.png$/);
      else expect(d.image).toBe(d.data.artworkUrls![0]);
    }
    const front = await w.request().get(designs[0].image!).buffer(true).parse(binary);
    expect(front.status).toBe(200);
    const meta = await sharp(front.body as Buffer).metadata();
    expect(meta.format).toBe('png');
    expect(meta.width! / meta.height!).toBeCloseTo(148 / 210, 2);

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

    const pdf = await w.request().post('/api/pdf/from-print-job').set(bearer(w.tokens.adminA)).send({ id: queue.list[0].id }).buffer(true).parse(binary);
    expect(pdf.status).toBe(200);
    expect((await PDFDocument.load(pdf.body as Buffer)).getPageCount()).toBe(4);
  });
});
