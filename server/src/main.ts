// config → database claim (SQLite) → db → migrate → seed → app → listen. Shuts down gracefully on SIGTERM/SIGINT, and on a crash with exit code 1 (lib/shutdown.ts).
import { ConfigError, loadConfig } from './config';
import { createDb, migrate, withStartupLock } from './db';
import { createApp } from './app';
import { createLogger } from './lib/logger';
import { claimDatabase, DatabaseClaimError } from './lib/sqliteOwner';
import { systemClock } from './lib/clock';
import { createMetrics } from './lib/metrics';
import { createServices } from './services';
import { storeProblem } from './modules/uploads';
import express from 'express';
import { handBackClaims, startOutboxWorker, startRepeating, stopClaiming } from './modules/fulfilment';
import { stopPdfWorkers } from './modules/pdf';
import { stopRenderWorkers } from './modules/render';
import { shutdownOnSignals, type ShutdownState, shutdownOnCrash } from './lib/shutdown';
import { demoHpSimulators } from '../simulators/hpDemo';
import { DEMO_STORE_SITE, cancelDemoStoreOrder, startShopifyDemo } from '../simulators/shopifyDemo';
import { demoShopifyAdminSimulator, SHOPIFY_ADMIN_SIMULATOR_PATH } from '../simulators/shopifyAdminDemo';
import { sendCharityDemoOrders } from '../simulators/charityDemo';
import { demoSyncSimulators } from '../simulators/syncDemo';
import { demoSmtpCatcher } from '../simulators/smtpDemo';
import { smtpUrlForDisplay } from './integrations/mailer';
import { createScheduler } from './jobs/scheduler';
import { startScheduledBackups } from './modules/backup';
import { onClientError } from './http/clientError';
import { DEMO_PASSWORD, DEMO_USERS, ensureFirstSite, seedDemo } from '../../seeds/demo';

