// Automatic batching (per site, off by default: BATCH_AUTOMATICALLY=1). A pass, every
// BATCH_EVERY_SECONDS on every instance, puts each site's Ready jobs into batches by rule:
//
// - jobs are grouped by product type, trim size, bleed and paper stock; each group has at most one
//   *filling* batch, on the sheet that holds most of its items;
// - jobs join it in queue order; full (slots per sheet × BATCH_SHEETS_PER_BATCH) it closes and the
//   next job opens a new one;
// - at the site's daily cut-off (BATCH_CUT_OFF, in SYNC_TIMEZONE) every filling batch that opened
//   before it closes, full or not. The pass compares with the latest cut-off passed, so a restart
//   across the cut-off still closes them: nothing waits in memory;
// - a member that stops being printable (held, printed, withdrawn, moved to the provider, deleted,
//   or now of another kind) leaves its filling batch;
// - the rule turned off: filling batches close ('turned-off').
//
// Each site's pass runs in one transaction under the site's batch numbering lock (the one manual
// batches take), so two instances passing at once, or a pass and a person making a batch, never put
// a job in two open batches, and a second pass finds nothing left to do.
import type { Knex } from 'knex';
import type { Deps } from '../../deps';
import { lastRunSlot } from '../../lib/time';
import { type PrintJob, type PrintJobsRepo, findPrintJob, printJobIds } from '../print-jobs';
import { defaultSort, readyQueue } from '../print-jobs';
import { listSites } from '../sites';
import type { CloseReason } from '../../../../common/api/batching';
import { groupKeyOf, slotsOf, type JobKind } from './kinds';
import { recordChange } from '../history';
import { batchesRepo } from './repo';
import { autoBatchingOfEnv } from './settings';
import { chooseSheet, type ImposeSettings } from './sheets';

/** The name a batch made by the rule is created by. */
export const AUTO_BATCH_BY = 'Automatic batching';

/** Why the rule closed a batch, as its history says it. */
const CLOSED_BECAUSE: Record<CloseReason, string> = { full: 'full', 'cut-off': 'the daily cut-off', 'turned-off': 'automatic batching was turned off', printed: 'printed' };

/** Why a job left its filling batch, as its history says it (the pass only knows it is no longer Ready, or of another kind). */
function whyLeft(job: PrintJob | undefined, otherKind: boolean): string {
  if (!job) return 'deleted';
  if (job.isPrinted) return 'printed';
  if (job.withdrawn) return 'left the queue';
  if (job.stockHold) return `waiting for stock (${job.stockHold})`;
  if (job.held) return 'held by preflight';
  if (job.madeBy === 'provider') return 'moved to HP Site Flow';
  if (otherKind) return 'now another product, size or paper stock';
  return 'no longer ready to print';
}

/** In the pass's transaction: a job's joining or leaving a filling batch, in the job's history (and so its order's). */
async function recordMembership(trx: Knex.Transaction, at: string, siteId: number, job: PrintJob | undefined, jobId: number, change: { joined: number } | { left: number; reason: string }): Promise<void> {
  const base = { at, siteId, kind: 'job' as const, subjectId: jobId, orderRef: job?.shopifyOrderId ?? null, by: { automatic: AUTO_BATCH_BY } };
  if ('joined' in change) await recordChange(trx, { ...base, action: 'batched', to: `batch ${change.joined}` });
  else await recordChange(trx, { ...base, action: 'unbatched', from: `batch ${change.left}`, reason: change.reason });
}

/** The most Ready jobs one pass looks at per site. */
const MAX_READY = 5000;

export interface AutoBatchReport {
  /** Jobs that joined a batch. */
  joined: number[];
  /** Jobs that left a filling batch. */
  left: number[];
  opened: number[];
  closed: Array<{ id: number; reason: CloseReason }>;
  /** Jobs of a kind no press sheet of the site can hold: left in Ready for a person. */
  noSheet: number[];
}

export interface AutoBatchParts {
  jobsRepo: PrintJobsRepo;
  kindOf(job: PrintJob): Promise<JobKind>;
  impositionSettingsFor(siteId: number): Promise<ImposeSettings>;
}

