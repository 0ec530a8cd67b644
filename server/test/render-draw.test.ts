// The shared renderer (common/design-doc/render.ts) and the server's drawing of pages (draw.ts):
// print size, personalised text by pixel comparison against a reference made here, fit rules,
// maxLength, the sample fallback.
import { createCanvas } from '@napi-rs/canvas';
import zlib from 'node:zlib';
import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import { fontString, layoutText, pagePixelSize, ptToPx, renderPage, truncate, wrapText } from '../../common/design-doc/render';
import { drawPages } from '../src/modules/render/draw';
import { registerBundledFonts, bundledFontFiles } from '../src/modules/render/fonts';
import { adler32Combine, bandCacheStats, encodeRgbPng, encodeRgbPngSoon } from '../src/modules/render/png';
import { NAME_BOX, boxPx, cardDoc, diff, nameLayer, rawOf, referenceRender } from './renderKit';

/** The zlib stream of a PNG (its IDAT chunks joined). */
function idatOf(png: Buffer): Buffer {
  const parts: Buffer[] = [];
  for (let o = 8; o < png.length; o += 12 + png.readUInt32BE(o)) if (png.toString('latin1', o + 4, o + 8) === 'IDAT') parts.push(png.subarray(o + 8, o + 8 + png.readUInt32BE(o)));
  return Buffer.concat(parts);
}

const draw = (doc: ReturnType<typeof cardDoc>, values?: Record<string, string>, pages = [0]) => drawPages({ doc, dpi: 300, values, pages, images: {} });

