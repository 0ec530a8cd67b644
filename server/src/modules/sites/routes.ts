import { Router } from 'express';
import { z } from 'zod';
import { allow } from '../../http/access';
import { idempotent } from '../../http/idempotency';
import { actorOf } from '../../http/auth';
import { ok } from '../../http/envelope';
import { idParam, parse } from '../../http/validate';
import { siteBody } from './schema';
import type { SitesService } from './service';

/** Which site's look: by slug (`site` or `slug`), else the caller's, else the default. */
const infoQuery = z.object({ site: z.string().max(64).optional(), slug: z.string().max(64).optional() });
/** A page of a list (1 when absent). */
const pageQuery = z.object({ page: z.coerce.number().int().min(1).optional() });

export function sitesRoutes(sites: SitesService): Router {
  const r = Router();

  // Public: the sign-in page is branded before anyone signs in. Answer in data.data (spec §7).
  r.get('/info', allow.public.describe('A site\'s public look (name, colour, logo) for branding; never its settings', { query: infoQuery }), async (req, res) => {
    const { site, slug } = parse(infoQuery, req.query);
    ok(res, { data: await sites.info(site ?? slug, req.actor) });
  });

  r.get('/', allow.admin.describe('Every site, a page at a time', { query: pageQuery }), async (req, res) => {
    const { page } = parse(pageQuery, req.query);
    const limit = 100;
    const offset = ((page ?? 1) - 1) * limit;
    const { rows, total } = await sites.list(actorOf(req), {}, { field: 'id', order: 'asc' }, limit, offset);
    ok(res, { list: rows, hasNext: offset + rows.length < total, total });
  });

  r.get('/:id', allow.site.describe('One site with its settings (secrets masked)'), async (req, res) => {
    ok(res, await sites.get(actorOf(req), idParam(req.params.id)));
  });

  r.post('/', allow.admin.describe('Create or change a site: name, slug, colour, logo, settings.env', { body: siteBody }), idempotent, async (req, res) => {
    ok(res, await sites.upsert(actorOf(req), parse(siteBody, req.body)));
  });

  return r;
}
