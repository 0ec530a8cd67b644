// SQL of general data records. Records of the order types (shopify-order-log, hp-log,
// shopify-hp-log) live in the order tables: reads take them through the orders module's
// record-type adapter, writes go to it, so callers see one kind of record.
import type { Knex } from 'knex';
import type { Db } from '../../db';
import { canBeRowId, likeLiteral, toJson } from '../../db';
import { deleteOrderTableRecord, insertOrderTableRecord, orderTableRecordById, orderTableRecordSource, updateOrderTableRecord } from '../orders';
import { recordFromRow, type DataRecord, type RecordRow } from '../records';
import { ORDER_TABLE_TYPES, isOrderTableType } from '../records';

export type { DataRecord } from '../records';

type Row = RecordRow & { search_text: string | null };

const fromRow = (r: Row): DataRecord => recordFromRow(r);

/** searchText: lower-case words a list may search (order name, customer…); written, never returned. */
const toRow = (r: Partial<DataRecord> & { searchText?: string | null }) => {
  const row: Record<string, unknown> = {};
  if (r.status !== undefined) row.status = r.status;
  if (r.searchText !== undefined) row.search_text = r.searchText === null ? null : r.searchText.toLowerCase();
  if (r.type !== undefined) row.type = r.type;
  if (r.field1 !== undefined) row.field1 = r.field1;
  if (r.field2 !== undefined) row.field2 = r.field2;
  if (r.name !== undefined) row.name = r.name;
  if (r.data !== undefined) row.data = toJson(r.data);
  if (r.siteId !== undefined) row.site_id = r.siteId;
  if (r.userId !== undefined) row.user_id = r.userId;
  if (r.publicPermission) {
    row.perm_create = r.publicPermission.create;
    row.perm_read = r.publicPermission.read;
    row.perm_update = r.publicPermission.update;
    row.perm_delete = r.publicPermission.delete;
  }
  if (r.createdAt !== undefined) row.created_at = r.createdAt;
  if (r.updatedAt !== undefined) row.updated_at = r.updatedAt;
  return row;
};

export interface RecordFilter {
  type?: string;
  ids?: number[];
  field1?: string;
  field2?: string;
  name?: string;
  userId?: number;
  siteId?: number;
  status?: string | string[];
  /** Statuses left out (rows without a status stay in). */
  excludeStatus?: string[];
  /** Any of these types (with `type` unset). */
  types?: string[];
  /** Words that must all appear in search_text. */
  search?: string;
  /** A non-admin reader: own records, or records their site may read. */
  readableBy?: { userId: number };
}

export type RecordSortField = 'id' | 'createdAt' | 'updatedAt' | 'type' | 'name' | 'field1' | 'field2' | 'siteId';
const COLUMN: Record<RecordSortField, string> = {
  id: 'id',
  createdAt: 'created_at',
  updatedAt: 'updated_at',
  type: 'type',
  name: 'name',
  field1: 'field1',
  field2: 'field2',
  siteId: 'site_id',
};

/** How many rows past the current page a list counts; beyond it the total reads "at least". */
export const COUNT_CAP = 1_000;

/** count(*) of a query, stopping at `cap` rows. */
async function boundedCount(q: Knex.QueryBuilder, cap: number): Promise<number> {
  const inner = q.clone().clearSelect().clearOrder().select(q.client.raw('1')).limit(cap);
  const row = (await q.client.queryBuilder().count({ n: '*' }).from(inner.as('capped')).first()) as { n: number | string } | undefined;
  return Number(row?.n ?? 0);
}

