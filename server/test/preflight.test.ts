// Preflight at intake: a job's files are checked when it is made; an error holds it (out of the
// ready list, never sent to HP, refused by the Jobs download) until Approve anyway or a re-check
// of a fixed design. The rules are tested on their own, then through the API and the sends.
import { Readable } from 'node:stream';
import { PDFDocument } from 'pdf-lib';
import sharp from 'sharp';
import { createCanvas } from '@napi-rs/canvas';
import { afterAll, describe, expect, it } from 'vitest';
import { HELD_BY_PREFLIGHT_CODE, type PreflightFinding } from '../../common/api/preflight';
import { printSizeOf } from '../../common/design-doc/printSize';
import { DEFAULT_PPI_THRESHOLDS } from '../../common/design-doc/resolution';
import type { DesignDocument, ImageLayer } from '../../common/design-doc/types';
import { fromJson, toJson } from '../src/db';
import { documentFindings, isHeld, pageImageFindings, pdfFindings } from '../src/modules/print-jobs/preflight';
import { ppiSettingsProblem, thresholdsOf } from '../src/modules/print-jobs/preflightSettings';
import { NOT_HELD } from '../src/modules/print-jobs/service';
import { registerBundledFonts } from '../src/modules/render/fonts';
import { closeRenderWorkers } from '../src/modules/render/service';
import { createHpWorld } from './fulfilmentWorld';
import { bearer } from './harness';
import { connectStores, deliver, makeDesign, order, setSiteEnv } from './ordersKit';
import { cardDoc, nameLayer } from './renderKit';

const CARD = printSizeOf('Card');
const PT_PER_MM = 72 / 25.4;
/** The photo box on the card's front: 120 × 50 mm. */
const PHOTO_BOX = { x: 14, y: 95, width: 120, height: 50 };
/** Pixels for a photo of `ppi` filling a box of w × h mm. */
const pixelsFor = (ppi: number, box: { width: number; height: number }) => ({ width: Math.ceil((box.width / 25.4) * ppi), height: Math.ceil((box.height / 25.4) * ppi) });

function photoLayer(src: string, over: Partial<ImageLayer> = {}): ImageLayer {
  return { id: 'photo', name: 'Photo', type: 'image', ...PHOTO_BOX, rotation: 0, opacity: 1, src, fit: 'cover', field: { property: 'Photo', sample: src, fit: 'clip' }, ...over };
}

async function pdfOfPages(pages: number, mm: { w: number; h: number }, boxes?: { trim: { w: number; h: number } }): Promise<Uint8Array> {
  const doc = await PDFDocument.create();
  for (let i = 0; i < pages; i++) {
    const page = doc.addPage([mm.w * PT_PER_MM, mm.h * PT_PER_MM]);
    if (boxes) {
      const dx = ((mm.w - boxes.trim.w) / 2) * PT_PER_MM;
      const dy = ((mm.h - boxes.trim.h) / 2) * PT_PER_MM;
      page.setTrimBox(dx, dy, boxes.trim.w * PT_PER_MM, boxes.trim.h * PT_PER_MM);
      page.setBleedBox(0, 0, mm.w * PT_PER_MM, mm.h * PT_PER_MM);
    }
  }
  return doc.save();
}

