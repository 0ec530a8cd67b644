// RE → Adestra for one constituent (the manual call and every CRM webhook), logged as one run.
import { forgetConstituent, syncConstituent, type SyncResult } from './constituent';
import type { SyncContext } from './context';
import type { RunData, RunTrigger } from './records';
import { finishRun, pushError } from './runs';
import type { SiteSync } from './siteSettings';

/** A synced constituent goes into the run's opt-in or opt-out list (by id when it has no email). */
export function listResult(data: RunData, result: SyncResult): void {
  if (result.email) (result.action === 'opted-in' ? data.optInList : data.optOutList).push(result.email);
  else if (result.action === 'opted-out') data.optOutList.push(`#${result.constituentId}`);
}

type Run = Awaited<ReturnType<SyncContext['records']['createRun']>>;

/** The run of one constituent: a failure is logged on it (and the run finished as failed), then thrown. */
async function asRun<T>(ctx: SyncContext, run: Run, constituentId: string, work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (err) {
    pushError(run.data, err, { constituentId });
    run.data.progress.failed = 1;
    await finishRun(ctx, run.id, run.data, 'failed');
    throw err;
  }
}

/** What one constituent's sync answers: its result and run, or that the CRM has no such constituent. */
export type OneOutcome = { result: SyncResult; run: Run; error?: undefined; notFound?: undefined } | { result: null; run: Run; error: string; notFound: true };

/** The constituent's result goes on the run, which is finished. */
async function recordResult(ctx: SyncContext, run: Run, result: SyncResult): Promise<OneOutcome> {
  const { data } = run;
  data.results.push(result);
  data.progress.done = 1;
  listResult(data, result);
  await finishRun(ctx, run.id, data);
  return { result, run: (await ctx.records.getRun(run.id))! };
}

export async function syncOne(ctx: SyncContext, s: SiteSync, constituentId: string, trigger: RunTrigger, userId: number | null): Promise<OneOutcome> {
  const { records, clients } = ctx;
  const run = await records.createRun(s.site.id, trigger === 'webhook' ? 'webhook' : 'one', constituentId, trigger, userId);
  const { data } = run;
  return asRun(ctx, run, constituentId, async (): Promise<OneOutcome> => {
    const re = clients.raisersEdge(s);
    const constituent = await re.getConstituent(constituentId);
    if (!constituent) {
      const message = `Constituent ${constituentId} was not found in the CRM`;
      data.errors.push({ constituentId, kind: 'not-found', message });
      await finishRun(ctx, run.id, data, 'failed');
      return { result: null, run: (await records.getRun(run.id))!, error: message, notFound: true as const };
    }
    data.progress = { ...data.progress, seen: 1, matched: 1 };
    return recordResult(ctx, run, await syncConstituent(s, re, clients.adestra(s), constituent));
  });
}

/** A constituent the CRM says it deleted: off the opt-in list, logged as a webhook run. */
export async function syncDeleted(ctx: SyncContext, s: SiteSync, constituentId: string) {
  const run = await ctx.records.createRun(s.site.id, 'webhook', constituentId, 'webhook', null);
  return asRun(ctx, run, constituentId, async () => {
    run.data.progress = { ...run.data.progress, seen: 1, matched: 1 };
    return recordResult(ctx, run, await forgetConstituent(s, ctx.clients.adestra(s), constituentId));
  });
}
