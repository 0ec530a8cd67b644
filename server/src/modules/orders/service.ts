// Orders from the online store, assembled from their use cases: a webhook is verified and stored
// once (ingest.ts, webhookSites.ts), the inbox applies it to its order (upsert.ts), and the order
// screens find orders (lookup.ts), re-run them (rerun.ts) and act on their lines (lines.ts).
import type { Deps } from '../../deps';
import type { Actor } from '../../http/types';
import { createInbox, type Inbox } from '../inbox/service';
import type { ProductionService } from '../production/service';
import type { SitesService } from '../sites/service';
import { receiveWebhook } from './ingest';
import { lineImages, linePdf, orderToArtwork } from './lines';
import { checkOrder } from './lookup';
import { SHOPIFY_SOURCE, ordersRepo } from './repo';
import { rerunOrder } from './rerun';
import type { CheckOrderInput, OrderLineInput, RerunOrderInput } from './schema';
import type { OrderLine } from './shopify';
import { applyDeliveries, applyDelivery, type OrderCancelPort, type OrderSendPort, type UpsertContext } from './upsert';
import { webhookSites, type WebhookInput } from './webhookSites';

export type { OrderCancelPort, OrderSendPort } from './upsert';
export type { WebhookAnswer } from './ingest';
export { STORE_KEYS, SITE_CACHE_MS, type WebhookInput } from './webhookSites';

export interface OrdersServiceDeps {
  sites: SitesService;
  /** Which design, print job and print file for a line (modules/production). */
  production: ProductionService;
  send?: OrderSendPort;
  /** The provider side of a store cancellation (fulfilment/cancel.ts). */
  cancel?: OrderCancelPort;
  /** Where webhook deliveries are stored and processed (default: an inbox of its own). */
  inbox?: Inbox;
}

export function ordersService(deps: Deps, services: OrdersServiceDeps) {
  const { db, clock } = deps;
  const { production } = services;
  let sendPort = services.send;
  const inbox = services.inbox ?? createInbox(deps);
  const sites = webhookSites(db);
  let cancelPort = services.cancel;
  const upsert: UpsertContext = { clock, production, sendPort: () => sendPort, cancelPort: () => cancelPort };

  inbox.register({
    source: SHOPIFY_SOURCE,
    mode: 'transaction',
    apply: async (trx, d) => void (await applyDelivery(upsert, trx, d)),
    applyBatch: (trx, ds) => applyDeliveries(upsert, trx, ds),
  });

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
    checkOrder: (actor: Actor, input: CheckOrderInput) => checkOrder(db, production, actor, input),
    rerunOrder: (actor: Actor, input: RerunOrderInput) => rerunOrder({ db, production, sendPort: () => sendPort }, actor, input),
    orderToArtwork: (actor: Actor, id: string, siteId?: number, ownOrigin?: string) => orderToArtwork({ db, production }, actor, id, siteId, ownOrigin),
    linePdf: (actor: Actor, input: OrderLineInput & { printInHouse?: boolean }, ownOrigin: string) => linePdf({ db, production }, actor, input, ownOrigin),
    lineImages: (actor: Actor, input: OrderLineInput & { page?: number }, ownOrigin?: string) => lineImages({ db, production }, actor, input, ownOrigin),
    /** Wires the provider side after both services exist (and lets tests use a fake). */
    setSendPort: (port: OrderSendPort | undefined) => void (sendPort = port),
    setCancelPort: (port: OrderCancelPort | undefined) => void (cancelPort = port),
  };
}

export type OrdersService = ReturnType<typeof ordersService>;
