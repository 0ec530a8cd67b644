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

export async function syncOne(ctx: SyncContext, s: SiteSync, constituentId: string, trigger: RunTrigger, userId: number | null) {
  const { records, clients } = ctx;
  const run = await records.createRun(s.site.id, trigger === 'webhook' ? 'webhook' : 'one', constituentId, trigger, userId);
  const { data } = run;
  try {
    const re = clients.raisersEdge(s);
    const constituent = await re.getConstituent(constituentId);
    if (!constituent) {
      const message = `Constituent ${constituentId} was not found in the CRM`;
      data.errors.push({ constituentId, kind: 'not-found', message });
      await finishRun(ctx, run.id, data, 'failed');
      return { result: null, run: (await records.getRun(run.id))!, error: message, notFound: true as const };
    }
    data.progress = { ...data.progress, seen: 1, matched: 1 };
    const result = await syncConstituent(s, re, clients.adestra(s), constituent);
    data.results.push(result);
    data.progress.done = 1;
    listResult(data, result);
    await finishRun(ctx, run.id, data);
    return { result, run: (await records.getRun(run.id))! };
  } catch (err) {
    pushError(data, err, { constituentId });
    data.progress.failed = 1;
    await finishRun(ctx, run.id, data, 'failed');
    throw err;
  }
}

/** A constituent the CRM says it deleted: off the opt-in list, logged as a webhook run. */
export async function syncDeleted(ctx: SyncContext, s: SiteSync, constituentId: string) {
  const { records, clients } = ctx;
  const run = await records.createRun(s.site.id, 'webhook', constituentId, 'webhook', null);
  const { data } = run;
  try {
    data.progress = { ...data.progress, seen: 1, matched: 1 };
    const result = await forgetConstituent(s, clients.adestra(s), constituentId);
    data.results.push(result);
    data.progress.done = 1;
    listResult(data, result);
    await finishRun(ctx, run.id, data);
    return { result, run: (await records.getRun(run.id))! };
  } catch (err) {
    pushError(data, err, { constituentId });
    data.progress.failed = 1;
    await finishRun(ctx, run.id, data, 'failed');
    throw err;
  }
}
