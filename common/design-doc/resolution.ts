// Whether a photo has enough pixels for the size it is printed at. One rule, used by the editor
// (live, while a photo is scaled) and by preflight (when a job is made), so both say the same thing.
import type { ImageLayer } from './types';

const MM_PER_INCH = 25.4;

/** Below `warning` ppi a photo may look soft; below `error` it will, and the job is held. Sites override these. */
export interface PpiThresholds {
  warning: number;
  error: number;
}

/** What most printers ask for (300 ppi) less a margin few eyes notice; 150 ppi is visibly soft at reading distance. */
export const DEFAULT_PPI_THRESHOLDS: Readonly<PpiThresholds> = Object.freeze({ warning: 250, error: 150 });

export interface ResolutionFinding {
  severity: 'error' | 'warning';
  code: 'low-resolution';
  message: string;
  /** The page's number as people count it (1 = first page), null when not known. */
  page: number | null;
}

/**
 * The photo's effective resolution at its placed size, pixels per inch: the lower of the two axes.
 *
 * The renderer scales a photo uniformly (common/design-doc/render.ts, drawImageLayer), with
 * s = mm per source pixel:
 * - `cover` (the default): s = max(W / iw, H / ih); the box shows the centred W/s × H/s source
 *   pixels (the rest is cropped away), so ppi = (W/s) / (W / 25.4) = 25.4 / s on both axes,
 *   i.e. 25.4 × min(iw / W, ih / H).
 * - `contain`: s = min(W / iw, H / ih); all iw × ih pixels are drawn over iw·s × ih·s mm, so
 *   ppi = 25.4 / s = 25.4 × max(iw / W, ih / H).
 * Each axis is computed on its own and the lower taken, so the answer stays right should a
 * placement ever stretch one axis more than the other.
 * Rotation does not change it (the photo turns with its box). Returns 0 for an empty image or box.
 */
export function effectivePpi(
  image: { pixelWidth: number; pixelHeight: number },
  placed: { widthMm: number; heightMm: number },
  fit: ImageLayer['fit'] = 'cover',
): number {
  const { pixelWidth: iw, pixelHeight: ih } = image;
  const { widthMm: w, heightMm: h } = placed;
  if (!(iw > 0 && ih > 0 && w > 0 && h > 0)) return 0;
  const mmPerPixel = fit === 'contain' ? Math.min(w / iw, h / ih) : Math.max(w / iw, h / ih);
  // Source pixels covering the box on each axis, and the box's printed size of them in mm.
  const shownX = fit === 'contain' ? iw : w / mmPerPixel;
  const shownY = fit === 'contain' ? ih : h / mmPerPixel;
  const printedX = fit === 'contain' ? iw * mmPerPixel : w;
  const printedY = fit === 'contain' ? ih * mmPerPixel : h;
  return Math.min((shownX * MM_PER_INCH) / printedX, (shownY * MM_PER_INCH) / printedY);
}

/**
 * The finding for a photo of `ppi`: an error below `thresholds.error`, a warning below
 * `thresholds.warning`, nothing at or above it. The message names the page and the layer,
 * in the words an operator or designer reads.
 */
export function resolutionFinding(
  ppi: number,
  thresholds: PpiThresholds = DEFAULT_PPI_THRESHOLDS,
  page?: { index: number; name?: string },
  layerName?: string,
): ResolutionFinding | undefined {
  if (!Number.isFinite(ppi) || ppi >= thresholds.warning) return undefined;
  const severity = ppi < thresholds.error ? 'error' : 'warning';
  const which = layerName?.trim() ? `photo “${layerName.trim()}”` : 'photo';
  const subject = page ? `Page ${page.index + 1} ${which}` : `The ${which}`;
  // Rounded, but never up to the limit it fell below: 149.9 ppi must not read as "150 ppi".
  const limit = severity === 'error' ? thresholds.error : thresholds.warning;
  const shown = Math.round(ppi) >= limit ? Math.floor(ppi) : Math.round(ppi);
  const why = severity === 'error' ? 'it will look soft' : `${thresholds.warning} ppi or more prints sharp`;
  return {
    severity,
    code: 'low-resolution',
    message: `${subject} is ${shown} ppi at its printed size — ${why}`,
    page: page ? page.index + 1 : null,
  };
}
