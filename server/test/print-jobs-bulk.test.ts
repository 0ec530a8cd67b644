// Bulk actions on Jobs and Print History: each job through its own button's rules (the same 409
// sentences, who did it), another site's ids refused as not found, idempotent replay, bad input;
// and the merged print files of many jobs (pages in the order given, boxes kept, downloaded only from Jobs).
import { PDFDocument } from 'pdf-lib';
import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import { BULK_LIMIT } from '../../common/api/bulk';
import { formatDateTime } from '../src/lib/clock';
import type { NewPrintJob } from '../src/modules/print-jobs/repo';
import { bearer, binary, createWorld, type TestWorld } from './harness';
import { makeDesign } from './ordersKit';
import { concatPdfs } from '../src/modules/pdf/concatPdf';

const MM = 72 / 25.4;
const trimWidthsOf = (doc: PDFDocument) => doc.getPages().map((p) => Math.round(p.getTrimBox().width / MM));

function kit(w: TestWorld) {
  const post = (path: string, token: string, body: unknown) => w.request().post(path).set(bearer(token)).send(body as object);
  const bulk = (token: string, body: unknown, key?: string) => {
    const req = w.request().post('/api/print-jobs/bulk').set(bearer(token));
    if (key) req.set('Idempotency-Key', key);
    return req.send(body as object);
  };
  /** A job straight into the table (the bulk rules, not job creation, are under test here). */
  const insertJob = async (siteId: number, over: Partial<NewPrintJob> = {}) => {
    const now = w.clock.now().toISOString();
    return w.services.printJobs.repo.insert({
      preflight: [], held: false, preflightCheckedAt: now, clientId: siteId, designId: null, productName: 'Card', previewUrl: null, quantity: 1,
      productId: null, shopifyOrderId: null, lineItemId: null, isPrinted: false, isPDFDownloaded: false, isRePrinted: false, readyForPrint: true,
      artworkUrls: [], data: {}, downloadedAt: null, downloadedByUserId: null, printedAt: null, printedByUserId: null, printedByName: null,
      packedAt: null, packedByUserId: null, packedByName: null,
      reprintCount: 0, madeBy: 'inHouse', createdAt: now, updatedAt: now, ...over,
    });
  };
  const row = async (id: number) => w.services.printJobs.repo.byId(id);
  return { post, bulk, insertJob, row };
}

