// Whether a store order may be printed or sent at all, before any line is looked at: a cancelled
// order never is; an unpaid one waits for its payment when the site says SHOPIFY_SEND_WHEN=paid
// (the default) — automatic sending holds it, and an operator's send asks first.
import { HttpError } from '../../http/errors';
import { isPaid, type Cancellation } from './shopify';
import type { SendWhen } from './webhookSites';

/** 409 details codes: the order was cancelled in the store (refused) / is not paid yet (asked). */
export const ORDER_CANCELLED = 'ORDER_CANCELLED';
export const ORDER_UNPAID = 'ORDER_UNPAID';

/** What a hold reads of an order's record data. */
export interface HeldOrder {
  financial_status?: unknown;
  cancelled?: Cancellation | null;
  [k: string]: unknown;
}

export type PrintHold = { code: typeof ORDER_CANCELLED | typeof ORDER_UNPAID; message: string };

const cancelledMessage = (c: Cancellation) => `The order was cancelled in the store${c.reason ? ` (${c.reason})` : ''}`;

/** Why the order must not go to print or to the provider now (undefined: it may). */
export function printHold(order: HeldOrder, sendWhen: SendWhen): PrintHold | undefined {
  if (order.cancelled) return { code: ORDER_CANCELLED, message: `${cancelledMessage(order.cancelled)}: it is not printed or sent` };
  // An order that says nothing of its payment (imported from the old system) is not held: Shopify
  // always says it, so only such records lack it.
  const said = typeof order.financial_status === 'string' && order.financial_status !== '';
  if (sendWhen === 'paid' && said && !isPaid(order)) return { code: ORDER_UNPAID, message: `The order is not paid yet (payment status: ${order.financial_status})` };
  return undefined;
}

/** Why a job of this order leaves the queue (a cancelled order), or null. */
export const cancelledJobReason = (order: HeldOrder) => (order.cancelled ? cancelledMessage(order.cancelled) : null);

/**
 * An operator's send: a cancelled order is refused; an unpaid one is asked about first (409 with
 * `confirmWith: {sendUnpaid: true}`), and goes on the yes.
 */
export function assertOperatorMaySend(order: HeldOrder, sendWhen: SendWhen, sendUnpaid: boolean): void {
  const hold = printHold(order, sendWhen);
  if (!hold) return;
  if (hold.code === ORDER_CANCELLED) throw new HttpError(409, hold.message, { code: ORDER_CANCELLED, cancelled: order.cancelled });
  if (sendUnpaid) return;
  throw new HttpError(409, `${hold.message}. Send it to HP Site Flow anyway?`, { code: ORDER_UNPAID, financialStatus: order.financial_status ?? null, confirmWith: { sendUnpaid: true } });
}
