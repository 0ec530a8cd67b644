// The drop-file calls and job: the files of a kind and what was done with each, processing one
// on request (logged as a run), the scheduled pass over every pending file, and downloads.
import { notFound } from '../../http/errors';
import { IntegrationError } from '../../integrations/crmHttp';
import type { SyncContext } from './context';
import { processFileInner } from './fileApply';
import type { FileKind } from './files';
import type { FileRecordData, RunData, RunTrigger } from './records';
import { finishRun, pushError } from './runs';
import type { SiteSync } from './siteSettings';

export const summaryOf = (d: FileRecordData) => ({
  rows: d.rowsTotal,
  rowsDone: d.rowsDone,
  applied: d.applied,
  unchanged: d.unchanged,
  unmatched: d.unmatched.length,
  skipped: d.skipped.length,
  errors: d.errors.length,
});

export const handledView = (r: { id: number; updatedAt: string; data: FileRecordData }) => ({
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

export async function listHandled({ records }: Pick<SyncContext, 'records'>, s: SiteSync, kind: FileKind) {
  return (await records.listFileRecords(s.site.id, kind)).map(handledView);
}

export async function listFiles({ records, dropFiles }: Pick<SyncContext, 'records' | 'dropFiles'>, s: SiteSync, kind: FileKind) {
  const handled = new Map((await records.listFileRecords(s.site.id, kind)).map((r) => [r.data.name, r]));
  return (await dropFiles.list(s, kind)).map((f) => {
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

/** The file-processing call: process one file (or resume it), answer it and the list of processed files. */
export async function processFile(ctx: SyncContext, s: SiteSync, kind: FileKind, name: string, o: { force?: boolean; trigger: RunTrigger; userId: number | null }) {
  const { records } = ctx;
  const run = await records.createRun(s.site.id, kind, name, o.trigger, o.userId);
  let value: Awaited<ReturnType<typeof processFileInner>>;
  try {
    value = await processFileInner(ctx, s, kind, name, Boolean(o.force));
  } catch (err) {
    pushError(run.data, err, { file: name });
    await finishRun(ctx, run.id, run.data, 'failed');
    throw err;
  }
  run.data.files = [{ name, status: value.status, summary: summaryOf(value.data) }];
  run.data.optOutList = [];
  if (value.alreadyProcessed) run.data.note = 'already processed: nothing done (send force to process it again)';
  if (value.status === 'failed') run.data.errors.push({ file: name, message: value.data.error ?? 'failed' });
  for (const e of value.data.errors) run.data.errors.push(e);
  run.data.progress = { ...run.data.progress, seen: value.data.rowsTotal, done: value.data.rowsDone };
  await finishRun(ctx, run.id, run.data, value.status === 'failed' ? 'failed' : value.data.errors.length ? 'partial' : 'success');
  const rec = await records.fileRecord(s.site.id, kind, name);
  return {
    file: rec ? handledView(rec) : null,
    alreadyProcessed: value.alreadyProcessed,
    error: value.status === 'failed' ? value.data.error : null,
    result: summaryOf(value.data),
    unmatched: value.data.unmatched,
    runId: run.id,
    listAlreadyProcess: await listHandled(ctx, s, kind),
  };
}

/** A scheduled file job: every file of that kind up to `uptoDay` not processed yet (half-processed ones resume). */
export async function processPendingFiles(ctx: SyncContext, s: SiteSync, kind: FileKind, uptoDay: string, run: { id: number; data: RunData }): Promise<RunData> {
  const { records } = ctx;
  const { data } = run;
  data.files = [];
  const handled = new Map((await records.listFileRecords(s.site.id, kind)).map((r) => [r.data.name, r.data.status]));
  const files = (await ctx.dropFiles.list(s, kind)).filter((f) => f.day <= uptoDay && handled.get(f.name) !== 'success');
  data.progress.total = files.length;
  for (const f of files) {
    data.progress.seen++;
    try {
      const value = await processFileInner(ctx, s, kind, f.name, false);
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
  return finishRun(ctx, run.id, data);
}

/** The bytes of a download call, only of the site's drop files. */
export async function downloadFile({ dropFiles }: Pick<SyncContext, 'dropFiles'>, s: SiteSync, name: string): Promise<Buffer> {
  const bytes = await dropFiles.read(s, name);
  if (!bytes) throw notFound('No such export file');
  return bytes;
}
