// SQL of the order tables: store_orders (+ store_order_lines), provider_events, provider_sends.
// The only writer of those tables. It also presents their rows as the spec's generic records
// (types shopify-order-log, hp-log, shopify-hp-log): the record-type adapter general-data uses.
//
// Ids are shared with general_data (see migrations/20261124_011_order_tables.ts): PostgreSQL
// takes them from general_data's sequence by column default; SQLite takes them here from
// general_data's AUTOINCREMENT counter, so an id names one record whatever its table.
import type { Knex } from 'knex';
import { fromJson, isPostgres, isUniqueViolation, toJson, type Db } from '../../db';
import { recordFromRow, type DataRecord, type RecordRow } from '../records';
import { ORDER_RECORD_NAME, RECORD_TYPES } from '../records';
import { orderSearchColumns } from './searchKeys';
import type { OrderData } from './shopify';

const ORDER = RECORD_TYPES.order;
const EVENT = RECORD_TYPES.providerEvent;
const SEND = RECORD_TYPES.providerSend;

export type OrderRecord = DataRecord<OrderData>;

/** A hand-made order record for a store order the site already has. */
export class DuplicateOrderError extends Error {
  constructor(readonly existingId: number | undefined) {
    super('This site already has a record of that store order');
  }
}

/** Keys of an order's data that come from the store; the rest (but status, a column) is ours. */
const STORE_KEYS = new Set(['id', 'name', 'order_number', 'created_at', 'updated_at', 'email', 'financial_status', 'fulfillment_status', 'customer', 'line_items', 'shipping_address', 'shipping_lines', 'billing_address', 'buyer_accepts_marketing', 'processed_at', 'tags', 'total_price', 'source_name']);

/** An order's data as the API shows it → the store's JSON and ours; data.status is left out (the status column is its home). */
export function splitOrderData(data: Record<string, unknown>): { store: Record<string, unknown>; ours: Record<string, unknown> } {
  const store: Record<string, unknown> = {};
  const ours: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(data)) {
    if (k === 'status') continue;
    if (STORE_KEYS.has(k)) store[k] = v;
    else ours[k] = v;
  }
  return { store, ours };
}

const text = (v: unknown, max: number): string | null => (v === null || v === undefined || v === '' ? null : String(v).slice(0, max));

interface LineRow {
  order_id: number;
  line_id: string;
  sku: string | null;
  quantity: number;
  title: string | null;
}

function linesOf(orderId: number, data: Record<string, unknown>): LineRow[] {
  const seen = new Map<string, LineRow>();
  for (const l of Array.isArray(data.line_items) ? (data.line_items as Array<Record<string, unknown> | null>) : []) {
    const lineId = text(l?.id, 64);
    if (!l || !lineId || seen.has(lineId)) continue;
    const quantity = Number(l.quantity);
    seen.set(lineId, { order_id: orderId, line_id: lineId, sku: text(l.sku, 255), quantity: Number.isSafeInteger(quantity) ? quantity : 1, title: text(l.name ?? l.title, 255) });
  }
  return [...seen.values()];
}

const lineKey = (rows: LineRow[]) => JSON.stringify(rows.map((r) => [r.line_id, r.sku, r.quantity, r.title]));

interface OrderRow {
  id: number;
  site_id: number;
  store_order_id: string;
  order_name: string | null;
  status: string;
  search_text: string | null;
  store_data: unknown;
  our_data: unknown;
  user_id: number | null;
  created_at: string;
  updated_at: string;
}

const SYSTEM_PERMISSION = { perm_create: false, perm_read: true, perm_update: false, perm_delete: false };

const orderFromRow = (r: OrderRow): OrderRecord =>
  recordFromRow({
    id: r.id,
    type: ORDER,
    field1: r.store_order_id,
    field2: r.order_name,
    name: ORDER_RECORD_NAME,
    status: r.status,
    data: r.store_data,
    extra: r.our_data,
    site_id: r.site_id,
    user_id: r.user_id,
    ...SYSTEM_PERMISSION,
    created_at: r.created_at,
    updated_at: r.updated_at,
  }) as OrderRecord;

