// The print PDF: page rules and size, pass-through embedding that is pixel-exact, refused images
// (truncated, pixel floods, not images), the time limit, the cache, and the /api/pdf routes.
import zlib from 'node:zlib';
import express from 'express';
import fc from 'fast-check';
import { PDFDocument } from 'pdf-lib';
import sharp from 'sharp';
import supertest, { type Response } from 'supertest';
import { afterAll, describe, expect, it } from 'vitest';
import { HttpError } from '../src/http/errors';
import { errorHandler } from '../src/http/errorHandler';
import { createLogger } from '../src/lib/logger';
import { MAX_PIXELS } from '../src/modules/images/inspect';
import { loadCmykProfile } from '../src/modules/pdf/cmykProfile';
import {
  ONLY_4_PAGES,
  PDF_EMPTY,
  TOO_LONG,
  buildArtworkPdf,
  buildPrintPdf,
  clearPdfCache,
  configurePdf,
  pdfCacheStats,
  renderFrontPagePng,
} from '../src/modules/pdf/printPdf';
import { bearer, createWorld } from './harness';
import { artworkRgb, chunk, encodePng, ihdr, imagesOnPage, jpegOf, noise, PNG_SIGNATURE, pngOf, rowBytesOf, sharpRgb, storeFile } from './imageFixtures';

const binary = (res: Response, cb: (err: Error | null, body: Buffer) => void) => {
  const chunks: Buffer[] = [];
  res.on('data', (c: Buffer) => chunks.push(c));
  res.on('end', () => cb(null, Buffer.concat(chunks)));
};

/** The HttpError a promise rejects with. */
async function httpError(p: Promise<unknown>): Promise<HttpError> {
  try {
    await p;
  } catch (err) {
    if (err instanceof HttpError) return err;
    throw err;
  }
  throw new Error('expected an HttpError');
}

const W = 60;
const H = 85;
const rgb = artworkRgb(W, H, 7);
const fixtures = {
  png: () => pngOf(rgb, W, H),
  jpeg: () => jpegOf(rgb, W, H),
};

/** Whose file the test files are: fixed, so the bytes are too. */
const FILE = { owner: 'test', title: 'Test card', createdAt: '2026-11-20T09:30:00.000Z' };
// A5 + 3 mm bleed on every side, in points; the TrimBox is A5.
const CARD_PAGE = { width: 436.535, height: 612.283 };

afterAll(() => configurePdf({ timeoutMs: 30_000 }));

describe('buildPrintPdf: pages and size', () => {
  it('4 PNG/JPEG pages → a PDF of exactly 4 card pages, A5 + 3 mm bleed (436.54 × 612.28 pt), one image each', async () => {
    const png = await fixtures.png();
    const jpeg = await fixtures.jpeg();
    const pdf = await buildPrintPdf([png, jpeg, png, jpeg], { file: FILE, cache: false });
    expect(Buffer.from(pdf.subarray(0, 5)).toString('latin1')).toBe('%PDF-');
    const doc = await PDFDocument.load(pdf);
    expect(doc.getPageCount()).toBe(4);
    for (const page of doc.getPages()) {
      expect(page.getWidth()).toBeCloseTo(CARD_PAGE.width, 2);
      expect(page.getHeight()).toBeCloseTo(CARD_PAGE.height, 2);
      expect(page.getTrimBox().width).toBeCloseTo(419.53, 2);
      expect(page.getTrimBox().height).toBeCloseTo(595.28, 2);
    }
    // Each page paints its one image.
    for (let p = 1; p <= 4; p++) {
      const images = await imagesOnPage(pdf, p);
      expect(images).toHaveLength(1);
      expect([images[0].width, images[0].height]).toEqual([W, H]);
    }
  });

  it('0 pages → "PDF Empty"; 1, 3, 5 pages → "Only support 4 pages A5"', async () => {
    const png = await fixtures.png();
    expect(await httpError(buildPrintPdf([], { file: FILE }))).toMatchObject({ status: 400, message: PDF_EMPTY });
    for (const n of [1, 3, 5]) expect(await httpError(buildPrintPdf(new Array(n).fill(png), { file: FILE }))).toMatchObject({ status: 400, message: ONLY_4_PAGES });
  });

  it('the errors reach the client as JSON 400 envelopes with the exact texts', async () => {
    const png = await fixtures.png();
    const app = express();
    app.use(express.json());
    app.post('/pdf', async (req, res) => {
      const pdf = await buildPrintPdf(new Array(req.body.n).fill(png), { file: FILE });
      res.type('application/pdf').send(Buffer.from(pdf));
    });
    app.use(errorHandler(createLogger('silent')));
    const empty = await supertest(app).post('/pdf').send({ n: 0 });
    expect(empty.status).toBe(400);
    expect(empty.headers['content-type']).toMatch(/json/);
    expect(empty.body).toEqual({ success: false, error: 'PDF Empty' });
    const three = await supertest(app).post('/pdf').send({ n: 3 });
    expect(three.status).toBe(400);
    expect(three.body).toEqual({ success: false, error: 'Only support 4 pages A5' });
    const four = await supertest(app).post('/pdf').send({ n: 4 }).buffer(true).parse(binary);
    expect(four.status).toBe(200);
    expect((await PDFDocument.load(four.body as Buffer)).getPageCount()).toBe(4);
  });
});

