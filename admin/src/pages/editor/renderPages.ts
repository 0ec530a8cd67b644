// Drawing design pages in the browser with the shared renderer (common/design-doc/render.ts),
// so the editor's canvas, its saved artwork and the server's render agree.
import { formatSpec, pagePixelSize, renderPage, type RenderResult } from '../../../../common/design-doc/render';
import type { DesignDocument } from '../../../../common/design-doc/types';
import { ensureFonts } from './fonts';

/** Print resolution of the saved artwork. */
export const PRINT_DPI = 300;
/** Width of the design's preview image (page 1, trimmed), px. */
export const PREVIEW_WIDTH = 600;

const images = new Map<string, Promise<HTMLImageElement>>();

/** Loads (once) an image for drawing: same-origin /files/… or data: URLs; CORS-enabled so the canvas stays exportable. */
export function loadImage(src: string): Promise<HTMLImageElement> {
  let promise = images.get(src);
  if (!promise) {
    promise = new Promise<HTMLImageElement>((resolve, reject) => {
      const img = new Image();
      img.crossOrigin = 'anonymous';
      img.decoding = 'async';
      img.onload = () => resolve(img);
      img.onerror = () => reject(new Error(`The image ${src.startsWith('data:') ? '(embedded)' : src} could not be loaded`));
      img.src = src;
    });
    images.set(src, promise);
    promise.catch(() => images.delete(src));
  }
  return promise;
}

export function createCanvas(width: number, height: number): HTMLCanvasElement {
  const canvas = document.createElement('canvas');
  canvas.width = Math.max(1, Math.round(width));
  canvas.height = Math.max(1, Math.round(height));
  return canvas;
}

/** Draws a page (with its bleed) on a new canvas at `dpi`; null where the browser has no 2D canvas. */
export async function renderPageCanvas(
  doc: DesignDocument,
  pageIndex: number,
  dpi: number,
  values?: Record<string, string>,
): Promise<{ canvas: HTMLCanvasElement; result: RenderResult } | null> {
  await ensureFonts(doc);
  const size = pagePixelSize(doc, dpi);
  const canvas = createCanvas(size.width, size.height);
  const ctx = canvas.getContext('2d');
  if (!ctx) return null;
  const result = await renderPage<HTMLImageElement>(ctx, doc, pageIndex, { dpi, loadImage, values });
  return { canvas, result };
}

export function canvasToBlob(canvas: HTMLCanvasElement, type: 'image/png' | 'image/jpeg' = 'image/png', quality?: number): Promise<Blob> {
  return new Promise((resolve, reject) => {
    try {
      canvas.toBlob((blob) => (blob ? resolve(blob) : reject(new Error('The page image could not be made'))), type, quality);
    } catch (error) {
      // A canvas tainted by a foreign image cannot be exported.
      reject(error instanceof Error ? error : new Error(String(error)));
    }
  });
}

function release(canvas: HTMLCanvasElement) {
  canvas.width = 0;
  canvas.height = 0;
}

function failedImagesError(result: RenderResult, pageName: string): Error | null {
  if (!result.failedImages.length) return null;
  return new Error(`${pageName}: an image could not be loaded (${result.failedImages[0].startsWith('data:') ? 'embedded image' : result.failedImages[0]})`);
}

/** Page `pageIndex` at print resolution (300 dpi, with bleed) as PNG. */
export async function renderPrintPage(doc: DesignDocument, pageIndex: number): Promise<Blob> {
  const rendered = await renderPageCanvas(doc, pageIndex, PRINT_DPI);
  if (!rendered) throw new Error('This browser cannot draw the design (no canvas support)');
  try {
    const problem = failedImagesError(rendered.result, doc.pages[pageIndex]?.name ?? `Page ${pageIndex + 1}`);
    if (problem) throw problem;
    return await canvasToBlob(rendered.canvas, 'image/png');
  } finally {
    release(rendered.canvas);
  }
}

/** The preview: page 1 with the bleed trimmed off, PREVIEW_WIDTH px wide, PNG. */
export async function renderPreview(doc: DesignDocument, width = PREVIEW_WIDTH): Promise<Blob> {
  const spec = formatSpec(doc);
  const dpi = (width / spec.width) * 25.4;
  const rendered = await renderPageCanvas(doc, 0, dpi);
  if (!rendered) throw new Error('This browser cannot draw the design (no canvas support)');
  const bleedPx = (spec.bleed * dpi) / 25.4;
  const out = createCanvas(width, Math.round((spec.height * dpi) / 25.4));
  try {
    const ctx = out.getContext('2d');
    if (!ctx) throw new Error('This browser cannot draw the design (no canvas support)');
    ctx.drawImage(rendered.canvas, -bleedPx, -bleedPx);
    return await canvasToBlob(out, 'image/png');
  } finally {
    release(rendered.canvas);
    release(out);
  }
}