/** A new order: its columns (data as the API shows it). */
export interface NewOrder {
  siteId: number;
  orderId: string;
  name: string | null;
  status: string;
  searchText: string | null;
  data: Record<string, unknown>;
  userId?: number | null;
  /** When the send that moved it to `sent` went to HP Site Flow. */
  sentToProviderAt?: string | null;
  /** When HP Site Flow's word that it printed (moving it to `printed`) reached us. */
  printedByProviderAt?: string | null;
  createdAt: string;
  updatedAt: string;
}

export interface OrderPatch {
  orderId?: string;
  name?: string | null;
  status?: string;
  searchText?: string | null;
  /** The order's whole data as the API shows it (store fields and ours). */
  data?: Record<string, unknown>;
  /** The data it replaces, when the caller has it (saves reading it to see whether the lines changed). */
  before?: Record<string, unknown>;
  siteId?: number;
  /** When the send that moves it to `sent` went to HP Site Flow. */
  sentToProviderAt?: string;
  /** When HP Site Flow's word that moves it to `printed` reached us. */
  printedByProviderAt?: string;
  updatedAt: string;
}

/** A provider event (hp-log) or send (shopify-hp-log). */
export interface NewLog {
  siteId: number;
  orderId: string | null;
  /** Events: the provider's order id; sends: the line sent on its own ('' for the whole order). */
  field2: string | null;
  name: string | null;
  status: string | null;
  data: Record<string, unknown>;
  userId: number | null;
  createdAt: string;
  updatedAt: string;
}

const LOG_TABLES = { [EVENT]: { table: 'provider_events', field2: 'provider_order_id' }, [SEND]: { table: 'provider_sends', field2: 'line_id' } } as const;
type LogType = keyof typeof LOG_TABLES;

const insertedIds = (rows: unknown[]): number[] => rows.map((r) => Number(typeof r === 'object' && r !== null ? (r as { id: number }).id : r));