describe('pass-through embedding is pixel-exact', () => {
  it('JPEG: the DCT data is in the PDF byte for byte', async () => {
    const jpeg = await fixtures.jpeg();
    const pdf = Buffer.from(await buildArtworkPdf([jpeg], { file: FILE, cache: false }));
    expect(pdf.indexOf(jpeg)).toBeGreaterThan(0);
    // Nothing else of size: the image, the output intent's CMYK profile (compressed) and a few objects.
    const profile = zlib.deflateSync((await loadCmykProfile()).bytes, { level: 9 }).length;
    expect(pdf.length).toBeLessThan(jpeg.length + profile + 6000);
  });

  it('opaque 8-bit RGB PNG: the zlib data is in the PDF as is, and pdf.js decodes exactly the pixels sharp decodes', async () => {
    const png = await fixtures.png();
    const idat = png.subarray(png.indexOf('IDAT') + 4, png.indexOf('IEND') - 8);
    const pdf = await buildArtworkPdf([png], { file: FILE, cache: false });
    expect(Buffer.from(pdf).indexOf(idat.subarray(0, 64))).toBeGreaterThan(0);
    const [img] = await imagesOnPage(pdf, 1);
    const ref = await sharpRgb(png);
    expect([img.width, img.height]).toEqual([ref.width, ref.height]);
    expect(img.rgb.equals(ref.rgb)).toBe(true);
  });

  const cases: Array<[string, () => Promise<Buffer>]> = [
    ['8-bit gray', async () => encodePng({ width: 37, height: 23, bitDepth: 8, colorType: 0, raw: noise(37 * 23, 3), filters: [0, 1, 2, 3, 4] })],
    ['4-bit gray', async () => encodePng({ width: 37, height: 9, bitDepth: 4, colorType: 0, raw: noise(rowBytesOf({ width: 37, bitDepth: 4, colorType: 0 }) * 9, 4), filters: [4, 3, 2, 1, 0, 4] })],
    [
      '8-bit palette',
      async () => encodePng({ width: 31, height: 17, bitDepth: 8, colorType: 3, raw: Buffer.from(noise(31 * 17, 5).map((v) => v % 200)), palette: noise(200 * 3, 6), filters: [1, 4, 0, 2, 3] }),
    ],
    [
      '2-bit palette',
      async () => encodePng({ width: 29, height: 11, bitDepth: 2, colorType: 3, raw: noise(rowBytesOf({ width: 29, bitDepth: 2, colorType: 3 }) * 11, 7), palette: noise(4 * 3, 8), filters: [2, 4] }),
    ],
    ['sharp palette PNG', async () => sharp(rgb, { raw: { width: W, height: H, channels: 3 } }).png({ palette: true, colours: 16 }).toBuffer()],
    ['split IDAT chunks', async () => encodePng({ width: 40, height: 30, bitDepth: 8, colorType: 2, raw: noise(40 * 30 * 3, 9), filters: [4, 1, 3], idatSize: 100 })],
    // Decoded by sharp (flattened on white), stored as Flate pixels.
    ['RGBA with varying alpha', async () => sharp(noise(W * H * 4, 10), { raw: { width: W, height: H, channels: 4 } }).png().toBuffer()],
    ['gray + alpha', async () => encodePng({ width: 21, height: 13, bitDepth: 8, colorType: 4, raw: noise(21 * 13 * 2, 11) })],
    ['16-bit RGB', async () => encodePng({ width: 19, height: 7, bitDepth: 16, colorType: 2, raw: noise(19 * 7 * 6, 12), filters: [1, 2, 3, 4] })],
    ['RGB with a tRNS colour key', async () => encodePng({ width: 16, height: 8, bitDepth: 8, colorType: 2, raw: noise(16 * 8 * 3, 13), trns: Buffer.from([0, 1, 0, 2, 0, 3]) })],
    ['interlaced', async () => sharp(rgb, { raw: { width: W, height: H, channels: 3 } }).png({ progressive: true }).toBuffer()],
  ];
  for (const [name, make] of cases) {
    it(`${name}: pdf.js decodes exactly sharp's pixels`, async () => {
      const png = await make();
      const pdf = await buildArtworkPdf([png], { file: FILE, cache: false });
      const [img] = await imagesOnPage(pdf, 1);
      const ref = await sharpRgb(png);
      expect([img.width, img.height]).toEqual([ref.width, ref.height]);
      expect(img.rgb.equals(ref.rgb)).toBe(true);
    });
  }

  it('property: any opaque 8-bit RGB/gray PNG with any row filters round-trips exactly', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.record({
          width: fc.integer({ min: 1, max: 24 }),
          height: fc.integer({ min: 1, max: 12 }),
          colorType: fc.constantFrom(0, 2),
          seed: fc.integer({ min: 1, max: 1e9 }),
          filters: fc.array(fc.integer({ min: 0, max: 4 }), { minLength: 12, maxLength: 12 }),
        }),
        async ({ width, height, colorType, seed, filters }) => {
          const png = encodePng({ width, height, bitDepth: 8, colorType, raw: noise(width * height * (colorType === 2 ? 3 : 1), seed), filters });
          const [img] = await imagesOnPage(await buildArtworkPdf([png], { file: FILE, cache: false }), 1);
          const ref = await sharpRgb(png);
          expect(img.rgb.equals(ref.rgb)).toBe(true);
        },
      ),
      { numRuns: 25 },
    );
  });
});

