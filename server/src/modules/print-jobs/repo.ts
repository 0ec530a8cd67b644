import type { Knex } from 'knex';
import type { Db } from '../../db';
import { countOf, fromJson, isPostgres, toJson } from '../../db';
import type { PrintJobEventKind, PrintJobState } from './state';
import { RECORD_TYPES } from '../records';

// The job's data and where it is made: the same types the admin reads (common/api).
import type { MadeBy, PrintJobData, PrintJobSort } from '../../../../common/api/printProduction';
import type { PreflightApproval, PreflightFinding, PreflightState } from '../../../../common/api/preflight';
import type { Reprint, ReprintReason, ReprintResponsible } from '../../../../common/api/reprints';
export type { MadeBy, PrintJobData } from '../../../../common/api/printProduction';

const MADE_BY_COLUMN: Record<MadeBy, string> = { inHouse: 'in_house', provider: 'provider' };
const madeByOf = (v: string | null | undefined): MadeBy => (v === 'provider' ? 'provider' : 'inHouse');

export interface PrintJob extends PrintJobState, PreflightState {
  id: number;
  productName: string;
  previewUrl: string | null;
  quantity: number;
  createdAt: string;
  updatedAt: string;
  readyForPrint: boolean;
  clientId: number;
  artworkUrls: string[];
  productId: string | null;
  designId: number | null;
  shopifyOrderId: string | null;
  lineItemId: string | null;
  data: PrintJobData;
  madeBy: MadeBy;
  /** Out of the Jobs queue unprinted, and why (production decides: a cancelled order, a removed line). */
  withdrawn: { at: string; reason: string } | null;
  productionNote: { id: number; note: string } | null;
  /** The job's site's name. */
  clientName: string | null;
  /** Its design's product type (Card, Mug, Poster). */
  productType: string | null;
  /** The store order's name and when it was placed; null for a job made from a design by hand. */
  orderName: string | null;
  orderCreatedAt: string | null;
  /** Why it was last sent back to the queue (null: never reprinted, or before reasons were asked). */
  lastReprint: Reprint | null;
  /** The store order's status (shipped, cancelled, …); null without a store order. */
  orderStatus: string | null;
  /** Waiting for stock, and what it is short of; `held` is true meanwhile. */
  stockHold: string | null;
}

interface Row {
  id: number;
  client_id: number;
  design_id: number | null;
  product_name: string;
  preview_url: string | null;
  quantity: number;
  product_id: string | null;
  shopify_order_id: string | null;
  line_item_id: string | null;
  is_printed: boolean | number;
  is_pdf_downloaded: boolean | number;
  is_re_printed: boolean | number;
  ready_for_print: boolean | number;
  artwork_urls: unknown;
  data: unknown;
  downloaded_at: string | null;
  downloaded_by_user_id: number | null;
  printed_at: string | null;
  printed_by_user_id: number | null;
  printed_by_name?: string | null;
  packed_at?: string | null;
  packed_by_user_id?: number | null;
  packed_by_name?: string | null;
  reprint_count: number;
  made_by?: string | null;
  withdrawn_at?: string | null;
  withdrawn_reason?: string | null;
  created_at: string;
  updated_at: string;
  note_id?: number | null;
  note_data?: unknown;
  order_name?: string | null;
  order_created_at?: string | null;
  order_status?: string | null;
  client_name?: string | null;
  product_type?: string | null;
  preflight?: unknown;
  held?: boolean | number | null;
  stock_hold?: string | null;
  preflight_checked_at?: string | null;
  preflight_approved_at?: string | null;
  preflight_approved_by_user_id?: number | null;
  preflight_approved_by_name?: string | null;
  reprint_reason?: string | null;
  reprint_responsible?: string | null;
  reprint_note?: string | null;
  reprint_at?: string | null;
  reprint_by_user_id?: number | null;
  reprint_by_name?: string | null;
  reprint_original_printed_at?: string | null;
  reprint_original_printed_by_name?: string | null;
}

