// The site-specific sync calls (spec §7) under /api/sites/:site/, and the same handlers under
// the external sync service's base path (SYNC_SERVICE_PATH, default /sync-service/:site).
// Every call but the CRM webhook needs a signed-in admin, or a user of that site.
import { Router, type Request, type RequestHandler, type Response } from 'express';
import { allow } from '../../http/access';
import { actorOf } from '../../http/auth';
import { ok } from '../../http/envelope';
import { HttpError } from '../../http/errors';
import { idempotent } from '../../http/idempotency';
import { idParam, jsonBody, parse } from '../../http/validate';
import { pageWindow } from '../../lib/paging';
import { FILE_KINDS, type FileKind } from './files';
import { isJobName, type RunTrigger } from './records';
import { baseUrlOf } from '../../http/baseUrl';
import { configBody, consentSettingsBody, constituentIdOf, dayOf, fileBody, runListQuery } from './schema';
import type { SyncService } from './service';
import type { SiteSync } from './siteSettings';

declare module 'express-serve-static-core' {
  interface Request {
    syncSite?: SiteSync;
  }
}

const siteOf = (req: Request): SiteSync => {
  if (!req.syncSite) throw new HttpError(500, 'sync site not resolved');
  return req.syncSite;
};

const FILE_ROUTES: Array<{ kind: FileKind; list: string; handled: string; process: string }> = [
  { kind: 'unsubscribe', list: 'list-file-unsubscribe', handled: 'list-handle-unsubscribe', process: 'sync-single-unsubscribe-file' },
  { kind: 'export80', list: 'list-file-export80', handled: 'list-handle-export80', process: 'sync-single-export80' },
  { kind: 'export92', list: 'list-file-export92', handled: 'list-handle-export92', process: 'sync-single-export92' },
];

/** What a route does and validates with (its line in the API reference). */
type DocIo = Parameters<typeof allow.site.describe>[1];

/** A signed-in admin, or a user of that site; the sync site resolved onto the request. */
function siteGate(sync: SyncService, summary: string, io?: DocIo): RequestHandler[] {
  return [
    allow.site.describe(summary, io),
    async (req, _res, next) => {
      req.syncSite = await sync.siteFor(actorOf(req), String(req.params.site));
      next();
    },
  ];
}

