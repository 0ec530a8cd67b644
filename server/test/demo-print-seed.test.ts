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

  it('makes 6 designs with 4 stored A5 pages each and 8 jobs: queue, history, reprint, notes, reports', async () => {
    const { designs, jobs } = await seedPrintProduction(deps, w.services, { demo: w.sites.a, 'hope-harbour': w.sites.b });
    expect(designs).toHaveLength(6);
    expect(jobs).toHaveLength(8);
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
