// How far a long request has come (a batch's sheets), for the same user to read from another
// request while it runs: the client names the work with a key of its own (`?progress=<key>`) and
// asks for it by that key. Kept in this instance's memory for a short while: a poll that reaches
// another instance (several behind a load balancer without sticky sessions) hears "not known here"
// and the screen shows that the work goes on without a count.
import { z } from 'zod';

/** A key the client makes up for one piece of work (a random id). */
export const progressKey = z.string().regex(/^[A-Za-z0-9_-]{8,64}$/, 'must be 8 to 64 letters, digits, - or _');

/** Work kept this long after it finished, for the last poll to see it done. */
const KEEP_MS = 2 * 60_000;
/** The most pieces of work kept at once (the oldest go first). */
const MAX_ENTRIES = 1000;

export function progressBoard<P extends object>() {
  const entries = new Map<string, { progress: P; finishedAt: number | null }>();
  const id = (userId: number, key: string) => `${userId}:${key}`;
  const prune = (now: number) => {
    for (const [k, e] of entries) if (e.finishedAt !== null && now - e.finishedAt > KEEP_MS) entries.delete(k);
    while (entries.size > MAX_ENTRIES) entries.delete(entries.keys().next().value!);
  };
  return {
    /** The work `key` of this user is at `progress` now. */
    report(userId: number, key: string, progress: P): void {
      const k = id(userId, key);
      entries.delete(k);
      entries.set(k, { progress, finishedAt: null });
      prune(Date.now());
    },
    /** The work is over (done or failed): kept a while for a last read. */
    finish(userId: number, key: string): void {
      const e = entries.get(id(userId, key));
      if (e) e.finishedAt = Date.now();
    },
    /** The work's last progress, and whether it is over; null when not known here. */
    read(userId: number, key: string): { progress: P; finished: boolean } | null {
      prune(Date.now());
      const e = entries.get(id(userId, key));
      return e ? { progress: e.progress, finished: e.finishedAt !== null } : null;
    },
  };
}

export type ProgressBoard<P extends object> = ReturnType<typeof progressBoard<P>>;
