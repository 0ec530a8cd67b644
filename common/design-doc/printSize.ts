// The printed size of a product: its trim (the finished size) and the bleed around it. The print
// file's pages, its boxes and preflight's page checks all take the size from here.
import { formatSpec } from './render';
import { FORMATS, type DesignDocument, type Format, type ProductType } from './types';

export interface PrintSize {
  /** The finished size, mm (the PDF's TrimBox). */
  trimWidthMm: number;
  trimHeightMm: number;
  /** Around the trim on every side, mm (MediaBox = BleedBox = trim + 2 × bleed). */
  bleedMm: number;
}

/** Each printed product type's format when its design has no document to say (posters: A3). */
const DEFAULT_FORMAT: Record<Exclude<ProductType, 'E-card'>, Format> = { Card: 'card-a5', Mug: 'mug-wrap', Poster: 'poster-a3' };

/**
 * The size a job prints at: its design's document (format and the design's own bleed) when it has
 * one, else its product type's format; a job without either prints as a card (the spec's A5).
 */
export function printSizeOf(productType: string | null | undefined, document?: Pick<DesignDocument, 'format' | 'bleed'> | null): PrintSize {
  const spec = document && FORMATS[document.format] ? formatSpec(document) : FORMATS[DEFAULT_FORMAT[productType as keyof typeof DEFAULT_FORMAT] ?? 'card-a5'];
  return { trimWidthMm: spec.width, trimHeightMm: spec.height, bleedMm: spec.bleed };
}

/** How a page image fits the size: it carries the bleed, it is the trim alone, or neither. */
export type ArtworkFit = 'bleed' | 'trim' | 'mismatch';

/** Proportions within 0.5 % count as the same (rounding to whole pixels at any resolution). */
const SAME_SHAPE = 0.005;

export function artworkFit(pixelWidth: number, pixelHeight: number, size: PrintSize): ArtworkFit {
  if (!(pixelWidth > 0 && pixelHeight > 0)) return 'mismatch';
  const ratio = pixelWidth / pixelHeight;
  const close = (w: number, h: number) => Math.abs(ratio / (w / h) - 1) < SAME_SHAPE;
  const b = size.bleedMm;
  if (b > 0 && close(size.trimWidthMm + 2 * b, size.trimHeightMm + 2 * b)) return 'bleed';
  if (close(size.trimWidthMm, size.trimHeightMm)) return 'trim';
  return 'mismatch';
}

/** The resolution of a whole-page image at the size it prints (its bleed, if any, counted in). */
export function pageImagePpi(pixelWidth: number, pixelHeight: number, size: PrintSize): number {
  const fit = artworkFit(pixelWidth, pixelHeight, size);
  const b = fit === 'bleed' ? size.bleedMm : 0;
  const wMm = size.trimWidthMm + 2 * b;
  const hMm = size.trimHeightMm + 2 * b;
  // A page that is neither shape is placed inside the trim, keeping its proportions (contain).
  const mmPerPixel = Math.max(wMm / pixelWidth, hMm / pixelHeight);
  return 25.4 / mmPerPixel;
}
