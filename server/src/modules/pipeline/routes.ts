// /api/orders/:orderId/pipeline: the steps of an order's pipeline, as Check order shows them.
import { Router } from 'express';
import { allow } from '../../http/access';
import { actorOf } from '../../http/auth';
import { ok } from '../../http/envelope';
import { fieldError } from '../../http/fieldErrors';
import { parse } from '../../http/validate';
import { detailQuery } from '../fulfilment/schema';
import type { PipelineService } from './service';

export function pipelineRoutes(pipeline: PipelineService): Router {
  const r = Router();
  r.get('/:orderId/pipeline', allow.site.describe('The charity pipeline\'s steps of an order, as Check order shows them', { query: detailQuery }), async (req, res) => {
    const orderId = String(req.params.orderId ?? '').trim();
    if (!orderId || orderId.length > 64) throw fieldError('orderId', 'is required (64 characters at most)');
    ok(res, await pipeline.ofOrder(actorOf(req), orderId, parse(detailQuery, req.query).siteId));
  });
  return r;
}
