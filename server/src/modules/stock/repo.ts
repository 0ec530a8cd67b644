// SQL of the stock: items, each job's reservations, and the movements. Every change of a count is
// one conditional UPDATE (reserve only while enough is available; a reservation moves only from
// the state it was read in), so two instances or two clicks never count twice or below zero.
import type { Knex } from 'knex';
import { countOf, isPostgres, type Db } from '../../db';
import type { MovementKind, StockItem, StockMovement } from '../../../../common/api/stock';

interface ItemRow {
  id: number;
  site_id: number | null;
  name: string;
  unit: string;
  on_hand: number | string;
  reserved: number | string;
  reorder_point: number | string;
  reorder_quantity: number | string;
  supplier_note: string | null;
}

const itemOf = (r: ItemRow): StockItem => {
  const onHand = Number(r.on_hand);
  const reserved = Number(r.reserved);
  return {
    id: Number(r.id),
    siteId: r.site_id === null ? null : Number(r.site_id),
    name: r.name,
    unit: r.unit,
    onHand,
    reserved,
    available: onHand - reserved,
    reorderPoint: Number(r.reorder_point),
    reorderQuantity: Number(r.reorder_quantity),
    supplierNote: r.supplier_note,
  };
};

interface MovementRow {
  id: number;
  item_id: number;
  kind: MovementKind;
  quantity: number | string;
  on_hand_after: number | string;
  reserved_after: number | string;
  job_id: number | null;
  note: string | null;
  by_user_id: number | null;
  by_name: string | null;
  at: string;
}

const movementOf = (r: MovementRow): StockMovement => ({
  id: Number(r.id),
  itemId: Number(r.item_id),
  kind: r.kind,
  quantity: Number(r.quantity),
  onHandAfter: Number(r.on_hand_after),
  reservedAfter: Number(r.reserved_after),
  jobId: r.job_id === null ? null : Number(r.job_id),
  note: r.note,
  byUserId: r.by_user_id === null ? null : Number(r.by_user_id),
  byName: r.by_name,
  at: r.at,
});

export type ReservationState = 'reserved' | 'consumed' | 'released';

export interface Reservation {
  jobId: number;
  itemId: number;
  quantity: number;
  state: ReservationState;
  reason: string | null;
}

export interface ItemFields {
  siteId: number | null;
  name: string;
  unit: string;
  reorderPoint: number;
  reorderQuantity: number;
  supplierNote: string | null;
}

/** Who moved stock: a person, or Presswork itself (userId null). */
export interface StockBy {
  userId: number | null;
  name: string;
}

/** Which items a list covers: one site's and the shared ones (siteId), or all (undefined). */
export interface ItemFilter {
  siteId?: number;
  /** Only the shared ones (true) or only a site's (false). */
  shared?: boolean;
  q?: string;
  ids?: number[];
}

export type ItemSort = 'id' | 'name' | 'onHand' | 'available' | 'reorderPoint';
const SORT_COLUMN: Record<ItemSort, string> = { id: 'id', name: 'name', onHand: 'on_hand', available: 'on_hand - reserved', reorderPoint: 'reorder_point' };

