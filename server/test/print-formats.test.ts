// Every product the shop sells prints in house: a mug wrap and an A3 poster each go from their
// design to a job (its format), its print file (the boxes as pdfinfo reads them, the output intent
// read back) and a batch sheet (PDF/X checker and qpdf --check); a mug or poster of the wrong page
// count or size is refused with a sentence naming the product; a mug printer that wants mirrored
// transfers gets the wraps back to front.
import { execFileSync, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Readable } from 'node:stream';
import zlib from 'node:zlib';
import { PDFArray, PDFDict, PDFDocument, PDFName, PDFRawStream, PDFRef, PDFString } from 'pdf-lib';
import sharp from 'sharp';
import { afterAll, describe, expect, it } from 'vitest';
import { DEFAULT_IMPOSE_SETTINGS } from '../../common/api/batching';
import { createTextLayer, newDocument } from '../../common/design-doc/model';
import { formatOf } from '../../common/design-doc/printSize';
import type { DesignDocument, Format } from '../../common/design-doc/types';
import { chooseSheet } from '../src/modules/batches/sheets';
import { readIccHeader } from '../src/modules/pdf/cmykProfile';
import { checkPdfX4, pdfxVersionOf } from '../src/modules/pdf/pdfxCheck';
import { closeRenderWorkers } from '../src/modules/render/service';
import { bearer, binary, createWorld } from './harness';
import { makeDesign, setSiteEnv } from './ordersKit';

/** A print file and an imposed sheet are made and read back several times over: more than the default 20 s on a busy machine. */
const SHEET_TIMEOUT_MS = 120_000;

const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'print-formats-'));
afterAll(() => fs.rmSync(tmp, { recursive: true, force: true }));

/** Points of millimetres, to pdfinfo's 3 decimals. */
const pt = (mm: number) => Math.round((mm / 25.4) * 72 * 1000) / 1000;

/** `pdfinfo -box` of one page: each box as [x0, y0, x1, y1] in points. */
function boxesOf(file: string, page: number): Record<'MediaBox' | 'CropBox' | 'BleedBox' | 'TrimBox' | 'ArtBox', number[]> {
  const out = execFileSync('pdfinfo', ['-box', '-f', String(page), '-l', String(page), file], { encoding: 'utf8' });
  const boxes: Record<string, number[]> = {};
  for (const m of out.matchAll(/^Page\s+\d+\s+(\w+Box):\s+([\d.\s-]+)$/gm)) boxes[m[1]] = m[2].trim().split(/\s+/).map(Number);
  return boxes as ReturnType<typeof boxesOf>;
}

const near = (got: number[], want: number[]) => got.forEach((v, i) => expect(Math.abs(v - want[i]), `${got} vs ${want}`).toBeLessThan(0.01));

/** The file's output intent as written: its subtype, condition and the header of its embedded profile. */
async function outputIntentOf(bytes: Uint8Array) {
  const doc = await PDFDocument.load(bytes, { updateMetadata: false });
  const intents = doc.catalog.lookup(PDFName.of('OutputIntents'), PDFArray);
  const intent = doc.context.lookup(intents.get(0), PDFDict);
  const profile = doc.context.lookup(intent.get(PDFName.of('DestOutputProfile')) as PDFRef) as PDFRawStream;
  const icc = new Uint8Array(zlib.inflateSync(profile.getContents()));
  const xmp = doc.context.lookup(doc.catalog.get(PDFName.of('Metadata')) as PDFRef) as PDFRawStream;
  return {
    count: intents.size(),
    subtype: intent.get(PDFName.of('S'))?.toString(),
    condition: (intent.get(PDFName.of('OutputConditionIdentifier')) as PDFString).decodeText(),
    icc: readIccHeader(icc),
    iccBytes: icc,
    version: pdfxVersionOf(Buffer.from(xmp.getContents()).toString('utf8')),
  };
}

const qpdfCheck = (file: string) => spawnSync('qpdf', ['--check', file], { encoding: 'utf8' });