describe('POST /api/print-jobs/bulk', async () => {
  const w = await createWorld();
  const { post, bulk, insertJob, row } = kit(w);
  const downloaded = { isPDFDownloaded: true, downloadedAt: w.clock.now().toISOString(), downloadedByUserId: w.users.userA };

  it('mark printed on 200 jobs, 3 printed meanwhile by another user → 197 done (recorded as the caller), 3 refused naming who printed them', async () => {
    const ids: number[] = [];
    for (let i = 0; i < 200; i++) ids.push(await insertJob(w.sites.a, downloaded));
    const early = [ids[5], ids[77], ids[199]];
    for (const id of early) expect((await post('/api/print-jobs', w.tokens.userA2, { id, isPrinted: true })).status).toBe(200);
    w.clock.advance(60_000);

    const res = await bulk(w.tokens.userA, { ids, action: 'markPrinted' });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    const { done, refused } = res.body.data as { done: number[]; refused: Array<{ id: number; error: string }> };
    expect(done).toHaveLength(197);
    expect(done).toEqual(ids.filter((id) => !early.includes(id)));
    const when = formatDateTime((await row(early[0]))!.printedAt!, w.config.sync.timezone);
    expect(refused).toEqual(early.map((id) => ({ id, error: `Already printed by user-a2 Tester at ${when}` })));
    expect(await row(done[0])).toMatchObject({ isPrinted: true, printedByUserId: w.users.userA, printedByName: 'user-a Tester', printedAt: w.clock.now().toISOString() });
    expect(await row(early[1])).toMatchObject({ printedByUserId: w.users.userA2 });
    const events = await w.db('print_job_events').whereIn('job_id', ids).where({ kind: 'printed' });
    expect(events).toHaveLength(200);
    expect(events.filter((e) => e.user_id === w.users.userA)).toHaveLength(197);
  });

  it('each id keeps its own rule: not downloaded yet, held by preflight and withdrawn are refused with their sentences; the rest are done', async () => {
    const ok = await insertJob(w.sites.a, downloaded);
    const fresh = await insertJob(w.sites.a);
    const held = await insertJob(w.sites.a, { ...downloaded, held: true, preflight: [{ severity: 'error', code: 'low-resolution', message: 'Page 1 photo is 90 ppi' }] as NewPrintJob['preflight'] });
    const gone = await insertJob(w.sites.a, downloaded);
    await w.db('print_jobs').where({ id: gone }).update({ withdrawn_at: w.clock.now().toISOString(), withdrawn_reason: 'The order was cancelled' });
    const res = await bulk(w.tokens.userA, { ids: [fresh, held, ok, gone], action: 'markPrinted' });
    expect(res.body.data).toEqual({
      done: [ok],
      refused: [
        { id: fresh, error: 'Download the PDF before marking the job printed' },
        { id: held, error: `Held by preflight (job #${held}): Page 1 photo is 90 ppi. Approve it anyway or fix the design and re-check.` },
        { id: gone, error: `This job left the queue unprinted (job #${gone}): The order was cancelled` },
      ],
    });
  });

  it('a held job cannot be marked printed one at a time either (the same rule)', async () => {
    const held = await insertJob(w.sites.a, { ...downloaded, held: true, preflight: [{ severity: 'error', code: 'low-resolution', message: 'Page 1 photo is 90 ppi' }] as NewPrintJob['preflight'] });
    const res = await post('/api/print-jobs', w.tokens.userA, { id: held, isPrinted: true });
    expect(res.status).toBe(409);
    expect(res.body.error).toMatch(/^Held by preflight \(job #\d+\)/);
    expect(await row(held)).toMatchObject({ isPrinted: false });
  });

  it('reprint puts printed jobs back in the queue (an unprinted one refused); delete removes them', async () => {
    const printed = [await insertJob(w.sites.a, { ...downloaded, isPrinted: true, printedAt: w.clock.now().toISOString() }), await insertJob(w.sites.a, { ...downloaded, isPrinted: true, printedAt: w.clock.now().toISOString() })];
    const unprinted = await insertJob(w.sites.a);
    const res = await bulk(w.tokens.userA, { ids: [...printed, unprinted], action: 'reprint', reprintReason: 'transitDamage', reprintResponsible: 'carrier' });
    expect(res.body.data).toEqual({ done: printed, refused: [{ id: unprinted, error: 'Only a printed job can be reprinted' }] });
    expect(await row(printed[0])).toMatchObject({ isPrinted: false, isPDFDownloaded: false, isRePrinted: true, reprintCount: 1 });
    expect((await w.db('print_job_events').where({ job_id: printed[1], kind: 'reprinted' }))[0]).toMatchObject({ user_id: w.users.userA });

    const del = await bulk(w.tokens.userA, { ids: [...printed, unprinted], action: 'delete' });
    expect(del.body.data).toEqual({ done: [...printed, unprinted], refused: [] });
    expect(await w.db('print_jobs').whereIn('id', [...printed, unprinted])).toEqual([]);
  });

  it("another site's ids are refused as not found (never revealed, never changed)", async () => {
    const mine = await insertJob(w.sites.a, downloaded);
    const theirs = await insertJob(w.sites.b, downloaded);
    const res = await bulk(w.tokens.userB, { ids: [theirs, mine], action: 'delete' });
    expect(res.body.data).toEqual({ done: [theirs], refused: [{ id: mine, error: 'Print job not found' }] });
    expect(await row(mine)).toBeDefined();
    const unknown = await bulk(w.tokens.userA, { ids: [mine, 2_000_000_000], action: 'markPrinted' });
    expect(unknown.body.data).toEqual({ done: [mine], refused: [{ id: 2_000_000_000, error: 'Print job not found' }] });
  });

  it('the same Idempotency-Key runs once: the replay gets the first answer, nothing refused as "already printed"', async () => {
    const ids = [await insertJob(w.sites.a, downloaded), await insertJob(w.sites.a, downloaded)];
    const first = await bulk(w.tokens.userA, { ids, action: 'markPrinted' }, 'bulk-key-1');
    const again = await bulk(w.tokens.userA, { ids, action: 'markPrinted' }, 'bulk-key-1');
    expect(first.body.data).toEqual({ done: ids, refused: [] });
    expect(again.status).toBe(200);
    expect(again.body).toEqual(first.body);
    expect(await w.db('print_job_events').whereIn('job_id', ids).where({ kind: 'printed' })).toHaveLength(2);
  });

  it('bad input → 400 with a sentence: no ids, too many, a bad id, an unknown action', async () => {
    const cases: Array<[unknown, RegExp]> = [
      [{ ids: [], action: 'delete' }, /^ids must name at least one print job/i],
      [{ action: 'delete' }, /ids/i],
      [{ ids: Array.from({ length: BULK_LIMIT + 1 }, (_, i) => i + 1), action: 'delete' }, new RegExp(`too many print jobs \\(${BULK_LIMIT} at most`)],
      [{ ids: ['x'], action: 'delete' }, /whole number/],
      [{ ids: [1], action: 'burn' }, /action.*markPrinted, reprint, delete/i],
    ];
    for (const [body, sentence] of cases) {
      const res = await bulk(w.tokens.userA, body);
      expect(res.status, JSON.stringify(body).slice(0, 80)).toBe(400);
      expect(res.body.error).toMatch(sentence);
      expect(JSON.stringify(res.body)).not.toMatch(/at .*\.ts:\d+/);
    }
  });
});

describe('POST /api/print-jobs/bulk-pdf', async () => {
  const w = await createWorld({ PUBLIC_URL: 'http://presswork.test' });
  const { post, insertJob, row } = kit(w);
  const pdfOf = (token: string, body: unknown) => w.request().post('/api/print-jobs/bulk-pdf').set(bearer(token)).send(body as object).buffer(true).parse(binary);
  const png = (colour: string) => sharp({ create: { width: 30, height: 42, channels: 3, background: colour } }).png().toBuffer();
  const upload = async (bytes: Buffer, name: string) => {
    const grant = await post('/api/users/me/get-upload-url', w.tokens.userA, { serverSidePath: `artwork/${name}`, contentType: 'image/png' });
    const url = new URL(grant.body.data);
    const put = await w.request().put(`${url.pathname}${url.search}`).set('Content-Type', 'image/png').send(bytes);
    expect(put.status).toBe(200);
    return put.body.data.url as string;
  };
  const pages: string[] = [];
  for (const [i, colour] of ['#ff0000', '#00ff00', '#0000ff', '#ffff00'].entries()) pages.push(await upload(await png(colour), `bulk-${i + 1}.png`));
  const poster = await makeDesign(w, w.tokens.adminA, { name: 'Bulk poster', sku: 'BULK-POSTER', productType: 'Poster' });
  const card = () => insertJob(w.sites.a, { artworkUrls: pages });
  const posterJob = () => insertJob(w.sites.a, { artworkUrls: pages.slice(0, 1), designId: poster.id, productName: 'Bulk poster' });

  it("from Jobs: one print-files.pdf of the jobs' own files in the order given, boxes kept; each job then downloaded", async () => {
    const ids = [await card(), await posterJob(), await card()];
    const res = await pdfOf(w.tokens.userA, { ids, from: 'jobs' });
    expect(res.status, String(res.body)).toBe(200);
    expect(res.headers['content-type']).toBe('application/pdf');
    expect(res.headers['content-disposition']).toBe('attachment; filename="print-files.pdf"');
    const merged = await PDFDocument.load(res.body as Buffer);
    const singles = await Promise.all(ids.map(async (id) => PDFDocument.load((await w.services.production.printFile((await row(id))!)).pdf)));
    expect(merged.getPageCount()).toBe(singles.reduce((n, d) => n + d.getPageCount(), 0));
    expect(merged.getPageCount()).toBe(9);
    expect(trimWidthsOf(merged)).toEqual([148, 148, 148, 148, 297, 148, 148, 148, 148]);
    const single = singles.flatMap((d) => d.getPages());
    merged.getPages().forEach((page, i) => {
      expect(page.getMediaBox()).toEqual(single[i].getMediaBox());
      expect(page.getTrimBox()).toEqual(single[i].getTrimBox());
      expect(page.getBleedBox()).toEqual(single[i].getBleedBox());
      expect(page.getTrimBox()).not.toEqual(page.getMediaBox());
    });
    for (const id of ids) expect(await row(id)).toMatchObject({ isPDFDownloaded: true, downloadedByUserId: w.users.userA });
    expect(await w.db('print_job_events').whereIn('job_id', ids).where({ kind: 'downloaded' })).toHaveLength(3);
  });

  it('from Print History: the same file, no job marked downloaded', async () => {
    const ids = [await card(), await card()];
    const res = await pdfOf(w.tokens.userA, { ids, from: 'history' });
    expect(res.status).toBe(200);
    expect((await PDFDocument.load(res.body as Buffer)).getPageCount()).toBe(8);
    for (const id of ids) expect(await row(id)).toMatchObject({ isPDFDownloaded: false, downloadedAt: null });
    expect(await w.db('print_job_events').whereIn('job_id', ids)).toEqual([]);
  });

  it('held, withdrawn and unknown jobs refuse the whole file, naming each; nothing is marked downloaded', async () => {
    const fine = await card();
    const held = await insertJob(w.sites.a, { artworkUrls: pages, held: true, preflight: [{ severity: 'error', code: 'low-resolution', message: 'Page 1 photo is 90 ppi' }] as NewPrintJob['preflight'] });
    const gone = await card();
    await w.db('print_jobs').where({ id: gone }).update({ withdrawn_at: w.clock.now().toISOString(), withdrawn_reason: 'The order was cancelled' });
    const theirs = await insertJob(w.sites.b, { artworkUrls: pages });
    const res = await w.request().post('/api/print-jobs/bulk-pdf').set(bearer(w.tokens.userA)).send({ ids: [fine, held, gone, theirs], from: 'jobs' });
    expect(res.status).toBe(409);
    expect(res.body.error).toBe(
      `3 jobs cannot be in the download — #${held}: Held by preflight (job #${held}): Page 1 photo is 90 ppi. Approve it anyway or fix the design and re-check.; ` +
        `#${gone}: This job left the queue unprinted (job #${gone}): The order was cancelled; #${theirs}: Print job not found`,
    );
    expect(res.body.details.refused.map((r: { id: number }) => r.id)).toEqual([held, gone, theirs]);
    expect(await row(fine)).toMatchObject({ isPDFDownloaded: false });
    const foreign = await w.request().post('/api/print-jobs/bulk-pdf').set(bearer(w.tokens.userA)).send({ ids: [theirs] });
    expect(foreign.status).toBe(404);
  });

  it('bad input → 400 with a sentence', async () => {
    for (const body of [{ ids: [] }, { ids: Array.from({ length: BULK_LIMIT + 1 }, (_, i) => i + 1) }, { ids: [1], from: 'elsewhere' }]) {
      const res = await w.request().post('/api/print-jobs/bulk-pdf').set(bearer(w.tokens.userA)).send(body);
      expect(res.status).toBe(400);
      expect(res.body.error).toMatch(/^(ids|from) /i);
    }
  });
});

describe('concatPdfs (the merged file written one source at a time)', () => {
  it('every page in order with its own boxes, and a cross-reference table whose every offset starts its object', async () => {
    const source = async (widthMm: number, pages: number) => {
      const doc = await PDFDocument.create();
      for (let i = 0; i < pages; i++) {
        const page = doc.addPage([widthMm * MM + 17, 210 * MM + 17]);
        page.setTrimBox(8.5, 8.5, widthMm * MM, 210 * MM);
        page.drawText(`page ${i + 1}`);
      }
      return doc.save();
    };
    const files = [await source(148, 2), await source(297, 1), await source(105, 3)];
    const chunks: Uint8Array[] = [];
    async function* each() {
      yield* files;
    }
    const count = await concatPdfs(each(), async (b) => void chunks.push(b), { title: 'Test' });
    const bytes = Buffer.concat(chunks);
    expect(count).toBe(6);
    const merged = await PDFDocument.load(bytes);
    expect(trimWidthsOf(merged)).toEqual([148, 148, 297, 105, 105, 105]);
    const text = bytes.toString('latin1');
    const xrefAt = Number(/startxref\n(\d+)\n%%EOF\n$/.exec(text)![1]);
    const [, first, size] = /^xref\n(\d+) (\d+)\n/.exec(text.slice(xrefAt))!.map(Number);
    expect(first).toBe(0);
    const rows = text.slice(xrefAt).split('\n').slice(2, 2 + size);
    rows.slice(1).forEach((row, i) => {
      const at = Number(row.slice(0, 10));
      expect(text.slice(at, at + 20)).toMatch(new RegExp(`^${i + 1} 0 obj\\n`));
    });
  });
});
