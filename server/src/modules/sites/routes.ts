import { Router } from 'express';
import { z } from 'zod';
import { allow } from '../../http/access';
import { idempotent } from '../../http/idempotency';
import { actorOf } from '../../http/auth';
import { ok } from '../../http/envelope';
import { idParam, parse } from '../../http/validate';
import { siteBody } from './schema';
import type { SitesService } from './service';

export function sitesRoutes(sites: SitesService): Router {
  const r = Router();

  // Public: the sign-in page is branded before anyone signs in. Answer in data.data (spec §7).
  r.get('/info', allow.public, async (req, res) => {
    const { site, slug } = parse(z.object({ site: z.string().max(64).optional(), slug: z.string().max(64).optional() }), req.query);
    ok(res, { data: await sites.info(site ?? slug, req.actor) });
  });

  r.get('/', allow.admin, async (req, res) => {
    const { page } = parse(z.object({ page: z.coerce.number().int().min(1).optional() }), req.query);
    const limit = 100;
    const offset = ((page ?? 1) - 1) * limit;
    const { rows, total } = await sites.list(actorOf(req), {}, { field: 'id', order: 'asc' }, limit, offset);
    ok(res, { list: rows, hasNext: offset + rows.length < total, total });
  });

  r.get('/:id', allow.site, async (req, res) => {
    ok(res, await sites.get(actorOf(req), idParam(req.params.id)));
  });

  r.post('/', allow.admin, idempotent, async (req, res) => {
    ok(res, await sites.upsert(actorOf(req), parse(siteBody, req.body)));
  });

  return r;
}
