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
// time. Lossless either way: the pixels, and so the print, are the same. Pages (encodeRgbPngSoon)
// also keep the compressed rows of photos between renders (see there).
import crypto from 'node:crypto';
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
 * encodeRgbPng with the compression on libuv's thread pool: the same pixels, while the caller
 * draws the next page. The pixels are read before it returns (`rgba` may be drawn over at once);
 * `scratch` holds the rows until the promise settles, so it must not be reused before then.
 *
 * Busy bands of rows (photos, gradients) are compressed once per worker thread and kept by their
 * bytes' SHA-256: a design's photo is the same rows on every card of the design, and compressing
 * them again cost more than drawing the whole card. A customer's own photo still costs its
 * compression, plus the hash (under a tenth of it). Each band is its own deflate stream ended by a
 * sync flush (no match reaches across bands), so compressed bands join into one zlib stream; the
 * Adler-32 checksum is combined from the bands'. Quiet bands (flat colour, text) are compressed
 * afresh, several at a time: run-length packs them faster than they could be hashed.
 */
export async function encodeRgbPngSoon(rgba: Uint8Array, width: number, height: number, dpi: number | undefined, scratch?: Buffer): Promise<Buffer> {
  const rows = filteredRows(rgba, width, height, scratch);
  const stride = width * 3 + 1;
  const bandRows = Math.max(1, Math.floor(BAND_BYTES / stride));
  const parts: Array<Promise<Compressed>> = [];
  let fresh = -1; // start (byte) of the run of quiet bands not yet sent to zlib
  const flushFresh = (end: number) => {
    if (fresh >= 0) parts.push(compressed(rows.subarray(fresh, end)));
    fresh = -1;
  };
  for (let y = 0; y < height; y += bandRows) {
    const start = y * stride;
    const end = Math.min(height, y + bandRows) * stride;
    const band = rows.subarray(start, end);
    if (!isBusy(band)) {
      if (fresh < 0) fresh = start;
      continue;
    }
    flushFresh(start);
    const key = crypto.createHash('sha256').update(band).digest('base64');
    const hit = bandCache.get(key);
    if (hit) {
      bandCache.delete(key);
      bandCache.set(key, hit);
      bandCacheStats.hits++;
      parts.push(Promise.resolve(hit));
    } else {
      bandCacheStats.misses++;
      parts.push(compressed(band).then((c) => remember(key, c)));
    }
  }
  flushFresh(rows.length);
  let done: Compressed[];
  try {
    done = await Promise.all(parts);
  } catch (err) {
    if (!(err instanceof SpliceError)) throw err;
    return pngOf(width, height, dpi, await deflate(rows, PNG_ZLIB));
  }
  let adler = 1;
  for (const c of done) adler = adler32Combine(adler, c.adler, c.length);
  const trailer = Buffer.alloc(6);
  trailer[0] = 0x03; // a final, empty block (fixed codes)
  trailer[1] = 0x00;
  trailer.writeUInt32BE(adler, 2);
  return pngOf(width, height, dpi, Buffer.concat([ZLIB_HEADER, ...done.map((c) => c.data), trailer]));
}

/** Rows of a band: about this many bytes (48 rows of a 300 dpi card page). */
const BAND_BYTES = 256 * 1024;
/** Compressed bytes kept per worker thread (a card's photo page is about 1.4 MB). */
export const BAND_CACHE_BYTES = 32 * 1024 * 1024;
/** Compressed bands: hits and misses since the thread started (tests read them). */
export const bandCacheStats = { hits: 0, misses: 0 };

interface Compressed {
  /** Raw deflate data ending with a sync flush (byte-aligned, not final). */
  data: Buffer;
  adler: number;
  length: number;
}

const bandCache = new Map<string, Compressed>();
let bandCacheBytes = 0;

function remember(key: string, c: Compressed): Compressed {
  if (c.data.length > BAND_CACHE_BYTES / 8 || bandCache.has(key)) return c;
  bandCache.set(key, c);
  bandCacheBytes += c.data.length;
  for (const [k, v] of bandCache) {
    if (bandCacheBytes <= BAND_CACHE_BYTES) break;
    bandCache.delete(k);
    bandCacheBytes -= v.data.length;
  }
  return c;
}

/** Deflate's "fastest" header (any valid header will do: readers only check it). */
const ZLIB_HEADER = Buffer.from([0x78, 0x01]);

/** What zlib writes for end() after a sync flush: the flush's empty stored block, then a final empty block. */
const SYNC_THEN_FINAL = Buffer.from([0x00, 0x00, 0xff, 0xff, 0x03, 0x00]);

class SpliceError extends Error {}

/**
 * Bytes → raw deflate data ended by a sync flush, and their Adler-32 (zlib computes it as it reads
 * and writes it last, after the final empty block that ending the stream adds, which is dropped).
 */
function compressed(bytes: Uint8Array): Promise<Compressed> {
  return new Promise((resolve, reject) => {
    const z = zlib.createDeflate({ ...PNG_ZLIB, chunkSize: 64 * 1024 });
    const out: Buffer[] = [];
    z.on('data', (d: Buffer) => out.push(d));
    z.on('error', reject);
    z.on('end', () => {
      const all = Buffer.concat(out);
      const n = all.length;
      // A zlib that ended the stream otherwise would not splice: the caller compresses the page whole.
      if (n < 12 || !all.subarray(n - 10, n - 4).equals(SYNC_THEN_FINAL)) return reject(new SpliceError('unexpected deflate output'));
      resolve({ data: all.subarray(2, n - 6), adler: all.readUInt32BE(n - 4), length: bytes.length });
    });
    z.write(bytes);
    // After the flush, not at once: end() while the write waits to drain would skip the flush.
    z.flush(zlib.constants.Z_SYNC_FLUSH, () => z.end());
  });
}

const ADLER_BASE = 65521;

/** zlib's adler32_combine: the Adler-32 of A then B from those of A and B and B's length. */
export function adler32Combine(a1: number, a2: number, len2: number): number {
  const rem = len2 % ADLER_BASE;
  let sum1 = a1 & 0xffff;
  let sum2 = (rem * sum1) % ADLER_BASE;
  sum1 += (a2 & 0xffff) + ADLER_BASE - 1;
  sum2 += ((a1 >>> 16) & 0xffff) + ((a2 >>> 16) & 0xffff) + ADLER_BASE - rem;
  if (sum1 >= ADLER_BASE) sum1 -= ADLER_BASE;
  if (sum1 >= ADLER_BASE) sum1 -= ADLER_BASE;
  if (sum2 >= ADLER_BASE * 2) sum2 -= ADLER_BASE * 2;
  if (sum2 >= ADLER_BASE) sum2 -= ADLER_BASE;
  return (sum1 | (sum2 << 16)) >>> 0;
}

/**
 * Worth keeping compressed: more than one in eight of a sample of its bytes is non-zero. Flat
 * artwork and text filter to zeros that run-length packs faster than the band could be hashed.
 */
function isBusy(band: Uint8Array): boolean {
  let busy = 0;
  let seen = 0;
  for (let i = 0; i < band.length; i += 61, seen++) if (band[i] !== 0) busy++;
  return busy * 8 > seen;
}

/** Bytes of the scratch buffer encodeRgbPng can reuse for an image of this size. */
export const scratchSize = (width: number, height: number) => (width * 3 + 1) * height;
