// Preflight: what a job's files are checked for before the job may print (common/api/preflight.ts).
// The rules are small pure functions over what was read of the files (page image sizes, a PDF's
// boxes, the design document and the line's values); `createPreflight` reads the files and runs them.
import { createCanvas } from '@napi-rs/canvas';
import { PDFDocument } from 'pdf-lib';
import sharp from 'sharp';
import type { PreflightApproval, PreflightArea, PreflightFinding } from '../../../../common/api/preflight';
import {
  artworkFit,
  pageCountProblem,
  pageImagePpi,
  pageImageSizeProblem,
  pdfPageSizeProblem,
  printSizeOfFormat,
  seamAreas,
  type PrintFormat,
  type PrintSize,
} from '../../../../common/design-doc/printSize';
import { FORMATS } from '../../../../common/design-doc/types';
import { layoutText, MIN_READABLE_PT, ptToPx, resolveField, type RenderContext } from '../../../../common/design-doc/render';
import { effectivePpi, resolutionFinding, type PpiThresholds } from '../../../../common/design-doc/resolution';
import type { DesignDocument, Layer } from '../../../../common/design-doc/types';
import type { ArtworkFetcher } from '../pdf';
import { registerBundledFonts } from '../render';

const MM_PER_PT = 25.4 / 72;
/** A pregenerated PDF's page may differ from the trim by this much (rounding of points). */
const PDF_SIZE_TOLERANCE_MM = 1;
/** Text is laid out at print resolution, as the renderer draws it. */
const LAYOUT_DPI = 300;


/** Held: an error and no approval. */
export const isHeld = (findings: PreflightFinding[], approval: PreflightApproval | null) => approval === null && findings.some((f) => f.severity === 'error');

/** The first error, for the sentences that refuse a held job. */
export const firstError = (findings: PreflightFinding[]) => findings.find((f) => f.severity === 'error');

/** A job of another page count than its format's: a card's 4 pages, a mug's or a poster's one. */
export function pageCountFinding(pages: number, format: PrintFormat): PreflightFinding | undefined {
  if (!pageCountProblem(format, pages)) return undefined;
  const message = format === 'card-a5' ? `A card prints 4 pages; this job has ${pages}` : pageCountProblem(format, pages)!;
  return { severity: 'error', code: 'page-count', message, page: null };
}

/**
 * A whole-page image: its shape against the printed size (bleed, trim alone, neither), and — for
 * pages not drawn from a design document (those are drawn at print resolution; their photos are
 * checked one by one) — its resolution.
 */
export function pageImageFindings(
  index: number,
  pixels: { width: number; height: number },
  size: PrintSize,
  thresholds: PpiThresholds,
  fromDocument: boolean,
  format: PrintFormat = 'card-a5',
): PreflightFinding[] {
  const out: PreflightFinding[] = [];
  const page = index + 1;
  const fit = artworkFit(pixels.width, pixels.height, size);
  if (fit === 'trim' && size.bleedMm > 0) {
    out.push({ severity: 'warning', code: 'no-bleed', message: `Page ${page} has no bleed: it is placed at the finished size and a slightly off cut leaves a white edge`, page });
  } else if (fit === 'mismatch') {
    out.push({
      severity: 'error',
      code: 'page-proportions',
      message:
        pageImageSizeProblem(format, page, pixels, size) ??
        `Page ${page} is ${pixels.width} × ${pixels.height} px, not the shape of ${size.trimWidthMm} × ${size.trimHeightMm} mm (with or without ${size.bleedMm} mm bleed): it would print with white margins`,
      page,
    });
  }
  if (!fromDocument) {
    const r = resolutionFinding(pageImagePpi(pixels.width, pixels.height, size), thresholds, { index });
    if (r) out.push(r);
  }
  return out;
}