export function syncRoutes(sync: SyncService, surface: 'api' | 'sync-service' = 'api'): Router {
  const r = Router({ mergeParams: true });
  const manual: RunTrigger = surface === 'sync-service' ? 'sync-service' : 'manual';

  // ---- the CRM webhook: no session, the site's webhookKey ---------------------------------------
  // The provisioning handshake (CloudEvents webhook validation): allow the sender's origin.
  const allowOrigin: RequestHandler = async (req, res) => {
    const s = await sync.siteForWebhook(String(req.params.site));
    sync.verifyWebhookKey(s, req.query.webhookKey);
    const origin = req.get('WebHook-Request-Origin');
    res.set({ 'WebHook-Allowed-Origin': origin || '*', 'WebHook-Allowed-Rate': '*', Allow: 'POST, OPTIONS' }).status(200).end();
  };
  r.options('/raiser-edge-webhook', allow.credential('the site\'s webhookKey in the query').describe('Raiser\'s Edge webhook handshake (CloudEvents validation): allows the sender\'s origin'), allowOrigin);

  r.post(
    '/raiser-edge-webhook',
    allow.credential('the site\'s webhookKey in the query').describe('Raiser\'s Edge NXT webhook receiver (CloudEvents: constituent and e-mail changes), checked by the site\'s webhookKey', { bodyType: 'application/cloudevents+json' }),
    // CloudEvents arrive as application/cloudevents+json.
    jsonBody('256kb', { type: ['application/json', 'application/cloudevents+json', 'application/*+json'] }),
    async (req: Request, res: Response) => {
      const s = await sync.siteForWebhook(String(req.params.site));
      const out = await sync.ingestWebhook(s, req.query.webhookKey, req.body);
      ok(res, out);
      // Answered first; the sync of that constituent runs after (one at a time per site).
      if (out.status === 'queued' && out.deliveryId) void sync.processDeliveryLater(out.deliveryId, s.site.id);
    },
  );

  // ---- everything else: a signed-in admin, or a user of that site -------------------------------
  // (per route, not r.use: this router shares /api/sites with the sites calls)
  const site = (summary: string, io?: DocIo) => siteGate(sync, summary, io);

  r.post(
    '/raiser-edge-sync-one',
    site('Sync one constituent from Raiser\'s Edge to Adestra now'),
    idempotent,
    async (req: Request, res: Response) => {
      const id = constituentIdOf(req.body);
      const out = await sync.syncOne(siteOf(req), id, manual, actorOf(req).id);
      if (out.notFound) throw new HttpError(404, out.error ?? 'Constituent not found', { run: out.run });
      ok(res, { result: out.result, run: out.run });
    },
  );

  const startDay = (day: string, req: Request) => sync.startDay(siteOf(req), day, manual, actorOf(req).id);

  r.post(
    '/raiser-edge-sync-list-from-specific-day',
    site('Sync every constituent modified on a day (?wait=1 waits for the run)'),
    idempotent,
    async (req: Request, res: Response) => {
      const day = dayOf(req.body)!;
      const started = await startDay(day, req);
      if (req.query.wait === '1' || req.body?.wait === true) await started.done;
      ok(res, { run: req.query.wait === '1' || req.body?.wait === true ? await sync.records.getRun(started.run.id) : started.run, alreadyRunning: started.alreadyRunning });
    },
  );

  // Asked before the operator's yes to a day sync: the count of contacts it changes, when known.
  r.get(
    '/raiser-edge-sync-day-preview',
    site('How many contacts a day\'s sync changes, when known'),
    async (req: Request, res: Response) => {
      const day = dayOf(req.query)!;
      ok(res, await sync.dayPreview(siteOf(req), day));
    },
  );

  r.post(
    '/raiser-edge-to-adestra',
    site('Run the CRM to Adestra job for a day (the configured day by default)'),
    async (req: Request, res: Response) => {
      const s = siteOf(req);
      const given = dayOf(req.body, 'targetDate', false);
      const day = given ?? (await sync.configuredDay(s, 're-sync'));
      const started = await startDay(day, req);
      const wait = req.query.wait === '1' || req.body?.wait === true;
      if (wait) await started.done;
      ok(res, { day, run: wait ? await sync.records.getRun(started.run.id) : started.run, alreadyRunning: started.alreadyRunning });
    },
  );

  r.get(
    '/raiser-edge-sync/list',
    site('The sync\'s execution logs, newest first', { query: runListQuery }),
    async (req: Request, res: Response) => {
      const q = parse(runListQuery, req.query);
      const w = pageWindow(q.page, q.pageSize);
      const { rows, total } = await sync.records.listRuns(siteOf(req).site.id, q, w.limit, w.offset);
      ok(res, { list: rows, hasNext: w.offset + rows.length < total, total, page: w.page });
    },
  );

  r.get(
    '/raiser-edge-sync/:id',
    site('One sync run with its log'),
    async (req: Request, res: Response) => {
      const run = await sync.records.getRun(idParam(req.params.id));
      if (!run || run.siteId !== siteOf(req).site.id) throw new HttpError(404, 'Run not found');
      ok(res, run);
    },
  );

  r.get(
    '/download-export/:name',
    site('Download an unsubscribe or Export 80/92 file'),
    async (req: Request, res: Response) => {
      const bytes = await sync.downloadFile(siteOf(req), String(req.params.name));
      res.set({ 'Content-Type': 'text/csv; charset=utf-8', 'Content-Disposition': `attachment; filename="${String(req.params.name)}"`, 'X-Content-Type-Options': 'nosniff' });
      res.send(bytes);
    },
  );

  for (const f of FILE_ROUTES) {
    const list = async (req: Request, res: Response) => {
      const s = siteOf(req);
      const files = await sync.listFiles(s, f.kind);
      ok(res, { list: files, hasNext: false, total: files.length, ...(FILE_KINDS[f.kind].exportNumber ? { exportUrl: sync.exportUrl(s, FILE_KINDS[f.kind].exportNumber!) } : {}) });
    };
    const handled = async (req: Request, res: Response) => {
      const items = await sync.listHandled(siteOf(req), f.kind);
      ok(res, { list: items, hasNext: false, total: items.length });
    };
    r.get(`/${f.list}`, site(`The ${f.kind} files in the drop folder`), list);
    r.post(`/${f.list}`, site(`The ${f.kind} files in the drop folder`), list);
    r.get(`/${f.handled}`, site(`The ${f.kind} files already applied`), handled);
    r.post(`/${f.handled}`, site(`The ${f.kind} files already applied`), handled);
    r.post(
      `/${f.process}`,
      site(`Apply one ${f.kind} file to the CRM (force: again)`, { body: fileBody }),
      async (req: Request, res: Response) => {
        const body = parse(fileBody, req.body);
        ok(res, await sync.processFile(siteOf(req), f.kind, body.name, { force: body.force, trigger: manual, userId: actorOf(req).id }));
      },
    );
  }

  // ---- the four jobs' configs and status ----------------------------------------------------------
  r.get(
    '/sync-config',
    site('The four scheduled jobs\' hours'),
    async (req: Request, res: Response) => {
      const s = siteOf(req);
      ok(res, { list: await sync.getConfigs(s), links: { export80: sync.exportUrl(s, 80), export92: sync.exportUrl(s, 92) } });
    },
  );

  r.get(
    '/sync-config/:job',
    site('One scheduled job\'s hour'),
    async (req: Request, res: Response) => {
      const job = String(req.params.job);
      if (!isJobName(job)) throw new HttpError(404, 'No such sync job (re-sync, unsubscribe, export80, export92)');
      ok(res, await sync.records.getConfig(siteOf(req).site.id, job));
    },
  );

  r.post(
    '/sync-config/:job',
    site('Set one scheduled job\'s hour', { body: configBody }),
    async (req: Request, res: Response) => {
      const job = String(req.params.job);
      if (!isJobName(job)) throw new HttpError(404, 'No such sync job (re-sync, unsubscribe, export80, export92)');
      const input = parse(configBody, req.body);
      ok(res, { config: await sync.saveConfig(siteOf(req), job, input, actorOf(req)), message: 'Sync config saved' });
    },
  );

  r.get(
    '/sync-status',
    site('Each scheduled job\'s next run and last outcome'),
    async (req: Request, res: Response) => {
      ok(res, await sync.status(siteOf(req)));
    },
  );

  if (surface === 'api') raisersEdgeConnectionRoutes(r, sync);
  return r;
}