const fromRow = (r: Row): PrintJob => {
  const note = r.note_id ? fromJson<{ note?: unknown }>(r.note_data, {}) : null;
  return {
    id: r.id,
    productName: r.product_name,
    previewUrl: r.preview_url,
    quantity: Number(r.quantity),
    createdAt: r.created_at,
    updatedAt: r.updated_at,
    isPrinted: Boolean(r.is_printed),
    isPDFDownloaded: Boolean(r.is_pdf_downloaded),
    isRePrinted: Boolean(r.is_re_printed),
    readyForPrint: Boolean(r.ready_for_print),
    clientId: r.client_id,
    artworkUrls: fromJson<string[]>(r.artwork_urls, []),
    productId: r.product_id,
    designId: r.design_id,
    shopifyOrderId: r.shopify_order_id,
    lineItemId: r.line_item_id,
    data: fromJson<PrintJobData>(r.data, {}),
    downloadedAt: r.downloaded_at,
    downloadedByUserId: r.downloaded_by_user_id,
    printedAt: r.printed_at,
    printedByUserId: r.printed_by_user_id,
    printedByName: r.printed_by_name ?? null,
    packedAt: r.packed_at ?? null,
    packedByUserId: r.packed_by_user_id ?? null,
    packedByName: r.packed_by_name ?? null,
    reprintCount: Number(r.reprint_count),
    madeBy: madeByOf(r.made_by),
    withdrawn: r.withdrawn_at ? { at: r.withdrawn_at, reason: r.withdrawn_reason ?? '' } : null,
    productionNote: r.note_id && note ? { id: r.note_id, note: typeof note.note === 'string' ? note.note : '' } : null,
    orderName: r.order_name ?? null,
    orderCreatedAt: r.order_created_at ?? null,
    orderStatus: r.order_status ?? null,
    clientName: r.client_name ?? null,
    productType: r.product_type ?? null,
    // Held by preflight or waiting for stock: either keeps it out of the ready queue, batches and sends.
    held: Boolean(r.held) || Boolean(r.stock_hold),
    stockHold: r.stock_hold ?? null,
    preflight: fromJson<PreflightFinding[]>(r.preflight, []),
    preflightApproval: r.preflight_approved_at
      ? { at: r.preflight_approved_at, byUserId: r.preflight_approved_by_user_id ?? null, byName: r.preflight_approved_by_name ?? '' }
      : null,
    preflightCheckedAt: r.preflight_checked_at ?? null,
    lastReprint: r.reprint_at
      ? {
          reason: r.reprint_reason as ReprintReason,
          responsible: r.reprint_responsible as ReprintResponsible,
          note: r.reprint_note ?? null,
          at: r.reprint_at,
          byUserId: r.reprint_by_user_id ?? null,
          byName: r.reprint_by_name ?? null,
          originalPrintedAt: r.reprint_original_printed_at ?? null,
          originalPrintedByName: r.reprint_original_printed_by_name ?? null,
        }
      : null,
  };
};

/** One copy's packing at the bench. */
export interface CopyPacking {
  packedAt: string;
  packedByUserId: number | null;
  packedByName: string | null;
}

export type NewPrintJob = Omit<PrintJob, 'id' | 'productionNote' | 'madeBy' | 'withdrawn' | 'orderName' | 'orderCreatedAt' | 'clientName' | 'productType' | 'preflightApproval' | 'lastReprint' | 'orderStatus' | 'stockHold'> & { madeBy?: MadeBy };

/** What Needs attention reads of a job still owed: enough for its ship-by (ship-by/views.ts) and its row. */
export type OwedJob = Pick<PrintJob, 'id' | 'clientId' | 'productName' | 'createdAt' | 'isPrinted' | 'printedAt' | 'withdrawn' | 'shopifyOrderId' | 'orderName' | 'orderCreatedAt' | 'orderStatus' | 'productType'>;

/** A job held by preflight, as Needs attention lists it. */
export interface HeldJob {
  id: number;
  clientId: number;
  productName: string;
  heldSince: string;
  shopifyOrderId: string | null;
  orderName: string | null;
  /** Waiting for stock (what it is short of) rather than held by preflight. */
  stockHold: string | null;
}

/** One reprint as it is written, with the job's site and the print it replaces. */
export interface NewReprint extends Reprint {
  jobId: number;
  siteId: number;
  originalPrintedByUserId: number | null;
}

/** A job's findings and hold as a check leaves them (an approval is cleared by every check). */
export interface PreflightResult {
  preflight: PreflightFinding[];
  held: boolean;
  checkedAt: string;
}

