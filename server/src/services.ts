// Every service, built once from the same dependencies. Both HTTP surfaces call these.
import path from 'node:path';
import os from 'node:os';
import type { Deps } from './deps';
import { attentionService } from './modules/attention';
import { batchesService } from './modules/batches';
import { demoStoreService } from './modules/demoStore';
import { designsService } from './modules/designs';
import { fulfilmentService, providerCancellations, queueStoreHold, requeueAfterApproval, shippedLinesIn, storeFulfilments, storeHolds } from './modules/fulfilment';
import { generalDataService } from './modules/general-data';
import { healthService } from './modules/health';
import { mailCatcherService } from './modules/mailCatcher';
import { createInbox } from './modules/inbox';
import { ordersService, storesService, storeTokens, storeAdminFor, orderFor } from './modules/orders';
import { createArtworkFetcher, printProfilesService, type ArtworkFetcherOptions } from './modules/pdf';
import { printJobsService, createPreflight, bulkPrintJobActions, countUnprintedJobsOfDesign, findPrintJob, type PrintJob } from './modules/print-jobs';
import { productionService, bulkPrintFiles } from './modules/production';
import { scanService } from './modules/scan';
import { renderService } from './modules/render';
import { searchService } from './modules/search';
import { sitesService } from './modules/sites';
import { stockService } from './modules/stock';
import { storeDropFiles, syncService } from './modules/sync';
import { uploadsService, diskStore, s3Store, type FileStore } from './modules/uploads';
import type { Config } from './config';
import { usersService } from './modules/users';
import { pipelineContext, pipelineService } from './modules/pipeline';
import { historyService } from './modules/history';
import { shipByViews } from './modules/ship-by';
import { createMetrics } from './lib/metrics';
import { orderActions } from './workflows/orderActions';
import { orderRouting } from './workflows/routeOrder';
import { routingService } from './modules/routing';
import { waitsWorkflow } from './workflows/waits';

/** The folder of uploaded and generated files: DATA_DIR/files. */
export function filesFolderOf(dataDir: string): string {
  return dataDir === ':memory:' ? path.join(os.tmpdir(), `presswork-files-${process.pid}`) : path.join(dataDir, 'files');
}

export function fileStoreFor(dataDir: string): FileStore {
  return diskStore(filesFolderOf(dataDir));
}

/** The store the settings choose: DATA_DIR/files (STORAGE=local), or the bucket (STORAGE=s3). */
export function fileStoreOf(config: Pick<Config, 'dataDir' | 'storage'>): FileStore {
  return config.storage.kind === 's3' ? s3Store(config.storage) : fileStoreFor(config.dataDir);
}

