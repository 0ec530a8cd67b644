// The print file as a printer receives it: pages of trim + bleed with their boxes (read back with
// pdf-lib, and with pdfinfo and qpdf where installed), PDF/X-4's identification agreeing between
// Info and XMP, tagged colour, the same bytes for the same job, and where each kind of artwork
// lands on the page (bleed artwork fills it, trim artwork leaves the bleed white, other shapes are
// fitted inside the trim, never stretched).
import { execFileSync, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import zlib from 'node:zlib';
import { decodePDFRawStream, PDFArray, PDFDict, PDFDocument, PDFHexString, PDFName, PDFRawStream, PDFRef, PDFStream } from 'pdf-lib';
import sharp from 'sharp';
import { afterAll, describe, expect, it } from 'vitest';
import { printSizeOf, type PrintSize } from '../../common/design-doc/printSize';
import { loadSrgbProfile } from '../src/modules/pdf/cmykProfile';
import { buildPrintPdf, renderFrontPagePng } from '../src/modules/pdf/printPdf';
import { imagePlacement } from '../src/modules/pdf/tasks';
import { artworkRgb, jpegOf, pngOf } from './imageFixtures';

const MM = 72 / 25.4;
const FILE = { owner: 'job 7', title: 'Birthday Balloons & “friends”', createdAt: '2026-11-20T09:30:00.000Z' };
const n = (name: string) => PDFName.of(name);

const SIZES: Array<[string, PrintSize, { page: [number, number]; trim: [number, number]; bleed: number }]> = [
  ['card', printSizeOf('Card'), { page: [154, 216], trim: [148, 210], bleed: 3 }],
  ['mug', printSizeOf('Mug'), { page: [204, 94], trim: [200, 90], bleed: 2 }],
  ['poster', printSizeOf('Poster'), { page: [303, 426], trim: [297, 420], bleed: 3 }],
];

const solid = (width: number, height: number, background: string) => sharp({ create: { width, height, channels: 3, background } }).png().toBuffer();
const fourOf = (page: Buffer) => [page, page, page, page];

const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'print-file-'));
afterAll(() => fs.rmSync(tmp, { recursive: true, force: true }));
const installed = (cmd: string, arg: string) => spawnSync(cmd, [arg]).status === 0;
const pdfinfo = installed('pdfinfo', '-v');
const qpdf = installed('qpdf', '--version');

function pdfinfoBoxes(file: string, page: number): Record<string, number[]> {
  const out = execFileSync('pdfinfo', ['-box', '-f', String(page), '-l', String(page), file], { encoding: 'utf8' });
  const boxes: Record<string, number[]> = {};
  for (const m of out.matchAll(/^Page\s+\d+\s+(MediaBox|CropBox|BleedBox|TrimBox|ArtBox):\s+([-\d.\s]+)$/gm)) boxes[m[1]] = m[2].trim().split(/\s+/).map(Number);
  return boxes;
}

