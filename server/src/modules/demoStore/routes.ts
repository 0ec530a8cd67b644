// /api/test/demo-store: the demo store's own controls (outside production only; 404 elsewhere).
import { Router } from 'express';
import { z } from 'zod';
import { allow } from '../../http/access';
import { actorOf } from '../../http/auth';
import { ok } from '../../http/envelope';
import { parse } from '../../http/validate';
import type { DemoStoreService } from './service';

const cancelBody = z.object({ id: z.union([z.string(), z.number()], { error: 'must be the store order id' }).transform((v) => String(v).trim()).pipe(z.string().min(1, 'is required').max(64)) });

export function demoStoreRoutes(demoStore: DemoStoreService): Router {
  const r = Router();
  // → {siteId}: the site whose orders Check order may cancel in the demo store (null: none for this user).
  r.get('/demo-store', allow.ownSite.describe('The demo store\'s site (outside production)'), async (req, res) => {
    ok(res, await demoStore.info(actorOf(req)));
  });
  // {id} → {sent: true}: the demo store cancelled the order and told the app (orders/cancelled).
  r.post('/demo-store/cancel', allow.site.describe('The demo store cancels its order and sends a signed orders/cancelled', { body: cancelBody }), async (req, res) => {
    ok(res, await demoStore.cancel(actorOf(req), parse(cancelBody, req.body).id));
  });
  return r;
}
