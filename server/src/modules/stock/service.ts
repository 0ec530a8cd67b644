// Stock of blanks: items (a site's, or shared by the instance), deliveries and stock-takes, the
// movements list, and which items are running low with how long they last. A job's reservations
// are reservations.ts, called by the print jobs.
import { stringify } from 'csv-stringify/sync';
import type { Db } from '../../db';
import type { Deps } from '../../deps';
import type { Page } from '../../http/envelope';
import { forbidden, notFound } from '../../http/errors';
import { fieldError } from '../../http/fieldErrors';
import type { Actor } from '../../http/types';
import { isoNow } from '../../lib/clock';
import { pageWindow } from '../../lib/paging';
import { isAdmin, managesSiteOrShared, seesSiteOrShared, siteScope } from '../auth';
import { findSite } from '../sites';
import { nameOf } from '../users';
import { daysOfStockLeft, type LowStockItem, STOCK_RATE_DAYS, type StockItem, type StockMovement, type StockUse } from '../../../../common/api/stock';
import { stockRepo, type ItemFilter, type StockBy } from './repo';
import type { ItemInput, ListQuery } from './schema';
import { consumesSchema } from './schema';
import { parse } from '../../http/validate';

export const STOCK_ITEM_NOT_FOUND = 'Stock item not found';
const DAY_MS = 24 * 60 * 60 * 1000;

/** An item under its reorder point, with its use over the last 14 days and the days it lasts at that rate (null: not used lately). */
export type LowStock = LowStockItem;

const byActor = (actor: Actor): StockBy => ({ userId: actor.id, name: nameOf(actor) });

