// POST /api/pdf/from-image {url | urls[]} → a PDF/X-4 file with one card-size page (A5 + 3 mm bleed)
// per image (print-file.pdf).
// POST /api/pdf/crop-bleed-pdf-to-front-page-image {url, bleedMm?=3} → PNG of page 1, bleed cut off.
// (POST /api/pdf/from-print-job lives with the print jobs: modules/print-jobs/pdfRoute.ts.)
import { Router } from 'express';
import { z } from 'zod';
import type { Config } from '../../config';
import { isoNow, type Clock } from '../../lib/clock';
import type { Metrics } from '../../lib/metrics';
import { allow } from '../../http/access';
import { HttpError, badRequest } from '../../http/errors';
import { parse } from '../../http/validate';
import { baseUrlOf } from '../uploads/routes';
import type { ArtworkFetcher } from './artwork';
import { PDF_EMPTY, PRINT_FILE_NAME, buildArtworkPdf, configurePdf, renderFrontPagePng } from './printPdf';
import { fieldError } from '../../http/fieldErrors';

const MAX_IMAGES = 20;

const url = z.string().trim().min(1, 'is required').max(4_000_000);

const fromImageBody = z
  .object({
    url: url.optional(),
    urls: z.array(url).max(MAX_IMAGES, `has too many images (${MAX_IMAGES} at most)`).optional(),
  })
  // Nothing to print: the spec's "PDF Empty".
  .refine((b) => b.url !== undefined || (b.urls?.length ?? 0) > 0, { message: PDF_EMPTY });

const cropBody = z.object({
  url,
  bleedMm: z.coerce.number().min(0, 'must be 0 or more').max(50, 'must be 50 or less').default(3),
});

/** Fetches artwork pages; a 400 names the page it belongs to. */
export async function fetchPages(fetchArtwork: ArtworkFetcher, urls: string[], ownOrigin: string): Promise<Buffer[]> {
  return Promise.all(
    urls.map(async (u, i) => {
      try {
        return await fetchArtwork(u, { ownOrigin });
      } catch (err) {
        if (err instanceof HttpError && err.status === 400) throw badRequest(`Page ${i + 1}: ${err.message}`);
        throw err;
      }
    }),
  );
}

export function pdfRoutes(fetchArtwork: ArtworkFetcher, config: Config, clock: Clock, metrics?: Metrics): Router {
  configurePdf({ timeoutMs: config.artwork.pdfTimeoutMs });
  const r = Router();

  r.post('/from-image', allow.signedIn.describe('A PDF/X-4 with one card-size page per image', { body: fromImageBody }), async (req, res) => {
    const body = parse(fromImageBody, req.body);
    const urls = [...(body.url !== undefined ? [body.url] : []), ...(body.urls ?? [])];
    if (urls.length > MAX_IMAGES) throw fieldError('urls', `can have at most ${MAX_IMAGES} images`);
    const pages = await fetchPages(fetchArtwork, urls, baseUrlOf(req, config));
    // No job behind this file: it is dated when it is made, and named by its artwork alone.
    const pdf = await buildArtworkPdf(pages, { file: { owner: 'artwork', title: PRINT_FILE_NAME, createdAt: isoNow(clock) }, observe: metrics?.pdfTask.printFile });
    res
      .status(200)
      .set({ 'Content-Type': 'application/pdf', 'Content-Disposition': `attachment; filename="${PRINT_FILE_NAME}"`, 'Cache-Control': 'no-store' })
      .send(Buffer.from(pdf.buffer, pdf.byteOffset, pdf.byteLength));
  });

  r.post('/crop-bleed-pdf-to-front-page-image', allow.signedIn.describe('A PDF\'s front page as an image, its bleed cropped', { body: cropBody }), async (req, res) => {
    const { url: pdfUrl, bleedMm } = parse(cropBody, req.body);
    const pdf = await fetchArtwork(pdfUrl, { ownOrigin: baseUrlOf(req, config) });
    if (pdf.subarray(0, 5).toString('latin1') !== '%PDF-') throw fieldError('url', 'leads to a file that is not a PDF');
    const png = await renderFrontPagePng(pdf, bleedMm, undefined, { observe: metrics?.pdfTask.frontPage });
    res.status(200).set({ 'Content-Type': 'image/png', 'Content-Disposition': 'inline; filename="front-page.png"', 'Cache-Control': 'no-store' }).send(png);
  });

  return r;
}
