// What an artwork file really is, read from its bytes (never from its name or declared type).
// Two levels: `sniffImage` reads only the header (cheap, refuses pixel floods before any decoding);
// `inspectPng` / `inspectJpeg` walk the whole structure (PNG chunks with CRCs up to IEND; JPEG
// segments up to EOI), so truncated or corrupt files are refused instead of hanging a decoder.
import zlib from 'node:zlib';

/** Artwork larger than this is refused before decoding (a 300 dpi A3 page is ~17 MP). */
export const MAX_PIXELS = 60_000_000;
/** Longest side accepted (PDF viewers and printers struggle beyond it). */
export const MAX_SIDE = 20_000;

export class ImageError extends Error {}

const PNG_SIGNATURE = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);

export const isPng = (b: Uint8Array) => b.length >= 8 && Buffer.from(b.buffer, b.byteOffset, 8).equals(PNG_SIGNATURE);
export const isJpeg = (b: Uint8Array) => b.length >= 3 && b[0] === 0xff && b[1] === 0xd8 && b[2] === 0xff;

export interface PngHeader {
  kind: 'png';
  width: number;
  height: number;
  bitDepth: number;
  colorType: number; // 0 gray, 2 RGB, 3 palette, 4 gray+alpha, 6 RGBA
  interlaced: boolean;
}

export interface JpegHeader {
  kind: 'jpeg';
  width: number;
  height: number;
  components: 1 | 3 | 4;
  bitsPerComponent: number;
  progressive: boolean;
}

export type ImageHeader = PngHeader | JpegHeader;

function checkDimensions(width: number, height: number): void {
  if (!width || !height) throw new ImageError('the image has no pixels (width or height is 0)');
  if (width > MAX_SIDE || height > MAX_SIDE || width * height > MAX_PIXELS) {
    throw new ImageError(`the image is too large (${width} × ${height} pixels; at most ${MAX_PIXELS / 1e6} megapixels and ${MAX_SIDE} pixels a side)`);
  }
}

const VALID_DEPTHS: Record<number, number[]> = { 0: [1, 2, 4, 8, 16], 2: [8, 16], 3: [1, 2, 4, 8], 4: [8, 16], 6: [8, 16] };

function pngHeader(b: Buffer): PngHeader {
  if (b.length < 33) throw new ImageError('the file is truncated (no PNG header)');
  if (b.readUInt32BE(8) !== 13 || b.toString('latin1', 12, 16) !== 'IHDR') throw new ImageError('the file is not a valid PNG (IHDR must come first)');
  const width = b.readUInt32BE(16);
  const height = b.readUInt32BE(20);
  const bitDepth = b[24];
  const colorType = b[25];
  if (!VALID_DEPTHS[colorType]?.includes(bitDepth)) throw new ImageError(`the file is not a valid PNG (colour type ${colorType} with bit depth ${bitDepth})`);
  if (b[26] !== 0 || b[27] !== 0 || b[28] > 1) throw new ImageError('the file is not a valid PNG (unknown compression, filter or interlace method)');
  checkDimensions(width, height);
  return { kind: 'png', width, height, bitDepth, colorType, interlaced: b[28] === 1 };
}

// SOF markers: baseline, extended, progressive (Huffman). Lossless, hierarchical and arithmetic-coded JPEGs are refused.
const SOF_SUPPORTED = new Set([0xc0, 0xc1, 0xc2]);
const SOF_ANY = new Set([0xc0, 0xc1, 0xc2, 0xc3, 0xc5, 0xc6, 0xc7, 0xc9, 0xca, 0xcb, 0xcd, 0xce, 0xcf]);

function jpegSof(b: Buffer, pos: number, marker: number): JpegHeader {
  if (!SOF_SUPPORTED.has(marker)) throw new ImageError('this kind of JPEG (lossless, hierarchical or arithmetic-coded) is not supported');
  const len = b.readUInt16BE(pos);
  if (len < 8) throw new ImageError('the file is not a valid JPEG (bad frame header)');
  const bitsPerComponent = b[pos + 2];
  const height = b.readUInt16BE(pos + 3);
  const width = b.readUInt16BE(pos + 5);
  const components = b[pos + 7];
  if (bitsPerComponent !== 8) throw new ImageError(`${bitsPerComponent}-bit JPEGs are not supported`);
  if (components !== 1 && components !== 3 && components !== 4) throw new ImageError(`JPEGs with ${components} colour components are not supported`);
  if (height === 0) throw new ImageError('JPEGs without a height in the frame header are not supported');
  checkDimensions(width, height);
  return { kind: 'jpeg', width, height, components, bitsPerComponent, progressive: marker === 0xc2 };
}

