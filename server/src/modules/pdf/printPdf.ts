// The print PDF: one page per artwork image at the product's trim + bleed, as PDF/X-4 (tasks.ts
// builds it; printSize.ts says the size). A print job's file has exactly 4 pages (spec §5).
//
// Fast path: nothing is decoded or recompressed. JPEG DCT data and opaque non-interlaced ≤8-bit PNG
// zlib data (gray, RGB, palette) go into the PDF as they are (PNG rows keep their filters as PDF
// PNG predictors). PNGs with alpha/tRNS, 16 bits or interlacing are decoded by sharp (flattened on
// white) and stored as native-zlib Flate streams. Every image is checked first: header and pixel
// bound here (cheap), sharp's metadata, then the full structure (PNG chunk CRCs + IEND + inflated
// size; JPEG segments to EOI) in the worker. The work runs in a worker thread under
// PDF_TIMEOUT_MS; identical inputs hit an in-memory LRU of finished PDFs.
import crypto from 'node:crypto';
import fs from 'node:fs/promises';
import { createRequire } from 'node:module';
import path from 'node:path';
import { promisify } from 'node:util';
import zlib from 'node:zlib';
import sharp, { type Metadata } from 'sharp';
import { ONLY_4_PAGES, PDF_EMPTY, pageCountProblem, printSizeOf, type PrintFormat, type PrintSize } from '../../../../common/design-doc/printSize';
import { HttpError, badRequest } from '../../http/errors';
import { ImageError, MAX_PIXELS, sniffImage, type ImageHeader } from '../images';
import { loadSrgbProfile } from './cmykProfile';
import { bundledOutputIntent, type OutputIntent } from './outputProfile';
import { LruBytes } from './lru';
import type { TaskObserver } from '../../lib/threadPool';
import { createWorkerPool, TOO_LONG, type WorkerPool } from './pool';
import type { ColourSetup, PageInput, PrintFileIdentity, RenderInput } from './tasks';
import { lazyPool } from '../../lib/threadPool';

/** A card's print size (A5 + 3 mm bleed): the generic /api/pdf files and a job without a product. */
export const CARD_PRINT_SIZE: PrintSize = printSizeOf('Card');
/** The name every print file is downloaded as (spec §9). */
export const PRINT_FILE_NAME = 'print-file.pdf';
export { ONLY_4_PAGES, PDF_EMPTY, TOO_LONG };

/** The page-count rule of spec §5. */
export function assertFourPages(count: number): void {
  assertPagesOf('card-a5', count);
}

/** The page count a format prints: a card's 4 pages (the spec's answers), a mug's or a poster's one (a sentence naming the product). */
export function assertPagesOf(format: PrintFormat, count: number): void {
  const problem = pageCountProblem(format, count);
  if (problem) throw badRequest(problem);
}

export interface PdfSettings {
  /** Time limit of one PDF (fetching artwork excluded). */
  timeoutMs: number;
  /** Bytes of finished PDFs kept in memory; 0 disables the cache. */
  cacheMaxBytes: number;
}

const settings: PdfSettings = { timeoutMs: 30_000, cacheMaxBytes: 128 * 1024 * 1024 };
let cache = new LruBytes(settings.cacheMaxBytes);
const inFlight = new Map<string, Promise<Uint8Array>>();
const stats = { hits: 0, misses: 0 };

/** Called once by the app with config.artwork.pdfTimeoutMs; tests and the benchmark change it too. */
export function configurePdf(next: Partial<PdfSettings>): void {
  Object.assign(settings, next);
  if (next.cacheMaxBytes !== undefined) cache = new LruBytes(settings.cacheMaxBytes);
}

export function pdfCacheStats() {
  return { ...stats, entries: cache.size, bytes: cache.bytes };
}

export function clearPdfCache(): void {
  cache = new LruBytes(settings.cacheMaxBytes);
}

const pool = lazyPool(createWorkerPool, 'PDF generation stopped: the server is shutting down');
const workers = (): WorkerPool => pool.get();

/** warm: the workers started ahead of the first request; stop (shutdown): for good, a PDF asked for from then on answers 503. */
export const { warm: warmPdfWorkers, close: closePdfWorkers, stop: stopPdfWorkers } = pool;

const remaining = (deadline: number) => deadline - Date.now();

function tooLong(): HttpError {
  return new HttpError(503, TOO_LONG);
}

/** Races a promise against the deadline. */
async function withDeadline<T>(p: Promise<T>, deadline: number): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  try {
    return await Promise.race([p, new Promise<never>((_, reject) => (timer = setTimeout(() => reject(tooLong()), Math.max(1, remaining(deadline)))))]);
  } finally {
    clearTimeout(timer);
  }
}

const pageError = (i: number, message: string) => badRequest(`Page ${i + 1}: ${message}`);

/** PNGs whose zlib data can go into the PDF as it is (tRNS is checked in the worker's full walk too). */
function passesThrough(h: ImageHeader, hasTrns: boolean): boolean {
  return h.kind === 'png' && !h.interlaced && h.bitDepth <= 8 && (h.colorType === 0 || h.colorType === 2 || h.colorType === 3) && !hasTrns;
}