/** The colour of a point (mm from the page's bottom-left) of a page rendered by poppler. */
async function colourAt(file: string, page: number, dpi: number, pageHeightMm: number, at: { x: number; y: number }): Promise<[number, number, number]> {
  const prefix = path.join(tmp, `render-${page}-${Math.random().toString(36).slice(2)}`);
  execFileSync('pdftoppm', ['-f', String(page), '-l', String(page), '-r', String(dpi), '-png', '-singlefile', file, prefix]);
  const { data, info } = await sharp(`${prefix}.png`).raw().toBuffer({ resolveWithObject: true });
  const x = Math.round((at.x / 25.4) * dpi);
  const y = Math.round(((pageHeightMm - at.y) / 25.4) * dpi);
  const i = (y * info.width + x) * info.channels;
  return [data[i], data[i + 1], data[i + 2]];
}

describe('mugs and posters, from design to sheet', async () => {
  const w = await createWorld({ PUBLIC_URL: 'http://presswork.test' });
  afterAll(() => closeRenderWorkers());
  const post = (p: string, body: unknown, token = w.tokens.userA) => w.request().post(p).set(bearer(token)).send(body as object);
  const get = (p: string, token = w.tokens.userA) => w.request().get(p).set(bearer(token));
  const pdfOf = async (jobId: number) => {
    const res = await post('/api/pdf/from-print-job', { id: jobId }).buffer(true).parse(binary);
    // A refusal is the JSON envelope.
    return res.status === 200 ? res : { status: res.status, body: JSON.parse(String(res.body)) as { error: string } };
  };
  const sheetOf = async (batchId: number) => {
    const res = await get(`/api/batches/${batchId}/pdf`).buffer(true).parse(binary);
    expect(res.status, res.status === 200 ? '' : String(res.body)).toBe(200);
    const file = path.join(tmp, `batch-${batchId}.pdf`);
    fs.writeFileSync(file, res.body as Buffer);
    return { bytes: res.body as Buffer, file };
  };

  /** A page image of `wMm` × `hMm` at 150 ppi: its left half `left`, its right half `right`. */
  async function pageImage(name: string, wMm: number, hMm: number, left: string, right = left): Promise<string> {
    const width = Math.round((wMm / 25.4) * 150);
    const height = Math.round((hMm / 25.4) * 150);
    const half = Math.round(width / 2);
    const png = await sharp({ create: { width, height, channels: 3, background: left } })
      .composite([{ input: await sharp({ create: { width: width - half, height, channels: 3, background: right } }).png().toBuffer(), left: half, top: 0 }])
      .png()
      .toBuffer();
    await w.services.store.put(`test/${name}.png`, Readable.from(png));
    return `/files/test/${name}.png`;
  }

  /** A design made in the editor: its document of `format` (with `layers` on page 1) and its rendered page. */
  async function editorDesign(name: string, productType: string, format: Format, page: string, text: Partial<Parameters<typeof createTextLayer>[1]> = {}) {
    const document: DesignDocument = newDocument(format);
    document.pages[0].layers.push(createTextLayer(format, { text: name, ...text }));
    return makeDesign(w, w.tokens.userA, { name, sku: name.toUpperCase().replace(/\W+/g, '-'), productType, isCustomizable: false, data: { document, artworkUrls: [page] } });
  }

  const mugPage = await pageImage('mug-wrap', 204, 94, '#d01010', '#1010d0');
  const mugDesign = await editorDesign('Mug of the month', 'Mug', 'mug-wrap', mugPage);
  const posterPage = await pageImage('poster-a3', 303, 426, '#10a040');
  const posterDesign = await editorDesign('Harbour poster A3', 'Poster', 'poster-a3', posterPage);

  const jobOf = async (body: Record<string, unknown>) => {
    const res = await post('/api/print-jobs', body);
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    return res.body.data as { id: number; data: { format: string }; held: boolean; preflight: Array<{ code: string; severity: string; message: string }> };
  };

  it('a mug: design → job (mug-wrap) → print file of one 204 × 94 mm page with its boxes and output intent → PDF/X-4 sublimation sheet', async () => {
    const job = await jobOf({ designId: mugDesign.id, quantity: 2 });
    expect(job.data.format).toBe('mug-wrap');
    expect(job.held).toBe(false);
    expect(job.preflight.filter((f) => f.severity === 'error')).toEqual([]);

    const res = await pdfOf(job.id);
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    const file = path.join(tmp, 'mug-print-file.pdf');
    fs.writeFileSync(file, res.body as Buffer);
    expect(execFileSync('pdfinfo', [file], { encoding: 'utf8' })).toMatch(/^Pages:\s+1$/m);
    const boxes = boxesOf(file, 1);
    near(boxes.MediaBox, [0, 0, pt(204), pt(94)]);
    near(boxes.BleedBox, [0, 0, pt(204), pt(94)]);
    near(boxes.TrimBox, [pt(2), pt(2), pt(202), pt(92)]);
    const pageIntent = await outputIntentOf(res.body as Buffer);
    expect(pageIntent).toMatchObject({ count: 1, subtype: '/GTS_PDFX', version: 'PDF/X-4', icc: { deviceClass: 'prtr', colourSpace: 'CMYK' } });
    expect(await checkPdfX4(res.body as Buffer)).toEqual([]);

    const made = await post('/api/batches', { jobIds: [job.id, (await jobOf({ designId: mugDesign.id })).id] });
    expect(made.status, JSON.stringify(made.body)).toBe(200);
    expect(made.body.data).toMatchObject({ sheet: 'Sublimation A3+', item: { productType: 'Mug', trimWidthMm: 200, trimHeightMm: 90, bleedMm: 2 } });
    const sheet = await sheetOf(made.body.data.id);
    expect(await checkPdfX4(sheet.bytes)).toEqual([]);
    const qpdf = qpdfCheck(sheet.file);
    expect(qpdf.status, qpdf.stdout + qpdf.stderr).toBe(0);
    // The sheet's intent is the pages': the same profile, the same condition.
    const sheetIntent = await outputIntentOf(sheet.bytes);
    expect(sheetIntent).toMatchObject({ count: 1, subtype: '/GTS_PDFX', version: 'PDF/X-4', condition: pageIntent.condition });
    expect(Buffer.from(sheetIntent.iccBytes).equals(Buffer.from(pageIntent.iccBytes))).toBe(true);
    // Cover, then one sheet holding all three wraps (6 fit), on its side: its own boxes.
    expect(execFileSync('pdfinfo', [sheet.file], { encoding: 'utf8' })).toMatch(/^Pages:\s+2$/m);
    const sheetBoxes = boxesOf(sheet.file, 2);
    near(sheetBoxes.MediaBox, [0, 0, pt(483), pt(329)]);
    near(sheetBoxes.TrimBox, sheetBoxes.MediaBox);
    near(sheetBoxes.BleedBox, sheetBoxes.MediaBox);
    expect(execFileSync('pdftotext', ['-f', '2', '-l', '2', sheet.file, '-'], { encoding: 'utf8' })).toContain(`PJ-${job.id}-2`);
  }, SHEET_TIMEOUT_MS);

  it('an A3 poster: design → job (poster-a3) → print file of one 303 × 426 mm page → one up on its own SRA3 sheet, PDF/X-4', async () => {
    const job = await jobOf({ designId: posterDesign.id });
    expect(job.data.format).toBe('poster-a3');
    const res = await pdfOf(job.id);
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    const file = path.join(tmp, 'poster-print-file.pdf');
    fs.writeFileSync(file, res.body as Buffer);
    const boxes = boxesOf(file, 1);
    near(boxes.MediaBox, [0, 0, pt(303), pt(426)]);
    near(boxes.TrimBox, [pt(3), pt(3), pt(300), pt(423)]);
    expect(await outputIntentOf(res.body as Buffer)).toMatchObject({ subtype: '/GTS_PDFX', version: 'PDF/X-4', icc: { deviceClass: 'prtr', colourSpace: 'CMYK' } });
    expect(await checkPdfX4(res.body as Buffer)).toEqual([]);

    const second = await jobOf({ designId: posterDesign.id });
    const made = await post('/api/batches', { jobIds: [job.id, second.id] });
    expect(made.status, JSON.stringify(made.body)).toBe(200);
    expect(made.body.data).toMatchObject({ sheet: 'SRA3', item: { productType: 'Poster', trimWidthMm: 297, trimHeightMm: 420 } });
    const sheet = await sheetOf(made.body.data.id);
    expect(await checkPdfX4(sheet.bytes)).toEqual([]);
    const qpdf = qpdfCheck(sheet.file);
    expect(qpdf.status, qpdf.stdout + qpdf.stderr).toBe(0);
    // One poster a sheet: cover + two sheets of 320 × 450 mm.
    expect(execFileSync('pdfinfo', [sheet.file], { encoding: 'utf8' })).toMatch(/^Pages:\s+3$/m);
    near(boxesOf(sheet.file, 3).MediaBox, [0, 0, pt(320), pt(450)]);
    near(boxesOf(sheet.file, 3).TrimBox, [0, 0, pt(320), pt(450)]);
    // A poster batch never mixes with a mug's or a card's.
    const mug = await jobOf({ designId: mugDesign.id });
    const mixed = await post('/api/batches', { jobIds: [second.id, mug.id] });
    expect(mixed.status).toBe(400);
    expect(mixed.body.error).toMatch(/not the same product and size/);
  }, SHEET_TIMEOUT_MS);

  it('an A2 poster is one up on SRA2, or on the roll the site names when no poster sheet holds it', () => {
    const a2 = { trimWidthMm: 420, trimHeightMm: 594, bleedMm: 3 };
    expect(chooseSheet(a2, DEFAULT_IMPOSE_SETTINGS, undefined, 'poster-a2')).toMatchObject({ sheet: { name: 'SRA2' }, columns: 1, rows: 1 });
    const rollOnly = { ...DEFAULT_IMPOSE_SETTINGS, posterSheets: [DEFAULT_IMPOSE_SETTINGS.posterSheets[0]], posterRollMm: 610 };
    const roll = chooseSheet(a2, rollOnly, undefined, 'poster-a2');
    expect(roll).toMatchObject({ sheet: { name: 'Roll 610 mm', widthMm: 610 }, slots: [expect.anything()] });
    expect(roll!.heightMm).toBeLessThan(650);
    expect(chooseSheet(a2, { ...rollOnly, posterRollMm: 0 }, undefined, 'poster-a2')).toBeNull();
    // An A3 poster is alone on its sheet even where two would fit.
    expect(chooseSheet({ trimWidthMm: 297, trimHeightMm: 420, bleedMm: 3 }, { ...DEFAULT_IMPOSE_SETTINGS, posterSheets: [{ name: 'Big', widthMm: 900, heightMm: 640, marginMm: 0 }] }, undefined, 'poster-a3')?.slots).toHaveLength(1);
    // The format: the document's, else the product type's; a poster that says A2 is A2.
    expect(formatOf('Poster', null, ['Harbour poster', 'POSTER-A2'])).toBe('poster-a2');
    expect(formatOf('Poster', null, ['Harbour poster'])).toBe('poster-a3');
    expect(formatOf('Mug')).toBe('mug-wrap');
    expect(formatOf(null)).toBe('card-a5');
  });

  it('wrong page counts and sizes are refused with their sentences; cards keep the spec’s', async () => {
    const two = await jobOf({ productName: 'Uploaded mug', artworkUrls: [mugPage, mugPage], data: { format: 'mug-wrap' } });
    expect(two.data.format).toBe('mug-wrap');
    expect(two.held).toBe(true);
    const sentence = 'A mug prints one wrap page of 200 × 90 mm (204 × 94 mm with its 2 mm bleed); this job has 2 pages';
    expect(two.preflight).toContainEqual(expect.objectContaining({ severity: 'error', code: 'page-count', message: sentence }));
    let res = await pdfOf(two.id);
    expect([res.status, res.body.error]).toEqual([400, sentence]);

    const square = await pageImage('square', 150, 150, '#888888');
    const poster = await jobOf({ productName: 'Uploaded poster', artworkUrls: [square], data: { format: 'poster-a3' } });
    const posterSentence = 'An A3 poster prints one page of 297 × 420 mm (303 × 426 mm with its 3 mm bleed); page 1 is 886 × 886 px, neither shape';
    expect(poster.preflight).toContainEqual(expect.objectContaining({ severity: 'error', code: 'page-proportions', message: posterSentence }));
    res = await pdfOf(poster.id);
    expect([res.status, res.body.error]).toEqual([400, posterSentence]);

    // A poster design of uploaded artwork may be an A2 one; it may not be a mug.
    const uploaded = await makeDesign(w, w.tokens.userA, { name: 'Big harbour', sku: 'BIG-HARBOUR', productType: 'Poster', isCustomizable: false, data: { artworkUrls: [posterPage] } });
    expect((await jobOf({ designId: uploaded.id })).data.format).toBe('poster-a3');
    expect((await jobOf({ designId: uploaded.id, data: { format: 'poster-a2' } })).data.format).toBe('poster-a2');
    const wrong = await post('/api/print-jobs', { designId: uploaded.id, data: { format: 'mug-wrap' } });
    expect(wrong.status).toBe(400);
    expect(wrong.body.error).toBe('Format is mug-wrap, a Mug, but the design "Big harbour" is a Poster.');
    const unknown = await post('/api/print-jobs', { productName: 'X', artworkUrls: [mugPage], data: { format: 'tote-bag' } });
    expect(unknown.status).toBe(400);
    expect(unknown.body.error).toMatch(/^Format must be one of card-a5, mug-wrap, poster-a3, poster-a2/);

    // A card: the spec's answers.
    const card = await jobOf({ productName: 'Three-page card', artworkUrls: [square, square, square] });
    expect(card.data.format).toBe('card-a5');
    res = await pdfOf(card.id);
    expect([res.status, res.body.error]).toEqual([400, 'Only support 4 pages A5']);
  });

  it('preflight: text in a mug wrap’s seam area is a warning; text outside the safe area too', async () => {
    const seam = await editorDesign('Seam mug', 'Mug', 'mug-wrap', mugPage, { x: 2, y: 30, width: 40, height: 20, name: 'Name' });
    const job = await jobOf({ designId: seam.id });
    expect(job.held).toBe(false);
    expect(job.preflight).toContainEqual(expect.objectContaining({ severity: 'warning', code: 'seam-text', page: 1 }));
    expect(job.preflight.find((f) => f.code === 'seam-text')!.message).toMatch(/^Page 1 “Name” lies in the mug's seam area/);
    const edge = await editorDesign('Edge poster', 'Poster', 'poster-a3', posterPage, { x: 2, y: 2, width: 100, height: 20, name: 'Title' });
    const poster = await jobOf({ designId: edge.id });
    expect(poster.preflight).toContainEqual(expect.objectContaining({ severity: 'warning', code: 'outside-safe-area', message: 'Page 1 “Title” reaches outside the 10 mm safe area: a slightly off cut may take it' }));
    expect(poster.preflight.some((f) => f.code === 'seam-text')).toBe(false);
  });

  it('a mug printer that wants mirrored transfers (MUG_SHEET_MIRROR=1) gets each wrap back to front; the slug stays readable', async () => {
    const layout = chooseSheet({ trimWidthMm: 200, trimHeightMm: 90, bleedMm: 2 }, DEFAULT_IMPOSE_SETTINGS, undefined, 'mug-wrap')!;
    const trim = layout.slots[0].trim;
    const leftOfSlot = { x: trim.x + trim.width * 0.2, y: trim.y + trim.height / 2 };
    const rightOfSlot = { x: trim.x + trim.width * 0.8, y: trim.y + trim.height / 2 };
    const isRed = ([r, , b]: number[]) => r > 150 && b < 100;
    const isBlue = ([r, , b]: number[]) => b > 150 && r < 100;

    const plain = await sheetOf((await post('/api/batches', { jobIds: [(await jobOf({ designId: mugDesign.id })).id] })).body.data.id);
    expect(isRed(await colourAt(plain.file, 2, 30, layout.heightMm, leftOfSlot))).toBe(true);
    expect(isBlue(await colourAt(plain.file, 2, 30, layout.heightMm, rightOfSlot))).toBe(true);

    await setSiteEnv(w, w.sites.a, { MUG_SHEET_MIRROR: '1' });
    const mirroredJob = await jobOf({ designId: mugDesign.id });
    const mirrored = await sheetOf((await post('/api/batches', { jobIds: [mirroredJob.id] })).body.data.id);
    expect(isBlue(await colourAt(mirrored.file, 2, 30, layout.heightMm, leftOfSlot))).toBe(true);
    expect(isRed(await colourAt(mirrored.file, 2, 30, layout.heightMm, rightOfSlot))).toBe(true);
    expect(await checkPdfX4(mirrored.bytes)).toEqual([]);
    expect(qpdfCheck(mirrored.file).status).toBe(0);
    // The slug and the cover read as ever.
    expect(execFileSync('pdftotext', ['-f', '2', '-l', '2', mirrored.file, '-'], { encoding: 'utf8' })).toContain(`PJ-${mirroredJob.id}-1`);
    expect(execFileSync('pdftotext', ['-f', '1', '-l', '1', mirrored.file, '-'], { encoding: 'utf8' })).toContain('Mirrored for the mug press');
    await setSiteEnv(w, w.sites.a, { MUG_SHEET_MIRROR: '' });
  }, SHEET_TIMEOUT_MS);
});
