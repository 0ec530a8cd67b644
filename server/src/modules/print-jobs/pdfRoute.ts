// POST /api/pdf/from-print-job {id, images?} → the job's print file (print-file.pdf).
// The pregenerated PDF as is, else the 4 artwork pages (or `images`) on A5; serving it marks the job downloaded.
import { Router } from 'express';
import type { Config } from '../../config';
import { allow } from '../../http/access';
import { actorOf } from '../../http/auth';
import { HttpError, badRequest } from '../../http/errors';
import { parse } from '../../http/validate';
import type { ArtworkFetcher } from '../pdf/artwork';
import { assertFourPages, buildPrintPdf } from '../pdf/printPdf';
import { baseUrlOf } from '../uploads/routes';
import { pdfBody } from './schema';
import type { PrintJobsService } from './service';

export const PRINT_FILE_NAME = 'print-file.pdf';

/** A fetch failure names the page it belongs to. */
async function fetchPage(fetchArtwork: ArtworkFetcher, url: string, page: number, ownOrigin: string): Promise<Buffer> {
  try {
    return await fetchArtwork(url, { ownOrigin });
  } catch (err) {
    if (err instanceof HttpError && err.status === 400) throw badRequest(`page ${page}: ${err.message}`);
    throw err;
  }
}

export function printJobPdfRoutes(jobs: PrintJobsService, fetchArtwork: ArtworkFetcher, config: Config): Router {
  const r = Router();
  // The job named in the body is its own site's (another site's: 404).
  r.post('/from-print-job', allow.site, async (req, res) => {
    const actor = actorOf(req);
    const { id, images } = parse(pdfBody, req.body);
    const job = await jobs.getForPdf(actor, id);
    const ownOrigin = baseUrlOf(req, config);
    let pdf: Buffer;
    if (job.data.pregeneratedPDF) {
      try {
        pdf = await fetchArtwork(job.data.pregeneratedPDF, { ownOrigin });
      } catch (err) {
        if (err instanceof HttpError && err.status === 400) throw badRequest(`data.pregeneratedPDF: ${err.message}`);
        throw err;
      }
      if (pdf.subarray(0, 5).toString('latin1') !== '%PDF-') throw badRequest('data.pregeneratedPDF: the file is not a PDF');
    } else {
      const urls = images ?? job.artworkUrls;
      assertFourPages(urls.length);
      const pages = await Promise.all(urls.map((url, i) => fetchPage(fetchArtwork, url, i + 1, ownOrigin)));
      pdf = Buffer.from(await buildPrintPdf(pages));
    }
    await jobs.markDownloaded(actor, id);
    res
      .status(200)
      .set({ 'Content-Type': 'application/pdf', 'Content-Disposition': `attachment; filename="${PRINT_FILE_NAME}"`, 'Cache-Control': 'no-store' })
      .send(pdf);
  });
  return r;
}
