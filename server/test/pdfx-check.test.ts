// The PDF/X-4 checker: a file built here to meet every rule passes; each defect, brought in alone,
// is reported under its own rule (and page); today's print PDF shows the known gaps; qpdf agrees
// with the structure where it is installed.
import { execFileSync, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import {
  PDFDict,
  PDFDocument,
  PDFHexString,
  PDFName,
  PDFStream,
  PDFString,
  StandardFonts,
  cmyk,
  type PDFPage,
} from 'pdf-lib';
import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import { iccTextTag, loadCmykProfile, readIccHeader } from '../src/modules/pdf/cmykProfile';
import { checkPdfX4, pdfxVersionOf, PDFX_NAMESPACE, type PdfxRule } from '../src/modules/pdf/pdfxCheck';
import { buildPrintPdf } from '../src/modules/pdf/printPdf';
import { printSizeOf, type PrintSize } from '../../common/design-doc/printSize';
import { artworkRgb, jpegOf, pngOf } from './imageFixtures';

const n = (v: string) => PDFName.of(v);
const MM = 72 / 25.4;
const TRIM = { width: 148 * MM, height: 210 * MM };
const BLEED = 3 * MM;

// A real TrueType program to embed (Liberation Sans, SIL OFL, shipped by pdfjs-dist).
const require_ = (p: string) => path.join(path.dirname(require.resolve('pdfjs-dist/package.json')), p);
const liberationSans = fs.readFileSync(require_('standard_fonts/LiberationSans-Regular.ttf'));
// A CC0 CMYK profile whose class is 'scnr' (an input profile): a wrong destination profile.
const scannerCmykProfile = fs.readFileSync(require_('iccs/CGATS001Compat-v2-micro.icc'));

function xmp(version: string, namespace = PDFX_NAMESPACE): string {
  return [
    '<?xpacket begin="\uFEFF" id="W5M0MpCehiHzreSzNTczkc9d"?>',
    '<x:xmpmeta xmlns:x="adobe:ns:meta/"><rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#">',
    `<rdf:Description rdf:about="" xmlns:pdfxid="${namespace}" xmlns:pdf="http://ns.adobe.com/pdf/1.3/">`,
    `<pdfxid:GTS_PDFXVersion>${version}</pdfxid:GTS_PDFXVersion><pdf:Trapped>False</pdf:Trapped>`,
    '</rdf:Description></rdf:RDF></x:xmpmeta>',
    '<?xpacket end="w"?>',
  ].join('\n');
}

interface Parts {
  doc: PDFDocument;
  pages: PDFPage[];
  intent: PDFDict;
  info: PDFDict;
}

/** A 2-page card file meeting every rule the checker has; `spoil` brings in one defect before saving. */
async function buildConforming(spoil: (parts: Parts) => void | Promise<void> = () => {}): Promise<Uint8Array> {
  const profile = await loadCmykProfile();
  const doc = await PDFDocument.create({ updateMetadata: false });
  const { context } = doc;
  const profileRef = context.register(context.flateStream(profile.bytes, { N: 4 }));
  const iccSpace = context.obj([n('ICCBased'), profileRef]);

  const widths = Array.from({ length: 95 }, () => 556);
  const fontFile = context.register(context.flateStream(liberationSans, { Length1: liberationSans.length }));
  const descriptor = context.register(
    context.obj({
      Type: 'FontDescriptor', FontName: 'LiberationSans', Flags: 32, FontBBox: [-203, -303, 1050, 910],
      ItalicAngle: 0, Ascent: 905, Descent: -212, CapHeight: 729, StemV: 80, FontFile2: fontFile,
    }),
  );
  const font = context.register(
    context.obj({
      Type: 'Font', Subtype: 'TrueType', BaseFont: 'LiberationSans', FirstChar: 32, LastChar: 126,
      Widths: widths, Encoding: 'WinAnsiEncoding', FontDescriptor: descriptor,
    }),
  );
  // One CMYK pixel tagged with the output profile: a device-independent image.
  const image = context.register(
    context.stream(new Uint8Array([0, 128, 255, 0]), {
      Type: 'XObject', Subtype: 'Image', Width: 1, Height: 1, BitsPerComponent: 8, ColorSpace: iccSpace,
    }),
  );

  const pages: PDFPage[] = [];
  for (let i = 0; i < 2; i++) {
    const page = doc.addPage([TRIM.width + 2 * BLEED, TRIM.height + 2 * BLEED]);
    page.setBleedBox(0, 0, TRIM.width + 2 * BLEED, TRIM.height + 2 * BLEED);
    page.setTrimBox(BLEED, BLEED, TRIM.width, TRIM.height);
    page.node.setFontDictionary(n('F1'), font);
    page.node.setXObject(n('Im1'), image);
    const content = `q ${TRIM.width + 2 * BLEED} 0 0 ${TRIM.height + 2 * BLEED} 0 0 cm /Im1 Do Q 0 0.2 1 0 k BT /F1 24 Tf 40 300 Td (Happy birthday) Tj ET`;
    page.node.addContentStream(context.register(context.flateStream(content)));
    pages.push(page);
  }

  const intent = context.obj({
    Type: 'OutputIntent', S: 'GTS_PDFX',
    OutputConditionIdentifier: PDFString.of(profile.outputConditionIdentifier),
    OutputCondition: PDFString.of(profile.outputCondition),
    Info: PDFString.of(profile.description),
    DestOutputProfile: profileRef,
  });
  doc.catalog.set(n('OutputIntents'), context.obj([intent]));
  const metadata = context.stream(Buffer.from(xmp('PDF/X-4'), 'utf8'), { Type: 'Metadata', Subtype: 'XML' });
  doc.catalog.set(n('Metadata'), context.register(metadata));
  context.trailerInfo.ID = context.obj([PDFHexString.of('0123456789abcdef0123456789abcdef'), PDFHexString.of('0123456789abcdef0123456789abcdef')]);
  doc.setTitle('Birthday Balloons');
  const info = context.lookup(context.trailerInfo.Info, PDFDict);
  info.set(n('Trapped'), n('False'));

  await spoil({ doc, pages, intent, info });
  return doc.save({ useObjectStreams: false });
}

const rulesOf = async (bytes: Uint8Array) => (await checkPdfX4(bytes)).map((p) => p.rule);

describe('the CMYK destination profile', () => {
  it('is an output CMYK profile with both directions, public domain, named for the output intent', async () => {
    const profile = await loadCmykProfile();
    const header = readIccHeader(profile.bytes);
    expect(header).toMatchObject({ deviceClass: 'prtr', colourSpace: 'CMYK', size: profile.bytes.length });
    expect(profile.description).toBe(iccTextTag(profile.bytes, 'desc'));
    expect(profile.description.length).toBeGreaterThan(0);
    expect(profile.licence).toMatch(/public domain/i);
    // A RIP converts to the profile with B2A tables and previews with A2B ones.
    const tags = new Set<string>();
    const view = new DataView(profile.bytes.buffer, profile.bytes.byteOffset, profile.bytes.byteLength);
    for (let i = 0; i < view.getUint32(128); i++) tags.add(Buffer.from(profile.bytes.subarray(132 + 12 * i, 136 + 12 * i)).toString('latin1'));
    expect([...tags]).toEqual(expect.arrayContaining(['A2B0', 'B2A0', 'A2B1', 'B2A1']));
    expect(await loadCmykProfile()).toBe(profile);
  });
});

describe('checkPdfX4: a conforming file', () => {
  it('a card with boxes, PDF/X-4 XMP, ID, Trapped, a CMYK output intent, an embedded font and a tagged image → no problems', async () => {
    expect(await checkPdfX4(await buildConforming())).toEqual([]);
  });

  it('the XMP version is read under any prefix, as an attribute or an element', () => {
    expect(pdfxVersionOf(`<rdf:Description xmlns:x4="${PDFX_NAMESPACE}" x4:GTS_PDFXVersion="PDF/X-4"/>`)).toBe('PDF/X-4');
    expect(pdfxVersionOf(xmp('PDF/X-4'))).toBe('PDF/X-4');
    expect(pdfxVersionOf(xmp('PDF/X-4', 'http://example.com/not-pdfx/'))).toBeNull();
  });
});

describe('checkPdfX4: each defect alone → exactly its rule', () => {
  const cases: Array<[string, PdfxRule, (parts: Parts) => void | Promise<void>, number?]> = [
    ['no output intents', 'output-intent', ({ doc }) => void doc.catalog.delete(n('OutputIntents'))],
    ['the intent is GTS_PDFA1, not GTS_PDFX', 'output-intent', ({ intent }) => intent.set(n('S'), n('GTS_PDFA1'))],
    ['no OutputConditionIdentifier', 'output-intent', ({ intent }) => void intent.delete(n('OutputConditionIdentifier'))],
    ['the profile stream says /N 3', 'output-profile', ({ doc, intent }) =>
      doc.context.lookup(intent.get(n('DestOutputProfile')), PDFStream).dict.set(n('N'), doc.context.obj(3))],
    ['page 2 fills in DeviceRGB (rg)', 'colour-space', ({ doc, pages }) =>
      pages[1].node.addContentStream(doc.context.register(doc.context.flateStream('q 1 0 0 rg 0 0 10 10 re f Q'))), 2],
    ['no DestOutputProfile', 'output-profile', ({ intent }) => void intent.delete(n('DestOutputProfile'))],
    ['a scanner (scnr) CMYK profile as destination', 'output-profile', ({ doc, intent }) =>
      intent.set(n('DestOutputProfile'), doc.context.register(doc.context.flateStream(scannerCmykProfile, { N: 4 })))],
    ['no XMP metadata', 'xmp-version', ({ doc }) => void doc.catalog.delete(n('Metadata'))],
    ['XMP says PDF/X-3:2002', 'xmp-version', ({ doc }) =>
      doc.catalog.set(n('Metadata'), doc.context.register(doc.context.stream(xmp('PDF/X-3:2002'), { Type: 'Metadata', Subtype: 'XML' })))],
    ['XMP version in a wrong namespace', 'xmp-version', ({ doc }) =>
      doc.catalog.set(n('Metadata'), doc.context.register(doc.context.stream(xmp('PDF/X-4', 'http://example.com/'), { Type: 'Metadata', Subtype: 'XML' })))],
    ['no document ID', 'document-id', ({ doc }) => void (doc.context.trailerInfo.ID = undefined)],
    ['Trapped /Unknown', 'trapped', ({ info }) => info.set(n('Trapped'), n('Unknown'))],
    ['no Trapped', 'trapped', ({ info }) => void info.delete(n('Trapped'))],
    ['page 2 without TrimBox', 'page-boxes', ({ pages }) => void pages[1].node.delete(n('TrimBox')), 2],
    ['page 2 with TrimBox and ArtBox', 'page-boxes', ({ pages }) => pages[1].setArtBox(BLEED, BLEED, TRIM.width, TRIM.height), 2],
    ['page 2 without BleedBox', 'page-boxes', ({ pages }) => void pages[1].node.delete(n('BleedBox')), 2],
    ['page 2 BleedBox beyond MediaBox', 'page-boxes', ({ pages }) => pages[1].setBleedBox(-10, -10, TRIM.width + 30, TRIM.height + 30), 2],
    ['page 2 TrimBox beyond BleedBox', 'page-boxes', ({ pages }) => pages[1].setTrimBox(BLEED, BLEED, TRIM.width + 20, TRIM.height), 2],
    ['a JavaScript name tree', 'javascript', ({ doc }) =>
      doc.catalog.set(n('Names'), doc.context.obj({ JavaScript: doc.context.obj({ Names: [PDFString.of('x'), doc.context.obj({ S: 'JavaScript', JS: PDFString.of('app.alert(1)') })] }) }))],
    ['page 2 additional actions', 'javascript', ({ doc, pages }) =>
      pages[1].node.set(n('AA'), doc.context.obj({ O: doc.context.obj({ S: 'JavaScript', JS: PDFString.of('1') }) })), 2],
    ['a link annotation with a JavaScript action', 'javascript', ({ doc, pages }) => {
      const annot = doc.context.register(doc.context.obj({ Type: 'Annot', Subtype: 'Link', Rect: [0, 0, 10, 10], A: { S: 'JavaScript', JS: PDFString.of('1') } }));
      pages[0].node.set(n('Annots'), doc.context.obj([annot]));
    }],
    ['page 2 uses Helvetica, not embedded', 'fonts-embedded', async ({ doc, pages }) => {
      const helvetica = await doc.embedFont(StandardFonts.Helvetica);
      pages[1].drawText('Hello', { font: helvetica, x: 50, y: 50, color: cmyk(0, 0, 0, 1) });
    }, 2],
    ['page 2 has an untagged RGB image', 'colour-space', async ({ doc, pages }) => {
      const png = await doc.embedPng(await pngOf(artworkRgb(4, 4, 3), 4, 4));
      pages[1].drawImage(png, { x: 0, y: 0, width: 20, height: 20 });
    }, 2],
  ];

  for (const [what, rule, spoil, page] of cases) {
    it(`${what} → ${rule}${page ? ` on page ${page}` : ''}`, async () => {
      const problems = await checkPdfX4(await buildConforming(spoil));
      expect(problems.map((p) => p.rule)).toEqual([rule]);
      expect(problems[0].message.length).toBeGreaterThan(10);
      if (page) expect(problems[0].page).toBe(page);
    });
  }

  it('an encrypted file → only "encryption" (nothing else can be read)', async () => {
    const bytes = await buildConforming(({ doc }) => {
      doc.context.trailerInfo.Encrypt = doc.context.register(doc.context.obj({ Filter: 'Standard', V: 2, R: 3, O: PDFString.of('x'), U: PDFString.of('y'), P: -4 }));
    });
    expect(await rulesOf(bytes)).toEqual(['encryption']);
  });

  it('bytes that are not a PDF → "readable", no exception', async () => {
    const problems = await checkPdfX4(new Uint8Array(Buffer.from('GIF89a not a pdf')));
    expect(problems.map((p) => p.rule)).toEqual(['readable']);
  });

  it('"rg" inside a text string or after a CMYK fill is not taken for an RGB colour', async () => {
    const bytes = await buildConforming(({ doc, pages }) =>
      pages[1].node.addContentStream(doc.context.register(doc.context.flateStream('BT /F1 9 Tf (1 0 0 rg) Tj ET 0 0 0 1 k 0 0 5 5 re f'))));
    expect(await checkPdfX4(bytes)).toEqual([]);
  });

  it('a DeviceRGB image is allowed when the page gives a DefaultRGB', async () => {
    const bytes = await buildConforming(async ({ doc, pages }) => {
      const png = await doc.embedPng(await pngOf(artworkRgb(4, 4, 3), 4, 4));
      pages[1].drawImage(png, { x: 0, y: 0, width: 20, height: 20 });
      const srgbLike = doc.context.obj([n('CalRGB'), { WhitePoint: [0.9505, 1, 1.089] }]);
      pages[1].node.Resources()?.set(n('ColorSpace'), doc.context.obj({ DefaultRGB: srgbLike }));
    });
    expect(await checkPdfX4(bytes)).toEqual([]);
  });
});

describe('checkPdfX4 on our print files', () => {
  // A card, a mug wrap and an A3 poster (still 4 pages: the spec's rule), each of RGB, palette and gray artwork.
  const sizes: Array<[string, PrintSize]> = [
    ['card', printSizeOf('Card')],
    ['mug', printSizeOf('Mug')],
    ['poster', printSizeOf('Poster')],
  ];
  for (const [what, size] of sizes) {
    it(`a ${what} file meets every rule the checker has`, async () => {
      const rgb = await pngOf(artworkRgb(60, 85, 7), 60, 85);
      const palette = await sharp(artworkRgb(40, 40, 3), { raw: { width: 40, height: 40, channels: 3 } }).png({ palette: true, colours: 8 }).toBuffer();
      const gray = await sharp(artworkRgb(30, 20, 5), { raw: { width: 30, height: 20, channels: 3 } }).grayscale().jpeg().toBuffer();
      const jpeg = await jpegOf(artworkRgb(50, 50, 9), 50, 50);
      const pdf = await buildPrintPdf([rgb, palette, gray, jpeg], { size, cache: false, file: { owner: `job ${what}`, title: `A ${what}`, createdAt: '2026-11-20T09:30:00Z' } });
      expect(await checkPdfX4(pdf)).toEqual([]);
    });
  }
});

const qpdf = spawnSync('qpdf', ['--version']).status === 0;

describe.runIf(qpdf)('qpdf (installed here) on the conforming file', () => {
  it('--check finds no structural errors; --json shows the intent, boxes and ID the checker looked at', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'pdfx-'));
    const file = path.join(dir, 'card.pdf');
    fs.writeFileSync(file, await buildConforming());
    try {
      expect(execFileSync('qpdf', ['--check', file], { encoding: 'utf8' })).toMatch(/No syntax or stream encoding errors/);
      const json = JSON.parse(execFileSync('qpdf', ['--json', '--json-key=qpdf', file], { encoding: 'utf8', maxBuffer: 64 << 20 })) as {
        qpdf: [unknown, Record<string, { value?: Record<string, unknown> }>];
      };
      const objects = json.qpdf[1];
      const trailer = objects.trailer.value as Record<string, unknown>;
      expect(Array.isArray(trailer['/ID'])).toBe(true);
      const values = Object.values(objects).map((o) => o.value).filter((v): v is Record<string, unknown> => !!v && typeof v === 'object');
      const pages = values.filter((v) => v['/Type'] === '/Page');
      expect(pages).toHaveLength(2);
      for (const page of pages) {
        expect(page['/TrimBox']).toHaveLength(4);
        expect(page['/BleedBox']).toEqual(page['/MediaBox']);
      }
      const catalog = values.find((v) => v['/Type'] === '/Catalog');
      expect(catalog?.['/OutputIntents']).toBeDefined();
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});