describe('preflight rules', () => {
  it('a page image at the trim size without bleed → warning no-bleed with the page; another shape → error page-proportions', () => {
    const trim = pixelsFor(300, { width: 148, height: 210 });
    expect(pageImageFindings(1, trim, CARD, DEFAULT_PPI_THRESHOLDS, false)).toEqual([
      { severity: 'warning', code: 'no-bleed', message: 'Page 2 has no bleed: it is placed at the finished size and a slightly off cut leaves a white edge', page: 2 },
    ]);
    const bleed = pixelsFor(300, { width: 154, height: 216 });
    expect(pageImageFindings(0, bleed, CARD, DEFAULT_PPI_THRESHOLDS, false)).toEqual([]);
    const square = pageImageFindings(0, { width: 2000, height: 2000 }, CARD, DEFAULT_PPI_THRESHOLDS, true);
    expect(square.map((f) => [f.severity, f.code, f.page])).toEqual([['error', 'page-proportions', 1]]);
  });

  it('a page image not drawn from a document is checked for resolution: 120 ppi → error, 200 → warning', () => {
    const at = (ppi: number) => pageImageFindings(0, pixelsFor(ppi, { width: 154, height: 216 }), CARD, DEFAULT_PPI_THRESHOLDS, false);
    expect(at(120)).toEqual([expect.objectContaining({ severity: 'error', code: 'low-resolution', page: 1, message: expect.stringMatching(/^Page 1 photo is 12\d ppi/) })]);
    expect(at(200).map((f) => f.severity)).toEqual(['warning']);
  });

  it('a pregenerated PDF: wrong page size → error; trim without room for bleed → warning; 3 pages of a card → error; trim + bleed → nothing', async () => {
    const a4 = await pdfFindings(await pdfOfPages(4, { w: 210, h: 297 }), CARD, 'card-a5');
    expect(a4.map((f) => [f.severity, f.code, f.page])).toEqual([1, 2, 3, 4].map((p) => ['error', 'pdf-page-size', p]));
    expect(a4[0].message).toBe('Page 1 of the PDF is 210 × 297 mm; the product is 148 × 210 mm');
    const bare = await pdfFindings(await pdfOfPages(4, { w: 148, h: 210 }), CARD, 'card-a5');
    expect(bare.map((f) => [f.severity, f.code])).toEqual([1, 2, 3, 4].map(() => ['warning', 'pdf-boxes']));
    const three = await pdfFindings(await pdfOfPages(3, { w: 154, h: 216 }, { trim: { w: 148, h: 210 } }), CARD, 'card-a5');
    expect(three.map((f) => f.code)).toEqual(['pdf-page-count']);
    expect(await pdfFindings(await pdfOfPages(4, { w: 154, h: 216 }, { trim: { w: 148, h: 210 } }), CARD, 'card-a5')).toEqual([]);
    expect((await pdfFindings(Buffer.from('%PDF-1.7 not really'), CARD, 'card-a5')).map((f) => [f.severity, f.code])).toEqual([['error', 'unreadable']]);
  });

  it("a personalised name that does not fit its box (clip) → warning naming the page and layer, with the box's area", async () => {
    await registerBundledFonts();
    const measure = createCanvas(1, 1).getContext('2d');
    const doc = cardDoc({ name: nameLayer({ field: { property: 'Recipient name', sample: 'Sam', fit: 'clip' } }) });
    const long = { 'Recipient name': 'Bartholomew Fitzgerald-Montgomery of Little Snoring' };
    const found = documentFindings(doc, long, () => undefined, measure, CARD, DEFAULT_PPI_THRESHOLDS);
    expect(found).toEqual([
      {
        severity: 'warning',
        code: 'text-clipped',
        message: 'Page 1 “Recipient name” does not fit its box and is cut off',
        page: 1,
        area: { x: 0.0946, y: 0.2857, width: 0.8108, height: 0.1429 },
      },
    ]);
    expect(documentFindings(doc, { 'Recipient name': 'Olu' }, () => undefined, measure, CARD, DEFAULT_PPI_THRESHOLDS)).toEqual([]);
    // Shrink-to-fit: a name that needs a size below the readable minimum is warned about; it is still drawn.
    const shrinking = cardDoc({ name: nameLayer({ width: 20, height: 4, field: { property: 'Recipient name', sample: 'Sam', fit: 'shrink' } }) });
    const shrunk = documentFindings(shrinking, { 'Recipient name': 'Bartholomew Fitzgerald-Montgomery' }, () => undefined, measure, CARD, DEFAULT_PPI_THRESHOLDS);
    expect(shrunk.map((f) => [f.code, f.page])).toEqual([['text-shrunk', 1]]);
    expect(shrunk[0].message).toMatch(/^Page 1 “Recipient name” had to shrink to [\d.]+ pt to fit its box — below 6 pt it is hard to read$/);
  });

  it("a photo's effective resolution at its placed size: the customer's image, not the sample", async () => {
    await registerBundledFonts();
    const measure = createCanvas(1, 1).getContext('2d');
    const doc = cardDoc({ frontExtra: [photoLayer('/files/sample.png')] });
    const sizes: Record<string, { width: number; height: number }> = { '/files/sample.png': pixelsFor(300, PHOTO_BOX), '/files/mine.png': pixelsFor(120, PHOTO_BOX) };
    const found = documentFindings(doc, { 'Recipient name': 'Olu', Photo: '/files/mine.png' }, (src) => sizes[src], measure, CARD, DEFAULT_PPI_THRESHOLDS);
    expect(found).toEqual([
      { severity: 'error', code: 'low-resolution', message: 'Page 1 photo “Photo” is 120 ppi at its printed size — it will look soft', page: 1, area: { x: 0.0946, y: 0.4524, width: 0.8108, height: 0.2381 } },
    ]);
    expect(documentFindings(doc, { 'Recipient name': 'Olu' }, (src) => sizes[src], measure, CARD, DEFAULT_PPI_THRESHOLDS)).toEqual([]);
  });

  it('held: an error and no approval', () => {
    const error: PreflightFinding = { severity: 'error', code: 'page-count', message: 'x', page: null };
    const warning: PreflightFinding = { severity: 'warning', code: 'no-bleed', message: 'x', page: 1 };
    expect(isHeld([warning], null)).toBe(false);
    expect(isHeld([warning, error], null)).toBe(true);
    expect(isHeld([error], { byUserId: 1, byName: 'Ada', at: '2026-11-25T10:00:00Z' })).toBe(false);
  });

  it('site thresholds: whole numbers, error not above warning; defaults when unset', () => {
    const env = (warning?: string, error?: string) => [
      ...(warning === undefined ? [] : [{ key: 'PREFLIGHT_MIN_PPI_WARNING', value: warning }]),
      ...(error === undefined ? [] : [{ key: 'PREFLIGHT_MIN_PPI_ERROR', value: error }]),
    ];
    expect(thresholdsOf(env())).toEqual({ warning: 250, error: 150 });
    expect(thresholdsOf(env('280', '200'))).toEqual({ warning: 280, error: 200 });
    expect(ppiSettingsProblem(env('280', '200'))).toBeUndefined();
    expect(ppiSettingsProblem(env('250.5'))).toBe('PREFLIGHT_MIN_PPI_WARNING: "250.5" is not a whole number of ppi (e.g. 250).');
    expect(ppiSettingsProblem(env(undefined, '300'))).toBe(
      'PREFLIGHT_MIN_PPI_ERROR (300) must not be above PREFLIGHT_MIN_PPI_WARNING (250): a photo is held below the first and warned about below the second.',
    );
  });
});

