// Re-run: the steps every order of the charity site goes through, run again on purpose. A use case
// of orders, production (what may be sent), fulfilment (the send) and the pipeline together.
import type { Db } from '../db';
import { HttpError, badRequest } from '../http/errors';
import type { Actor } from '../http/types';
import type { StoreOrder } from '../modules/fulfilment';
import type { DataRecord } from '../modules/records';
import { findSite, type Site } from '../modules/sites';
import { nothingToPrint, providerBlockers, type ProductionService } from '../modules/production';
import { ORDER_UNPAID, orderFor, printHold, sendWhenOf, type OrderSendPort, type RerunOrderInput } from '../modules/orders';
import type { RerunResult } from '../../../common/api/orders';
import { isAdmin } from '../modules/auth';

type PipelineRerunStep = 'addToAdestra' | 'addToRaisersEdge' | 'sendEcard';

/** The charity's order pipeline (modules/pipeline): runs the chosen steps now and reports each. */
export interface RerunPipelinePort {
  /** `admin`: the reasons may name the site's settings (staff are told an admin sets them up). */
  rerun(order: DataRecord<StoreOrder>, site: Site, steps: PipelineRerunStep[], actorId: number, admin?: boolean): Promise<RerunResult>;
}

export interface RerunContext {
  db: Db;
  production: Pick<ProductionService, 'mapLines' | 'takeLinesFromQueue'>;
  sendPort(): OrderSendPort | undefined;
  pipeline?: RerunPipelinePort;
}

export async function rerunOrder(ctx: RerunContext, actor: Actor, input: RerunOrderInput): Promise<RerunResult> {
  const { db, production } = ctx;
  const sendPort = ctx.sendPort();
  const order = await orderFor(db, actor, input.id, input.siteId);
  const flags = input.flags;
  if (!flags.addToAdestra && !flags.addToRaisersEdge && !flags.sendEcard && !flags.sendToHP) throw badRequest('Choose at least one step to re-run.');
  const site = await findSite(db, order.siteId);
  const ran: string[] = [];
  const skipped: Array<{ step: string; reason: string }> = [];
  const failed: RerunResult['failed'] = [];
  const pipelineSteps = (['addToRaisersEdge', 'addToAdestra', 'sendEcard'] as const).filter((step) => flags[step]);
  // A shipped order sent again is printed and posted again: asked first, nothing done before the yes.
  if (flags.sendToHP && (order.status ?? order.data.status) === 'shipped' && input.sendShipped !== true) {
    throw new HttpError(409, 'This order has shipped: sending it to HP again prints and posts it again. Send it anyway?', { code: 'ORDER_SHIPPED', confirmWith: { sendShipped: true } });
  }
  if (flags.sendToHP) {
    const mappings = await production.mapLines(order.siteId, order.data);
    const blockers = providerBlockers(mappings);
    const onlyEcards = nothingToPrint(mappings);
    const hold = printHold(order.data, sendWhenOf(site));
    if (onlyEcards) skipped.push({ step: 'sendToHP', reason: onlyEcards });
    else if (!sendPort) skipped.push({ step: 'sendToHP', reason: 'sending to the provider is not available on this server' });
    // An unpaid order goes only on the operator's yes, which Send HP asks for.
    else if (hold) skipped.push({ step: 'sendToHP', reason: hold.code === ORDER_UNPAID ? `${hold.message}. Use Send HP on the order to choose.` : hold.message });
    else if (blockers.length) skipped.push({ step: 'sendToHP', reason: blockers.map((b) => `line ${b.lineId}: ${b.reason}`).join('; ') });
    else {
      const port = sendPort;
      try {
        await db.transaction(async (trx) => {
          // Lines in the Jobs queue are sent only on the operator's yes, which Send HP asks for.
          await production.takeLinesFromQueue(trx, order.siteId, order.field1!, undefined, actor.id, false);
          await port.enqueueOrderSend(trx, { siteId: order.siteId, orderId: order.field1! }, actor.id);
        });
        ran.push('sendToHP');
      } catch (err) {
        if (!(err instanceof HttpError && err.status === 409)) throw err;
        skipped.push({ step: 'sendToHP', reason: `${err.message} Use Send HP on the order to choose.` });
      }
    }
  }
  if (pipelineSteps.length) {
    if (!ctx.pipeline || !site) for (const step of pipelineSteps) skipped.push({ step, reason: 'the order pipeline is not available on this server' });
    else {
      const out = await ctx.pipeline.rerun(order as unknown as DataRecord<StoreOrder>, site, pipelineSteps, actor.id, isAdmin(actor));
      ran.unshift(...out.ran);
      skipped.unshift(...out.skipped);
      failed.push(...out.failed);
    }
  }
  return { ran, skipped, failed };
}
