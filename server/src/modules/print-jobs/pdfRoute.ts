// POST /api/pdf/from-print-job {id, images?, printInHouse?, from?} → the job's print file (print-file.pdf),
// made by the production module: the same bytes the provider fetches for the job.
import { Router } from 'express';
import type { Config } from '../../config';
import { allow } from '../../http/access';
import { actorOf } from '../../http/auth';
import { parse } from '../../http/validate';
import { PRINT_FILE_NAME } from '../pdf/printPdf';
import type { ProductionService } from '../production/service';
import { baseUrlOf } from '../uploads/routes';
import { pdfBody } from './schema';

export function printJobPdfRoutes(production: ProductionService, config: Config): Router {
  const r = Router();
  // The job named in the body is its own site's (another site's: 404).
  r.post('/from-print-job', allow.site.describe('A job\'s print file (print-file.pdf, PDF/X-4); from Jobs it counts as downloaded', { body: pdfBody }), async (req, res) => {
    const { id, images, printInHouse, from } = parse(pdfBody, req.body);
    const pdf = await production.downloadJobFile(actorOf(req), id, { ownOrigin: baseUrlOf(req, config), images, printInHouse, from });
    res
      .status(200)
      .set({ 'Content-Type': 'application/pdf', 'Content-Disposition': `attachment; filename="${PRINT_FILE_NAME}"`, 'Cache-Control': 'no-store' })
      .send(pdf);
  });
  return r;
}
