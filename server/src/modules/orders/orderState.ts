// An order's status: the one place it moves. The table below declares every move an order may make
// and what makes it; moveOrder checks a move against it, writes the order's row and records the move
// in the history, in the caller's transaction. writeOrder is the row's other writer (data only).
import type { Knex } from 'knex';
import type { Db } from '../../db';
import { HttpError } from '../../http/errors';
import { fieldError } from '../../http/fieldErrors';
import { recordChange, type HistoryBy } from '../history';
import { NO_LINES, RECEIVED } from './shopify';
import { orderTablesRepo, type OrderPatch } from './tablesRepo';

/** The progress statuses, lowest first. */
export const PROGRESS = ['received', 'sent', 'dataready', 'printready', 'printed', 'shipped'] as const;
/** Side statuses: set whenever they come (unless the order is terminal). */
export const SIDE = ['cancelled', 'error', 'onhold'] as const;
/** Final: a late postback never moves a shipped or cancelled order back. */
export const TERMINAL = new Set(['shipped', 'cancelled']);
/** Every status an order's row may hold (`no-lines`: nothing to print, hidden from the list). */
export const STATUSES = [NO_LINES, ...PROGRESS, ...SIDE] as const;
export type OrderStatus = (typeof STATUSES)[number];

/** What moves an order. */
export const ORDER_EVENTS = {
  /** A new version of the order from the store (webhook or Sync from store). */
  store: 'store-update',
  /** HP Site Flow took a send of it. */
  providerSend: 'provider-send',
  /** HP Site Flow's postback said where it is. */
  postback: 'provider-postback',
  /** HP Site Flow confirmed our cancellation. */
  providerCancelled: 'provider-cancelled',
  /** The floor shipped its last lines (Mark shipped). */
  shippedInHouse: 'shipped-in-house',
} as const;
export type OrderEvent = (typeof ORDER_EVENTS)[keyof typeof ORDER_EVENTS];

export const progressRank = (s: string | null | undefined) => (s ? (PROGRESS as readonly string[]).indexOf(s) : -1);

/** `null`: an order not stored yet (or a status this table does not know, as a hand-made record may hold). */
type From = OrderStatus | null;
export interface OrderMove {
  event: OrderEvent;
  from: readonly From[];
  to: OrderStatus;
}

const notFinal: From[] = [null, ...STATUSES.filter((s) => !TERMINAL.has(s))];
const below = (to: OrderStatus): From[] => PROGRESS.filter((s) => progressRank(s) < progressRank(to));
/** A progress status is reached from lower ones, and from a side status or none (where the order resumes). */
const toProgress = (to: OrderStatus): From[] => [null, NO_LINES, 'error', 'onhold', ...below(to)];

/** Every move an order may make, and what makes it. A move not listed here is refused. */
export const ORDER_MOVES: readonly OrderMove[] = [
  // The store: before it was sent, an order gains or loses all its lines, or is cancelled.
  { event: ORDER_EVENTS.store, from: [null, NO_LINES], to: RECEIVED },
  { event: ORDER_EVENTS.store, from: [null, RECEIVED], to: NO_LINES },
  { event: ORDER_EVENTS.store, from: [null, NO_LINES, RECEIVED], to: 'cancelled' },
  // A send HP Site Flow took.
  { event: ORDER_EVENTS.providerSend, from: toProgress('sent'), to: 'sent' },
  // HP Site Flow's postbacks: progress only forward; a side status from anything not final.
  ...PROGRESS.map((to) => ({ event: ORDER_EVENTS.postback, from: toProgress(to), to })),
  ...SIDE.map((to) => ({ event: ORDER_EVENTS.postback, from: notFinal.filter((s) => s !== to), to })),
  { event: ORDER_EVENTS.providerCancelled, from: notFinal, to: 'cancelled' },
  { event: ORDER_EVENTS.shippedInHouse, from: notFinal, to: 'shipped' },
];

const knownStatus = (s: string | null | undefined): From => ((STATUSES as readonly string[]).includes(s ?? '') ? (s as OrderStatus) : null);

/** Is `from` → `to` a move `event` may make? */
export function mayMove(from: string | null | undefined, to: string, event: OrderEvent): boolean {
  const f = knownStatus(from);
  return ORDER_MOVES.some((m) => m.event === event && m.to === to && m.from.includes(f));
}

