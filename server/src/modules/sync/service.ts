// The CRM ↔ email-platform sync of a site (issue 5): RE → Adestra (one constituent, a day, CRM
// webhooks), unsubscribe files → OptOut consents in the CRM, Export 80/92 files applied row by
// row exactly once, the four jobs' configs, their status, and the connectivity test calls.
// Every run is logged as a `re-sync` record; leases (job_leases) keep runs single across instances.
import crypto from 'node:crypto';
import { EventEmitter } from 'node:events';
import fs from 'node:fs';
import net from 'node:net';
import tls from 'node:tls';
import type { Deps } from '../../deps';
import { conflict, HttpError, notFound, unauthorized } from '../../http/errors';
import type { Actor } from '../../http/types';
import { IntegrationError, type HttpSettings } from '../../integrations/crmHttp';
import { mostRecentConsent, type ConsentResponse, type RaisersEdgeClient } from '../../integrations/raisersEdge';
import { createLeases, type LeaseRow, type RunOutcome } from '../../jobs/leases';
import { dayIn, dayWindow, jobLastSlot, jobNextRun, resolveTargetDate } from '../../jobs/time';
import { isAdmin } from '../auth/permissions';
import { createInbox, type Delivery, type Handled, type Inbox } from '../inbox/service';
import { sitesRepo, type Site } from '../sites/repo';
import { syncConstituent } from './constituent';
import { FILE_KINDS, listDropFiles, readCsv, safeDropPath, type FileKind } from './files';
import { JOB_NAMES, JOBS, syncRecords, type FileRecordData, type JobConfig, type JobName, type RunData, type RunTrigger } from './records';
import { clientFactory, hasSync, syncSettingsOf, type SiteSync } from './siteSettings';

export interface SyncServiceOptions {
  /** Injected HTTP plumbing (tests: a sleep that does not wait, a fixed random). */
  http?: Partial<HttpSettings>;
  /** Constituents per page asked of the CRM (default 500). */
  pageSize?: number;
  /** This instance's lease holder id (default host:pid:random). */
  holder?: string;
  /** Where CRM webhook deliveries are stored, claimed and retried (default: an inbox of its own). */
  inbox?: Inbox;
  hooks?: {
    /** Called after a file row was applied and before its checkpoint is committed (tests simulate a crash here). */
    beforeCheckpoint?: (info: { siteId: number; kind: FileKind; name: string; row: number }) => void | Promise<void>;
  };
}

export const CLOUD_EVENT_TYPE = 'com.blackbaud.constituent.change.v1';
/** The inbox source of CRM webhooks. */
export const RE_SOURCE = 're';
const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

/** A failure of an outside service as the API answers it: 502 with what went wrong. */
export function integrationHttpError(err: IntegrationError): HttpError {
  const status = err.kind === 'config' ? 400 : err.kind === 'rate-limited' || err.kind === 'quota' ? 503 : 502;
  const headers = err.info.retryAfterSeconds !== undefined ? { 'Retry-After': String(err.info.retryAfterSeconds) } : undefined;
  return new HttpError(status, err.message, err.toJSON(), headers);
}

const errorMessage = (err: unknown) => (err instanceof Error ? err.message : String(err));

function eventTarget(event: string | undefined): ConsentResponse | undefined {
  const e = (event ?? '').trim().toLowerCase().replace(/[\s_-]/g, '');
  if (['subscribe', 'subscribed', 'optin', 'signup', 'signedup', 'resubscribe', 'resubscribed'].includes(e)) return 'OptIn';
  if (['unsubscribe', 'unsubscribed', 'optout', 'suppressed'].includes(e)) return 'OptOut';
  return undefined;
}

function consentDate(value: string | undefined, now: Date): string {
  const t = value ? Date.parse(value) : NaN;
  return Number.isNaN(t) ? now.toISOString() : new Date(t).toISOString();
}

