// SQL of the store fulfilment write-back (storeFulfilment.ts): its outbox rows (kind
// store-fulfilment, one per order and shipment).
import crypto from 'node:crypto';
import type { Knex } from 'knex';
import type { Db } from '../../db';
import { toJson } from '../../db';
import { insertOnce, outboxFromRow, outboxRepo, type HpOrderPayload, type OutboxRow } from './outbox';

export const STORE_FULFILMENT_KIND = 'store-fulfilment';

/** What goes back to the store: the tracking of some lines of an order. */
export interface ShipmentTracking {
  number: string;
  url: string | null;
  company: string | null;
}

export interface StoreFulfilmentPayload extends HpOrderPayload {
  /** The store line item ids shipped (REST ids). */
  lineIds: string[];
  tracking: ShipmentTracking;
  /** Who shipped: the provider's postback, or an operator (printed in house). */
  source: 'provider' | 'in-house';
}

const prefixOf = (siteId: number, orderId: string) => `store-fulfilment:${siteId}:${orderId}:`;

/** One key per (order, shipment): the same lines with the same tracking number are one shipment. */
export function storeFulfilmentDedupeKey(siteId: number, orderId: string, lineIds: string[], trackingNumber: string): string {
  const shipment = crypto.createHash('sha256').update(JSON.stringify([[...lineIds].sort(), trackingNumber])).digest('hex').slice(0, 24);
  return `${prefixOf(siteId, orderId)}${shipment}`;
}

export function storeFulfilmentRepo(db: Db | Knex.Transaction) {
  return {
    /** Queues the shipment once (a repeat keeps the first row); answers the row. */
    async enqueue(payload: StoreFulfilmentPayload, at: string): Promise<OutboxRow> {
      const dedupeKey = storeFulfilmentDedupeKey(payload.siteId, payload.orderId, payload.lineIds, payload.tracking.number);
      await insertOnce(db, { kind: STORE_FULFILMENT_KIND, dedupeKey, siteId: payload.siteId, payload, at });
      return outboxFromRow((await db('outbox').where({ dedupe_key: dedupeKey }).first())!);
    },
    /** The write-backs of an order, oldest first (dedupe keys store-fulfilment:<site>:<order>:…, a key range). */
    ofOrder: (siteId: number, orderId: string): Promise<OutboxRow[]> => outboxRepo(db).withKeyPrefix(STORE_FULFILMENT_KIND, siteId, prefixOf(siteId, orderId)),
    /**
     * Notes on a row we hold (under its lease) that the create call is about to go out, so a retry
     * after a lost answer knows the store may have it from us.
     */
    async noteCreateSent(id: number, result: unknown, at: string): Promise<void> {
      await db('outbox').where({ id, status: 'pending' }).update({ result: toJson(result), updated_at: at });
    },
    /** A failed write-back asked for again (an operator): pending, attempts reset, due now. */
    retryFailed: (id: number, at: string): Promise<boolean> => outboxRepo(db).retryFailedOf(STORE_FULFILMENT_KIND, id, at),
  };
}