describe('bad artwork is refused with 400 naming the page, never a hang', () => {
  const pageError = async (pages: Buffer[]) => httpError(buildPrintPdf(pages, { file: FILE, cache: false }));

  it('a truncated PNG (cut inside its image data)', async () => {
    const good = await fixtures.png();
    const err = await pageError([good, good.subarray(0, Math.floor(good.length * 0.6)), good, good]);
    expect(err.status).toBe(400);
    expect(err.message).toMatch(/^Page 2: the file is truncated/);
  });

  it('a PNG whose image data is truncated but whose chunks are well-formed (valid CRCs, IEND)', async () => {
    const full = encodePng({ width: 50, height: 40, bitDepth: 8, colorType: 2, raw: noise(50 * 40 * 3, 21) });
    const z = full.subarray(full.indexOf('IDAT') + 4, full.indexOf('IEND') - 8);
    const cut = Buffer.concat([PNG_SIGNATURE, ihdr(50, 40, 8, 2), chunk('IDAT', z.subarray(0, z.length >> 1)), chunk('IEND', Buffer.alloc(0))]);
    const err = await pageError([full, full, full, cut]);
    expect(err.status).toBe(400);
    expect(err.message).toMatch(/^Page 4: /);
  });

  it('a PNG with a corrupted byte (bad CRC)', async () => {
    const bad = Buffer.from(await fixtures.png());
    bad[bad.indexOf('IDAT') + 40] ^= 0xff;
    const err = await pageError([bad, bad, bad, bad]);
    expect(err.status).toBe(400);
    expect(err.message).toMatch(/^Page 1: /);
  });

  it('a truncated PNG with alpha (the decoding path)', async () => {
    const rgba = await sharp(noise(W * H * 4, 22), { raw: { width: W, height: H, channels: 4 } }).png().toBuffer();
    const err = await pageError([rgba, rgba, rgba.subarray(0, rgba.length - 100), rgba]);
    expect(err).toMatchObject({ status: 400 });
    expect(err.message).toMatch(/^Page 3: /);
  });

  it('pixel floods: huge IHDR dimensions with a tiny file', async () => {
    const good = await fixtures.png();
    for (const [w, h] of [
      [100_000, 100_000],
      [9000, 7000],
      [2 ** 31 - 1, 1],
    ]) {
      const flood = Buffer.concat([PNG_SIGNATURE, ihdr(w, h, 8, 2), chunk('IDAT', zlib.deflateSync(Buffer.alloc(1000))), chunk('IEND', Buffer.alloc(0))]);
      const err = await pageError([good, flood, good, good]);
      expect(err.status).toBe(400);
      expect(err.message).toMatch(/^Page 2: the image is too large/);
    }
    expect(9000 * 7000).toBeGreaterThan(MAX_PIXELS);
  });

  it('a JPEG pixel flood and a truncated JPEG', async () => {
    const jpeg = Buffer.from(await fixtures.jpeg());
    const flood = Buffer.from(jpeg);
    const sof = flood.indexOf(Buffer.from([0xff, 0xc0]));
    flood.writeUInt16BE(65_000, sof + 5);
    flood.writeUInt16BE(65_000, sof + 7);
    expect((await pageError([flood, jpeg, jpeg, jpeg])).message).toMatch(/^Page 1: the image is too large/);
    const cut = await pageError([jpeg, jpeg, jpeg, jpeg.subarray(0, jpeg.length - 200)]);
    expect(cut.status).toBe(400);
    expect(cut.message).toMatch(/^Page 4: the file is truncated/);
  });

  it('not an image, or an empty file', async () => {
    const png = await fixtures.png();
    expect((await pageError([png, png, png, Buffer.from('<svg xmlns="http://www.w3.org/2000/svg"/>')])).message).toBe('Page 4: artwork must be a PNG or JPEG image');
    expect((await pageError([Buffer.alloc(0), png, png, png])).message).toBe('Page 1: the artwork file is empty');
  });
});

