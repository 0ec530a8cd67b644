// Draws one page of a design document onto a Canvas 2D context. Shared by the browser editor
// (HTMLCanvasElement) and the server (@napi-rs/canvas), so both renders agree: text wrapping,
// line height, alignment, the fit rules and maxLength truncation live here and nowhere else.
//
// Only a small Canvas 2D subset is used (fillRect, strokeRect, path + arcTo, drawImage with
// clipping through save/clip/restore, translate/rotate, fillText/measureText with font strings
// like `700 24px "Raleway"`, globalAlpha, setLineDash for guides), all of which both implement.
//
// Coordinates: the canvas origin is the top-left corner of the BLEED box; document units are
// millimetres from the trim box's top-left corner. Size the canvas with pagePixelSize().

import { FORMATS, type DesignDocument, type FieldBinding, type Layer, type TextLayer, type ImageLayer, type RectLayer, type FormatSpec } from './types';

/** The Canvas 2D subset used here. Method syntax keeps parameters bivariant, so both the DOM's
 *  CanvasRenderingContext2D and @napi-rs/canvas's SKRSContext2D are assignable (renderPage takes
 *  RenderContext<unknown>: any context, whatever image type loadImage gives). */
export interface RenderContext<I = unknown> {
  fillStyle: unknown;
  strokeStyle: unknown;
  lineWidth: number;
  globalAlpha: number;
  font: string;
  textAlign: string;
  textBaseline: string;
  save(): void;
  restore(): void;
  translate(x: number, y: number): void;
  rotate(angle: number): void;
  beginPath(): void;
  closePath(): void;
  moveTo(x: number, y: number): void;
  lineTo(x: number, y: number): void;
  arcTo(x1: number, y1: number, x2: number, y2: number, r: number): void;
  rect(x: number, y: number, w: number, h: number): void;
  clip(): void;
  fill(): void;
  stroke(): void;
  fillRect(x: number, y: number, w: number, h: number): void;
  strokeRect(x: number, y: number, w: number, h: number): void;
  fillText(text: string, x: number, y: number): void;
  measureText(text: string): { width: number };
  drawImage(image: I, sx: number, sy: number, sw: number, sh: number, dx: number, dy: number, dw: number, dh: number): void;
  setLineDash(segments: number[]): void;
}

/** Anything with a size that the context can draw (HTMLImageElement, ImageBitmap, napi Image). */
export interface Drawable {
  width: number;
  height: number;
  naturalWidth?: number;
  naturalHeight?: number;
}

export interface RenderOptions<I extends Drawable = Drawable> {
  dpi: number;
  /** Loads an image for an image layer (our /files/… URL or a data: URL). */
  loadImage: (src: string) => Promise<I>;
  /** Order line-item properties by name (matched to field.property case-insensitively). */
  values?: Record<string, string>;
  /** Draw trim and safe-area guides (editor only; never in print output). */
  showGuides?: boolean;
}

export interface RenderResult {
  /** Field properties with no (non-blank) value: the sample was used instead. */
  missing: string[];
  /** Image sources that failed to load (the layer was left out). */
  failedImages: string[];
}

/** Text layout result, exported so tests and the editor can reason about fit. */
export interface TextLayout {
  /** The text actually drawn (after maxLength truncation). */
  text: string;
  fontPx: number;
  lineHeightPx: number;
  lines: { text: string; width: number }[];
  /** True when the layout does not fit the box (clip rule, or shrink reached its minimum). */
  overflows: boolean;
  /** Whether drawing is clipped to the layer's box. */
  clip: boolean;
}

/** Smallest size shrink-to-fit goes down to, in points. */
export const MIN_SHRINK_PT = 4;
/** Below this, shrunk personalised text is hard to read in print: preflight warns (it is still drawn). */
export const MIN_READABLE_PT = 6;
/** Each shrink step multiplies the font size by this. */
export const SHRINK_STEP = 0.95;
/** Baseline position within the em box (alphabetic baseline at 0.8 em from its top). */
export const ASCENT_RATIO = 0.8;

export const mmToPx = (mm: number, dpi: number) => (mm * dpi) / 25.4;
export const ptToPx = (pt: number, dpi: number) => (pt * dpi) / 72;

/** A document's size: its format's, with the design's own bleed when it sets one. The one place a document's bleed is read. */
export function formatSpec(doc: Pick<DesignDocument, 'format' | 'bleed'>): FormatSpec {
  const spec = FORMATS[doc.format];
  if (!spec) throw new Error(`unknown format ${String(doc.format)}`);
  return typeof doc.bleed === 'number' ? { ...spec, bleed: doc.bleed } : spec;
}

