// The CPU work of PDFs, run inside a worker thread (see pool.ts) so a timeout can stop it:
//  - build: prepared artwork pages → one PDF with one A5 page per image. JPEG DCT data and opaque
//    ≤8-bit PNG zlib data go in as they are (no decoding, no recompression); decoded pixels
//    (PNGs with alpha, 16-bit or interlaced, decoded by sharp on the main thread) go in as a
//    native-zlib Flate stream.
//  - render: page 1 of a PDF → PNG (pdfjs-dist + @napi-rs/canvas), with the bleed cut off.
// Nothing here touches sharp (libvips must not be torn down with a terminated worker).
import { createRequire } from 'node:module';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import zlib from 'node:zlib';
import {
  PDFDocument,
  PDFHexString,
  PDFName,
  PDFNumber,
  concatTransformationMatrix,
  drawObject,
  popGraphicsState,
  pushGraphicsState,
  type PDFRawStream,
  type PDFRef,
} from 'pdf-lib';
import { ImageError, inspectJpeg, inspectPng, pngPassesThrough, verifyPngData, type PngStructure } from '../images/inspect';

/** A5 in points: 148 × 210 mm. */
export const A5 = { width: (148 / 25.4) * 72, height: (210 / 25.4) * 72 };

export type PageInput =
  | { kind: 'png'; bytes: Uint8Array }
  | { kind: 'jpeg'; bytes: Uint8Array }
  | { kind: 'raw'; width: number; height: number; channels: 1 | 3; pixels: Uint8Array };

export interface RenderInput {
  pdf: Uint8Array;
  /** Output resolution. */
  dpi: number;
  /** Cut this much off every side of the page. */
  bleedMm: number;
  /** Largest output, in pixels (the resolution is lowered to fit). */
  maxPixels: number;
}

export type Task = { type: 'build'; pages: PageInput[] } | { type: 'render'; input: RenderInput };

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
  | { kind: 'jpeg'; bytes: Uint8Array; jpg: ReturnType<typeof inspectJpeg> }
  | { kind: 'png'; png: PngStructure }
  | Extract<PageInput, { kind: 'raw' }>;

/** Full structural checks of a page (PNG zlib data verified on the thread pool). */
async function check(page: PageInput): Promise<Checked> {
  if (page.kind === 'jpeg') return { kind: 'jpeg', bytes: page.bytes, jpg: inspectJpeg(page.bytes) };
  if (page.kind === 'png') {
    const png = inspectPng(page.bytes);
    if (!pngPassesThrough(png)) throw new TaskError('the PNG must be decoded first (internal error)', 500);
    await verifyPngData(png);
    return { kind: 'png', png };
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

function imageRef(doc: PDFDocument, page: Checked): PDFRef {
  const ctx = doc.context;
  if (page.kind === 'jpeg') {
    const { jpg } = page;
    const colorSpace = jpg.components === 1 ? 'DeviceGray' : jpg.components === 3 ? 'DeviceRGB' : 'DeviceCMYK';
    return ctx.register(
      piecesStream(ctx, [page.bytes], {
        Type: 'XObject',
        Subtype: 'Image',
        Width: jpg.width,
        Height: jpg.height,
        BitsPerComponent: 8,
        ColorSpace: colorSpace,
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
        ? [PDFName.of('Indexed'), PDFName.of('DeviceRGB'), PDFNumber.of(png.palette!.length / 3 - 1), PDFHexString.of(png.palette!.toString('hex'))]
        : png.colorType === 2
          ? 'DeviceRGB'
          : 'DeviceGray';
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
      ColorSpace: channels === 3 ? 'DeviceRGB' : 'DeviceGray',
      Filter: 'FlateDecode',
    }),
  );
}

/** Artwork drawn with the editor's 3 mm bleed: (148 + 6) × (210 + 6) mm. */
export const BLEED_MM = 3;
const WITH_BLEED_RATIO = (148 + 2 * BLEED_MM) / (210 + 2 * BLEED_MM);

const pixelSize = (c: Checked) => (c.kind === 'jpeg' ? { width: c.jpg.width, height: c.jpg.height } : c.kind === 'png' ? c.png : c);

/**
 * Where the image goes on the A5 page: artwork that carries the 3 mm bleed (recognised by its
 * proportions) is placed so its trim box fills the page and the bleed falls outside it; any
 * other artwork fills the page.
 */
export function placement(width: number, height: number): { x: number; y: number; w: number; h: number } {
  if (Math.abs(width / height - WITH_BLEED_RATIO) < 0.0015) {
    const b = (BLEED_MM / 25.4) * 72;
    return { x: -b, y: -b, w: A5.width + 2 * b, h: A5.height + 2 * b };
  }
  return { x: 0, y: 0, w: A5.width, h: A5.height };
}

/** One A5 page per image, each image filling its page (its bleed, if any, outside the page). */
export async function buildPdf(pages: PageInput[]): Promise<Uint8Array> {
  const doc = await PDFDocument.create();
  doc.setProducer('Presswork');
  doc.setCreator('Presswork');
  // Every page checked in parallel; the first bad page (in page order) is the error.
  const checked = await Promise.allSettled(pages.map((p) => check(p)));
  for (const [i, r] of checked.entries()) if (r.status === 'rejected') throw pageError(i, r.reason);
  for (const [i, r] of checked.entries()) {
    let ref: PDFRef;
    try {
      ref = imageRef(doc, (r as PromiseFulfilledResult<Checked>).value);
    } catch (err) {
      throw pageError(i, err);
    }
    const page = doc.addPage([A5.width, A5.height]);
    const name = page.node.newXObject('Image', ref);
    const size = pixelSize((r as PromiseFulfilledResult<Checked>).value);
    const at = placement(size.width, size.height);
    page.pushOperators(pushGraphicsState(), concatTransformationMatrix(at.w, 0, 0, at.h, at.x, at.y), drawObject(name), popGraphicsState());
  }
  // A classic xref table (no object streams): the most widely readable form for print RIPs.
  return doc.save({ objectsPerTick: Infinity, useObjectStreams: false, updateFieldAppearances: false });
}

// ---------------------------------------------------------------------------------------------

type PdfJs = typeof import('pdfjs-dist/legacy/build/pdf.mjs');
let pdfjs: Promise<PdfJs> | null = null;

/** pdfjs-dist 6 expects Promise.withResolvers (Node 22); Node 20 lacks it. */
export function ensurePdfjsPolyfills(): void {
  const P = Promise as unknown as { withResolvers?: () => unknown };
  P.withResolvers ??= function withResolvers<T>() {
    let resolve!: (v: T | PromiseLike<T>) => void;
    let reject!: (e?: unknown) => void;
    const promise = new Promise<T>((res, rej) => {
      resolve = res;
      reject = rej;
    });
    return { promise, resolve, reject };
  };
}

/** The legacy (Node) build of pdfjs-dist, loaded once. */
export function loadPdfjs(): Promise<PdfJs> {
  ensurePdfjsPolyfills();
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
  if (task.type === 'build') return buildPdf(task.pages);
  return renderFrontPage(task.input);
}
