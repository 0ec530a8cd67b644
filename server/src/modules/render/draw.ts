// The CPU part of a render: a validated document + its images (bytes) → PNG pages, drawn with
// common/design-doc/render.ts on @napi-rs/canvas. Runs inside the render worker (worker.ts);
// tests and the benchmark may call it in-process too.
import v8 from 'node:v8';
import vm from 'node:vm';
import { createCanvas, loadImage, type Image } from '@napi-rs/canvas';
import { pagePixelSize, renderPage, formatSpec, mmToPx } from '../../../../common/design-doc/render';
import type { DesignDocument } from '../../../../common/design-doc/types';
import { registerBundledFonts } from './fonts';
import { encodeRgbPng, scratchSize } from './png';

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

export async function drawPages(task: DrawTask): Promise<DrawResult> {
  await registerBundledFonts();
  const { doc, dpi } = task;
  const { width, height } = pagePixelSize(doc, dpi);
  const decoded = new Map<string, Promise<Image>>();
  const load = (src: string): Promise<Image> => {
    let p = decoded.get(src);
    if (!p) {
      const bytes = task.images[src];
      p = bytes ? loadImage(Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength)) : Promise.reject(new Error(`image not supplied: ${src.slice(0, 80)}`));
      decoded.set(src, p);
    }
    return p;
  };
  const canvas = createCanvas(width, height);
  const scratch = Buffer.allocUnsafe(scratchSize(width, height));
  const ctx = canvas.getContext('2d');
  const pages: Uint8Array[] = [];
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
    pages.push(encodeRgbPng(canvas.data(), width, height, dpi, 6, scratch));
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
  return { pages, preview, width, height, missing, failedImages };
}
