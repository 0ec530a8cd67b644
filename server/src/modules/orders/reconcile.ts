// Missed orders are pulled: the store's orders changed since the last reconciliation are read from
// its Admin GraphQL API (cursor paging, oldest change first) and each one goes through the webhook
// ingest path — stored once in the inbox (dedupe key per order version) and applied by the same
// handler as a delivered orders/updated (upsert.ts: newest version wins, paid hold, cancellations,
// current quantities) — so a pulled order is stored exactly as a delivered one. A run per site at
// most every SHOPIFY_RECONCILE_MINUTES (default hourly) under a database lease per site and period,
// so with several instances it runs once; a manual run (Sync from store) takes the same lease.
import type { Deps } from '../../deps';
import { hasShopifyAdmin } from '../../integrations/shopifyAdmin';
import { HttpError, conflict } from '../../http/errors';
import { isoNow } from '../../lib/clock';
import { createLeases, type Leases } from '../../lib/leases';
import type { Inbox } from '../inbox';
import { type Site, listSites } from '../sites';
import { SITE_SETTINGS, siteSettings } from '../../../../common/siteSettings';
import type { ReconcileCounts } from '../../../../common/api/orders';
import { SHOPIFY_SOURCE, ordersRepo } from './repo';
import { reconcileRepo, type ReconcileState } from './reconcileRepo';
import { isOlder, versionOf } from './shopify';
import {
  LINES_PAGE,
  ORDERS_PAGE,
  ORDERS_QUERY,
  ORDER_LINES_QUERY,
  storeOrderFromGraphql,
  updatedSinceQuery,
  type GraphqlLineItem,
  type GraphqlOrder,
  type OrderLinesPage,
  type OrdersPage,
} from './storeOrderFromGraphql';

/** The Admin API transport (integrations/shopifyAdmin.ts): answers `data`, throws on `errors`, retries throttling. */
export type AdminRequest = <T>(document: string, variables?: Record<string, unknown>) => Promise<T>;
/** The transport of a site's store, or null when the site has no Admin API token. */
export type AdminRequestOf = (site: Site) => AdminRequest | null;

export const RECONCILE_KEYS = {
  everyMinutes: 'SHOPIFY_RECONCILE_MINUTES',
  overlapMinutes: 'SHOPIFY_RECONCILE_OVERLAP_MINUTES',
  firstHours: 'SHOPIFY_RECONCILE_FIRST_HOURS',
} as const;

export interface ReconcileSettings {
  /** How often the schedule reconciles the store (default 60; 0: never on schedule). */
  everyMinutes: number;
  /** How far before the last high-water mark the next run starts: the store's search index lags a little. */
  overlapMinutes: number;
  /** How far back the first run looks (no mark yet). */
  firstHours: number;
}

/** The settings registry's defaults. */
export const RECONCILE_DEFAULTS: ReconcileSettings = {
  everyMinutes: Number(SITE_SETTINGS.SHOPIFY_RECONCILE_MINUTES.default),
  overlapMinutes: Number(SITE_SETTINGS.SHOPIFY_RECONCILE_OVERLAP_MINUTES.default),
  firstHours: Number(SITE_SETTINGS.SHOPIFY_RECONCILE_FIRST_HOURS.default),
};

/** The site's settings; a missing or unusable value is the default. */
export function reconcileSettingsOf(site: Site): ReconcileSettings {
  const s = siteSettings(site);
  return {
    everyMinutes: s.SHOPIFY_RECONCILE_MINUTES ?? RECONCILE_DEFAULTS.everyMinutes,
    overlapMinutes: s.SHOPIFY_RECONCILE_OVERLAP_MINUTES ?? RECONCILE_DEFAULTS.overlapMinutes,
    firstHours: s.SHOPIFY_RECONCILE_FIRST_HOURS ?? RECONCILE_DEFAULTS.firstHours,
  };
}


export type { ReconcileCounts };

export type ReconcileTrigger = 'schedule' | 'manual';

