// Every service, built once from the same dependencies. Both HTTP surfaces call these.
import path from 'node:path';
import os from 'node:os';
import type { Deps } from './deps';
import { designsService } from './modules/designs/service';
import { providerCancellations } from './modules/fulfilment/cancel';
import { fulfilmentService } from './modules/fulfilment/service';
import { requeueAfterApproval } from './modules/fulfilment/afterApproval';
import { storeFulfilments } from './modules/fulfilment/storeFulfilment';
import { generalDataService } from './modules/general-data/service';
import { mailCatcherService } from './modules/mailCatcher/service';
import { demoStoreService } from './modules/demoStore/service';
import { createInbox } from './modules/inbox/service';
import { ordersService } from './modules/orders/service';
import { storesService } from './modules/orders/stores';
import { createArtworkFetcher, type ArtworkFetcherOptions } from './modules/pdf/artwork';
import { printJobsService } from './modules/print-jobs/service';
import { createPreflight } from './modules/print-jobs/preflight';
import type { PrintJob } from './modules/print-jobs/repo';
import { productionService } from './modules/production/service';
import { batchesService } from './modules/batches/service';
import { bulkPrintFiles } from './modules/production/bulkPdf';
import { bulkPrintJobActions } from './modules/print-jobs/bulk';
import { scanService } from './modules/scan/service';
import { renderService } from './modules/render/service';
import { searchService } from './modules/search/service';
import { attentionService } from './modules/attention/service';
import { sitesService } from './modules/sites/service';
import { syncService } from './modules/sync/service';
import { uploadsService } from './modules/uploads/service';
import { diskStore, type FileStore } from './modules/uploads/storage';
import { s3Store } from './modules/uploads/s3Store';
import type { Config } from './config';
import { usersService } from './modules/users/service';
import { pipelineContext } from './modules/pipeline/context';
import { pipelineService } from './modules/pipeline/service';
import { storeTokens } from './modules/orders/storeTokens';
import { storeAdminFor } from './modules/orders/storeConnection';
import { historyService } from './modules/history';
import { healthService } from './modules/health/service';
import { createMetrics } from './lib/metrics';

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
  const sync = syncService(deps, { inbox });
  // Settings are checked by the sites module against the registry (common/siteSettings.ts); the CRM
  // consent names besides, against the CRM's own lists, when the site is saved.
  const sites = sitesService(deps, { checkSettings: (site, env, previous) => sync.checkSiteSettings(site, env, previous) });
  const render = renderService(deps, store, artwork);
  // Hooks run after Approve anyway; fulfilment adds the auto-send's re-queue below.
  const approved: Array<(job: PrintJob) => Promise<void>> = [];
  const printJobs = printJobsService(deps, { preflight: createPreflight(artwork), render, approved });
  const production = productionService(deps, { store, artwork, render, printJobs });
  const fulfilment = fulfilmentService(deps, production, {}, inbox);
  approved.push(requeueAfterApproval(deps));
  // A store cancellation reaches the provider through its own outbox step (fulfilment/cancel.ts).
  const cancellations = providerCancellations({ ...deps, production, options: fulfilment.options });
  // Each store's Admin API (integrations/shopifyAdmin.ts): a legacy static token, or an app
  // connection's token kept good by its grants (orders/storeTokens.ts); none for a site without either.
  const storeTokenKeeper = storeTokens(deps);
  const storeAdminOf = storeAdminFor(storeTokenKeeper);
  // Shipments' tracking back to the store (fulfilment/storeFulfilment.ts).
  const storeFulfilment = storeFulfilments({ ...deps, production, options: fulfilment.options }, { adminFor: storeAdminOf });
  // The charity's order pipeline: buyers into the CRM and the email platform, e-cards e-mailed (modules/pipeline).
  const pipeline = pipelineService(pipelineContext(deps, { options: fulfilment.options, production, render, clients: sync.clients }));
  // Read when /metrics is scraped: what waits in the inbox and the outbox.
  metrics.readBacklogsWith(async () => ({ inbox: await inbox.backlog(), outbox: await fulfilment.outboxBacklog() }));
  const history = historyService(deps);
  const orders = ordersService(deps, { sites, production, send: fulfilment, cancel: cancellations, pipeline, inbox, adminRequestOf: (site) => storeAdminOf(site)?.request ?? null });
  return {
    users: usersService(deps),
    sites,
    generalData: generalDataService(deps),
    uploads,
    printJobs,
    production,
    batches: batchesService(deps, { printJobs, production, history }),
    /** Bulk actions of Jobs and Print History: each job through its own button's rules. */
    bulkPrintJobs: bulkPrintJobActions(printJobs),
    bulkPrintFiles: bulkPrintFiles(production, printJobs),
    /** The packing bench's scans: each through the print-job rules. */
    scan: scanService(deps, { printJobs, production }),
    designs: designsService(deps, store, artwork),
    /** The header search (orders, jobs, designs; sites and users for admins). */
    search: searchService(deps),
    /** Needs attention: late, at-risk, held and stuck orders and failed sends, worst first. */
    attention: attentionService(deps),
    artwork,
    render,
    fulfilment,
    cancellations,
    storeFulfilments: storeFulfilment,
    pipeline,
    orders,
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
