import { Router } from 'express';
import { allow } from '../../http/access';
import { idempotent } from '../../http/idempotency';
import { actorOf } from '../../http/auth';
import { ok } from '../../http/envelope';
import { idParam, parse } from '../../http/validate';
import { changeBody, createBody, listQuery, orderIdParam, reportsQuery } from './schema';
import type { PrintJobsService } from './service';
import type { Config } from '../../config';
import { baseUrlOf } from '../uploads/routes';

export function printJobsRoutes(jobs: PrintJobsService, config: Config): Router {
  const r = Router();
  r.get('/', allow.ownSite.describe('The Jobs queue (or Print History, or the held jobs): sorted, filtered, paged', { query: listQuery }), async (req, res) => {
    ok(res, await jobs.list(actorOf(req), parse(listQuery, req.query)));
  });

  r.get('/reports', allow.ownSite.describe('Print Reports\' figures over a period: prints, reprints, order-to-ship, on-time', { query: reportsQuery }), async (req, res) => {
    ok(res, await jobs.reports(actorOf(req), parse(reportsQuery, req.query)));
  });

  // The caller's site's jobs of that store order (another site's order: an empty list).
  r.get('/from-shopify-order/:orderId', allow.ownSite.describe('A store order\'s print jobs'), async (req, res) => {
    ok(res, await jobs.fromShopifyOrder(actorOf(req), parse(orderIdParam, req.params.orderId)));
  });

  // With id: a state change (downloaded, printed, not printed, reprint). Without: a new job.
  r.post('/', allow.ownSite.describe('Create a print job, or change one (with id): downloaded, printed, reprinted, notes', { body: [createBody, changeBody] }), idempotent, async (req, res) => {
    const body = (req.body ?? {}) as { id?: unknown };
    const hasId = body.id !== undefined && body.id !== null && body.id !== '';
    if (hasId) ok(res, await jobs.change(actorOf(req), parse(changeBody, body)));
    else ok(res, await jobs.create(actorOf(req), parse(createBody, body), { ownOrigin: baseUrlOf(req, config) }));
  });

  // Approve anyway: a held job joins the ready list (409 when it is not held).
  r.post('/:id/approve', allow.site.describe('Approve a job held by preflight: it prints as it is'), idempotent, async (req, res) => {
    ok(res, await jobs.approve(actorOf(req), idParam(req.params.id)));
  });

  // Re-check: drawn again from its design as it is now, then checked; the approval is cleared.
  r.post('/:id/recheck', allow.site.describe('Run preflight again on what the job prints now'), idempotent, async (req, res) => {
    ok(res, await jobs.recheck(actorOf(req), idParam(req.params.id), { ownOrigin: baseUrlOf(req, config) }));
  });

  r.get('/:id', allow.site.describe('One print job with its preflight findings and ship-by'), async (req, res) => {
    ok(res, await jobs.get(actorOf(req), idParam(req.params.id)));
  });

  r.delete('/:id', allow.site.describe('Delete a print job (its history is kept)'), async (req, res) => {
    ok(res, await jobs.remove(actorOf(req), idParam(req.params.id)));
  });

  return r;
}