describe('print geometry', () => {
  it('a card is 4 pages of (148+6)×(210+6) mm: 1819 × 2551 px at 300 dpi, opaque RGB PNGs with 300 dpi metadata', async () => {
    const doc = cardDoc();
    expect(pagePixelSize(doc, 300)).toEqual({ width: 1819, height: 2551 });
    const out = await drawPages({ doc, dpi: 300, values: { 'Recipient name': 'Zainab' }, pages: [0, 1, 2, 3], images: {}, previewWidth: 600 });
    expect(out.pages).toHaveLength(4);
    for (const png of out.pages) {
      const meta = await sharp(Buffer.from(png)).metadata();
      expect(meta).toMatchObject({ format: 'png', width: 1819, height: 2551, channels: 3, hasAlpha: false, density: 300 });
    }
    const preview = await sharp(Buffer.from(out.preview!)).metadata();
    expect(preview.width).toBe(600);
    expect(preview.height).toBe(Math.round((600 * 210) / 148));
    expect(out.missing).toEqual([]);
  });

  it('other formats and resolutions', () => {
    expect(pagePixelSize({ format: 'mug-wrap' }, 300)).toEqual({ width: Math.round((204 * 300) / 25.4), height: Math.round((94 * 300) / 25.4) });
    expect(pagePixelSize({ format: 'card-a5' }, 150)).toEqual({ width: 909, height: 1276 });
  });

  it('every bundled font is on disk and registers', async () => {
    await registerBundledFonts();
    const families = new Set(bundledFontFiles().map((f) => f.family));
    expect([...families].sort()).toEqual(['Lora', 'Pacifico', 'Raleway', 'Roboto Slab']);
    const c = createCanvas(100, 100).getContext('2d');
    // A registered face measures differently from the fallback face.
    c.font = '400 100px "Pacifico"';
    const pacifico = c.measureText('Hello').width;
    c.font = '400 100px "NoSuchFontAnywhere"';
    expect(pacifico).not.toBeCloseTo(c.measureText('Hello').width, 0);
  });

  it('the PNG encoder round-trips pixels', async () => {
    const w = 7;
    const h = 5;
    const rgba = new Uint8Array(w * h * 4).map((_, i) => (i * 37) % 256);
    const png = encodeRgbPng(rgba, w, h, 300);
    const { data, info } = await sharp(png).raw().toBuffer({ resolveWithObject: true });
    expect(info).toMatchObject({ width: w, height: h, channels: 3 });
    for (let p = 0; p < w * h; p++) for (let k = 0; k < 3; k++) expect(data[p * 3 + k]).toBe(rgba[p * 4 + k]);
  });

  it('compressing on the thread pool gives the same pixels in one valid zlib stream, read before the pixels are drawn over', async () => {
    const w = 300;
    const h = 2000;
    // Noisy, photo-like pixels (what the thread pool is for) with flat bands, over many bands of rows.
    let seed = 7;
    const rgba = new Uint8Array(w * h * 4).map((_, i) => (i % 4 === 3 ? 255 : i % 300_000 < 120_000 ? 90 : (seed = (seed * 1103515245 + 12345) >>> 0) >>> 24));
    const copy = rgba.slice();
    const soon = encodeRgbPngSoon(rgba, w, h, 300);
    rgba.fill(0);
    const png = await soon;
    // Adler-32 and all: zlib's own inflate checks it.
    const rows = zlib.inflateSync(idatOf(png));
    expect(rows.length).toBe((w * 3 + 1) * h);
    const { data, info } = await sharp(png).raw().toBuffer({ resolveWithObject: true });
    expect(info).toMatchObject({ width: w, height: h, channels: 3 });
    for (let p = 0; p < w * h; p++) for (let k = 0; k < 3; k++) if (data[p * 3 + k] !== copy[p * 4 + k]) expect([p, k, data[p * 3 + k]]).toEqual([p, k, copy[p * 4 + k]]);
  });

  it('Adler-32 of joined bands: combined as zlib does', () => {
    const adler = (b: Uint8Array) => zlib.deflateSync(b, { level: 0 }).readUInt32BE(zlib.deflateSync(b, { level: 0 }).length - 4);
    let seed = 3;
    const bytes = new Uint8Array(200_000).map(() => (seed = (seed * 1103515245 + 12345) >>> 0) >>> 24);
    for (const cut of [1, 5551, 5552, 65521, 65522, 131_042, 199_999]) {
      const a = bytes.subarray(0, cut);
      const b = bytes.subarray(cut);
      expect(adler32Combine(adler(a), adler(b), b.length)).toBe(adler(bytes));
    }
  });

  it('a photo drawn again is not compressed again: its rows come from the band cache, the rest of the page is the same pixels', async () => {
    const photo = await sharp({ create: { width: 600, height: 450, channels: 3, background: '#808080', noise: { type: 'gaussian', mean: 128, sigma: 40 } } }).jpeg().toBuffer();
    const layer = { id: 'p', name: 'Photo', type: 'image' as const, x: 10, y: 100, width: 128, height: 100, rotation: 0, opacity: 1, src: 'photo.jpg', fit: 'cover' as const };
    const doc = cardDoc({ frontExtra: [layer] } as never);
    const task = { doc, dpi: 300, values: { 'Recipient name': 'Tomasz' }, pages: [0], images: { 'photo.jpg': new Uint8Array(photo) } };
    const first = await drawPages(task);
    const before = { ...bandCacheStats };
    const again = await drawPages({ ...task, values: { 'Recipient name': 'Freya May' } });
    // The photo's rows (1181: more than 24 bands of 48) were all found again; only the name's rows
    // (354: at most 9 bands, apart from the photo's) can be new.
    expect(bandCacheStats.hits - before.hits).toBeGreaterThanOrEqual(24);
    expect(bandCacheStats.misses - before.misses).toBeLessThanOrEqual(9);
    // Outside the name's box the two cards are the same pixels; inside it the names differ.
    const d = diff(await rawOf(first.pages[0]), await rawOf(again.pages[0]), boxPx(NAME_BOX, 300, 3, 2));
    expect(d.outside).toBe(0);
    expect(d.inside).toBeGreaterThan(0);
    zlib.inflateSync(idatOf(Buffer.from(again.pages[0])));
  });

  it('an image decoded for one render serves the next: the same pixels, also beside another image', async () => {
    const photo = await sharp({ create: { width: 400, height: 300, channels: 3, background: { r: 200, g: 40, b: 90 } } }).jpeg().toBuffer();
    const other = await sharp({ create: { width: 400, height: 300, channels: 3, background: { r: 10, g: 180, b: 60 } } }).png().toBuffer();
    const layer = (id: string, src: string, x: number) => ({ id, name: id, type: 'image' as const, x, y: 20, width: 60, height: 45, rotation: 0, opacity: 1, src, fit: 'cover' as const });
    const one = cardDoc({ frontExtra: [layer('a', 'photo.jpg', 10)] } as never);
    const two = cardDoc({ frontExtra: [layer('a', 'photo.jpg', 10), layer('b', 'other.png', 80)] } as never);
    const first = await drawPages({ doc: one, dpi: 100, pages: [0], images: { 'photo.jpg': new Uint8Array(photo) } });
    const again = await drawPages({ doc: one, dpi: 100, pages: [0], images: { 'photo.jpg': new Uint8Array(photo) } });
    expect(Buffer.compare(Buffer.from(again.pages[0]), Buffer.from(first.pages[0]))).toBe(0);
    const both = await drawPages({ doc: two, dpi: 100, pages: [0], images: { 'photo.jpg': new Uint8Array(photo), 'other.png': new Uint8Array(other) } });
    const { data, info } = await sharp(Buffer.from(both.pages[0])).raw().toBuffer({ resolveWithObject: true });
    const at = (xMm: number, yMm: number) => [...data.subarray(((Math.round((yMm * 100) / 25.4) * info.width + Math.round((xMm * 100) / 25.4)) * 3), ((Math.round((yMm * 100) / 25.4) * info.width + Math.round((xMm * 100) / 25.4)) * 3) + 3)];
    // Inside each image, clear of its edges (bleed 3 mm shifts both alike).
    const [r1, g1] = at(43, 45);
    const [r2, g2] = at(113, 45);
    expect(r1).toBeGreaterThan(150);
    expect(g1).toBeLessThan(100);
    expect(g2).toBeGreaterThan(150);
    expect(r2).toBeLessThan(60);
  });

  it('a card drawn page after page: every page its own pixels (no page shares a reused buffer)', async () => {
    const doc = cardDoc();
    const all = await draw(doc, { 'Recipient name': 'Zainab' }, [0, 1, 2, 3]);
    for (const [i, page] of all.pages.entries()) {
      const alone = await draw(doc, { 'Recipient name': 'Zainab' }, [i]);
      expect(Buffer.compare(Buffer.from(page), Buffer.from(alone.pages[0])), `page ${i + 1}`).toBe(0);
    }
  });
});

