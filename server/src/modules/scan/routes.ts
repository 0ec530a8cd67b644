// POST /api/scan {code} → {job, order, advancedTo, orderComplete}: the packing bench's scan.
import { Router } from 'express';
import { allow } from '../../http/access';
import { actorOf } from '../../http/auth';
import { ok } from '../../http/envelope';
import { idempotent } from '../../http/idempotency';
import { parse } from '../../http/validate';
import { scanBody } from './schema';
import type { ScanService } from './service';

export function scanRoutes(scan: ScanService): Router {
  const r = Router();
  // The code names the job: another site's job is not found (the print-jobs service's tenancy).
  r.post('/', allow.ownSite.describe('Scan a slug code at the packing bench: the job printed, or a copy packed', { body: scanBody }), idempotent, async (req, res) => {
    ok(res, await scan.scan(actorOf(req), parse(scanBody, req.body).code));
  });
  return r;
}