export async function autoBatchPass({ db, clock, config, log }: Deps, parts: AutoBatchParts): Promise<AutoBatchReport> {
  const empty = (): AutoBatchReport => ({ joined: [], left: [], opened: [], closed: [], noSheet: [] });
  const report = empty();
  const withFilling = new Set(await batchesRepo(db).sitesFilling());
  const { rows: sites } = await listSites(db, {}, { field: 'id', order: 'asc' }, 10_000, 0);
  for (const site of sites) {
    const rule = autoBatchingOfEnv(site.settings.env);
    if (!rule.on && !withFilling.has(site.id)) continue;
    try {
      // Counted once the site's transaction is in: a rolled-back pass did nothing.
      const done = await passSite(site.id, rule);
      for (const k of Object.keys(report) as Array<keyof AutoBatchReport>) (report[k] as unknown[]).push(...done[k]);
    } catch (err) {
      // One site failing (a lock timeout, a bad design) does not stop the others.
      log.error({ err, site: site.slug }, 'automatic batching failed for a site');
    }
  }
  return report;

  async function passSite(siteId: number, rule: ReturnType<typeof autoBatchingOfEnv>): Promise<AutoBatchReport> {
    const report = empty();
    const now = clock.now();
    const at = now.toISOString();
    // The Ready queue and each job's kind, read before the lock (designs are read here): a job
    // that changes meanwhile is checked again under the lock and waits for the next pass.
    const ready = rule.on ? (await parts.jobsRepo.list(readyQueue(siteId), defaultSort(false), MAX_READY, 0)).rows : [];
    const kinds = new Map<number, { job: PrintJob; kind: JobKind; key: string; slots: number }>();
    for (const job of ready) {
      const kind = await parts.kindOf(job);
      kinds.set(job.id, { job, kind, key: groupKeyOf(kind), slots: slotsOf(job, kind) });
    }
    const settings = await parts.impositionSettingsFor(siteId);
    const [h, m] = (rule.cutOff ?? '00:00').split(':').map(Number);
    const cutOff = rule.cutOff ? lastRunSlot(h, config.sync.timezone, now, m).toISOString() : null;

    await db.transaction(async (trx) => {
      const tx = batchesRepo(trx);
      await tx.lockNumbering(siteId);
      const readyNow = new Set(await printJobIds(trx, readyQueue(siteId)));
      const closeBatch = async (id: number, reason: CloseReason) => {
        if (await tx.close(id, at, reason)) {
          report.closed.push({ id, reason });
          await recordChange(trx, { at, siteId, kind: 'batch', subjectId: id, by: { automatic: AUTO_BATCH_BY }, action: 'closed', reason: CLOSED_BECAUSE[reason] });
        }
        // Nothing in it: it goes rather than stay as an empty closed batch.
        await tx.deleteEmpty(id);
      };

      const open = new Map<string, { id: number; number: number; used: number; capacity: number }>();
      for (const batch of await tx.filling(siteId)) {
        const otherKind = (id: number) => kinds.has(id) && kinds.get(id)!.key !== batch.groupKey;
        const leaving = batch.jobIds.filter((id) => !readyNow.has(id) || otherKind(id));
        await tx.removeJobs(batch.id, leaving);
        report.left.push(...leaving);
        for (const id of leaving) {
          const job = await findPrintJob(trx, id);
          await recordMembership(trx, at, siteId, job, id, { left: batch.number, reason: whyLeft(job, otherKind(id)) });
        }
        const staying = batch.jobIds.filter((id) => !leaving.includes(id));
        const used = staying.reduce((n, id) => n + (kinds.get(id)?.slots ?? 1), 0);
        const capacity = batch.capacity ?? 1;
        if (!rule.on) await closeBatch(batch.id, 'turned-off');
        else if (cutOff && batch.createdAt < cutOff) await closeBatch(batch.id, 'cut-off');
        else if (used >= capacity) await closeBatch(batch.id, 'full');
        else open.set(batch.groupKey, { id: batch.id, number: batch.number, used, capacity });
      }
      if (!rule.on) return;

      const waiting = ready.filter((j) => readyNow.has(j.id)).map((j) => j.id);
      const taken = new Set((await tx.inOpenBatch(waiting)).map((t) => t.jobId));
      const sheetOf = new Map<string, ReturnType<typeof chooseSheet>>();
      for (const jobId of waiting) {
        if (taken.has(jobId)) continue;
        const { job, kind, key, slots } = kinds.get(jobId)!;
        if (!sheetOf.has(key)) sheetOf.set(key, chooseSheet(kind.leaf, settings, undefined, kind.format));
        const layout = sheetOf.get(key)!;
        if (!layout) {
          report.noSheet.push(jobId);
          continue;
        }
        let batch = open.get(key);
        // A job that does not fit what is left starts the next batch (a job bigger than a whole batch goes alone).
        if (batch && batch.used > 0 && batch.used + slots > batch.capacity) {
          await closeBatch(batch.id, 'full');
          batch = undefined;
        }
        if (!batch) {
          const capacity = layout.slots.length * rule.sheetsPerBatch;
          const id = await tx.insert({ siteId, sheet: layout.sheet.name, stock: kind.stock, jobIds: [], at, byUserId: null, byName: AUTO_BATCH_BY, filling: { groupKey: key, capacity } });
          report.opened.push(id);
          await recordChange(trx, { at, siteId, kind: 'batch', subjectId: id, by: { automatic: AUTO_BATCH_BY }, action: 'created', to: 'open', reason: `Filling with ${kind.productType} ${kind.leaf.trimWidthMm} × ${kind.leaf.trimHeightMm} mm` });
          batch = { id, number: (await tx.byId(id))!.number, used: 0, capacity };
        }
        await tx.addJobs(batch.id, [job.id]);
        report.joined.push(job.id);
        await recordMembership(trx, at, siteId, job, job.id, { joined: batch.number });
        batch.used += slots;
        if (batch.used >= batch.capacity) {
          await closeBatch(batch.id, 'full');
          open.delete(key);
        } else open.set(key, batch);
      }
    });
    return report;
  }
}
