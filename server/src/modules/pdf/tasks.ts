// The CPU work of PDFs, run inside a worker thread (see pool.ts) so a timeout can stop it:
//  - build: prepared artwork pages → one PDF/X-4 print file (ISO 15930-7), one page per image at
//    the product's trim + bleed (common/design-doc/printSize.ts). JPEG DCT data and opaque ≤8-bit
//    PNG zlib data go in as they are (no decoding, no recompression); decoded pixels (PNGs with
//    alpha, 16-bit or interlaced, decoded by sharp on the main thread) go in as a native-zlib
//    Flate stream. The bytes depend only on the input (dates and IDs come with it).
//  - render: page 1 of a PDF → PNG (pdfjs-dist + @napi-rs/canvas), with the bleed cut off.
// Nothing here touches sharp (libvips must not be torn down with a terminated worker).
import crypto from 'node:crypto';
import { createRequire } from 'node:module';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import zlib from 'node:zlib';
import {
  PDFDict,
  PDFDocument,
  PDFHexString,
  PDFName,
  PDFNumber,
  PDFString,
  concatTransformationMatrix,
  drawObject,
  popGraphicsState,
  pushGraphicsState,
  type PDFArray,
  type PDFPage,
  type PDFRawStream,
  type PDFRef,
} from 'pdf-lib';
import { artworkFit, type PrintSize } from '../../../../common/design-doc/printSize';
import { ImageError, inspectJpeg, inspectPng, pngPassesThrough, verifyPngData, type PngStructure } from '../images';
import { readIccHeader } from './cmykProfile';

/** The ICC profile an image file carries, if any (sharp's metadata().icc); used when it fits the image. */
type OwnProfile = { icc?: Uint8Array };

export type PageInput =
  | ({ kind: 'png'; bytes: Uint8Array } & OwnProfile)
  | ({ kind: 'jpeg'; bytes: Uint8Array } & OwnProfile)
  | ({ kind: 'raw'; width: number; height: number; channels: 1 | 3; pixels: Uint8Array } & OwnProfile);

/** What a print file says about itself: the same values give the same bytes. */
export interface PrintFileIdentity {
  /** Info /Title and XMP dc:title. */
  title: string;
  /** ISO 8601: CreationDate, ModDate and the XMP dates (the job's, never the clock's at build time). */
  createdAt: string;
  /** 32 hex digits: the trailer /ID and the XMP DocumentID / InstanceID. */
  documentId: string;
}

/** The PDF/X output intent and the profile of untagged RGB, read once per process on the main thread. */
export interface ColourSetup {
  /** The CMYK destination profile, Flate-compressed (compressed once, not per file). */
  outputProfileDeflated: Uint8Array;
  outputConditionIdentifier: string;
  outputCondition: string;
  /** The intent's /Info: required when the condition is not a registered one ("Custom"). */
  outputInfo: string;
  /** sRGB, for RGB artwork that carries no profile of its own. */
  srgbProfile: Uint8Array;
}

export interface BuildInput {
  pages: PageInput[];
  size: PrintSize;
  identity: PrintFileIdentity;
  colour: ColourSetup;
}

export interface RenderInput {
  pdf: Uint8Array;
  /** Output resolution. */
  dpi: number;
  /** Cut this much off every side of the page. */
  bleedMm: number;
  /** Largest output, in pixels (the resolution is lowered to fit). */
  maxPixels: number;
}

export type Task = { type: 'build'; input: BuildInput } | { type: 'render'; input: RenderInput };

/** An error a user can act on (→ 400 with this message). */
export class TaskError extends Error {
  constructor(
    message: string,
    readonly status = 400,
  ) {
    super(message);
  }
}

const pageError = (i: number, err: unknown) =>
  err instanceof ImageError || err instanceof TaskError ? new TaskError(`Page ${i + 1}: ${err.message}`) : err;

type Checked =
  | ({ kind: 'jpeg'; bytes: Uint8Array; jpg: ReturnType<typeof inspectJpeg> } & OwnProfile)
  | ({ kind: 'png'; png: PngStructure } & OwnProfile)
  | Extract<PageInput, { kind: 'raw' }>;

/** Full structural checks of a page (PNG zlib data verified on the thread pool). */
async function check(page: PageInput): Promise<Checked> {
  if (page.kind === 'jpeg') return { kind: 'jpeg', bytes: page.bytes, jpg: inspectJpeg(page.bytes), icc: page.icc };
  if (page.kind === 'png') {
    const png = inspectPng(page.bytes);
    if (!pngPassesThrough(png)) throw new TaskError('the PNG must be decoded first (internal error)', 500);
    await verifyPngData(png);
    return { kind: 'png', png, icc: page.icc };
  }
  return page;
}

