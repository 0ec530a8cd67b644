// Hand-made PNGs (any colour type, bit depth and row filter), realistic artwork, and reading images back out of PDFs.
import zlib from 'node:zlib';
import { Readable } from 'node:stream';
import sharp from 'sharp';
import { loadPdfjs } from '../src/modules/pdf/tasks';
import type { FileStore } from '../src/modules/uploads/storage';

const CHANNELS: Record<number, number> = { 0: 1, 2: 3, 3: 1, 4: 2, 6: 4 };

export function chunk(type: string, data: Buffer): Buffer {
  const len = Buffer.alloc(4);
  len.writeUInt32BE(data.length);
  const body = Buffer.concat([Buffer.from(type, 'latin1'), data]);
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(zlib.crc32(body));
  return Buffer.concat([len, body, crc]);
}

export const PNG_SIGNATURE = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);

export function ihdr(width: number, height: number, bitDepth: number, colorType: number, interlace = 0): Buffer {
  const d = Buffer.alloc(13);
  d.writeUInt32BE(width, 0);
  d.writeUInt32BE(height, 4);
  d[8] = bitDepth;
  d[9] = colorType;
  d[12] = interlace;
  return chunk('IHDR', d);
}

function paeth(a: number, b: number, c: number): number {
  const p = a + b - c;
  const pa = Math.abs(p - a);
  const pb = Math.abs(p - b);
  const pc = Math.abs(p - c);
  return pa <= pb && pa <= pc ? a : pb <= pc ? b : c;
}

export interface PngSpec {
  width: number;
  height: number;
  bitDepth: number;
  colorType: number;
  /** Unfiltered scanlines (packed samples), height × rowBytes. */
  raw: Buffer;
  palette?: Buffer;
  trns?: Buffer;
  /** Row filter per row (0–4), default all 0. */
  filters?: number[];
  /** Split the zlib stream into IDAT chunks of this size. */
  idatSize?: number;
}

export const rowBytesOf = (s: Pick<PngSpec, 'width' | 'bitDepth' | 'colorType'>) => Math.ceil((s.width * CHANNELS[s.colorType] * s.bitDepth) / 8);

/** Encodes a PNG with the given row filters (so the PDF's predictor handles every filter type). */
export function encodePng(s: PngSpec): Buffer {
  const rb = rowBytesOf(s);
  const bpp = Math.max(1, Math.ceil((CHANNELS[s.colorType] * s.bitDepth) / 8));
  const out = Buffer.alloc((rb + 1) * s.height);
  for (let y = 0; y < s.height; y++) {
    const f = s.filters?.[y] ?? 0;
    out[y * (rb + 1)] = f;
    for (let x = 0; x < rb; x++) {
      const cur = s.raw[y * rb + x];
      const a = x >= bpp ? s.raw[y * rb + x - bpp] : 0;
      const b = y > 0 ? s.raw[(y - 1) * rb + x] : 0;
      const c = x >= bpp && y > 0 ? s.raw[(y - 1) * rb + x - bpp] : 0;
      const pred = f === 0 ? 0 : f === 1 ? a : f === 2 ? b : f === 3 ? (a + b) >> 1 : paeth(a, b, c);
      out[y * (rb + 1) + 1 + x] = (cur - pred) & 0xff;
    }
  }
  const z = zlib.deflateSync(out);
  const size = s.idatSize ?? z.length;
  const idats: Buffer[] = [];
  for (let o = 0; o < z.length; o += size) idats.push(chunk('IDAT', z.subarray(o, o + size)));
  return Buffer.concat([
    PNG_SIGNATURE,
    ihdr(s.width, s.height, s.bitDepth, s.colorType),
    ...(s.palette ? [chunk('PLTE', s.palette)] : []),
    ...(s.trns ? [chunk('tRNS', s.trns)] : []),
    ...idats,
    chunk('IEND', Buffer.alloc(0)),
  ]);
}

/** Deterministic pseudo-random bytes. */
export function noise(n: number, seed = 1): Buffer {
  const b = Buffer.alloc(n);
  let x = seed >>> 0 || 1;
  for (let i = 0; i < n; i++) {
    x ^= x << 13;
    x ^= x >>> 17;
    x ^= x << 5;
    b[i] = x & 0xff;
  }
  return b;
}

