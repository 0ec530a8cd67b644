// One attempt of a claimed pipeline row: the order and site read fresh, the step run, and its
// outcome written only while the row is still ours (pending): done, not needed, failed (an
// operator looks), or tried again later with backoff (the service did not answer, throttled, 4xx
// of a mail server).
import { IntegrationError } from '../../integrations/crmHttp';
import { MailError } from '../../integrations/mailer';
import { HttpError } from '../../http/errors';
import { later, nowIso, claimOutboxRow, markOutboxFailed, markOutboxSent, outboxRowById, rescheduleOutboxRow } from '../fulfilment';
import type { OutboxRow, StoreOrder } from '../fulfilment';
import type { DataRecord } from '../general-data';
import { orderRecordOf } from '../orders';
import { type Site, findSite } from '../sites';
import type { PipelineContext } from './context';
import { pipelineRepo, type PipelinePayload } from './repo';
import { pipelineSettingsOf, type PipelineSettings } from './settings';
import { buyerOf, type Buyer } from './buyer';
import { printHold } from '../orders';

/** What a step keeps on its row as it goes, and at the end. */
export type StepResult = Record<string, unknown>;

export type StepOutcome =
  | { done: StepResult }
  /** Nothing to do any more (the order was cancelled, the line removed): shown as not needed. */
  | { notNeeded: string }
  | { failed: string; details?: StepResult }
  | { retry: string };

export interface StepJob {
  row: OutboxRow;
  payload: PipelinePayload;
  site: Site;
  order: DataRecord<StoreOrder>;
  settings: PipelineSettings;
  /** What earlier attempts of this row kept (a retry after a crash continues from it). */
  previous: StepResult;
  /** Keeps progress on the row before the next outside call (never lost to a crash after it). */
  progress(patch: StepResult): Promise<void>;
}

export type StepRunner = (ctx: PipelineContext, job: StepJob) => Promise<StepOutcome>;

/**
 * How a step that adds the buyer somewhere (the CRM, the email platform) starts: an order not paid
 * (or cancelled) needs nothing; one without a buyer e-mail fails with `noEmail`; else the buyer.
 */
export function buyerToAdd(order: DataRecord<StoreOrder>, noEmail: string): { buyer: Buyer & { email: string } } | { outcome: StepOutcome } {
  const hold = printHold(order.data, 'paid');
  if (hold) return { outcome: { notNeeded: `${hold.message}: the buyer was not added` } };
  const buyer = buyerOf(order.data as Record<string, unknown>);
  if (!buyer.email) return { outcome: { failed: noEmail } };
  return { buyer: { ...buyer, email: buyer.email } };
}

/** Whether a failure can succeed later: no answer, throttled, quota, the service's 5xx, a mail server's 4xx. */
export function isTemporary(err: unknown): boolean {
  if (err instanceof IntegrationError) {
    if (['network', 'timeout', 'rate-limited', 'quota'].includes(err.kind)) return true;
    return err.kind === 'http' && ((err.info.status ?? 0) === 0 || (err.info.status ?? 0) >= 500 || err.info.status === 429);
  }
  if (err instanceof MailError) return err.kind === 'temporary';
  // A render that cannot be drawn (the design is wrong) will not draw on the next try either.
  if (err instanceof HttpError) return err.status >= 500;
  // Not a service's answer (a bug, a dropped connection below the client): tried again, never lost.
  return true;
}

/** The service's own message, for the order's screen. */
const messageOf = (err: unknown): string => (err as Error | null)?.message || 'The step failed';

export async function attemptStep(ctx: PipelineContext, row: OutboxRow, runners: Record<PipelinePayload['step'], StepRunner>): Promise<OutboxRow> {
  const p = row.payload as PipelinePayload;
  const repo = pipelineRepo(ctx.db);
  const previous = { ...((row.result ?? {}) as StepResult) };
  const reread = async () => (await outboxRowById(ctx.db, row.id))!;
  const write = async (outcome: StepOutcome): Promise<OutboxRow> => {
    if ('done' in outcome) await markOutboxSent(ctx.db, row.id, { ...previous, ...outcome.done, doneAt: nowIso(ctx) }, nowIso(ctx));
    else if ('notNeeded' in outcome) await markOutboxSent(ctx.db, row.id, { ...previous, notNeeded: outcome.notNeeded, doneAt: nowIso(ctx) }, nowIso(ctx));
    else if ('failed' in outcome) await markOutboxFailed(ctx.db, row.id, outcome.failed, { ...previous, ...outcome.details, failedAt: nowIso(ctx) }, nowIso(ctx));
    else if (row.attempts >= ctx.options.maxAttempts) await markOutboxFailed(ctx.db, row.id, `${outcome.retry} (gave up after ${row.attempts} attempts)`, { ...previous, failedAt: nowIso(ctx) }, nowIso(ctx));
    else {
      const cap = Math.min(ctx.options.backoff.maxMs, ctx.options.backoff.baseMs * 2 ** Math.max(0, row.attempts - 1));
      await rescheduleOutboxRow(ctx.db, row.id, outcome.retry, previous, later(ctx, Math.floor(cap / 2 + (Math.random() * cap) / 2)), nowIso(ctx));
    }
    return reread();
  };

  const site = await findSite(ctx.db, p.siteId);
  if (!site) return write({ failed: 'The site of this order no longer exists' });
  const order = (await orderRecordOf(ctx.db, p.siteId, p.orderId)) as DataRecord<StoreOrder> | undefined;
  if (!order) return write({ failed: `The order ${p.orderId} is no longer in Presswork` });
  const settings = pipelineSettingsOf(site, ctx.config);
  const problem = settings.steps[p.step].problem;
  if (problem) return write({ failed: `This step is ${problem}` });
  const job: StepJob = {
    row,
    payload: p,
    site,
    order,
    settings,
    previous,
    progress: async (patch) => {
      Object.assign(previous, patch);
      await repo.noteProgress(row.id, previous, nowIso(ctx));
    },
  };
  try {
    const outcome = await runners[p.step](ctx, job);
    await ctx.hooks?.afterCall?.({ step: p.step, outboxId: row.id });
    return await write(outcome);
  } catch (err) {
    const message = messageOf(err);
    if (!isTemporary(err)) return write({ failed: message });
    if (!(err instanceof IntegrationError || err instanceof MailError)) ctx.log.error({ err, outboxId: row.id, step: p.step }, 'pipeline step failed unexpectedly');
    return write({ retry: message });
  }
}

/** A claimed row's attempt now, or the row as it is when another holds it. */
export async function claimAndAttempt(ctx: PipelineContext, id: number, force: boolean, runners: Record<PipelinePayload['step'], StepRunner>): Promise<OutboxRow | undefined> {
  const row = await claimOutboxRow(ctx.db, id, nowIso(ctx), later(ctx, ctx.options.leaseMs), force);
  return row ? attemptStep(ctx, row, runners) : undefined;
}
