// An opaque RGB PNG from canvas RGBA pixels: 8-bit truecolour, no alpha, "Up" row filter, zlib,
// with a pHYs chunk giving the print resolution. Such a PNG goes into the print PDF as it is
// (modules/pdf passes opaque ≤8-bit PNG data through without decoding), and this is faster than
// encoding RGBA and flattening it later.
//
// Compression is zlib's run-length strategy (Z_RLE: matches at distance 1 only) over "Up"-filtered
// rows. Flat artwork filters to runs of zeros, which it packs smaller than level 6 did (a card's
// plain page: 18.9 KB at level 6, 17.6 KB); photo rows have few long matches for level 6's search to
// find, so they come out about 3 % larger (the benchmark card's photo page: 1.37 MB, 1.41 MB) in a
// third of the time (87 ms, 30 ms). Grainy full-page artwork grows more (26 %), at a quarter of the
// time. Lossless either way: the pixels, and so the print, are the same.
import { promisify } from 'node:util';
import zlib from 'node:zlib';

const deflate = promisify(zlib.deflate);

/** The zlib options of every PNG made here (see above). */
export const PNG_ZLIB: Readonly<zlib.ZlibOptions> = Object.freeze({ level: 6, strategy: zlib.constants.Z_RLE });

const SIGNATURE = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);

const CRC_TABLE = (() => {
  const t = new Uint32Array(256);
  for (let n = 0; n < 256; n++) {
    let c = n;
    for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
    t[n] = c >>> 0;
  }
  return t;
})();

function crc32(...parts: Uint8Array[]): number {
  // zlib's own (Node ≥ 20.15 / 22.2): a page's IDAT is over a megabyte, which the table loop below takes tens of ms over.
  if (typeof zlib.crc32 === 'function') return parts.reduce((c, p) => zlib.crc32(p, c), 0);
  let c = 0xffffffff;
  for (const p of parts) for (let i = 0; i < p.length; i++) c = CRC_TABLE[(c ^ p[i]) & 0xff] ^ (c >>> 8);
  return (c ^ 0xffffffff) >>> 0;
}

function chunk(type: string, data: Uint8Array): Buffer {
  const head = Buffer.alloc(8);
  head.writeUInt32BE(data.length, 0);
  head.write(type, 4, 'latin1');
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(head.subarray(4), data), 0);
  return Buffer.concat([head, data, crc]);
}

/** The "Up"-filtered RGB rows of RGBA pixels (the bytes zlib compresses), in `scratch` when it is big enough. */
function filteredRows(rgba: Uint8Array, width: number, height: number, scratch?: Buffer): Buffer {
  if (rgba.length < width * height * 4) throw new Error('not enough pixels for the image size');
  const stride = width * 3 + 1;
  // The filtered rows: a caller encoding many pages of one size passes the same scratch buffer.
  const raw = scratch && scratch.length >= stride * height ? scratch.subarray(0, stride * height) : Buffer.allocUnsafe(stride * height);
  for (let y = 0; y < height; y++) {
    const o = y * stride;
    const s = y * width * 4;
    if (y === 0) {
      raw[o] = 0; // None
      for (let x = 0; x < width; x++) {
        const i = s + x * 4;
        const k = o + 1 + x * 3;
        raw[k] = rgba[i];
        raw[k + 1] = rgba[i + 1];
        raw[k + 2] = rgba[i + 2];
      }
      continue;
    }
    raw[o] = 2; // Up: the difference to the row above
    const p = s - width * 4;
    for (let x = 0; x < width; x++) {
      const i = s + x * 4;
      const j = p + x * 4;
      const k = o + 1 + x * 3;
      raw[k] = (rgba[i] - rgba[j]) & 255;
      raw[k + 1] = (rgba[i + 1] - rgba[j + 1]) & 255;
      raw[k + 2] = (rgba[i + 2] - rgba[j + 2]) & 255;
    }
  }
  return raw;
}

/** The PNG around compressed rows. */
function pngOf(width: number, height: number, dpi: number | undefined, idat: Uint8Array): Buffer {
  const ihdr = Buffer.alloc(13);
  ihdr.writeUInt32BE(width, 0);
  ihdr.writeUInt32BE(height, 4);
  ihdr[8] = 8; // bit depth
  ihdr[9] = 2; // truecolour
  ihdr[10] = 0;
  ihdr[11] = 0;
  ihdr[12] = 0; // not interlaced
  const parts = [SIGNATURE, chunk('IHDR', ihdr)];
  if (dpi && dpi > 0) {
    const phys = Buffer.alloc(9);
    const ppm = Math.round(dpi / 0.0254);
    phys.writeUInt32BE(ppm, 0);
    phys.writeUInt32BE(ppm, 4);
    phys[8] = 1; // metre
    parts.push(chunk('pHYs', phys));
  }
  parts.push(chunk('IDAT', idat), chunk('IEND', Buffer.alloc(0)));
  return Buffer.concat(parts);
}

/**
 * RGBA (as from canvas.data(); alpha ignored — the page was painted opaque) → RGB PNG bytes.
 * Use scratchSize(width, height) for a reusable `scratch` buffer.
 */
export function encodeRgbPng(rgba: Uint8Array, width: number, height: number, dpi?: number, scratch?: Buffer): Buffer {
  return pngOf(width, height, dpi, zlib.deflateSync(filteredRows(rgba, width, height, scratch), PNG_ZLIB));
}

/**
 * encodeRgbPng with the compression on libuv's thread pool: the same bytes, while the caller
 * draws the next page. The pixels are read before it returns (`rgba` may be drawn over at once);
 * `scratch` holds the rows until the promise settles, so it must not be reused before then.
 */
export function encodeRgbPngSoon(rgba: Uint8Array, width: number, height: number, dpi: number | undefined, scratch?: Buffer): Promise<Buffer> {
  const rows = filteredRows(rgba, width, height, scratch);
  return deflate(rows, PNG_ZLIB).then((idat) => pngOf(width, height, dpi, idat));
}

/** Bytes of the scratch buffer encodeRgbPng can reuse for an image of this size. */
export const scratchSize = (width: number, height: number) => (width * 3 + 1) * height;
