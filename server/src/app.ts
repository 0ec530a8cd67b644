// createApp(deps) → the Express app (no listen): the product API, the admin REST API, files, and the built admin UI.
import { routingRoutes } from './modules/routing';
import fs from 'node:fs';
import path from 'node:path';
import express, { Router, type RequestHandler } from 'express';
import helmet from 'helmet';
import { pinoHttp } from 'pino-http';
import type { Deps } from './deps';
import { allow } from './http/access';
import { attachActor } from './http/auth';
import { ok } from './http/envelope';
import { errorHandler, notFoundHandler, refuseNulInUrl } from './http/errorHandler';
import { provideIdempotencyKeys } from './http/idempotency';
import { jsonBody } from './http/validate';
import { adminRoutes, ordersAdminRoutes } from './modules/admin';
import { designsRoutes } from './modules/designs';
import { pipelineRoutes } from './modules/pipeline';
import { hpDataRoutes, hpLogsAdminRoutes, hpTestRoutes, onlineStoresFulfilmentRoutes, storeFulfilmentRoutes } from './modules/fulfilment';
import { generalDataRoutes } from './modules/general-data';
import { imagesRoutes } from './modules/images';
import { mailCatcherRoutes } from './modules/mailCatcher';
import { demoStoreRoutes } from './modules/demoStore';
import { onlineStoresRoutes, shopifyWebhookRoutes, storeConnectionRoutes } from './modules/orders';
import { orderActionRoutes } from './workflows/orderActionRoutes';
import { proofRoutes, waitRoutes } from './workflows/waitRoutes';
import { pdfRoutes, printProfileRoutes } from './modules/pdf';
import { printJobPdfRoutes, printJobsRoutes, bulkPrintJobRoutes } from './modules/print-jobs';
import { batchesRoutes } from './modules/batches';
import { renderRoutes } from './modules/render';
import { scanRoutes } from './modules/scan';
import { searchRoutes } from './modules/search';
import { attentionRoutes } from './modules/attention';
import { stockRoutes } from './modules/stock';
import { sitesRoutes } from './modules/sites';
import { syncRoutes, syncTestRoutes } from './modules/sync';
import { fileRoutes, uploadGrantRoutes } from './modules/uploads';
import { usersRoutes } from './modules/users';
import { openApiDocument } from './http/openapi';
import { historyRoutes, jobHistoryRoutes, orderHistoryRoutes } from './modules/history';
import { createServices, type Services } from './services';
import { isUiPage } from '../../common/uiPages';
import { requestMetrics } from './http/requestMetrics';
import { requestForLog } from './lib/requestLog';
import { healthRoutes } from './modules/health';
import { metricsRoutes } from './modules/metrics';
import { adminDist as builtAdminDist } from './lib/runtime';

/** Where main.ts mounts the simulators outside production (server/simulators/*Demo.ts): never a page. */
export const SIMULATORS_PATH = '/__simulators';

