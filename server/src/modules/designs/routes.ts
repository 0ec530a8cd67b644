import { Router } from 'express';
import type { Config } from '../../config';
import { allow } from '../../http/access';
import { idempotent } from '../../http/idempotency';
import { actorOf } from '../../http/auth';
import { ok } from '../../http/envelope';
import { idParam, parse } from '../../http/validate';
import { baseUrlOf } from '../uploads/routes';
import { frontImageBody, importBody, listQuery, upsertBody } from './schema';
import type { DesignsService } from './service';

export function designsRoutes(designs: DesignsService, config: Config): Router {
  const r = Router();
  r.get('/', allow.ownSite.describe('Product designs (admins every one, others their own)', { query: listQuery }), async (req, res) => {
    ok(res, await designs.list(actorOf(req), parse(listQuery, req.query)));
  });

  // data.data: [{sku, productType}] (spec §7).
  r.get('/all-with-product-type', allow.ownSite.describe('Every SKU with its design\'s product type'), async (req, res) => {
    ok(res, await designs.allWithProductType(actorOf(req)));
  });

  r.post('/', allow.ownSite.describe('Create or change a design', { body: upsertBody }), idempotent, async (req, res) => {
    ok(res, await designs.upsert(actorOf(req), parse(upsertBody, req.body)));
  });

  r.post('/import-from-json', allow.ownSite.describe('Import designs from a JSON export', { body: importBody }), idempotent, async (req, res) => {
    ok(res, await designs.importFromJson(actorOf(req), parse(importBody, req.body)));
  });

  r.post('/create-with-front-image', allow.ownSite.describe('Create a design from a front image', { body: frontImageBody }), idempotent, async (req, res) => {
    ok(res, await designs.createWithFrontImage(actorOf(req), parse(frontImageBody, req.body), baseUrlOf(req, config)));
  });

  r.get('/:id', allow.site.describe('One design'), async (req, res) => {
    ok(res, await designs.view(actorOf(req), idParam(req.params.id)));
  });

  r.delete('/:id', allow.site.describe('Delete a design (its creator or an admin)'), async (req, res) => {
    ok(res, await designs.remove(actorOf(req), idParam(req.params.id)));
  });

  return r;
}