describe('personalised text', () => {
  it('the server page equals the reference render with the value, and differs from the no-text render only inside the text box', async () => {
    const values = { 'recipient NAME': 'Zainab' }; // matched case-insensitively
    const server = await rawOf((await draw(cardDoc(), values)).pages[0]);
    const reference = await referenceRender(cardDoc(), 0, values);
    expect(reference.missing).toEqual([]);
    const same = diff(server, reference.raw, undefined, 2);
    expect(same.inside + same.outside).toBeLessThan(50); // same code, same Skia: (near) identical

    const noText = await rawOf((await draw(cardDoc({ name: null }))).pages[0]);
    const d = diff(server, noText, boxPx(NAME_BOX, 300, 3, 2));
    expect(d.inside).toBeGreaterThan(2000); // the name is drawn…
    expect(d.outside).toBe(0); // …and nothing else changed

    // A different name draws different pixels in the box.
    const other = await rawOf((await draw(cardDoc(), { 'Recipient name': 'Tomasz' })).pages[0]);
    expect(diff(server, other, boxPx(NAME_BOX, 300, 3, 2)).inside).toBeGreaterThan(500);
  });

  it('a missing value draws the sample and is reported', async () => {
    const out = await draw(cardDoc(), { Message: 'hello' });
    expect(out.missing).toEqual(['Recipient name']);
    const sample = await referenceRender(cardDoc(), 0, { 'Recipient name': 'Sam' });
    const d = diff(await rawOf(out.pages[0]), sample.raw, undefined, 2);
    expect(d.inside + d.outside).toBeLessThan(50);
    // A blank value is missing too.
    expect((await draw(cardDoc(), { 'Recipient name': '   ' })).missing).toEqual(['Recipient name']);
    // Without values (the editor's preview) the sample is drawn and nothing is "missing".
    expect((await draw(cardDoc())).missing).toEqual([]);
  });

  it('text longer than maxLength is truncated', async () => {
    expect(truncate('abcdef', 3)).toBe('abc');
    expect(truncate('😀😀😀', 2)).toBe('😀😀');
    const long = await draw(cardDoc({ name: nameLayer({ field: { property: 'Recipient name', sample: 'Sam', maxLength: 5, fit: 'shrink' } }) }), { 'Recipient name': 'Alexandra' });
    const cut = await draw(cardDoc({ name: nameLayer({ field: { property: 'Recipient name', sample: 'Sam', maxLength: 5, fit: 'shrink' } }) }), { 'Recipient name': 'Alexa' });
    const d = diff(await rawOf(long.pages[0]), await rawOf(cut.pages[0]));
    expect(d.inside + d.outside).toBe(0);
  });
});

