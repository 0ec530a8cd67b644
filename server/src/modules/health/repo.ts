// SQL of the readiness check: the database answers a trivial statement.
import type { Db } from '../../db';

export function healthRepo(db: Db) {
  return {
    async ping(): Promise<void> {
      await db.raw('select 1');
    },
  };
}
