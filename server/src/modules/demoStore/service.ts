// The demo store's cancel, as the admin API sees it: main.ts attaches the demo store outside
// production (SIMULATORS=1); on a server without one every call answers 404, saying so. An order
// is cancelled the way a real store does it — a signed orders/cancelled through the webhook.
import { HttpError, notFound } from '../../http/errors';
import type { Actor } from '../../http/types';
import type { Db } from '../../db';
import { siteScope } from '../auth';
import { isAdmin } from '../auth';
import { findSiteBySlug } from '../sites';
import { orderFor } from '../orders';

export const NO_DEMO_STORE = 'No demo store runs on this server (it runs only outside production, started by npm start)';

export interface DemoStore {
  /** The demo store's site (its slug). */
  siteSlug: string;
  /** Cancels the store's order and sends the app orders/cancelled: the webhook's HTTP status. */
  cancel(orderId: string): Promise<{ status: number | null }>;
}

export function demoStoreService(db: Db) {
  let store: DemoStore | undefined;
  const running = () => {
    if (!store) throw notFound(NO_DEMO_STORE);
    return store;
  };
  /** The demo store's site, if the actor may see it (staff of another site may not: 404). */
  async function siteOf(actor: Actor) {
    const site = await findSiteBySlug(db, running().siteSlug);
    if (!site) throw notFound(NO_DEMO_STORE);
    siteScope(actor, site.id, NO_DEMO_STORE);
    return site;
  }
  return {
    attach(s: DemoStore) {
      store = s;
    },
    /** Which site's orders the demo store can cancel for this actor; null when none (no demo store, or not the actor's site). Never a 404: screens ask it on every order. */
    async info(actor: Actor): Promise<{ siteId: number | null }> {
      const site = store && (await findSiteBySlug(db, store.siteSlug));
      return { siteId: site && (isAdmin(actor) || site.id === actor.siteId) ? site.id : null };
    },
    async cancel(actor: Actor, orderId: string): Promise<{ sent: true }> {
      const site = await siteOf(actor);
      const order = await orderFor(db, actor, orderId, site.id);
      const { status } = await running().cancel(order.field1!);
      if (status === null || status >= 300) throw new HttpError(502, `The app did not take the demo store's orders/cancelled (${status ?? 'no answer'})`);
      return { sent: true };
    },
  };
}

export type DemoStoreService = ReturnType<typeof demoStoreService>;
