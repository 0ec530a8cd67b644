// Sending orders to the print-fulfilment provider (HP Site Flow) through the outbox, the manual
// send, the provider's postbacks, and the provider-event screens: the module's use cases, put
// together over one context. Each use case is a function of its own file (see index.ts), which
// tests can call without HTTP; this object is what routes, the orders module and main.ts hold.
//
// A send: enqueueOrderSend writes an outbox row in the caller's transaction; a worker (or sendNow)
// claims it under a lease, prepares the provider body (prepareSend.ts), calls the provider and
// records the outcome (attempt.ts).
import type { Knex } from 'knex';
import type { Db } from '../../db';
import type { Deps } from '../../deps';
import type { Actor } from '../../http/types';
import { ageSeconds } from '../../lib/clock';
import type { OutboxBacklog } from '../../lib/metrics';
import { createInbox, type Inbox } from '../inbox';
import type { RecordFilter, RecordSortField } from '../general-data';
import type { ProductionService } from '../production';
import type { Site } from '../sites';
import { checkQuietOrders } from './checkQuietOrders';
import { testHp } from './connectivity';
import { optionsOf, type FulfilmentContext, type FulfilmentOptions } from './context';
import { manualSend } from './manualSend';
import type { ManualInput } from './orderBody';
import { enqueueOrderSend, outboxRepo, type EnqueueOrderSend, type OutboxRow } from './outbox';
import { processDue, sendNow } from './outboxWorker';
import { postbackSite, receivePostback, registerPostbacks } from './postbacks';
import { adminLog, adminLogs, listEvents, orderDetail, type EventsQuery } from './providerEvents';
import { findOrder } from './resolveOrder';
import type { PostbackBody } from './schema';
import { sendOrder, type SendOrderInput } from './sendOrder';

export { DEFAULT_OPTIONS, HP_LOG, ORDER_TYPE, SEND_LOG, type FulfilmentOptions, type SendOutcome } from './context';
export { MAYBE_AT_PROVIDER_WHOLE, mayBeAtProvider } from './lineSends';
export { startOutboxWorker, startRepeating } from './outboxWorker';
export { HP_SOURCE } from './postbacks';

/** `inbox`: where postbacks are stored and applied (default: an inbox of its own). */
export function fulfilmentService(deps: Deps, production: ProductionService, initial: Partial<FulfilmentOptions> = {}, inbox: Inbox = createInbox(deps)) {
  const ctx: FulfilmentContext = { ...deps, production, options: optionsOf(deps.config, initial) };
  const { db, clock, options } = ctx;
  registerPostbacks(ctx, inbox);

  return {
    /** Queue the provider send in the caller's transaction (dedupe key hp:<siteId>:<orderId>[:<lineId>]); answers the rows (existing ones when already queued). */
    enqueueOrderSend: (trx: Knex | Knex.Transaction, input: EnqueueOrderSend, actorId?: number | null): Promise<OutboxRow[]> => enqueueOrderSend(trx, input, actorId, clock.now()),
    sendNow: (outboxId: number) => sendNow(ctx, outboxId),
    processDue: () => processDue(ctx),
    /** Asks the provider about orders with no news for options.quietAfterMs (lost postbacks). */
    checkQuietOrders: () => checkQuietOrders(ctx, inbox),
    sendOrder: (actor: Actor, input: SendOrderInput) => sendOrder(ctx, actor, input),
    /** Connectivity test: settings complete, and HP takes our signature (one read-only call). */
    testHp: (actor: Actor, site?: string) => testHp(ctx, actor, site),
    manualSend: (actor: Actor, input: ManualInput & { siteId?: number }) => manualSend(ctx, actor, input),
    postbackSite: (slug: string | undefined, token: string | undefined) => postbackSite(db, slug, token),
    receivePostback: (site: Site, body: PostbackBody) => receivePostback(ctx, inbox, site, body),
    listEvents: (actor: Actor, q: EventsQuery) => listEvents(ctx, actor, q),
    orderDetail: (actor: Actor, orderId: string, siteId?: number) => orderDetail(ctx, actor, orderId, siteId),
    adminLogs: (actor: Actor, filter: RecordFilter, sort: { field: RecordSortField; order: 'asc' | 'desc' }, limit: number, offset: number) => adminLogs(ctx, actor, filter, sort, limit, offset),
    adminLog: (actor: Actor, id: number) => adminLog(ctx, actor, id),
    /** The order record of a store order id (newest when several), in one site or any. */
    findOrder: (orderId: string, siteId?: number, trx: Db | Knex.Transaction = db) => findOrder(trx, orderId, siteId),
    /** Outbound sends waiting for a worker, per kind, and how long the longest-waiting one waits (GET /metrics). */
    async outboxBacklog(): Promise<OutboxBacklog[]> {
      const now = clock.now();
      return (await outboxRepo(db).backlog(now.toISOString())).map((b) => ({ kind: b.kind, depth: b.count, oldestAgeSeconds: ageSeconds(now.getTime(), b.since) }));
    },
    /** Tests and main.ts: change timing and the provider's HTTP. */
    configure(next: Partial<FulfilmentOptions>) {
      Object.assign(options, next);
    },
    options,
  };
}

export type FulfilmentService = ReturnType<typeof fulfilmentService>;
