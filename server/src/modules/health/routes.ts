// GET /api/health (liveness: the process answers; no database call) and GET /api/health/ready
// (readiness: 200, or 503 in the error envelope with every check in `data`). Public: monitors and
// load balancers call them without a session; they say nothing beyond a sentence per check.
import { Router } from 'express';
import type { Liveness } from '../../../../common/api/health';
import { allow } from '../../http/access';
import { failWithData, ok } from '../../http/envelope';
import type { HealthService } from './service';

export function healthRoutes(health: HealthService): Router {
  const r = Router();
  r.get('/', allow.public.describe('Liveness: 200 while the process answers'), (_req, res) => {
    res.set('Cache-Control', 'no-store');
    ok<Liveness>(res, { status: 'ok' });
  });
  r.get('/ready', allow.public.describe('Readiness: database, migrations, files and disk checks; 503 when one fails'), async (_req, res) => {
    const readiness = await health.readiness();
    res.set('Cache-Control', 'no-store');
    if (readiness.status === 'ready') return ok(res, readiness);
    const failed = readiness.checks.filter((c) => !c.ok).map((c) => c.name);
    failWithData(res, 503, `Not ready: ${failed.join(', ')}`, readiness);
  });
  return r;
}