export function stockService({ db, clock }: Deps) {
  const repo = stockRepo(db);

  /** The item if the caller may see it (their site's or shared), else 404. */
  async function find(actor: Actor, id: number): Promise<StockItem> {
    const item = await repo.item(id);
    if (!item || !seesSiteOrShared(actor, item.siteId)) throw notFound(STOCK_ITEM_NOT_FOUND);
    return item;
  }

  /** The item if the caller may change it: a shared one only an admin. */
  async function findToChange(actor: Actor, id: number): Promise<StockItem> {
    const item = await find(actor, id);
    if (!managesSiteOrShared(actor, item.siteId)) throw forbidden('Only an admin can change stock shared by every site');
    return item;
  }

  /** Staff: their site's items and the shared ones; admins: all, or one site's and the shared (clientId). */
  async function list(actor: Actor, q: ListQuery): Promise<Page<StockItem>> {
    const w = pageWindow(q.page, q.pageSize ?? 50);
    const filter: ItemFilter = { siteId: siteScope(actor, q.clientId), q: q.q, shared: q.shared === undefined ? undefined : q.shared === '1' };
    const order = (q.order?.toLowerCase() as 'asc' | 'desc' | undefined) ?? 'asc';
    const { rows, total } = await repo.items(filter, { field: q.sort ?? 'name', order }, w.limit, w.offset);
    return { list: rows, hasNext: w.offset + rows.length < total, total };
  }

  /** POST /api/stock-items: creates an item (its opening quantity as a count) or changes one's fields. */
  async function save(actor: Actor, input: ItemInput): Promise<StockItem> {
    const at = isoNow(clock);
    if (input.id !== undefined) {
      const item = await findToChange(actor, input.id);
      if (input.siteId !== undefined && input.siteId !== item.siteId) throw fieldError('siteId', 'cannot change: make a new item for the other site and count this one to 0');
      if (input.onHand !== undefined && input.onHand !== item.onHand) throw fieldError('onHand', 'changes only by Receive or Count, so every change is on the movements list');
      await repo.updateItem(item.id, { name: input.name, unit: input.unit, reorderPoint: input.reorderPoint, reorderQuantity: input.reorderQuantity, supplierNote: input.supplierNote }, at);
      return (await repo.item(item.id))!;
    }
    if (!input.name) throw fieldError('name', 'is required');
    if (!input.unit) throw fieldError('unit', 'is required');
    // Staff make their own site's items; an admin says whose (none: shared by every site).
    const siteId = input.siteId === undefined ? (isAdmin(actor) ? null : actor.siteId) : input.siteId;
    if (siteId === null && !isAdmin(actor)) throw forbidden('Only an admin can make stock shared by every site');
    if (siteId !== null && !isAdmin(actor) && siteId !== actor.siteId) throw forbidden("You cannot make stock for another site");
    if (siteId !== null && !(await findSite(db, siteId))) throw fieldError('siteId', 'does not exist');
    const id = await db.transaction(async (trx) => {
      const tx = stockRepo(trx);
      const newId = await tx.insertItem({ siteId, name: input.name!, unit: input.unit!, reorderPoint: input.reorderPoint ?? 0, reorderQuantity: input.reorderQuantity ?? 0, supplierNote: input.supplierNote ?? null }, 0, at);
      if (input.onHand) {
        const { item } = await tx.count(newId, input.onHand, at);
        await tx.addMovement({ itemId: newId, kind: 'count', quantity: input.onHand, item, jobId: null, note: 'opening count', by: byActor(actor), at });
      }
      return newId;
    });
    return (await repo.item(id))!;
  }

  /** Receive: a delivery, with its note; the item as it is after. */
  async function receive(actor: Actor, id: number, input: { quantity: number; note?: string }): Promise<StockItem> {
    await findToChange(actor, id);
    const at = isoNow(clock);
    return db.transaction(async (trx) => {
      const tx = stockRepo(trx);
      const item = await tx.receive(id, input.quantity, at);
      await tx.addMovement({ itemId: id, kind: 'receive', quantity: input.quantity, item, jobId: null, note: input.note ?? null, by: byActor(actor), at });
      return item;
    });
  }

  /** Count: a stock-take sets on hand; the movement records the difference it found. */
  async function count(actor: Actor, id: number, input: { quantity: number; note?: string }): Promise<StockItem> {
    await findToChange(actor, id);
    const at = isoNow(clock);
    return db.transaction(async (trx) => {
      const tx = stockRepo(trx);
      const { before, item } = await tx.count(id, input.quantity, at);
      await tx.addMovement({ itemId: id, kind: 'count', quantity: input.quantity - before, item, jobId: null, note: input.note ?? null, by: byActor(actor), at });
      return item;
    });
  }

  async function movements(actor: Actor, id: number, q: { page?: number; pageSize?: number }): Promise<Page<StockMovement>> {
    await find(actor, id);
    const w = pageWindow(q.page, q.pageSize ?? 50);
    const { rows, total } = await repo.movements(id, w.limit, w.offset);
    return { list: rows, hasNext: w.offset + rows.length < total, total };
  }

  /** The whole movements list as CSV, newest first: when, kind, quantity, on hand and reserved after, job, who, note. */
  async function movementsCsv(actor: Actor, id: number): Promise<{ item: StockItem; csv: string }> {
    const item = await find(actor, id);
    const { rows } = await repo.movements(id, 1_000_000, 0);
    const csv = stringify(
      rows.map((m) => [m.at, m.kind, m.quantity, m.onHandAfter, m.reservedAfter, m.jobId ?? '', m.byName ?? '', m.note ?? '']),
      { header: true, columns: ['at', 'kind', 'quantity', 'onHandAfter', 'reservedAfter', 'jobId', 'by', 'note'] },
    );
    return { item, csv };
  }

  /** Items at or under their reorder point the caller's sites use, lowest first, each with the days it lasts at the last 14 days' use. */
  async function lowStock(actor: Actor, clientId?: number, limit = 100): Promise<LowStock[]> {
    return lowStockOfScope(siteScope(actor, clientId), limit);
  }

  /** `siteId` undefined: every site's items and the shared ones (an admin's view). */
  async function lowStockOfScope(siteId: number | undefined, limit: number): Promise<LowStock[]> {
    const items = await repo.lowItems({ siteId }, limit);
    const from = new Date(clock.now().getTime() - STOCK_RATE_DAYS * DAY_MS).toISOString();
    const used = await repo.usedSince(items.map((i) => i.id), from);
    return items.map((item) => {
      const usedPerDay = (used.get(item.id) ?? 0) / STOCK_RATE_DAYS;
      return { item, usedPerDay, daysLeft: daysOfStockLeft(Math.max(0, item.available), usedPerDay) };
    });
  }

  return { find, list, save, receive, count, movements, movementsCsv, lowStock, lowStockOfScope };
}

export type StockService = ReturnType<typeof stockService>;

/** Items a caller's sites use at or under their reorder point, lowest first, with the days each lasts (Needs attention, Home). */
export const lowStockItems = (deps: Deps, siteId: number | undefined, limit: number): Promise<LowStock[]> => stockService(deps).lowStockOfScope(siteId, limit);

/**
 * A design's `consumes` as it is saved: the shape checked, each item one the design's site may
 * use (its own or shared), so a job never reserves another site's stock.
 */
export async function checkStockUses(db: Db, siteId: number, value: unknown): Promise<StockUse[]> {
  const uses = parse(consumesSchema, value) as StockUse[];
  const repo = stockRepo(db);
  for (const [i, u] of uses.entries()) {
    const item = await repo.item(u.stockItemId);
    if (!item || (item.siteId !== null && item.siteId !== siteId)) throw fieldError(`consumes.${i}.stockItemId`, "is not one of this site's stock items");
  }
  return uses;
}
