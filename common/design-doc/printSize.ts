// The printed size of a product: its trim (the finished size) and the bleed around it. The print
// file's pages, its boxes and preflight's page checks all take the size from here, and so do the
// sentences that refuse a file of the wrong page count or size.
import { formatSpec } from './render';
import { FORMATS, type DesignDocument, type Format, type ProductType } from './types';

export interface PrintSize {
  /** The finished size, mm (the PDF's TrimBox). */
  trimWidthMm: number;
  trimHeightMm: number;
  /** Around the trim on every side, mm (MediaBox = BleedBox = trim + 2 × bleed). */
  bleedMm: number;
}

/** The formats printed in house (an e-card is e-mailed): a print job's `data.format`. */
export const PRINT_FORMATS = ['card-a5', 'mug-wrap', 'poster-a3', 'poster-a2'] as const;
export type PrintFormat = (typeof PRINT_FORMATS)[number];
export const isPrintFormat = (v: unknown): v is PrintFormat => typeof v === 'string' && (PRINT_FORMATS as readonly string[]).includes(v);

/** Each printed product type's format when its design has no document to say (posters: A3). */
const DEFAULT_FORMAT: Record<Exclude<ProductType, 'E-card'>, PrintFormat> = { Card: 'card-a5', Mug: 'mug-wrap', Poster: 'poster-a3' };

/** A poster whose name, SKU or attributes say A2 ("A2", "a2-poster") is an A2 poster. */
const SAYS_A2 = /(^|[^a-z0-9])a2([^a-z0-9]|$)/i;

/**
 * A design's format: its editor document's, else its product type's — a poster is A3 unless the
 * design says A2 (`says`: its name, SKU and attribute values). Neither: a card (the spec's A5).
 */
export function formatOf(productType: string | null | undefined, document?: Pick<DesignDocument, 'format'> | null, says: ReadonlyArray<string | null | undefined> = []): PrintFormat {
  if (document && isPrintFormat(document.format)) return document.format;
  if (productType === 'Poster' && says.some((s) => typeof s === 'string' && SAYS_A2.test(s))) return 'poster-a2';
  return DEFAULT_FORMAT[productType as keyof typeof DEFAULT_FORMAT] ?? 'card-a5';
}

/** The product type a format prints. */
export const productTypeOfFormat = (format: PrintFormat): ProductType => FORMATS[format].productType;

/** The size of a format; the design's own bleed when its document is of that format and sets one. */
export function printSizeOfFormat(format: PrintFormat, document?: Pick<DesignDocument, 'format' | 'bleed'> | null): PrintSize {
  const spec = document && document.format === format ? formatSpec(document) : FORMATS[format];
  return { trimWidthMm: spec.width, trimHeightMm: spec.height, bleedMm: spec.bleed };
}

/**
 * The size a job prints at: its design's document (format and the design's own bleed) when it has
 * one, else its product type's format; a job without either prints as a card (the spec's A5).
 */
export function printSizeOf(productType: string | null | undefined, document?: Pick<DesignDocument, 'format' | 'bleed'> | null): PrintSize {
  if (document && FORMATS[document.format as Format]) {
    const spec = formatSpec(document);
    return { trimWidthMm: spec.width, trimHeightMm: spec.height, bleedMm: spec.bleed };
  }
  return printSizeOfFormat(formatOf(productType));
}

// ---------------------------------------------------------------------------------------------
// Page count and size: what each product needs, and the sentence when a file has something else.

/** The spec's answers for a card (§5). */
export const PDF_EMPTY = 'PDF Empty';
export const ONLY_4_PAGES = 'Only support 4 pages A5';

/** How a product is named in a sentence, and what its pages are. */
const PRODUCT_WORDS: Record<PrintFormat, { product: string; pages: string }> = {
  'card-a5': { product: 'An A5 card', pages: '4 pages' },
  'mug-wrap': { product: 'A mug', pages: 'one wrap page' },
  'poster-a3': { product: 'An A3 poster', pages: 'one page' },
  'poster-a2': { product: 'An A2 poster', pages: 'one page' },
};

/** Pages a format prints. */
export const pagesOfFormat = (format: PrintFormat): number => FORMATS[format].pageNames.length;

const mm = (v: number) => String(Math.round(v * 10) / 10);

/** "A mug prints one wrap page of 200 × 90 mm (204 × 94 mm with its 2 mm bleed)". */
export function formatNeeds(format: PrintFormat, size: PrintSize = printSizeOfFormat(format)): string {
  const { product, pages } = PRODUCT_WORDS[format];
  const withBleed = size.bleedMm > 0 ? ` (${mm(size.trimWidthMm + 2 * size.bleedMm)} × ${mm(size.trimHeightMm + 2 * size.bleedMm)} mm with its ${mm(size.bleedMm)} mm bleed)` : '';
  return `${product} prints ${pages} of ${mm(size.trimWidthMm)} × ${mm(size.trimHeightMm)} mm${withBleed}`;
}

/** What is wrong with `count` pages for the format (null: right). A card keeps the spec's answers. */
export function pageCountProblem(format: PrintFormat, count: number): string | null {
  const needed = pagesOfFormat(format);
  if (count === needed) return null;
  if (format === 'card-a5') return count === 0 ? PDF_EMPTY : ONLY_4_PAGES;
  return `${formatNeeds(format)}; this job has ${count === 0 ? 'no pages' : `${count} pages`}`;
}

/** A whole-page image that is neither the trim's shape nor the trim + bleed's, for a product other than a card (cards place it inside the trim). */
export function pageImageSizeProblem(format: PrintFormat, page: number, pixels: { width: number; height: number }, size: PrintSize): string | null {
  if (format === 'card-a5' || artworkFit(pixels.width, pixels.height, size) !== 'mismatch') return null;
  return `${formatNeeds(format, size)}; page ${page} is ${pixels.width} × ${pixels.height} px, neither shape`;
}

/** A PDF page's trim of another size than the product (within `toleranceMm`), for a product other than a card. */
export function pdfPageSizeProblem(format: PrintFormat, page: number, trim: { widthMm: number; heightMm: number }, size: PrintSize, toleranceMm = 1): string | null {
  if (format === 'card-a5') return null;
  if (Math.abs(trim.widthMm - size.trimWidthMm) <= toleranceMm && Math.abs(trim.heightMm - size.trimHeightMm) <= toleranceMm) return null;
  return `${formatNeeds(format, size)}; page ${page} of the PDF is ${mm(trim.widthMm)} × ${mm(trim.heightMm)} mm`;
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

// ---------------------------------------------------------------------------------------------
// Where text may go: the safe area per format, and a mug wrap's seam.

/** A mug wrap's two short ends meet at the seam (under the handle): text within this much of either end is split or hidden. */
export const MUG_SEAM_MM = 10;

/** The seam areas of a format, in trim millimetres from the top-left (none for flat products). */
export function seamAreas(format: PrintFormat, size: PrintSize): Array<{ x: number; y: number; width: number; height: number }> {
  if (format !== 'mug-wrap') return [];
  return [
    { x: 0, y: 0, width: MUG_SEAM_MM, height: size.trimHeightMm },
    { x: size.trimWidthMm - MUG_SEAM_MM, y: 0, width: MUG_SEAM_MM, height: size.trimHeightMm },
  ];
}
