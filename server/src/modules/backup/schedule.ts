// Scheduled backups: with BACKUP_DIR set (a folder, or a bucket's s3://bucket/prefix/), the server writes a backup there once per period of
// BACKUP_EVERY_HOURS (periods counted from 00:00 UTC) and keeps the newest BACKUP_KEEP. A database
// lease with the period as its slot makes each period's backup happen once, whichever instance
// takes it, and never two at a time.
import fs from 'node:fs';
import fsp from 'node:fs/promises';
import path from 'node:path';
import type { Deps } from '../../deps';
import { createLeases } from '../../lib/leases';
import { s3Store } from '../uploads';
import { temporaryArchive } from './bucket';
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
  const { dir: configured, everyHours, keep, bucket } = config.backups;
  if (!configured) return { runDue: async () => ({ ran: false }), stop: async () => {} };
  const dir = configured;
  const place = bucket ? bucketPlace(bucket, dir) : folderPlace(dir);
  const periodMs = everyHours * 3_600_000;
  const leases = createLeases({ db, clock, ttlSeconds: LEASE_SECONDS });
  let stopped = false;
  const running = new Set<{ abort: AbortController; done: Promise<unknown> }>();

  async function runDue(): Promise<ScheduledRun> {
    if (stopped) return { ran: false };
    const slot = new Date(Math.floor(clock.now().getTime() / periodMs) * periodMs).toISOString();
    const abort = new AbortController();
    const attempt = leases.run(BACKUP_LEASE, { slot }, async () => {
      const summary = await place.write(backupFileName(clock.now()), (file) => writeBackup(config, file, { db, clock, signal: abort.signal }));
      const removed = await place.removeOld(keep);
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

/** Where scheduled backups go: how one is written there whole, and how the oldest are removed. */
interface BackupPlace {
  write(name: string, make: (file: string) => Promise<BackupSummary>): Promise<BackupSummary>;
  removeOld(keep: number): Promise<string[]>;
}

function folderPlace(dir: string): BackupPlace {
  return {
    async write(name, make) {
      await fsp.mkdir(dir, { recursive: true });
      // Holding the lease, no other backup is being written here: a partial file is a dead run's.
      for (const n of await fsp.readdir(dir)) if (PARTIAL_NAME.test(n)) await fsp.rm(path.join(dir, n), { force: true });
      return make(path.join(dir, name));
    },
    removeOld: (keep) => removeOldBackups(dir, keep),
  };
}

/**
 * A bucket's folder: the archive is made in a temporary file, then sent (one PUT, or a multipart
 * upload visible only once whole), so the bucket never holds part of one.
 */
function bucketPlace(bucket: NonNullable<Deps['config']['backups']['bucket']>, address: string): BackupPlace {
  const store = s3Store({ ...bucket, prefix: '' });
  const folder = address.replace(/^s3:\/\/[^/]+\/?/, '');
  return {
    async write(name, make) {
      const temporary = temporaryArchive();
      try {
        const summary = await make(temporary.file);
        await store.put(folder + name, fs.createReadStream(temporary.file), { contentType: 'application/gzip' });
        return { ...summary, file: `${address}${address.endsWith('/') ? '' : '/'}${name}` };
      } finally {
        await temporary.done();
      }
    },
    async removeOld(keep) {
      const ours = (await store.list(folder)).map((f) => f.key).filter((k) => BACKUP_NAME.test(k.slice(folder.length)));
      const old = ours.sort().reverse().slice(keep);
      for (const key of old) await store.remove(key);
      return old.map((k) => k.slice(folder.length));
    },
  };
}