const toRow = (j: NewPrintJob) => ({
  client_id: j.clientId,
  design_id: j.designId,
  product_name: j.productName,
  preview_url: j.previewUrl,
  quantity: j.quantity,
  product_id: j.productId,
  shopify_order_id: j.shopifyOrderId,
  line_item_id: j.lineItemId,
  is_printed: j.isPrinted,
  is_pdf_downloaded: j.isPDFDownloaded,
  is_re_printed: j.isRePrinted,
  ready_for_print: j.readyForPrint,
  artwork_urls: toJson(j.artworkUrls),
  data: toJson(j.data),
  downloaded_at: j.downloadedAt,
  downloaded_by_user_id: j.downloadedByUserId,
  printed_at: j.printedAt,
  printed_by_user_id: j.printedByUserId,
  printed_by_name: j.printedByName,
  packed_at: j.packedAt,
  packed_by_user_id: j.packedByUserId,
  packed_by_name: j.packedByName,
  reprint_count: j.reprintCount,
  made_by: MADE_BY_COLUMN[j.madeBy ?? 'inHouse'],
  preflight: j.preflightCheckedAt ? toJson(j.preflight) : null,
  held: j.held ?? false,
  preflight_checked_at: j.preflightCheckedAt ?? null,
  created_at: j.createdAt,
  updated_at: j.updatedAt,
});

export interface PrintJobFilter {
  ids?: number[];
  clientId?: number;
  isPrinted?: boolean;
  readyForPrint?: boolean;
  isPDFDownloaded?: boolean;
  designId?: number;
  shopifyOrderId?: string;
  madeBy?: MadeBy;
  /** false: only jobs still in play (not withdrawn). */
  withdrawn?: boolean;
  q?: string;
  /** Its design's product type. */
  productType?: string;
  /** true: held by preflight (an error, no approval) or waiting for stock; false: neither. */
  held?: boolean;
  /** true: waiting for stock. */
  stockHeld?: boolean;
}

export type PrintJobSortField = 'id' | 'createdAt' | 'updatedAt' | 'printedAt' | 'productName' | 'quantity' | 'clientId' | 'reprintCount' | PrintJobSort;
const COLUMN: Record<PrintJobSortField, string> = {
  id: 'j.id',
  createdAt: 'j.created_at',
  updatedAt: 'j.updated_at',
  printedAt: 'j.printed_at',
  productName: 'j.product_name',
  quantity: 'j.quantity',
  clientId: 'j.client_id',
  reprintCount: 'j.reprint_count',
  orderCreatedAt: 'o.created_at',
  orderName: 'o.order_name',
  productType: 'd.product_type',
  clientName: 's.name',
  printedByName: 'j.printed_by_name',
};
/** Columns that may be empty: empty ones sort last either way, on both engines (knex's "nulls last" is not portable). */
const NULLABLE = new Set<PrintJobSortField>(['printedAt', 'orderCreatedAt', 'orderName', 'productType', 'printedByName']);

export const NOTE_TYPE = RECORD_TYPES.productionNote;

// The job's production note: the newest production-note record whose field1 is the job id, written in
// the job's site or by an admin (a user of another site cannot pin a note on someone else's job).
const NOTE_JOIN = `left join general_data n on n.id = (
  select max(g.id) from general_data g
  where g.type = ? and g.field1 = cast(j.id as text)
    and (g.site_id = j.client_id or exists (select 1 from users u where u.id = g.user_id and u.role = 'admin')))`;

// The job's newest reprint row (the latest reason it is back in the queue).
const LAST_REPRINT_JOIN = 'left join print_job_reprints r on r.id = (select max(x.id) from print_job_reprints x where x.job_id = j.id)';

