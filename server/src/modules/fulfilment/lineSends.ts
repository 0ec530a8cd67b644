// A line is in one provider order only: the whole order's or its own. These rules say when a send
// may be at the provider already, so that neither kind of send prints a line a second time.
import type { Knex } from 'knex';
import type { Db } from '../../db';
import { linesOfSend, outboxRepo, type OutboxRow } from './outbox';

/** Line send refused: the whole order's failed send may be at HP all the same. */
export const MAYBE_AT_PROVIDER_WHOLE =
  'HP Site Flow may already have this order: a send of the whole order got no answer before it failed. Send the whole order again (HP refuses a repeat, so nothing prints twice) instead of this line on its own';

/** A row whose calls all failed, but one went unanswered (timeout, lost connection, 5xx), is carried in its result. */
function wasUnanswered(row: OutboxRow): boolean {
  return (row.result as { unanswered?: unknown } | null)?.unanswered === true;
}

/** Sent, still going, or failed after an unanswered call: the provider may hold it. */
export function mayBeAtProvider(row: OutboxRow): boolean {
  return row.status !== 'failed' || wasUnanswered(row);
}

/** The details stored with a failed attempt, keeping "a call went unanswered" from earlier attempts. */
export function withUnanswered(row: OutboxRow, details: unknown, unanswered: boolean): unknown {
  const base = details && typeof details === 'object' && !Array.isArray(details) ? (details as Record<string, unknown>) : details == null ? {} : { details };
  return unanswered || wasUnanswered(row) ? { ...base, unanswered: true } : (details ?? null);
}

/** Single-line sends of an order that the provider may hold. */
export async function lineSendsAtProvider(db: Db | Knex.Transaction, siteId: number, orderId: string): Promise<OutboxRow[]> {
  return (await outboxRepo(db).lineRowsOf(siteId, orderId)).filter(mayBeAtProvider);
}

/**
 * Lines of an order with a single-line send that is sent, still going, or failed after a call whose
 * answer never came (HP may have it): a whole-order send must leave them out. Answers line id → why.
 */
export async function linesSentOnTheirOwn(db: Db | Knex.Transaction, siteId: number, orderId: string): Promise<Map<string, string>> {
  const rows = await lineSendsAtProvider(db, siteId, orderId);
  return new Map(rows.flatMap((r) => (linesOfSend(r.payload) ?? []).map((id) => [id, r.status === 'failed' ? 'its own send got no answer, so HP may have it: send the line again on its own' : 'sent on its own (send-hp-single-line)'] as const)));
}
