// SQL of the provider cancellation (cancel.ts): its outbox rows (kind hp-cancel), and the stopping
// of an order's sends that have not gone out yet.
import type { Knex } from 'knex';
import type { Db } from '../../db';
import { insertOnce } from './outbox';

export const HP_CANCEL_KIND = 'hp-cancel';

export const cancelDedupeKey = (siteId: number, orderId: string) => `hp-cancel:${siteId}:${orderId}`;

export function cancelRepo(db: Db | Knex.Transaction) {
  return {
    /** Queues the order's cancel step once (a second cancellation of the order keeps the first row); answers its id and whether it is new. */
    async enqueue(siteId: number, orderId: string, at: string): Promise<{ id: number; created: boolean }> {
      const dedupeKey = cancelDedupeKey(siteId, orderId);
      const before = (await db('outbox').where({ dedupe_key: dedupeKey }).first('id')) as { id: number } | undefined;
      if (before) return { id: Number(before.id), created: false };
      await insertOnce(db, { kind: HP_CANCEL_KIND, dedupeKey, siteId, payload: { siteId, orderId, lineId: null, actorId: null }, at });
      const row = (await db('outbox').where({ dedupe_key: dedupeKey }).first('id')) as { id: number };
      return { id: Number(row.id), created: true };
    },
    /** A cancel step that failed (HP refused, a setting was missing) is queued again: an operator asked once more. Answers its id, or null when none had failed. */
    async retryFailed(siteId: number, orderId: string, at: string): Promise<number | null> {
      const failed = (await db('outbox').where({ dedupe_key: cancelDedupeKey(siteId, orderId), kind: HP_CANCEL_KIND, status: 'failed' }).first('id')) as { id: number } | undefined;
      if (!failed) return null;
      const n = await db('outbox').where({ id: failed.id, status: 'failed' }).update({ status: 'pending', attempts: 0, next_attempt_at: at, locked_until: null, error: null, updated_at: at });
      return n === 1 ? Number(failed.id) : null;
    },
    /**
     * A provider send that has not gone out and nobody is sending right now: failed with the reason,
     * so it never goes. Answers false when it is no longer so (sent, or being sent).
     */
    async stopSend(id: number, reason: string, at: string): Promise<boolean> {
      const n = await db('outbox')
        .where({ id, status: 'pending' })
        .where((w) => w.whereNull('locked_until').orWhere('locked_until', '<', at))
        .update({ status: 'failed', error: reason, locked_until: null, updated_at: at });
      return n === 1;
    },
  };
}
