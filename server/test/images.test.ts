// Image checks (what a file really is; truncated, corrupt and pixel-flood files refused) and
// POST /api/images/url-to-base64.
import zlib from 'node:zlib';
import fc from 'fast-check';
import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import { ImageError, MAX_PIXELS, inspectJpeg, inspectPng, pngPassesThrough, sniffImage, verifyPngData } from '../src/modules/images/inspect';
import { bearer, createWorld } from './harness';
import { artworkRgb, chunk, encodePng, ihdr, jpegOf, noise, PNG_SIGNATURE, pngOf, storeFile } from './imageFixtures';

const W = 40;
const H = 30;

/** Runs every check the print PDF runs on a PNG. */
async function checkPng(b: Buffer) {
  sniffImage(b);
  const p = inspectPng(b);
  if (pngPassesThrough(p)) await verifyPngData(p);
  return p;
}

describe('image checks', () => {
  it('reads kind, size and structure of real PNGs and JPEGs', async () => {
    const raw = artworkRgb(W, H);
    const png = await pngOf(raw, W, H);
    const jpeg = await jpegOf(raw, W, H);
    expect(sniffImage(png)).toMatchObject({ kind: 'png', width: W, height: H, bitDepth: 8, colorType: 2, interlaced: false });
    expect(sniffImage(jpeg)).toMatchObject({ kind: 'jpeg', width: W, height: H, components: 3 });
    const p = await checkPng(png);
    expect(pngPassesThrough(p)).toBe(true);
    expect(inspectJpeg(jpeg)).toMatchObject({ width: W, height: H });
    const progressive = await sharp(raw, { raw: { width: W, height: H, channels: 3 } }).jpeg({ progressive: true }).toBuffer();
    expect(inspectJpeg(progressive)).toMatchObject({ progressive: true });
  });

  it('property: every strict prefix of a PNG is refused', async () => {
    const png = encodePng({ width: 20, height: 10, bitDepth: 8, colorType: 2, raw: noise(600, 2), idatSize: 200 });
    await fc.assert(
      fc.asyncProperty(fc.integer({ min: 0, max: png.length - 1 }), async (cut) => {
        await expect(checkPng(png.subarray(0, cut))).rejects.toThrow(ImageError);
      }),
      { numRuns: 300 },
    );
  });

  it('property: any single corrupted byte in a PNG is refused (signature or CRC)', async () => {
    const png = encodePng({ width: 20, height: 10, bitDepth: 8, colorType: 2, raw: noise(600, 3) });
    await fc.assert(
      fc.asyncProperty(fc.integer({ min: 0, max: png.length - 1 }), fc.integer({ min: 1, max: 255 }), async (at, flip) => {
        const bad = Buffer.from(png);
        bad[at] ^= flip;
        await expect(checkPng(bad)).rejects.toThrow(ImageError);
      }),
      { numRuns: 300 },
    );
  });

  it('property: every JPEG cut before its end marker is refused', async () => {
    const jpeg = await jpegOf(artworkRgb(W, H, 5), W, H);
    fc.assert(
      fc.property(fc.integer({ min: 3, max: jpeg.length - 1 }), (cut) => {
        expect(() => inspectJpeg(jpeg.subarray(0, cut))).toThrow(ImageError);
      }),
      { numRuns: 300 },
    );
  });

  it('pixel floods are refused from the header alone', () => {
    const flood = (w: number, h: number) => Buffer.concat([PNG_SIGNATURE, ihdr(w, h, 8, 6), chunk('IDAT', Buffer.alloc(10)), chunk('IEND', Buffer.alloc(0))]);
    expect(() => sniffImage(flood(50_000, 50_000))).toThrow(/too large/);
    expect(() => sniffImage(flood(7746, 7746))).toThrow(/too large/); // just over 60 MP
    expect(7746 * 7746).toBeGreaterThan(MAX_PIXELS);
    expect(() => sniffImage(flood(0, 10))).toThrow(/no pixels/);
  });

  it('zlib data that inflates to more or less than the image size is refused', async () => {
    const more = encodePng({ width: 10, height: 10, bitDepth: 8, colorType: 0, raw: noise(100, 4) });
    const p = inspectPng(more);
    await expect(verifyPngData({ ...p, height: 5 })).rejects.toThrow(/more image data/);
    await expect(verifyPngData({ ...p, height: 20 })).rejects.toThrow(/less image data/);
    const badFilter = inspectPng(encodePng({ width: 10, height: 10, bitDepth: 8, colorType: 0, raw: noise(100, 4) }));
    const raw = Buffer.alloc(11 * 10);
    raw[11 * 3] = 9; // no such row filter
    await expect(verifyPngData({ ...badFilter, idat: [zlib.deflateSync(raw)] })).rejects.toThrow(/row filter/);
  });

  it('bad PNG structure: palette image without PLTE, IHDR not first, bad colour type/bit depth', () => {
    const noPlte = Buffer.concat([PNG_SIGNATURE, ihdr(4, 4, 8, 3), chunk('IDAT', Buffer.alloc(4)), chunk('IEND', Buffer.alloc(0))]);
    expect(() => inspectPng(noPlte)).toThrow(/without a palette/);
    const late = Buffer.concat([PNG_SIGNATURE, chunk('tEXt', Buffer.from('a\0b')), ihdr(4, 4, 8, 2), chunk('IEND', Buffer.alloc(0))]);
    expect(() => sniffImage(late)).toThrow(/IHDR must come first/);
    expect(() => sniffImage(Buffer.concat([PNG_SIGNATURE, ihdr(4, 4, 3, 2), chunk('IEND', Buffer.alloc(0))]))).toThrow(/colour type 2 with bit depth 3/);
  });
});

