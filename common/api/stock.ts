// Stock of blanks (GET/POST /api/stock-items): what an item is, its movements, and how much of it
// a job of some units takes. Shared by the server (the rules) and the admin (Setup → Stock, the
// design's Consumes editor).
import type { RecordId } from './envelope';

export interface StockItem {
  id: RecordId;
  /** null: shared by the whole instance (admins manage it; every site's jobs may use it). */
  siteId: RecordId | null;
  name: string;
  unit: string;
  onHand: number;
  reserved: number;
  /** onHand − reserved: what new jobs may still reserve (below zero only after a count found less than is reserved). */
  available: number;
  reorderPoint: number;
  reorderQuantity: number;
  supplierNote: string | null;
}

export const MOVEMENT_KINDS = ['receive', 'count', 'reserve', 'release', 'consume', 'waste'] as const;
export type MovementKind = (typeof MOVEMENT_KINDS)[number];

export interface StockMovement {
  id: RecordId;
  itemId: RecordId;
  kind: MovementKind;
  /** The change: to on hand (receive, count, consume, waste) or to reserved (reserve, release). */
  quantity: number;
  onHandAfter: number;
  reservedAfter: number;
  jobId: RecordId | null;
  note: string | null;
  byUserId: RecordId | null;
  /** Who: a person's name, or "Presswork" for what the queue did by itself. */
  byName: string | null;
  at: string;
}

/** A design's `data.consumes`: what one unit made of it takes off the shelf. */
export interface StockUse {
  stockItemId: RecordId;
  /** May be a fraction: ½ a sublimation sheet for a mug printed two-up. */
  perUnit: number;
}

/**
 * How many of an item a job of `units` takes: perUnit × units, rounded UP to whole units per job
 * (three mugs at ½ a sheet take 2 sheets: the half sheet left is cut off and thrown away).
 * Rounded to millionths first, so 1.1 × 10 is 11, not 12.
 */
export function stockNeeded(perUnit: number, units: number): number {
  if (!(perUnit > 0) || !(units > 0)) return 0;
  return Math.ceil(Math.round(perUnit * units * 1e6) / 1e6);
}

/** The hold of a job the stock cannot cover: "out of stock: Mugs (short by 3)". */
export function outOfStockReason(short: ReadonlyArray<{ name: string; shortBy: number }>): string {
  return `out of stock: ${short.map((s) => `${s.name} (short by ${s.shortBy})`).join(', ')}`;
}

/** Days an item lasts at a daily use (null: nothing used lately, so no forecast). */
export function daysOfStockLeft(available: number, perDay: number): number | null {
  if (!(perDay > 0)) return null;
  return Math.max(0, Math.floor(available / perDay));
}

/** The window the use rate is measured over. */
export const STOCK_RATE_DAYS = 14;

/** How long an item lasts, in words (Needs attention and Home say it alike); `daysLeft` from daysOfStockLeft. */
export function stockLastsWords(daysLeft: number | null): string {
  return daysLeft === null ? `none used in the last ${STOCK_RATE_DAYS} days` : `lasts about ${daysLeft} day${daysLeft === 1 ? '' : 's'} at the last ${STOCK_RATE_DAYS} days' use`;
}

/** GET /api/stock-items/low: an item at or under its reorder point, its use per day over the last 14 days, and the days it lasts (null: not used lately). */
export interface LowStockItem {
  item: StockItem;
  usedPerDay: number;
  daysLeft: number | null;
}

/** details.code of the 409 that refuses to print a job waiting for stock. */
export const OUT_OF_STOCK_CODE = 'OUT_OF_STOCK';

/** A design's `data.consumes` as stored, read leniently: entries that are not {stockItemId, perUnit > 0} count for nothing. */
export function stockUsesOf(data: { consumes?: unknown } | null | undefined): StockUse[] {
  const list = Array.isArray(data?.consumes) ? (data.consumes as unknown[]) : [];
  return list.flatMap((u) => {
    const id = Number((u as StockUse | null)?.stockItemId);
    const perUnit = Number((u as StockUse | null)?.perUnit);
    return Number.isInteger(id) && id > 0 && perUnit > 0 ? [{ stockItemId: id, perUnit }] : [];
  });
}
