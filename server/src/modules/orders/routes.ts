// /api/online-stores/…: the store's order webhook (raw body, HMAC) and the order screens' actions.
import express, { Router } from 'express';
import { z } from 'zod';
import type { Config } from '../../config';
import { allow } from '../../http/access';
import { idempotent } from '../../http/idempotency';
import { actorOf } from '../../http/auth';
import { ok } from '../../http/envelope';
import { HttpError } from '../../http/errors';
import { parse } from '../../http/validate';
import { PRINT_FILE_NAME } from '../pdf';
import { baseUrlOf } from '../../http/baseUrl';
import { checkOrderBody, lineFileBody, orderIdsBody, orderLineBody, orderRefBody, reconcileBody, rerunOrderBody, storeSiteBody } from './schema';
import type { OrdersService } from './service';
import type { StoresService } from './stores';

/** `{id | orderId, lineId, page?}`. */
const lineImagesBody = z.preprocess(
  (b) => (b && typeof b === 'object' && !('id' in b) && 'orderId' in b ? { ...b, id: (b as { orderId: unknown }).orderId } : b),
  orderLineBody.extend({ page: z.coerce.number({ error: 'must be a page number' }).int('must be a whole number').min(1, 'must be 1 or more').max(100, 'must be 100 or less').optional() }),
);

export const SHOPIFY_WEBHOOK_PATH = '/api/online-stores/shopify-webhook';
/** Built once: a zod schema made per request costs more than the rest of the check. */
const webhookQuery = z.object({ site: z.string().max(64).optional() });

/**
 * POST /api/online-stores/shopify-webhook — mounted on the app before /api's JSON parser: the
 * signature is over the raw bytes. 200 as soon as the delivery is stored; processing follows.
 */
export function shopifyWebhookRoutes(orders: OrdersService, config: Config): Router {
  const r = Router();
  r.post(SHOPIFY_WEBHOOK_PATH, allow.credential('Shopify HMAC of the raw body (the site\'s webhook secret)'), express.raw({ type: () => true, limit: config.bodyLimit }), async (req, res) => {
    const { site } = parse(webhookQuery, req.query);
    const answer = await orders.receiveWebhook({
      rawBody: Buffer.isBuffer(req.body) ? req.body : Buffer.alloc(0),
      header: (name) => req.get(name),
      siteSlug: site || undefined,
    });
    ok(res, answer);
    if ('received' in answer) orders.processSoon(answer.deliveryId);
  });
  return r;
}

/** Mounted at /api/online-stores (after the JSON parser). Each call signs in on its own: other modules share this prefix. */
export function onlineStoresRoutes(orders: OrdersService, config: Config): Router {
  const r = Router();

  // A search: another site's orders are simply not found.
  r.post('/check-order', allow.ownSite, async (req, res) => {
    ok(res, await orders.checkOrder(actorOf(req), parse(checkOrderBody, req.body)));
  });

  r.post('/rerun-order', allow.site, idempotent, async (req, res) => {
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

  // Sync from store: missed orders pulled now through the webhook ingest path (reconcile.ts).
  r.post('/reconcile', allow.admin, idempotent, async (req, res) => {
    ok(res, await orders.reconcile(actorOf(req), parse(reconcileBody, req.body)));
  });

  // `{id}`: one order's jobs (the spec's call); `{ids: [...]}`: List Orders' Make in house, each order's outcome.
  r.post('/shopify-webhook/order-to-arwork', allow.site, async (req, res) => {
    if (req.body && typeof req.body === 'object' && 'ids' in req.body) {
      const { ids, siteId } = parse(orderIdsBody, req.body);
      ok(res, await orders.makeOrdersInHouse(actorOf(req), ids, siteId, baseUrlOf(req, config)));
      return;
    }
    const { id, siteId } = parse(orderRefBody, req.body);
    ok(res, await orders.orderToArtwork(actorOf(req), id, siteId, baseUrlOf(req, config)));
  });

  r.post('/shopify-webhook/hood-download-pdf', allow.site, async (req, res) => {
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
  r.post('/shopify-webhook/hood-generate-image', allow.site, async (req, res) => {
    ok(res, await orders.lineImages(actorOf(req), parse(lineImagesBody, req.body), baseUrlOf(req, config)));
  });
  r.post('/shopify-webhook/hood-generate-page-content-image', allow.site, async (req, res) => {
    const input = parse(lineImagesBody, req.body);
    ok(res, await orders.lineImages(actorOf(req), { ...input, page: input.page ?? 1 }, baseUrlOf(req, config)));
  });

  return r;
}

/** Mounted at /api/online-stores: the Stores screen's calls to the store's Admin API (admin only). */
export function storeConnectionRoutes(stores: StoresService, config: Config): Router {
  const r = Router();
  // → {shopName}: the domain, token and API version work together.
  r.post('/check-connection', allow.admin, async (req, res) => {
    ok(res, await stores.checkConnection(actorOf(req), parse(storeSiteBody, req.body).site));
  });
  // → {subscriptions: [{id, topic, callbackUrl, ours, action}]}: what the store holds once ours are in place.
  r.post('/register-webhooks', allow.admin, async (req, res) => {
    ok(res, await stores.registerWebhooks(actorOf(req), parse(storeSiteBody, req.body).site, baseUrlOf(req, config)));
  });
  // → {shopName, scopes, missingScopes, expiresAt}: a token now by the store's grant (or Shopify's refusal, 422).
  r.post('/connect', allow.admin, async (req, res) => {
    ok(res, await stores.connect(actorOf(req), parse(storeSiteBody, req.body).site));
  });
  // → {auth, connected, shopName, scopes, missingScopes, expiresAt, needsReconnect, reason, connectedAt}.
  r.get('/connection', allow.admin, async (req, res) => {
    ok(res, await stores.connection(actorOf(req), parse(storeSiteBody, req.query).site));
  });
  // Install on Shopify with the admin's bearer token (an API client, a test): straight to the consent screen.
  r.get('/shopify/install', allow.admin, async (req, res) => {
    const { url } = await stores.startInstall(actorOf(req), parse(storeSiteBody, req.query).site, baseUrlOf(req, config));
    res.set('Cache-Control', 'no-store').redirect(302, url);
  });
  // The Stores screen fetches the same address with its token, then sends the browser there (a
  // browser navigation carries no Authorization header).
  r.post('/shopify/install-url', allow.admin, async (req, res) => {
    ok(res, await stores.startInstall(actorOf(req), parse(storeSiteBody, req.body).site, baseUrlOf(req, config)));
  });
  // → [{id, topic, receivedAt, status, customerId, customerEmail, orders, waitingOrders, held, doneAt}], newest first.
  r.get('/privacy-requests', allow.admin, async (req, res) => {
    ok(res, await stores.privacyRequests(actorOf(req), parse(storeSiteBody, req.query).site));
  });
  // Shopify sends the admin's browser back here: no session (a browser navigation), so the page is
  // public; Shopify's HMAC (the app's client secret) and the single-use state are checked before
  // anything changes. Whatever happened, the browser lands on the store's screen with the sentence.
  r.get('/shopify/callback', allow.public, async (req, res) => {
    const outcome = await stores.finishInstall(req.query as Record<string, unknown>);
    const q = new URLSearchParams({ shopify: outcome.ok ? 'connected' : 'refused', message: outcome.message });
    res.set('Cache-Control', 'no-store').redirect(302, `/stores${outcome.siteId ? `/${outcome.siteId}` : ''}?${q}`);
  });
  return r;
}
