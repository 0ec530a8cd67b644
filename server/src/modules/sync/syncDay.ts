// RE → Adestra for every constituent modified on a day, in the background under a lease per day.
import { conflict } from '../../http/errors';
import { IntegrationError } from '../../integrations/crmHttp';
import { dayIn, dayWindow } from '../../lib/time';
import { syncConstituent } from './constituent';
import type { SyncContext } from './context';
import type { RunData, RunTrigger } from './records';
import { errorMessage, finishRun, outcomeOf, pushError } from './runs';
import type { SiteSync } from './siteSettings';
import { listResult } from './syncOne';

/** The run itself: page through the CRM's changes since the day began, keep that day's, sync each. */
export async function runDay(ctx: SyncContext, s: SiteSync, day: string, run: { id: number; data: RunData }): Promise<RunData> {
  const { records, clients, opts, tz, log } = ctx;
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
          listResult(data, result);
        } catch (err) {
          if (err instanceof IntegrationError && err.fatal) throw err;
          data.progress.failed++;
          pushError(data, err, { constituentId: String(c.id) });
        }
        await records.saveRun(run.id, data);
      }
      await records.saveRun(run.id, data);
    }
    return await finishRun(ctx, run.id, data);
  } catch (err) {
    // The run cannot go on (network, quota, auth…): it says so in its log, with what it did.
    pushError(data, err);
    log.warn({ site: s.site.slug, day, err: errorMessage(err) }, 'CRM day sync stopped');
    return finishRun(ctx, run.id, data, 'failed');
  }
}

/**
 * Start the sync of every constituent modified on `day`. Answers at once with the run record
 * (the UI polls it); `done` settles when the run ends. A run of the same day already going
 * on is answered instead of starting a second one.
 */
export async function startDay(ctx: SyncContext, s: SiteSync, day: string, trigger: RunTrigger, userId: number | null, extra?: Record<string, unknown>) {
  const { records, leases, track } = ctx;
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
        return outcomeOf(await runDay(ctx, s, day, run));
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
