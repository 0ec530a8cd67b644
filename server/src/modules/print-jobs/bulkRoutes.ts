// POST /api/print-jobs/bulk {ids, action, reprintReason?, reprintResponsible?, reprintNote?} → {done, refused}; POST /api/print-jobs/bulk-pdf {ids, from?} → print-files.pdf.
import { pipeline } from 'node:stream/promises';
import { Router } from 'express';
import type { Config } from '../../config';
import { allow } from '../../http/access';
import { actorOf } from '../../http/auth';
import { ok } from '../../http/envelope';
import { idempotent } from '../../http/idempotency';
import { parse } from '../../http/validate';
import { BULK_PDF_FILE_NAME } from '../../../../common/api/bulk';
import type { BulkPrintFiles } from '../production/bulkPdf';
import { baseUrlOf } from '../uploads/routes';
import type { BulkPrintJobActions } from './bulk';
import { bulkBody, bulkPdfBody } from './schema';

export function bulkPrintJobRoutes(actions: BulkPrintJobActions, files: BulkPrintFiles, config: Config): Router {
  const r = Router();
  // Each id as its own button would treat it (another site's: refused as not found).
  r.post('/bulk', allow.ownSite.describe('Mark printed, reprint or delete many jobs; each refusal named (500 ids at most)', { body: bulkBody }), idempotent, async (req, res) => {
    const { ids, action, ...why } = parse(bulkBody, req.body);
    ok(res, await actions.run(actorOf(req), ids, action, why));
  });

  r.post('/bulk-pdf', allow.ownSite.describe('One PDF of many jobs\' print files, in the list\'s order', { body: bulkPdfBody }), async (req, res) => {
    const { ids, from } = parse(bulkPdfBody, req.body);
    const { stream, size } = await files.download(actorOf(req), ids, { from, ownOrigin: baseUrlOf(req, config) });
    res.status(200).set({
      'Content-Type': 'application/pdf',
      'Content-Length': String(size),
      'Content-Disposition': `attachment; filename="${BULK_PDF_FILE_NAME}"`,
      'Cache-Control': 'no-store',
    });
    await pipeline(stream, res);
  });
  return r;
}