export function orderTablesRepo(db: Db | Knex.Transaction) {
  const pg = isPostgres(db as Db);

  /** SQLite: n ids from general_data's counter (PostgreSQL: the column default takes them). */
  async function takeIds(n: number): Promise<number[]> {
    const take = async () =>
      (await db.raw("update sqlite_sequence set seq = seq + ? where name = 'general_data' returning seq", [n])) as Array<{ seq: number }>;
    let rows = await take();
    if (!rows.length) {
      await db.raw("insert into sqlite_sequence (name, seq) select 'general_data', coalesce((select max(id) from general_data), 0)");
      rows = await take();
    }
    const last = Number(rows[0].seq);
    return Array.from({ length: n }, (_, i) => last - n + 1 + i);
  }

  /** Inserts rows into a table of the shared id space; answers their ids in order. */
  async function insertWithIds(table: string, rows: Array<Record<string, unknown>>): Promise<number[]> {
    if (!rows.length) return [];
    if (pg) return insertedIds(await db(table).insert(rows).returning('id'));
    const ids = await takeIds(rows.length);
    await db(table).insert(rows.map((r, i) => ({ id: ids[i], ...r })));
    return ids;
  }

  const orderColumns = (o: NewOrder) => {
    const { store, ours } = splitOrderData(o.data);
    return {
      site_id: o.siteId,
      store_order_id: o.orderId,
      order_name: text(o.name, 255),
      order_number: text(o.data.order_number, 32),
      status: o.status,
      search_text: o.searchText === null ? null : o.searchText.toLowerCase(),
      ...orderSearchColumns(o.name, o.data),
      store_data: toJson(store),
      our_data: toJson(ours),
      user_id: o.userId ?? null,
      sent_to_provider_at: o.sentToProviderAt ?? null,
      printed_by_provider_at: o.printedByProviderAt ?? null,
      created_at: o.createdAt,
      updated_at: o.updatedAt,
    };
  };

  async function replaceLines(orderId: number, data: Record<string, unknown>): Promise<void> {
    await db('store_order_lines').where({ order_id: orderId }).delete();
    const lines = linesOf(orderId, data);
    if (lines.length) await db('store_order_lines').insert(lines);
  }

  const logColumns = (type: LogType, r: NewLog) => ({
    site_id: r.siteId,
    store_order_id: text(r.orderId, 255),
    [LOG_TABLES[type].field2]: r.field2 === null ? null : String(r.field2).slice(0, 255),
    name: text(r.name, 255),
    status: text(r.status, 32),
    data: toJson(r.data),
    user_id: r.userId,
    created_at: r.createdAt,
    updated_at: r.updatedAt,
  });

  /** New orders, one statement per 200 (plus their lines in one): answers their ids in order. */
  async function insertOrders(rows: NewOrder[]): Promise<number[]> {
    const out: number[] = [];
    for (let i = 0; i < rows.length; i += 200) {
      const chunk = rows.slice(i, i + 200);
      const ids = await insertWithIds('store_orders', chunk.map(orderColumns));
      const lines = chunk.flatMap((o, j) => linesOf(ids[j], o.data));
      for (let k = 0; k < lines.length; k += 500) await db('store_order_lines').insert(lines.slice(k, k + 500));
      out.push(...ids);
    }
    return out;
  }

  /** Changes an order; its lines are rewritten only when they changed. */
  async function updateOrder(id: number, p: OrderPatch): Promise<void> {
    const row: Record<string, unknown> = { updated_at: p.updatedAt };
    if (p.orderId !== undefined) row.store_order_id = p.orderId;
    if (p.name !== undefined) row.order_name = text(p.name, 255);
    if (p.status !== undefined) row.status = p.status;
    if (p.searchText !== undefined) row.search_text = p.searchText === null ? null : p.searchText.toLowerCase();
    if (p.siteId !== undefined) row.site_id = p.siteId;
    if (p.sentToProviderAt !== undefined) row.sent_to_provider_at = p.sentToProviderAt;
    if (p.printedByProviderAt !== undefined) row.printed_by_provider_at = p.printedByProviderAt;
    let before = p.before;
    if (p.data !== undefined) {
      const { store, ours } = splitOrderData(p.data);
      row.store_data = toJson(store);
      row.our_data = toJson(ours);
      row.order_number = text(p.data.order_number, 32);
      before ??= fromJson<Record<string, unknown>>(((await db('store_orders').where({ id }).first('store_data')) as OrderRow | undefined)?.store_data, {});
    }
    // The header search's keys follow the name and the store data (either may change alone).
    if (p.name !== undefined || p.data !== undefined) {
      let name = p.name;
      let data = p.data;
      if (name === undefined || data === undefined) {
        const current = (await db('store_orders').where({ id }).first('order_name', 'store_data')) as Pick<OrderRow, 'order_name' | 'store_data'> | undefined;
        if (name === undefined) name = current?.order_name ?? null;
        data ??= fromJson<Record<string, unknown>>(current?.store_data, {});
      }
      Object.assign(row, orderSearchColumns(name, data));
    }
    try {
      await db('store_orders').where({ id }).update(row);
    } catch (err) {
      if (isUniqueViolation(err)) throw new DuplicateOrderError(undefined);
      throw err;
    }
    if (p.data !== undefined) {
      const old = linesOf(id, before ?? {});
      if (lineKey(old) !== lineKey(linesOf(id, p.data))) await replaceLines(id, p.data);
    }
  }

  async function insertLog(type: LogType, r: NewLog): Promise<number> {
    const [id] = await insertWithIds(LOG_TABLES[type].table, [logColumns(type, r)]);
    return id;
  }

  // --- the record-type adapter: rows of the order tables in the generic record's columns -----

  const F = pg ? 'false' : '0';
  const T = pg ? 'true' : '1';
  const lit = (s: string) => (pg ? `'${s}'::text` : `'${s}'`);
  const nullOf = (pgType: string) => (pg ? `null::${pgType}` : 'null');
  const perms = `${F} as perm_create, ${T} as perm_read, ${F} as perm_update, ${F} as perm_delete`;
  const SELECT: Record<string, string> = {
    [ORDER]: `select id, ${lit(ORDER)} as type, store_order_id as field1, order_name as field2, ${lit(ORDER_RECORD_NAME)} as name, status, search_text, store_data as data, our_data as extra, site_id, user_id, ${perms}, created_at, updated_at from store_orders`,
    [EVENT]: `select id, ${lit(EVENT)} as type, store_order_id as field1, provider_order_id as field2, name, status, ${nullOf('text')} as search_text, data, ${nullOf('jsonb')} as extra, site_id, user_id, ${perms}, created_at, updated_at from provider_events`,
    [SEND]: `select id, ${lit(SEND)} as type, store_order_id as field1, line_id as field2, name, status, ${nullOf('text')} as search_text, data, ${nullOf('jsonb')} as extra, site_id, user_id, ${perms}, created_at, updated_at from provider_sends`,
  };
  const GENERAL = `select id, type, field1, field2, name, status, search_text, data, ${nullOf('jsonb')} as extra, site_id, user_id, perm_create, perm_read, perm_update, perm_delete, created_at, updated_at from general_data`;

  /** Rows of these record types (and of general_data's types with `general`) as one table `r` with the record's columns. */
  function recordSource(types: readonly string[], general = false): Knex.QueryBuilder {
    const parts = types.map((t) => SELECT[t]).filter(Boolean);
    if (general) parts.push(GENERAL);
    return db.from(db.raw(`(${parts.join(' union all ')}) as r`));
  }

  const recordById = async (id: number): Promise<DataRecord | undefined> => {
    const r = (await recordSource([ORDER, EVENT, SEND]).where('id', id).first()) as RecordRow | undefined;
    return r ? recordFromRow(r) : undefined;
  };

  return {
    recordSource,
    recordById,

    /** A hand-made record of one of the three types (the generic upsert); an order twice in a site throws DuplicateOrderError. */
    async insertRecord(r: Omit<DataRecord, 'id' | 'status'> & { status?: string | null; searchText?: string | null }): Promise<number> {
      if (r.type === ORDER) {
        const orderId = r.field1 ?? '';
        const existing = await db('store_orders').where({ site_id: r.siteId, store_order_id: orderId }).first('id');
        if (existing) throw new DuplicateOrderError(Number(existing.id));
        const data = r.data as Record<string, unknown>;
        try {
          const [id] = await insertOrders([
            { siteId: r.siteId, orderId, name: r.field2, status: r.status ?? text(data.status, 32) ?? 'received', searchText: r.searchText ?? [r.field2, orderId].filter(Boolean).join(' '), data, userId: r.userId, createdAt: r.createdAt, updatedAt: r.updatedAt },
          ]);
          return id;
        } catch (err) {
          if (isUniqueViolation(err)) throw new DuplicateOrderError(undefined);
          throw err;
        }
      }
      return insertLog(r.type as LogType, { siteId: r.siteId, orderId: r.field1, field2: r.field2, name: r.name, status: r.status ?? null, data: r.data, userId: r.userId, createdAt: r.createdAt, updatedAt: r.updatedAt });
    },

    /** The generic update of a record of the three types (0 when the id is none of theirs). */
    async updateRecord(id: number, r: Partial<DataRecord> & { searchText?: string | null }): Promise<number> {
      const order = (await db('store_orders').where({ id }).first()) as OrderRow | undefined;
      if (order) {
        const data = r.data as Record<string, unknown> | undefined;
        const status = r.status ?? (data && typeof data.status === 'string' && data.status ? data.status.slice(0, 32) : undefined);
        await updateOrder(id, { orderId: r.field1 ?? undefined, name: r.field2, status, searchText: r.searchText, data, siteId: r.siteId, updatedAt: r.updatedAt ?? order.updated_at });
        return 1;
      }
      for (const [type, t] of Object.entries(LOG_TABLES)) {
        const row: Record<string, unknown> = {};
        if (r.field1 !== undefined) row.store_order_id = r.field1;
        if (r.field2 !== undefined) row[t.field2] = r.field2;
        if (r.name !== undefined) row.name = r.name;
        if (r.status !== undefined) row.status = r.status;
        if (r.data !== undefined) row.data = toJson(r.data);
        if (r.siteId !== undefined) row.site_id = r.siteId;
        if (r.updatedAt !== undefined) row.updated_at = r.updatedAt;
        void type;
        if (!Object.keys(row).length) {
          if (await db(t.table).where({ id }).first('id')) return 1;
          continue;
        }
        const n = await db(t.table).where({ id }).update(row);
        if (n) return n;
      }
      return 0;
    },

    async deleteRecord(id: number): Promise<number> {
      for (const table of ['store_orders', 'provider_events', 'provider_sends']) {
        const n = await db(table).where({ id }).delete();
        if (n) return n;
      }
      return 0;
    },

    // --- orders --------------------------------------------------------------------------

    /** What processing needs of several orders of one site (id, status, data), by store order id: one statement. */
    async orderStates(siteId: number, orderIds: string[], forUpdate = false): Promise<Map<string, { id: number; status: string | null; data: OrderData }>> {
      const q = db('store_orders').where({ site_id: siteId }).whereIn('store_order_id', orderIds).select('id', 'store_order_id', 'status', 'store_data', 'our_data');
      if (pg && forUpdate) q.forUpdate();
      const out = new Map<string, { id: number; status: string | null; data: OrderData }>();
      for (const r of (await q) as OrderRow[]) {
        out.set(r.store_order_id, { id: Number(r.id), status: r.status, data: { ...fromJson<object>(r.store_data, {}), ...fromJson<object>(r.our_data, {}), status: r.status } as OrderData });
      }
      return out;
    },

    /** The store order ids of a site's orders that hold this e-mail (the header search's email key). */
    async orderIdsByEmail(siteId: number, email: string): Promise<string[]> {
      const rows = (await db('store_orders').where({ site_id: siteId, email_lower: email.trim().toLowerCase() }).select('store_order_id')) as Array<{ store_order_id: string }>;
      return rows.map((r) => r.store_order_id);
    },

    /** A site's store order ids after `afterId` (row id order), `limit` at a time, with the last row id. */
    async orderIdsPage(siteId: number, afterId: number, limit: number): Promise<{ orderIds: string[]; lastId: number | null }> {
      const rows = (await db('store_orders').where({ site_id: siteId }).where('id', '>', afterId).orderBy('id').limit(limit).select('id', 'store_order_id')) as Array<{ id: number; store_order_id: string }>;
      return { orderIds: rows.map((r) => r.store_order_id), lastId: rows.length ? Number(rows[rows.length - 1].id) : null };
    },

    /** Rewrites the data of an order's provider sends and events (a privacy redaction). */
    async rewriteLogsOfOrder(siteId: number, orderId: string, rewrite: (data: Record<string, unknown>) => Record<string, unknown>): Promise<number> {
      let n = 0;
      for (const table of ['provider_sends', 'provider_events']) {
        const rows = (await db(table).where({ site_id: siteId, store_order_id: orderId }).select('id', 'data')) as Array<{ id: number; data: unknown }>;
        for (const r of rows) {
          const before = fromJson<Record<string, unknown>>(r.data, {});
          const after = rewrite(before);
          if (JSON.stringify(after) === JSON.stringify(before)) continue;
          await db(table).where({ id: r.id }).update({ data: toJson(after) });
          n++;
        }
      }
      return n;
    },

    /**
     * Needs attention: orders placed since `from` in one of `statuses` (those not shipped nor
     * cancelled), of a site or all, oldest first, at most `limit` (the (site_id, status, created_at)
     * and (created_at) indexes).
     */
    async placedSince(siteId: number | undefined, statuses: readonly string[], from: string, limit: number): Promise<OrderRecord[]> {
      const q = db('store_orders').whereIn('status', [...statuses]).where('created_at', '>=', from);
      if (siteId !== undefined) q.where('site_id', siteId);
      return ((await q.orderBy('created_at').orderBy('id').limit(limit)) as OrderRow[]).map(orderFromRow);
    },
    /** The names (#1024) of some store orders of a site, by store order id. */
    async orderNames(siteId: number, orderIds: string[]): Promise<Map<string, string | null>> {
      if (!orderIds.length) return new Map();
      const rows = (await db('store_orders').where({ site_id: siteId }).whereIn('store_order_id', orderIds).select('store_order_id', 'order_name')) as Array<{ store_order_id: string; order_name: string | null }>;
      return new Map(rows.map((r) => [r.store_order_id, r.order_name]));
    },

    /** The order of a store order id in a site (locked for update on PostgreSQL with forUpdate). */
    async orderOf(siteId: number, orderId: string, forUpdate = false): Promise<OrderRecord | undefined> {
      const q = db('store_orders').where({ site_id: siteId, store_order_id: orderId }).first();
      if (pg && forUpdate) q.forUpdate();
      const r = (await q) as OrderRow | undefined;
      return r ? orderFromRow(r) : undefined;
    },

    async orderById(id: number, forUpdate = false): Promise<OrderRecord | undefined> {
      const q = db('store_orders').where({ id }).first();
      if (pg && forUpdate) q.forUpdate();
      const r = (await q) as OrderRow | undefined;
      return r ? orderFromRow(r) : undefined;
    },

    /** A site's latest orders, newest first. */
    async latestOfSite(siteId: number, limit: number): Promise<OrderRecord[]> {
      return ((await db('store_orders').where({ site_id: siteId }).orderBy('created_at', 'desc').orderBy('id', 'desc').limit(limit)) as OrderRow[]).map(orderFromRow);
    },

    /** The newest order of a store order id, in one site or any. */
    async newestOrder(orderId: string, siteId?: number): Promise<OrderRecord | undefined> {
      const q = db('store_orders').where({ store_order_id: orderId }).orderBy('id', 'desc').first();
      if (siteId !== undefined) q.where('site_id', siteId);
      const r = (await q) as OrderRow | undefined;
      return r ? orderFromRow(r) : undefined;
    },

    /** Orders by store id or name (`#1001`), one site or all, newest first. */
    async findOrders(f: { orderId?: string; names?: string[]; siteId?: number }, limit = 20): Promise<OrderRecord[]> {
      const q = db('store_orders');
      if (f.siteId !== undefined) q.where('site_id', f.siteId);
      if (f.orderId !== undefined) q.where('store_order_id', f.orderId);
      if (f.names) q.whereIn('order_name', f.names);
      return ((await q.orderBy('created_at', 'desc').orderBy('id', 'desc').limit(limit).select('*')) as OrderRow[]).map(orderFromRow);
    },

    /** The order's record and its provider events and sends, newest first. */
    async logsOf(siteId: number, orderId: string, limit = 500): Promise<DataRecord[]> {
      const rows = (await recordSource([ORDER, EVENT, SEND]).where({ site_id: siteId, field1: orderId }).orderBy('created_at', 'desc').orderBy('id', 'desc').limit(limit).select('*')) as RecordRow[];
      return rows.map(recordFromRow);
    },

    insertOrders,
    updateOrder,

    // --- provider events and sends ---------------------------------------------------------

    insertLog,

    insertProviderEvent: (r: NewLog): Promise<number> => insertLog(EVENT, r),
    insertProviderSend: (r: NewLog): Promise<number> => insertLog(SEND, r),
  };
}

export type OrderTablesRepo = ReturnType<typeof orderTablesRepo>;
