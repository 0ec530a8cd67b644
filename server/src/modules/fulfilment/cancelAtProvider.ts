// Cancelling an order at the provider: PUT /api/order/{sourceAccount}/{sourceOrderId}/cancel for
// each of its provider orders not yet finished. A cancel HP took is recorded as an
// `order.cancelled` event through the postback path (inbox, status rules), so the order reads
// cancelled at once and a later postback of it is a duplicate.
import { badRequest } from '../../http/errors';
import type { Actor } from '../../http/types';
import { HpError } from '../../integrations/hpSiteflow';
import type { Inbox } from '../inbox/service';
import { clientFor, nowIso, SendFailure, siteSettings, text, type FulfilmentContext } from './context';
import { receivePostback } from './postbacks';
import { resolveOrder } from './resolveOrder';
import { TERMINAL } from './status';

export interface CancelAtProvider {
  /** Provider orders (sourceOrderIds) HP cancelled. */
  cancelled: string[];
  /** Provider orders HP would not cancel (e.g. already shipped), with its reason. */
  refused: Array<{ sourceOrderId: string; error: string }>;
}

export async function cancelAtProvider(ctx: FulfilmentContext, inbox: Inbox, actor: Actor, input: { orderRef: string; siteId?: number }): Promise<CancelAtProvider> {
  const order = await resolveOrder(ctx.db, actor, input.orderRef, input.siteId);
  let found;
  try {
    found = await siteSettings(ctx, order.siteId);
  } catch (err) {
    if (err instanceof SendFailure) throw badRequest(err.message);
    throw err;
  }
  const { site, settings } = found;
  if (!settings.sourceAccount) throw badRequest(`HP Site Flow cancels by source account: set HP_SOURCE_ACCOUNT in the settings of site "${site.name}"`);
  const storeOrderId = text(order.field1);
  const hpOrders = (order.data.hpOrders ?? {}) as Record<string, { hpOrderId?: unknown; status?: unknown }>;
  const sourceOrderIds = Object.keys(hpOrders).length
    ? Object.entries(hpOrders).filter(([, o]) => !TERMINAL.has(text(o?.status))).map(([id]) => id)
    : text(order.data.hpOrderId) && !TERMINAL.has(text(order.status))
      ? [storeOrderId]
      : [];
  if (!sourceOrderIds.length) throw badRequest('This order has nothing at HP Site Flow to cancel (never sent, or already shipped or cancelled)');
  const result: CancelAtProvider = { cancelled: [], refused: [] };
  const client = clientFor(ctx, settings);
  for (const sourceOrderId of sourceOrderIds) {
    try {
      await client.cancelOrder(settings.sourceAccount, sourceOrderId);
    } catch (err) {
      if (!(err instanceof HpError)) throw err;
      result.refused.push({ sourceOrderId, error: err.message });
      continue;
    }
    const providerOrderId = text(hpOrders[sourceOrderId]?.hpOrderId) || text(order.data.hpOrderId);
    await receivePostback(ctx, inbox, site, { event: 'order.cancelled', sourceOrderId, ...(providerOrderId ? { orderId: providerOrderId } : {}), status: 'cancelled', timestamp: nowIso(ctx) });
    result.cancelled.push(sourceOrderId);
  }
  return result;
}
