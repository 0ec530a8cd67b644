// The charity's order pipeline: each step of each order an outbox row, run by a worker under a
// lease (exactly once per order across retries, crashes and instances), re-run on purpose from
// Check order, and shown there step by step.
import type { Knex } from 'knex';
import type { PipelineStep } from '../../../../common/api/pipeline';
import type { Actor } from '../../http/types';
import { isAdmin } from '../auth';
import { later, nowIso, claimOutboxRow, dueOutboxIds } from '../fulfilment';
import type { StoreOrder } from '../fulfilment';
import { resolveOrder } from '../fulfilment';
import type { DataRecord } from '../general-data';
import { type Site, findSite } from '../sites';
import { addToAdestra } from './adestra';
import { attemptStep, type StepRunner } from './attempt';
import type { PipelineContext } from './context';
import { addToRaisersEdge } from './crm';
import { queueOrderPipeline, rerunPipeline, type PaidOrder, type RerunStep } from './queue';
import { PIPELINE_KIND } from './repo';
import { sendEcard } from './sendEcard';
import { orderPipelineOf } from './view';

export const STEP_RUNNERS: Record<PipelineStep, StepRunner> = { addToRaisersEdge, addToAdestra, sendEcard };

export function pipelineService(ctx: PipelineContext) {
  /** The worker's pass: every due, unleased pipeline row, claimed one by one. */
  async function processDue() {
    const due = await dueOutboxIds(ctx.db, nowIso(ctx), ctx.options.batchSize, PIPELINE_KIND);
    let claimed = 0;
    for (const id of due) {
      const row = await claimOutboxRow(ctx.db, id, nowIso(ctx), later(ctx, ctx.options.leaseMs), false);
      if (!row || row.kind !== PIPELINE_KIND) continue;
      claimed++;
      await attemptStep(ctx, row, STEP_RUNNERS);
    }
    return { claimed };
  }

  return {
    processDue,
    queueOnPaid: (trx: Knex.Transaction, site: Site | undefined, order: PaidOrder) => queueOrderPipeline(trx, ctx.config, site, order, ctx.clock.now()),
    /** Re-run of the chosen steps of an order the caller already resolved. */
    rerun: (order: DataRecord<StoreOrder>, site: Site, steps: RerunStep[], actorId: number, admin = false) => rerunPipeline(ctx, STEP_RUNNERS, order, site, steps, actorId, admin),
    ofOrder: async (actor: Actor, orderId: string, siteId?: number) => {
      const order = await resolveOrder(ctx.db, actor, orderId, siteId);
      const site = (await findSite(ctx.db, order.siteId))!;
      return orderPipelineOf(ctx.db, ctx.config, site, order, isAdmin(actor));
    },
    /** Tests: the mail transport and the crash hooks. */
    configure(next: Partial<Pick<PipelineContext, 'mailerFor' | 'hooks'>>) {
      Object.assign(ctx, next);
    },
  };
}

export type PipelineService = ReturnType<typeof pipelineService>;
