// SQL of the store hold (storeHold.ts): its outbox rows (kind store-hold, one hold and one release
// per order) and the one notice per site that its store does not let us hold orders.
import type { Knex } from 'knex';
import type { Db } from '../../db';
import { insertOnce, outboxFromRow, outboxRepo, type HpOrderPayload, type OutboxRow } from './outbox';

export const STORE_HOLD_KIND = 'store-hold';
/** One row per site, failed while its store refuses holds (Needs attention shows it), sent once a hold works. */
export const STORE_HOLD_NOTICE_KIND = 'store-hold-notice';

export interface StoreHoldPayload extends HpOrderPayload {
  action: 'hold' | 'release';
  /** The hold's reasonNotes: why the order waits. */
  note: string | null;
}

const keyOf = (siteId: number, orderId: string, action: StoreHoldPayload['action']) => `store-hold:${siteId}:${orderId}:${action}`;
const noticeKey = (siteId: number) => `store-hold-notice:${siteId}`;

export function storeHoldRepo(db: Db | Knex.Transaction) {
  return {
    /** Queues the order's hold or release once (a repeat keeps the first row). */
    async enqueue(payload: StoreHoldPayload, at: string): Promise<void> {
      await insertOnce(db, { kind: STORE_HOLD_KIND, dedupeKey: keyOf(payload.siteId, payload.orderId, payload.action), siteId: payload.siteId, payload, at });
    },
    /** The order's hold or release row, if queued. */
    async rowOf(siteId: number, orderId: string, action: StoreHoldPayload['action']): Promise<OutboxRow | undefined> {
      const r = await db('outbox').where({ dedupe_key: keyOf(siteId, orderId, action) }).first();
      return r ? outboxFromRow(r) : undefined;
    },
    /** The notice of a store that refuses holds: true when it was raised now (it was not already). */
    async raiseNotice(siteId: number, message: string, at: string): Promise<boolean> {
      const dedupeKey = noticeKey(siteId);
      await insertOnce(db, { kind: STORE_HOLD_NOTICE_KIND, dedupeKey, siteId, payload: { siteId, orderId: '', lineId: null, actorId: null }, at });
      const n = await db('outbox').where({ dedupe_key: dedupeKey }).whereNot({ status: 'failed' }).update({ status: 'failed', error: message, attempts: 1, locked_until: null, updated_at: at });
      return n === 1;
    },
    /** A hold worked: the store lets us hold orders now, the notice goes. */
    async clearNotice(siteId: number, at: string): Promise<void> {
      await db('outbox').where({ dedupe_key: noticeKey(siteId), status: 'failed' }).update({ status: 'sent', error: null, updated_at: at });
    },
    /** Stores that refuse holds, for Needs attention. */
    notices: (siteId: number | undefined, limit: number) => outboxRepo(db).failedOf(STORE_HOLD_NOTICE_KIND, siteId, limit),
  };
}
