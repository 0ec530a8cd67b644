// The four scheduled jobs of a site (RE → Adestra, unsubscribe, Export 80, Export 92): their
// configs, one run of a job under its lease, the take-over of a run whose instance died, status.
import type { Actor } from '../../http/types';
import { jobLastSlot, jobNextRun, resolveTargetDate } from '../../lib/time';
import type { SyncContext } from './context';
import { processPendingFiles } from './fileJobs';
import { expiredRunningJobLeases } from './jobLeases';
import { JOB_NAMES, JOBS, type JobConfig, type JobName, type RunTrigger } from './records';
import { outcomeOf } from './runs';
import type { SiteSync } from './siteSettings';
import { syncSites } from './sites';
import { startDay } from './syncDay';

export const getConfigs = ({ records }: Pick<SyncContext, 'records'>, s: SiteSync): Promise<JobConfig[]> =>
  Promise.all(JOB_NAMES.map((j) => records.getConfig(s.site.id, j)));

/** Saved, then announced: the scheduler re-plans that job. */
export async function saveConfig({ records, events }: Pick<SyncContext, 'records' | 'events'>, s: SiteSync, job: JobName, input: { hour: string; targetDate?: string }, actor: Actor | null): Promise<JobConfig> {
  const saved = await records.saveConfig(s.site.id, job, input, actor?.id ?? null);
  events.emit('config-saved', { siteId: s.site.id, job });
  return saved;
}

/** The lease of a scheduled job of a site: one run at a time across every instance. */
export const leaseName = (siteId: number, job: JobName) => `sync:${siteId}:${job}`;

/**
 * One run of a scheduled job, under its lease: with a slot (the scheduled time), it runs once per
 * slot across every instance. Answers {ran:false} when another instance has it. A dead run of
 * the job (its instance stopped renewing every lease it held) is taken over and finished first.
 * `claimed`: the lease was taken over already (the dead run `takeoverOf`); run its slot again.
 */
export async function runJob(
  ctx: SyncContext,
  s: SiteSync,
  job: JobName,
  o: { trigger: RunTrigger; slot?: string; claimed?: boolean; takeoverOf?: number | null; day?: string },
) {
  const { records, leases, clock, tz } = ctx;
  if (!o.claimed) await takeOverDead(ctx, { siteId: s.site.id, job, wait: true });
  const cfg = await records.getConfig(s.site.id, job);
  const day = o.day ?? resolveTargetDate(cfg.targetDate, clock.now(), tz);
  // Written into the run record: which scheduled time it is, and which dead run it finishes.
  const extra: Record<string, unknown> = { ...(o.slot ? { slot: o.slot } : {}), ...(o.claimed ? { takeoverOf: o.takeoverOf ?? null } : {}) };
  return leases.run(leaseName(s.site.id, job), { slot: o.slot, claimed: o.claimed }, async (lease) => {
    if (job === 're-sync') {
      const started = await startDay(ctx, s, day, o.trigger, null, extra);
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
    const data = await processPendingFiles(ctx, s, job, day, run);
    return { ...outcomeOf(data), recordId: run.id };
  });
}

/**
 * Scheduled runs whose instance died (the job's lease expired while "running", and that instance
 * holds no live lease any more, nested file/day leases included): take each over (one instance
 * wins) and run its slot again — file jobs resume at their checkpoint, so nothing is applied twice.
 * `wait`: wait for the runs to end (else they run in the background).
 */
export async function takeOverDead(ctx: SyncContext, only: { siteId?: number; job?: JobName; wait?: boolean } = {}): Promise<Array<{ name: string; slot: string | null }>> {
  const { db, records, leases, clock, log, track } = ctx;
  const names = only.siteId !== undefined && only.job ? [leaseName(only.siteId, only.job)] : undefined;
  const now = clock.now().toISOString();
  const dead = await expiredRunningJobLeases(db, now, names);
  if (!dead.length) return [];
  const taken: Array<{ name: string; slot: string | null }> = [];
  const runs: Promise<unknown>[] = [];
  const sitesWithSync = await syncSites(ctx);
  for (const name of dead) {
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
      track(runJob(ctx, site, job, { trigger: 'catch-up', slot: row.lastSlot ?? undefined, claimed: true, takeoverOf: row.lastRecordId, day })).catch((err) =>
        log.error({ err, lease: name }, 'the taken-over sync run failed'),
      ),
    );
  }
  if (only.wait) await Promise.all(runs);
  return taken;
}

/** The four jobs of a site: their configs, when they run next, how their last run went. */
export async function status({ records, leases, clock, config, tz }: SyncContext, s: SiteSync) {
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

/** The day a job's targetDate points at now. */
export async function configuredDay({ records, clock, tz }: Pick<SyncContext, 'records' | 'clock' | 'tz'>, s: SiteSync, job: JobName): Promise<string> {
  return resolveTargetDate((await records.getConfig(s.site.id, job)).targetDate, clock.now(), tz);
}
