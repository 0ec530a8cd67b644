// Re-run: the steps every order of the charity site goes through, run again on purpose.
import type { Db } from '../../db';
import { HttpError, badRequest } from '../../http/errors';
import type { Actor } from '../../http/types';
import { envValue } from '../../lib/secrets';
import { nothingToPrint, providerBlockers } from '../production/designForLine';
import type { ProductionService } from '../production/service';
import { sitesRepo } from '../sites/repo';
import { orderFor } from './lookup';
import type { RerunOrderInput } from './schema';
import type { RerunResult } from '../../../../common/api/orders';
import type { OrderSendPort } from './upsert';
import { ORDER_UNPAID, printHold } from '../production/orderHold';
import { sendWhenOf } from './webhookSites';

/** Steps not built yet: which settings make a site "configured" for them. */
const RERUN_STEPS: Record<'addToAdestra' | 'addToRaisersEdge' | 'sendEcard', string[] | null> = {
  addToAdestra: ['ADESTRA_BASE_URL', 'ADESTRA_TOKEN'],
  addToRaisersEdge: ['RE_BASE_URL', 'RE_CLIENT_ID'],
  sendEcard: null,
};

export interface RerunContext {
  db: Db;
  production: Pick<ProductionService, 'mapLines' | 'takeLinesFromQueue'>;
  sendPort(): OrderSendPort | undefined;
}

export async function rerunOrder(ctx: RerunContext, actor: Actor, input: RerunOrderInput): Promise<RerunResult> {
  const { db, production } = ctx;
  const sendPort = ctx.sendPort();
  const order = await orderFor(db, actor, input.id, input.siteId);
  const flags = input.flags;
  if (!flags.addToAdestra && !flags.addToRaisersEdge && !flags.sendEcard && !flags.sendToHP) throw badRequest('Choose at least one step to re-run.');
  const site = await sitesRepo(db).byId(order.siteId);
  const ran: string[] = [];
  const skipped: Array<{ step: string; reason: string }> = [];
  for (const step of ['addToAdestra', 'addToRaisersEdge', 'sendEcard'] as const) {
    if (!flags[step]) continue;
    const keys = RERUN_STEPS[step];
    const configured = keys !== null && site !== undefined && keys.every((k) => Boolean(envValue(site.settings.env, k)));
    // The CRM and email-platform steps are not built yet: they are skipped, saying why.
    skipped.push({ step, reason: configured ? 'not available yet: the CRM sync is not built' : 'not configured for this site' });
  }
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
  return { ran, skipped, failed: [] };
}