/** `artwork`: the artwork fetcher's test hooks (resolver, dial); none in production. */
export function createServices(given: Deps, givenStore: FileStore = fileStoreOf(given.config), options: { artwork?: ArtworkFetcherOptions } = {}) {
  // One registry for everything built here: the app serves it at /metrics.
  const metrics = given.metrics ?? createMetrics({ log: given.log });
  const deps: Deps = { ...given, metrics };
  const uploads = uploadsService(deps, givenStore);
  // Files PUT straight into a bucket are checked on their first read, whoever reads them (uploads/service.ts).
  const store = uploads.files;
  const artwork = createArtworkFetcher(deps, store, options.artwork);
  // Every inbound webhook (store orders, provider postbacks, CRM changes) goes through this inbox;
  // each module registers the handler of its source.
  const inbox = createInbox(deps);
  // With files in a bucket, the email platform's drop files are there too (every instance sees them).
  const sync = syncService(deps, { inbox, ...(givenStore.kind === 's3' ? { dropFiles: storeDropFiles(givenStore) } : {}) });
  // Settings are checked by the sites module against the registry (common/siteSettings.ts); the CRM
  // consent names besides, against the CRM's own lists, when the site is saved.
  // The printers' colour profiles: a site's PRINT_OUTPUT_PROFILE must name one it may use.
  const printProfiles = printProfilesService(deps, store);
  const sites = sitesService(deps, {
    checkSettings: async (site, env, previous) => {
      await sync.checkSiteSettings(site, env, previous);
      await printProfiles.checkSiteSetting(site, env, previous);
    },
  });
  const render = renderService(deps, store, artwork);
  // Ship-by dates on what jobs, orders and records list: one set of views, given to each.
  const shipBy = shipByViews(deps);
  // After Approve: an auto-send order waiting for this job goes back in the provider's queue.
  const approved: Array<(job: PrintJob) => Promise<void>> = [requeueAfterApproval(deps)];
  const printJobs = printJobsService(deps, { preflight: createPreflight(artwork), render, approved, shipBy, shippedLines: (range) => shippedLinesIn(deps.db, range) });
  const production = productionService(deps, { store, artwork, render, printJobs, outputIntentOf: printProfiles.outputIntentOf });
  const fulfilment = fulfilmentService(deps, production, {}, inbox);
  // A store cancellation reaches the provider through its own outbox step (fulfilment/cancel.ts).
  const cancellations = providerCancellations({ ...deps, production, options: fulfilment.options });
  // Each store's Admin API (integrations/shopifyAdmin.ts): a legacy static token, or an app
  // connection's token kept good by its grants (orders/storeTokens.ts); none for a site without either.
  const storeTokenKeeper = storeTokens(deps);
  const storeAdminOf = storeAdminFor(storeTokenKeeper);
  // Shipments' tracking back to the store (fulfilment/storeFulfilment.ts).
  const storeFulfilment = storeFulfilments({ ...deps, production, options: fulfilment.options }, { adminFor: storeAdminOf });
  // A waiting order held in the store, released when nothing of it waits (fulfilment/storeHold.ts).
  const storeHold = storeHolds({ ...deps, production, options: fulfilment.options }, { adminFor: storeAdminOf });
  // The charity's order pipeline: buyers into the CRM and the email platform, e-cards e-mailed (modules/pipeline).
  const pipeline = pipelineService(pipelineContext(deps, { options: fulfilment.options, production, render, fetchPicture: (url) => artwork(url), clients: sync.clients }));
  // Read when /metrics is scraped: what waits in the inbox and the outbox.
  metrics.readBacklogsWith(async () => ({ inbox: await inbox.backlog(), outbox: await fulfilment.outboxBacklog() }));
  const history = historyService(deps, { jobOf: (jobId) => findPrintJob(deps.db, jobId), orderOf: (actor, id, siteId) => orderFor(deps.db, actor, id, siteId) });
  // Routing by each site's rules: a printable order's lines routed as it is stored (workflows/routeOrder.ts).
  const routingFlow = orderRouting({ ...deps, production, send: fulfilment });
  const routing = routingService(deps, { testRun: routingFlow.testRun, routeNow: routingFlow.routeNow });
  const orders = ordersService(deps, { sites, production, shipBy, route: routingFlow.port, cancel: cancellations, pipeline, storeHold: { holdInStore: queueStoreHold }, inbox, adminRequestOf: (site) => storeAdminOf(site)?.request ?? null });
  return {
    users: usersService(deps),
    sites,
    /** The printers' colour profiles, and which one a site's print files and press sheets carry. */
    printProfiles,
    generalData: generalDataService(deps, { shipBy }),
    uploads,
    printJobs,
    production,
    batches: batchesService(deps, { printJobs, production, history, outputIntentOf: printProfiles.outputIntentOf }),
    /** Bulk actions of Jobs and Print History: each job through its own button's rules. */
    bulkPrintJobs: bulkPrintJobActions(printJobs),
    bulkPrintFiles: bulkPrintFiles(production, printJobs),
    /** The packing bench's scans: each through the print-job rules. */
    scan: scanService(deps, { printJobs, production }),
    designs: designsService(deps, store, artwork, { unprintedJobsOf: (designId) => countUnprintedJobsOfDesign(deps.db, designId) }),
    /** The header search (orders, jobs, designs; sites and users for admins). */
    search: searchService(deps),
    /** Stock of blanks (Setup → Stock): items, deliveries, counts and movements. */
    stock: stockService(deps),
    /** After a delivery or a count: the jobs waiting for stock are tried again (print jobs own their holds). */
    stockIn: { afterStockIn: async () => void (await printJobs.retryStockHolds()) },
    /** Needs attention: late, at-risk, held and stuck orders and failed sends, worst first. */
    attention: attentionService(deps),
    artwork,
    render,
    fulfilment,
    cancellations,
    storeFulfilments: storeFulfilment,
    storeHolds: storeHold,
    pipeline,
    orders,
    /** Routing rules of each site (Setup → Routing), and the worker making in-house lines' print jobs. */
    routing,
    routedJobs: { processDue: routingFlow.processDue },
    /** The order screens' re-run and line actions (orders, production, fulfilment and the pipeline together). */
    orderActions: orderActions({ db: deps.db, production, send: fulfilment, pipeline }),
    /** Lines waiting before they are made: the change window, the buyer's proof, their release. */
    waits: waitsWorkflow({ ...deps, production, artwork, send: fulfilment }),
    stores: storesService({
      sites,
      onChange: orders.invalidateSites,
      reconcileStates: orders.reconcileStates,
      adminFor: storeAdminOf,
      app: { db: deps.db, clock: deps.clock, log: deps.log, tokens: storeTokenKeeper, adminFor: storeAdminOf, invalidate: orders.invalidateSites },
      clock: deps.clock,
    }),
    /** App-connected stores' Admin API tokens (renewed by themselves). */
    storeTokens: storeTokenKeeper,
    store,
    sync,
    inbox,
    /** The demo's caught e-mails: main.ts attaches the catcher it starts outside production. */
    mailCatcher: mailCatcherService(),
    demoStore: demoStoreService(deps.db),
    /** The history (audit trail): timelines of jobs and orders, the admin trail. */
    history,
    /** Liveness and readiness (GET /api/health, /api/health/ready). */
    health: healthService(deps, store, filesFolderOf(deps.config.dataDir)),
    /** What the modules count (GET /metrics). */
    metrics,
  };
}

export type Services = ReturnType<typeof createServices>;
