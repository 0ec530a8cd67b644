// What the history keeps of a store order's change: stored, paid, cancelled, and its status moving
// (the provider's progress, Mark shipped). Decided by one pure function, recorded in the caller's
// transaction.
import type { Knex } from 'knex';
import { recordChanges, type ChangeEntry, type HistoryBy } from '../history';
import { isPaid, type OrderData } from './shopify';

export interface OrderChange {
  action: 'stored' | 'paid' | 'cancelled' | 'status';
  from: string | null;
  to: string | null;
  reason: string | null;
}

const str = (v: unknown) => (typeof v === 'string' && v !== '' ? v : null);

/** The entries a change of the order from `before` (undefined: new) to `after` makes. */
export function orderChanges(before: Partial<OrderData> | undefined, after: Partial<OrderData>): OrderChange[] {
  const status = str(after.status);
  if (!before) return [{ action: 'stored', from: null, to: status, reason: str(after.financial_status) && `payment ${str(after.financial_status)}` }];
  const out: OrderChange[] = [];
  if (isPaid(after) && !isPaid(before)) out.push({ action: 'paid', from: str(before.financial_status), to: str(after.financial_status), reason: null });
  if (after.cancelled && !before.cancelled) out.push({ action: 'cancelled', from: str(before.status), to: status, reason: after.cancelled.reason ?? null });
  else if (status !== str(before.status)) out.push({ action: 'status', from: str(before.status), to: status, reason: null });
  return out;
}

/** Records the order's entries (none when nothing the history tells of changed). */
export async function recordOrderChanges(
  trx: Knex.Transaction,
  order: { siteId: number; orderId: string; at: string; by: HistoryBy; reason?: string | null },
  before: Partial<OrderData> | undefined,
  after: Partial<OrderData>,
): Promise<void> {
  await recordManyOrderChanges(trx, [{ order, before, after }]);
}

/** Several orders' entries in one statement (a batch of store webhooks). */
export async function recordManyOrderChanges(
  trx: Knex.Transaction,
  changes: Array<{ order: { siteId: number; orderId: string; at: string; by: HistoryBy; reason?: string | null }; before: Partial<OrderData> | undefined; after: Partial<OrderData> }>,
): Promise<void> {
  const entries: ChangeEntry[] = changes.flatMap(({ order, before, after }) =>
    orderChanges(before, after).map((c) => ({ at: order.at, siteId: order.siteId, kind: 'order' as const, subjectId: order.orderId, by: order.by, action: c.action, from: c.from, to: c.to, reason: c.reason ?? order.reason ?? null })),
  );
  if (entries.length) await recordChanges(trx, entries);
}
