// The SQL of polling the provider: store orders at the provider with no news lately, and the time
// each was last asked about (store_orders.provider_checked_at, written only here).
import type { Knex } from 'knex';
import type { Db } from '../../db';
import { countOf, fromJson } from '../../db';

export interface QuietOrder {
  id: number;
  siteId: number;
  storeOrderId: string;
  status: string;
  ours: Record<string, unknown>;
}

export function providerChecksRepo(db: Db | Knex.Transaction) {
  /** Orders in `status` since before `before` by the time kept in `column` (else their last change). */
  async function waitingSince(status: string, column: 'sent_to_provider_at' | 'printed_by_provider_at', siteId: number | undefined, before: string, limit: number): Promise<{ rows: Array<{ siteId: number; storeOrderId: string; name: string | null; since: string }>; total: number }> {
    const since = `coalesce(${column}, updated_at)`;
    const q = db('store_orders').where('status', status).where(db.raw(since), '<', before);
    if (siteId !== undefined) q.where('site_id', siteId);
    const [rows, total] = await Promise.all([q.clone().orderByRaw(since).orderBy('id').limit(limit).select('site_id', 'store_order_id', 'order_name', db.raw(`${since} as since`)), countOf(q)]);
    return { rows: rows.map((r) => ({ siteId: Number(r.site_id), storeOrderId: String(r.store_order_id), name: r.order_name ?? null, since: String(r.since) })), total };
  }

  /** The earliest time kept in `column` (else the last change) at or after `from` of orders in `status`: when the next one starts waiting too long. */
  async function firstWaitingFrom(status: string, column: 'sent_to_provider_at' | 'printed_by_provider_at', siteId: number | undefined, from: string): Promise<string | null> {
    const since = `coalesce(${column}, updated_at)`;
    const q = db('store_orders').where('status', status).where(db.raw(since), '>=', from);
    if (siteId !== undefined) q.where('site_id', siteId);
    const row = await q.min({ at: db.raw(since) }).first();
    return row?.at ? String(row.at) : null;
  }

  return {
    /** The sites that have orders in `statuses` (each site has its own quiet period). */
    async sitesWith(statuses: readonly string[]): Promise<number[]> {
      const rows = await db('store_orders').whereIn('status', statuses as string[]).distinct('site_id');
      return rows.map((r) => Number(r.site_id)).sort((a, b) => a - b);
    },
    /** A site's orders in `statuses` unchanged since `before` and not asked about since then, least recently asked first. */
    async quietOrders(siteId: number, statuses: readonly string[], before: string, limit: number): Promise<QuietOrder[]> {
      const rows = await db('store_orders')
        .where('site_id', siteId)
        .whereIn('status', statuses as string[])
        .where('updated_at', '<', before)
        .where((q) => q.whereNull('provider_checked_at').orWhere('provider_checked_at', '<', before))
        .orderByRaw('coalesce(provider_checked_at, updated_at) asc')
        .orderBy('id', 'asc')
        .limit(limit)
        .select('id', 'site_id', 'store_order_id', 'status', 'our_data');
      return rows.map((r) => ({ id: Number(r.id), siteId: Number(r.site_id), storeOrderId: String(r.store_order_id), status: String(r.status), ours: fromJson<Record<string, unknown>>(r.our_data, {}) }));
    },
    /**
     * Needs attention: store orders in `sent` whose send went to the provider before `before` (of a
     * site, or all), longest waiting first, at most `limit`, and how many. An order with no send
     * time kept (its status set by hand) counts from its last change.
     */
    sentBefore: (siteId: number | undefined, before: string, limit: number) => waitingSince('sent', 'sent_to_provider_at', siteId, before, limit),
    /**
     * Needs attention: store orders in `printed` whose printing the provider told us of before
     * `before` (of a site, or all), longest waiting first, at most `limit`, and how many. An order
     * with no such time kept (its status set by hand) counts from its last change.
     */
    printedBefore: (siteId: number | undefined, before: string, limit: number) => waitingSince('printed', 'printed_by_provider_at', siteId, before, limit),
    /** Needs attention: the first send at or after `from` (of a site, or all) still in `sent`, or null. */
    firstSentFrom: (siteId: number | undefined, from: string) => firstWaitingFrom('sent', 'sent_to_provider_at', siteId, from),
    /** Needs attention: the first provider printing at or after `from` (of a site, or all) still in `printed`, or null. */
    firstPrintedFrom: (siteId: number | undefined, from: string) => firstWaitingFrom('printed', 'printed_by_provider_at', siteId, from),
    async markChecked(id: number, at: string): Promise<void> {
      await db('store_orders').where({ id }).update({ provider_checked_at: at });
    },
  };
}