const ascii = (s: string) => Uint8Array.from(s, (c) => c.charCodeAt(0));
const STREAM = ascii('\nstream\n');
const ENDSTREAM = ascii('\nendstream');

/**
 * pdf-lib writes stream contents one byte at a time; for multi-megabyte images that is most of the
 * time of save(). This stream holds its contents as pieces (a PNG's IDAT chunks, without
 * concatenating them) and writes each with one memcpy. (sizeInBytes() sets /Length before writing.)
 */
function piecesStream(ctx: PDFDocument['context'], pieces: Uint8Array[], dict: Parameters<PDFDocument['context']['stream']>[1]): PDFRawStream {
  const stream = ctx.stream(new Uint8Array(0), dict);
  const size = pieces.reduce((n, p) => n + p.length, 0);
  stream.getContentsSize = () => size;
  stream.getContents = () => (pieces.length === 1 ? pieces[0] : Buffer.concat(pieces));
  stream.copyBytesInto = (buffer: Uint8Array, offset: number): number => {
    const start = offset;
    offset += stream.dict.copyBytesInto(buffer, offset);
    buffer.set(STREAM, offset);
    offset += STREAM.length;
    for (const p of pieces) {
      buffer.set(p, offset);
      offset += p.length;
    }
    buffer.set(ENDSTREAM, offset);
    offset += ENDSTREAM.length;
    return offset - start;
  };
  return stream;
}

/** The ICC colour space of each component count; anything else in a file's profile is not used. */
const ICC_SPACE_OF: Record<number, string> = { 1: 'GRAY', 3: 'RGB ', 4: 'CMYK' };

/** An image's own profile when it is a readable ICC profile of the image's colour space. */
function profileFits(icc: Uint8Array | undefined, components: number): icc is Uint8Array {
  if (!icc) return false;
  try {
    const header = readIccHeader(icc);
    return header.colourSpace === ICC_SPACE_OF[components] && header.size === icc.length;
  } catch {
    return false;
  }
}

/**
 * The colour spaces of a file's images. PDF/X under a CMYK intent allows DeviceGray and
 * DeviceCMYK as they are, but RGB must say what RGB it is: its own profile, else sRGB. Each
 * profile is embedded once per file, however many pages use it.
 */
function colourSpaces(doc: PDFDocument, srgb: Uint8Array) {
  const ctx = doc.context;
  const embedded = new Map<string, PDFArray>();
  const iccBased = (icc: Uint8Array, components: number): PDFArray => {
    const key = crypto.createHash('sha1').update(icc).digest('hex');
    let space = embedded.get(key);
    if (!space) {
      const profile = piecesStream(ctx, [zlib.deflateSync(icc)], { N: components, Filter: 'FlateDecode' });
      space = ctx.obj([PDFName.of('ICCBased'), ctx.register(profile)]);
      embedded.set(key, space);
    }
    return space;
  };
  return (components: 1 | 3 | 4, own: Uint8Array | undefined): PDFArray | string => {
    if (profileFits(own, components)) return iccBased(own, components);
    if (components === 3) return iccBased(srgb, 3);
    return components === 1 ? 'DeviceGray' : 'DeviceCMYK';
  };
}