describe('time limit and cache', () => {
  it('over PDF_TIMEOUT_MS → 503 "PDF generation took too long"; the next PDF still works', async () => {
    const big = await pngOf(artworkRgb(600, 800, 3), 600, 800);
    const err = await httpError(buildPrintPdf([big, big, big, big], { file: FILE, cache: false, timeoutMs: 5 }));
    expect(err.status).toBe(503);
    expect(err.message).toBe(TOO_LONG);
    const pdf = await buildPrintPdf([big, big, big, big], { file: FILE, cache: false });
    expect((await PDFDocument.load(pdf)).getPageCount()).toBe(4);
  });

  it('a render over the limit is stopped too (its worker is replaced), and the next render works', async () => {
    const pdf = Buffer.from(await buildArtworkPdf([await pngOf(artworkRgb(600, 800, 4), 600, 800)], { file: FILE, cache: false }));
    const err = await httpError(renderFrontPagePng(pdf, 3, 600, { timeoutMs: 20 }));
    expect(err).toMatchObject({ status: 503, message: TOO_LONG });
    const png = await renderFrontPagePng(pdf, 3, 72);
    expect((await sharp(png).metadata()).format).toBe('png');
   }, 60_000);

  it('identical artwork → the cached PDF; different artwork → a new one', async () => {
    clearPdfCache();
    const png = await fixtures.png();
    const jpeg = await fixtures.jpeg();
    const before = pdfCacheStats();
    const first = await buildPrintPdf([png, jpeg, png, jpeg], { file: FILE });
    const second = await buildPrintPdf([Buffer.from(png), Buffer.from(jpeg), Buffer.from(png), Buffer.from(jpeg)], { file: FILE });
    expect(second).toBe(first);
    const after = pdfCacheStats();
    expect(after.hits - before.hits).toBe(1);
    expect(after.misses - before.misses).toBe(1);
    const other = await buildPrintPdf([jpeg, png, jpeg, png], { file: FILE });
    expect(other).not.toBe(first);
    expect(pdfCacheStats().misses - after.misses).toBe(1);
    // Concurrent identical requests build once.
    clearPdfCache();
    const [a, b] = await Promise.all([buildPrintPdf([png, png, png, png], { file: FILE }), buildPrintPdf([png, png, png, png], { file: FILE })]);
    expect(a).toBe(b);
  });
});