/** Pixel size of a page including bleed, e.g. card-a5 at 300 dpi → 1819 × 2551. */
export function pagePixelSize(doc: Pick<DesignDocument, 'format' | 'bleed'>, dpi: number): { width: number; height: number } {
  const f = formatSpec(doc);
  return {
    width: Math.round(mmToPx(f.width + 2 * f.bleed, dpi)),
    height: Math.round(mmToPx(f.height + 2 * f.bleed, dpi)),
  };
}

/** The CSS font string used for a text layer at a pixel size. */
export function fontString(layer: Pick<TextLayer, 'fontWeight' | 'fontFamily'>, fontPx: number): string {
  return `${layer.fontWeight} ${fontPx}px "${layer.fontFamily}"`;
}

/** Truncates to maxLength characters (code points, so emoji are not split). */
export function truncate(text: string, maxLength?: number): string {
  if (maxLength === undefined || maxLength < 0) return text;
  const chars = Array.from(text);
  return chars.length > maxLength ? chars.slice(0, maxLength).join('') : text;
}

/** Property names of every field in the document (first spelling wins, case-insensitive). */
export function fieldProperties(doc: DesignDocument): string[] {
  const seen = new Map<string, string>();
  for (const p of doc.pages) for (const l of p.layers) {
    if (l.field && !seen.has(norm(l.field.property))) seen.set(norm(l.field.property), l.field.property);
  }
  return [...seen.values()];
}

const norm = (s: string) => s.trim().toLowerCase();

function lookup(values: Record<string, string> | undefined, property: string): string | undefined {
  if (!values) return undefined;
  const want = norm(property);
  for (const [k, v] of Object.entries(values)) {
    if (norm(k) === want && typeof v === 'string' && v.trim() !== '') return v;
  }
  return undefined;
}

/**
 * The value a field layer shows: the order's value, else the sample (reported missing), else the
 * layer's own text/src. Without `values` (editor preview) the sample is used and nothing is missing.
 */
export function resolveField(
  field: FieldBinding,
  fallback: string,
  values: Record<string, string> | undefined,
): { value: string; missing: boolean } {
  const v = lookup(values, field.property);
  if (v !== undefined) return { value: v, missing: false };
  const sample = field.sample && field.sample.trim() !== '' ? field.sample : fallback;
  return { value: sample, missing: values !== undefined };
}

/** Greedy word wrap. Explicit newlines are kept. With breakWords a word wider than maxWidth is
 *  split between characters; otherwise it stays whole on its own line. */
export function wrapText(
  measure: (s: string) => number,
  text: string,
  maxWidth: number,
  breakWords: boolean,
): { text: string; width: number }[] {
  const out: { text: string; width: number }[] = [];
  for (const para of text.split(/\r?\n/)) {
    const words = para.split(/[ \t]+/).filter((w) => w !== '');
    if (words.length === 0) {
      out.push({ text: '', width: 0 });
      continue;
    }
    let line = '';
    for (const word of words) {
      const candidate = line === '' ? word : `${line} ${word}`;
      if (measure(candidate) <= maxWidth || line === '' && !breakWords) {
        line = candidate;
        continue;
      }
      if (line !== '') {
        out.push({ text: line, width: measure(line) });
        line = '';
      }
      if (measure(word) <= maxWidth || !breakWords) {
        line = word;
        continue;
      }
      // Break an over-long word between characters.
      let piece = '';
      for (const ch of Array.from(word)) {
        if (piece !== '' && measure(piece + ch) > maxWidth) {
          out.push({ text: piece, width: measure(piece) });
          piece = ch;
        } else piece += ch;
      }
      line = piece;
    }
    out.push({ text: line, width: measure(line) });
  }
  return out;
}

/**
 * Lays a text layer's text out in its box at `dpi`. Field layers follow their fit rule:
 * 'shrink' reduces the size (×0.95 steps, down to 4 pt) until the wrapped text — words kept
 * whole — fits the box's width and height; 'clip' keeps the size, breaks over-long words and
 * clips to the box. Plain text layers wrap (breaking over-long words) and are not clipped.
 */