/** A move the table does not allow: a 409 saying which order, from what, to what, on what. */
export class OrderMoveRefused extends HttpError {
  constructor(
    readonly orderId: string,
    readonly from: string | null,
    readonly to: string,
    readonly event: OrderEvent,
  ) {
    super(409, `Order ${orderId} cannot move from ${from ?? 'nothing'} to ${to} on ${event}`, { from, to, event });
    this.name = 'OrderMoveRefused';
  }
}

/**
 * A hand edit of an order's record (the generic records API) is no move the table knows: a changed
 * data.status is refused, naming the field; the status sent back unchanged (an edit form saving the
 * whole record) is no change.
 */
export function refuseHandMove(current: string | null, data: Record<string, unknown> | undefined): void {
  const wanted = data?.status;
  if (typeof wanted !== 'string' || wanted === '' || wanted.slice(0, 32) === current) return;
  throw fieldError('data.status', `An order's status moves only with what happens to it (the store, HP Site Flow, Mark shipped), not by hand: it stays ${current ?? 'unset'}`);
}

/** Throws OrderMoveRefused unless the table allows the move. */
export function checkMove(orderId: string, from: string | null | undefined, to: string, event: OrderEvent): void {
  if (!mayMove(from, to, event)) throw new OrderMoveRefused(orderId, from ?? null, to, event);
}

/**
 * The order's next status when the provider's `incoming` word arrives, or null for "no change".
 * `reached` is the highest progress status the order has ever had (an order on hold or in error
 * resumes only at or past it). Every answer is a move ORDER_MOVES allows.
 */
export function nextOrderStatus(current: string | null | undefined, incoming: string, reached?: string | null): string | null {
  if (current && TERMINAL.has(current)) return null;
  if (incoming === current) return null;
  if ((SIDE as readonly string[]).includes(incoming)) return incoming;
  const rankIn = progressRank(incoming);
  if (rankIn < 0) return null;
  const rankCur = progressRank(current);
  if (rankCur >= 0) return rankIn > rankCur ? incoming : null;
  // current is a side status (error/onhold), unknown or empty.
  return rankIn >= progressRank(reached) ? incoming : null;
}

/** The highest progress status of two. */
export function highestProgress(a: string | null | undefined, b: string | null | undefined): string | null {
  const ra = progressRank(a);
  const rb = progressRank(b);
  if (ra < 0 && rb < 0) return null;
  return ra >= rb ? a! : b!;
}

/** The order being moved, as its caller read it (locked). */
export interface OrderAt {
  id: number;
  siteId: number;
  /** The store order id (the history's subject). */
  orderId: string;
  status: string | null;
}

export interface MoveHow {
  event: OrderEvent;
  at: string;
  by: HistoryBy;
  reason?: string | null;
  /** The history's action (default `status`); `false`: the caller records the change itself, with what else changed. */
  action?: string | false;
  /** What else the row takes with the move (its data, times, name). */
  patch?: Omit<OrderPatch, 'status' | 'updatedAt'>;
}

/**
 * Moves the order to `to` (null or its current status: no move, the patch alone is written): checked
 * against ORDER_MOVES (OrderMoveRefused, nothing written), written, and recorded in the history.
 * Answers whether the status moved.
 */
export async function moveOrder(trx: Knex.Transaction, order: OrderAt, to: string | null, how: MoveHow): Promise<boolean> {
  const moves = to !== null && to !== order.status;
  if (moves) checkMove(order.orderId, order.status, to, how.event);
  const patch: OrderPatch = { ...how.patch, updatedAt: how.at };
  if (moves) {
    patch.status = to;
    if (patch.data) patch.data = { ...patch.data, status: to };
  }
  await orderTablesRepo(trx).updateOrder(order.id, patch);
  if (moves && how.action !== false) {
    await recordChange(trx, { at: how.at, siteId: order.siteId, kind: 'order', subjectId: order.orderId, by: how.by, action: how.action ?? 'status', from: order.status, to, reason: how.reason ?? null });
  }
  return moves;
}

/** Writes what the order carries beyond its status (a CRM id, a redaction): never moves it. */
export async function writeOrder(trx: Db | Knex.Transaction, id: number, patch: Omit<OrderPatch, 'status'>): Promise<void> {
  await orderTablesRepo(trx).updateOrder(id, patch);
}
