// Server rendering of design documents: validate, bound, fetch the images (artwork
// fetcher rules: our /files/…, data:image URLs, allowed hosts only), draw in a worker thread under
// a time limit, and store the page PNGs as files. Personalisation values come from an order
// line's properties; a missing value falls back to the field's sample and is reported in `missing`.
import sharp from 'sharp';
import { fieldProperties, pagePixelSize, resolveField } from '../../../../common/design-doc/render';
import type { DesignDocument } from '../../../../common/design-doc/types';
import { validateDocument } from '../../../../common/design-doc/validate';
import type { Deps } from '../../deps';
import { HttpError, badRequest } from '../../http/errors';
import type { Design } from '../designs';
import { storeGeneratedFile } from '../designs';
import { artworkBytesProblem, type ArtworkFetcher } from '../pdf';
import type { FileStore } from '../uploads';
import type { DrawResult, DrawTask } from './draw';
import { assertBundledFonts } from './fonts';
import { createRenderPool, type RenderPool } from './pool';
import { fieldError, fieldSentence } from '../../http/fieldErrors';
import { lazyPool } from '../../lib/threadPool';

export interface RenderSettings {
  /** Time limit of drawing one request (all its pages). */
  timeoutMs: number;
  /** Pixels of all pages of one request (card-a5 at 300 dpi: 4 × 1819 × 2551 ≈ 18.6 M). */
  maxPixels: number;
  /** Pixels of one page (poster-a2 at 300 dpi ≈ 35.7 M). */
  maxPagePixels: number;
  /** Layers drawn in one request. */
  maxLayers: number;
  /** Images drawn in one request, and their decoded pixels in total. */
  maxImages: number;
  maxImagePixels: number;
}

export const DEFAULT_RENDER_SETTINGS: RenderSettings = {
  timeoutMs: 30_000,
  maxPixels: 80_000_000,
  maxPagePixels: 40_000_000,
  maxLayers: 400,
  maxImages: 40,
  maxImagePixels: 60_000_000,
};

/** A design document that cannot be drawn: the sentence names the part, `field` keeps its key (`document.pages.0…`). */
export class DocumentProblem extends HttpError {
  constructor(field: string, problem: string) {
    const message = fieldSentence(field, problem);
    super(400, message, [{ field, message }], undefined, field);
    this.name = 'DocumentProblem';
  }
}

export const DPI_RANGE = { min: 36, max: 600 } as const;
export const PREVIEW_WIDTH = 600;

const settings: RenderSettings = { ...DEFAULT_RENDER_SETTINGS };

/** The app sets the time limit from config; tests and the benchmark change the limits. */
export function configureRender(next: Partial<RenderSettings>): void {
  Object.assign(settings, next);
}

export const renderSettings = (): Readonly<RenderSettings> => ({ ...settings });

const pool = lazyPool(createRenderPool, 'Rendering stopped: the server is shutting down');
const workers = (): RenderPool => pool.get();

/** warm: the workers started ahead of the first render; stop (shutdown): for good, a render asked for from then on answers 503. */
export const { warm: warmRenderWorkers, close: closeRenderWorkers, stop: stopRenderWorkers } = pool;

/** Line item properties ([{name, value}]) → values by name (the first non-blank value of a name wins). */
export function valuesOf(properties: Array<{ name: string; value: unknown }> | undefined): Record<string, string> {
  const out: Record<string, string> = {};
  for (const p of properties ?? []) {
    if (!p || typeof p.name !== 'string') continue;
    const value = typeof p.value === 'string' ? p.value : p.value === null || p.value === undefined ? '' : String(p.value);
    if (!(p.name in out) || out[p.name].trim() === '') out[p.name] = value;
  }
  return out;
}

/** The stored document of a design, or undefined. */
export const documentOf = (design: Pick<Design, 'data'>): unknown => (design.data.document === null ? undefined : design.data.document);

