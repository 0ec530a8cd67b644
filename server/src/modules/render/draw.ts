// The CPU part of a render: a validated document + its images (bytes) → PNG pages, drawn with
// common/design-doc/render.ts on @napi-rs/canvas. Runs inside the render worker (worker.ts);
// tests and the benchmark may call it in-process too.
import crypto from 'node:crypto';
import v8 from 'node:v8';
import vm from 'node:vm';
import { createCanvas, loadImage, type Image } from '@napi-rs/canvas';
import { pagePixelSize, renderPage, formatSpec, mmToPx } from '../../../../common/design-doc/render';
import type { DesignDocument } from '../../../../common/design-doc/types';
import { registerBundledFonts } from './fonts';
import { encodeRgbPng, encodeRgbPngSoon, scratchSize } from './png';

export interface DrawTask {
  doc: DesignDocument;
  dpi: number;
  values?: Record<string, string>;
  /** Page indexes to draw, in output order. */
  pages: number[];
  /** Image bytes by the src the document (or a field value) names. */
  images: Record<string, Uint8Array>;
  /** Also make a preview of the first drawn page (trim box, this many pixels wide). */
  previewWidth?: number;
}

export interface DrawResult {
  pages: Uint8Array[];
  preview?: Uint8Array;
  width: number;
  height: number;
  missing: string[];
  failedImages: string[];
}

let gc: (() => void) | null | undefined;

/**
 * canvas.data() hands out its pixels (18.5 MB a card page) in memory V8 does not count, freed only
 * by a finaliser after a garbage collection: without one, a thread that renders page after page
 * grows by a page a render (measured: > 2 GB in the benchmark). So after each page: collect, and
 * let the finalisers run.
 */
async function releasePixels(): Promise<void> {
  if (gc === undefined) {
    try {
      v8.setFlagsFromString('--expose-gc');
      gc = vm.runInNewContext('gc') as () => void;
    } catch {
      gc = null;
    }
  }
  gc?.();
  await new Promise((resolve) => setImmediate(resolve));
}

/**
 * Decoded images kept between renders, by their bytes' hash: a design's artwork (and a sample
 * photo) is the same on every card of the design, and decoding it again for each card cost more
 * than drawing it. Bounded by pixels (decoded pixels live outside the worker's capped heap),
 * least recently used dropped first.
 */
export const DECODED_CACHE_PIXELS = 16_000_000;
const decodedCache = new Map<string, { image: Image; pixels: number }>();
let decodedCachePixels = 0;

async function decodeImage(bytes: Uint8Array): Promise<Image> {
  const key = crypto.createHash('sha256').update(bytes).digest('base64');
  const hit = decodedCache.get(key);
  if (hit) {
    decodedCache.delete(key);
    decodedCache.set(key, hit);
    return hit.image;
  }
  const image = await loadImage(Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength));
  const pixels = image.width * image.height;
  if (pixels <= DECODED_CACHE_PIXELS / 2 && !decodedCache.has(key)) {
    decodedCache.set(key, { image, pixels });
    decodedCachePixels += pixels;
    for (const [k, v] of decodedCache) {
      if (decodedCachePixels <= DECODED_CACHE_PIXELS) break;
      decodedCache.delete(k);
      decodedCachePixels -= v.pixels;
    }
  }
  return image;
}

export async function drawPages(task: DrawTask): Promise<DrawResult> {
  await registerBundledFonts();
  const { doc, dpi } = task;
  const { width, height } = pagePixelSize(doc, dpi);
  const decoded = new Map<string, Promise<Image>>();
  const load = (src: string): Promise<Image> => {
    let p = decoded.get(src);
    if (!p) {
      const bytes = task.images[src];
      p = bytes ? decodeImage(bytes) : Promise.reject(new Error(`image not supplied: ${src.slice(0, 80)}`));
      decoded.set(src, p);
    }
    return p;
  };
  const canvas = createCanvas(width, height);
  // A page is compressed on the thread pool while the next one is drawn (deflate of a page with a
  // photo took longer than drawing it); two pages at most, each in its own scratch buffer.
  const scratch = [Buffer.allocUnsafe(scratchSize(width, height)), Buffer.allocUnsafe(scratchSize(width, height))];
  const ctx = canvas.getContext('2d');
  const encoded: Array<Promise<Buffer>> = [];
  const missing: string[] = [];
  const failedImages: string[] = [];
  let preview: Uint8Array | undefined;
  for (const index of task.pages) {
    ctx.setTransform(1, 0, 0, 1, 0, 0);
    ctx.globalAlpha = 1;
    // Paper is white: a transparent background prints white, and the PNG is opaque RGB.
    ctx.fillStyle = '#ffffff';
    ctx.fillRect(0, 0, width, height);
    const r = await renderPage(ctx, doc, index, { dpi, loadImage: load, values: task.values });
    for (const m of r.missing) if (!missing.some((x) => x.toLowerCase() === m.toLowerCase())) missing.push(m);
    for (const f of r.failedImages) if (!failedImages.includes(f)) failedImages.push(f);
    const n = encoded.length;
    if (n >= 2) await encoded[n - 2];
    const page = encodeRgbPngSoon(canvas.data(), width, height, dpi, scratch[n % 2]);
    // Settled by Promise.all below; a rejection must not go unhandled meanwhile.
    page.catch(() => {});
    encoded.push(page);
    await releasePixels();
    if (task.previewWidth && !preview) {
      const f = formatSpec(doc);
      const b = mmToPx(f.bleed, dpi);
      const tw = mmToPx(f.width, dpi);
      const th = mmToPx(f.height, dpi);
      const pw = Math.max(1, Math.round(task.previewWidth));
      const ph = Math.max(1, Math.round((pw * th) / tw));
      const small = createCanvas(pw, ph);
      const sctx = small.getContext('2d');
      sctx.imageSmoothingEnabled = true;
      sctx.imageSmoothingQuality = 'high';
      sctx.drawImage(canvas, b, b, tw, th, 0, 0, pw, ph);
      preview = encodeRgbPng(small.data(), pw, ph);
      await releasePixels();
    }
  }
  const pages: Uint8Array[] = await Promise.all(encoded);
  return { pages, preview, width, height, missing, failedImages };
}