describe('fit rules', () => {
  const ctx = () => createCanvas(10, 10).getContext('2d');

  it('wraps on words, keeps explicit newlines, breaks an over-long word only when asked', () => {
    const m = (s: string) => s.length * 10;
    expect(wrapText(m, 'aa bb cc', 50, true).map((l) => l.text)).toEqual(['aa bb', 'cc']);
    expect(wrapText(m, 'aa\nbb', 500, true).map((l) => l.text)).toEqual(['aa', 'bb']);
    expect(wrapText(m, 'abcdefgh', 30, true).map((l) => l.text)).toEqual(['abc', 'def', 'gh']);
    expect(wrapText(m, 'abcdefgh', 30, false).map((l) => l.text)).toEqual(['abcdefgh']);
  });

  it('shrink: a long name is made smaller until the wrapped text fits the box', async () => {
    await registerBundledFonts();
    const layer = nameLayer({ field: { property: 'Recipient name', sample: 'Sam', maxLength: 200, fit: 'shrink' } });
    const text = 'Alexandra Konstantinopoulou-Hargreaves of Little Snoring';
    const c = ctx();
    const layout = layoutText(c, layer, text, 300);
    expect(layout.fontPx).toBeLessThan(ptToPx(36, 300));
    expect(layout.overflows).toBe(false);
    const box = { w: (NAME_BOX.width * 300) / 25.4, h: (NAME_BOX.height * 300) / 25.4 };
    expect(layout.lines.length * layout.lineHeightPx).toBeLessThanOrEqual(box.h + 0.01);
    c.font = fontString(layer, layout.fontPx);
    for (const l of layout.lines) expect(c.measureText(l.text).width).toBeLessThanOrEqual(box.w + 0.01);
    // A short name keeps its size.
    expect(layoutText(c, layer, 'Sam', 300).fontPx).toBeCloseTo(ptToPx(36, 300), 5);

    // In pixels: nothing is drawn outside the box.
    const doc = cardDoc({ name: layer });
    const drawn = await rawOf((await draw(doc, { 'Recipient name': text })).pages[0]);
    const blank = await rawOf((await draw(cardDoc({ name: null }))).pages[0]);
    const d = diff(drawn, blank, boxPx(NAME_BOX));
    expect(d.inside).toBeGreaterThan(2000);
    expect(d.outside).toBe(0);
  });

  it('clip: the size is kept and the text is cut at the box', async () => {
    await registerBundledFonts();
    const layer = nameLayer({ fontSize: 60, field: { property: 'Recipient name', sample: 'Sam', maxLength: 200, fit: 'clip' } });
    const text = 'Bartholomew Featherstonehaugh';
    const layout = layoutText(ctx(), layer, text, 300);
    expect(layout.fontPx).toBeCloseTo(ptToPx(60, 300), 5);
    expect(layout.overflows).toBe(true);
    expect(layout.clip).toBe(true);
    const drawn = await rawOf((await draw(cardDoc({ name: layer }), { 'Recipient name': text })).pages[0]);
    const blank = await rawOf((await draw(cardDoc({ name: null }))).pages[0]);
    const d = diff(drawn, blank, boxPx(NAME_BOX));
    expect(d.inside).toBeGreaterThan(2000);
    expect(d.outside).toBe(0);
    // The same text unclipped (a plain text layer) does reach outside the box.
    const { field: _f, ...plain } = layer;
    const spill = await rawOf((await draw(cardDoc({ name: { ...plain, text } }))).pages[0]);
    expect(diff(spill, blank, boxPx(NAME_BOX)).outside).toBeGreaterThan(100);
  });

  it('renderPage reports a page that does not exist', async () => {
    const c = createCanvas(10, 10).getContext('2d');
    await expect(renderPage(c, cardDoc(), 9, { dpi: 10, loadImage: async () => ({ width: 1, height: 1 }) as never })).rejects.toThrow(/page 9/);
  });
});