/** A layer's box as fractions of the trim box, clamped to the page (for the thumbnail's mark). */
export function areaOf(layer: Pick<Layer, 'x' | 'y' | 'width' | 'height'>, size: PrintSize): PreflightArea {
  const clamp = (v: number) => Math.min(1, Math.max(0, v));
  const x0 = clamp(layer.x / size.trimWidthMm);
  const y0 = clamp(layer.y / size.trimHeightMm);
  const x1 = clamp((layer.x + layer.width) / size.trimWidthMm);
  const y1 = clamp((layer.y + layer.height) / size.trimHeightMm);
  const r = (v: number) => Math.round(v * 10_000) / 10_000;
  return { x: r(x0), y: r(y0), width: r(x1 - x0), height: r(y1 - y0) };
}

const quoted = (name: string) => `“${name.trim()}”`;

/** The image each image layer draws: the customer's value for a field, else its sample, else its src. */
export function drawnImageOf(layer: Extract<Layer, { type: 'image' }>, values: Record<string, string> | undefined): string {
  return layer.field ? resolveField(layer.field, layer.src, values).value : layer.src;
}

/**
 * The photos of a design document at their placed sizes, and its personalised text as the
 * renderer lays it out (`measure`: a context with the bundled fonts). `pixelsOf` gives the pixel
 * size of the image a layer draws (undefined: it could not be read, reported elsewhere).
 */
export function documentFindings(
  doc: DesignDocument,
  values: Record<string, string> | undefined,
  pixelsOf: (layerSrc: string) => { width: number; height: number } | undefined,
  measure: Pick<RenderContext, 'font' | 'measureText'>,
  size: PrintSize,
  thresholds: PpiThresholds,
  format?: PrintFormat,
): PreflightFinding[] {
  const out: PreflightFinding[] = [];
  doc.pages.forEach((page, index) => {
    out.push(...placementFindings(page.layers, index, format ?? (doc.format as PrintFormat), size));
    for (const layer of page.layers) {
      if (layer.type === 'image') {
        const px = pixelsOf(drawnImageOf(layer, values));
        if (!px) continue;
        const ppi = effectivePpi({ pixelWidth: px.width, pixelHeight: px.height }, { widthMm: layer.width, heightMm: layer.height }, layer.fit);
        const r = resolutionFinding(ppi, thresholds, { index }, layer.name);
        if (r) out.push({ ...r, area: areaOf(layer, size) });
      } else if (layer.type === 'text' && layer.field) {
        const text = resolveField(layer.field, layer.text, values).value;
        const layout = layoutText(measure, layer, text, LAYOUT_DPI);
        const where = `Page ${index + 1} ${quoted(layer.name || layer.field.property)}`;
        if (layout.overflows) {
          out.push({ severity: 'warning', code: 'text-clipped', message: `${where} does not fit its box and is cut off`, page: index + 1, area: areaOf(layer, size) });
        } else if (layout.fontPx < ptToPx(layer.fontSize, LAYOUT_DPI) - 0.01 && layout.fontPx < ptToPx(MIN_READABLE_PT, LAYOUT_DPI)) {
          const pt = Math.round(((layout.fontPx * 72) / LAYOUT_DPI) * 10) / 10;
          out.push({
            severity: 'warning',
            code: 'text-shrunk',
            message: `${where} had to shrink to ${pt} pt to fit its box — below ${MIN_READABLE_PT} pt it is hard to read`,
            page: index + 1,
            area: areaOf(layer, size),
          });
        }
      }
    }
  });
  return out;
}

/** The layer's box (unrotated) overlaps the rectangle. */
const overlaps = (l: Pick<Layer, 'x' | 'y' | 'width' | 'height'>, r: { x: number; y: number; width: number; height: number }) =>
  l.x < r.x + r.width && l.x + l.width > r.x && l.y < r.y + r.height && l.y + l.height > r.y;

/**
 * Where a page's text sits for its product: text reaching outside the format's safe area (a cut a
 * little off takes it), and on a mug wrap text in the seam area, where the wrap's ends meet.
 */
