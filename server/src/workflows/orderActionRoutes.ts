// /api/online-stores/…: the order screens' actions that compose orders with production and
// fulfilment — re-run an order's steps, Make in house, a line's print file and its pages.
import { Router } from 'express';
import { z } from 'zod';
import type { Config } from '../config';
import { allow } from '../http/access';
import { idempotent } from '../http/idempotency';
import { actorOf } from '../http/auth';
import { ok } from '../http/envelope';
import { HttpError } from '../http/errors';
import { parse } from '../http/validate';
import { baseUrlOf } from '../http/baseUrl';
import { PRINT_FILE_NAME } from '../modules/pdf';
import { lineFileBody, orderIdsBody, orderLineBody, orderRefBody, rerunOrderBody } from '../modules/orders';
import type { OrderActions } from './orderActions';

/** `{id | orderId, lineId, page?}`. */
const lineImagesBody = z.preprocess(
  (b) => (b && typeof b === 'object' && !('id' in b) && 'orderId' in b ? { ...b, id: (b as { orderId: unknown }).orderId } : b),
  orderLineBody.extend({ page: z.coerce.number({ error: 'must be a page number' }).int('must be a whole number').min(1, 'must be 1 or more').max(100, 'must be 100 or less').optional() }),
);

/** Mounted at /api/online-stores (after the JSON parser), beside the orders module's own routes. */
export function orderActionRoutes(orders: OrderActions, config: Config): Router {
  const r = Router();

  r.post('/rerun-order', allow.site.describe('Re-run an order\'s steps now: CRM, Adestra, e-card, send to HP', { body: rerunOrderBody }), idempotent, async (req, res) => {
    const actor = actorOf(req);
    const input = parse(rerunOrderBody, req.body);
    try {
      ok(res, await orders.rerunOrder(actor, input));
    } catch (err) {
      // The spec's re-submit failure: error, plus errorMes for the Error Data panel.
      if (!(err instanceof HttpError)) throw err;
      res.status(err.status).json({ success: false, error: err.message, errorMes: err.details ?? err.message, ...(err.status === 409 && err.details ? { details: err.details } : {}) });
    }
  });

  // `{id}`: one order's jobs (the spec's call); `{ids: [...]}`: List Orders' Make in house, each order's outcome.
  r.post('/shopify-webhook/order-to-arwork', allow.site.describe('Make in house: orders\' print jobs into the Jobs queue (ids: up to 25; or one id)', { body: [orderIdsBody, orderRefBody] }), async (req, res) => {
    if (req.body && typeof req.body === 'object' && 'ids' in req.body) {
      const { ids, siteId } = parse(orderIdsBody, req.body);
      ok(res, await orders.makeOrdersInHouse(actorOf(req), ids, siteId, baseUrlOf(req, config)));
      return;
    }
    const { id, siteId } = parse(orderRefBody, req.body);
    ok(res, await orders.orderToArtwork(actorOf(req), id, siteId, baseUrlOf(req, config)));
  });

  r.post('/shopify-webhook/hood-download-pdf', allow.site.describe('A line\'s print file; the line goes into Jobs, made in house and downloaded', { body: lineFileBody }), async (req, res) => {
    try {
      const pdf = await orders.linePdf(actorOf(req), parse(lineFileBody, req.body), baseUrlOf(req, config));
      res
        .status(200)
        .set({ 'Content-Type': 'application/pdf', 'Content-Disposition': `attachment; filename="${PRINT_FILE_NAME}"`, 'Cache-Control': 'no-store' })
        .send(pdf);
    } catch (err) {
      // The spec: "Download-pdf answers a file saved as print-file.pdf, or data.error".
      if (!(err instanceof HttpError)) throw err;
      res.status(err.status).json({ success: false, error: err.message, data: { error: err.message }, ...(err.field === undefined ? {} : { field: err.field }), ...(err.details === undefined ? {} : { details: err.details }) });
    }
  });

  // Personalised pages: every page, or one (`page`, 1-based, default 1) → {images, preview, missing}.
  r.post('/shopify-webhook/hood-generate-image', allow.site.describe('A line\'s pages drawn with its personalisation, as images', { body: lineImagesBody }), async (req, res) => {
    ok(res, await orders.lineImages(actorOf(req), parse(lineImagesBody, req.body), baseUrlOf(req, config)));
  });
  r.post('/shopify-webhook/hood-generate-page-content-image', allow.site.describe('One page of a line drawn with its personalisation, as an image', { body: lineImagesBody }), async (req, res) => {
    const input = parse(lineImagesBody, req.body);
    ok(res, await orders.lineImages(actorOf(req), { ...input, page: input.page ?? 1 }, baseUrlOf(req, config)));
  });

  return r;
}
