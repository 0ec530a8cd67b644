// Whether the database may have changed since a moment: what a read-through cache (Needs attention)
// checks before answering from memory. A mark is this process's count of finished writes, and what
// says another writer committed: on PostgreSQL the WAL insert position (any instance's commit moves
// it), on SQLite `PRAGMA data_version` (another connection's commit, such as a restore tool).
// A write counts once it has finished (and a transaction's at its COMMIT), so a reader that takes a
// mark and then reads never files old rows under a newer mark. Any doubt counts as a change: a
// needless recomputation costs time, a missed one would show a stale answer.
import type { Db } from '../db';
import { isPostgres } from '../db';

/**
 * Tables whose writes change nothing a cache of the floor reads: sign-in bookkeeping, idempotency
 * replies, scheduler leases, upload grants. Their writes happen on almost every request.
 */
const UNREAD_TABLES = new Set(['idempotency_keys', 'job_leases', 'revoked_tokens', 'sign_in_failures', 'uploads', 'store_install_states', 're_connect_states', 'store_app_tokens']);

const READ_ONLY = /^\s*(select|pragma|explain|begin|savepoint|set|show)\b/i;
const TARGET = /^\s*(?:insert(?:\s+or\s+\w+)?\s+into|update|delete\s+from)\s+[`"]?(\w+)/i;

/** Whether a statement, once finished, may have changed rows a cache reads. */
export function changesRows(sql: string): boolean {
  if (READ_ONLY.test(sql)) return false;
  const target = TARGET.exec(sql)?.[1];
  return !(target && UNREAD_TABLES.has(target.toLowerCase()));
}

interface Watch {
  writes: number;
}
const watches = new WeakMap<Db, Watch>();

function watchOf(db: Db): Watch {
  let w = watches.get(db);
  if (!w) {
    const watch: Watch = { writes: 0 };
    const finished = (_response: unknown, query: { sql?: string }) => {
      if (typeof query?.sql === 'string' && changesRows(query.sql)) watch.writes++;
    };
    db.on('query-response', finished);
    // A failed statement may still have been part of a write that commits: count it too.
    db.on('query-error', (_err: unknown, query: { sql?: string }) => finished(undefined, query));
    watches.set(db, watch);
    w = watch;
  }
  return w;
}

/** Starts counting a database's writes (idempotent); done before the first mark is taken. */
export function watchChanges(db: Db): void {
  watchOf(db);
}

/** The database's change mark now: equal marks mean no write finished in between. */
export async function changeMark(db: Db): Promise<string> {
  const local = watchOf(db).writes;
  if (isPostgres(db)) {
    const r = await db.raw('select pg_current_wal_insert_lsn()::text as at');
    return `${local}@${(r.rows as Array<{ at: string }>)[0].at}`;
  }
  const v = (await db.raw('pragma data_version')) as Array<{ data_version: number }>;
  return `${local}@${v[0]?.data_version}`;
}
