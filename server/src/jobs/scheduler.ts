// The scheduled sync jobs: for every site with the CRM sync, node-schedule runs the four jobs
// (CRM → Adestra, unsubscribe, Export 80, Export 92) daily at their configured hours, in
// SYNC_TIMEZONE. Each firing runs under the job's database lease for that scheduled time, so
// with several instances it runs once; a time missed while no instance was up is caught up at
// start; a run whose instance died is recorded as failed. Configs are re-read when saved here,
// and every few minutes (another instance, or the general-data call, may have changed them).
// A run whose instance died (its leases all expired) is taken over by another instance, which
// runs that slot again to the end (file jobs resume at their checkpoint). SYNC_SCHEDULE_EVERY_SECONDS
// (tests only) makes every job fire every N seconds instead of daily at its hour.
import schedule from 'node-schedule';
import type { Deps } from '../deps';
import { JOB_NAMES, type JobName, type RunTrigger } from '../modules/sync';
import type { SyncService } from '../modules/sync';
import { jobLastSlot, jobRule } from '../lib/time';

export interface SchedulerOptions {
  /** How often configs are re-read (ms); 0 = only on save. */
  refreshEveryMs?: number;
}

const validHour = (h: string) => /^\d{1,2}$/.test(h) && Number(h) <= 23;

export function createScheduler(deps: Deps, sync: SyncService, opts: SchedulerOptions = {}) {
  const { clock, log, config } = deps;
  const tz = config.sync.timezone;
  const every = config.sync.scheduleEverySeconds ?? 0;
  const jobs = new Map<string, { job: schedule.Job; hour: number }>();
  let refreshTimer: NodeJS.Timeout | undefined;
  let takeoverTimer: NodeJS.Timeout | undefined;
  let started = false;
  const onSaved = () => void refresh().catch((err) => log.error({ err }, 'sync scheduler refresh failed'));

  const key = (siteId: number, job: JobName) => `${siteId}:${job}`;

  /** One firing: the job of that site for that scheduled time (once across instances). */
  async function tick(siteId: number, job: JobName, slot: Date, trigger: RunTrigger = 'schedule') {
    const site = (await sync.syncSites()).find((s) => s.site.id === siteId);
    if (!site) return { ran: false as const };
    try {
      const out = await sync.runJob(site, job, { trigger, slot: slot.toISOString() });
      if (out.ran) log.info({ site: site.site.slug, job, slot: slot.toISOString(), status: out.value.status }, 'sync job ran');
      return out;
    } catch (err) {
      log.error({ err, site: site.site.slug, job }, 'sync job failed');
      return { ran: true as const, error: err };
    }
  }

  /** (Re)schedule every job of every site with the sync from their configs. */
  async function refresh(): Promise<void> {
    const seen = new Set<string>();
    for (const s of await sync.syncSites()) {
      for (const job of JOB_NAMES) {
        const k = key(s.site.id, job);
        seen.add(k);
        await sync.leases.ensure(sync.leaseName(s.site.id, job));
        const cfg = await sync.records.getConfig(s.site.id, job);
        if (!validHour(cfg.hour)) {
          log.warn({ site: s.site.slug, job, hour: cfg.hour }, 'sync job not scheduled: the hour is not 0-23');
          jobs.get(k)?.job.cancel();
          jobs.delete(k);
          continue;
        }
        const hour = Number(cfg.hour);
        if (jobs.get(k)?.hour === hour) continue;
        jobs.get(k)?.job.cancel();
        const siteId = s.site.id;
        // Every instance fires at the same times; the slot (the scheduled time, to the second) makes it run once.
        const scheduled = schedule.scheduleJob(`sync:${k}`, jobRule(hour, tz, every), (fireDate: Date) =>
          void sync.track(tick(siteId, job, new Date(Math.floor(fireDate.getTime() / 1000) * 1000))),
        );
        if (scheduled) jobs.set(k, { job: scheduled, hour });
      }
    }
    for (const [k, entry] of jobs) {
      if (!seen.has(k)) {
        entry.job.cancel();
        jobs.delete(k);
      }
    }
  }

  /** Runs whose last scheduled time passed while no instance ran them: run them now (once). */
  async function catchUp(): Promise<Array<{ siteId: number; job: JobName; slot: string }>> {
    const now = clock.now();
    const due: Array<{ siteId: number; job: JobName; slot: string }> = [];
    for (const s of await sync.syncSites()) {
      for (const job of JOB_NAMES) {
        const cfg = await sync.records.getConfig(s.site.id, job);
        if (!validHour(cfg.hour)) continue;
        const slot = jobLastSlot(Number(cfg.hour), tz, now, every);
        const lease = await sync.leases.get(sync.leaseName(s.site.id, job));
        const iso = slot.toISOString();
        if (!lease?.registeredAt || lease.registeredAt > iso) continue; // not scheduled yet at that time
        if (lease.lastSlot && lease.lastSlot >= iso) continue;
        due.push({ siteId: s.site.id, job, slot: iso });
        void sync.track(tick(s.site.id, job, slot, 'catch-up'));
      }
    }
    if (due.length) log.info({ due }, 'catching up sync runs missed while the app was down');
    return due;
  }

  async function start(): Promise<{ caughtUp: Array<{ siteId: number; job: JobName; slot: string }> }> {
    if (started) return { caughtUp: [] };
    started = true;
    // Runs of instances that died: take them over (before the reaper below would only mark them failed).
    await sync.takeOverDead();
    await sync.leases.reapExpired('');
    // Catch up before registering: a job first seen now has nothing to catch up.
    const caughtUp = await catchUp();
    await refresh();
    sync.events.on('config-saved', onSaved);
    const refreshEvery = opts.refreshEveryMs ?? 5 * 60_000;
    if (refreshEvery > 0) {
      refreshTimer = setInterval(onSaved, refreshEvery);
      refreshTimer.unref();
    }
    // Look for dead runs twice per lease length: a killed instance's run is taken over soon after its lease expires.
    takeoverTimer = setInterval(
      () => void sync.takeOverDead().catch((err) => log.error({ err }, 'sync takeover check failed')),
      Math.max(1000, (config.sync.leaseSeconds * 1000) / 2),
    );
    takeoverTimer.unref();
    return { caughtUp };
  }

  /** Stop scheduling; wait (a little) for runs under way. A run cut short shows as failed once its lease expires. */
  async function stop(graceMs = 5000): Promise<void> {
    started = false;
    sync.events.off('config-saved', onSaved);
    if (refreshTimer) clearInterval(refreshTimer);
    if (takeoverTimer) clearInterval(takeoverTimer);
    for (const { job } of jobs.values()) job.cancel();
    jobs.clear();
    await Promise.race([sync.idle(), new Promise((resolve) => setTimeout(resolve, graceMs).unref())]);
  }

  /** When each scheduled job fires next (as node-schedule has it). */
  function nextRuns(): Array<{ siteId: number; job: string; hour: number; nextRunAt: string | null }> {
    return [...jobs.entries()].map(([k, v]) => {
      const [siteId, job] = k.split(':');
      const next = v.job.nextInvocation();
      return { siteId: Number(siteId), job, hour: v.hour, nextRunAt: next ? new Date(next.getTime()).toISOString() : null };
    });
  }

  return { start, stop, refresh, catchUp, tick, nextRuns };
}

export type Scheduler = ReturnType<typeof createScheduler>;
