// Postbacks can be lost: orders at the provider with no news for a while are asked about directly
// (GET /api/order/{id}), and the order object it answers goes the postback's way (the inbox, its
// dedupe and the forward-only status rules), so a poll and a late postback never disagree.
import type { Inbox } from '../inbox';
import { findSite } from '../sites';
import { clientFor, later, nowIso, text, type FulfilmentContext } from './context';
import { receivePostback } from './postbacks';
import { providerChecksRepo, type QuietOrder } from './providerChecksRepo';
import { postbackBody } from './schema';
import { hpSettingsOf } from './settings';
import { TERMINAL } from '../orders';

/** Order statuses that still expect news from the provider. */
export const AWAITING_PROVIDER = ['sent', 'dataready', 'printready', 'printed', 'onhold'] as const;

export interface QuietCheck {
  checked: number;
  /** Events the answers brought that were news (not duplicates). */
  news: number;
  errors: Array<{ orderId: string; providerOrderId: string; error: string }>;
}

/** The provider orders of a store order that are not finished: per-line ones, else the whole order's. */
export function providerOrdersOf(order: QuietOrder): Array<{ sourceOrderId: string; providerOrderId: string }> {
  const hpOrders = (order.ours.hpOrders ?? {}) as Record<string, { hpOrderId?: unknown; status?: unknown }>;
  const out = Object.entries(hpOrders)
    .filter(([, o]) => text(o?.hpOrderId) && !TERMINAL.has(text(o?.status)))
    .map(([sourceOrderId, o]) => ({ sourceOrderId, providerOrderId: text(o.hpOrderId) }));
  if (!Object.keys(hpOrders).length && text(order.ours.hpOrderId)) out.push({ sourceOrderId: order.storeOrderId, providerOrderId: text(order.ours.hpOrderId) });
  return out;
}

export async function checkQuietOrders(ctx: FulfilmentContext, inbox: Inbox): Promise<QuietCheck> {
  const repo = providerChecksRepo(ctx.db);
  const result: QuietCheck = { checked: 0, news: 0, errors: [] };
  for (const siteId of await repo.sitesWith(AWAITING_PROVIDER)) {
    const site = await findSite(ctx.db, siteId);
    if (!site) continue;
    const { settings, missing, invalid } = hpSettingsOf(site.settings.env);
    if (missing.length || invalid.length) continue;
    // HP_POLL_AFTER_MINUTES per site, else the app's default.
    const quietMs = settings.pollAfterMinutes !== undefined ? settings.pollAfterMinutes * 60_000 : ctx.options.quietAfterMs;
    const orders = await repo.quietOrders(siteId, AWAITING_PROVIDER, later(ctx, -quietMs), ctx.options.batchSize);
    for (const order of orders) {
      for (const target of providerOrdersOf(order)) {
        try {
          const answer = await clientFor(ctx, settings).getOrder(target.providerOrderId);
          const parsed = postbackBody.safeParse(answer.order);
          if (!parsed.success) throw new Error('the answer holds no order with a sourceOrderId and a status');
          const out = await receivePostback(ctx, inbox, site, parsed.data);
          result.checked++;
          if (!out.duplicate) result.news++;
        } catch (err) {
          result.errors.push({ orderId: order.storeOrderId, providerOrderId: target.providerOrderId, error: (err as Error).message });
          ctx.log.warn({ err, orderId: order.storeOrderId, providerOrderId: target.providerOrderId }, 'asking HP Site Flow about a quiet order failed');
        }
      }
      await repo.markChecked(order.id, nowIso(ctx));
    }
  }
  return result;
}
