// Helpers of the render tests: card documents with a personalised text field, reference renders
// made in the test (common/design-doc/render.ts on a fresh @napi-rs/canvas), pixel comparisons.
import { createCanvas, loadImage } from '@napi-rs/canvas';
import sharp from 'sharp';
import { mmToPx, pagePixelSize, renderPage } from '../../common/design-doc/render';
import type { DesignDocument, Layer, TextLayer } from '../../common/design-doc/types';
import { registerBundledFonts } from '../src/modules/render/fonts';

export const NAME_BOX = { x: 14, y: 60, width: 120, height: 30 };

export function nameLayer(over: Partial<TextLayer> = {}): TextLayer {
  return {
    id: 'name',
    name: 'Recipient name',
    type: 'text',
    ...NAME_BOX,
    rotation: 0,
    opacity: 1,
    text: 'Dear friend',
    fontFamily: 'Raleway',
    fontSize: 36,
    fontWeight: 700,
    color: '#1a237e',
    align: 'center',
    lineHeight: 1.2,
    field: { property: 'Recipient name', sample: 'Sam', maxLength: 30, fit: 'shrink' },
    ...over,
  };
}

/** A card: a coloured band on the front with the recipient's name, plain inside pages, a back with a small rect. */
export function cardDoc(opts: { name?: TextLayer | null; frontExtra?: Layer[] } = {}): DesignDocument {
  const name = opts.name === undefined ? nameLayer() : opts.name;
  return {
    version: 1,
    format: 'card-a5',
    pages: [
      {
        id: 'front',
        name: 'Front',
        background: '#fff8e1',
        layers: [
          { id: 'band', name: 'Band', type: 'rect', x: -3, y: 150, width: 154, height: 63, rotation: 0, opacity: 1, fill: '#e91e63' },
          { id: 'title', name: 'Title', type: 'text', x: 14, y: 20, width: 120, height: 30, rotation: 0, opacity: 1, text: 'Happy Birthday', fontFamily: 'Lora', fontSize: 28, fontWeight: 700, color: '#333333', align: 'center', lineHeight: 1.2 },
          ...(name ? [name] : []),
          ...(opts.frontExtra ?? []),
        ],
      },
      { id: 'il', name: 'Inside left', background: '#ffffff', layers: [] },
      {
        id: 'ir',
        name: 'Inside right',
        background: '#ffffff',
        layers: [{ id: 'msg', name: 'Message', type: 'text', x: 20, y: 80, width: 108, height: 50, rotation: -4, opacity: 0.9, text: 'With love', fontFamily: 'Pacifico', fontSize: 24, fontWeight: 400, color: '#6a1b9a', align: 'center', lineHeight: 1.3 }],
      },
      { id: 'back', name: 'Back', background: '#ffffff', layers: [{ id: 'logo', name: 'Logo', type: 'rect', x: 64, y: 190, width: 20, height: 8, rotation: 0, opacity: 1, fill: '#9e9e9e', radius: 2 }] },
    ],
  };
}

export interface Raw {
  width: number;
  height: number;
  channels: number;
  data: Buffer;
}

export async function rawOf(png: Buffer | Uint8Array): Promise<Raw> {
  const { data, info } = await sharp(Buffer.from(png)).removeAlpha().raw().toBuffer({ resolveWithObject: true });
  return { width: info.width, height: info.height, channels: info.channels, data };
}

/** The reference: the page drawn by render.ts on a fresh canvas in this thread (white paper first, like the server). */
export async function referenceRender(doc: DesignDocument, page: number, values?: Record<string, string>, dpi = 300): Promise<{ raw: Raw; missing: string[] }> {
  await registerBundledFonts();
  const { width, height } = pagePixelSize(doc, dpi);
  const canvas = createCanvas(width, height);
  const ctx = canvas.getContext('2d');
  ctx.fillStyle = '#ffffff';
  ctx.fillRect(0, 0, width, height);
  const r = await renderPage(ctx, doc, page, { dpi, values, loadImage: (src) => loadImage(src) });
  const rgba = canvas.data();
  const data = Buffer.alloc(width * height * 3);
  for (let i = 0, j = 0; i < rgba.length; i += 4, j += 3) {
    data[j] = rgba[i];
    data[j + 1] = rgba[i + 1];
    data[j + 2] = rgba[i + 2];
  }
  return { raw: { width, height, channels: 3, data }, missing: r.missing };
}

/** A box in pixels (mm box of the trim coordinates, with the bleed offset), grown by `pad` px. */
export function boxPx(box: { x: number; y: number; width: number; height: number }, dpi = 300, bleed = 3, pad = 0) {
  return {
    x0: Math.floor(mmToPx(box.x + bleed, dpi)) - pad,
    y0: Math.floor(mmToPx(box.y + bleed, dpi)) - pad,
    x1: Math.ceil(mmToPx(box.x + bleed + box.width, dpi)) + pad,
    y1: Math.ceil(mmToPx(box.y + bleed + box.height, dpi)) + pad,
  };
}

export interface Diff {
  /** Pixels differing by more than `tolerance` in any channel. */
  inside: number;
  outside: number;
  maxDelta: number;
}

/** Counts differing pixels inside and outside a pixel box. */
export function diff(a: Raw, b: Raw, box?: { x0: number; y0: number; x1: number; y1: number }, tolerance = 0): Diff {
  if (a.width !== b.width || a.height !== b.height || a.channels !== b.channels) throw new Error(`size differs: ${a.width}x${a.height}x${a.channels} vs ${b.width}x${b.height}x${b.channels}`);
  let inside = 0;
  let outside = 0;
  let maxDelta = 0;
  const c = a.channels;
  for (let y = 0; y < a.height; y++) {
    for (let x = 0; x < a.width; x++) {
      const i = (y * a.width + x) * c;
      let d = 0;
      for (let k = 0; k < c; k++) d = Math.max(d, Math.abs(a.data[i + k] - b.data[i + k]));
      if (d > maxDelta) maxDelta = d;
      if (d <= tolerance) continue;
      if (box && x >= box.x0 && x < box.x1 && y >= box.y0 && y < box.y1) inside++;
      else outside++;
    }
  }
  return { inside, outside, maxDelta };
}
