// /api/online-stores/…: the store's order webhook (raw body, HMAC), check-order, reconcile and the
// Stores screen's calls. The order screens' actions on lines and re-runs are workflows/orderActionRoutes.ts.
import express, { Router } from 'express';
import { z } from 'zod';
import type { Config } from '../../config';
import { allow } from '../../http/access';
import { idempotent } from '../../http/idempotency';
import { actorOf } from '../../http/auth';
import { ok } from '../../http/envelope';
import { parse } from '../../http/validate';
import { baseUrlOf } from '../../http/baseUrl';
import { checkOrderBody, reconcileBody, storeSiteBody } from './schema';
import type { OrdersService } from './service';
import type { StoresService } from './stores';

export const SHOPIFY_WEBHOOK_PATH = '/api/online-stores/shopify-webhook';
/** Built once: a zod schema made per request costs more than the rest of the check. */
const webhookQuery = z.object({ site: z.string().max(64).optional() });

/**
 * POST /api/online-stores/shopify-webhook — mounted on the app before /api's JSON parser: the
 * signature is over the raw bytes. 200 as soon as the delivery is stored; processing follows.
 */
export function shopifyWebhookRoutes(orders: OrdersService, config: Config): Router {
  const r = Router();
  r.post(SHOPIFY_WEBHOOK_PATH, allow.credential('Shopify HMAC of the raw body (the site\'s webhook secret)').describe('Shopify webhook receiver (orders/*, app/uninstalled, privacy topics): stored once, answered 200', { query: webhookQuery, bodyType: 'application/json' }), express.raw({ type: () => true, limit: config.bodyLimit }), async (req, res) => {
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
export function onlineStoresRoutes(orders: OrdersService): Router {
  const r = Router();

  // A search: another site's orders are simply not found.
  r.post('/check-order', allow.ownSite.describe('Check order: one store order with its lines, provider data, store state and history', { body: checkOrderBody }), async (req, res) => {
    ok(res, await orders.checkOrder(actorOf(req), parse(checkOrderBody, req.body)));
  });

  // Sync from store: missed orders pulled now through the webhook ingest path (reconcile.ts).
  r.post('/reconcile', allow.admin.describe('Pull missed orders from the store now (found, stored, already known)', { body: reconcileBody }), idempotent, async (req, res) => {
    ok(res, await orders.reconcile(actorOf(req), parse(reconcileBody, req.body)));
  });

  return r;
}

/** Mounted at /api/online-stores: the Stores screen's calls to the store's Admin API (admin only). */
export function storeConnectionRoutes(stores: StoresService, config: Config): Router {
  const r = Router();
  // → {shopName}: the domain, token and API version work together.
  r.post('/check-connection', allow.admin.describe('Check a store\'s Admin API connection: shop, scopes, what a missing scope stops', { body: storeSiteBody }), async (req, res) => {
    ok(res, await stores.checkConnection(actorOf(req), parse(storeSiteBody, req.body).site));
  });
  // → {subscriptions: [{id, topic, callbackUrl, ours, action}]}: what the store holds once ours are in place.
  r.post('/register-webhooks', allow.admin.describe('Subscribe the site\'s webhook URL to the order topics; repair ours, list all', { body: storeSiteBody }), async (req, res) => {
    ok(res, await stores.registerWebhooks(actorOf(req), parse(storeSiteBody, req.body).site, baseUrlOf(req, config)));
  });
  // → {shopName, scopes, missingScopes, expiresAt}: a token now by the store's grant (or Shopify's refusal, 422).
  r.post('/connect', allow.admin.describe('Connect a store with its app\'s client credentials (client credentials grant)', { body: storeSiteBody }), async (req, res) => {
    ok(res, await stores.connect(actorOf(req), parse(storeSiteBody, req.body).site));
  });
  // → {auth, connected, shopName, scopes, missingScopes, expiresAt, needsReconnect, reason, connectedAt}.
  r.get('/connection', allow.admin.describe('A store\'s connection: how it connects, token state, last reconciliation', { query: storeSiteBody }), async (req, res) => {
    ok(res, await stores.connection(actorOf(req), parse(storeSiteBody, req.query).site));
  });
  // Install on Shopify with the admin's bearer token (an API client, a test): straight to the consent screen.
  r.get('/shopify/install', allow.admin.describe('Start installing the app on the store (OAuth): redirects to Shopify\'s consent screen', { query: storeSiteBody }), async (req, res) => {
    const { url } = await stores.startInstall(actorOf(req), parse(storeSiteBody, req.query).site, baseUrlOf(req, config));
    res.set('Cache-Control', 'no-store').redirect(302, url);
  });
  // The Stores screen fetches the same address with its token, then sends the browser there (a
  // browser navigation carries no Authorization header).
  r.post('/shopify/install-url', allow.admin.describe('The address of Shopify\'s consent screen for installing the app (OAuth)', { body: storeSiteBody }), async (req, res) => {
    ok(res, await stores.startInstall(actorOf(req), parse(storeSiteBody, req.body).site, baseUrlOf(req, config)));
  });
  // → [{id, topic, receivedAt, status, customerId, customerEmail, orders, waitingOrders, held, doneAt}], newest first.
  r.get('/privacy-requests', allow.admin.describe('Shopify privacy requests of a store and what was done for each', { query: storeSiteBody }), async (req, res) => {
    ok(res, await stores.privacyRequests(actorOf(req), parse(storeSiteBody, req.query).site));
  });
  // Shopify sends the admin's browser back here: no session (a browser navigation), so the page is
  // public; Shopify's HMAC (the app's client secret) and the single-use state are checked before
  // anything changes. Whatever happened, the browser lands on the store's screen with the sentence.
  r.get('/shopify/callback', allow.public.describe('Shopify sends the browser back here after consent (HMAC and single-use state checked)'), async (req, res) => {
    const outcome = await stores.finishInstall(req.query as Record<string, unknown>);
    const q = new URLSearchParams({ shopify: outcome.ok ? 'connected' : 'refused', message: outcome.message });
    res.set('Cache-Control', 'no-store').redirect(302, `/stores${outcome.siteId ? `/${outcome.siteId}` : ''}?${q}`);
  });
  return r;
}