/** `adminDist`: where the built admin UI is (tests point it at a folder of their own). */
export function createApp(deps: Deps, services: Services = createServices(deps), options: { adminDist?: string } = {}) {
  const { config, log } = deps;
  const app = express();
  app.disable('x-powered-by');
  // First: every request is timed, whatever answers it.
  app.use(requestMetrics(app, services.metrics));
  // Which proxies may tell us the client's address (sign-in throttling counts per address).
  app.set('trust proxy', /^\d+$/.test(config.trustProxy) ? Number(config.trustProxy) : config.trustProxy);
  app.use(
    helmet({
      contentSecurityPolicy: {
        directives: {
          'default-src': ["'self'"],
          'img-src': ["'self'", 'data:', 'blob:', 'https:'],
          'style-src': ["'self'", "'unsafe-inline'"],
          'font-src': ["'self'", 'data:'],
          'frame-src': ["'self'"],
          'connect-src': ["'self'"],
          'frame-ancestors': ["'self'"],
          'upgrade-insecure-requests': null,
        },
      },
      crossOriginEmbedderPolicy: false,
      crossOriginResourcePolicy: { policy: 'cross-origin' },
    }),
  );
  // API calls are logged; health probes (every few seconds from a load balancer) are not: a failing check logs its own warning.
  if (config.logLevel !== 'silent') app.use(pinoHttp({ logger: log, serializers: { req: requestForLog }, autoLogging: { ignore: (req) => !req.url?.startsWith('/api') || req.url.startsWith('/api/health') } }));

  app.use(refuseNulInUrl());
  // Files: the signed upload target and the stored files (outside /api: no JSON body parsing, no session).
  app.use(fileRoutes(services.uploads, config));
  // The store's order webhook: before /api's JSON parser, the signature is over the raw bytes.
  app.use(shopifyWebhookRoutes(services.orders, config));
  // The buyer's proof page and answers: the signed link is the credential (no session, forms posted).
  app.use(proofRoutes(services.waits));

  const api = Router();
  // Before the session: a probe never costs a token check (liveness makes no database call).
  api.use('/health', healthRoutes(services.health));
  api.use(jsonBody(config.bodyLimit));
  api.use(attachActor(services.users));
  // Idempotency-Key on the routes that create (declared `idempotent` beside each route).
  api.use(provideIdempotencyKeys(deps));
  api.get('/', allow.public.describe('The API answers (name and status)'), (_req, res) => ok(res, { name: 'Presswork', status: 'ok' }));
  // What the admin UI needs to know before sign-in: where the editors it frames live.
  api.get('/app-config', allow.public.describe('The admin\'s editor addresses and allowed parent origins'), (_req, res) => ok(res, { editorUrl: config.editor.url, sampleEditorUrl: config.editor.sampleUrl, editorAllowedParentOrigins: config.editor.allowedParentOrigins }));
  // The API reference, generated from this app's route table: built on the first ask, then kept.
  let reference: ReturnType<typeof openApiDocument> | undefined;
  api.get('/openapi.json', allow.signedIn.describe('This API reference: the OpenAPI 3.1 document of every route'), (req, res) => {
    reference ??= openApiDocument(req.app as never);
    res.json(reference);
  });
  api.use('/users', uploadGrantRoutes(services.uploads, config));
  api.use('/users', usersRoutes(services.users));
  api.use('/sites', sitesRoutes(services.sites));
  // The CRM ↔ email-platform sync calls of a site, and the connectivity tests.
  api.use('/sites/:site', syncRoutes(services.sync));
  api.use('/sites/:site', routingRoutes(services.routing));
  api.use('/test', syncTestRoutes(services.sync));
  api.use('/test', hpTestRoutes(services.fulfilment));
  api.use('/test', mailCatcherRoutes(services.mailCatcher));
  api.use('/test', demoStoreRoutes(services.demoStore));
  api.use('/general-data', generalDataRoutes(services.generalData));
  api.use('/print-profiles', printProfileRoutes(services.printProfiles));
  api.use('/pdf', pdfRoutes(services.artwork, config, deps.clock, services.metrics));
  api.use('/images', imagesRoutes(services.artwork, config));
  // Design documents rendered on the server: /images/from-polotno.
  api.use('/images', renderRoutes(services.render, services.designs, config));
  api.use('/print-jobs', bulkPrintJobRoutes(services.bulkPrintJobs, services.bulkPrintFiles, config));
  api.use('/print-jobs', printJobsRoutes(services.printJobs, config));
  api.use('/print-jobs', jobHistoryRoutes(services.history));
  api.use('/history', historyRoutes(services.history));
  api.use('/batches', batchesRoutes(services.batches, config));
  api.use('/scan', scanRoutes(services.scan));
  api.use('/search', searchRoutes(services.search));
  api.use('/attention', attentionRoutes(services.attention));
  api.use('/stock-items', stockRoutes(services.stock, services.stockIn));
  api.use('/designs', designsRoutes(services.designs, config));
  api.use('/pdf', printJobPdfRoutes(services.production, config));
  // Provider calls first: their postback route takes no session, whatever else /online-stores requires.
  api.use('/online-stores', onlineStoresFulfilmentRoutes(services.fulfilment, services.cancellations));
  api.use('/hp-data', hpDataRoutes(services.fulfilment));
  api.use('/orders', storeFulfilmentRoutes(services.storeFulfilments));
  api.use('/orders', pipelineRoutes(services.pipeline));
  api.use('/orders', waitRoutes(services.waits));
  api.use('/admin/hp-logs', hpLogsAdminRoutes(services.fulfilment));
  api.use('/online-stores', onlineStoresRoutes(services.orders));
  api.use('/online-stores', orderActionRoutes(services.orderActions, config));
  api.use('/online-stores', orderHistoryRoutes(services.history));
  api.use('/online-stores', storeConnectionRoutes(services.stores, config));
  api.use('/admin', ordersAdminRoutes(services, deps.db, config));
  api.use('/admin', adminRoutes(services));
  api.use(notFoundHandler());
  app.use('/api', api);

  // The same sync calls under the external sync service's base path (SYNC_SERVICE_PATH).
  app.use(config.sync.servicePath, jsonBody(config.bodyLimit), attachActor(services.users), syncRoutes(services.sync, 'sync-service'), notFoundHandler());

  // The spec's sign-out path outside /api.
  app.post('/users/logout', allow.public.describe('Sign out (the older path): the token is revoked'), jsonBody(config.bodyLimit), attachActor(services.users), async (req, res) => {
    if (req.actor && req.token) await services.users.logout(req.token.jti, req.token.expiresAt);
    ok(res, null);
  });

  // Prometheus scrapes (METRICS_TOKEN, or loopback clients only).
  app.use(metricsRoutes(services.metrics, config));

  // Paths that are never pages: what is not answered above is a 404 in the envelope, never the UI.
  const syncServiceRoot = config.sync.servicePath.split('/:')[0];
  app.use(['/api', '/uploads', '/files', '/metrics', SIMULATORS_PATH, ...(syncServiceRoot ? [syncServiceRoot] : [])], notFoundHandler());

  // The admin UI: built files, and index.html for its pages (client-side routes, common/uiPages.ts).
  // Public: the pages and their assets are the same for everyone; the data behind them is not.
  const adminDist = options.adminDist ?? builtAdminDist;
  const index = path.join(adminDist, 'index.html');
  const assets = express.static(adminDist, { index: false, maxAge: '1h', setHeaders: (res, file) => file.includes(`${path.sep}assets${path.sep}`) && res.set('Cache-Control', 'public, max-age=31536000, immutable') });
  const page: RequestHandler = (req, res, next) => {
    const known = isUiPage(req.path);
    // Any other path is a 404: in the envelope, or — for a browser, which asks for HTML first — as
    // the UI's own "not found" page (its menu still there), with the 404 status all the same.
    if (known ? !req.accepts('html') : req.accepts(['json', 'html']) !== 'html') return next();
    if (!fs.existsSync(index)) {
      if (!known) return next();
      res.status(503).type('text/plain').send('The admin UI is not built yet: run `npm run build` (npm start does it for you).');
      return;
    }
    res.status(known ? 200 : 404).set('Cache-Control', 'no-cache').sendFile(index);
  };
  app.get('/', allow.public.describe('The admin UI\'s page'), assets, page);
  app.get('/*path', allow.public.describe('The admin UI\'s pages (deep links); 404 for any other path'), assets, page);
  app.use(notFoundHandler());
  app.use(errorHandler(log));
  return { app, services };
}
