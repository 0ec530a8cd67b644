// SQL of the sign-in throttle: failed sign-ins by email and by client address (sign_in_failures).
import crypto from 'node:crypto';
import type { Db } from '../../db';

/** What a failure is counted against. */
export type FailureKind = 'email' | 'address';

/** Expired rows removed at most per prune: one sign-in never waits on a large delete. */
export const PRUNE_BATCH = 200;

// Stored hashed: a fixed length whatever was typed, and no typed text kept in clear.
const subjectOf = (value: string) => crypto.createHash('sha256').update(value).digest('hex');

export function signInFailuresRepo(db: Db) {
  return {
    /** When the newest `limit` failures after `since` happened (ISO times, newest first). */
    async newestSince(kind: FailureKind, value: string, since: string, limit: number): Promise<string[]> {
      const rows = (await db('sign_in_failures')
        .where({ kind, subject: subjectOf(value) })
        .where('failed_at', '>', since)
        .orderBy('failed_at', 'desc')
        .limit(limit)
        .select('failed_at')) as Array<{ failed_at: string }>;
      return rows.map((r) => r.failed_at);
    },

    async record(failures: Array<{ kind: FailureKind; value: string }>, failedAt: string): Promise<void> {
      await db('sign_in_failures').insert(failures.map((f) => ({ kind: f.kind, subject: subjectOf(f.value), failed_at: failedAt })));
    },

    async any(kind: FailureKind, value: string): Promise<boolean> {
      return Boolean(await db('sign_in_failures').where({ kind, subject: subjectOf(value) }).first('id'));
    },

    async clear(kind: FailureKind, value: string): Promise<void> {
      await db('sign_in_failures').where({ kind, subject: subjectOf(value) }).del();
    },

    /** Removes up to PRUNE_BATCH failures from before `before`; how many it removed. */
    async pruneBefore(before: string): Promise<number> {
      const expired = db('sign_in_failures').select('id').where('failed_at', '<', before).orderBy('failed_at').limit(PRUNE_BATCH);
      return db('sign_in_failures').whereIn('id', expired).del();
    },
  };
}

export type SignInFailuresRepo = ReturnType<typeof signInFailuresRepo>;
