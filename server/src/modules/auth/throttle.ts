// Sign-in throttling: too many failures for one email, or from one address, within a short window
// answer 429 until the window has passed. The window is short, so a real user is never locked out for long.
// The failures are kept in the database: every instance counts the same ones, a restart forgets
// none, and no number of other emails or addresses pushes an account's failures out.
import type { Logger } from 'pino';
import type { Db } from '../../db';
import { signInFailuresRepo } from './repo';

export interface ThrottleSettings {
  maxFailures: number;
  windowSeconds: number;
}

/** One address may serve a whole office, so it gets four times an email's failures. */
const ADDRESS_LIMIT_FACTOR = 4;

/**
 * Seconds to wait before trying again given the failures still in the window (times in ms, newest
 * first), or 0: at `limit` failures, until the oldest of the newest `limit` leaves the window.
 */
export function secondsToWait(newestFirst: number[], limit: number, windowSeconds: number, now: number): number {
  if (newestFirst.length < limit) return 0;
  const oldestCounted = newestFirst[limit - 1];
  return Math.max(0, Math.ceil((oldestCounted + windowSeconds * 1000 - now) / 1000));
}

export function signInThrottle(db: Db, settings: ThrottleSettings, log: Logger) {
  const repo = signInFailuresRepo(db);
  const windowStart = (now: number) => new Date(now - settings.windowSeconds * 1000).toISOString();

  return {
    /** Seconds to wait before trying again, or 0 when the attempt may go ahead. */
    async retryAfter(email: string, address: string, now: number): Promise<number> {
      const since = windowStart(now);
      const checks = [
        { kind: 'email', value: email, limit: settings.maxFailures },
        { kind: 'address', value: address, limit: settings.maxFailures * ADDRESS_LIMIT_FACTOR },
      ] as const;
      let wait = 0;
      for (const { kind, value, limit } of checks) {
        const times = (await repo.newestSince(kind, value, since, limit)).map((t) => Date.parse(t));
        wait = Math.max(wait, secondsToWait(times, limit, settings.windowSeconds, now));
      }
      return wait;
    },

    async recordFailure(email: string, address: string, now: number): Promise<void> {
      await repo.record(
        [
          { kind: 'email', value: email },
          { kind: 'address', value: address },
        ],
        new Date(now).toISOString(),
      );
      // Each failure removes up to a batch of expired ones (it adds two), so a spray of addresses
      // cannot grow the table past the window's failures. Only rows already outside the window go.
      // A prune that fails (a lock, a deadlock between instances) is left to the next failure:
      // housekeeping never changes the sign-in's answer.
      try {
        await repo.pruneBefore(windowStart(now));
      } catch (err) {
        log.warn({ err }, 'pruning old sign-in failures failed; the next failure tries again');
      }
    },

    /** A successful sign-in clears the email's failures (the address keeps its count). */
    async recordSuccess(email: string): Promise<void> {
      // Read first: a sign-in with nothing to clear writes nothing (it still works while another
      // process holds SQLite's write lock, as it did when the count was in memory).
      if (await repo.any('email', email)) await repo.clear('email', email);
    },
  };
}

export type SignInThrottle = ReturnType<typeof signInThrottle>;