/**
 * Walks JPEG segments from SOI. With `untilEnd`, also walks the entropy-coded data of every scan
 * (linear, no decoding) and requires EOI: a truncated file is refused.
 */
function walkJpeg(b: Buffer, untilEnd: boolean): JpegHeader {
  let header: JpegHeader | null = null;
  let pos = 2;
  const truncated = () => new ImageError('the file is truncated (the JPEG ends before its end marker)');
  for (;;) {
    // Markers may be preceded by any number of 0xFF fill bytes.
    if (pos >= b.length) throw truncated();
    if (b[pos] !== 0xff) throw new ImageError('the file is not a valid JPEG (marker expected)');
    while (pos < b.length && b[pos] === 0xff) pos++;
    if (pos >= b.length) throw truncated();
    const marker = b[pos++];
    if (marker === 0xd9) {
      if (!header) throw new ImageError('the file is not a valid JPEG (no frame header)');
      return header;
    }
    if (marker === 0xd8 || marker === 0x00) throw new ImageError('the file is not a valid JPEG (unexpected marker)');
    if ((marker >= 0xd0 && marker <= 0xd7) || marker === 0x01) continue; // standalone
    if (pos + 2 > b.length) throw truncated();
    const len = b.readUInt16BE(pos);
    if (len < 2) throw new ImageError('the file is not a valid JPEG (bad segment length)');
    if (pos + len > b.length) throw truncated();
    if (SOF_ANY.has(marker)) {
      if (header) throw new ImageError('the file is not a valid JPEG (two frame headers)');
      header = jpegSof(b, pos, marker);
      if (!untilEnd) return header;
    }
    pos += len;
    if (marker === 0xda) {
      if (!header) throw new ImageError('the file is not a valid JPEG (scan before frame header)');
      // Entropy-coded data: 0xFF is followed by 0x00 (stuffing) or RSTn; anything else is the next marker.
      for (;;) {
        const ff = b.indexOf(0xff, pos);
        if (ff < 0 || ff + 1 >= b.length) throw truncated();
        const next = b[ff + 1];
        if (next === 0x00 || (next >= 0xd0 && next <= 0xd7) || next === 0xff) {
          pos = next === 0xff ? ff + 1 : ff + 2;
          continue;
        }
        pos = ff;
        break;
      }
    }
  }
}

/** Kind and size from the header only: cheap, and refuses pixel floods before anything decodes. */
export function sniffImage(bytes: Uint8Array): ImageHeader {
  const b = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  if (isPng(b)) {
    const header = pngHeader(b);
    // A complete PNG ends with its IEND chunk (a few trailing bytes are tolerated).
    if (b.lastIndexOf('IEND', undefined, 'latin1') < Math.max(33, b.length - 64)) throw new ImageError('the file is truncated (the PNG has no IEND chunk)');
    return header;
  }
  if (isJpeg(b)) return walkJpeg(b, false);
  throw new ImageError('artwork must be a PNG or JPEG image');
}

export interface PngStructure extends PngHeader {
  /** The zlib stream: every IDAT chunk's data, in order (views into the file, not copies). */
  idat: Buffer[];
  idatLength: number;
  palette: Buffer | null;
  hasTransparency: boolean;
}

