// SQL of the store fulfilment write-back (storeFulfilment.ts): its outbox rows (kind
// store-fulfilment, one per order and shipment).
import crypto from 'node:crypto';
import type { Knex } from 'knex';
import type { Db } from '../../db';
import { fromJson, toJson } from '../../db';
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

/** A line of a shipment, for the reports. */
export interface ShippedLine {
  siteId: number;
  orderId: string;
  lineId: string;
  shippedAt: string;
  /** When its order was placed at the store; null when the order is gone. */
  orderCreatedAt: string | null;
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
    /**
     * The lines shipped in [fromAt, toAt) (of one site, or every site), each with when it shipped
     * (its shipment was queued) and when its order was placed: the reports' order-to-ship time.
     */
    async shippedLinesIn(range: { fromAt: string; toAt: string; siteId?: number }): Promise<ShippedLine[]> {
      const q = db('outbox').where({ kind: STORE_FULFILMENT_KIND }).where('created_at', '>=', range.fromAt).where('created_at', '<', range.toAt).select('site_id', 'payload', 'created_at');
      if (range.siteId !== undefined) q.where('site_id', range.siteId);
      const shipments = ((await q) as Array<{ site_id: number; payload: unknown; created_at: string }>).map((r) => ({
        siteId: Number(r.site_id),
        shippedAt: r.created_at,
        payload: fromJson<Partial<StoreFulfilmentPayload>>(r.payload, {}),
      }));
      const placed = new Map<string, string>();
      const orderIds = [...new Set(shipments.map((s) => String(s.payload.orderId ?? '')).filter(Boolean))];
      for (let i = 0; i < orderIds.length; i += 500) {
        const orders = await db('store_orders').whereIn('store_order_id', orderIds.slice(i, i + 500)).select('site_id', 'store_order_id', 'created_at');
        for (const o of orders as Array<{ site_id: number; store_order_id: string; created_at: string }>) placed.set(`${o.site_id}:${o.store_order_id}`, o.created_at);
      }
      return shipments.flatMap((s) =>
        (s.payload.lineIds ?? []).map((lineId) => ({
          siteId: s.siteId,
          orderId: String(s.payload.orderId ?? ''),
          lineId: String(lineId),
          shippedAt: s.shippedAt,
          orderCreatedAt: placed.get(`${s.siteId}:${String(s.payload.orderId ?? '')}`) ?? null,
        })),
      );
    },
    /** A failed write-back asked for again (an operator): pending, attempts reset, due now. */
    retryFailed: (id: number, at: string): Promise<boolean> => outboxRepo(db).retryFailedOf(STORE_FULFILMENT_KIND, id, at),
  };
}