describe('boxes: MediaBox = BleedBox = trim + 2 × bleed, TrimBox = the finished size', () => {
  for (const [what, size, mm] of SIZES) {
    it(`${what}: ${mm.page.join(' × ')} mm pages around a ${mm.trim.join(' × ')} mm TrimBox (pdf-lib, pdfinfo, qpdf)`, async () => {
      const pdf = await buildPrintPdf(fourOf(await solid(60, 40, '#3366cc')), { size, file: FILE, cache: false });
      const doc = await PDFDocument.load(pdf);
      expect(doc.getPageCount()).toBe(4);
      const page = { x: 0, y: 0, width: mm.page[0] * MM, height: mm.page[1] * MM };
      const trim = { x: mm.bleed * MM, y: mm.bleed * MM, width: mm.trim[0] * MM, height: mm.trim[1] * MM };
      for (const p of doc.getPages()) {
        for (const [box, want] of [
          [p.getMediaBox(), page],
          [p.getBleedBox(), page],
          [p.getTrimBox(), trim],
        ] as const) {
          for (const k of ['x', 'y', 'width', 'height'] as const) expect(box[k]).toBeCloseTo(want[k], 2);
        }
        expect(p.node.get(n('ArtBox'))).toBeUndefined();
      }
      const file = path.join(tmp, `${what}.pdf`);
      fs.writeFileSync(file, pdf);
      if (pdfinfo) {
        for (const at of [1, 4]) {
          const boxes = pdfinfoBoxes(file, at);
          expect(boxes.MediaBox).toEqual([0, 0, page.width, page.height].map((v) => Number(v.toFixed(2))));
          expect(boxes.BleedBox).toEqual(boxes.MediaBox);
          expect(boxes.TrimBox).toEqual([trim.x, trim.y, trim.x + trim.width, trim.y + trim.height].map((v) => Number(v.toFixed(2))));
        }
      }
      if (qpdf) expect(execFileSync('qpdf', ['--check', file], { encoding: 'utf8' })).toMatch(/No syntax or stream encoding errors/);
    });
  }

  it('a design with its own bleed (5 mm) gets pages that much larger, the TrimBox unchanged', async () => {
    const size = printSizeOf('Card', { format: 'card-a5', bleed: 5 });
    const doc = await PDFDocument.load(await buildPrintPdf(fourOf(await solid(60, 40, '#3366cc')), { size, file: FILE, cache: false }));
    const p = doc.getPage(0);
    expect(p.getWidth()).toBeCloseTo(158 * MM, 2);
    expect(p.getTrimBox()).toMatchObject({ x: expect.closeTo(5 * MM, 2), width: expect.closeTo(148 * MM, 2) });
  });
});

/** The raw trailer, Info, XMP and output intent of a file. */
async function partsOf(pdf: Uint8Array) {
  const doc = await PDFDocument.load(pdf, { updateMetadata: false });
  const ctx = doc.context;
  const id = ctx.lookup(ctx.trailerInfo.ID, PDFArray).asArray().map((h) => (h as PDFHexString).asString());
  const info = ctx.lookup(ctx.trailerInfo.Info, PDFDict);
  const xmp = Buffer.from(decodePDFRawStream(doc.context.lookup(doc.catalog.get(n('Metadata'))) as PDFRawStream).decode()).toString('utf8');
  const intent = doc.catalog.lookup(n('OutputIntents'), PDFArray).lookup(0, PDFDict);
  return { doc, id, info, xmp, intent };
}

