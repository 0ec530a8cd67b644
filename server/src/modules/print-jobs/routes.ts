import { Router } from 'express';
import { allow } from '../../http/access';
import { idempotent } from '../../http/idempotency';
import { actorOf } from '../../http/auth';
import { ok } from '../../http/envelope';
import { idParam, parse } from '../../http/validate';
import { changeBody, createBody, listQuery, orderIdParam, reportsQuery } from './schema';
import type { PrintJobsService } from './service';

export function printJobsRoutes(jobs: PrintJobsService): Router {
  const r = Router();
  r.get('/', allow.ownSite, async (req, res) => {
    ok(res, await jobs.list(actorOf(req), parse(listQuery, req.query)));
  });

  r.get('/reports', allow.ownSite, async (req, res) => {
    ok(res, await jobs.reports(actorOf(req), parse(reportsQuery, req.query)));
  });

  // The caller's site's jobs of that store order (another site's order: an empty list).
  r.get('/from-shopify-order/:orderId', allow.ownSite, async (req, res) => {
    ok(res, await jobs.fromShopifyOrder(actorOf(req), parse(orderIdParam, req.params.orderId)));
  });

  // With id: a state change (downloaded, printed, not printed, reprint). Without: a new job.
  r.post('/', allow.ownSite, idempotent, async (req, res) => {
    const body = (req.body ?? {}) as { id?: unknown };
    const hasId = body.id !== undefined && body.id !== null && body.id !== '';
    if (hasId) ok(res, await jobs.change(actorOf(req), parse(changeBody, body)));
    else ok(res, await jobs.create(actorOf(req), parse(createBody, body)));
  });

  r.get('/:id', allow.site, async (req, res) => {
    ok(res, await jobs.get(actorOf(req), idParam(req.params.id)));
  });

  r.delete('/:id', allow.site, async (req, res) => {
    ok(res, await jobs.remove(actorOf(req), idParam(req.params.id)));
  });

  return r;
}
