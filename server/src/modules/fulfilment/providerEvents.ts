// The provider-event screens: Data from HP (/api/hp-data list and per-order detail) and the admin
// REST hp-logs resource (provider events, or the sends with filter.type = shopify-hp-log).
import type { Page } from '../../http/envelope';
import { notFound } from '../../http/errors';
import type { Actor } from '../../http/types';
import { pageWindow } from '../../lib/paging';
import { isAdmin } from '../auth';
import { siteScope, visibleTo } from '../auth';
import { type DataRecord, type RecordFilter, type RecordSortField, findRecord, listRecords } from '../general-data';
import { printJobsOfOrder } from '../print-jobs';
import { HP_LOG, SEND_LOG, text, type FulfilmentContext } from './context';
import { orderStates } from '../orders';
import { findOrder } from './resolveOrder';
import { storeFulfilmentsOf } from './storeFulfilment';

export interface EventsQuery {
  page?: number;
  pageSize?: number;
  siteId?: number;
  orderId?: string;
  status?: string;
}

export async function listEvents(ctx: Pick<FulfilmentContext, 'db'>, actor: Actor, q: EventsQuery): Promise<Page<DataRecord>> {
  const w = pageWindow(q.page, q.pageSize);
  const filter: RecordFilter = { type: HP_LOG, siteId: siteScope(actor, q.siteId), field1: q.orderId, status: q.status };
  const { rows, total } = await listRecords(ctx.db, filter, { field: 'createdAt', order: 'desc' }, w.limit, w.offset);
  // Postbacks of a manual send name an order the store never had: the screen opens the send instead.
  const known = new Set<string>();
  const bySite = new Map<number, string[]>();
  for (const r of rows) if (r.field1) bySite.set(Number(r.siteId), [...(bySite.get(Number(r.siteId)) ?? []), r.field1]);
  for (const [siteId, ids] of bySite) for (const id of (await orderStates(ctx.db, siteId, ids)).keys()) known.add(`${siteId}:${id}`);
  const list = rows.map((r) => ({ ...r, hasStoreOrder: r.field1 !== null && known.has(`${r.siteId}:${r.field1}`) }));
  return { list, hasNext: w.offset + rows.length < total, total };
}

/** One order as the provider sees it: its lines (design, job, where each is made), events and sends. */
export async function orderDetail(ctx: Pick<FulfilmentContext, 'db' | 'production'>, actor: Actor, orderId: string, siteId?: number) {
  const { db, production } = ctx;
  const scope = siteScope(actor, siteId, 'Order not found');
  const order = await findOrder(db, orderId, scope);
  const site = order?.siteId ?? scope;
  const all = async (type: string) => (await listRecords(db, { type, field1: orderId, siteId: site }, { field: 'createdAt', order: 'desc' }, 500, 0)).rows;
  const [events, sent] = await Promise.all([all(HP_LOG), all(SEND_LOG)]);
  if (!order && !events.length && !sent.length) throw notFound('Order not found');
  const preGenerated = Array.isArray(order?.data.preGeneratedHPItems) ? order!.data.preGeneratedHPItems : [];
  const jobs = order ? await printJobsOfOrder(db, order.siteId, orderId) : [];
  const lines = await Promise.all(
    (order?.data.line_items ?? []).map(async (l) => {
      const lineId = text(l.id);
      const job = jobs.find((j) => j.lineItemId === lineId);
      const design = order ? ((await production.designForLine(order.siteId, l)).design ?? undefined) : undefined;
      return {
        lineId,
        sku: l.sku ?? null,
        quantity: l.quantity ?? null,
        productName: text(l.name) || text(l.title) || job?.productName || design?.name || '',
        productId: l.product_id === undefined || l.product_id === null ? (job?.productId ?? null) : text(l.product_id),
        previewUrl: job?.previewUrl ?? design?.image ?? null,
        pdfUrl: preGenerated.find((p) => p.lineId === lineId)?.path ?? null,
        printJobId: job?.id ?? null,
        // Where the line is made: the provider, the Jobs queue, or not decided yet (no job).
        madeBy: job?.madeBy ?? null,
        // Preflight of the line's job: a chip on the order's line (held: it waits for Approve anyway).
        held: job?.held ?? false,
        preflight: job?.preflight ?? [],
        hpSKU: design?.hpSKU ?? null,
      };
    }),
  );
  // What went back to the store: the tracking of each shipment, pending, sent or failed (with why).
  const storeFulfilments = order ? await storeFulfilmentsOf(db, order.siteId, orderId) : [];
  return { order: order ?? null, lines, events, sent, storeFulfilments };
}

/** /api/admin/hp-logs: the provider events (hp-log; `filter.type` = shopify-hp-log lists the sends). */
export async function adminLogs(ctx: Pick<FulfilmentContext, 'db'>, actor: Actor, filter: RecordFilter, sort: { field: RecordSortField; order: 'asc' | 'desc' }, limit: number, offset: number) {
  const type = filter.type === SEND_LOG ? SEND_LOG : HP_LOG;
  // The admin REST filter is the screen's: a user's list is their site's whatever it names.
  return listRecords(ctx.db, { ...filter, type, siteId: isAdmin(actor) ? filter.siteId : actor.siteId }, sort, limit, offset);
}

export async function adminLog(ctx: Pick<FulfilmentContext, 'db'>, actor: Actor, id: number) {
  const r = await findRecord(ctx.db, id);
  return visibleTo(actor, r && (r.type === HP_LOG || r.type === SEND_LOG) ? r : undefined, 'Record not found');
}