/** Walks PNG chunk headers (no data) up to the first IDAT: is there a tRNS chunk? */
function pngHasTrns(b: Buffer): boolean {
  let pos = 8;
  while (pos + 8 <= b.length) {
    const len = b.readUInt32BE(pos);
    const type = b.toString('latin1', pos + 4, pos + 8);
    if (type === 'tRNS') return true;
    if (type === 'IDAT' || type === 'IEND') return false;
    pos += 12 + len;
  }
  return false;
}

async function preparePage(bytes: Buffer, i: number, deadline: number): Promise<PageInput> {
  if (!Buffer.isBuffer(bytes) || !bytes.length) throw pageError(i, 'the artwork file is empty');
  let header: ImageHeader;
  try {
    header = sniffImage(bytes);
  } catch (err) {
    if (err instanceof ImageError) throw pageError(i, err.message);
    throw err;
  }
  const seconds = Math.max(1, Math.ceil(remaining(deadline) / 1000));
  const open = () => sharp(bytes, { limitInputPixels: MAX_PIXELS, failOn: 'warning', sequentialRead: true }).timeout({ seconds });
  // libvips must agree on what the image is.
  let meta: Metadata;
  try {
    meta = await open().metadata();
  } catch (err) {
    throw pageError(i, `the image could not be read (${(err as Error).message.split('\n')[0]})`);
  }
  if (meta.format !== header.kind || meta.width !== header.width || meta.height !== header.height) {
    throw pageError(i, 'the image header is inconsistent');
  }
  // The file's own profile says what its colours are (used by the worker when it fits the pixels).
  const icc = meta.icc ? new Uint8Array(meta.icc) : undefined;
  if (header.kind === 'jpeg') return { kind: 'jpeg', bytes, icc };
  if (passesThrough(header, pngHasTrns(bytes))) return { kind: 'png', bytes, icc };
  // Alpha, tRNS, 16-bit or interlaced: decode (flattened on white) and embed the pixels.
  try {
    const gray = header.colorType === 0 || header.colorType === 4;
    let img = open().flatten({ background: '#ffffff' });
    if (!gray) img = img.toColourspace('srgb');
    const { data, info } = await img.raw({ depth: 'uchar' }).toBuffer({ resolveWithObject: true });
    let pixels = data;
    let channels = info.channels;
    if (channels !== 1 && channels !== 3) {
      // Unusual band layouts: normalise to RGB.
      const rgb = await sharp(data, { raw: { width: info.width, height: info.height, channels: info.channels } }).removeAlpha().toColourspace('srgb').raw().toBuffer({ resolveWithObject: true });
      pixels = rgb.data;
      channels = rgb.info.channels;
    }
    if (channels !== 1 && channels !== 3) throw new Error(`${channels} channels`);
    return { kind: 'raw', width: info.width, height: info.height, channels, pixels, icc };
  } catch (err) {
    if (/timeout/i.test((err as Error).message)) throw tooLong();
    throw pageError(i, `the image could not be decoded (${(err as Error).message.split('\n')[0]})`);
  }
}

/** What a print file is made of: its size and its images (the artwork's hash names the file). */
export function artworkKey(pages: Buffer[], size: PrintSize): string {
  const h = crypto.createHash('sha256').update('presswork-print-file-v2\n').update(JSON.stringify([size.trimWidthMm, size.trimHeightMm, size.bleedMm]));
  for (const p of pages) {
    const len = Buffer.alloc(8);
    len.writeBigUInt64BE(BigInt(p.length));
    h.update(len).update(p);
  }
  return h.digest('hex');
}

/** Who a print file is for; with the artwork's hash this fixes every byte of the file. */
export interface PrintFileOwner {
  /** Whose file it is ("job 12"): another owner of the same artwork gets another document ID. */
  owner: string;
  /** The file's title (Info and XMP). */
  title: string;
  /** ISO 8601: the file's dates (a job's createdAt, never the time of the build). */
  createdAt: string;
}

/** The trailer /ID and XMP DocumentID: the owner and a hash of the sources, 32 hex digits. */
export function printFileId(owner: string, contentKey: string): string {
  return crypto.createHash('sha256').update(`presswork-print-file-id\n${owner}\n${contentKey}`).digest('hex').slice(0, 32);
}

const deflate = promisify(zlib.deflate);

const require = createRequire(import.meta.url);
let sheetFonts: Promise<{ regular: Buffer; bold: Buffer }> | null = null;

/**
 * The font of batch sheets' slugs and covers, to embed (PDF/X wants every font embedded): Liberation
 * Sans, which pdfjs-dist ships (its licence's font exception lets a document embed it) and which has
 * Helvetica's widths, so slugs fit as before.
 */