export function stockRepo(db: Db | Knex.Transaction) {
  const items = (f: ItemFilter) => {
    const q = db('stock_items');
    if (f.siteId !== undefined) q.where((w) => w.where('site_id', f.siteId!).orWhereNull('site_id'));
    if (f.shared === true) q.whereNull('site_id');
    if (f.shared === false) q.whereNotNull('site_id');
    if (f.q) q.whereRaw('lower(name) like ?', [`%${f.q.toLowerCase()}%`]);
    if (f.ids) q.whereIn('id', f.ids);
    return q;
  };
  const fresh = async (id: number) => itemOf((await db('stock_items').where({ id }).first()) as ItemRow);

  return {
    async item(id: number): Promise<StockItem | undefined> {
      const r = (await db('stock_items').where({ id }).first()) as ItemRow | undefined;
      return r ? itemOf(r) : undefined;
    },
    async items(f: ItemFilter, sort: { field: ItemSort; order: 'asc' | 'desc' }, limit: number, offset: number): Promise<{ rows: StockItem[]; total: number }> {
      const q = items(f);
      const [rows, total] = await Promise.all([
        q.clone().orderByRaw(`${SORT_COLUMN[sort.field]} ${sort.order}`).orderBy('id', sort.order).limit(limit).offset(offset),
        countOf(q.clone()),
      ]);
      return { rows: (rows as ItemRow[]).map(itemOf), total };
    },
    /** Items at or under their reorder point (a reorder point of 0 means "do not watch"). */
    async lowItems(f: ItemFilter, limit: number): Promise<StockItem[]> {
      const rows = (await items(f).where('reorder_point', '>', 0).whereRaw('on_hand - reserved <= reorder_point').orderByRaw('(on_hand - reserved) - reorder_point asc').orderBy('id', 'asc').limit(limit)) as ItemRow[];
      return rows.map(itemOf);
    },
    async insertItem(i: ItemFields, onHand: number, at: string): Promise<number> {
      const [r] = await db('stock_items')
        .insert({ site_id: i.siteId, name: i.name, unit: i.unit, on_hand: onHand, reserved: 0, reorder_point: i.reorderPoint, reorder_quantity: i.reorderQuantity, supplier_note: i.supplierNote, created_at: at, updated_at: at })
        .returning('id');
      return Number(typeof r === 'object' ? r.id : r);
    },
    async updateItem(id: number, i: Partial<ItemFields>, at: string): Promise<void> {
      const row: Record<string, unknown> = { updated_at: at };
      if (i.name !== undefined) row.name = i.name;
      if (i.unit !== undefined) row.unit = i.unit;
      if (i.reorderPoint !== undefined) row.reorder_point = i.reorderPoint;
      if (i.reorderQuantity !== undefined) row.reorder_quantity = i.reorderQuantity;
      if (i.supplierNote !== undefined) row.supplier_note = i.supplierNote;
      await db('stock_items').where({ id }).update(row);
    },
    /** A delivery: on hand grows by `quantity`; the item as it is now. */
    async receive(id: number, quantity: number, at: string): Promise<StockItem> {
      await db('stock_items').where({ id }).update({ on_hand: db.raw('on_hand + ?', [quantity]), updated_at: at });
      return fresh(id);
    },
    /** A stock-take: on hand becomes `quantity`; the difference it made, and the item. */
    async count(id: number, quantity: number, at: string): Promise<{ before: number; item: StockItem }> {
      // Read under the row's lock on PostgreSQL: a reservation between the read and the write would misstate the difference.
      const q = db('stock_items').where({ id });
      const before = (await (isPostgres(db as Db) ? q.clone().forUpdate() : q.clone()).first('on_hand')) as { on_hand: number | string };
      await q.clone().update({ on_hand: quantity, updated_at: at });
      return { before: Number(before.on_hand), item: await fresh(id) };
    },
    /** Reserves `quantity` only while that much is available; false when it is not. */
    async reserve(id: number, quantity: number, at: string): Promise<boolean> {
      const n = await db('stock_items').where({ id }).whereRaw('on_hand - reserved >= ?', [quantity]).update({ reserved: db.raw('reserved + ?', [quantity]), updated_at: at });
      return n === 1;
    },
    async unreserve(id: number, quantity: number, at: string): Promise<void> {
      await db('stock_items').where({ id }).update({ reserved: db.raw('reserved - ?', [quantity]), updated_at: at });
    },
    /** Reserved stock used: it leaves the shelf and the reservation. */
    async use(id: number, quantity: number, at: string): Promise<void> {
      await db('stock_items').where({ id }).update({ on_hand: db.raw('on_hand - ?', [quantity]), reserved: db.raw('reserved - ?', [quantity]), updated_at: at });
    },
    fresh,
    async reservationsOf(jobId: number): Promise<Reservation[]> {
      const rows = (await db('stock_reservations').where({ job_id: jobId }).orderBy('item_id', 'asc')) as Array<{ job_id: number; item_id: number; quantity: number | string; state: ReservationState; reason: string | null }>;
      return rows.map((r) => ({ jobId: Number(r.job_id), itemId: Number(r.item_id), quantity: Number(r.quantity), state: r.state, reason: r.reason }));
    },
    /** Claims a job's reservation of an item for `reserved` (a new one, or one released or used); false when it is reserved already. */
    async claimReservation(r: { jobId: number; itemId: number; quantity: number; reason: string | null }, at: string): Promise<boolean> {
      const n = await db('stock_reservations')
        .where({ job_id: r.jobId, item_id: r.itemId })
        .whereNot('state', 'reserved')
        .update({ state: 'reserved', quantity: r.quantity, reason: r.reason, updated_at: at });
      if (n === 1) return true;
      const inserted = await db('stock_reservations')
        .insert({ job_id: r.jobId, item_id: r.itemId, quantity: r.quantity, state: 'reserved', reason: r.reason, updated_at: at })
        .onConflict(['job_id', 'item_id'])
        .ignore()
        .returning('id');
      return inserted.length === 1;
    },
    /** Moves a job's reservation of an item out of `reserved`; false when another move was first. */
    async settleReservation(jobId: number, itemId: number, to: Exclude<ReservationState, 'reserved'>, at: string): Promise<boolean> {
      const n = await db('stock_reservations').where({ job_id: jobId, item_id: itemId, state: 'reserved' }).update({ state: to, updated_at: at });
      return n === 1;
    },
    async addMovement(m: { itemId: number; kind: MovementKind; quantity: number; item: StockItem; jobId: number | null; note: string | null; by: StockBy; at: string }): Promise<void> {
      await db('stock_movements').insert({
        item_id: m.itemId,
        kind: m.kind,
        quantity: m.quantity,
        on_hand_after: m.item.onHand,
        reserved_after: m.item.reserved,
        job_id: m.jobId,
        note: m.note?.slice(0, 2000) ?? null,
        by_user_id: m.by.userId,
        by_name: m.by.name.slice(0, 210),
        at: m.at,
      });
    },
    async movements(itemId: number, limit: number, offset: number): Promise<{ rows: StockMovement[]; total: number }> {
      const q = db('stock_movements').where({ item_id: itemId });
      const [rows, total] = await Promise.all([q.clone().orderBy('at', 'desc').orderBy('id', 'desc').limit(limit).offset(offset), countOf(q.clone())]);
      return { rows: (rows as MovementRow[]).map(movementOf), total };
    },
    /** What left the shelf by being printed (consume and waste) since `from`, per item. */
    async usedSince(itemIds: number[], from: string): Promise<Map<number, number>> {
      const out = new Map<number, number>();
      if (!itemIds.length) return out;
      const rows = (await db('stock_movements').whereIn('item_id', itemIds).whereIn('kind', ['consume', 'waste']).where('at', '>=', from).groupBy('item_id').select('item_id').sum({ used: 'quantity' })) as Array<{
        item_id: number;
        used: number | string | null;
      }>;
      for (const r of rows) out.set(Number(r.item_id), -Number(r.used ?? 0));
      return out;
    },
  };
}

export type StockRepo = ReturnType<typeof stockRepo>;