describe('PDF/X-4 identification and the same bytes for the same job', () => {
  it('Info and XMP agree: title, producer, the job\'s dates, Trapped False, DocumentID = the /ID; PDF 1.6', async () => {
    const pdf = await buildPrintPdf(fourOf(await pngOf(artworkRgb(30, 42, 1), 30, 42)), { file: FILE, cache: false });
    expect(Buffer.from(pdf.subarray(0, 8)).toString('latin1')).toBe('%PDF-1.6');
    const { doc, id, info, xmp } = await partsOf(pdf);
    expect(id[0]).toMatch(/^[0-9a-f]{32}$/);
    expect(id[1]).toBe(id[0]);
    expect(doc.getTitle()).toBe(FILE.title);
    expect(doc.getProducer()).toBe('Presswork');
    expect(doc.getCreationDate()?.toISOString()).toBe(FILE.createdAt);
    expect(doc.getModificationDate()?.toISOString()).toBe(FILE.createdAt);
    expect(info.get(n('Trapped'))).toBe(n('False'));
    expect(xmp).toContain('<pdfxid:GTS_PDFXVersion>PDF/X-4</pdfxid:GTS_PDFXVersion>');
    expect(xmp).toContain('<pdf:Trapped>False</pdf:Trapped>');
    expect(xmp).toContain('<pdf:Producer>Presswork</pdf:Producer>');
    expect(xmp).toContain('<rdf:li xml:lang="x-default">Birthday Balloons &amp; “friends”</rdf:li>');
    for (const tag of ['xmp:CreateDate', 'xmp:ModifyDate', 'xmp:MetadataDate']) expect(xmp).toContain(`<${tag}>2026-11-20T09:30:00Z</${tag}>`);
    const uuid = `uuid:${id[0].slice(0, 8)}-${id[0].slice(8, 12)}-${id[0].slice(12, 16)}-${id[0].slice(16, 20)}-${id[0].slice(20)}`;
    expect(xmp).toContain(`<xmpMM:DocumentID>${uuid}</xmpMM:DocumentID>`);
    expect(xmp).toContain(`<xmpMM:InstanceID>${uuid}</xmpMM:InstanceID>`);
  });

  it('the output intent: GTS_PDFX, a custom condition named with its Info, the CMYK profile embedded with /N 4', async () => {
    const { doc, intent } = await partsOf(await buildPrintPdf(fourOf(await solid(20, 28, '#ffffff')), { file: FILE, cache: false }));
    expect(intent.get(n('S'))).toBe(n('GTS_PDFX'));
    expect(intent.lookup(n('OutputConditionIdentifier'))?.toString()).toBe('(Custom)');
    expect(intent.lookup(n('Info'))?.toString()).toBe('(Chemical proof)');
    const profile = doc.context.lookup(intent.get(n('DestOutputProfile'))) as PDFRawStream;
    expect(profile.dict.get(n('N'))?.toString()).toBe('4');
    const icc = decodePDFRawStream(profile).decode();
    expect(Buffer.from(icc.subarray(12, 20)).toString('latin1')).toBe('prtrCMYK');
  });

  it('two builds of the same job → the same bytes; another job or other artwork → another /ID', async () => {
    const pages = fourOf(await pngOf(artworkRgb(30, 42, 2), 30, 42));
    const first = await buildPrintPdf(pages, { file: FILE, cache: false });
    const second = await buildPrintPdf(pages.map((p) => Buffer.from(p)), { file: { ...FILE }, cache: false });
    expect(second).not.toBe(first);
    expect(Buffer.from(second).equals(Buffer.from(first))).toBe(true);
    const idOf = async (pdf: Uint8Array) => (await partsOf(pdf)).id[0];
    const otherJob = await buildPrintPdf(pages, { file: { ...FILE, owner: 'job 8' }, cache: false });
    expect(await idOf(otherJob)).not.toBe(await idOf(first));
    const otherArt = await buildPrintPdf([pages[0], pages[1], pages[2], await pngOf(artworkRgb(30, 42, 3), 30, 42)], { file: FILE, cache: false });
    expect(await idOf(otherArt)).not.toBe(await idOf(first));
    // Another bleed is another file too (the cache and the stored file follow the size).
    const bleed5 = await buildPrintPdf(pages, { file: FILE, cache: false, size: printSizeOf('Card', { format: 'card-a5', bleed: 5 }) });
    expect(await idOf(bleed5)).not.toBe(await idOf(first));
  });
});

/** The colour space of page `page`'s one image, with ICC profiles read out. */
async function imageColourSpace(pdf: Uint8Array, page: number) {
  const doc = await PDFDocument.load(pdf);
  const xobjects = doc.getPage(page - 1).node.Resources()!.lookup(n('XObject'), PDFDict);
  const image = doc.context.lookup(xobjects.values()[0]) as PDFStream;
  const space = doc.context.lookup(image.dict.get(n('ColorSpace')));
  const iccOf = (arr: PDFArray) => {
    const stream = doc.context.lookup(arr.get(1)) as PDFRawStream;
    return { n: stream.dict.get(n('N'))?.toString(), bytes: Buffer.from(decodePDFRawStream(stream).decode()) };
  };
  if (space instanceof PDFName) return { name: space.asString() };
  const arr = space as PDFArray;
  const kind = (arr.get(0) as PDFName).asString();
  if (kind === '/ICCBased') return { name: kind, icc: iccOf(arr) };
  const base = doc.context.lookup(arr.get(1)) as PDFArray;
  return { name: kind, base: (base.get(0) as PDFName).asString(), icc: base.get(1) instanceof PDFRef ? iccOf(base) : undefined };
}

