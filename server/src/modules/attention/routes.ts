// /api/attention: Needs attention, asked every 30 s by the admin's page and menu (a read: no idempotency key).
import { Router } from 'express';
import { allow } from '../../http/access';
import { actorOf } from '../../http/auth';
import { ok } from '../../http/envelope';
import { parse } from '../../http/validate';
import { attentionQuery } from './schema';
import type { AttentionService } from './service';

export function attentionRoutes(attention: AttentionService): Router {
  const r = Router();
  r.get('/', allow.ownSite.describe('Needs attention: what is wrong on the floor, worst first, with counts', { query: attentionQuery }), async (req, res) => {
    ok(res, await attention.list(actorOf(req), parse(attentionQuery, req.query).clientId));
  });
  return r;
}