export function layoutText(ctx: Pick<RenderContext, 'font' | 'measureText'>, layer: TextLayer, text: string, dpi: number): TextLayout {
  const boxW = mmToPx(layer.width, dpi);
  const boxH = mmToPx(layer.height, dpi);
  const lineHeight = layer.lineHeight > 0 ? layer.lineHeight : 1.2;
  const shown = layer.field ? truncate(text, layer.field.maxLength) : text;
  // Tiny tolerance so a line that exactly fits is not wrapped by float noise.
  const maxW = boxW + 0.01;
  const at = (fontPx: number, breakWords: boolean) => {
    ctx.font = fontString(layer, fontPx);
    const lines = wrapText((s) => ctx.measureText(s).width, shown, maxW, breakWords);
    const lineHeightPx = fontPx * lineHeight;
    const fits = lines.length * lineHeightPx <= boxH + 0.01 && lines.every((l) => l.width <= maxW);
    return { text: shown, fontPx, lineHeightPx, lines, fits };
  };
  let fontPx = ptToPx(layer.fontSize, dpi);
  if (layer.field?.fit === 'shrink') {
    const minPx = Math.min(fontPx, ptToPx(MIN_SHRINK_PT, dpi));
    let l = at(fontPx, false);
    while (!l.fits && fontPx > minPx) {
      fontPx = Math.max(minPx, fontPx * SHRINK_STEP);
      l = at(fontPx, false);
    }
    if (!l.fits) l = at(fontPx, true);
    return { text: l.text, fontPx: l.fontPx, lineHeightPx: l.lineHeightPx, lines: l.lines, overflows: !l.fits, clip: true };
  }
  const l = at(fontPx, true);
  return { text: l.text, fontPx, lineHeightPx: l.lineHeightPx, lines: l.lines, overflows: !l.fits, clip: layer.field?.fit === 'clip' };
}

function roundedRectPath(ctx: RenderContext, x: number, y: number, w: number, h: number, r: number) {
  const rr = Math.max(0, Math.min(r, w / 2, h / 2));
  ctx.beginPath();
  ctx.moveTo(x + rr, y);
  ctx.lineTo(x + w - rr, y);
  ctx.arcTo(x + w, y, x + w, y + rr, rr);
  ctx.lineTo(x + w, y + h - rr);
  ctx.arcTo(x + w, y + h, x + w - rr, y + h, rr);
  ctx.lineTo(x + rr, y + h);
  ctx.arcTo(x, y + h, x, y + h - rr, rr);
  ctx.lineTo(x, y + rr);
  ctx.arcTo(x, y, x + rr, y, rr);
  ctx.closePath();
}

function clipBox(ctx: RenderContext, w: number, h: number) {
  ctx.beginPath();
  ctx.rect(-w / 2, -h / 2, w, h);
  ctx.clip();
}

function drawRect(ctx: RenderContext, layer: RectLayer, w: number, h: number, dpi: number) {
  const r = layer.radius ? mmToPx(layer.radius, dpi) : 0;
  ctx.fillStyle = layer.fill;
  if (r > 0) {
    roundedRectPath(ctx, -w / 2, -h / 2, w, h, r);
    ctx.fill();
  } else ctx.fillRect(-w / 2, -h / 2, w, h);
  if (layer.stroke && layer.strokeWidth && layer.strokeWidth > 0) {
    ctx.strokeStyle = layer.stroke;
    ctx.lineWidth = mmToPx(layer.strokeWidth, dpi);
    if (r > 0) {
      roundedRectPath(ctx, -w / 2, -h / 2, w, h, r);
      ctx.stroke();
    } else ctx.strokeRect(-w / 2, -h / 2, w, h);
  }
}

function drawText(ctx: RenderContext, layer: TextLayer, text: string, w: number, h: number, dpi: number) {
  const layout = layoutText(ctx, layer, text, dpi);
  if (layout.clip) clipBox(ctx, w, h);
  ctx.font = fontString(layer, layout.fontPx);
  ctx.fillStyle = layer.color;
  ctx.textAlign = 'left';
  ctx.textBaseline = 'alphabetic';
  const halfLeading = (layout.lineHeightPx - layout.fontPx) / 2;
  const left = -w / 2;
  let top = -h / 2;
  for (const line of layout.lines) {
    const x = layer.align === 'center' ? left + (w - line.width) / 2 : layer.align === 'right' ? left + w - line.width : left;
    if (line.text !== '') ctx.fillText(line.text, x, top + halfLeading + layout.fontPx * ASCENT_RATIO);
    top += layout.lineHeightPx;
  }
}

