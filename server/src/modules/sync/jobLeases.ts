// The sync's reads of job_leases beyond what lib/leases offers: the scheduled runs left behind.
import type { Db } from '../../db';

/** Names of the sync job leases still marked running whose lease ran out before `now` (all, or only `names`). */
export async function expiredRunningJobLeases(db: Db, now: string, names?: string[]): Promise<string[]> {
  const q = db('job_leases').where('name', 'like', 'sync:%').where('last_status', 'running').where('lease_until', '<', now).select('name');
  if (names) q.whereIn('name', names);
  const rows = (await q) as Array<{ name: string }>;
  return rows.map((r) => r.name);
}