describe('/api/pdf routes', async () => {
  const w = await createWorld();
  const post = (path: string, body: unknown, token = w.tokens.userA) => w.request().post(path).set(bearer(token)).send(body as object).buffer(true).parse(binary);
  const json = (res: Response) => JSON.parse((res.body as Buffer).toString());

  it('POST /api/pdf/from-image {url} → one card-size page (A5 + bleed); {urls} → one page per image (print-file.pdf)', async () => {
    const png = await storeFile(w.services.store, 'a.png', await fixtures.png());
    const jpeg = await storeFile(w.services.store, 'b.jpg', await fixtures.jpeg());
    const one = await post('/api/pdf/from-image', { url: png });
    expect(one.status).toBe(200);
    expect(one.headers['content-type']).toBe('application/pdf');
    expect(one.headers['content-disposition']).toBe('attachment; filename="print-file.pdf"');
    const doc = await PDFDocument.load(one.body as Buffer);
    expect(doc.getPageCount()).toBe(1);
    expect(doc.getPage(0).getSize().width).toBeCloseTo(CARD_PAGE.width, 2);
    expect(doc.getPage(0).getTrimBox().width).toBeCloseTo(419.53, 2);
    const three = await post('/api/pdf/from-image', { urls: [png, jpeg, `data:image/png;base64,${(await fixtures.png()).toString('base64')}`] });
    expect(three.status).toBe(200);
    expect((await PDFDocument.load(three.body as Buffer)).getPageCount()).toBe(3);
  });

  it('from-image: nothing → "PDF Empty"; a bad or refused URL → 400 naming the page; no token → 401', async () => {
    const empty = await post('/api/pdf/from-image', { urls: [] });
    expect(empty.status).toBe(400);
    expect(json(empty)).toMatchObject({ success: false, error: 'PDF Empty' });
    const png = await storeFile(w.services.store, 'a.png', await fixtures.png());
    const refused = await post('/api/pdf/from-image', { urls: [png, 'http://169.254.169.254/latest/meta-data/'] });
    expect(refused.status).toBe(400);
    expect(json(refused).error).toMatch(/^Page 2: Artwork URL is not allowed/);
    const text = await storeFile(w.services.store, 'x.png', Buffer.from('not an image'));
    const bad = await post('/api/pdf/from-image', { url: text });
    expect(bad.status).toBe(400);
    expect(json(bad).error).toBe('Page 1: artwork must be a PNG or JPEG image');
    const anon = await w.request().post('/api/pdf/from-image').send({ url: png });
    expect(anon.status).toBe(401);
  });

  it('POST /api/pdf/crop-bleed-pdf-to-front-page-image → PNG of page 1 at 150 dpi with the bleed cut off', async () => {
    // Artwork with a 3 mm red bleed frame around a blue page: it fills the card page, bleed and all.
    const wPx = 909; // 154 mm at 150 dpi
    const hPx = 1276; // 216 mm at 150 dpi
    const bleed = Math.round((3 / 25.4) * 150);
    const art = await sharp({ create: { width: wPx, height: hPx, channels: 3, background: '#ff0000' } })
      .composite([{ input: await sharp({ create: { width: wPx - 2 * bleed, height: hPx - 2 * bleed, channels: 3, background: '#0000ff' } }).png().toBuffer(), left: bleed, top: bleed }])
      .png()
      .toBuffer();
    const pdf = Buffer.from(await buildArtworkPdf([art, await fixtures.png()], { file: FILE, cache: false }));
    const url = await storeFile(w.services.store, 'card.pdf', pdf);
    const res = await post('/api/pdf/crop-bleed-pdf-to-front-page-image', { url });
    expect(res.status).toBe(200);
    expect(res.headers['content-type']).toBe('image/png');
    const { data, info } = await sharp(res.body as Buffer).removeAlpha().raw().toBuffer({ resolveWithObject: true });
    expect(info.width).toBe(Math.round((148 / 25.4) * 150));
    expect(info.height).toBe(Math.round((210 / 25.4) * 150));
    // No red left at the edges: the bleed is gone.
    for (const [x, y] of [
      [1, 1],
      [info.width - 2, 1],
      [1, info.height - 2],
      [info.width - 2, info.height - 2],
      [info.width >> 1, info.height >> 1],
    ]) {
      const o = (y * info.width + x) * 3;
      expect(data[o]).toBeLessThan(60);
      expect(data[o + 2]).toBeGreaterThan(200);
    }
    const none = await post('/api/pdf/crop-bleed-pdf-to-front-page-image', { url, bleedMm: 0 });
    expect((await sharp(none.body as Buffer).metadata()).width).toBe(Math.round((154 / 25.4) * 150));
   }, 60_000);

  it('crop-bleed: not a PDF, a broken PDF, a bad bleed → 400', async () => {
    const png = await storeFile(w.services.store, 'a.png', await fixtures.png());
    const notPdf = await post('/api/pdf/crop-bleed-pdf-to-front-page-image', { url: png });
    expect(notPdf.status).toBe(400);
    expect(json(notPdf).error).toBe('URL leads to a file that is not a PDF.');
    const broken = await storeFile(w.services.store, 'broken.pdf', Buffer.from('%PDF-1.7\n1 0 obj\n<<>>\nendobj\n'));
    const res = await post('/api/pdf/crop-bleed-pdf-to-front-page-image', { url: broken });
    expect(res.status).toBe(400);
    expect(json(res).success).toBe(false);
    const bleed = await post('/api/pdf/crop-bleed-pdf-to-front-page-image', { url: broken, bleedMm: -1 });
    expect(bleed.status).toBe(400);
    expect(json(bleed).error).toMatch(/^Bleed mm\b/);
   }, 60_000);
});