describe('colour: RGB says which RGB; gray and CMYK are device colours the CMYK intent covers', () => {
  it('untagged RGB PNG and JPEG → ICCBased sRGB; a palette PNG → Indexed on ICCBased sRGB; gray → DeviceGray', async () => {
    const srgb = Buffer.from(await loadSrgbProfile());
    const rgbPng = await pngOf(artworkRgb(30, 42, 4), 30, 42);
    const rgbJpeg = await jpegOf(artworkRgb(30, 42, 5), 30, 42);
    const palette = await sharp(artworkRgb(30, 42, 6), { raw: { width: 30, height: 42, channels: 3 } }).png({ palette: true, colours: 8 }).toBuffer();
    const gray = await sharp(artworkRgb(30, 42, 7), { raw: { width: 30, height: 42, channels: 3 } }).toColourspace('b-w').png().toBuffer();
    const pdf = await buildPrintPdf([rgbPng, rgbJpeg, palette, gray], { file: FILE, cache: false });
    for (const p of [1, 2]) {
      const space = await imageColourSpace(pdf, p);
      expect(space).toMatchObject({ name: '/ICCBased', icc: { n: '3' } });
      expect(space.icc!.bytes.equals(srgb)).toBe(true);
    }
    const indexed = await imageColourSpace(pdf, 3);
    expect(indexed).toMatchObject({ name: '/Indexed', base: '/ICCBased', icc: { n: '3' } });
    expect(await imageColourSpace(pdf, 4)).toEqual({ name: '/DeviceGray' });
    // One sRGB profile stream for the whole file, however many images use it.
    const text = Buffer.from(pdf).toString('latin1');
    expect(text.match(/\/ICCBased/g)).toHaveLength(3);
    expect(new Set([...text.matchAll(/\/ICCBased (\d+) 0 R/g)].map((m) => m[1])).size).toBe(1);
  });

  it("artwork with its own RGB profile (Display P3) is tagged with that profile, not sRGB; a CMYK JPEG stays CMYK", async () => {
    const p3 = await sharp(artworkRgb(30, 42, 8), { raw: { width: 30, height: 42, channels: 3 } }).withIccProfile('p3').png().toBuffer();
    const ownProfile = (await sharp(p3).metadata()).icc!;
    const cmyk = await sharp(artworkRgb(30, 42, 9), { raw: { width: 30, height: 42, channels: 3 } }).toColourspace('cmyk').jpeg().toBuffer();
    expect((await sharp(cmyk).metadata()).channels).toBe(4);
    const pdf = await buildPrintPdf([p3, cmyk, p3, p3], { file: FILE, cache: false });
    const tagged = await imageColourSpace(pdf, 1);
    expect(tagged).toMatchObject({ name: '/ICCBased', icc: { n: '3' } });
    expect(tagged.icc!.bytes.equals(ownProfile)).toBe(true);
    const cmykSpace = await imageColourSpace(pdf, 2);
    expect(['/DeviceCMYK', '/ICCBased']).toContain(cmykSpace.name);
    if (cmykSpace.name === '/ICCBased') expect(cmykSpace.icc!.n).toBe('4');
  });
});