describe('POST /api/images/url-to-base64', async () => {
  const w = await createWorld();
  const post = (body: unknown, token: string | null = w.tokens.userA) => {
    const r = w.request().post('/api/images/url-to-base64');
    return (token ? r.set(bearer(token)) : r).send(body as object);
  };

  it('a stored PNG or JPEG → data: "data:<type>;base64,…" with the same bytes', async () => {
    const png = await pngOf(artworkRgb(W, H), W, H);
    const jpeg = await jpegOf(artworkRgb(W, H), W, H);
    const a = await post({ url: await storeFile(w.services.store, 'a.png', png) });
    expect(a.status).toBe(200);
    expect(a.body.success).toBe(true);
    expect(a.body.data).toBe(`data:image/png;base64,${png.toString('base64')}`);
    const b = await post({ url: await storeFile(w.services.store, 'b.jpg', jpeg) });
    expect(b.body.data).toBe(`data:image/jpeg;base64,${jpeg.toString('base64')}`);
  });

  it('not an image → 400; a refused URL → 400 "Artwork URL is not allowed: …"; no url → 400; no token → 401', async () => {
    const text = await post({ url: await storeFile(w.services.store, 'notes.png', Buffer.from('hello')) });
    expect(text.status).toBe(400);
    expect(text.body).toMatchObject({ success: false, error: 'URL must lead to a PNG, JPEG, WebP or GIF image.' });
    const local = await post({ url: 'http://127.0.0.1:8080/api/users/me' });
    expect(local.status).toBe(400);
    expect(local.body.error).toMatch(/^Artwork URL is not allowed/);
    const meta = await post({ url: 'http://169.254.169.254/latest/meta-data/' });
    expect(meta.status).toBe(400);
    expect(meta.body.error).toMatch(/^Artwork URL is not allowed/);
    const missing = await post({});
    expect(missing.status).toBe(400);
    expect(missing.body.error).toMatch(/^URL\b/);
    const anon = await post({ url: '/files/x.png' }, null);
    expect(anon.status).toBe(401);
  });
});