export function generalDataRepo(db: Db | Knex.Transaction) {
  /** general_data alone when no order type can match, else the order tables' rows (and general_data's where other types may match). */
  const source = (f: RecordFilter): Knex.QueryBuilder => {
    const types = f.type !== undefined ? [f.type] : f.types;
    if (types && !types.some(isOrderTableType)) return db<Row>('general_data');
    if (types) return orderTableRecordSource(db, types.filter(isOrderTableType), types.some((t) => !isOrderTableType(t)));
    return orderTableRecordSource(db, ORDER_TABLE_TYPES, true);
  };
  const filtered = (f: RecordFilter) => {
    const q = source(f);
    if (f.type !== undefined) q.where('type', f.type);
    if (f.ids) q.whereIn('id', f.ids);
    if (f.siteId !== undefined) q.where('site_id', f.siteId);
    if (f.field1 !== undefined) q.where('field1', f.field1);
    if (f.field2 !== undefined) q.where('field2', f.field2);
    if (f.name !== undefined) q.where('name', f.name);
    if (f.userId !== undefined) q.where('user_id', f.userId);
    if (Array.isArray(f.status)) q.whereIn('status', f.status);
    else if (f.status !== undefined) q.where('status', f.status);
    if (f.types) q.whereIn('type', f.types);
    if (f.excludeStatus?.length) {
      const excluded = f.excludeStatus;
      q.where((w) => w.whereNull('status').orWhereNotIn('status', excluded));
    }
    for (const word of (f.search ?? '').toLowerCase().split(/\s+/).filter(Boolean).slice(0, 5)) {
      q.whereRaw("search_text like ? escape '!'", [`%${likeLiteral(word)}%`]);
    }
    if (f.readableBy) {
      const { userId } = f.readableBy;
      q.where((w) => w.where('user_id', userId).orWhere('perm_read', true));
    }
    return q;
  };
  return {
    async byId(id: number): Promise<DataRecord | undefined> {
      if (!canBeRowId(id)) return undefined;
      const r = await db<Row>('general_data').where({ id }).first();
      return r ? fromRow(r) : orderTableRecordById(db, id);
    },
    async list(f: RecordFilter, sort: { field: RecordSortField; order: 'asc' | 'desc' }, limit: number, offset: number) {
      const q = filtered(f);
      // One row more than the page says whether there is a next page; the total is counted only up
      // to COUNT_CAP rows past the page, so a list costs the same at 100,000 and 1,000,000 records.
      const [page, counted] = await Promise.all([
        q.clone().select('*').orderBy(COLUMN[sort.field], sort.order).orderBy('id', sort.order).limit(limit + 1).offset(offset),
        boundedCount(q, offset + limit + COUNT_CAP),
      ]);
      const hasNext = page.length > limit;
      const rows = (page as Row[]).slice(0, limit).map(fromRow);
      const totalIsCapped = counted >= offset + limit + COUNT_CAP;
      return { rows, total: totalIsCapped ? Math.max(counted, offset + rows.length + (hasNext ? 1 : 0)) : counted, hasNext, totalIsCapped };
    },
    /** The newest general_data record of a type in a site per field1 value, by field1 (not for the order types), in one statement. */
    async newestByField1(type: string, siteId: number, values: string[]): Promise<Map<string, DataRecord>> {
      const out = new Map<string, DataRecord>();
      const wanted = [...new Set(values)];
      if (!wanted.length || isOrderTableType(type)) return out;
      for (let i = 0; i < wanted.length; i += 500) {
        const rows = (await db<Row>('general_data').where({ type, site_id: siteId }).whereIn('field1', wanted.slice(i, i + 500)).orderBy('id', 'desc')) as Row[];
        for (const r of rows) if (r.field1 !== null && !out.has(r.field1)) out.set(r.field1, fromRow(r));
      }
      return out;
    },
    /** A record of an order type goes to the order tables (an order twice in a site throws DuplicateOrderError). */
    async insert(r: Omit<DataRecord, 'id' | 'status'> & { status?: string | null; searchText?: string | null }): Promise<number> {
      if (isOrderTableType(r.type)) return insertOrderTableRecord(db, r);
      const [res] = await db('general_data').insert(toRow(r)).returning('id');
      return typeof res === 'object' ? res.id : res;
    },
    async update(id: number, r: Partial<DataRecord> & { searchText?: string | null }): Promise<number> {
      const n = await db('general_data').where({ id }).update(toRow(r));
      return n || updateOrderTableRecord(db, id, r);
    },
    async delete(id: number): Promise<number> {
      const n = await db('general_data').where({ id }).delete();
      return n || deleteOrderTableRecord(db, id);
    },
  };
}

export type GeneralDataRepo = ReturnType<typeof generalDataRepo>;
