// Liveness and readiness. Ready means this instance can do its work: the database answers, its
// schema is this code's (no migration pending), the file store (the files folder, or the bucket)
// takes a write, and this machine's disk has room (READY_MIN_FREE_MB). Each failing check says why in a sentence: no paths, no secrets (the
// details go to the log). Once the instance has begun to shut down it is not ready, whatever the
// checks would say: a balancer stops sending it requests while those under way finish.
import crypto from 'node:crypto';
import fsp from 'node:fs/promises';
import path from 'node:path';
import type { HealthCheck, HealthCheckName, Readiness } from '../../../../common/api/health';
import type { Deps } from '../../deps';
import { migrationState } from '../../db';
import { probeStore, StoreUnavailable, type FileStore } from '../uploads';
import { healthRepo } from './repo';

/** Longest a check may take before it counts as failed (a database that hangs is not ready). */
export const CHECK_TIMEOUT_MS = 2_000;

const MB = 1024 * 1024;

class CheckFailed extends Error {}

/** The error's code (ENOSPC, ECONNREFUSED…) for the sentence; never its message, which may hold a path or a host. */
const codeOf = (err: unknown) => {
  const code = (err as { code?: unknown } | null)?.code;
  return typeof code === 'string' && /^[A-Z0-9_]{2,40}$/.test(code) ? ` (${code})` : '';
};

function withTimeout<T>(p: Promise<T>, what: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new CheckFailed(`${what} did not answer within ${CHECK_TIMEOUT_MS / 1000} s`)), CHECK_TIMEOUT_MS);
  });
  return Promise.race([p, late]).finally(() => clearTimeout(timer));
}

const names = (list: string[]) => `${list.slice(0, 3).join(', ')}${list.length > 3 ? `, and ${list.length - 3} more` : ''}`;

/** What readiness answers from the moment a shutdown begins. */
export const SHUTTING_DOWN: Readiness = { status: 'not-ready', checks: [{ name: 'shutdown', ok: false, reason: 'this instance is shutting down' }] };

/** `filesFolder`: where the file store keeps its files on this machine (its disk is the one checked). */
export function healthService({ db, config, log, shuttingDown = () => false }: Deps, store: FileStore, filesFolder: string) {
  const checks: Record<Exclude<HealthCheckName, 'shutdown'>, () => Promise<void>> = {
    async database() {
      try {
        await withTimeout(healthRepo(db).ping(), 'the database');
      } catch (err) {
        if (err instanceof CheckFailed) throw err;
        throw new CheckFailed(`the database did not answer${codeOf(err)}`, { cause: err });
      }
    },
    async migrations() {
      let state: Awaited<ReturnType<typeof migrationState>>;
      try {
        state = await withTimeout(migrationState(db), 'the database');
      } catch (err) {
        if (err instanceof CheckFailed) throw err;
        throw new CheckFailed(`the applied migrations could not be read${codeOf(err)}`, { cause: err });
      }
      if (state.pending.length) throw new CheckFailed(`${state.pending.length} migration(s) not applied yet: ${names(state.pending)} (they run when the server starts)`);
      if (state.unknown.length) throw new CheckFailed(`the database has migration(s) this version does not know: ${names(state.unknown)} (a newer version ran on it)`);
    },
    async storage() {
      // Written and removed through the store itself, as an upload would be (flushed to disk, or a bucket's PUT).
      const probe = `.ready-probe-${process.pid}-${crypto.randomBytes(6).toString('hex')}`;
      try {
        await withTimeout(probeStore(store, probe), store.kind === 's3' ? 'the bucket' : 'the files folder');
      } catch (err) {
        if (err instanceof CheckFailed) throw err;
        if (err instanceof StoreUnavailable) throw new CheckFailed(err.reason, { cause: err });
        throw new CheckFailed(`the files folder cannot be written${codeOf(err)}`, { cause: err });
      }
    },
    async disk() {
      let stats: { bavail: number; bsize: number };
      try {
        stats = await withTimeout(statfsOfNearest(filesFolder), 'the disk');
      } catch (err) {
        if (err instanceof CheckFailed) throw err;
        throw new CheckFailed(`the free space of the files folder's disk could not be read${codeOf(err)}`, { cause: err });
      }
      const freeMb = Math.floor((Number(stats.bavail) * Number(stats.bsize)) / MB);
      if (freeMb < config.ready.minFreeMb) throw new CheckFailed(`${freeMb} MB free on the files folder's disk, below READY_MIN_FREE_MB (${config.ready.minFreeMb} MB)`);
    },
  };

  async function runChecks(): Promise<Readiness> {
    const results = await Promise.all(
      (Object.keys(checks) as Array<keyof typeof checks>).map(async (name): Promise<HealthCheck> => {
        try {
          await checks[name]();
          return { name, ok: true };
        } catch (err) {
          const reason = err instanceof CheckFailed ? err.message : 'the check failed unexpectedly';
          log.warn({ err: err instanceof CheckFailed && err.cause ? err.cause : err, check: name }, `not ready: ${reason}`);
          return { name, ok: false, reason };
        }
      }),
    );
    return { status: results.every((c) => c.ok) ? 'ready' : 'not-ready', checks: results };
  }

  // Probes arriving together share one run: a burst of them writes one probe file, not one each.
  let running: Promise<Readiness> | undefined;

  return {
    /** Every check, run now (or the run already under way); shutting down: not ready, at once. */
    async readiness(): Promise<Readiness> {
      // The database and the disk are not touched any more: the shutdown is closing them.
      if (shuttingDown()) return SHUTTING_DOWN;
      running ??= runChecks().finally(() => {
        running = undefined;
      });
      const readiness = await running;
      // A run that began before the shutdown does not answer "ready" after it.
      return shuttingDown() ? SHUTTING_DOWN : readiness;
    },
  };
}

/** statfs of the folder, or of its nearest existing parent (a fresh install has no files folder yet). */
async function statfsOfNearest(folder: string) {
  for (let dir = path.resolve(folder); ; dir = path.dirname(dir)) {
    try {
      return await fsp.statfs(dir);
    } catch (err) {
      if ((err as { code?: string }).code !== 'ENOENT' || path.dirname(dir) === dir) throw err;
    }
  }
}

export type HealthService = ReturnType<typeof healthService>;
