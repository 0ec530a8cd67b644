// A run's log (the `re-sync` record): its errors, how it ends, and what a dead instance left behind.
import type { Deps } from '../../deps';
import { IntegrationError } from '../../integrations/crmHttp';
import type { LeaseRow, RunOutcome } from '../../lib/leases';
import type { FileKind } from './files';
import type { RunData, SyncRecords } from './records';

export const errorMessage = (err: unknown) => (err instanceof Error ? err.message : String(err));

/** A run whose instance died: its record says so (not silent). */
export async function markDead({ records, clock, log, metrics }: Pick<Deps, 'clock' | 'log' | 'metrics'> & { records: SyncRecords }, row: LeaseRow, error: string): Promise<void> {
  if (row.lastRecordId) {
    const run = await records.getRun(row.lastRecordId);
    if (run && run.data.status === 'running') {
      run.data.status = 'failed';
      run.data.finishedAt = clock.now().toISOString();
      run.data.errors.push({ kind: 'crashed', message: error });
      await records.saveRun(run.id, run.data);
      metrics?.syncRun(run.data.kind, 'failed');
    }
  }
  const m = /^file:(\d+):(\w+):(.+)$/.exec(row.name);
  if (m) {
    const rec = await records.fileRecord(Number(m[1]), m[2] as FileKind, m[3]);
    if (rec && rec.data.status === 'processing') await records.saveFileRecord(rec.id, { ...rec.data, status: 'failed', error });
  }
  log.warn({ lease: row.name, error }, 'a sync run died; recorded as failed');
}

export function pushError(data: RunData, err: unknown, extra: Record<string, unknown> = {}) {
  const e = err instanceof IntegrationError ? { kind: `${err.service}:${err.kind}`, message: err.message } : { kind: 'error', message: errorMessage(err) };
  data.errors.push({ ...extra, ...e });
}

/** Ends a run: the status given, else success, partial (some done) or failed from what it did. */
export async function finishRun({ records, clock, metrics }: Pick<Deps, 'clock' | 'metrics'> & { records: SyncRecords }, id: number, data: RunData, status?: RunData['status']) {
  data.status = status ?? (data.errors.length ? (data.progress.done || data.files?.some((f) => f.status === 'success') ? 'partial' : 'failed') : 'success');
  data.finishedAt = clock.now().toISOString();
  await records.saveRun(id, data);
  metrics?.syncRun(data.kind, data.status);
  return data;
}

export const outcomeOf = (data: RunData): RunOutcome => ({
  status: data.status === 'running' ? 'failed' : data.status,
  error: data.errors.length ? data.errors.map((e) => e.message).slice(0, 3).join('; ') : null,
});
