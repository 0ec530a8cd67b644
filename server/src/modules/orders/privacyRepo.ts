// The SQL of Shopify's privacy requests (table store_privacy_requests, written only here): each
// request received, what it was about, what was done, and the orders still waiting to be redacted.
import type { Knex } from 'knex';
import { fromJson, isPostgres, toJson, type Db } from '../../db';
import type { PrivacySubject, PrivacyTopic } from './privacy';

export type PrivacyStatus = 'listed' | 'redacted' | 'waiting';

export interface PrivacyRecord {
  id: number;
  siteId: number;
  topic: PrivacyTopic;
  deliveryId: number | null;
  shopDomain: string | null;
  customerId: string | null;
  /** Whom to find; null once the request is done. */
  subject: PrivacySubject | null;
  orderIds: string[];
  report: unknown;
  status: PrivacyStatus;
  waitingOrderIds: string[];
  receivedAt: string;
  doneAt: string | null;
}

interface Row {
  id: number;
  site_id: number;
  topic: string;
  delivery_id: number | null;
  shop_domain: string | null;
  customer_id: string | null;
  subject: unknown;
  order_ids: unknown;
  report: unknown;
  status: string;
  waiting_order_ids: unknown;
  received_at: string;
  done_at: string | null;
}

const fromRow = (r: Row): PrivacyRecord => ({
  id: Number(r.id),
  siteId: Number(r.site_id),
  topic: r.topic as PrivacyTopic,
  deliveryId: r.delivery_id === null || r.delivery_id === undefined ? null : Number(r.delivery_id),
  shopDomain: r.shop_domain,
  customerId: r.customer_id,
  subject: fromJson<PrivacySubject | null>(r.subject, null),
  orderIds: fromJson<string[]>(r.order_ids, []),
  report: fromJson<unknown>(r.report, null),
  status: r.status as PrivacyStatus,
  waitingOrderIds: fromJson<string[]>(r.waiting_order_ids, []),
  receivedAt: r.received_at,
  doneAt: r.done_at,
});

export function privacyRepo(db: Db | Knex.Transaction) {
  return {
    async insert(r: Omit<PrivacyRecord, 'id'>): Promise<number> {
      const [row] = await db('store_privacy_requests')
        .insert({
          site_id: r.siteId,
          topic: r.topic,
          delivery_id: r.deliveryId,
          shop_domain: r.shopDomain?.slice(0, 255) ?? null,
          customer_id: r.customerId?.slice(0, 64) ?? null,
          subject: toJson(r.subject),
          order_ids: toJson(r.orderIds),
          report: toJson(r.report),
          status: r.status,
          waiting_order_ids: toJson(r.waitingOrderIds),
          received_at: r.receivedAt,
          done_at: r.doneAt,
        })
        .returning('id');
      return Number(typeof row === 'object' ? (row as { id: number }).id : row);
    },

    /** A site's requests, newest first. */
    async ofSite(siteId: number, limit: number): Promise<PrivacyRecord[]> {
      return ((await db<Row>('store_privacy_requests').where({ site_id: siteId }).orderBy('id', 'desc').limit(limit)) as Row[]).map(fromRow);
    },

    /** Redactions with orders still in production, oldest first. */
    async waiting(limit: number): Promise<PrivacyRecord[]> {
      return ((await db<Row>('store_privacy_requests').where({ status: 'waiting' }).orderBy('id').limit(limit)) as Row[]).map(fromRow);
    },

    /** The request as it is now, locked until the transaction ends (PostgreSQL: two instances' sweeps take turns). */
    async lock(id: number): Promise<PrivacyRecord | undefined> {
      const q = db<Row>('store_privacy_requests').where({ id });
      if (isPostgres(db as Db)) q.forUpdate();
      const r = (await q.first()) as Row | undefined;
      return r ? fromRow(r) : undefined;
    },

    async update(id: number, p: { status: PrivacyStatus; waitingOrderIds: string[]; subject: PrivacySubject | null; doneAt: string | null }): Promise<void> {
      await db('store_privacy_requests').where({ id }).update({ status: p.status, waiting_order_ids: toJson(p.waitingOrderIds), subject: toJson(p.subject), done_at: p.doneAt });
    },

    /** Earlier requests of the same customer of a site (a data request's list holds the values a redaction removes). */
    async ofCustomer(siteId: number, customerId: string | null, emails: string[]): Promise<PrivacyRecord[]> {
      const rows = (await db<Row>('store_privacy_requests').where({ site_id: siteId }).orderBy('id')) as Row[];
      return rows.map(fromRow).filter((r) => (customerId && r.customerId === customerId) || (r.subject?.emails ?? []).some((e) => emails.includes(e)));
    },

    async rewrite(id: number, p: { report: unknown; subject: PrivacySubject | null }): Promise<void> {
      await db('store_privacy_requests').where({ id }).update({ report: toJson(p.report), subject: toJson(p.subject) });
    },
  };
}