export function printJobsRepo(db: Db | Knex.Transaction) {
  const filtered = (f: PrintJobFilter) => {
    const q = db('print_jobs as j');
    if (f.ids) q.whereIn('j.id', f.ids);
    if (f.clientId !== undefined) q.where('j.client_id', f.clientId);
    if (f.isPrinted !== undefined) q.where('j.is_printed', f.isPrinted);
    if (f.readyForPrint !== undefined) q.where('j.ready_for_print', f.readyForPrint);
    if (f.held === true) q.where((w) => w.where('j.held', true).orWhereNotNull('j.stock_hold'));
    if (f.held === false) q.where('j.held', false).whereNull('j.stock_hold');
    if (f.stockHeld !== undefined) q.where((w) => (f.stockHeld ? w.whereNotNull('j.stock_hold') : w.whereNull('j.stock_hold')));
    if (f.isPDFDownloaded !== undefined) q.where('j.is_pdf_downloaded', f.isPDFDownloaded);
    if (f.designId !== undefined) q.where('j.design_id', f.designId);
    if (f.shopifyOrderId !== undefined) q.where('j.shopify_order_id', f.shopifyOrderId);
    if (f.madeBy !== undefined) q.where('j.made_by', MADE_BY_COLUMN[f.madeBy]);
    if (f.withdrawn !== undefined) q.where((w) => (f.withdrawn ? w.whereNotNull('j.withdrawn_at') : w.whereNull('j.withdrawn_at')));
    if (f.q) q.whereRaw('lower(j.product_name) like ?', [`%${f.q.toLowerCase()}%`]);
    if (f.productType !== undefined) q.whereIn('j.design_id', db('designs').select('id').where('product_type', f.productType));
    return q;
  };
  /** Jobs with their production note, last reprint and their store order's name and placing time, in one query. */
  const withNotes = (q: Knex.QueryBuilder) =>
    q
      .clone()
      .joinRaw(NOTE_JOIN, [NOTE_TYPE])
      .joinRaw(LAST_REPRINT_JOIN)
      // The site's own order (the unique site + store order id): a job never shows another site's order.
      .leftJoin('store_orders as o', (on) => on.on('o.site_id', '=', 'j.client_id').andOn('o.store_order_id', '=', 'j.shopify_order_id'))
      .leftJoin('sites as s', 's.id', 'j.client_id')
      .leftJoin('designs as d', 'd.id', 'j.design_id')
      .select(
        'j.*',
        'n.id as note_id',
        'n.data as note_data',
        'o.order_name as order_name',
        'o.created_at as order_created_at',
        'o.status as order_status',
        's.name as client_name',
        'd.product_type as product_type',
        'r.reason as reprint_reason',
        'r.responsible as reprint_responsible',
        'r.note as reprint_note',
        'r.at as reprint_at',
        'r.by_user_id as reprint_by_user_id',
        'r.by_name as reprint_by_name',
        'r.original_printed_at as reprint_original_printed_at',
        'r.original_printed_by_name as reprint_original_printed_by_name',
      );

  return {
    async byId(id: number) {
      const r = (await withNotes(filtered({ ids: [id] })).first()) as Row | undefined;
      return r ? fromRow(r) : undefined;
    },
    async list(f: PrintJobFilter, sort: Array<{ field: PrintJobSortField; order: 'asc' | 'desc' }>, limit: number, offset: number) {
      const q = filtered(f);
      const page = withNotes(q);
      for (const s of sort) {
        if (NULLABLE.has(s.field)) page.orderByRaw(`(${COLUMN[s.field]} is null) asc`);
        page.orderBy(COLUMN[s.field], s.order);
      }
      const [rows, total] = await Promise.all([page.limit(limit).offset(offset), countOf(q)]);
      return { rows: (rows as Row[]).map(fromRow), total };
    },
    async insert(j: NewPrintJob): Promise<number> {
      const [r] = await db('print_jobs').insert(toRow(j)).returning('id');
      return typeof r === 'object' ? r.id : r;
    },
    /** Writes a new state only if the job is still in the state it was read in (two operators, one print; two packers, one packing). */
    async changeState(id: number, from: PrintJobState, to: PrintJobState, now: string): Promise<boolean> {
      const n = await db('print_jobs')
        .where({ id, is_printed: from.isPrinted, is_pdf_downloaded: from.isPDFDownloaded, is_re_printed: from.isRePrinted, reprint_count: from.reprintCount })
        .where((w) => (from.packedAt === null ? w.whereNull('packed_at') : w.where('packed_at', from.packedAt)))
        .update({
          is_printed: to.isPrinted,
          is_pdf_downloaded: to.isPDFDownloaded,
          is_re_printed: to.isRePrinted,
          reprint_count: to.reprintCount,
          downloaded_at: to.downloadedAt,
          downloaded_by_user_id: to.downloadedByUserId,
          printed_at: to.printedAt,
          printed_by_user_id: to.printedByUserId,
          printed_by_name: to.printedByName,
          packed_at: to.packedAt,
          packed_by_user_id: to.packedByUserId,
          packed_by_name: to.packedByName?.slice(0, 210) ?? null,
          updated_at: now,
        });
      return n === 1;
    },
    /** Holds the job's row until the transaction ends (PostgreSQL; SQLite writes one transaction at a time): two packers of its last copies count each other's. */
    async lock(id: number): Promise<void> {
      if (isPostgres(db as Db)) await db('print_jobs').where({ id }).forUpdate().first('id');
    },
    /** Who packed this copy of the job in this print round, if anyone. */
    async copyPacking(jobId: number, round: number, copy: number): Promise<CopyPacking | undefined> {
      const r = (await db('print_job_copies').where({ job_id: jobId, round, copy }).first('packed_at', 'packed_by_user_id', 'packed_by_name')) as
        | { packed_at: string; packed_by_user_id: number | null; packed_by_name: string | null }
        | undefined;
      return r ? { packedAt: r.packed_at, packedByUserId: r.packed_by_user_id === null ? null : Number(r.packed_by_user_id), packedByName: r.packed_by_name } : undefined;
    },
    /** A copy packed; false when it was packed already (the unique copy of the round). */
    async packCopy(p: { jobId: number; round: number; copy: number; at: string; userId: number | null; name: string | null }): Promise<boolean> {
      const rows = await db('print_job_copies')
        .insert({ job_id: p.jobId, round: p.round, copy: p.copy, packed_at: p.at, packed_by_user_id: p.userId, packed_by_name: p.name?.slice(0, 210) ?? null })
        .onConflict(['job_id', 'round', 'copy'])
        .ignore()
        .returning('id');
      return rows.length === 1;
    },
    /** Copies of each job packed in its current print round (a reprint starts again). */
    async packedCopies(jobIds: number[]): Promise<Map<number, number>> {
      const out = new Map<number, number>();
      if (!jobIds.length) return out;
      const rows = (await db('print_job_copies as c')
        .join('print_jobs as j', (on) => on.on('j.id', '=', 'c.job_id').andOn('j.reprint_count', '=', 'c.round'))
        .whereIn('c.job_id', jobIds)
        .groupBy('c.job_id')
        .select('c.job_id')
        .count({ n: '*' })) as Array<{ job_id: number; n: number | string }>;
      for (const r of rows) out.set(Number(r.job_id), Number(r.n));
      return out;
    },
    /** The ids of the jobs of the filter, in queue order (oldest first). */
    async idsOf(f: PrintJobFilter): Promise<number[]> {
      const rows = (await filtered(f).orderBy('j.created_at', 'asc').orderBy('j.id', 'asc').select('j.id')) as Array<{ id: number }>;
      return rows.map((r) => Number(r.id));
    },
    /** The jobs of one store order of a site, oldest first. */
    async ofOrder(siteId: number, shopifyOrderId: string): Promise<PrintJob[]> {
      const rows = (await withNotes(filtered({ clientId: siteId, shopifyOrderId })).orderBy('j.id', 'asc')) as Row[];
      return rows.map(fromRow);
    },
    /** What the ship-by of an order line reads of its job, for the lines of several orders of a site in one query. */
    async linesOfOrders(siteId: number, orderIds: string[]): Promise<Array<{ shopifyOrderId: string; lineItemId: string; isPrinted: boolean; withdrawn: boolean; productType: string | null }>> {
      if (!orderIds.length) return [];
      const rows = (await db('print_jobs as j')
        .leftJoin('designs as d', 'd.id', 'j.design_id')
        .where('j.client_id', siteId)
        .whereIn('j.shopify_order_id', orderIds)
        .whereNotNull('j.line_item_id')
        .select('j.shopify_order_id', 'j.line_item_id', 'j.is_printed', 'j.withdrawn_at', 'd.product_type')) as Array<{ shopify_order_id: string; line_item_id: string; is_printed: boolean | number; withdrawn_at: string | null; product_type: string | null }>;
      return rows.map((r) => ({ shopifyOrderId: r.shopify_order_id, lineItemId: r.line_item_id, isPrinted: Boolean(r.is_printed), withdrawn: r.withdrawn_at !== null, productType: r.product_type }));
    },
    /** Moves a job between the in-house queue and the provider; false when it was already there. */
    async setMadeBy(id: number, madeBy: MadeBy, now: string): Promise<boolean> {
      const n = await db('print_jobs').where({ id }).whereNot('made_by', MADE_BY_COLUMN[madeBy]).update({ made_by: MADE_BY_COLUMN[madeBy], updated_at: now });
      return n === 1;
    },
    /** Takes a job out of the queue with the reason (null: back in play); false when nothing changed. */
    async setWithdrawn(id: number, withdrawn: { at: string; reason: string } | null, now: string): Promise<boolean> {
      const q = db('print_jobs').where({ id });
      if (withdrawn) q.where((w) => w.whereNull('withdrawn_reason').orWhereNot('withdrawn_reason', withdrawn.reason));
      else q.whereNotNull('withdrawn_at');
      const n = await q.update({ withdrawn_at: withdrawn?.at ?? null, withdrawn_reason: withdrawn?.reason.slice(0, 255) ?? null, updated_at: now });
      return n === 1;
    },
    /**
     * A check's findings (and, for a job drawn again, its new pages): the approval is cleared, so
     * an error found now holds the job until someone approves it again.
     */
    async setPreflight(id: number, result: PreflightResult, redrawn: { artworkUrls: string[]; previewUrl: string | null; data: PrintJobData } | null, now: string): Promise<void> {
      await db('print_jobs')
        .where({ id })
        .update({
          preflight: toJson(result.preflight),
          held: result.held,
          preflight_checked_at: result.checkedAt,
          preflight_approved_at: null,
          preflight_approved_by_user_id: null,
          preflight_approved_by_name: null,
          ...(redrawn ? { artwork_urls: toJson(redrawn.artworkUrls), preview_url: redrawn.previewUrl, data: toJson(redrawn.data) } : {}),
          updated_at: now,
        });
    },
    /** Approve anyway: only a held job; false when it was not held (anymore). */
    async approve(id: number, approval: PreflightApproval, now: string): Promise<boolean> {
      const n = await db('print_jobs').where({ id, held: true }).update({
        held: false,
        preflight_approved_at: approval.at,
        preflight_approved_by_user_id: approval.byUserId,
        preflight_approved_by_name: approval.byName.slice(0, 210),
        updated_at: now,
      });
      return n === 1;
    },
    /** Waiting for stock with what it is short of, or not (null); false when nothing changed. */
    async setStockHold(id: number, hold: string | null, now: string): Promise<boolean> {
      const q = db('print_jobs').where({ id });
      if (hold === null) q.whereNotNull('stock_hold');
      else q.where((w) => w.whereNull('stock_hold').orWhereNot('stock_hold', hold));
      return (await q.update({ stock_hold: hold?.slice(0, 500) ?? null, updated_at: now })) === 1;
    },
    /** Jobs waiting for stock, oldest first: tried again when stock comes in. */
    async waitingForStock(limit: number): Promise<PrintJob[]> {
      const rows = (await withNotes(filtered({ stockHeld: true, isPrinted: false, withdrawn: false, madeBy: 'inHouse' })).orderBy('j.created_at', 'asc').orderBy('j.id', 'asc').limit(limit)) as Row[];
      return rows.map(fromRow);
    },
    /** An unprinted job's units follow its line (an order edit). */
    /** A job's name and data rewritten (a privacy redaction of its personalisation); nothing else of it moves. */
    async setLabel(id: number, productName: string, data: PrintJobData, now: string): Promise<boolean> {
      return (await db('print_jobs').where({ id }).update({ product_name: productName.slice(0, 255), data: toJson(data), updated_at: now })) === 1;
    },
    async setQuantity(id: number, quantity: number, now: string): Promise<boolean> {
      const n = await db('print_jobs').where({ id, is_printed: false }).whereNot('quantity', quantity).update({ quantity, updated_at: now });
      return n === 1;
    },
    addEvent: (e: { jobId: number; kind: PrintJobEventKind; at: string; userId: number | null; siteId: number }) =>
      db('print_job_events').insert({ job_id: e.jobId, kind: e.kind, at: e.at, user_id: e.userId, site_id: e.siteId }),
    /** Written in the transaction of the reprint's flip: no reprint without its reason, no reason without the reprint. */
    addReprint: (r: NewReprint) =>
      db('print_job_reprints').insert({
        job_id: r.jobId,
        site_id: r.siteId,
        reason: r.reason,
        responsible: r.responsible,
        note: r.note,
        by_user_id: r.byUserId,
        by_name: r.byName?.slice(0, 210) ?? null,
        at: r.at,
        original_printed_at: r.originalPrintedAt,
        original_printed_by_user_id: r.originalPrintedByUserId,
        original_printed_by_name: r.originalPrintedByName?.slice(0, 210) ?? null,
      }),
    async orderLineTaken(shopifyOrderId: string, lineItemId: string) {
      return Boolean(await db('print_jobs').where({ shopify_order_id: shopifyOrderId, line_item_id: lineItemId }).first('id'));
    },
    async delete(id: number) {
      await db('general_data').where({ type: NOTE_TYPE, field1: String(id) }).delete();
      await db('print_job_reprints').where({ job_id: id }).delete();
      await db('print_job_copies').where({ job_id: id }).delete();
      await db('print_jobs').where({ id }).delete();
    },
    /**
     * Needs attention: jobs still owed to a customer, oldest first, at most `limit` of each half —
     * unprinted ones made since `from` without a store order (made by hand: an order's lines are
     * judged with the order), and printed ones printed since `printedFrom` whose store order has not
     * shipped (nor been cancelled). Withdrawn jobs owe nothing. Both halves walk the
     * (client_id | ready_for_print, is_printed, created_at | printed_at) indexes.
     */
    async owedJobs(siteId: number | undefined, range: { from: string; printedFrom: string }, limit: number): Promise<OwedJob[]> {
      const owed = (printed: boolean) => {
        const q = db('print_jobs as j')
          .leftJoin('store_orders as o', (on) => on.on('o.site_id', '=', 'j.client_id').andOn('o.store_order_id', '=', 'j.shopify_order_id'))
          .leftJoin('designs as d', 'd.id', 'j.design_id')
          .where('j.is_printed', printed)
          .whereNull('j.withdrawn_at');
        if (siteId !== undefined) q.where('j.client_id', siteId);
        if (printed) q.where('j.printed_at', '>=', range.printedFrom).whereNotNull('o.id').whereNotIn('o.status', ['shipped', 'cancelled']).orderBy('j.printed_at', 'asc');
        else q.where('j.created_at', '>=', range.from).whereNull('o.id').orderBy('j.created_at', 'asc');
        return q
          .orderBy('j.id', 'asc')
          .limit(limit)
          .select('j.id', 'j.client_id', 'j.product_name', 'j.created_at', 'j.is_printed', 'j.printed_at', 'j.withdrawn_at', 'j.shopify_order_id', 'o.order_name', 'o.created_at as order_created_at', 'o.status as order_status', 'd.product_type');
      };
      const rows = [...(await owed(false)), ...(await owed(true))] as Array<Row & { order_name: string | null; order_created_at: string | null; order_status: string | null; product_type: string | null }>;
      return rows.map((r) => ({
        id: Number(r.id),
        clientId: Number(r.client_id),
        productName: r.product_name,
        createdAt: r.created_at,
        isPrinted: Boolean(r.is_printed),
        printedAt: r.printed_at,
        withdrawn: null,
        shopifyOrderId: r.shopify_order_id,
        orderName: r.order_name ?? null,
        orderCreatedAt: r.order_created_at ?? null,
        orderStatus: r.order_status ?? null,
        productType: r.product_type ?? null,
      }));
    },
    /** Needs attention: unprinted jobs held by preflight, longest held first, at most `limit`, and how many there are. */
    async heldJobs(siteId: number | undefined, limit: number): Promise<{ rows: HeldJob[]; total: number }> {
      const q = db('print_jobs as j')
        .where({ 'j.is_printed': false })
        .where((w) => w.where('j.held', true).orWhereNotNull('j.stock_hold'))
        .whereNull('j.withdrawn_at');
      if (siteId !== undefined) q.where('j.client_id', siteId);
      const page = q
        .clone()
        .leftJoin('store_orders as o', (on) => on.on('o.site_id', '=', 'j.client_id').andOn('o.store_order_id', '=', 'j.shopify_order_id'))
        .orderByRaw('coalesce(j.preflight_checked_at, j.created_at) asc')
        .orderBy('j.id', 'asc')
        .limit(limit)
        .select('j.id', 'j.client_id', 'j.product_name', 'j.created_at', 'j.preflight_checked_at', 'j.shopify_order_id', 'j.stock_hold', 'o.order_name');
      const [rows, total] = await Promise.all([page, countOf(q)]);
      return {
        rows: (rows as Array<Row & { order_name: string | null }>).map((r) => ({
          id: Number(r.id),
          clientId: Number(r.client_id),
          productName: r.product_name,
          heldSince: r.preflight_checked_at ?? r.created_at,
          shopifyOrderId: r.shopify_order_id,
          orderName: r.order_name ?? null,
          stockHold: r.stock_hold ?? null,
        })),
        total,
      };
    },
    countUnprintedForDesign: (designId: number) => countOf(db('print_jobs').where({ design_id: designId, is_printed: false })),

    /** The print reports of docs/print-production.md, computed by the database. */
    async reports(range: { fromAt: string; toAt: string; clientId?: number }) {
      const printed = () => {
        const q = db('print_job_events as e').join('print_jobs as j', 'j.id', 'e.job_id').where('e.kind', 'printed').where('e.at', '>=', range.fromAt).where('e.at', '<', range.toAt);
        if (range.clientId !== undefined) q.where('e.site_id', range.clientId);
        return q;
      };
      const events = db('print_job_events').where('at', '>=', range.fromAt).where('at', '<', range.toAt).whereIn('kind', ['printed', 'reprinted']);
      if (range.clientId !== undefined) events.where('site_id', range.clientId);
      const [perDay, perProduct, counts] = await Promise.all([
        printed()
          .select(db.raw('substr(e.at, 1, 10) as day'))
          .count({ jobs: '*' })
          .sum({ quantity: 'j.quantity' })
          .groupByRaw('substr(e.at, 1, 10)')
          .orderBy('day', 'asc'),
        printed()
          .select('j.product_name as productName')
          .count({ jobs: '*' })
          .sum({ quantity: 'j.quantity' })
          .groupBy('j.product_name')
          .orderByRaw('count(*) desc, sum(j.quantity) desc, j.product_name asc'),
        events.select('kind').count({ n: '*' }).groupBy('kind'),
      ]);
      const count = (kind: string) => Number((counts as Array<{ kind: string; n: number | string }>).find((c) => c.kind === kind)?.n ?? 0);
      const reprints = db('print_job_reprints as r').where('r.at', '>=', range.fromAt).where('r.at', '<', range.toAt);
      if (range.clientId !== undefined) reprints.where('r.site_id', range.clientId);
      const [byReason, byResponsible, byProduct] = await Promise.all([
        reprints.clone().select('r.reason as key').count({ n: '*' }).groupBy('r.reason'),
        reprints.clone().select('r.responsible as key').count({ n: '*' }).groupBy('r.responsible'),
        reprints.clone().join('print_jobs as j', 'j.id', 'r.job_id').select('j.product_name as key').count({ n: '*' }).groupBy('j.product_name'),
      ]);
      const counted = (rows: unknown) => (rows as Array<{ key: string; n: number | string }>).map((r) => ({ key: r.key, reprints: Number(r.n) }));
      return {
        printedPerDay: (perDay as Array<{ day: string; jobs: number | string; quantity: number | string | null }>).map((r) => ({
          day: r.day,
          jobs: Number(r.jobs),
          quantity: Number(r.quantity ?? 0),
        })),
        perProduct: (perProduct as Array<{ productName: string; jobs: number | string; quantity: number | string | null }>).map((r) => ({
          productName: r.productName,
          jobs: Number(r.jobs),
          quantity: Number(r.quantity ?? 0),
        })),
        printed: count('printed'),
        reprinted: count('reprinted'),
        /** Reprint rows (with their reasons) of the range, by reason, responsibility and product. */
        reprintsBy: { reason: counted(byReason), responsible: counted(byResponsible), product: counted(byProduct) },
      };
    },
  };
}

export type PrintJobsRepo = ReturnType<typeof printJobsRepo>;