export function placementFindings(layers: Layer[], index: number, format: PrintFormat, size: PrintSize): PreflightFinding[] {
  const out: PreflightFinding[] = [];
  const spec = FORMATS[format];
  if (!spec) return out;
  const page = index + 1;
  const safe = { x: spec.safe, y: spec.safe, width: size.trimWidthMm - 2 * spec.safe, height: size.trimHeightMm - 2 * spec.safe };
  const seams = seamAreas(format, size);
  for (const layer of layers) {
    if (layer.type !== 'text' || !(layer.field ? layer.field.sample || layer.text : layer.text).trim()) continue;
    const where = `Page ${page} ${quoted(layer.name || layer.field?.property || 'text')}`;
    if (seams.some((seam) => overlaps(layer, seam))) {
      out.push({
        severity: 'warning',
        code: 'seam-text',
        message: `${where} lies in the mug's seam area (${seams[0].width} mm at each end of the wrap): the ends meet there, so the text may be split or hidden`,
        page,
        area: areaOf(layer, size),
      });
    } else if (layer.x < safe.x - 0.01 || layer.y < safe.y - 0.01 || layer.x + layer.width > safe.x + safe.width + 0.01 || layer.y + layer.height > safe.y + safe.height + 0.01) {
      out.push({ severity: 'warning', code: 'outside-safe-area', message: `${where} reaches outside the ${spec.safe} mm safe area: a slightly off cut may take it`, page, area: areaOf(layer, size) });
    }
  }
  return out;
}

/** Personalisation the order line did not give: the design's sample was drawn in its place. */
export function missingPropertyFindings(missing: string[]): PreflightFinding[] {
  return missing.map((name) => ({
    severity: 'error' as const,
    code: 'missing-property' as const,
    message: `The order line has no ${quoted(name)}: the design's sample would print in its place`,
    page: null,
  }));
}

/** A pregenerated PDF, read as it is (never rewritten): its pages and boxes against the product's size. */
export async function pdfFindings(bytes: Uint8Array, size: PrintSize, format: PrintFormat): Promise<PreflightFinding[]> {
  let pages;
  try {
    // A file pdf-lib parses without a page tree fails only when its pages are asked for.
    pages = (await PDFDocument.load(bytes, { updateMetadata: false })).getPages();
  } catch (err) {
    return [{ severity: 'error', code: 'unreadable', message: `The pregenerated PDF cannot be read (${(err as Error).message.split('\n')[0]})`, page: null }];
  }
  const out: PreflightFinding[] = [];
  if (pageCountProblem(format, pages.length)) {
    const message = format === 'card-a5' ? `A card's PDF has 4 pages; this one has ${pages.length}` : pageCountProblem(format, pages.length)!.replace('this job has', 'this PDF has');
    out.push({ severity: 'error', code: 'pdf-page-count', message, page: null });
  }
  const mm = (pt: number) => Math.round(pt * MM_PER_PT * 10) / 10;
  pages.forEach((p, i) => {
    const page = i + 1;
    const trim = p.getTrimBox();
    const w = mm(trim.width);
    const h = mm(trim.height);
    if (Math.abs(w - size.trimWidthMm) > PDF_SIZE_TOLERANCE_MM || Math.abs(h - size.trimHeightMm) > PDF_SIZE_TOLERANCE_MM) {
      const message = pdfPageSizeProblem(format, page, { widthMm: w, heightMm: h }, size, PDF_SIZE_TOLERANCE_MM) ?? `Page ${page} of the PDF is ${w} × ${h} mm; the product is ${size.trimWidthMm} × ${size.trimHeightMm} mm`;
      out.push({ severity: 'error', code: 'pdf-page-size', message, page });
      return;
    }
    const bleed = p.getBleedBox();
    const media = p.getMediaBox();
    const room = Math.min(mm(bleed.width), mm(media.width)) - size.trimWidthMm;
    const roomY = Math.min(mm(bleed.height), mm(media.height)) - size.trimHeightMm;
    if (size.bleedMm > 0 && (room < 2 * size.bleedMm - PDF_SIZE_TOLERANCE_MM || roomY < 2 * size.bleedMm - PDF_SIZE_TOLERANCE_MM)) {
      out.push({ severity: 'warning', code: 'pdf-boxes', message: `Page ${page} of the PDF has no room for ${size.bleedMm} mm bleed around its trim: a slightly off cut leaves a white edge`, page });
    }
  });
  return out;
}