/** A realistic page: gradients, noise and shapes (so compression behaves like real artwork). */
export function artworkRgb(width: number, height: number, seed = 1): Buffer {
  const px = Buffer.alloc(width * height * 3);
  const n = noise(width * height, seed);
  const cx = width * 0.5;
  const cy = height * 0.4;
  const r2 = (Math.min(width, height) * 0.3) ** 2;
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      const i = y * width + x;
      const o = i * 3;
      const grain = (n[i] & 15) - 8;
      let r = (x / width) * 200 + 30;
      let g = (y / height) * 180 + 40;
      let b = ((x + y) / (width + height)) * 120 + 90;
      if ((x - cx) ** 2 + (y - cy) ** 2 < r2) [r, g, b] = [230, 80 + (x % 40), 60];
      if (x > width * 0.1 && x < width * 0.9 && y > height * 0.75 && y < height * 0.85) [r, g, b] = [20, 30, 90];
      px[o] = Math.max(0, Math.min(255, r + grain));
      px[o + 1] = Math.max(0, Math.min(255, g + grain));
      px[o + 2] = Math.max(0, Math.min(255, b + grain));
    }
  }
  return px;
}

export async function pngOf(raw: Buffer, width: number, height: number, channels: 1 | 2 | 3 | 4 = 3): Promise<Buffer> {
  return sharp(raw, { raw: { width, height, channels } }).png().toBuffer();
}

export async function jpegOf(raw: Buffer, width: number, height: number): Promise<Buffer> {
  return sharp(raw, { raw: { width, height, channels: 3 } }).jpeg({ quality: 90 }).toBuffer();
}

/** Puts bytes in the file store; returns the /files/… URL. */
export async function storeFile(store: FileStore, name: string, bytes: Buffer): Promise<string> {
  const key = `test/${Date.now()}-${Math.random().toString(16).slice(2)}-${name}`;
  await store.put(key, Readable.from(bytes));
  return `/files/${key}`;
}

export interface DecodedImage {
  width: number;
  height: number;
  /** RGB, 3 bytes a pixel. */
  rgb: Buffer;
}

/** Every image painted on a PDF page, as pdf.js decodes it (its own Flate, predictor and colour-space code). */
export async function imagesOnPage(pdf: Uint8Array, pageNumber: number): Promise<DecodedImage[]> {
  const { getDocument, OPS, ImageKind } = await loadPdfjs();
  const task = getDocument({ data: new Uint8Array(pdf), isOffscreenCanvasSupported: false, isImageDecoderSupported: false, verbosity: 0 });
  const doc = await task.promise;
  try {
    const page = await doc.getPage(pageNumber);
    const ops = await page.getOperatorList();
    const out: DecodedImage[] = [];
    for (let i = 0; i < ops.fnArray.length; i++) {
      if (ops.fnArray[i] !== OPS.paintImageXObject) continue;
      const id = ops.argsArray[i][0] as string;
      const objs = id.startsWith('g_') ? page.commonObjs : page.objs;
      const img = (await new Promise((resolve) => objs.get(id, resolve))) as { width: number; height: number; kind: number; data: Uint8ClampedArray };
      const { width, height, kind, data } = img;
      const rgb = Buffer.alloc(width * height * 3);
      if (kind === ImageKind.RGB_24BPP) rgb.set(data.subarray(0, rgb.length));
      else if (kind === ImageKind.RGBA_32BPP) for (let p = 0; p < width * height; p++) rgb.set(data.subarray(p * 4, p * 4 + 3), p * 3);
      else if (kind === ImageKind.GRAYSCALE_1BPP) {
        const stride = Math.ceil(width / 8);
        for (let y = 0; y < height; y++)
          for (let x = 0; x < width; x++) {
            const v = (data[y * stride + (x >> 3)] >> (7 - (x & 7))) & 1 ? 255 : 0;
            rgb.fill(v, (y * width + x) * 3, (y * width + x) * 3 + 3);
          }
      } else throw new Error(`unknown image kind ${kind}`);
      out.push({ width, height, rgb });
    }
    return out;
  } finally {
    await task.destroy();
  }
}

/** What sharp (libvips/libspng) decodes a PNG to, flattened on white, as RGB. */
export async function sharpRgb(png: Buffer): Promise<DecodedImage> {
  const { data, info } = await sharp(png).flatten({ background: '#ffffff' }).toColourspace('srgb').raw({ depth: 'uchar' }).toBuffer({ resolveWithObject: true });
  if (info.channels !== 3) throw new Error(`expected 3 channels, got ${info.channels}`);
  return { width: info.width, height: info.height, rgb: data };
}