async function main() {
  let config;
  try {
    config = loadConfig();
  } catch (err) {
    if (err instanceof ConfigError) {
      console.error(`Presswork cannot start: ${err.message}`);
      process.exit(1);
    }
    throw err;
  }
  // A SQLite database is one process's: a second one on the same file is refused before it touches it.
  let claim;
  try {
    claim = claimDatabase(config.database);
  } catch (err) {
    if (err instanceof DatabaseClaimError) {
      console.error(`Presswork cannot start: ${err.message}`);
      process.exit(1);
    }
    throw err;
  }
  const log = createLogger(config.logLevel);
  const db = createDb(config.database);
  // Set when SIGTERM/SIGINT begins the shutdown: readiness answers 503 from that moment.
  const shutdownState: ShutdownState = { begun: false };
  const deps = { db, clock: systemClock, config, log, metrics: createMetrics({ log }), shuttingDown: () => shutdownState.begun };
  const services = createServices(deps);
  // Files in a bucket: one that cannot be written now (unreachable, wrong key, no such bucket) stops
  // the start here, with the reason, rather than failing every upload and print file later.
  if (services.store.kind === 's3') {
    const problem = await storeProblem(services.store);
    if (problem) {
      console.error(`Presswork cannot start: the file store (${services.store.describe()}) cannot be used: ${problem}`);
      log.error({ reason: problem }, 'file store unusable at start');
      process.exit(1);
    }
    log.info(`files are kept in ${services.store.describe()}`);
  }
  // Instances started together on one PostgreSQL database take turns (see withStartupLock).
  const seeded = await withStartupLock(db, async () => {
    await migrate(db);
    const didSeed = config.seedDemo ? await seedDemo(deps, services) : false;
    await services.users.ensureFirstAdmin(await ensureFirstSite(deps));
    return didSeed;
  });
  const { app } = createApp(deps, services);
  // Outside production the HP simulator is mounted in front of the app (the demo site points at it).
  let root = app;
  if (config.simulators) {
    const hp = await demoHpSimulators(db, config.publicUrl ?? `http://localhost:${config.port}`);
    if (hp) root = express().use(hp).use(app);
  }
  // Outside production the demo store's Admin API too (the demo site's SHOPIFY_ADMIN_URL points at it).
  const shopifyAdmin = config.simulators ? await demoShopifyAdminSimulator(db) : undefined;
  if (shopifyAdmin) root = express().use(SHOPIFY_ADMIN_SIMULATOR_PATH, shopifyAdmin.app).use(root);
  // Outside production the CRM and email-platform simulators too (the charity demo site points at them).
  const syncSims = config.simulators ? await demoSyncSimulators(deps, config.publicUrl ?? `http://localhost:${config.port}`) : undefined;
  if (syncSims) root = express().use(syncSims.router).use(root);
  // Outside production a loopback SMTP server catches the charity demo site's e-mails (the "Caught e-mails" page).
  const mailCatcher = config.simulators ? await demoSmtpCatcher(deps, syncSims?.site, config.smtpCatcherPort).catch((err) => void log.warn({ err }, 'the demo mail catcher could not start')) : undefined;
  if (mailCatcher) services.mailCatcher.attach(mailCatcher);
  // The scheduled CRM ↔ email-platform sync jobs (started once the server listens: the demo reaches its simulators through it).
  const scheduler = createScheduler(deps, services.sync);
  const outboxWorker = startOutboxWorker(services.fulfilment, { log });
  // Postbacks can be lost: every 5 minutes, orders with no provider news for HP_POLL_AFTER_MINUTES (default 6 hours) are asked about.
  const quietOrderChecks = startRepeating(() => services.fulfilment.checkQuietOrders(), { intervalMs: 5 * 60_000, log, what: 'asking HP about quiet orders' });
  const cancelWorker = startOutboxWorker(services.cancellations, { log });
  // Tracking back to the store: rows of kind store-fulfilment (each store's Admin API, see storeFulfilment.ts).
  const storeFulfilmentWorker = startOutboxWorker(services.storeFulfilments, { log });
  // A waiting order held and released in the store: rows of kind store-hold (storeHold.ts).
  const storeHoldWorker = startOutboxWorker(services.storeHolds, { log });
  // The charity's order pipeline: CRM, email platform and e-card steps (modules/pipeline), e-cards at their send date.
  const pipelineWorker = startOutboxWorker(services.pipeline, { log });
  // Lines the routing rules sent in house: their print jobs made (rows of kind routed-in-house).
  const routedJobsWorker = startOutboxWorker(services.routedJobs, { log });
  // Missed webhooks: every 5 minutes, each store with an Admin API token whose SHOPIFY_RECONCILE_MINUTES
  // (default hourly) period has not run yet is asked for its changed orders, once across instances.
  const reconciliations = startRepeating(() => services.orders.reconcileDue(), { intervalMs: 5 * 60_000, log, what: 'pulling missed orders from the stores' });
  // Shopify's customer redactions that waited for orders in production: redacted once those ship.
  const privacyRedactions = startRepeating(() => services.orders.redactWaitingPrivacy(), { intervalMs: 5 * 60_000, log, what: 'redacting customers of shipped orders' });
  // Automatic batching: each site with the rule on gets its Ready jobs batched, and its filling
  // batches closed when full or at its daily cut-off (once across instances: the site's lock).
  const autoBatching = startRepeating(() => services.batches.autoBatch(), { intervalMs: config.batches.everySeconds * 1000, log, what: 'batching jobs automatically' });
  // Lines waiting before they are made: windows that ended, proofs to send, reminders, proofs approved by themselves (each move made by one instance).
  const waitReleases = startRepeating(() => services.waits.releaseDue(), { intervalMs: 60_000, log, what: 'releasing waiting lines and sending proofs' });
  // Webhooks of every source answered but not processed (a crash, a failure) are processed again now and every minute.
  const stopWebhookRecovery = services.inbox.startRecovery();
  // With BACKUP_DIR set: a backup every BACKUP_EVERY_HOURS, once across instances (a lease).
  const scheduledBackups = startScheduledBackups(deps);
  let stopShopifyDemo = () => {};

  const server = root.listen(config.port, config.host, () => {
    const address = server.address();
    const port = typeof address === 'object' && address ? address.port : config.port;
    const url = config.publicUrl ?? `http://localhost:${port}`;
    console.log(`\nPresswork is running at ${url}`);
    if (config.firstAdmin && !config.isProduction) {
      console.log(`Sign in as ${config.firstAdmin.email} / ${config.firstAdmin.password}`);
      if (config.seedDemo) console.log(`Other demo users (password "${DEMO_PASSWORD}"): ${DEMO_USERS.filter((u) => u.email !== 'admin@presswork.local').map((u) => u.email).join(', ')}`);
    }
    if (seeded) console.log('The demo world was seeded on this first start.');
    if (mailCatcher) console.log(`Demo e-mails are caught at ${smtpUrlForDisplay(mailCatcher.url)} (admin: Caught e-mails)`);
    console.log('');
    if (config.sync.scheduler) void scheduler.start().catch((err) => log.error({ err }, 'the sync scheduler could not start'));
    // The demo store sends an order now and then (a few at once on a fresh demo) through the real webhook.
    if (shopifyAdmin) void shopifyAdmin.connectWebhooks(`http://127.0.0.1:${port}`).catch((err) => log.warn({ err }, 'demo store webhooks not connected'));
    if (config.simulators) stopShopifyDemo = startShopifyDemo({ db, baseUrl: `http://127.0.0.1:${port}`, log, initialOrders: seeded ? 6 : 0, adminStore: shopifyAdmin });
    // Check order's "Cancel in the demo store": the store's own cancel, as a newcomer cannot sign one.
    if (config.simulators) services.demoStore.attach({ siteSlug: DEMO_STORE_SITE, cancel: (orderId) => cancelDemoStoreOrder({ db, baseUrl: `http://127.0.0.1:${port}`, adminStore: shopifyAdmin }, orderId) });
    // The charity's shop sends a few orders on a fresh demo: the order pipeline runs every step.
    if (config.simulators && seeded) void sendCharityDemoOrders({ db, baseUrl: `http://127.0.0.1:${port}`, log }).catch((err) => log.warn({ err }, 'charity demo orders not sent'));
  });
  server.keepAliveTimeout = 65_000;
  server.on('clientError', onClientError);

  // SIGTERM/SIGINT (lib/shutdown.ts): the process is gone within SHUTDOWN_TIMEOUT_MS. Anything started
  // above that runs in the background adds its stop() to `stop`; anything it holds in the database
  // for a while (a lease, a claim) adds its hand-back to `handBack`. A crash goes the same way (exit 1).
  const shutdown = shutdownOnSignals({
    server,
    state: shutdownState,
    log,
    timeoutMs: config.shutdownTimeoutMs,
    plan: {
      stop: {
        'provider sends': () => outboxWorker.stop(),
        'provider cancellations': () => cancelWorker.stop(),
        'store fulfilments': () => storeFulfilmentWorker.stop(),
        'store holds': () => storeHoldWorker.stop(),
        'order pipeline': () => pipelineWorker.stop(),
        'routed in-house jobs': () => routedJobsWorker.stop(),
        'quiet order checks': () => quietOrderChecks.stop(),
        'store reconciliation': () => reconciliations.stop(),
        'privacy redactions': () => privacyRedactions.stop(),
        'automatic batching': () => autoBatching.stop(),
        'waiting lines': () => waitReleases.stop(),
        'new outbox claims': () => stopClaiming(db),
        'webhook processing': () => {
          stopWebhookRecovery();
          return services.inbox.stop();
        },
        'sync scheduler': () => scheduler.stop(config.shutdownTimeoutMs),
        'demo store': () => stopShopifyDemo(),
        'sync simulators': () => syncSims?.stop(),
        'mail catcher': () => mailCatcher?.close(),
        // A backup under way stops and removes its partial file; its lease is marked failed before the database closes.
        'scheduled backups': () => scheduledBackups.stop(),
      },
      handBack: {
        'webhook leases': () => services.inbox.handBack(),
        'outbox claims': () => handBackClaims(db),
        'sync job leases': () => services.sync.leases.handBack(),
        'store reconciliation leases': () => services.orders.reconciler.leases.handBack(),
      },
      interrupt: {
        'PDF workers': () => stopPdfWorkers(),
        'render workers': () => stopRenderWorkers(),
      },
      close: {
        database: () => db.destroy(),
        // Last: the next instance may start on the database once this one no longer writes to it.
        'database claim': () => claim.release(),
      },
    },
  });
  shutdownOnCrash(shutdown, log);
}

main().catch((err) => {
  console.error('Presswork failed to start:', err);
  process.exit(1);
});
