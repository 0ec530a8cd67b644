// The CRM ↔ email-platform sync of a site: RE → Adestra (one constituent, a day, CRM webhooks),
// unsubscribe files → OptOut consents in the CRM, Export 80/92 files applied row by row exactly
// once, the four jobs' configs, their status, and the connectivity test calls. Each use case lives
// in a file of its own; this assembles them into the one object the routes and the scheduler use.
// Every run is logged as a `re-sync` record; leases (job_leases) keep runs single across instances.
import type { Deps } from '../../deps';
import { badRequest } from '../../http/errors';
import type { Actor } from '../../http/types';
import { dayIn } from '../../lib/time';
import type { EnvVar } from '../../lib/secrets';
import { assertAdmin } from '../auth';
import type { Site } from '../sites';
import { checkConsentSettings, checkTypeSettings, consentOptions, CONSENT_KEYS } from './consentSettings';
import * as connectivity from './connectivity';
import { createSyncContext, type SyncServiceOptions } from './context';
import { downloadFile, listFiles, listHandled, processFile } from './fileJobs';
import type { FileKind } from './files';
import * as jobs from './jobs';
import type { JobName, RunTrigger } from './records';
import { connectionStatus, finishConnect, startConnect } from './raisersEdgeConnection';
import { MSG_DAY_FUTURE } from './schema';
import { readEnv, writeEnvValue, type SiteSync } from './siteSettings';
import * as sites from './sites';
import { dayPreview } from './dayPreview';
import { startDay } from './syncDay';
import { syncOne } from './syncOne';
import { ingestWebhook, processDeliveryLater, registerWebhookHandler, verifyWebhookKey } from './webhook';
import { createSubscriptions, listSubscriptions } from './webhookSubscriptions';

export type { SyncServiceOptions } from './context';
export { CLOUD_EVENT_TYPE, RE_SOURCE } from './webhook';

