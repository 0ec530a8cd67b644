// The history's reads: a job's timeline (/api/print-jobs/:id/history), an order's
// (/api/online-stores/order-history?id=) and the admin trail (/api/history).
import { Router } from 'express';
import { allow } from '../../http/access';
import { actorOf } from '../../http/auth';
import { ok } from '../../http/envelope';
import { idParam, parse } from '../../http/validate';
import { orderHistoryQuery, trailQuery } from './schema';
import type { HistoryService } from './service';

/** Mounted at /api/print-jobs. */
export function jobHistoryRoutes(history: HistoryService): Router {
  const r = Router();
  r.get('/:id/history', allow.site.describe('A print job\'s history: who did what, when, from and to'), async (req, res) => {
    ok(res, await history.ofJob(actorOf(req), idParam(req.params.id)));
  });
  return r;
}

/** Mounted at /api/online-stores: another site's order is not found. */
export function orderHistoryRoutes(history: HistoryService): Router {
  const r = Router();
  r.get('/order-history', allow.ownSite.describe('A store order\'s history, its jobs\' and sends\' entries too', { query: orderHistoryQuery }), async (req, res) => {
    const q = parse(orderHistoryQuery, req.query);
    ok(res, await history.ofOrder(actorOf(req), q.id, q.siteId));
  });
  return r;
}

/** Mounted at /api/history: the whole trail, admins only. */
export function historyRoutes(history: HistoryService): Router {
  const r = Router();
  r.get('/', allow.admin.describe('The whole trail, newest first, by kind, site, who and day', { query: trailQuery }), async (req, res) => {
    ok(res, await history.trail(actorOf(req), parse(trailQuery, req.query)));
  });
  return r;
}