export interface ReconcilerOptions {
  inbox: Inbox;
  adminRequestOf?: AdminRequestOf;
  /** The lease holder (tests: two instances). */
  holder?: string;
}

export const reconcileLeaseName = (siteId: number) => `shopify-reconcile:${siteId}`;

/** The scheduled period a time falls in (its start, ISO): one run per site and period. */
export function reconcileSlot(now: Date, everyMinutes: number): string {
  const ms = everyMinutes * 60_000;
  return new Date(Math.floor(now.getTime() / ms) * ms).toISOString();
}

const messageOf = (err: unknown) => (err instanceof Error ? err.message : String(err));

export function storeReconciler(deps: Deps, opts: ReconcilerOptions) {
  const { db, clock, log, config } = deps;
  let adminRequestOf = opts.adminRequestOf;
  const leases: Leases = createLeases({ db, clock, holder: opts.holder, ttlSeconds: config.sync.leaseSeconds });

  /** One pulled order through the webhook ingest path. */
  async function ingest(site: Site, order: ReturnType<typeof storeOrderFromGraphql>): Promise<'stored' | 'alreadyKnown'> {
    if (!order.id) throw new Error(`The store answered an order without an id (${order.admin_graphql_api_id})`);
    const stored = await ordersRepo(db).orderOf(site.id, order.id);
    if (stored && !isOlder(versionOf(stored.data), order)) return 'alreadyKnown';
    const out = await opts.inbox.receiveNow<'stored' | 'stale'>({
      source: SHOPIFY_SOURCE,
      // One key per order version: a version pulled twice (two runs, two instances) is stored once.
      eventId: `reconcile:${order.id}:${order.updated_at ?? ''}`.slice(0, 128),
      deliveryId: null,
      siteId: site.id,
      topic: 'orders/updated',
      payload: order,
      status: 'received',
      receivedAt: isoNow(clock),
    });
    return !out.duplicate && out.answer === 'stored' ? 'stored' : 'alreadyKnown';
  }

  /** The lines after an order's first page of them. */
  async function allLines(request: AdminRequest, o: GraphqlOrder): Promise<GraphqlLineItem[]> {
    const lines = [...o.lineItems.nodes];
    let page = o.lineItems.pageInfo;
    while (page?.hasNextPage) {
      const more = await request<OrderLinesPage>(ORDER_LINES_QUERY, { id: o.id, after: page.endCursor, lines: LINES_PAGE });
      if (!more.order) break;
      lines.push(...more.order.lineItems.nodes);
      page = more.order.lineItems.pageInfo;
    }
    return lines;
  }

  /** Where a run starts: the given time, else the last mark less the overlap, else firstHours ago. */
  function startOf(state: ReconcileState | undefined, settings: ReconcileSettings, since?: string): string {
    if (since) return new Date(since).toISOString();
    if (state?.highWaterMark) return new Date(Date.parse(state.highWaterMark) - settings.overlapMinutes * 60_000).toISOString();
    return new Date(clock.now().getTime() - settings.firstHours * 3_600_000).toISOString();
  }

  /** Pages through the store's orders changed since the start, ingesting each; records the run. */
  async function pull(site: Site, request: AdminRequest, trigger: ReconcileTrigger, since?: string): Promise<ReconcileCounts> {
    const repo = reconcileRepo(db);
    const settings = reconcileSettingsOf(site);
    const start = startOf(await repo.of(site.id), settings, since);
    const counts: ReconcileCounts = { found: 0, stored: 0, alreadyKnown: 0 };
    let mark: string | null = null;
    let error: string | null = null;
    try {
      let after: string | null = null;
      for (;;) {
        const page: OrdersPage = await request<OrdersPage>(ORDERS_QUERY, { first: ORDERS_PAGE, after, query: updatedSinceQuery(start), lines: LINES_PAGE });
        for (const node of page.orders.nodes) {
          counts.found++;
          const order = storeOrderFromGraphql(node, await allLines(request, node));
          counts[await ingest(site, order)]++;
          // Oldest change first: everything up to here is stored, so a failure later keeps this progress.
          if (order.updated_at && (!mark || Date.parse(order.updated_at) > Date.parse(mark))) mark = order.updated_at;
        }
        const info = page.orders.pageInfo;
        if (!info.hasNextPage || !info.endCursor || info.endCursor === after) break;
        after = info.endCursor;
      }
    } catch (err) {
      error = messageOf(err).slice(0, 2000);
      throw err;
    } finally {
      await repo.record({ siteId: site.id, lastRunAt: isoNow(clock), trigger, ...counts, error, highWaterMark: mark }).catch((err) => log.error({ err, site: site.slug }, 'recording a store reconciliation failed'));
    }
    log.info({ site: site.slug, trigger, since: start, ...counts }, 'store reconciled');
    return counts;
  }

  function requestFor(site: Site): AdminRequest | null {
    if (!hasShopifyAdmin(site)) return null;
    return adminRequestOf?.(site) ?? null;
  }

  /**
   * Reconcile one store now (Sync from store): refused while another run of it is under way.
   * Throws HttpError 409 (running) or 400 (no token); a store failure is rethrown as 502.
   */
  async function reconcileStore(site: Site, o: { since?: string; trigger?: ReconcileTrigger } = {}): Promise<ReconcileCounts> {
    if (!hasShopifyAdmin(site)) throw new HttpError(400, `The store of ${site.name} has no Admin API connection (an app's Client ID and secret, or a legacy token): nothing to sync from`);
    const request = requestFor(site);
    if (!request) throw new HttpError(503, 'This instance has no Shopify Admin API client: the store cannot be read');
    let counts: ReconcileCounts | undefined;
    let failure: unknown;
    const out = await leases.run(reconcileLeaseName(site.id), {}, async () => {
      try {
        counts = await pull(site, request, o.trigger ?? 'manual', o.since);
        return { status: 'success' as const };
      } catch (err) {
        failure = err;
        return { status: 'failed' as const, error: messageOf(err) };
      }
    });
    if (!out.ran) throw conflict('A reconciliation of this store is already running: try again in a moment');
    if (failure) throw failure instanceof HttpError ? failure : new HttpError(502, `The store could not be read: ${messageOf(failure)}`);
    return counts!;
  }

  /** The schedule's pass: every site with a token whose period has a run due; one site's failure does not stop the others. */
  async function reconcileDue(): Promise<Array<{ site: string; ran: boolean; counts?: ReconcileCounts; error?: string }>> {
    const { rows } = await listSites(db, {}, { field: 'id', order: 'asc' }, 100_000, 0);
    const results: Array<{ site: string; ran: boolean; counts?: ReconcileCounts; error?: string }> = [];
    for (const site of rows) {
      const request = requestFor(site);
      const { everyMinutes } = reconcileSettingsOf(site);
      if (!request || everyMinutes === 0) continue;
      try {
        let counts: ReconcileCounts | undefined;
        const out = await leases.run(reconcileLeaseName(site.id), { slot: reconcileSlot(clock.now(), everyMinutes) }, async () => {
          counts = await pull(site, request, 'schedule');
          return { status: 'success' as const };
        });
        results.push({ site: site.slug, ran: out.ran, counts });
      } catch (err) {
        log.error({ err, site: site.slug }, 'the scheduled store reconciliation failed');
        results.push({ site: site.slug, ran: true, error: messageOf(err) });
      }
    }
    return results;
  }

  return {
    reconcileStore,
    reconcileDue,
    leases,
    /** The last run of each site (the Stores screen). */
    states: (siteIds: number[]) => reconcileRepo(db).ofSites(siteIds),
    /** Wires the Admin API transport after both exist (and lets tests use a fake). */
    setAdminRequestOf: (fn: AdminRequestOf | undefined) => void (adminRequestOf = fn),
  };
}

export type StoreReconciler = ReturnType<typeof storeReconciler>;