export function sheetFontBytes(): Promise<{ regular: Buffer; bold: Buffer }> {
  const dir = path.join(path.dirname(require.resolve('pdfjs-dist/package.json')), 'standard_fonts');
  sheetFonts ??= Promise.all([fs.readFile(path.join(dir, 'LiberationSans-Regular.ttf')), fs.readFile(path.join(dir, 'LiberationSans-Bold.ttf'))]).then(([regular, bold]) => ({ regular, bold }));
  return sheetFonts;
}
// One colour setup per output intent (profiles are few): the profile compressed once, not per file.
const colourSetups = new Map<string, Promise<ColourSetup>>();

/**
 * The output intent's profile (compressed once per process) and sRGB, for every file of that intent:
 * print files and batch sheets alike, so a sheet carries the profile of the pages it holds.
 */
export function colourSetupOf(given: OutputIntent | undefined): Promise<ColourSetup> {
  const identity = given?.identity ?? 'bundled';
  let setup = colourSetups.get(identity);
  if (!setup) {
    setup = (async () => {
      const [intent, srgb] = await Promise.all([given ?? bundledOutputIntent(), loadSrgbProfile()]);
      return {
        outputProfileDeflated: new Uint8Array(await deflate(intent.profile, { level: 9 })),
        outputConditionIdentifier: intent.outputConditionIdentifier,
        outputCondition: intent.outputCondition,
        outputInfo: intent.info,
        srgbProfile: srgb,
      };
    })().catch((err: unknown) => {
      colourSetups.delete(identity);
      throw err;
    });
    colourSetups.set(identity, setup);
  }
  return setup;
}

export interface BuildOptions {
  /** Whose file it is: its title, dates and ID. */
  file: PrintFileOwner;
  /** The page size; a card's when not given. */
  size?: PrintSize;
  /** The printer's profile the file carries (outputIntentOf); the bundled one when not given. */
  outputIntent?: OutputIntent;
  /** Use the LRU of finished PDFs (default true). */
  cache?: boolean;
  timeoutMs?: number;
  /** Told how the worker's part ended and how long it took (the metrics). */
  observe?: TaskObserver;
}

/** Images → one PDF/X-4 file with one trim + bleed page per image (tasks.ts places each image). */
export async function buildArtworkPdf(pages: Buffer[], options: BuildOptions): Promise<Uint8Array> {
  if (!pages.length) throw badRequest(PDF_EMPTY);
  // Not even the artwork's hash (synchronous, tenths of a second for big pages) once stopped.
  pool.refuseIfStopped();
  const size = options.size ?? CARD_PRINT_SIZE;
  const contentKey = artworkKey(pages, size);
  const identity: PrintFileIdentity = { title: options.file.title, createdAt: options.file.createdAt, documentId: printFileId(options.file.owner, contentKey) };
  const useCache = options.cache !== false && settings.cacheMaxBytes > 0;
  const intentIdentity = options.outputIntent?.identity ?? 'bundled';
  const key = useCache ? crypto.createHash('sha256').update(contentKey).update(JSON.stringify(identity)).update(intentIdentity).digest('hex') : '';
  if (useCache) {
    const hit = cache.get(key);
    if (hit) {
      stats.hits++;
      return hit;
    }
    const running = inFlight.get(key);
    if (running) return running;
  }
  stats.misses++;
  const work = (async () => {
    const deadline = Date.now() + (options.timeoutMs ?? settings.timeoutMs);
    const [prepared, colour] = await withDeadline(Promise.all([Promise.all(pages.map((p, i) => preparePage(p, i, deadline))), colourSetupOf(options.outputIntent)]), deadline);
    if (remaining(deadline) <= 0) throw tooLong();
    const pdf = (await workers().run({ type: 'build', input: { pages: prepared, size, identity, colour } }, remaining(deadline), options.observe)) as Uint8Array;
    if (useCache) cache.set(key, pdf);
    return pdf;
  })();
  if (!useCache) return work;
  inFlight.set(key, work);
  try {
    return await work;
  } finally {
    inFlight.delete(key);
  }
}

/** PNG or JPEG images → one print PDF (spec §5, §9), at the product's size: a card's 4 pages, a mug's or a poster's one. */
export async function buildPrintPdf(pages: Buffer[], options: BuildOptions & { format?: PrintFormat }): Promise<Uint8Array> {
  assertPagesOf(options.format ?? 'card-a5', pages.length);
  return buildArtworkPdf(pages, options);
}

/** Page 1 of a PDF → PNG, the bleed cut off (worker thread, same time limit). */
export async function renderFrontPagePng(pdf: Buffer, bleedMm: number, dpi = 150, options: { timeoutMs?: number; observe?: TaskObserver } = {}): Promise<Buffer> {
  if (pdf.subarray(0, 5).toString('latin1') !== '%PDF-') throw badRequest('The file is not a PDF');
  const input: RenderInput = { pdf: new Uint8Array(pdf), dpi, bleedMm, maxPixels: 40_000_000 };
  const out = (await workers().run({ type: 'render', input }, options.timeoutMs ?? settings.timeoutMs, options.observe)) as { png: Uint8Array };
  return Buffer.from(out.png.buffer, out.png.byteOffset, out.png.byteLength);
}