/** What a job is checked from. */
export interface PreflightSources {
  productType: string | null;
  /** What the job prints as (its page count and size). */
  format: PrintFormat;
  /** The design document the pages were drawn from (a personalised line, a design with a document); null otherwise. */
  document: DesignDocument | null;
  /** The line's personalisation values the document was drawn with (undefined: the samples). */
  values?: Record<string, string>;
  artworkUrls: string[];
  pregeneratedPDF?: string | null;
  /** Properties the render found missing (the sample was drawn). */
  missing: string[];
}

export type Preflight = (sources: PreflightSources, thresholds: PpiThresholds, opts?: { ownOrigin?: string }) => Promise<PreflightFinding[]>;

/** The file reads preflight needs: page images and photos (pixel size only, no decode) and the pregenerated PDF. */
export function createPreflight(fetchArtwork: ArtworkFetcher): Preflight {
  /** The bytes of a file; a fetch that fails (gone, a host down) is told apart from bytes that are not an image. */
  const bytesOf = (src: string, ownOrigin?: string) =>
    /^data:/i.test(src) ? Promise.resolve(Buffer.from(src.slice(src.indexOf(',') + 1), 'base64')) : fetchArtwork(src, { ownOrigin });
  async function sizeOf(bytes: Buffer): Promise<{ width: number; height: number }> {
    const meta = await sharp(bytes).metadata();
    if (!meta.width || !meta.height) throw new Error('it has no size');
    return { width: meta.width, height: meta.height };
  }
  const pixelsOf = async (src: string, ownOrigin?: string) => sizeOf(await bytesOf(src, ownOrigin));
  const problem = (err: unknown) => (err as Error)?.message?.split('\n')[0] ?? String(err);
  // A file that could not be fetched may be back later (a host down): said, not held; the print file
  // itself refuses loudly while it is missing.
  const notFetched = (what: string, err: unknown): PreflightFinding => ({
    severity: 'warning',
    code: 'unreadable',
    message: `${what} could not be fetched to check it (${problem(err)}); the print file cannot be made while it is missing`,
    page: null,
  });

  return async function preflight(sources, thresholds, opts = {}) {
    const size = printSizeOfFormat(sources.format, sources.document);
    if (sources.pregeneratedPDF && !sources.artworkUrls.length) {
      let pdf: Buffer;
      try {
        pdf = await fetchArtwork(sources.pregeneratedPDF, { ownOrigin: opts.ownOrigin });
      } catch (err) {
        return [notFetched('The pregenerated PDF', err)];
      }
      return pdfFindings(pdf, size, sources.format);
    }
    const out: PreflightFinding[] = [];
    const count = pageCountFinding(sources.artworkUrls.length, sources.format);
    if (count) out.push(count);
    const fromDocument = sources.document !== null;
    const pages = await Promise.all(
      sources.artworkUrls.map(async (url, i): Promise<PreflightFinding[]> => {
        let bytes: Buffer;
        try {
          bytes = await bytesOf(url, opts.ownOrigin);
        } catch (err) {
          return [{ ...notFetched(`Page ${i + 1}`, err), page: i + 1 }];
        }
        try {
          return pageImageFindings(i, await sizeOf(bytes), size, thresholds, fromDocument, sources.format);
        } catch (err) {
          return [{ severity: 'error', code: 'unreadable', message: `Page ${i + 1} is not an image that can be read (${problem(err)})`, page: i + 1 }];
        }
      }),
    );
    out.push(...pages.flat());
    if (sources.document) {
      const doc = sources.document;
      const srcs = new Set<string>();
      for (const page of doc.pages) for (const l of page.layers) if (l.type === 'image') srcs.add(drawnImageOf(l, sources.values));
      const sized = new Map<string, { width: number; height: number }>();
      await Promise.all(
        [...srcs].map(async (src) => {
          // An image that cannot be read was refused by the render already (or drawn as the sample).
          const px = await pixelsOf(src, opts.ownOrigin).catch(() => undefined);
          if (px) sized.set(src, px);
        }),
      );
      await registerBundledFonts();
      const measure = createCanvas(1, 1).getContext('2d');
      out.push(...documentFindings(doc, sources.values, (src) => sized.get(src), measure, size, thresholds, sources.format));
    }
    out.push(...missingPropertyFindings(sources.missing));
    return out;
  };
}