export function syncService(deps: Deps, opts: SyncServiceOptions = {}) {
  const { db, clock, config, log } = deps;
  const tz = config.sync.timezone;
  const records = syncRecords(db, clock);
  const sites = sitesRepo(db);
  const clients = clientFactory({ db, clock, config, http: opts.http ?? {} });
  const events = new EventEmitter();
  const leases = createLeases({ db, clock, holder: opts.holder, ttlSeconds: config.sync.leaseSeconds, onReaped: markDead });
  const inFlight = new Set<Promise<unknown>>();
  const siteQueues = new Map<number, Promise<unknown>>();
  const inbox = opts.inbox ?? createInbox(deps);

  function track<T>(p: Promise<T>): Promise<T> {
    const tracked = p.finally(() => inFlight.delete(tracked));
    inFlight.add(tracked);
    tracked.catch(() => {});
    return tracked;
  }

  /** Resolves when every background run and queued webhook of this instance has finished. */
  async function idle(): Promise<void> {
    while (inFlight.size) await Promise.allSettled([...inFlight]);
  }

  // ---- sites ----------------------------------------------------------------------------------

  async function findSite(param: string): Promise<Site | undefined> {
    const bySlug = await sites.bySlug(param);
    if (bySlug) return bySlug;
    return /^[1-9]\d{0,9}$/.test(param) ? sites.byId(Number(param)) : undefined;
  }

  /** The site of a sync call: admins any, users their own (another site is not found), and it must have the sync. */
  async function siteFor(actor: Actor, param: string): Promise<SiteSync> {
    const site = await findSite(param);
    if (!site || (!isAdmin(actor) && site.id !== actor.siteId)) throw notFound('Site not found');
    if (!hasSync(site)) throw notFound('This site has no CRM sync');
    return syncSettingsOf(site, config);
  }

  async function siteForWebhook(param: string): Promise<SiteSync> {
    const site = await findSite(param);
    if (!site) throw notFound('Site not found');
    if (!hasSync(site)) throw notFound('This site has no CRM sync');
    return syncSettingsOf(site, config);
  }

  async function syncSites(): Promise<SiteSync[]> {
    const { rows } = await sites.list({}, { field: 'id', order: 'asc' }, 10_000, 0);
    return rows.filter(hasSync).map((s) => syncSettingsOf(s, config));
  }

  // ---- run records -------------------------------------------------------------------------------

  /** A run whose instance died: its record says so (not silent). */
  async function markDead(row: LeaseRow, error: string): Promise<void> {
    if (row.lastRecordId) {
      const run = await records.getRun(row.lastRecordId);
      if (run && run.data.status === 'running') {
        run.data.status = 'failed';
        run.data.finishedAt = clock.now().toISOString();
        run.data.errors.push({ kind: 'crashed', message: error });
        await records.saveRun(run.id, run.data);
      }
    }
    const m = /^file:(\d+):(\w+):(.+)$/.exec(row.name);
    if (m) {
      const rec = await records.fileRecord(Number(m[1]), m[2] as FileKind, m[3]);
      if (rec && rec.data.status === 'processing') await records.saveFileRecord(rec.id, { ...rec.data, status: 'failed', error });
    }
    log.warn({ lease: row.name, error }, 'a sync run died; recorded as failed');
  }

  function pushError(data: RunData, err: unknown, extra: Record<string, unknown> = {}) {
    const e = err instanceof IntegrationError ? { kind: `${err.service}:${err.kind}`, message: err.message } : { kind: 'error', message: errorMessage(err) };
    data.errors.push({ ...extra, ...e });
  }

  async function finishRun(id: number, data: RunData, status?: RunData['status']) {
    data.status = status ?? (data.errors.length ? (data.progress.done || data.files?.some((f) => f.status === 'success') ? 'partial' : 'failed') : 'success');
    data.finishedAt = clock.now().toISOString();
    await records.saveRun(id, data);
    return data;
  }

  const outcomeOf = (data: RunData): RunOutcome => ({
    status: data.status === 'running' ? 'failed' : data.status,
    error: data.errors.length ? data.errors.map((e) => e.message).slice(0, 3).join('; ') : null,
  });

  // ---- RE → Adestra ------------------------------------------------------------------------------

  async function syncOne(s: SiteSync, constituentId: string, trigger: RunTrigger, userId: number | null) {
    const run = await records.createRun(s.site.id, trigger === 'webhook' ? 'webhook' : 'one', constituentId, trigger, userId);
    const { data } = run;
    try {
      const re = clients.raisersEdge(s);
      const constituent = await re.getConstituent(constituentId);
      if (!constituent) {
        const message = `Constituent ${constituentId} was not found in the CRM`;
        data.errors.push({ constituentId, kind: 'not-found', message });
        await finishRun(run.id, data, 'failed');
        return { result: null, run: (await records.getRun(run.id))!, error: message, notFound: true as const };
      }
      data.progress = { ...data.progress, seen: 1, matched: 1 };
      const result = await syncConstituent(s, re, clients.adestra(s), constituent);
      data.results.push(result);
      data.progress.done = 1;
      if (result.email) (result.action === 'opted-in' ? data.optInList : data.optOutList).push(result.email);
      else if (result.action === 'opted-out') data.optOutList.push(`#${result.constituentId}`);
      await finishRun(run.id, data);
      return { result, run: (await records.getRun(run.id))! };
    } catch (err) {
      pushError(data, err, { constituentId });
      data.progress.failed = 1;
      await finishRun(run.id, data, 'failed');
      throw err;
    }
  }

  async function runDay(s: SiteSync, day: string, run: { id: number; data: RunData }): Promise<RunData> {
    const { data } = run;
    try {
      const re = clients.raisersEdge(s);
      const adestra = clients.adestra(s);
      for await (const page of re.changedSince(dayWindow(day).from, opts.pageSize ?? 500)) {
        data.progress.pages++;
        if (data.progress.total === null) data.progress.total = page.count;
        for (const c of page.value) {
          data.progress.seen++;
          if (!c.date_modified || dayIn(new Date(c.date_modified), tz) !== day) continue;
          data.progress.matched++;
          try {
            const result = await syncConstituent(s, re, adestra, c);
            data.results.push(result);
            data.progress.done++;
            if (result.email) (result.action === 'opted-in' ? data.optInList : data.optOutList).push(result.email);
            else if (result.action === 'opted-out') data.optOutList.push(`#${result.constituentId}`);
          } catch (err) {
            if (err instanceof IntegrationError && err.fatal) throw err;
            data.progress.failed++;
            pushError(data, err, { constituentId: String(c.id) });
          }
          await records.saveRun(run.id, data);
        }
        await records.saveRun(run.id, data);
      }
      return await finishRun(run.id, data);
    } catch (err) {
      // The run cannot go on (network, quota, auth…): it says so in its log, with what it did.
      pushError(data, err);
      log.warn({ site: s.site.slug, day, err: errorMessage(err) }, 'CRM day sync stopped');
      return finishRun(run.id, data, 'failed');
    }
  }

  /**
   * Start the sync of every constituent modified on `day`. Answers at once with the run record
   * (the UI polls it); `done` settles when the run ends. A run of the same day already going
   * on is answered instead of starting a second one.
   */
  async function startDay(s: SiteSync, day: string, trigger: RunTrigger, userId: number | null, extra?: Record<string, unknown>) {
    const leaseName = `day:${s.site.id}:${day}`;
    let started!: (v: { id: number; data: RunData } | undefined) => void;
    const startedP = new Promise<{ id: number; data: RunData } | undefined>((resolve) => (started = resolve));
    const done = track(
      leases
        .run(leaseName, {}, async (lease) => {
          const run = await records.createRun(s.site.id, 'day', day, trigger, userId);
          if (extra) {
            Object.assign(run.data, extra);
            await records.saveRun(run.id, run.data);
          }
          await lease.setRecord(run.id);
          started(run);
          return outcomeOf(await runDay(s, day, run));
        })
        .then((r) => {
          if (!r.ran) started(undefined);
          return r;
        })
        .catch((err) => {
          started(undefined);
          throw err;
        }),
    );
    const run = await startedP;
    if (run) return { run: (await records.getRun(run.id))!, alreadyRunning: false, done };
    const { rows } = await records.listRuns(s.site.id, { kind: 'day', field1: day, status: 'running' }, 1, 0);
    if (!rows[0]) throw conflict('A sync of this day is starting right now; look at the execution logs in a moment');
    return { run: rows[0], alreadyRunning: true, done: Promise.resolve() };
  }

  // ---- CRM webhooks --------------------------------------------------------------------------------

  function keyMatches(expected: string, given: unknown): boolean {
    if (!expected || typeof given !== 'string' || !given) return false;
    const a = crypto.createHash('sha256').update(expected).digest();
    const b = crypto.createHash('sha256').update(given).digest();
    return crypto.timingSafeEqual(a, b);
  }

  function verifyWebhookKey(s: SiteSync, given: unknown): void {
    if (!keyMatches(s.re.webhookKey, given)) throw unauthorized('The webhookKey is missing or wrong');
  }

  /** Verify, dedupe by event id, store: answers whether it was queued. Processing happens after the answer. */
  async function ingestWebhook(s: SiteSync, webhookKey: unknown, body: unknown): Promise<{ status: 'queued' | 'duplicate' | 'ignored'; deliveryId?: number; eventId?: string }> {
    verifyWebhookKey(s, webhookKey);
    const event = (body ?? {}) as { type?: unknown; id?: unknown; time?: unknown; data?: { id?: unknown } };
    if (typeof event.id !== 'string' && typeof event.id !== 'number') throw new HttpError(400, 'id: the CloudEvent has no id');
    if (event.type !== CLOUD_EVENT_TYPE) return { status: 'ignored', eventId: String(event.id) };
    const constituentId = event.data?.id;
    if (typeof constituentId !== 'string' && typeof constituentId !== 'number') throw new HttpError(400, 'data.id: the event names no constituent');
    const eventId = `${s.site.id}:${String(event.id)}`.slice(0, 128);
    const deliveryId = await inbox.store({
      source: RE_SOURCE,
      eventId,
      deliveryId: String(event.id).slice(0, 128),
      siteId: s.site.id,
      topic: CLOUD_EVENT_TYPE,
      payload: event,
      status: 'received',
      receivedAt: clock.now().toISOString(),
    });
    if (deliveryId === undefined) return { status: 'duplicate', eventId: String(event.id) };
    return { status: 'queued', deliveryId, eventId: String(event.id) };
  }

  /** Queue the sync of a stored delivery (one at a time per site); the inbox claims it, so no other instance syncs it too. */
  function processDeliveryLater(deliveryId: number, siteId: number): Promise<void> {
    const previous = siteQueues.get(siteId) ?? Promise.resolve();
    const next = previous.then(() => inbox.processDelivery(deliveryId)).then(
      () => undefined,
      (err) => log.error({ err, deliveryId }, 'CRM webhook processing failed'),
    );
    siteQueues.set(siteId, next);
    void next.finally(() => siteQueues.get(siteId) === next && siteQueues.delete(siteId));
    return track(next);
  }

  /**
   * The inbox handler of CRM webhooks: the constituent's sync, under the inbox's lease on the
   * delivery (it calls the CRM and the email platform, so it runs outside a transaction). A throw
   * leaves the delivery failed for the recovery pass; a constituent the CRM does not know is done
   * (its run record says so; asking again would not find it either).
   */
  async function processDelivery(delivery: Delivery): Promise<Handled> {
    const site = delivery.siteId ? await sites.byId(delivery.siteId) : undefined;
    const event = (delivery.payload ?? {}) as { data?: { id?: string | number } };
    if (!site || !hasSync(site) || event.data?.id === undefined) throw new Error('site or constituent missing');
    const out = await syncOne(syncSettingsOf(site, config), String(event.data.id), 'webhook', null);
    return out.notFound ? { note: out.error } : {};
  }

  inbox.register({ source: RE_SOURCE, mode: 'lease', process: processDelivery });

  // ---- files: unsubscribe, export 80, export 92 -----------------------------------------------------

  const summaryOf = (d: FileRecordData) => ({
    rows: d.rowsTotal,
    rowsDone: d.rowsDone,
    applied: d.applied,
    unchanged: d.unchanged,
    unmatched: d.unmatched.length,
    skipped: d.skipped.length,
    errors: d.errors.length,
  });

  const handledView = (r: { id: number; updatedAt: string; data: FileRecordData }) => ({
    id: r.id,
    name: r.data.name,
    day: r.data.day,
    status: r.data.status,
    doneAt: r.data.doneAt,
    result: r.data.status === 'success' ? summaryOf(r.data) : null,
    rowsDone: r.data.rowsDone,
    rowsTotal: r.data.rowsTotal,
    unmatched: r.data.unmatched,
    error: r.data.error,
    updatedAt: r.updatedAt,
  });

  async function listHandled(s: SiteSync, kind: FileKind) {
    return (await records.listFileRecords(s.site.id, kind)).map(handledView);
  }

  async function listFiles(s: SiteSync, kind: FileKind) {
    const handled = new Map((await records.listFileRecords(s.site.id, kind)).map((r) => [r.data.name, r]));
    return listDropFiles(s.dropDir, kind).map((f) => {
      const rec = handled.get(f.name);
      return {
        ...f,
        status: rec?.data.status ?? 'unprocessed',
        doneAt: rec?.data.doneAt ?? null,
        result: rec?.data.status === 'success' ? summaryOf(rec.data) : null,
        rowsDone: rec?.data.rowsDone ?? 0,
        rowsTotal: rec?.data.rowsTotal ?? null,
        error: rec?.data.error ?? null,
      };
    });
  }

  /** One row: the consent it asks for, for every CRM constituent with that email, unless already so. */
  async function applyRow(s: SiteSync, re: RaisersEdgeClient, kind: FileKind, row: Record<string, string>): Promise<'applied' | 'unchanged' | 'unmatched' | { skipped: string }> {
    const email = (row.email ?? '').trim().toLowerCase();
    if (!EMAIL.test(email)) return { skipped: email ? `"${email}" is not an email address` : 'no email' };
    const target: ConsentResponse | undefined = kind === 'unsubscribe' ? 'OptOut' : eventTarget(row.event);
    if (!target) return { skipped: `event "${row.event ?? ''}" is not a consent change` };
    const matches = (await re.searchByEmail(email)).filter((m) => !m.email || m.email.trim().toLowerCase() === email);
    if (!matches.length) return 'unmatched';
    let applied = false;
    for (const m of matches) {
      const recent = mostRecentConsent(await re.emailConsents(String(m.id)));
      // Idempotent: a row replayed after a crash finds its consent already there.
      if (recent?.constituent_consent_response === target) continue;
      await re.createConsent({
        constituent_id: String(m.id),
        channel: 'Email',
        ...(recent?.category ? { category: recent.category } : {}),
        source: `Adestra ${FILE_KINDS[kind].label}`,
        consent_date: consentDate(kind === 'unsubscribe' ? row.unsubscribed_at : row.event_date, clock.now()),
        constituent_consent_response: target,
      });
      applied = true;
    }
    return applied ? 'applied' : 'unchanged';
  }

  /**
   * Apply a drop file row by row. The checkpoint (rowsDone) is committed after each row, so a
   * resumed file starts at the first row not committed; that one row may have reached the CRM
   * before the crash, and the consent check makes applying it again a no-op.
   */
  async function processFileInner(s: SiteSync, kind: FileKind, name: string, force: boolean) {
    const file = safeDropPath(s.dropDir, name, kind);
    if (!file) throw notFound(`No ${FILE_KINDS[kind].label} file named ${name}`);
    const out = await leases.run(`file:${s.site.id}:${kind}:${name}`, {}, async () => {
      const existing = await records.fileRecord(s.site.id, kind, name);
      if (existing && existing.data.status === 'success' && !force) return { status: 'success' as const, alreadyProcessed: true, data: existing.data };
      const csv = readCsv(file);
      const now = clock.now().toISOString();
      const fresh: FileRecordData = {
        name,
        kind,
        day: /_(\d{4})(\d{2})(\d{2})\.csv$/.exec(name)?.slice(1).join('-') ?? null,
        status: 'processing',
        sha256: csv.sha256,
        delimiter: csv.delimiter,
        rowsTotal: csv.rows.length,
        rowsDone: 0,
        applied: 0,
        unchanged: 0,
        unmatched: [],
        skipped: [],
        errors: [],
        runs: 0,
        startedAt: now,
        finishedAt: null,
        doneAt: null,
        error: null,
      };
      let data: FileRecordData;
      if (!existing) data = fresh;
      else if (existing.data.status === 'success' || existing.data.sha256 !== csv.sha256) {
        // Re-processing on request, or the file was replaced: start again (applied rows stay no-ops).
        data = { ...fresh, runs: existing.data.runs ?? 0, restartedBecause: existing.data.status === 'success' ? 'force' : 'file changed' };
      } else data = { ...existing.data, status: 'processing', rowsTotal: csv.rows.length, error: null, finishedAt: null, resumedAt: now, resumedFrom: existing.data.rowsDone };
      data.runs = (data.runs ?? 0) + 1;
      const id = existing ? existing.id : await records.createFileRecord(s.site.id, kind, data);
      await records.saveFileRecord(id, data);
      const re = clients.raisersEdge(s);
      // What the checkpoint says: a failure records this, not counts of a row it did not commit.
      let committed: FileRecordData = structuredClone(data);
      try {
        for (let i = data.rowsDone; i < csv.rows.length; i++) {
          const row = csv.rows[i];
          try {
            const outcome = await applyRow(s, re, kind, row);
            if (outcome === 'applied') data.applied++;
            else if (outcome === 'unchanged') data.unchanged++;
            else if (outcome === 'unmatched') data.unmatched.push((row.email ?? '').trim().toLowerCase());
            else data.skipped.push({ row: i + 1, reason: outcome.skipped });
          } catch (err) {
            if (err instanceof IntegrationError && err.fatal) throw err;
            data.errors.push({ file: name, row: i + 1, email: row.email, message: errorMessage(err) });
          }
          await opts.hooks?.beforeCheckpoint?.({ siteId: s.site.id, kind, name, row: i });
          data.rowsDone = i + 1;
          await records.saveFileRecord(id, data);
          committed = structuredClone(data);
        }
        const at = clock.now().toISOString();
        data = { ...data, status: 'success', finishedAt: at, doneAt: at };
        await records.saveFileRecord(id, data);
        return { status: 'success' as const, alreadyProcessed: false, data };
      } catch (err) {
        data = { ...committed, status: 'failed', finishedAt: clock.now().toISOString(), error: errorMessage(err) };
        await records.saveFileRecord(id, data);
        return { status: 'failed' as const, error: data.error, alreadyProcessed: false, data, cause: err };
      }
    });
    if (!out.ran) throw conflict(`${name} is being processed right now; try again in a moment`);
    return out.value;
  }

  /** The file-processing call: process one file (or resume it), answer it and the list of processed files. */
  async function processFile(s: SiteSync, kind: FileKind, name: string, o: { force?: boolean; trigger: RunTrigger; userId: number | null }) {
    const run = await records.createRun(s.site.id, kind, name, o.trigger, o.userId);
    let value: Awaited<ReturnType<typeof processFileInner>>;
    try {
      value = await processFileInner(s, kind, name, Boolean(o.force));
    } catch (err) {
      pushError(run.data, err, { file: name });
      await finishRun(run.id, run.data, 'failed');
      throw err;
    }
    run.data.files = [{ name, status: value.status, summary: summaryOf(value.data) }];
    run.data.optOutList = [];
    if (value.alreadyProcessed) run.data.note = 'already processed: nothing done (send force to process it again)';
    if (value.status === 'failed') run.data.errors.push({ file: name, message: value.data.error ?? 'failed' });
    for (const e of value.data.errors) run.data.errors.push(e);
    run.data.progress = { ...run.data.progress, seen: value.data.rowsTotal, done: value.data.rowsDone };
    await finishRun(run.id, run.data, value.status === 'failed' ? 'failed' : value.data.errors.length ? 'partial' : 'success');
    const rec = await records.fileRecord(s.site.id, kind, name);
    return {
      file: rec ? handledView(rec) : null,
      alreadyProcessed: value.alreadyProcessed,
      error: value.status === 'failed' ? value.data.error : null,
      result: summaryOf(value.data),
      unmatched: value.data.unmatched,
      runId: run.id,
      listAlreadyProcess: await listHandled(s, kind),
    };
  }

  /** A scheduled file job: every file of that kind up to `uptoDay` not processed yet (half-processed ones resume). */
  async function processPendingFiles(s: SiteSync, kind: FileKind, uptoDay: string, run: { id: number; data: RunData }): Promise<RunData> {
    const { data } = run;
    data.files = [];
    const handled = new Map((await records.listFileRecords(s.site.id, kind)).map((r) => [r.data.name, r.data.status]));
    const files = listDropFiles(s.dropDir, kind).filter((f) => f.day <= uptoDay && handled.get(f.name) !== 'success');
    data.progress.total = files.length;
    for (const f of files) {
      data.progress.seen++;
      try {
        const value = await processFileInner(s, kind, f.name, false);
        data.files.push({ name: f.name, status: value.status, summary: summaryOf(value.data) });
        for (const e of value.data.errors) data.errors.push(e);
        if (value.status === 'failed') {
          data.errors.push({ file: f.name, message: value.data.error ?? 'failed' });
          data.progress.failed++;
          if (value.cause instanceof IntegrationError && value.cause.fatal) break;
        } else data.progress.done++;
      } catch (err) {
        data.progress.failed++;
        data.files.push({ name: f.name, status: 'failed' });
        pushError(data, err, { file: f.name });
      }
      await records.saveRun(run.id, data);
    }
    return finishRun(run.id, data);
  }

  function downloadPath(s: SiteSync, name: string): string {
    const file = safeDropPath(s.dropDir, name);
    if (!file) throw notFound('No such export file');
    return file;
  }

  // ---- configs, jobs, status ---------------------------------------------------------------------

  const getConfigs = (s: SiteSync): Promise<JobConfig[]> => Promise.all(JOB_NAMES.map((j) => records.getConfig(s.site.id, j)));

  async function saveConfig(s: SiteSync, job: JobName, input: { hour: string; targetDate?: string }, actor: Actor | null): Promise<JobConfig> {
    const saved = await records.saveConfig(s.site.id, job, input, actor?.id ?? null);
    events.emit('config-saved', { siteId: s.site.id, job });
    return saved;
  }

  const leaseName = (siteId: number, job: JobName) => `sync:${siteId}:${job}`;

  /**
   * One run of a scheduled job, under its lease: with a slot (the scheduled time), it runs once per
   * slot across every instance. Answers {ran:false} when another instance has it. A dead run of
   * the job (its instance stopped renewing every lease it held) is taken over and finished first.
   * `claimed`: the lease was taken over already (the dead run `takeoverOf`); run its slot again.
   */
  async function runJob(s: SiteSync, job: JobName, o: { trigger: RunTrigger; slot?: string; claimed?: boolean; takeoverOf?: number | null; day?: string }) {
    if (!o.claimed) await takeOverDead({ siteId: s.site.id, job, wait: true });
    const cfg = await records.getConfig(s.site.id, job);
    const day = o.day ?? resolveTargetDate(cfg.targetDate, clock.now(), tz);
    // Written into the run record: which scheduled time it is, and which dead run it finishes.
    const extra: Record<string, unknown> = { ...(o.slot ? { slot: o.slot } : {}), ...(o.claimed ? { takeoverOf: o.takeoverOf ?? null } : {}) };
    return leases.run(leaseName(s.site.id, job), { slot: o.slot, claimed: o.claimed }, async (lease) => {
      if (job === 're-sync') {
        const started = await startDay(s, day, o.trigger, null, extra);
        await lease.setRecord(started.run.id);
        // A manual run of that day is going on: that run is this slot's run.
        if (started.alreadyRunning) return { status: 'success' as const, error: `a run of ${day} was already going on (record ${started.run.id})`, recordId: started.run.id };
        await started.done;
        const run = (await records.getRun(started.run.id))!;
        return { ...outcomeOf(run.data), recordId: run.id };
      }
      const run = await records.createRun(s.site.id, job, day, o.trigger, null);
      if (Object.keys(extra).length) {
        Object.assign(run.data, extra);
        await records.saveRun(run.id, run.data);
      }
      await lease.setRecord(run.id);
      const data = await processPendingFiles(s, job, day, run);
      return { ...outcomeOf(data), recordId: run.id };
    });
  }

  /**
   * Scheduled runs whose instance died (the job's lease expired while "running", and that instance
   * holds no live lease any more, nested file/day leases included): take each over (one instance
   * wins) and run its slot again — file jobs resume at their checkpoint, so nothing is applied twice.
   * `wait`: wait for the runs to end (else they run in the background).
   */
  async function takeOverDead(only: { siteId?: number; job?: JobName; wait?: boolean } = {}): Promise<Array<{ name: string; slot: string | null }>> {
    const names = only.siteId !== undefined && only.job ? [leaseName(only.siteId, only.job)] : undefined;
    const now = clock.now().toISOString();
    const q = db('job_leases').where('name', 'like', 'sync:%').where('last_status', 'running').where('lease_until', '<', now).select('name');
    if (names) q.whereIn('name', names);
    const dead = (await q) as Array<{ name: string }>;
    if (!dead.length) return [];
    const taken: Array<{ name: string; slot: string | null }> = [];
    const runs: Promise<unknown>[] = [];
    const sitesWithSync = await syncSites();
    for (const { name } of dead) {
      const m = /^sync:(\d+):(.+)$/.exec(name);
      const site = m && sitesWithSync.find((x) => x.site.id === Number(m[1]));
      const job = m?.[2] as JobName | undefined;
      if (!site || !job || !JOB_NAMES.includes(job)) continue;
      const row = await leases.get(name);
      if (!row || row.lastStatus !== 'running' || !row.leaseUntil || row.leaseUntil >= now) continue;
      if (row.holder === leases.holder && leases.isRunningHere(name)) continue; // ours, still going (a missed renewal)
      if (await leases.holderAlive(row.holder)) continue; // that instance still renews something: not dead yet
      const deadRun = row.lastRecordId ? await records.getRun(row.lastRecordId) : undefined;
      if (!(await leases.takeOver(row))) continue; // another instance took it
      log.warn({ lease: name, slot: row.lastSlot, deadHolder: row.holder }, 'taking over a sync run whose instance died');
      taken.push({ name, slot: row.lastSlot });
      const day = deadRun?.field1 && /^\d{4}-\d{2}-\d{2}$/.test(deadRun.field1) ? deadRun.field1 : undefined;
      runs.push(
        track(runJob(site, job, { trigger: 'catch-up', slot: row.lastSlot ?? undefined, claimed: true, takeoverOf: row.lastRecordId, day })).catch((err) =>
          log.error({ err, lease: name }, 'the taken-over sync run failed'),
        ),
      );
    }
    if (only.wait) await Promise.all(runs);
    return taken;
  }

  async function status(s: SiteSync) {
    const now = clock.now();
    const jobs = [];
    for (const job of JOB_NAMES) {
      const cfg = await records.getConfig(s.site.id, job);
      const hour = Number(cfg.hour);
      const lease = await leases.get(leaseName(s.site.id, job));
      jobs.push({
        job,
        label: JOBS[job].label,
        configType: JOBS[job].configType,
        hour: cfg.hour,
        targetDate: cfg.targetDate,
        targetDay: resolveTargetDate(cfg.targetDate, now, tz),
        nextRunAt: config.sync.scheduler && Number.isInteger(hour) && hour >= 0 && hour <= 23 ? jobNextRun(hour, tz, now, config.sync.scheduleEverySeconds).toISOString() : null,
        lastScheduledAt: Number.isInteger(hour) && hour >= 0 && hour <= 23 ? jobLastSlot(hour, tz, now, config.sync.scheduleEverySeconds).toISOString() : null,
        lastRunAt: lease?.lastRunAt ?? null,
        lastFinishedAt: lease?.lastFinishedAt ?? null,
        lastStatus: lease?.lastStatus ?? null,
        lastError: lease?.lastError ?? null,
        lastRecordId: lease?.lastRecordId ?? null,
        running: lease?.lastStatus === 'running',
      });
    }
    return { timezone: tz, scheduler: config.sync.scheduler, now: now.toISOString(), jobs };
  }

  // ---- connectivity test calls -------------------------------------------------------------------

  interface Check {
    step: string;
    url: string | null;
    status: number | null;
    latencyMs: number | null;
    ok: boolean;
    error: string | null;
  }

  async function timed(step: string, url: string | null, fn: () => Promise<{ status: number; url?: string; latencyMs?: number }>): Promise<Check> {
    const started = Date.now();
    try {
      const r = await fn();
      return { step, url: r.url ?? url, status: r.status, latencyMs: r.latencyMs ?? Date.now() - started, ok: r.status >= 200 && r.status < 300, error: r.status >= 300 ? `answered ${r.status}` : null };
    } catch (err) {
      const info = err instanceof IntegrationError ? err.info : {};
      return { step, url: info.url ?? url, status: info.status ?? null, latencyMs: Date.now() - started, ok: false, error: errorMessage(err) };
    }
  }

  async function testRaisersEdge(s: SiteSync) {
    const checks: Check[] = [];
    let re: RaisersEdgeClient | undefined;
    try {
      re = clients.raisersEdge(s);
    } catch (err) {
      checks.push({ step: 'settings', url: null, status: null, latencyMs: null, ok: false, error: errorMessage(err) });
    }
    if (re) {
      const client = re;
      checks.push(await timed('token refresh', s.re.tokenUrl, async () => (await client.accessToken(true), { status: 200 })));
      if (checks[0].ok) checks.push(await timed('list constituents', null, () => client.rawGet('/constituent/v1/constituents?limit=1')));
    }
    return { service: 'raisers-edge', site: s.site.slug, ok: checks.length > 0 && checks.every((c) => c.ok), checks };
  }

  async function testRaisersEdgeCall(s: SiteSync, path: string) {
    const re = clients.raisersEdge(s);
    const started = Date.now();
    try {
      const answer = await re.rawGet(path);
      const text = answer.text.length > 20_000 ? `${answer.text.slice(0, 20_000)}…` : answer.text;
      return { url: answer.url, status: answer.status, latencyMs: answer.latencyMs, ok: answer.status < 300, error: answer.status < 300 ? null : `answered ${answer.status}`, body: text ? (answer.json ?? text) : null };
    } catch (err) {
      const info = err instanceof IntegrationError ? err.info : {};
      return { url: info.url ?? null, status: info.status ?? null, latencyMs: Date.now() - started, ok: false, error: errorMessage(err), body: null };
    }
  }

  async function testAdestra(s: SiteSync) {
    const checks: Check[] = [];
    try {
      const ad = clients.adestra(s);
      const listId = s.adestra.optInListId;
      checks.push(await timed(listId ? `opt-in list ${listId}` : `core table ${s.adestra.tableId}`, null, () => ad.rawGet(listId ? `/lists/${encodeURIComponent(listId)}` : `/core_tables/${encodeURIComponent(s.adestra.tableId)}`)));
      if (s.adestra.unsubListId) checks.push(await timed(`unsubscribe list ${s.adestra.unsubListId}`, null, () => ad.rawGet(`/lists/${encodeURIComponent(s.adestra.unsubListId)}`)));
    } catch (err) {
      checks.push({ step: 'settings', url: null, status: null, latencyMs: null, ok: false, error: errorMessage(err) });
    }
    let dropFolder: { path: string; exists: boolean; files: number };
    try {
      dropFolder = { path: s.dropDir, exists: fs.existsSync(s.dropDir), files: listDropFiles(s.dropDir).length };
    } catch {
      dropFolder = { path: s.dropDir, exists: false, files: 0 };
    }
    return { service: 'adestra', site: s.site.slug, ok: checks.every((c) => c.ok), checks, dropFolder };
  }

  /** No mail is sent: with SMTP_URL the server's greeting is read, else there is nothing to reach. */
  async function testEmail() {
    const smtp = config.sync.smtpUrl;
    if (!smtp) return { service: 'email', ok: false, checks: [{ step: 'mail transport', url: null, status: null, latencyMs: null, ok: false, error: 'no mail transport configured (set SMTP_URL)' }] };
    const u = new URL(smtp);
    const secure = u.protocol === 'smtps:';
    const port = Number(u.port) || (secure ? 465 : 25);
    const started = Date.now();
    const url = `${u.protocol}//${u.hostname}:${port}`;
    const check = await new Promise<Check & { banner?: string }>((resolve) => {
      const socket = secure ? tls.connect({ host: u.hostname, port, servername: u.hostname }) : net.connect({ host: u.hostname, port });
      const done = (c: Partial<Check> & { banner?: string }) => {
        socket.destroy();
        resolve({ step: 'SMTP greeting', url, status: null, latencyMs: Date.now() - started, ok: false, error: null, ...c });
      };
      socket.setTimeout(Math.min(config.sync.httpTimeoutMs, 10_000), () => done({ error: 'no greeting within the timeout' }));
      socket.once('data', (buf) => {
        const banner = buf.toString('utf8').split(/\r?\n/)[0];
        const code = Number(banner.slice(0, 3));
        done({ status: code || null, ok: code === 220, banner, error: code === 220 ? null : `unexpected greeting: ${banner}` });
      });
      socket.once('error', (err) => done({ error: `could not reach the mail server: ${err.message}` }));
    });
    return { service: 'email', ok: check.ok, note: 'connectivity only: no email is sent', checks: [check] };
  }

  return {
    records,
    leases,
    events,
    clients,
    siteFor,
    siteForWebhook,
    syncSites,
    verifyWebhookKey,
    /** The day a job's targetDate points at now. */
    configuredDay: async (s: SiteSync, job: JobName) => resolveTargetDate((await records.getConfig(s.site.id, job)).targetDate, clock.now(), tz),
    timezone: tz,
    syncOne,
    startDay,
    ingestWebhook,
    processDeliveryLater,
    listFiles,
    listHandled,
    processFile,
    downloadPath,
    getConfigs,
    saveConfig,
    runJob,
    takeOverDead,
    leaseName,
    status,
    testRaisersEdge,
    testRaisersEdgeCall,
    testAdestra,
    testEmail,
    idle,
    track,
    exportUrl: (s: SiteSync, n: number) => `${s.adestra.baseUrl.replace(/\/$/, '')}/exports/${n}`,
  };
}

export type SyncService = ReturnType<typeof syncService>;