export function syncService(deps: Deps, opts: SyncServiceOptions = {}) {
  const ctx = createSyncContext(deps, opts);
  registerWebhookHandler(ctx);
  /** A day after today (the sync's time zone) has no changes to sync: refused, whichever route asks. */
  const refuseFutureDay = (day: string) => {
    if (day > dayIn(ctx.clock.now(), ctx.tz)) throw badRequest(MSG_DAY_FUTURE);
  };
  return {
    records: ctx.records,
    leases: ctx.leases,
    events: ctx.events,
    clients: ctx.clients,
    siteFor: (actor: Actor, param: string) => sites.siteFor(ctx, actor, param),
    siteForWebhook: (param: string) => sites.siteForWebhook(ctx, param),
    syncSites: () => sites.syncSites(ctx),
    verifyWebhookKey,
    configuredDay: (s: SiteSync, job: JobName) => jobs.configuredDay(ctx, s, job),
    timezone: ctx.tz,
    syncOne: (s: SiteSync, constituentId: string, trigger: RunTrigger, userId: number | null) => syncOne(ctx, s, constituentId, trigger, userId),
    /** A day's sync; a day after today is refused (400), nothing started. */
    startDay: (s: SiteSync, day: string, trigger: RunTrigger, userId: number | null, extra?: Record<string, unknown>) => {
      refuseFutureDay(day);
      return startDay(ctx, s, day, trigger, userId, extra);
    },
    /** How many contacts a day's sync changes; a day after today is refused (400). */
    dayPreview: (s: SiteSync, day: string) => {
      refuseFutureDay(day);
      return dayPreview(ctx, s, day);
    },
    ingestWebhook: (s: SiteSync, webhookKey: unknown, body: unknown) => ingestWebhook(ctx, s, webhookKey, body),
    processDeliveryLater: (deliveryId: number, siteId: number) => processDeliveryLater(ctx, deliveryId, siteId),
    listFiles: (s: SiteSync, kind: FileKind) => listFiles(ctx, s, kind),
    listHandled: (s: SiteSync, kind: FileKind) => listHandled(ctx, s, kind),
    processFile: (s: SiteSync, kind: FileKind, name: string, o: Parameters<typeof processFile>[4]) => processFile(ctx, s, kind, name, o),
    downloadFile: (s: SiteSync, name: string) => downloadFile(ctx, s, name),
    getConfigs: (s: SiteSync) => jobs.getConfigs(ctx, s),
    saveConfig: (s: SiteSync, job: JobName, input: { hour: string; targetDate?: string }, actor: Actor | null) => jobs.saveConfig(ctx, s, job, input, actor),
    runJob: (s: SiteSync, job: JobName, o: Parameters<typeof jobs.runJob>[3]) => jobs.runJob(ctx, s, job, o),
    takeOverDead: (only?: Parameters<typeof jobs.takeOverDead>[1]) => jobs.takeOverDead(ctx, only),
    leaseName: jobs.leaseName,
    status: (s: SiteSync) => jobs.status(ctx, s),
    testRaisersEdge: (s: SiteSync) => connectivity.testRaisersEdge(ctx, s),
    testRaisersEdgeCall: (s: SiteSync, path: string) => connectivity.testRaisersEdgeCall(ctx, s, path),
    testAdestra: (s: SiteSync) => connectivity.testAdestra(ctx, s),
    /** The site of an e-mail check (no CRM sync needed): named, else the caller's own. */
    mailSiteFor: (actor: Actor, param: string | undefined) => sites.mailSiteFor(ctx, actor, param),
    testEmail: (site: Site | undefined, to?: string) => connectivity.testEmail(ctx, site, to),
    idle: ctx.idle,
    track: ctx.track,
    exportUrl: (s: SiteSync, n: number) => `${s.adestra.baseUrl.replace(/\/$/, '')}/exports/${n}`,
    /** The app's settings (the routes need PUBLIC_URL for the addresses Blackbaud calls back). */
    config: ctx.config,
    // ---- the Raiser's Edge connection -------------------------------------------------------------
    startConnect: (s: SiteSync, actor: Actor, publicBase: string) => startConnect(ctx, s, actor, publicBase),
    finishConnect: (siteParam: string, query: Record<string, unknown>) => finishConnect(ctx, siteParam, query),
    connectionStatus: (s: SiteSync) => connectionStatus(ctx, s),
    consentOptions: (s: SiteSync) => consentOptions(ctx, s),
    /** Save the consent source and category after checking them against the CRM's lists. */
    async saveConsentSettings(s: SiteSync, input: { source: string; category: string }, actor: Actor) {
      assertAdmin(actor, 'Only an admin can change the consent settings');
      const previous = await readEnv(ctx.db, s.site.id);
      const values: Record<string, string> = { [CONSENT_KEYS.source]: input.source.trim(), [CONSENT_KEYS.category]: input.category.trim() };
      const env = [...previous.filter((v) => !(v.key in values)), ...Object.entries(values).map(([key, value]) => ({ key, value }))];
      await checkConsentSettings(ctx, { ...s.site, settings: { ...s.site.settings, env: previous } }, env, previous);
      for (const [key, value] of Object.entries(values)) await writeEnvValue(ctx.db, ctx.clock, s.site.id, key, value);
      return { source: values[CONSENT_KEYS.source], category: values[CONSENT_KEYS.category] };
    },
    /** The sites module's check of a settings.env about to be saved. */
    checkSiteSettings: async (site: Site | undefined, env: EnvVar[], previous: EnvVar[]) => {
      await checkConsentSettings(ctx, site, env, previous);
      await checkTypeSettings(ctx, site, env, previous);
    },
    listWebhookSubscriptions: (s: SiteSync, publicBase: string) => listSubscriptions(ctx, s, publicBase),
    createWebhookSubscriptions: (s: SiteSync, publicBase: string) => createSubscriptions(ctx, s, publicBase),
  };
}

export type SyncService = ReturnType<typeof syncService>;
