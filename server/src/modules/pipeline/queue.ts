// Queuing the pipeline of an order: on a paid order (in the transaction that stores it) each step
// the site runs automatically is queued once, the e-cards at their send date; an operator's Re-run
// runs the chosen steps now and reports each result.
import type { Knex } from 'knex';
import { PIPELINE_STEPS, type PipelineStep } from '../../../../common/api/pipeline';
import type { RerunResult } from '../../../../common/api/orders';
import type { Config } from '../../config';
import { dayIn, nextRunAt } from '../../lib/time';
import { nowIso, outboxRowById } from '../fulfilment';
import type { OutboxRow } from '../fulfilment';
import type { DataRecord } from '../general-data';
import { printHold, type HeldOrder } from '../orders';
import type { StoreLineItem, StoreOrder } from '../fulfilment';

/** What queuing reads of a stored order: its payment, cancellation and lines. */
export type PaidOrder = HeldOrder & { id: string | number; line_items?: StoreLineItem[] };
import type { Site } from '../sites';
import { claimAndAttempt, type StepRunner } from './attempt';
import type { PipelineContext } from './context';
import { ecardOf } from './ecard';
import { ecardLinesOf } from './ecardLines';
import { pipelineRepo, type PipelinePayload } from './repo';
import { pipelineIsOn, pipelineSettingsOf, problemFor } from './settings';

/** The hour (in SYNC_TIMEZONE) e-cards with a send date go out on that day. */
export const ECARD_SEND_HOUR = 8;

/** When an e-card with this send date goes: 08:00 that day where the charity is, or now when that has passed. */
export function ecardDueAt(sendDate: string | null, timeZone: string, now: Date): Date {
  if (!sendDate || sendDate <= dayIn(now, timeZone)) return now;
  let at = nextRunAt(ECARD_SEND_HOUR, timeZone, new Date(Date.parse(`${sendDate}T00:00:00Z`) - 14 * 3600_000));
  while (dayIn(at, timeZone) < sendDate) at = nextRunAt(ECARD_SEND_HOUR, timeZone, at);
  return at > now ? at : now;
}

/**
 * In the caller's transaction: queue each automatic step of a paid, not cancelled order, once (the
 * dedupe key holds whatever is redelivered). Unpaid orders wait for the delivery that pays them.
 */
export async function queueOrderPipeline(trx: Knex.Transaction, config: Pick<Config, 'sync'>, site: Site | undefined, order: PaidOrder, now: Date): Promise<number> {
  if (!site || !pipelineIsOn(site) || printHold(order, 'paid')) return 0;
  const settings = pipelineSettingsOf(site, config);
  const at = now.toISOString();
  const repo = pipelineRepo(trx);
  const base = { siteId: site.id, orderId: String(order.id), actorId: null, rerun: false };
  let queued = 0;
  for (const step of PIPELINE_STEPS) {
    const s = settings.steps[step];
    if (!s.auto || s.problem) continue;
    if (step !== 'sendEcard') {
      await repo.enqueueOnce({ ...base, step, lineId: null }, at);
      queued++;
      continue;
    }
    for (const e of await ecardLinesOf(trx, site.id, order)) {
      const details = ecardOf(e.line);
      const due = ecardDueAt(details.ok ? details.ecard.sendDate : null, config.sync.timezone, now).toISOString();
      await repo.enqueueOnce({ ...base, step, lineId: e.lineId }, at, due);
      queued++;
    }
  }
  return queued;
}

export type RerunStep = 'addToAdestra' | 'addToRaisersEdge' | 'sendEcard';

/**
 * Re-run of pipeline steps on purpose: each chosen step runs now — a row still waiting (an e-card
 * before its date) is brought forward, a failed one tried again, a finished one run again in a row of
 * its own — and its outcome is reported: ran, failed (with the service's message), or skipped (why).
 */
export async function rerunPipeline(
  ctx: PipelineContext,
  runners: Record<PipelineStep, StepRunner>,
  order: DataRecord<StoreOrder>,
  site: Site,
  steps: RerunStep[],
  actorId: number,
  admin = false,
): Promise<Omit<RerunResult, 'ran'> & { ran: string[] }> {
  const out: RerunResult = { ran: [], skipped: [], failed: [] };
  const settings = pipelineSettingsOf(site, ctx.config);
  const orderId = String(order.field1);
  const hold = printHold(order.data, 'paid');
  const repo = pipelineRepo(ctx.db);
  for (const step of PIPELINE_STEPS.filter((s) => steps.includes(s))) {
    const problem = problemFor(settings.steps[step], admin);
    if (problem) {
      out.skipped.push({ step, reason: problem });
      continue;
    }
    if (hold) {
      out.skipped.push({ step, reason: hold.message });
      continue;
    }
    const lines: Array<string | null> = step === 'sendEcard' ? (await ecardLinesOf(ctx.db, site.id, order.data)).map((e) => e.lineId) : [null];
    if (!lines.length) {
      out.skipped.push({ step, reason: 'The order has no e-card line' });
      continue;
    }
    const rows = await repo.ofOrder(site.id, orderId);
    const results: OutboxRow[] = [];
    for (const lineId of lines) {
      const latest = rows.filter((r) => (r.payload as PipelinePayload).step === step && ((r.payload as PipelinePayload).lineId ?? null) === lineId).at(-1);
      let row: OutboxRow;
      if (latest?.status === 'pending') row = latest;
      else if (latest?.status === 'failed' && (await repo.retryFailed(latest.id, nowIso(ctx)))) row = (await outboxRowById(ctx.db, latest.id))!;
      else row = await repo.enqueueAgain({ siteId: site.id, orderId, step, lineId, actorId, rerun: true }, nowIso(ctx));
      results.push((await claimAndAttempt(ctx, row.id, true, runners)) ?? (await outboxRowById(ctx.db, row.id))!);
    }
    const failed = results.filter((r) => r.status === 'failed');
    const waiting = results.filter((r) => r.status === 'pending');
    const notNeeded = results.map((r) => (r.status === 'sent' ? (r.result as { notNeeded?: string } | null)?.notNeeded : undefined));
    const label = (r: OutboxRow) => (lines.length > 1 ? `line ${(r.payload as PipelinePayload).lineId}: ` : '');
    if (failed.length) out.failed.push({ step, error: failed.map((r) => `${label(r)}${r.error}`).join('; ') });
    else if (waiting.length) out.failed.push({ step, error: waiting.map((r) => `${label(r)}${r.error ?? 'another instance is running it'}`).join('; '), retrying: true });
    // Nothing was left to do (a line removed in the store since): said, not counted as done.
    else if (notNeeded.every(Boolean)) out.skipped.push({ step, reason: notNeeded.join('; ') });
    else out.ran.push(step);
  }
  return out;
}

export { pipelineIsOn };
