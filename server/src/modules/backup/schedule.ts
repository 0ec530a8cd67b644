// Scheduled backups: with BACKUP_DIR set, the server writes a backup there once per period of
// BACKUP_EVERY_HOURS (periods counted from 00:00 UTC) and keeps the newest BACKUP_KEEP. A database
// lease with the period as its slot makes each period's backup happen once, whichever instance
// takes it, and never two at a time.
import fsp from 'node:fs/promises';
import path from 'node:path';
import type { Deps } from '../../deps';
import { createLeases } from '../../lib/leases';
import { BackupError } from './errors';
import { writeBackup, type BackupSummary } from './write';

export const BACKUP_LEASE = 'backup';
/** Renewed every third of it while a backup runs; a dead instance's run is given up after it. */
const LEASE_SECONDS = 300;

const BACKUP_NAME = /^presswork-backup-\d{8}T\d{6}Z\.tar\.gz$/;
const PARTIAL_NAME = /^presswork-backup-\d{8}T\d{6}Z\.tar\.gz\.partial$/;

/** presswork-backup-20261126T053200Z.tar.gz: sorts by time. */
export const backupFileName = (at: Date) => `presswork-backup-${at.toISOString().replace(/[-:]/g, '').replace(/\.\d+Z$/, 'Z')}.tar.gz`;

/** Removes all but the newest `keep` scheduled backups in `dir` (other files are never touched). */
export async function removeOldBackups(dir: string, keep: number): Promise<string[]> {
  const old = (await fsp.readdir(dir)).filter((n) => BACKUP_NAME.test(n)).sort().reverse().slice(keep);
  for (const name of old) await fsp.rm(path.join(dir, name), { force: true });
  return old;
}

export type ScheduledRun = { ran: false } | { ran: true; summary: BackupSummary; removed: string[] };

export interface ScheduledBackups {
  /** This period's backup, unless it was taken already (here or on another instance) or one is under way. */
  runDue(): Promise<ScheduledRun>;
  /** Stops the timer and any backup under way (its partial file removed); resolves once it has. */
  stop(): Promise<void>;
}

/** `checkEveryMs`: how often the timer looks for a period without its backup (default a minute). */
export function startScheduledBackups({ db, clock, config, log }: Deps, options: { checkEveryMs?: number } = {}): ScheduledBackups {
  const { dir: configured, everyHours, keep } = config.backups;
  if (!configured) return { runDue: async () => ({ ran: false }), stop: async () => {} };
  const dir = configured;
  const periodMs = everyHours * 3_600_000;
  const leases = createLeases({ db, clock, ttlSeconds: LEASE_SECONDS });
  let stopped = false;
  const running = new Set<{ abort: AbortController; done: Promise<unknown> }>();

  async function runDue(): Promise<ScheduledRun> {
    if (stopped) return { ran: false };
    const slot = new Date(Math.floor(clock.now().getTime() / periodMs) * periodMs).toISOString();
    const abort = new AbortController();
    const attempt = leases.run(BACKUP_LEASE, { slot }, async () => {
      await fsp.mkdir(dir, { recursive: true });
      // Holding the lease, no other backup is being written here: a partial file is a dead run's.
      for (const name of await fsp.readdir(dir)) if (PARTIAL_NAME.test(name)) await fsp.rm(path.join(dir, name), { force: true });
      const summary = await writeBackup(config, path.join(dir, backupFileName(clock.now())), { db, clock, signal: abort.signal });
      const removed = await removeOldBackups(dir, keep);
      return { status: 'success' as const, summary, removed };
    });
    const run = { abort, done: attempt.catch(() => {}) };
    running.add(run);
    try {
      const result = await attempt;
      if (!result.ran) return { ran: false };
      const { summary, removed } = result.value;
      log.info(
        { file: summary.file, bytes: summary.bytes, files: summary.files.count, ms: summary.ms, removed, database: summary.database.engine },
        summary.database.engine === 'postgresql' ? 'scheduled backup written (files only: the PostgreSQL database is pg_dump\'s)' : 'scheduled backup written',
      );
      return { ran: true, summary, removed };
    } catch (err) {
      if (abort.signal.aborted) log.warn({ dir }, 'scheduled backup stopped by shutdown; no archive was written');
      else log.error({ err: err instanceof BackupError ? { message: err.message } : err, dir }, 'scheduled backup failed');
      throw err;
    } finally {
      running.delete(run);
    }
  }

  const checkEveryMs = options.checkEveryMs ?? Math.min(60_000, periodMs);
  let timer: NodeJS.Timeout | undefined;
  const schedule = () => {
    timer = setTimeout(() => {
      void runDue()
        .catch(() => {})
        .finally(() => {
          if (!stopped) schedule();
        });
    }, checkEveryMs);
    timer.unref();
  };
  schedule();
  log.info({ dir, everyHours, keep }, 'scheduled backups on');

  return {
    runDue,
    async stop() {
      stopped = true;
      clearTimeout(timer);
      for (const run of running) run.abort.abort();
      await Promise.all([...running].map((run) => run.done));
    },
  };
}
