// Orders from the online store, assembled from their use cases: a webhook is verified and stored
// once (ingest.ts, webhookSites.ts), the inbox applies it to its order (upsert.ts), and the order
// screens find orders (lookup.ts). Re-running an order and acting on its lines compose orders with
// production and fulfilment: they live above the modules (workflows/).
import type { Deps } from '../../deps';
import type { Actor } from '../../http/types';
import type { OrdersShipBy } from './lookup';
import { createInbox, type Inbox } from '../inbox';
import type { OrderProductionPort } from './productionPort';
import type { SitesService } from '../sites';
import { receiveWebhook } from './ingest';
import { checkOrder } from './lookup';
import { SHOPIFY_SOURCE, ordersRepo } from './repo';
import type { CheckOrderInput, ReconcileInput } from './schema';
import { storeReconciler, type AdminRequestOf } from './reconcile';
import { assertAdmin } from '../auth';
import { notFound } from '../../http/errors';
import { findSiteBySlug } from '../sites';
import type { OrderLine } from './shopify';
import { applyDeliveries, applyDelivery, type OrderCancelPort, type OrderPipelinePort, type OrderRoutePort, type OrderStoreHoldPort, type UpsertContext } from './upsert';
import { webhookSites, type WebhookInput } from './webhookSites';
import { redactWaiting } from './privacyRequests';

export type { OrderCancelPort, OrderPipelinePort, OrderRoutePort, OrderSendPort, OrderStoreHoldPort } from './upsert';
export type { OrderProductionPort } from './productionPort';
export type { WebhookAnswer } from './ingest';
export { STORE_KEYS, SITE_CACHE_MS, type WebhookInput } from './webhookSites';

export interface OrdersServiceDeps {
  sites: SitesService;
  /** What production says of an order's lines (modules/production, above orders). */
  production: OrderProductionPort;
  /** Ship-by dates on the lines of a checked order (modules/ship-by). */
  shipBy: OrdersShipBy;
  /** Routing by the site's rules (workflows/routeOrder.ts): a printable order's lines routed as it is stored. */
  route?: OrderRoutePort;
  /** The provider side of a store cancellation (fulfilment/cancel.ts). */
  cancel?: OrderCancelPort;
  /** The charity's order pipeline (modules/pipeline): queued on a paid order. */
  pipeline?: OrderPipelinePort;
  /** The store shows a waiting order on hold (fulfilment/storeHold.ts). */
  storeHold?: OrderStoreHoldPort;
  /** Where webhook deliveries are stored and processed (default: an inbox of its own). */
  inbox?: Inbox;
  /** The Admin API transport of a site's store (missed orders are pulled with it). */
  adminRequestOf?: AdminRequestOf;
  /** The lease holder of the scheduled reconciliation (tests: two instances). */
  holder?: string;
}

export function ordersService(deps: Deps, services: OrdersServiceDeps) {
  const { db, clock } = deps;
  const { production } = services;
  const inbox = services.inbox ?? createInbox(deps);
  const sites = webhookSites(db, clock);
  const { shipBy } = services;
  const upsert: UpsertContext = { clock, timeZone: deps.config.sync.timezone, production, routePort: () => services.route, cancelPort: () => services.cancel, pipeline: services.pipeline, storeHold: services.storeHold };

  inbox.register({
    source: SHOPIFY_SOURCE,
    mode: 'transaction',
    // The answer ('stored' | 'stale') tells a reconciliation whether the pulled order was news.
    apply: async (trx, d) => ({ answer: await applyDelivery(upsert, trx, d) }),
    applyBatch: (trx, ds) => applyDeliveries(upsert, trx, ds),
  });

  const reconciler = storeReconciler(deps, { inbox, adminRequestOf: services.adminRequestOf, holder: services.holder });

  return {
    receiveWebhook: (input: WebhookInput) => receiveWebhook({ clock, inbox, sites }, input),
    processSoon: inbox.processSoon,
    processDelivery: inbox.processDelivery,
    /** The inbox's recovery pass (every source's deliveries). */
    recoverDeliveries: inbox.recover,
    idle: inbox.idle,
    /** Forget the cached sites (a store's settings changed). */
    invalidateSites: sites.invalidate,
    /** The contract's `getOrder(siteId, orderId)`: the order record, or undefined. */
    getOrder: (siteId: number, orderId: string) => ordersRepo(db).orderOf(siteId, orderId),
    mapLines: (siteId: number, order: { line_items: OrderLine[] }) => production.mapLines(siteId, order),
    checkOrder: (actor: Actor, input: CheckOrderInput) => checkOrder(db, production, shipBy, actor, input, services.route?.routesOf),
    /** Sync from store (admin): the store's orders changed since `since` (else since the last run) pulled in now. */
    async reconcile(actor: Actor, input: ReconcileInput) {
      assertAdmin(actor, 'Only an admin can sync a store');
      const site = await findSiteBySlug(db, input.site);
      if (!site) throw notFound('Site not found');
      return reconciler.reconcileStore(site, { since: input.since, trigger: 'manual' });
    },
    /** Privacy redactions that waited for orders in production: those shipped are redacted now (main.ts runs it every few minutes). */
    redactWaitingPrivacy: () => redactWaiting({ db, clock }),
    /** The schedule's pass over every store with a token (main.ts runs it every few minutes). */
    reconcileDue: reconciler.reconcileDue,
    reconcileStates: reconciler.states,
    reconciler,
    setAdminRequestOf: reconciler.setAdminRequestOf,
  };
}

export type OrdersService = ReturnType<typeof ordersService>;