function drawImageLayer(ctx: RenderContext, layer: ImageLayer, img: Drawable, w: number, h: number) {
  const iw = img.naturalWidth || img.width;
  const ih = img.naturalHeight || img.height;
  if (!iw || !ih || w <= 0 || h <= 0) return;
  if (layer.fit === 'contain') {
    const s = Math.min(w / iw, h / ih);
    const dw = iw * s;
    const dh = ih * s;
    ctx.drawImage(img, 0, 0, iw, ih, -dw / 2, -dh / 2, dw, dh);
    return;
  }
  // cover: crop the source to the box's aspect ratio, centred.
  const s = Math.max(w / iw, h / ih);
  const sw = w / s;
  const sh = h / s;
  clipBox(ctx, w, h);
  ctx.drawImage(img, (iw - sw) / 2, (ih - sh) / 2, sw, sh, -w / 2, -h / 2, w, h);
}

function drawGuides(ctx: RenderContext, f: FormatSpec, dpi: number) {
  const b = mmToPx(f.bleed, dpi);
  const s = mmToPx(f.safe, dpi);
  const tw = mmToPx(f.width, dpi);
  const th = mmToPx(f.height, dpi);
  ctx.save();
  ctx.globalAlpha = 1;
  ctx.lineWidth = Math.max(1, dpi / 96);
  ctx.setLineDash([]);
  ctx.strokeStyle = 'rgba(220,0,0,0.8)';
  ctx.strokeRect(b, b, tw, th);
  ctx.setLineDash([6 * Math.max(1, dpi / 96), 4 * Math.max(1, dpi / 96)]);
  ctx.strokeStyle = 'rgba(0,120,220,0.8)';
  ctx.strokeRect(b + s, b + s, tw - 2 * s, th - 2 * s);
  ctx.restore();
}

/**
 * Draws page `pageIndex` of `doc` at `dpi` onto `ctx`, whose canvas should be pagePixelSize().
 * Layers are drawn bottom to top; images are loaded first (in parallel) through loadImage.
 */
export async function renderPage<I extends Drawable>(
  ctx: RenderContext,
  doc: DesignDocument,
  pageIndex: number,
  opts: RenderOptions<I>,
): Promise<RenderResult> {
  const f = formatSpec(doc);
  const page = doc.pages[pageIndex];
  if (!page) throw new RangeError(`page ${pageIndex} does not exist (document has ${doc.pages.length})`);
  const { dpi } = opts;
  const missing: string[] = [];
  const failedImages: string[] = [];
  const noteMissing = (p: string) => {
    if (!missing.some((m) => norm(m) === norm(p))) missing.push(p);
  };

  // Resolve field values and start loading images before drawing anything.
  const content = page.layers.map((layer: Layer) => {
    const fallback = layer.type === 'text' ? layer.text : layer.type === 'image' ? layer.src : '';
    if (!layer.field || layer.type === 'rect') return fallback;
    const r = resolveField(layer.field, fallback, opts.values);
    if (r.missing) noteMissing(layer.field.property);
    return r.value;
  });
  const images = new Map<number, Promise<I | null>>();
  page.layers.forEach((layer, i) => {
    if (layer.type !== 'image' || !content[i]) return;
    const src = content[i];
    images.set(i, opts.loadImage(src).then(
      (img) => img,
      () => {
        if (!failedImages.includes(src)) failedImages.push(src);
        return null;
      },
    ));
  });
  const loaded = new Map<number, I | null>();
  for (const [i, p] of images) loaded.set(i, await p);

  const { width: cw, height: ch } = pagePixelSize(doc, dpi);
  ctx.save();
  ctx.globalAlpha = 1;
  ctx.fillStyle = page.background || '#ffffff';
  ctx.fillRect(0, 0, cw, ch);
  ctx.restore();

  page.layers.forEach((layer, i) => {
    const w = mmToPx(layer.width, dpi);
    const h = mmToPx(layer.height, dpi);
    ctx.save();
    ctx.globalAlpha = Math.max(0, Math.min(1, layer.opacity ?? 1));
    ctx.translate(mmToPx(layer.x + f.bleed, dpi) + w / 2, mmToPx(layer.y + f.bleed, dpi) + h / 2);
    if (layer.rotation) ctx.rotate((layer.rotation * Math.PI) / 180);
    if (layer.type === 'rect') drawRect(ctx, layer, w, h, dpi);
    else if (layer.type === 'text') drawText(ctx, layer, content[i], w, h, dpi);
    else {
      const img = loaded.get(i);
      if (img) drawImageLayer(ctx, layer, img, w, h);
    }
    ctx.restore();
  });

  if (opts.showGuides) drawGuides(ctx, f, dpi);
  return { missing, failedImages };
}