/** Full PNG walk: every chunk's CRC, PLTE/tRNS rules, consecutive IDATs, IEND. */
export function inspectPng(bytes: Uint8Array): PngStructure {
  const b = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  if (!isPng(b)) throw new ImageError('the file is not a PNG');
  const header = pngHeader(b);
  const idat: Buffer[] = [];
  let palette: Buffer | null = null;
  let trns = false;
  let idatDone = false;
  let pos = 8;
  for (;;) {
    if (pos + 12 > b.length) throw new ImageError('the file is truncated (the PNG ends before its IEND chunk)');
    const len = b.readUInt32BE(pos);
    if (len > 0x7fffffff || pos + 12 + len > b.length) throw new ImageError('the file is truncated (a PNG chunk runs past the end of the file)');
    const type = b.toString('latin1', pos + 4, pos + 8);
    const crc = b.readUInt32BE(pos + 8 + len);
    if (zlib.crc32(b.subarray(pos + 4, pos + 8 + len)) !== crc) throw new ImageError(`the file is corrupt (bad CRC in the PNG ${type.replace(/[^\x20-\x7e]/g, '?')} chunk)`);
    const data = b.subarray(pos + 8, pos + 8 + len);
    if (type === 'IEND') break;
    if (type === 'IDAT') {
      if (idatDone) throw new ImageError('the file is not a valid PNG (IDAT chunks must be consecutive)');
      idat.push(data);
    } else {
      if (idat.length) idatDone = true;
      if (type === 'PLTE') {
        if (len === 0 || len % 3 || len / 3 > 256) throw new ImageError('the file is not a valid PNG (bad palette)');
        palette = Buffer.from(data);
      } else if (type === 'tRNS') trns = true;
      else if (pos !== 8 && type === 'IHDR') throw new ImageError('the file is not a valid PNG (two IHDR chunks)');
    }
    pos += 12 + len;
  }
  if (!idat.length) throw new ImageError('the file is not a valid PNG (no image data)');
  if (header.colorType === 3) {
    if (!palette) throw new ImageError('the file is not a valid PNG (palette image without a palette)');
    if (palette.length / 3 > 2 ** header.bitDepth) throw new ImageError('the file is not a valid PNG (palette larger than the bit depth allows)');
  }
  const hasTransparency = header.colorType === 4 || header.colorType === 6 || trns;
  return { ...header, idat, idatLength: idat.reduce((n, c) => n + c.length, 0), palette, hasTransparency };
}

/** Full JPEG walk from SOI to EOI (no pixel decoding). */
export function inspectJpeg(bytes: Uint8Array): JpegHeader {
  const b = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  if (!isJpeg(b)) throw new ImageError('the file is not a JPEG');
  return walkJpeg(b, true);
}

const CHANNELS: Record<number, number> = { 0: 1, 2: 3, 3: 1, 4: 2, 6: 4 };

/** Bytes per scanline of a non-interlaced PNG, filter byte excluded. */
export function pngRowBytes(h: Pick<PngHeader, 'width' | 'bitDepth' | 'colorType'>): number {
  return Math.ceil((h.width * CHANNELS[h.colorType] * h.bitDepth) / 8);
}

/** True when the PNG's zlib data can go into a PDF as is (opaque, non-interlaced, ≤ 8 bits). */
export function pngPassesThrough(p: PngStructure): boolean {
  return !p.interlaced && !p.hasTransparency && p.bitDepth <= 8 && (p.colorType === 0 || p.colorType === 2 || p.colorType === 3);
}

/**
 * Inflates the IDAT stream once, streaming (1 MB at a time, on the libuv thread pool, so pages
 * verify in parallel without holding their pixels), checks every row's filter type and the exact
 * size: the data a PDF reader will inflate is complete and well-formed.
 */
export function verifyPngData(p: PngStructure): Promise<void> {
  const row = pngRowBytes(p) + 1;
  const expected = row * p.height;
  return new Promise<void>((resolve, reject) => {
    const inflate = zlib.createInflate({ chunkSize: 1 << 20 });
    let seen = 0;
    let settled = false;
    const fail = (err: ImageError) => {
      if (settled) return;
      settled = true;
      inflate.destroy();
      reject(err);
    };
    inflate.on('data', (c: Buffer) => {
      if (settled) return;
      if (seen + c.length > expected) return fail(new ImageError('the file is corrupt (the PNG holds more image data than its size)'));
      for (let off = Math.ceil(seen / row) * row; off < seen + c.length; off += row) {
        if (c[off - seen] > 4) return fail(new ImageError('the file is corrupt (bad PNG row filter)'));
      }
      seen += c.length;
    });
    inflate.on('error', () => fail(new ImageError('the file is truncated or corrupt (the PNG image data does not decompress)')));
    inflate.on('end', () => {
      if (settled) return;
      settled = true;
      if (seen !== expected) reject(new ImageError('the file is truncated (the PNG holds less image data than its size)'));
      else resolve();
    });
    for (const c of p.idat) inflate.write(c);
    inflate.end();
  });
}