describe('preflight of print jobs (API, sends)', async () => {
  const w = await createHpWorld();
  await connectStores(w);
  afterAll(() => closeRenderWorkers());
  const post = (path: string, body: unknown, token = w.tokens.userA) => w.request().post(path).set(bearer(token)).send(body as object);
  const get = (path: string, token = w.tokens.userA) => w.request().get(path).set(bearer(token));
  const ids = async (query: string) => ((await get(`/api/print-jobs?${query}`)).body.data.list as Array<{ id: number }>).map((j) => j.id);

  /** A photo of `ppi` for the card's photo box, stored in our files. */
  async function photo(name: string, ppi: number): Promise<string> {
    const { width, height } = pixelsFor(ppi, PHOTO_BOX);
    const png = await sharp({ create: { width, height, channels: 3, background: '#4a90d9' } }).png().toBuffer();
    await w.services.store.put(`test/${name}.png`, Readable.from(png));
    return `/files/test/${name}.png`;
  }
  const sample = await photo('sample-300', 300);
  const soft = await photo('customer-120', 120);
  const sharpPhoto = await photo('customer-300', 300);

  const SKU = 'CARD-PHOTO';
  const design = await makeDesign(w, w.tokens.adminA, { name: 'Photo card', sku: SKU, productType: 'Card', isCustomizable: true, hpSKU: 'HP-CARD-A5', data: { document: cardDoc({ frontExtra: [photoLayer(sample)] }) } });

  const line = (photoUrl?: string, name: string | null = 'Olu') => ({
    id: `L-${Math.random().toString(36).slice(2, 10)}`,
    sku: SKU,
    quantity: 1,
    properties: [...(name === null ? [] : [{ name: 'Recipient name', value: name }]), ...(photoUrl ? [{ name: 'Photo', value: photoUrl }] : [])],
  });
  const jobOf = async (l: ReturnType<typeof line>, orderId = `O-${Math.random().toString(36).slice(2, 10)}`) =>
    (await w.services.production.jobForLine({ siteId: w.sites.a, orderId, line: l, actorId: null, madeBy: 'inHouse', ownOrigin: w.appUrl })).job;

  it('a 120 ppi photo → held with an error naming page and layer; out of readyForPrint=1, in held=1; its Jobs PDF → 409 HELD_BY_PREFLIGHT', async () => {
    const job = await jobOf(line(soft));
    const shown = (await get(`/api/print-jobs/${job.id}`)).body.data;
    expect(shown).toMatchObject({ held: true, preflightApproval: null, preflightCheckedAt: w.clock.now().toISOString() });
    expect(shown.preflight).toEqual([
      { severity: 'error', code: 'low-resolution', message: 'Page 1 photo “Photo” is 120 ppi at its printed size — it will look soft', page: 1, area: { x: 0.0946, y: 0.4524, width: 0.8108, height: 0.2381 } },
    ]);
    expect(await ids('readyForPrint=1&isPrinted=0&pageSize=100')).not.toContain(job.id);
    expect(await ids('held=1&pageSize=100')).toContain(job.id);
    const admin = await w.request().get(`/api/admin/print-jobs?filter=${encodeURIComponent(JSON.stringify({ readyForPrint: true }))}&range=[0,99]`).set(bearer(w.tokens.adminA));
    expect((admin.body as Array<{ id: number }>).map((j) => j.id)).not.toContain(job.id);
    const pdf = await post('/api/pdf/from-print-job', { id: job.id, from: 'jobs' });
    expect(pdf.status).toBe(409);
    expect(pdf.body.error).toBe(`Held by preflight (job #${job.id}): Page 1 photo “Photo” is 120 ppi at its printed size — it will look soft. Approve it anyway or fix the design and re-check.`);
    expect(pdf.body.details).toMatchObject({ code: HELD_BY_PREFLIGHT_CODE, printJobId: job.id });
    expect((await w.db('print_job_events').where({ job_id: job.id })).length).toBe(0);
  });

  it('approve anyway → recorded (who, when), in the ready list, downloadable; approving again → 409 with a sentence', async () => {
    const job = await jobOf(line(soft));
    const res = await post(`/api/print-jobs/${job.id}/approve`, {});
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body.data).toMatchObject({ held: false, preflightApproval: { byUserId: w.users.userA, byName: 'user-a Tester', at: w.clock.now().toISOString() } });
    expect(res.body.data.preflight.map((f: PreflightFinding) => f.code)).toEqual(['low-resolution']);
    expect(await ids('readyForPrint=1&isPrinted=0&pageSize=100')).toContain(job.id);
    expect(await ids('held=1&pageSize=100')).not.toContain(job.id);
    expect((await post('/api/pdf/from-print-job', { id: job.id, from: 'jobs' })).status).toBe(200);
    const again = await post(`/api/print-jobs/${job.id}/approve`, {});
    expect(again.status).toBe(409);
    expect(again.body.error).toBe(NOT_HELD);
    // Another site's job: not found.
    expect((await post(`/api/print-jobs/${job.id}/approve`, {}, w.tokens.userB)).status).toBe(404);
  });

  it('a 300 ppi photo and a name that fits → no finding, not held', async () => {
    const job = await jobOf(line(sharpPhoto));
    expect(job).toMatchObject({ held: false, preflight: [] });
    expect(await ids('readyForPrint=1&isPrinted=0&pageSize=100')).toContain(job.id);
  });

  it('a required property missing (the sample drew) → error missing-property, held; needsReview kept for old readers', async () => {
    const job = await jobOf(line(sharpPhoto, null));
    expect(job.held).toBe(true);
    expect(job.preflight).toEqual([{ severity: 'error', code: 'missing-property', message: 'The order line has no “Recipient name”: the design\'s sample would print in its place', page: null }]);
    expect(job.data).toMatchObject({ needsReview: true, missingFields: ['Recipient name'] });
  });

  it("another site's staff neither see a held job nor re-check or approve it (404, nothing changed)", async () => {
    const job = await jobOf(line(soft));
    const theirs = ((await get('/api/print-jobs?held=1&pageSize=100', w.tokens.userB)).body.data.list as Array<{ id: number }>).map((j) => j.id);
    expect(theirs).not.toContain(job.id);
    expect((await post(`/api/print-jobs/${job.id}/recheck`, {}, w.tokens.userB)).status).toBe(404);
    expect((await post(`/api/print-jobs/${job.id}/approve`, {}, w.tokens.userB)).status).toBe(404);
    expect((await get(`/api/print-jobs/${job.id}`)).body.data).toMatchObject({ held: true, preflightApproval: null, artworkUrls: job.artworkUrls });
  });

  it('re-check after the design is fixed (a smaller photo box) → drawn again, findings gone, approval cleared', async () => {
    const job = await jobOf(line(soft));
    expect((await post(`/api/print-jobs/${job.id}/approve`, {})).status).toBe(200);
    const row = await w.db('designs').where({ id: design.id }).first();
    const data = fromJson<{ document: DesignDocument }>(row.data, { document: cardDoc() });
    const fixed = cardDoc({ frontExtra: [photoLayer(sample, { width: 40, height: 16 })] });
    await w.db('designs').where({ id: design.id }).update({ data: toJson({ ...data, document: fixed }) });
    try {
      const res = await post(`/api/print-jobs/${job.id}/recheck`, {});
      expect(res.status, JSON.stringify(res.body)).toBe(200);
      expect(res.body.data).toMatchObject({ held: false, preflight: [], preflightApproval: null });
      expect(res.body.data.artworkUrls).toHaveLength(4);
      expect(res.body.data.artworkUrls).not.toEqual(job.artworkUrls);
      // A re-check of the design as it was: held again, the earlier approval gone.
      await w.db('designs').where({ id: design.id }).update({ data: row.data });
      const back = await post(`/api/print-jobs/${job.id}/recheck`, {});
      expect(back.body.data).toMatchObject({ held: true, preflightApproval: null });
    } finally {
      await w.db('designs').where({ id: design.id }).update({ data: row.data });
    }
  });

  it('a job made by hand from a pregenerated PDF of the wrong page size → error pdf-page-size, held', async () => {
    await w.services.store.put('test/a4.pdf', Readable.from(Buffer.from(await pdfOfPages(4, { w: 210, h: 297 }))));
    const res = await post('/api/print-jobs', { productName: 'A4 by mistake', data: { pregeneratedPDF: '/files/test/a4.pdf' } });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body.data.held).toBe(true);
    expect(res.body.data.preflight[0]).toMatchObject({ severity: 'error', code: 'pdf-page-size', page: 1 });
  });

  it('the order screens carry each line job’s held and preflight (check-order data.production[], hp-data order lines[])', async () => {
    const o = order({ skus: [SKU] });
    o.line_items[0].properties = [{ name: 'Recipient name', value: 'Olu' }, { name: 'Photo', value: `${w.appUrl}${soft}` }];
    expect((await deliver(w, o)).status).toBe(200);
    expect((await post('/api/online-stores/shopify-webhook/order-to-arwork', { id: o.id })).status).toBe(200);
    const checked = await post('/api/online-stores/check-order', { id: o.id });
    const record = (checked.body.data as Array<{ type: string; data: { production?: Array<{ held: boolean; preflight: PreflightFinding[] }> } }>).find((r) => r.type === 'shopify-order-log')!;
    expect(record.data.production).toEqual([expect.objectContaining({ held: true, preflight: [expect.objectContaining({ code: 'low-resolution' })] })]);
    // The order screen's lines (GET /api/hp-data/order/:id → data.lines[]).
    const detail = await get(`/api/hp-data/order/${o.id}`);
    expect(detail.body.data.lines).toEqual([expect.objectContaining({ held: true, preflight: [expect.objectContaining({ severity: 'error', code: 'low-resolution', page: 1 })] })]);
  });

  it('auto-send leaves a held line out (the send fails saying why); Approve anyway sends it once', async () => {
    await setSiteEnv(w, w.sites.a, { HP_AUTO_SEND: '1' });
    try {
      const o = order({ skus: [SKU] });
      o.line_items[0].properties = [{ name: 'Recipient name', value: 'Olu' }, { name: 'Photo', value: soft }];
      expect((await deliver(w, o)).status).toBe(200);
      await w.services.fulfilment.processDue();
      expect(w.sim.orderBySource(o.id)).toBeUndefined();
      const row = await w.db('outbox').where({ site_id: w.sites.a, dedupe_key: `hp:${w.sites.a}:${o.id}` }).first();
      expect(row.status).toBe('failed');
      expect(row.error).toMatch(/held by preflight: Page 1 photo “Photo” is 120 ppi/);
      const job = await w.db('print_jobs').where({ shopify_order_id: o.id }).first();
      expect(Boolean(job.held)).toBe(true);
      expect((await post(`/api/print-jobs/${job.id}/approve`, {})).status).toBe(200);
      await w.services.fulfilment.processDue();
      const sent = w.sim.orderBySource(o.id);
      expect(sent).toBeDefined();
      expect((sent!.body.orderData.items as Array<{ sourceItemId: string }>).map((i) => i.sourceItemId)).toEqual([String(o.line_items[0].id)]);
      // Nothing queued twice: one row for the order.
      expect(await w.db('outbox').where({ site_id: w.sites.a }).whereLike('dedupe_key', `%${o.id}%`)).toHaveLength(1);
    } finally {
      await setSiteEnv(w, w.sites.a, { HP_AUTO_SEND: '0' });
    }
  });

  it('a site save with unusable thresholds is refused with the sentence; GET /api/designs/:id carries the site’s thresholds', async () => {
    const site = (await get(`/api/sites/${w.sites.a}`, w.tokens.adminA)).body.data;
    const env = [...site.settings.env.filter((v: { key: string }) => !v.key.startsWith('PREFLIGHT_')), { key: 'PREFLIGHT_MIN_PPI_ERROR', value: '300' }];
    const refused = await post('/api/sites', { ...site, settings: { ...site.settings, env } }, w.tokens.adminA);
    expect(refused.status).toBe(400);
    expect(refused.body.error).toContain('PREFLIGHT_MIN_PPI_ERROR (300) must not be above PREFLIGHT_MIN_PPI_WARNING (250)');
    await setSiteEnv(w, w.sites.a, { PREFLIGHT_MIN_PPI_WARNING: '280', PREFLIGHT_MIN_PPI_ERROR: '100' });
    try {
      expect((await get(`/api/designs/${design.id}`, w.tokens.adminA)).body.data.ppiThresholds).toEqual({ warning: 280, error: 100 });
      // The site's rule decides: 120 ppi is now a warning, not a hold.
      const job = await jobOf(line(soft));
      expect(job.held).toBe(false);
      expect(job.preflight.map((f) => f.severity)).toEqual(['warning']);
    } finally {
      await setSiteEnv(w, w.sites.a, { PREFLIGHT_MIN_PPI_WARNING: '', PREFLIGHT_MIN_PPI_ERROR: '' });
    }
  });
});
