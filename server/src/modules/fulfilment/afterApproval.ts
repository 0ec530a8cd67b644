// Approve anyway on a routing site: the order's send, which left the held line out, goes again —
// through the outbox's dedupe keys, so nothing is sent twice.
import type { Deps } from '../../deps';
import { isoNow } from '../../lib/clock';
import type { PrintJob } from '../print-jobs';
import { findSite } from '../sites';
import { routesByItself } from '../routing';
import { enqueueOrderSend, hpDedupeKey, outboxRepo } from './outbox';
import { findOrder } from './resolveOrder';

/**
 * After a provider item's job is approved: a whole-order send that failed (every line was held) is
 * tried again; one that went without this line queues the line on its own (its own dedupe key);
 * a send still pending picks the approval up itself. A line already at the provider is left alone.
 */
export function requeueAfterApproval({ db, clock }: Pick<Deps, 'db' | 'clock'>) {
  return async (job: PrintJob): Promise<void> => {
    if (job.madeBy !== 'provider' || !job.shopifyOrderId || !job.lineItemId) return;
    const site = await findSite(db, job.clientId);
    if (!(await routesByItself(db, site))) return;
    const order = await findOrder(db, job.shopifyOrderId, job.clientId);
    const sent = Array.isArray(order?.data.preGeneratedHPItems) ? (order!.data.preGeneratedHPItems as Array<{ lineId?: unknown }>) : [];
    if (!order || sent.some((i) => String(i.lineId) === job.lineItemId)) return;
    const outbox = outboxRepo(db);
    const whole = await outbox.byKey(hpDedupeKey(job.clientId, job.shopifyOrderId));
    if (!whole) return;
    const at = isoNow(clock);
    if (whole.status === 'failed') await outbox.retryFailed(whole.id, at);
    else if (whole.status === 'sent') await db.transaction((trx) => enqueueOrderSend(trx, { siteId: job.clientId, orderId: job.shopifyOrderId!, lineIds: [job.lineItemId!] }, null, clock.now()));
  };
}
