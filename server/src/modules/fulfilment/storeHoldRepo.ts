// SQL of the store hold (storeHold.ts): its outbox rows (kind store-hold: one hold and one release
// per order, and a renote each time the reason changes while it is held) and the one notice per site
// that its store does not let us hold orders.
import { createHash } from 'node:crypto';
import type { Knex } from 'knex';
import type { Db } from '../../db';
import { insertOnce, outboxFromRow, outboxRepo, type HpOrderPayload, type OutboxRow } from './outbox';

export const STORE_HOLD_KIND = 'store-hold';
/** One row per site, failed while its store refuses holds (Needs attention shows it), sent once a hold works. */
export const STORE_HOLD_NOTICE_KIND = 'store-hold-notice';

export interface StoreHoldPayload extends HpOrderPayload {
  /** renote: the order is held already and the reason changed (a longer window): the store's hold says the new one. */
  action: 'hold' | 'release' | 'renote';
  /** The hold's reasonNotes: why the order waits. */
  note: string | null;
}

// A renote is one row per note (its digest: the key's column is short): each new reason is sent once.
const keyOf = (siteId: number, orderId: string, action: StoreHoldPayload['action'], note?: string | null) =>
  action === 'renote' ? `store-hold:${siteId}:${orderId}:renote:${note == null ? '' : createHash('sha256').update(note).digest('hex').slice(0, 16)}` : `store-hold:${siteId}:${orderId}:${action}`;
const noticeKey = (siteId: number) => `store-hold-notice:${siteId}`;

export function storeHoldRepo(db: Db | Knex.Transaction) {
  return {
    /** Queues the order's hold or release once (a repeat keeps the first row). */
    async enqueue(payload: StoreHoldPayload, at: string): Promise<void> {
      await insertOnce(db, { kind: STORE_HOLD_KIND, dedupeKey: keyOf(payload.siteId, payload.orderId, payload.action, payload.note), siteId: payload.siteId, payload, at });
    },
    /** The order's hold or release row, if queued. */
    async rowOf(siteId: number, orderId: string, action: 'hold' | 'release'): Promise<OutboxRow | undefined> {
      const r = await db('outbox').where({ dedupe_key: keyOf(siteId, orderId, action) }).first();
      return r ? outboxFromRow(r) : undefined;
    },
    /** Whether a renote of the order is still on its way (a release waits for it, as it waits for the hold). */
    async renotePending(siteId: number, orderId: string): Promise<boolean> {
      const r = await db('outbox').where({ kind: STORE_HOLD_KIND, status: 'pending' }).whereLike('dedupe_key', `${keyOf(siteId, orderId, 'renote')}%`).first('id');
      return Boolean(r);
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