/** A design is rendered per order line when it is customizable and has a document. */
export const isRenderable = (design: Pick<Design, 'isCustomizable' | 'data'>) => design.isCustomizable && documentOf(design) !== undefined;

export interface RenderOptions {
  dpi?: number;
  values?: Record<string, string>;
  /** Page indexes (0-based); default every page. */
  pages?: number[];
  /** Preview width in px (of the first rendered page's trim box); 0 for none. */
  previewWidth?: number;
  /** The origin the request came in on (its /files/… URLs are ours). */
  ownOrigin?: string;
  timeoutMs?: number;
}

export interface RenderedPages {
  pages: Buffer[];
  preview?: Buffer;
  width: number;
  height: number;
  dpi: number;
  /** Properties with no usable value: the sample was drawn instead. */
  missing: string[];
}

export interface StoredRender {
  images: string[];
  preview: string | null;
  missing: string[];
}

const DATA_URL = /^data:image\/(png|jpeg|webp|gif);base64,/i;

export function renderService(deps: Deps, store: FileStore, fetchArtwork: ArtworkFetcher) {
  // A font missing on disk is a startup error, never a CDN fetch.
  assertBundledFonts();
  const { config } = deps;
  configureRender({ timeoutMs: config.artwork.pdfTimeoutMs });

  /** The document, validated; 400 names the bad field ("document.pages.0.layers.2.fontSize: …"). */
  function parseDocument(value: unknown, where = 'document'): DesignDocument {
    if (value === undefined || value === null) throw fieldError(where, 'is required');
    const r = validateDocument(value);
    if (!r.ok) throw new DocumentProblem(`${where}.${r.path}`, r.message);
    return r.doc;
  }

  function checkBounds(doc: DesignDocument, dpi: number, pages: number[]) {
    if (!Number.isFinite(dpi) || dpi < DPI_RANGE.min || dpi > DPI_RANGE.max) throw fieldError('dpi', `must be between ${DPI_RANGE.min} and ${DPI_RANGE.max}`);
    for (const p of pages) if (!Number.isInteger(p) || p < 0 || p >= doc.pages.length) throw fieldError('page', `must be at most ${doc.pages.length} (the document has ${doc.pages.length} page${doc.pages.length === 1 ? '' : 's'})`);
    const { width, height } = pagePixelSize(doc, dpi);
    if (width * height > settings.maxPagePixels) throw new HttpError(413, `The page is too large to render at ${dpi} dpi (${width} × ${height} px; at most ${settings.maxPagePixels} px a page)`);
    if (width * height * pages.length > settings.maxPixels) throw new HttpError(413, `The document is too large to render at ${dpi} dpi (${pages.length} pages of ${width} × ${height} px; at most ${settings.maxPixels} px in all)`);
    const layers = pages.reduce((n, p) => n + doc.pages[p].layers.length, 0);
    if (layers > settings.maxLayers) throw new HttpError(413, `The document has too many layers to render (${layers}; at most ${settings.maxLayers})`);
    const images = pages.reduce((n, p) => n + doc.pages[p].layers.filter((l) => l.type === 'image').length, 0);
    if (images > settings.maxImages) throw new HttpError(413, `The document has too many images to render (${images}; at most ${settings.maxImages})`);
  }

  function decodeDataUrl(src: string): Buffer {
    const m = DATA_URL.exec(src);
    if (!m) throw badRequest('only data:image/png, jpeg, webp and gif base64 URLs are accepted');
    const payload = src.slice(m[0].length).replace(/\s+/g, '');
    if (!/^[A-Za-z0-9+/]*={0,2}$/.test(payload)) throw badRequest('the data URL is not valid base64');
    const bytes = Buffer.from(payload, 'base64');
    if (!bytes.length) throw badRequest('the data URL is empty');
    if (bytes.length > config.uploads.maxBytes) throw badRequest(`the image is larger than ${config.uploads.maxBytes} bytes`);
    return bytes;
  }

  /** Bytes of one image, checked to be a PNG/JPEG/WebP/GIF that decodes within the pixel limit. */
  async function loadOne(src: string, ownOrigin: string | undefined): Promise<{ bytes: Buffer; pixels: number }> {
    const bytes = /^data:/i.test(src) ? decodeDataUrl(src) : await fetchArtwork(src, { ownOrigin });
    // Inline images get the fetcher's checks too (truncated, pixel floods, markup posing as an image).
    const problem = /^data:/i.test(src) ? await artworkBytesProblem(bytes) : null;
    if (problem) throw badRequest(`the image cannot be used: ${problem}`);
    let meta;
    try {
      meta = await sharp(bytes, { limitInputPixels: settings.maxImagePixels }).metadata();
    } catch (err) {
      throw badRequest(`the image could not be read (${(err as Error).message.split('\n')[0]})`);
    }
    if (!['png', 'jpeg', 'webp', 'gif'].includes(meta.format ?? '')) throw badRequest('the image must be a PNG, JPEG, WebP or GIF');
    return { bytes, pixels: (meta.width ?? 0) * (meta.height ?? 0) };
  }

  /**
   * Which images the pages draw, fetched. A customer's image value that cannot be used (not
   * allowed, not found, not an image) is dropped: the field falls back to its sample and is
   * reported missing. A design's own image that cannot be used is a 400 naming its layer.
   */
  async function collectImages(doc: DesignDocument, pages: number[], values: Record<string, string> | undefined, ownOrigin?: string) {
    const images: Record<string, Uint8Array> = {};
    const unusable = new Set<string>();
    let vals = values;
    let pixels = 0;
    const cache = new Map<string, Promise<{ bytes: Buffer; pixels: number }>>();
    const load = (src: string) => {
      let p = cache.get(src);
      if (!p) cache.set(src, (p = loadOne(src, ownOrigin)));
      return p;
    };
    const add = (src: string, r: { bytes: Buffer; pixels: number }) => {
      if (images[src]) return;
      pixels += r.pixels;
      if (pixels > settings.maxImagePixels) throw new HttpError(413, `The document's images are too large to render (more than ${settings.maxImagePixels} px in all)`);
      images[src] = new Uint8Array(r.bytes.buffer, r.bytes.byteOffset, r.bytes.byteLength);
    };
    const jobs: Array<Promise<void>> = [];
    for (const p of pages) {
      doc.pages[p].layers.forEach((layer, li) => {
        if (layer.type !== 'image') return;
        const where = `document.pages.${p}.layers.${li}`;
        jobs.push(
          (async () => {
            if (layer.field) {
              const chosen = resolveField(layer.field, layer.src, vals);
              if (!chosen.missing && vals && chosen.value !== (layer.field.sample || layer.src)) {
                try {
                  add(chosen.value, await load(chosen.value));
                  return;
                } catch (err) {
                  if (!(err instanceof HttpError) || err.status >= 500) throw err;
                  // The customer's image is unusable: draw the sample, flag the line.
                  unusable.add(layer.field.property);
                  const drop = layer.field.property.trim().toLowerCase();
                  vals = Object.fromEntries(Object.entries(vals).filter(([k]) => k.trim().toLowerCase() !== drop));
                  deps.log.warn({ property: layer.field.property, err: err.message }, 'personalised image could not be used; drawing the sample');
                }
              }
              const fallback = layer.field.sample && layer.field.sample.trim() !== '' ? layer.field.sample : layer.src;
              try {
                add(fallback, await load(fallback));
              } catch (err) {
                if (err instanceof HttpError && err.status === 400) throw new DocumentProblem(`${where}.field.sample`, `cannot be used: ${err.message}`);
                throw err;
              }
              return;
            }
            try {
              add(layer.src, await load(layer.src));
            } catch (err) {
              if (err instanceof HttpError && err.status === 400) throw new DocumentProblem(`${where}.src`, `cannot be used: ${err.message}`);
              throw err;
            }
          })(),
        );
      });
    }
    // Every load settles before the first error is answered (no stray work after the answer).
    const settled = await Promise.allSettled(jobs);
    const failed = settled.find((s): s is PromiseRejectedResult => s.status === 'rejected');
    if (failed) throw failed.reason;
    return { images, values: vals, unusable: [...unusable] };
  }

  /** Renders pages of a document (validated here) to print-resolution PNGs, plus a preview. */
  async function renderDocument(input: unknown, opts: RenderOptions = {}): Promise<RenderedPages> {
    const doc = parseDocument(input);
    const dpi = opts.dpi ?? 300;
    const pages = opts.pages ?? doc.pages.map((_, i) => i);
    checkBounds(doc, dpi, pages);
    const loaded = await collectImages(doc, pages, opts.values, opts.ownOrigin);
    const task: DrawTask = { doc, dpi, values: loaded.values, pages, images: loaded.images, previewWidth: opts.previewWidth ?? PREVIEW_WIDTH };
    const result: DrawResult = await workers().run(task, opts.timeoutMs ?? settings.timeoutMs, deps.metrics?.renderTask);
    if (result.failedImages.length) throw badRequest(`An image could not be drawn: ${result.failedImages.map((s) => (s.length > 80 ? `${s.slice(0, 77)}…` : s)).join(', ')}`);
    const missing = [...result.missing];
    for (const u of loaded.unusable) if (!missing.some((m) => m.toLowerCase() === u.toLowerCase())) missing.push(u);
    const buf = (u: Uint8Array) => Buffer.from(u.buffer, u.byteOffset, u.byteLength);
    return { pages: result.pages.map(buf), preview: result.preview ? buf(result.preview) : undefined, width: result.width, height: result.height, dpi, missing };
  }

  /** Renders and stores the pages (and preview) as files under unguessable keys, with uploads rows. */
  async function renderAndStore(owner: { userId: number | null; siteId: number | null }, input: unknown, opts: RenderOptions & { name?: string } = {}): Promise<StoredRender> {
    const r = await renderDocument(input, opts);
    const slug = (opts.name ?? 'design').toLowerCase().replace(/[^a-z0-9]+/g, '-').replace(/^-|-$/g, '').slice(0, 40) || 'design';
    const pageNos = opts.pages ?? r.pages.map((_, i) => i);
    const images: string[] = [];
    for (const [i, png] of r.pages.entries()) images.push(await storeGeneratedFile(deps, store, owner, `renders/${slug}-page-${pageNos[i] + 1}.png`, 'image/png', png));
    const preview = r.preview ? await storeGeneratedFile(deps, store, owner, `renders/${slug}-preview.png`, 'image/png', r.preview) : null;
    return { images, preview, missing: r.missing };
  }

  /**
   * An order line's pages: the design's document drawn with the line's properties. `pages` are
   * 0-based indexes (default all). 400 when the design has no valid document.
   */
  async function renderLine(
    owner: { userId: number | null; siteId: number | null },
    design: Pick<Design, 'id' | 'name' | 'data'>,
    properties: Array<{ name: string; value: unknown }> | undefined,
    opts: { pages?: number[]; ownOrigin?: string } = {},
  ): Promise<StoredRender> {
    const doc = documentOf(design);
    if (doc === undefined) throw badRequest(`The design "${design.name}" has no document to render`);
    try {
      return await renderAndStore(owner, doc, { values: valuesOf(properties), pages: opts.pages, ownOrigin: opts.ownOrigin, name: design.name });
    } catch (err) {
      // Name the design whose document is wrong.
      if (err instanceof DocumentProblem) throw new HttpError(400, `The design "${design.name}" (id ${design.id}): ${err.message}`, err.details, undefined, err.field);
      throw err;
    }
  }

  return { parseDocument, renderDocument, renderAndStore, renderLine, isRenderable, fieldProperties };
}

export type RenderService = ReturnType<typeof renderService>;
