// The waits of an order's lines: started when the order may first be made (paid, or created on a
// SHOPIFY_SEND_WHEN=created site), read by production's routing, moved on by the release workflow.
import type { Knex } from 'knex';
import type { Db } from '../../db';
import { recordChange, AUTOMATIC } from '../history';
import { unitsToMake } from '../../../../common/api/units';
import type { DesignProof } from '../../../../common/api/printProduction';
import { waitsRepo } from './repo';
import { waitFor, waitingOf, waitingReason, type LineWait, type LineWaiting, type WaitSettings } from './waiting';

type Trx = Db | Knex.Transaction;

/** The lines of an order as waiting reads them. */
export interface WaitingOrder {
  id: string;
  line_items?: Array<{ id: string | number; quantity?: number | string | null; current_quantity?: number | string | null; properties?: Array<{ name: string; value: unknown }> | null }>;
}

/**
 * The order may be made from now on: each line that the site's settings make wait gets its wait
 * (a line that has one keeps it), and the order's history says until when. Answers how many new
 * waits, and what the order now waits for when it did not wait before (the history's sentence).
 */
export async function startWaits(trx: Trx, input: { siteId: number; order: WaitingOrder; settings: WaitSettings; now: Date; timeZone: string; designProofs?: ReadonlyMap<string, DesignProof | null> }): Promise<{ count: number; waiting: string | null }> {
  const { siteId, order, settings, now, timeZone } = input;
  // The lines that wait (the site's settings, each line's design), decided first: when none do,
  // nothing is read (a site without a change window or proofs pays no query per order in a burst).
  const toWait = [];
  for (const line of order.line_items ?? []) {
    if (unitsToMake(line) === 0) continue;
    const lineId = String(line.id);
    const wait = waitFor(settings, line, now, timeZone, input.designProofs?.get(lineId) ?? null);
    if (wait) toWait.push({ lineId, wait });
  }
  if (!toWait.length) return { count: 0, waiting: null };
  const repo = waitsRepo(trx);
  const existing = await repo.ofOrder(siteId, String(order.id));
  const have = new Set(existing.map((w) => w.lineId));
  // A line added during the window waits as long as the order's other lines do.
  const windowOfOrder = existing.find((w) => w.holdUntil)?.holdUntil ?? null;
  const at = now.toISOString();
  const rows = [];
  for (const { lineId, wait } of toWait) {
    if (have.has(lineId)) continue;
    const holdUntil = wait.holdUntil ? (windowOfOrder ?? wait.holdUntil) : null;
    rows.push({ siteId, orderId: String(order.id), lineId, state: holdUntil ? ('hold' as const) : ('proof-due' as const), holdUntil, proofNeeded: wait.proofNeeded, at });
  }
  await repo.insert(rows);
  const first = rows[0];
  let waiting: string | null = null;
  if (first && !windowOfOrder) {
    const w: LineWaiting = first.holdUntil ? { until: first.holdUntil, reason: 'hold' } : { until: null, reason: 'proof' };
    waiting = waitingReason(w, timeZone);
    await recordChange(trx, { at, siteId, kind: 'order', subjectId: String(order.id), by: { automatic: AUTOMATIC.presswork }, action: 'waiting', to: waiting });
  }
  return { count: rows.length, waiting };
}

/** Each waiting line of an order: its wait by line id (lines that wait for nothing are absent). */
export async function waitingLines(trx: Trx, siteId: number, orderId: string, settings: Pick<WaitSettings, 'autoApproveHours'>): Promise<Map<string, LineWaiting>> {
  const out = new Map<string, LineWaiting>();
  for (const w of await waitsRepo(trx).ofOrder(siteId, orderId)) {
    const waiting = waitingOf(w, settings);
    if (waiting) out.set(w.lineId, waiting);
  }
  return out;
}

export const waitsOfOrder = (trx: Trx, siteId: number, orderId: string): Promise<LineWait[]> => waitsRepo(trx).ofOrder(siteId, orderId);
export const waitById = (trx: Trx, id: number) => waitsRepo(trx).byId(id);
export const moveWait = (trx: Trx, ...args: Parameters<ReturnType<typeof waitsRepo>['move']>) => waitsRepo(trx).move(...args);
export const markWaitOnce = (trx: Trx, ...args: Parameters<ReturnType<typeof waitsRepo>['setOnce']>) => waitsRepo(trx).setOnce(...args);
export const holdsEnded = (trx: Trx, now: string) => waitsRepo(trx).holdsEnded(now);
export const waitsInState = (trx: Trx, state: LineWait['state']) => waitsRepo(trx).inState(state);
export const changesAsked = (trx: Trx, siteId: number | undefined, limit: number) => waitsRepo(trx).changesAsked(siteId, limit);

/**
 * Listed orders (List Orders): what each still waits for, as one sentence per order (the change
 * window first, it ends by itself), by "<site id>\n<order id>"; orders that wait for nothing are absent.
 */
export async function waitingOfOrders(trx: Trx, orders: Array<{ siteId: number; orderId: string }>, timeZone: string): Promise<Map<string, LineWaiting & { sentence: string }>> {
  const bySite = new Map<number, string[]>();
  for (const o of orders) bySite.set(o.siteId, [...(bySite.get(o.siteId) ?? []), o.orderId]);
  const out = new Map<string, LineWaiting & { sentence: string }>();
  for (const [siteId, ids] of bySite) {
    for (const w of await waitsRepo(trx).ofOrdersIn(siteId, [...new Set(ids)], ['hold', 'proof-due', 'proof', 'change'])) {
      const waiting = waitingOf(w, { autoApproveHours: null });
      const key = `${siteId}\n${w.orderId}`;
      if (!waiting || (out.has(key) && out.get(key)!.reason === 'hold')) continue;
      out.set(key, { ...waiting, sentence: waitingReason(waiting, timeZone) });
    }
  }
  return out;
}