describe('where artwork lands: by its proportions (artworkFit), never stretched', () => {
  const card = printSizeOf('Card');

  it('imagePlacement: bleed artwork fills the page, trim artwork sits on the TrimBox, a square is fitted in the trim and centred', () => {
    const page = { width: 154 * MM, height: 216 * MM };
    const bleed = imagePlacement(1819, 2551, card);
    expect(bleed).toMatchObject({ x: 0, y: 0, width: expect.closeTo(page.width, 2), height: expect.closeTo(page.height, 2) });
    const trim = imagePlacement(1748, 2480, card);
    expect(trim).toMatchObject({ x: expect.closeTo(3 * MM, 2), y: expect.closeTo(3 * MM, 2), width: expect.closeTo(148 * MM, 2), height: expect.closeTo(210 * MM, 2) });
    const square = imagePlacement(1000, 1000, card);
    expect(square.width).toBeCloseTo(148 * MM, 2);
    expect(square.height).toBeCloseTo(square.width, 6);
    expect(square.x).toBeCloseTo(3 * MM, 2);
    expect(square.y).toBeCloseTo((3 + (210 - 148) / 2) * MM, 2);
    // A wide banner on a poster: fitted to the trim's width, its proportions kept.
    const wide = imagePlacement(3000, 1000, printSizeOf('Poster'));
    expect(wide.width / wide.height).toBeCloseTo(3, 6);
    expect(wide.width).toBeCloseTo(297 * MM, 2);
  });

  it('the image matrix in the page content is that placement', async () => {
    const square = await solid(50, 50, '#3366cc');
    const pdf = await PDFDocument.load(await buildPrintPdf(fourOf(square), { file: FILE, cache: false }));
    const contents = pdf.getPage(0).node.Contents()!;
    const streams = contents instanceof PDFArray ? contents.asArray().map((ref) => pdf.context.lookup(ref)) : [contents];
    const text = streams.map((st) => (st instanceof PDFRawStream ? (st.dict.get(n('Filter')) ? zlib.inflateSync(st.contents) : Buffer.from(st.contents)).toString('latin1') : '')).join('\n');
    const cm = /([-\d.]+) ([-\d.]+) ([-\d.]+) ([-\d.]+) ([-\d.]+) ([-\d.]+) cm/.exec(text);
    expect(cm, text).not.toBeNull();
    const [a, b, c, d, e, f] = cm!.slice(1).map(Number);
    expect([b, c]).toEqual([0, 0]);
    expect(a).toBeCloseTo(148 * MM, 2);
    expect(d).toBeCloseTo(148 * MM, 2);
    expect(e).toBeCloseTo(3 * MM, 2);
    expect(f).toBeCloseTo((3 + 31) * MM, 2);
  });

  /** Page 1 rendered whole (nothing cut) at 72 dpi; the colour at a point given in mm from the page's top-left corner. */
  async function colourAt(pages: Buffer[]) {
    const png = await renderFrontPagePng(Buffer.from(await buildPrintPdf(pages, { file: FILE, cache: false })), 0, 72);
    const { data, info } = await sharp(png).removeAlpha().raw().toBuffer({ resolveWithObject: true });
    return (xMm: number, yMm: number) => {
      const o = (Math.floor(yMm * MM) * info.width + Math.floor(xMm * MM)) * 3;
      return data[o] > 240 && data[o + 1] > 240 && data[o + 2] > 240 ? 'white' : data[o + 2] > 150 && data[o] < 100 ? 'blue' : `rgb(${data[o]},${data[o + 1]},${data[o + 2]})`;
    };
  }

  it("rendered: bleed artwork colours the bleed strip; trim artwork leaves it white; a square leaves white above and below", async () => {
    // 154 × 216 mm and 148 × 210 mm at 30 dpi.
    const withBleed = await colourAt(fourOf(await solid(182, 255, '#2040e0')));
    for (const [x, y] of [[1.5, 1.5], [1.5, 108], [152.5, 214.5], [77, 1.5], [77, 108]]) expect(withBleed(x, y), `${x},${y} mm`).toBe('blue');
    const trimOnly = await colourAt(fourOf(await solid(175, 248, '#2040e0')));
    for (const [x, y] of [[1.5, 1.5], [1.5, 108], [152.5, 108], [77, 214.5]]) expect(trimOnly(x, y), `${x},${y} mm`).toBe('white');
    for (const [x, y] of [[4.5, 4.5], [77, 108], [149.5, 211.5]]) expect(trimOnly(x, y), `${x},${y} mm`).toBe('blue');
    const square = await colourAt(fourOf(await solid(100, 100, '#2040e0')));
    for (const [x, y] of [[77, 20], [77, 196], [1.5, 108]]) expect(square(x, y), `${x},${y} mm`).toBe('white');
    for (const [x, y] of [[77, 108], [4.5, 40], [149.5, 176]]) expect(square(x, y), `${x},${y} mm`).toBe('blue');
  });
});