function imageRef(doc: PDFDocument, page: Checked, spaceOf: ReturnType<typeof colourSpaces>): PDFRef {
  const ctx = doc.context;
  if (page.kind === 'jpeg') {
    const { jpg } = page;
    const components = jpg.components === 1 ? 1 : jpg.components === 3 ? 3 : 4;
    return ctx.register(
      piecesStream(ctx, [page.bytes], {
        Type: 'XObject',
        Subtype: 'Image',
        Width: jpg.width,
        Height: jpg.height,
        BitsPerComponent: 8,
        ColorSpace: spaceOf(components, page.icc),
        Filter: 'DCTDecode',
        // Standalone CMYK JPEGs (Photoshop) are stored inverted; pdf-lib's embedJpg makes the same choice.
        ...(jpg.components === 4 ? { Decode: [1, 0, 1, 0, 1, 0, 1, 0] } : {}),
      }),
    );
  }
  if (page.kind === 'png') {
    const { png } = page;
    const colors = png.colorType === 2 ? 3 : 1;
    const colorSpace =
      png.colorType === 3
        ? ctx.obj([PDFName.of('Indexed'), spaceOf(3, page.icc), PDFNumber.of(png.palette!.length / 3 - 1), PDFHexString.of(png.palette!.toString('hex'))])
        : spaceOf(png.colorType === 2 ? 3 : 1, page.icc);
    return ctx.register(
      piecesStream(ctx, png.idat, {
        Type: 'XObject',
        Subtype: 'Image',
        Width: png.width,
        Height: png.height,
        BitsPerComponent: png.bitDepth,
        ColorSpace: colorSpace,
        Filter: 'FlateDecode',
        // The PNG row filters are PDF's PNG predictors (15 = chosen per row).
        DecodeParms: { Predictor: 15, Colors: colors, BitsPerComponent: png.bitDepth, Columns: png.width },
      }),
    );
  }
  const { width, height, channels, pixels } = page;
  if (pixels.length !== width * height * channels) throw new TaskError('decoded pixels do not match the image size (internal error)', 500);
  return ctx.register(
    piecesStream(ctx, [zlib.deflateSync(pixels, { level: 6 })], {
      Type: 'XObject',
      Subtype: 'Image',
      Width: width,
      Height: height,
      BitsPerComponent: 8,
      ColorSpace: spaceOf(channels, page.icc),
      Filter: 'FlateDecode',
    }),
  );
}

const pixelSize = (c: Checked) => (c.kind === 'jpeg' ? { width: c.jpg.width, height: c.jpg.height } : c.kind === 'png' ? c.png : c);

// Boxes to a thousandth of a point (far below any printer's tolerance), so they print without float noise.
const pt = (mm: number) => Math.round((mm / 25.4) * 72 * 1000) / 1000;
const round = (v: number) => Math.round(v * 1000) / 1000;

export interface Rect {
  x: number;
  y: number;
  width: number;
  height: number;
}

/** A print page in points: MediaBox = BleedBox = the whole page, TrimBox = `trim` (inset by the bleed). */
export function pageBoxes(size: PrintSize): { width: number; height: number; trim: Rect } {
  const bleed = pt(size.bleedMm);
  const trim = { x: bleed, y: bleed, width: pt(size.trimWidthMm), height: pt(size.trimHeightMm) };
  return { width: round(trim.width + 2 * bleed), height: round(trim.height + 2 * bleed), trim };
}

/**
 * Where a page image goes (printSize.ts `artworkFit` decides): artwork with the bleed fills the
 * page; artwork of the trim's shape sits exactly on the trim (its bleed stays white, which
 * preflight reports); any other shape is fitted inside the trim, centred, never stretched.
 */
export function imagePlacement(pixelWidth: number, pixelHeight: number, size: PrintSize): Rect {
  const page = pageBoxes(size);
  const fit = artworkFit(pixelWidth, pixelHeight, size);
  if (fit === 'bleed') return { x: 0, y: 0, width: page.width, height: page.height };
  const { trim } = page;
  if (fit === 'trim') return trim;
  const scale = Math.min(trim.width / pixelWidth, trim.height / pixelHeight);
  const width = pixelWidth * scale;
  const height = pixelHeight * scale;
  return { x: trim.x + (trim.width - width) / 2, y: trim.y + (trim.height - height) / 2, width, height };
}

function setBoxes(doc: PDFDocument, page: PDFPage, size: PrintSize): void {
  const { width, height, trim } = pageBoxes(size);
  const box = (x0: number, y0: number, x1: number, y1: number) => doc.context.obj([x0, y0, x1, y1].map(round));
  page.node.set(PDFName.of('MediaBox'), box(0, 0, width, height));
  page.node.set(PDFName.of('BleedBox'), box(0, 0, width, height));
  page.node.set(PDFName.of('TrimBox'), box(trim.x, trim.y, trim.x + trim.width, trim.y + trim.height));
}

export const PRODUCER = 'Presswork';

const xmlText = (s: string) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');
const uuidOf = (hex: string) => `uuid:${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20, 32)}`;

