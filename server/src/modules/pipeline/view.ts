// What Check order shows of an order's pipeline: each step's state, from its newest row, or from
// the site's settings and the order when no row was written.
import { PIPELINE_STEPS, type OrderPipeline, type PipelineStep, type PipelineStepView } from '../../../../common/api/pipeline';
import type { Db } from '../../db';
import type { StoreOrder } from '../fulfilment';
import type { OutboxRow } from '../fulfilment';
import type { DataRecord } from '../general-data';
import { ORDER_UNPAID, printHold } from '../orders';
import type { Site } from '../sites';
import type { Config } from '../../config';
import { ecardDesignProblem, ecardOf } from './ecard';
import { ecardLinesOf } from './ecardLines';
import { pipelineRepo, type PipelinePayload } from './repo';
import { pipelineSettingsOf, problemFor } from './settings';

const str = (v: unknown) => (typeof v === 'string' && v !== '' ? v : null);

export function stepViewOf(row: OutboxRow): PipelineStepView {
  const p = row.payload as PipelinePayload;
  const r = (row.result ?? {}) as Record<string, unknown>;
  const notNeeded = str(r.notNeeded);
  const state = row.status === 'pending' ? 'queued' : row.status === 'failed' ? 'failed' : notNeeded ? 'not-needed' : 'done';
  return {
    step: p.step,
    lineId: p.lineId ?? null,
    state,
    message: state === 'not-needed' ? notNeeded : row.error,
    ref: str(r.ref),
    link: str(r.link),
    recipient: str(r.recipient),
    at: state === 'queued' ? null : (str(r.doneAt) ?? str(r.failedAt) ?? row.updatedAt),
    nextAttemptAt: state === 'queued' ? row.nextAttemptAt : null,
    attempts: row.attempts,
    outboxId: row.id,
  };
}

const empty = (step: PipelineStep, lineId: string | null, state: PipelineStepView['state'], message: string | null, recipient: string | null = null): PipelineStepView => ({
  step,
  lineId,
  state,
  message,
  ref: null,
  link: null,
  recipient,
  at: null,
  nextAttemptAt: null,
  attempts: 0,
  outboxId: null,
});

export async function orderPipelineOf(db: Db, config: Pick<Config, 'sync'>, site: Site, order: DataRecord<StoreOrder>, admin = false): Promise<OrderPipeline> {
  const orderId = String(order.field1);
  const settings = pipelineSettingsOf(site, config);
  const rows = await pipelineRepo(db).ofOrder(site.id, orderId);
  const newest = (step: PipelineStep, lineId: string | null) => rows.filter((r) => (r.payload as PipelinePayload).step === step && ((r.payload as PipelinePayload).lineId ?? null) === lineId).at(-1);
  const hold = printHold(order.data, 'paid');
  /** A step with no row: why not. */
  const idle = (step: PipelineStep, lineId: string | null, recipient: string | null = null): PipelineStepView => {
    const s = settings.steps[step];
    if (s.problem) return { ...empty(step, lineId, 'not-configured', problemFor(s, admin), recipient), ...(admin ? { settingsLink: `/sites/${site.id}` } : {}) };
    if (hold?.code === ORDER_UNPAID) return empty(step, lineId, s.auto ? 'waiting-for-payment' : 'off', s.auto ? `${hold.message}: runs once it is paid` : 'Not run automatically on this site: Re-run runs it', recipient);
    if (hold) return empty(step, lineId, 'not-needed', hold.message, recipient);
    return empty(step, lineId, 'off', s.auto ? 'Not queued (the order came in before the step was switched on): Re-run runs it' : 'Not run automatically on this site: Re-run runs it', recipient);
  };
  const steps: PipelineStepView[] = [];
  for (const step of PIPELINE_STEPS) {
    const ran = rows.some((r) => (r.payload as PipelinePayload).step === step);
    if (step !== 'sendEcard') {
      // A step the site does not have (and never ran for this order) is not the order's.
      if (!settings.steps[step].onSite && !ran) continue;
      const row = newest(step, null);
      steps.push(row ? stepViewOf(row) : idle(step, null));
      continue;
    }
    const lines = await ecardLinesOf(db, site.id, order.data);
    // An order with an e-card line has the step even where the site lacks it: its e-card waits on it.
    if (!settings.steps[step].onSite && !ran && !lines.length) continue;
    const lineIds = [...new Set([...lines.map((l) => l.lineId), ...rows.filter((r) => (r.payload as PipelinePayload).step === step).map((r) => String((r.payload as PipelinePayload).lineId))])];
    if (!lineIds.length) steps.push(empty(step, null, 'not-needed', 'The order has no e-card line'));
    for (const lineId of lineIds) {
      const row = newest(step, lineId);
      const line = lines.find((l) => l.lineId === lineId);
      const details = line ? ecardOf(line.line) : undefined;
      const recipient = details?.ok ? details.ecard.recipientEmail : null;
      // A design with nothing to send (no document, no picture) is said before anything is queued.
      const designProblem = line && !row ? ecardDesignProblem(line.design) : undefined;
      if (designProblem) steps.push(empty(step, lineId, 'not-configured', designProblem, recipient));
      else steps.push(row ? { ...stepViewOf(row), recipient: stepViewOf(row).recipient ?? recipient } : idle(step, lineId, recipient));
    }
  }
  return { orderId, siteId: site.id, steps };
}