/** Where the outside world reaches us: PUBLIC_URL, else the address this request came to. */
const publicBase = (req: Request, sync: SyncService) => baseUrlOf(req, sync.config);

/**
 * The Raiser's Edge connection of a site (docs/connect-raisers-edge-adestra.md): Connect (the
 * authorisation-code flow), its callback, the connection's status, the consent names, the
 * webhook subscriptions. Only under /api/sites/:site — Blackbaud knows one callback address.
 */
function raisersEdgeConnectionRoutes(r: Router, sync: SyncService): void {
  const adminSite = (summary: string, io?: DocIo): RequestHandler[] => [
    allow.admin.describe(summary, io),
    async (req, _res, next) => {
      req.syncSite = await sync.siteFor(actorOf(req), String(req.params.site));
      next();
    },
  ];

  // With the admin's bearer token (an API client, or a test): straight to Blackbaud.
  r.get('/raiser-edge/connect', adminSite('Start connecting the site to Raiser\'s Edge: redirects to Blackbaud\'s consent page'), async (req: Request, res: Response) => {
    const { url } = await sync.startConnect(siteOf(req), actorOf(req), publicBase(req, sync));
    res.redirect(302, url);
  });

  // The admin screen fetches the same address with its token, then sends the browser there (a
  // browser navigation carries no Authorization header).
  r.post('/raiser-edge/connect-url', adminSite('The address of Blackbaud\'s consent page for connecting the site'), async (req: Request, res: Response) => {
    ok(res, await sync.startConnect(siteOf(req), actorOf(req), publicBase(req, sync)));
  });

  // Blackbaud sends the admin's browser back here: no session; the single-use state is the proof.
  // Whatever happened, the browser lands on the sync screen with a message, never on an error page.
  r.get('/raiser-edge/callback', allow.public.describe('Blackbaud sends the browser back here after consent (single-use state)'), async (req: Request, res: Response) => {
    const outcome = await sync.finishConnect(String(req.params.site), req.query as Record<string, unknown>);
    const q = new URLSearchParams();
    if (outcome.site) q.set('site', outcome.site);
    q.set('reConnect', outcome.ok ? 'ok' : 'failed');
    q.set('reConnectMessage', outcome.message);
    res.set('Cache-Control', 'no-store').redirect(302, `/re-n-adestra-sync?${q}`);
  });

  r.get('/raiser-edge/status', siteGate(sync, "The site's Raiser's Edge connection: connected, by whom, when"), async (req: Request, res: Response) => {
    ok(res, await sync.connectionStatus(siteOf(req)));
  });

  r.get('/raiser-edge/consent-options', adminSite('The CRM\'s own consent sources and categories'), async (req: Request, res: Response) => {
    ok(res, await sync.consentOptions(siteOf(req)));
  });

  r.post('/raiser-edge/consent-settings', adminSite('Set the consent source and category the pipeline writes', { body: consentSettingsBody }), async (req: Request, res: Response) => {
    const input = parse(consentSettingsBody, req.body);
    ok(res, { ...(await sync.saveConsentSettings(siteOf(req), input, actorOf(req))), message: 'Consent settings saved' });
  });

  r.get('/raiser-edge/webhook-subscriptions', adminSite('The CRM\'s webhook subscriptions for this site'), async (req: Request, res: Response) => {
    ok(res, await sync.listWebhookSubscriptions(siteOf(req), publicBase(req, sync)));
  });

  r.post('/raiser-edge/webhook-subscriptions', adminSite('Create the CRM\'s webhook subscriptions for this site'), idempotent, async (req: Request, res: Response) => {
    ok(res, await sync.createWebhookSubscriptions(siteOf(req), publicBase(req, sync)));
  });
}