/** The XMP packet: PDF/X-4 says who it is here only, and the values must agree with the Info dictionary. */
export function printFileXmp(identity: PrintFileIdentity, at: Date): string {
  const date = at.toISOString().replace(/\.\d{3}Z$/, 'Z');
  const uuid = uuidOf(identity.documentId);
  return [
    '<?xpacket begin="\uFEFF" id="W5M0MpCehiHzreSzNTczkc9d"?>',
    '<x:xmpmeta xmlns:x="adobe:ns:meta/">',
    '<rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#">',
    '<rdf:Description rdf:about=""',
    ' xmlns:dc="http://purl.org/dc/elements/1.1/"',
    ' xmlns:xmp="http://ns.adobe.com/xap/1.0/"',
    ' xmlns:xmpMM="http://ns.adobe.com/xap/1.0/mm/"',
    ' xmlns:pdf="http://ns.adobe.com/pdf/1.3/"',
    ' xmlns:pdfxid="http://www.npes.org/pdfx/ns/id/">',
    '<dc:format>application/pdf</dc:format>',
    `<dc:title><rdf:Alt><rdf:li xml:lang="x-default">${xmlText(identity.title)}</rdf:li></rdf:Alt></dc:title>`,
    `<xmp:CreateDate>${date}</xmp:CreateDate>`,
    `<xmp:ModifyDate>${date}</xmp:ModifyDate>`,
    `<xmp:MetadataDate>${date}</xmp:MetadataDate>`,
    `<xmp:CreatorTool>${PRODUCER}</xmp:CreatorTool>`,
    `<xmpMM:DocumentID>${uuid}</xmpMM:DocumentID>`,
    `<xmpMM:InstanceID>${uuid}</xmpMM:InstanceID>`,
    '<xmpMM:VersionID>1</xmpMM:VersionID>',
    '<xmpMM:RenditionClass>default</xmpMM:RenditionClass>',
    `<pdf:Producer>${PRODUCER}</pdf:Producer>`,
    '<pdf:Trapped>False</pdf:Trapped>',
    '<pdfxid:GTS_PDFXVersion>PDF/X-4</pdfxid:GTS_PDFXVersion>',
    '</rdf:Description>',
    '</rdf:RDF>',
    '</x:xmpmeta>',
    '<?xpacket end="r"?>',
  ].join('\n');
}

/** Info, XMP, output intent and /ID: what makes the file a PDF/X-4 file and names it. */
function identify(doc: PDFDocument, identity: PrintFileIdentity, colour: ColourSetup): void {
  const ctx = doc.context;
  const at = new Date(identity.createdAt);
  if (Number.isNaN(at.getTime())) throw new TaskError(`the print file's date "${identity.createdAt}" is not a date (internal error)`, 500);
  if (!/^[0-9a-f]{32}$/.test(identity.documentId)) throw new TaskError('the print file ID must be 32 hex digits (internal error)', 500);
  doc.setTitle(identity.title);
  doc.setProducer(PRODUCER);
  doc.setCreator(PRODUCER);
  doc.setCreationDate(at);
  doc.setModificationDate(at);
  // Nobody traps our images; a RIP that may trap decides so from this "False".
  ctx.lookup(ctx.trailerInfo.Info, PDFDict).set(PDFName.of('Trapped'), PDFName.of('False'));

  const xmp = piecesStream(ctx, [Buffer.from(printFileXmp(identity, at), 'utf8')], { Type: 'Metadata', Subtype: 'XML' });
  doc.catalog.set(PDFName.of('Metadata'), ctx.register(xmp));

  const profile = ctx.register(piecesStream(ctx, [colour.outputProfileDeflated], { N: 4, Filter: 'FlateDecode' }));
  const intent = ctx.obj({
    Type: 'OutputIntent',
    S: 'GTS_PDFX',
    OutputConditionIdentifier: PDFString.of(colour.outputConditionIdentifier),
    OutputCondition: PDFString.of(colour.outputCondition),
    Info: PDFString.of(colour.outputInfo),
    RegistryName: PDFString.of(''),
    DestOutputProfile: profile,
  });
  doc.catalog.set(PDFName.of('OutputIntents'), ctx.obj([intent]));
  // One ID for both halves: this is the file's first (and only) version.
  ctx.trailerInfo.ID = ctx.obj([PDFHexString.of(identity.documentId), PDFHexString.of(identity.documentId)]);
}

/** The print file: one page of trim + bleed per image, placed by imagePlacement(), as PDF/X-4. */
export async function buildPdf(input: BuildInput): Promise<Uint8Array> {
  const { pages, size, identity, colour } = input;
  // No automatic dates or producer: the same input must give the same bytes.
  const doc = await PDFDocument.create({ updateMetadata: false });
  identify(doc, identity, colour);
  const spaceOf = colourSpaces(doc, colour.srgbProfile);
  // Every page checked in parallel; the first bad page (in page order) is the error.
  const checked = await Promise.allSettled(pages.map((p) => check(p)));
  for (const [i, r] of checked.entries()) if (r.status === 'rejected') throw pageError(i, r.reason);
  for (const [i, r] of checked.entries()) {
    const image = (r as PromiseFulfilledResult<Checked>).value;
    let ref: PDFRef;
    try {
      ref = imageRef(doc, image, spaceOf);
    } catch (err) {
      throw pageError(i, err);
    }
    const page = doc.addPage();
    setBoxes(doc, page, size);
    const name = page.node.newXObject('Image', ref);
    const pixels = pixelSize(image);
    const at = imagePlacement(pixels.width, pixels.height, size);
    page.pushOperators(pushGraphicsState(), concatTransformationMatrix(at.width, 0, 0, at.height, at.x, at.y), drawObject(name), popGraphicsState());
  }
  // A classic xref table (no object streams): the most widely readable form for print RIPs.
  const bytes = await doc.save({ objectsPerTick: Infinity, useObjectStreams: false, updateFieldAppearances: false });
  return asPdf16(bytes);
}

/**
 * PDF/X-4 is built on PDF 1.6 and nothing here is newer, but pdf-lib's writer always says 1.7:
 * the header's last digit is changed in place (same length, so no offset moves).
 */
function asPdf16(bytes: Uint8Array): Uint8Array {
  if (Buffer.from(bytes.subarray(0, 8)).toString('latin1') !== '%PDF-1.7') throw new TaskError('unexpected PDF header (internal error)', 500);
  bytes[7] = 0x36;
  return bytes;
}

// ---------------------------------------------------------------------------------------------

type PdfJs = typeof import('pdfjs-dist/legacy/build/pdf.mjs');
let pdfjs: Promise<PdfJs> | null = null;

/** The legacy (Node) build of pdfjs-dist, loaded once. */
export function loadPdfjs(): Promise<PdfJs> {
  pdfjs ??= import('pdfjs-dist/legacy/build/pdf.mjs');
  return pdfjs;
}
const require = createRequire(import.meta.url);
const pdfjsRoot = path.dirname(require.resolve('pdfjs-dist/package.json'));

/** Page 1 of a PDF → PNG bytes, `bleedMm` cut off each side. */
export async function renderFrontPage(input: RenderInput): Promise<{ png: Uint8Array; width: number; height: number }> {
  const { getDocument } = await loadPdfjs();
  const { createCanvas } = await import('@napi-rs/canvas');
  const task = getDocument({
    data: input.pdf,
    maxImageSize: 60_000_000,
    useSystemFonts: false,
    disableFontFace: true,
    verbosity: 0,
    standardFontDataUrl: pathToFileURL(path.join(pdfjsRoot, 'standard_fonts') + path.sep).href,
    cMapUrl: pathToFileURL(path.join(pdfjsRoot, 'cmaps') + path.sep).href,
    cMapPacked: true,
  });
  let doc;
  try {
    doc = await task.promise;
  } catch (err) {
    throw new TaskError(`The PDF could not be read: ${(err as Error).message}`);
  }
  try {
    const page = await doc.getPage(1);
    const base = page.getViewport({ scale: 1 });
    const bleedPt = (input.bleedMm / 25.4) * 72;
    const wPt = base.width - 2 * bleedPt;
    const hPt = base.height - 2 * bleedPt;
    if (wPt <= 1 || hPt <= 1) throw new TaskError(`The bleed (${input.bleedMm} mm) is larger than the page`);
    let scale = input.dpi / 72;
    if (wPt * hPt * scale * scale > input.maxPixels) scale = Math.sqrt(input.maxPixels / (wPt * hPt));
    const viewport = page.getViewport({ scale });
    const width = Math.max(1, Math.round(wPt * scale));
    const height = Math.max(1, Math.round(hPt * scale));
    const canvas = createCanvas(width, height);
    const ctx = canvas.getContext('2d');
    ctx.fillStyle = '#ffffff';
    ctx.fillRect(0, 0, width, height);
    const offset = bleedPt * scale;
    await page.render({
      canvas: canvas as unknown as HTMLCanvasElement,
      canvasContext: ctx as unknown as CanvasRenderingContext2D,
      viewport,
      transform: [1, 0, 0, 1, -offset, -offset],
    }).promise;
    const png = await canvas.encode('png');
    return { png: new Uint8Array(png.buffer, png.byteOffset, png.byteLength), width, height };
  } finally {
    await task.destroy();
  }
}

export async function runTask(task: Task): Promise<Uint8Array | { png: Uint8Array; width: number; height: number }> {
  if (task.type === 'build') return buildPdf(task.input);
  return renderFrontPage(task.input);
}
