// Orders from the online store: webhook ingest (verify, then store once in the inbox and answer),
// the inbox handler that applies a delivery to its order, and the order screens' actions (check,
// re-run, to artwork, PDF, images).
import type { Knex } from 'knex';
import type { Deps } from '../../deps';
import { HttpError, badRequest, forbidden, notFound, unauthorized } from '../../http/errors';
import type { Actor } from '../../http/types';
import { isoNow } from '../../lib/clock';
import { envValue } from '../../lib/secrets';
import { isAdmin } from '../auth/permissions';
import type { DataRecord } from '../general-data/repo';
import type { PrintJob } from '../print-jobs/repo';
import { createInbox, type Delivery, type Inbox } from '../inbox/service';
import { providerBlockers, type LineMapping } from '../production/designForLine';
import type { ProductionService } from '../production/service';
import { sitesRepo, type Site } from '../sites/repo';
import type { SitesService } from '../sites/service';
import { ORDER_TYPE, SHOPIFY_SOURCE, ordersRepo, type OrderRecord } from './repo';
import type { CheckOrderInput, OrderLineInput, RerunOrderInput } from './schema';
import {
  PayloadError,
  RECEIVED,
  SHOPIFY_HEADERS,
  isOlder,
  isOrderTopic,
  mergeOrderData,
  nextStatus,
  normaliseOrder,
  orderCreatedAt,
  orderNameOf,
  orderSearchText,
  parseJsonInt64Safe,
  verifyShopifySignature,
  type OrderData,
  type OrderLine,
  type ShopifyOrder,
} from './shopify';

/** The provider side (modules/fulfilment): queues a send in the caller's transaction, deduplicated per order/line. */
export interface OrderSendPort {
  enqueueOrderSend(trx: Knex.Transaction, input: { siteId: number; orderId: string; lineIds?: string[] }, actorId?: number | null): Promise<unknown>;
}

export interface OrdersServiceDeps {
  sites: SitesService;
  /** Which design, print job and print file for a line (modules/production). */
  production: ProductionService;
  send?: OrderSendPort;
  /** Where webhook deliveries are stored and processed (default: an inbox of its own). */
  inbox?: Inbox;
}

export interface WebhookInput {
  rawBody: Buffer;
  header(name: string): string | undefined;
  siteSlug?: string;
}

export type WebhookAnswer = { duplicate: true } | { ignored: true; topic: string } | { received: true; deliveryId: number };

/** Site settings (settings.env keys) this module reads. */
export const STORE_KEYS = {
  shopDomain: 'SHOPIFY_SHOP_DOMAIN',
  secret: 'SHOPIFY_WEBHOOK_SECRET',
  previousSecret: 'SHOPIFY_WEBHOOK_SECRET_PREVIOUS',
  autoSend: 'HP_AUTO_SEND',
} as const;

/** How long a process trusts the sites it read (shop domain, webhook secrets): see "Which site a webhook is for". */
export const SITE_CACHE_MS = 2_000;

/** Not yet built steps of "re-run order": which settings make a site "configured" for them. */
const RERUN_STEPS: Record<'addToAdestra' | 'addToRaisersEdge' | 'sendEcard', string[] | null> = {
  addToAdestra: ['ADESTRA_BASE_URL', 'ADESTRA_TOKEN'],
  addToRaisersEdge: ['RE_BASE_URL', 'RE_CLIENT_ID'],
  sendEcard: null,
};

const shopDomainOf = (site: Site) => envValue(site.settings.env, STORE_KEYS.shopDomain)?.trim().toLowerCase() || undefined;

export function ordersService(deps: Deps, services: OrdersServiceDeps) {
  const { db, clock } = deps;
  const sites = sitesRepo(db);
  let sendPort = services.send;
  const inbox = services.inbox ?? createInbox(deps);

  // -------------------------------------------------------------------------------------------
  // Which site a webhook is for. Sites are cached per process for SITE_CACHE_MS: two instances
  // share a database, so a change made through the other one (or around the store screen, which
  // invalidates at once) is seen within that time. A miss re-reads, so a store configured a moment
  // ago is found, and a webhook refused against the cached settings is checked again against a
  // fresh read, so a new secret or domain is accepted at once.

  let domains: Map<string, number> | undefined;
  let reloading: Promise<Map<string, number>> | undefined;
  const cached = new Map<string, { site: Site; until: number }>();
  const remember = (site: Site) => {
    const entry = { site, until: performance.now() + SITE_CACHE_MS };
    cached.set(`id:${site.id}`, entry);
    cached.set(`slug:${site.slug}`, entry);
    return site;
  };
  async function cachedSite(key: string, fresh: boolean, read: () => Promise<Site | undefined>): Promise<Site | undefined> {
    const hit = fresh ? undefined : cached.get(key);
    if (hit && hit.until > performance.now()) return hit.site;
    const site = await read();
    if (site) remember(site);
    else cached.delete(key);
    return site;
  }
  const siteById = (id: number, fresh: boolean) => cachedSite(`id:${id}`, fresh, () => sites.byId(id));
  const siteBySlug = (slug: string, fresh: boolean) => cachedSite(`slug:${slug}`, fresh, () => sites.bySlug(slug));

  const reloadDomains = () =>
    (reloading ??= (async () => {
      try {
        const { rows } = await sites.list({}, { field: 'id', order: 'asc' }, 100_000, 0);
        const map = new Map<string, number>();
        for (const s of rows) {
          remember(s);
          const d = shopDomainOf(s);
          if (d && !map.has(d)) map.set(d, s.id);
        }
        domains = map;
        return map;
      } finally {
        reloading = undefined;
      }
    })());

  async function siteByDomain(domain: string, fresh: boolean): Promise<Site | undefined> {
    const id = domains?.get(domain);
    if (id !== undefined) {
      const site = await siteById(id, fresh);
      if (site && shopDomainOf(site) === domain) return site;
    }
    const reloaded = (await reloadDomains()).get(domain);
    return reloaded === undefined ? undefined : siteById(reloaded, false);
  }

  /** Forget the cached sites (a store's settings changed). */
  const invalidateSites = () => {
    domains = undefined;
    cached.clear();
  };

  async function webhookSite(domainHeader: string | undefined, slug: string | undefined, fresh: boolean): Promise<Site> {
    const domain = domainHeader?.trim().toLowerCase() || undefined;
    if (slug) {
      const site = await siteBySlug(slug, fresh);
      if (!site) throw unauthorized('Unknown site');
      const configured = shopDomainOf(site);
      if (domain && configured && configured !== domain) throw unauthorized('The shop domain does not match the site');
      return site;
    }
    if (!domain) throw unauthorized(`Missing ${SHOPIFY_HEADERS.shopDomain} header`);
    const site = await siteByDomain(domain, fresh);
    if (!site) throw unauthorized('Unknown shop domain');
    return site;
  }

  /** The site the webhook is for, its signature checked against the site's current or previous secret. */
  async function verifiedSite(input: WebhookInput, hmac: string, fresh: boolean): Promise<Site> {
    const site = await webhookSite(input.header(SHOPIFY_HEADERS.shopDomain), input.siteSlug, fresh);
    const secrets = [envValue(site.settings.env, STORE_KEYS.secret), envValue(site.settings.env, STORE_KEYS.previousSecret)];
    if (!secrets.some(Boolean)) throw unauthorized('No webhook secret is set for this store');
    if (!verifyShopifySignature(input.rawBody, hmac, secrets)) throw unauthorized('Invalid webhook signature');
    return site;
  }

  // -------------------------------------------------------------------------------------------
  // Ingest: verify, store once, answer; processing runs after the answer.

  async function receiveWebhook(input: WebhookInput): Promise<WebhookAnswer> {
    const required = [SHOPIFY_HEADERS.hmac, SHOPIFY_HEADERS.topic, SHOPIFY_HEADERS.eventId, SHOPIFY_HEADERS.webhookId];
    const headers: Record<string, string> = {};
    for (const name of required) {
      const value = input.header(name)?.trim();
      if (!value) throw unauthorized(`Missing ${name} header`);
      headers[name] = value;
    }
    let site: Site;
    try {
      site = await verifiedSite(input, headers[SHOPIFY_HEADERS.hmac], false);
    } catch (err) {
      // Refused against cached settings: decided again on a fresh read (a secret changed a moment ago).
      if (!(err instanceof HttpError && err.status === 401)) throw err;
      site = await verifiedSite(input, headers[SHOPIFY_HEADERS.hmac], true);
    }

    let payload: unknown;
    try {
      payload = parseJsonInt64Safe(input.rawBody.toString('utf8'));
    } catch {
      throw badRequest('The request body is not valid JSON');
    }
    const topic = headers[SHOPIFY_HEADERS.topic].toLowerCase();
    const known = isOrderTopic(topic);
    if (known) {
      try {
        normaliseOrder(payload);
      } catch (err) {
        if (err instanceof PayloadError) throw badRequest(err.message);
        throw err;
      }
    }
    const eventId = headers[SHOPIFY_HEADERS.eventId].slice(0, 128);
    // One statement (one transaction): a duplicate event id inserts nothing, also under concurrency.
    const deliveryId = await inbox.store({
      source: SHOPIFY_SOURCE,
      eventId,
      deliveryId: headers[SHOPIFY_HEADERS.webhookId].slice(0, 128),
      siteId: site.id,
      topic: topic.slice(0, 64),
      payload,
      status: known ? 'received' : 'ignored',
      receivedAt: isoNow(clock),
    });
    if (deliveryId === undefined) return { duplicate: true };
    if (!known) return { ignored: true, topic };
    return { received: true, deliveryId };
  }

  // After the answer: the inbox claims and processes the delivery (batched with others that
  // arrived meanwhile) with the handler below, and its recovery pass retries whatever fails.

  /** The batch the inbox claimed: applied per site (orders read once and written once); the inbox marks it processed. */
  async function applyBatch(trx: Knex.Transaction, deliveries: Delivery[]): Promise<void> {
    const bySite = new Map<number, Delivery[]>();
    for (const d of deliveries) {
      if (d.siteId === null) throw new Error('The delivery has no site (the site was deleted)');
      bySite.set(d.siteId, [...(bySite.get(d.siteId) ?? []), d]);
    }
    for (const [siteId, list] of bySite) {
      const site = sendPort ? await sitesRepo(trx).byId(siteId) : undefined;
      // An auto-send site: one delivery after the other, each deciding what to send as it goes.
      if (site && envValue(site.settings.env, STORE_KEYS.autoSend) === '1') for (const d of list) await applyDelivery(trx, d);
      else await applyOrders(trx, siteId, list);
    }
  }

  /** applyDelivery's rules for a site's deliveries in id order (no auto-send), each order read once and written once. */
  async function applyOrders(trx: Knex.Transaction, siteId: number, list: Delivery[]): Promise<void> {
    const repo = ordersRepo(trx);
    const incoming = list.map((d) => ({ topic: d.topic ?? '', order: normaliseOrder(d.payload) }));
    const orderIds = [...new Set(incoming.map((x) => x.order.id))];
    await repo.lockOrders(siteId, orderIds);
    const stored = await repo.orderStates(siteId, orderIds, true);
    const now = isoNow(clock);
    const next = new Map<string, { id?: number; order: ShopifyOrder; status: string; data: OrderData; createdAt: string }>();
    for (const { topic, order } of incoming) {
      const current = next.get(order.id) ?? stored.get(order.id);
      if (current && isOlder(order, current.data)) continue;
      const status = nextStatus(current?.status, order);
      const data = mergeOrderData(current?.data, order, topic, status);
      const before = next.get(order.id);
      next.set(order.id, { id: stored.get(order.id)?.id, order, status, data, createdAt: before?.createdAt ?? orderCreatedAt(order, now) });
    }
    const fresh = [];
    for (const [orderId, o] of next) {
      if (o.id !== undefined) await repo.updateOrder(o.id, { name: o.order.name, status: o.status, searchText: orderSearchText(o.order), data: o.data, before: stored.get(orderId)?.data, updatedAt: now });
      else fresh.push({ siteId, orderId, name: o.order.name, status: o.status, searchText: orderSearchText(o.order), data: o.data, createdAt: o.createdAt, updatedAt: now });
    }
    await repo.insertOrders(fresh);
  }

  // -------------------------------------------------------------------------------------------
  // Processing one delivery: upsert the order record (newest updated_at wins) and, for an
  // auto-send site, queue the provider send in the same transaction.

  async function applyDelivery(trx: Knex.Transaction, d: { id: number; siteId: number | null; topic: string | null; payload: unknown }): Promise<'stored' | 'stale'> {
    if (d.siteId === null) throw new Error('The delivery has no site (the site was deleted)');
    const order = normaliseOrder(d.payload);
    const repo = ordersRepo(trx);
    await repo.lockOrder(d.siteId, order.id);
    const existing = await repo.orderOf(d.siteId, order.id, true);
    if (existing && isOlder(order, existing.data)) return 'stale';
    const now = isoNow(clock);
    const status = nextStatus(existing?.status, order);
    const data = mergeOrderData(existing?.data, order, d.topic ?? '', status);
    if (existing) {
      await repo.updateOrder(existing.id, { name: order.name, status, searchText: orderSearchText(order), data, before: existing.data, updatedAt: now });
    } else {
      await repo.insertOrders([{ siteId: d.siteId, orderId: order.id, name: order.name, status, searchText: orderSearchText(order), data, createdAt: orderCreatedAt(order, now), updatedAt: now }]);
    }
    if (status === RECEIVED && sendPort) {
      const site = await sitesRepo(trx).byId(d.siteId);
      if (site && envValue(site.settings.env, STORE_KEYS.autoSend) === '1' && (await services.production.autoSendable(trx, d.siteId, order))) {
        await sendPort.enqueueOrderSend(trx, { siteId: d.siteId, orderId: order.id });
      }
    }
    return 'stored';
  }

  inbox.register({
    source: SHOPIFY_SOURCE,
    mode: 'transaction',
    apply: async (trx, d) => void (await applyDelivery(trx, d)),
    applyBatch,
  });

  // -------------------------------------------------------------------------------------------
  // Finding orders, with tenancy: a non-admin sees their site's orders; another site's is unknown.

  /** The site the caller may look in: admin any (or all), a non-admin only their own (asking for another → 403). */
  function siteScope(actor: Actor, siteId: number | undefined): number | undefined {
    if (isAdmin(actor)) return siteId;
    if (siteId !== undefined && siteId !== actor.siteId) throw forbidden("You can only look at your own site's orders");
    return actor.siteId;
  }

  async function findOrders(actor: Actor, by: { id?: string; name?: string; siteId?: number }): Promise<OrderRecord[]> {
    const siteId = siteScope(actor, by.siteId);
    const repo = ordersRepo(db);
    let found: OrderRecord[] = [];
    if (by.id) found = await repo.findOrders({ orderId: by.id, siteId });
    if (!found.length && by.name) found = await repo.findOrders({ names: [...new Set([by.name.trim(), orderNameOf(by.name)])], siteId });
    // "1001" typed into the id box: try it as an order name too.
    if (!found.length && by.id && !by.name && /^#?\d{1,9}$/.test(by.id)) found = await repo.findOrders({ names: [orderNameOf(by.id)], siteId });
    if (!found.length) throw notFound('Order not found');
    return found;
  }

  /** One order by store order id (the newest if an admin's id matches orders of several sites). */
  async function orderFor(actor: Actor, id: string, siteId?: number): Promise<OrderRecord> {
    const found = await ordersRepo(db).findOrders({ orderId: id, siteId: siteScope(actor, siteId) }, 1);
    if (!found[0]) throw notFound('Order not found');
    return found[0];
  }

  /** The contract's `getOrder(siteId, orderId)`: the order record, or undefined. */
  const getOrder = (siteId: number, orderId: string) => ordersRepo(db).orderOf(siteId, orderId);

  /** check-order: the order's records (order, provider events, sends), newest first. */
  async function checkOrder(actor: Actor, input: CheckOrderInput): Promise<DataRecord[]> {
    const orders = await findOrders(actor, input);
    const repo = ordersRepo(db);
    const logs = (
      await Promise.all(
        orders.map(async (o) => {
          // The order's own record says where each of its lines is made (in house or by the provider).
          const [records, production] = await Promise.all([repo.logsOf(o.siteId, o.field1!), services.production.whereMade(o.siteId, o.field1!)]);
          return records.map((r) => (r.type === ORDER_TYPE ? { ...r, data: { ...r.data, production } } : r));
        }),
      )
    ).flat();
    return logs.sort((a, b) => (a.createdAt === b.createdAt ? b.id - a.id : a.createdAt < b.createdAt ? 1 : -1));
  }

  // -------------------------------------------------------------------------------------------
  // Re-run

  async function rerunOrder(actor: Actor, input: RerunOrderInput): Promise<{ ran: string[]; skipped: Array<{ step: string; reason: string }> }> {
    const order = await orderFor(actor, input.id, input.siteId);
    const flags = input.flags;
    if (!flags.addToAdestra && !flags.addToRaisersEdge && !flags.sendEcard && !flags.sendToHP) throw badRequest('flags: choose at least one step to re-run');
    const site = await sites.byId(order.siteId);
    const ran: string[] = [];
    const skipped: Array<{ step: string; reason: string }> = [];
    for (const step of ['addToAdestra', 'addToRaisersEdge', 'sendEcard'] as const) {
      if (!flags[step]) continue;
      const keys = RERUN_STEPS[step];
      const configured = keys !== null && site !== undefined && keys.every((k) => Boolean(envValue(site.settings.env, k)));
      // The CRM and email-platform steps are not built yet: they are skipped, saying why.
      skipped.push({ step, reason: configured ? 'not available yet: the CRM sync is not built' : 'not configured for this site' });
    }
    if (flags.sendToHP) {
      const blockers = providerBlockers(await services.production.mapLines(order.siteId, order.data));
      if (!sendPort) skipped.push({ step: 'sendToHP', reason: 'sending to the provider is not available on this server' });
      else if (blockers.length) skipped.push({ step: 'sendToHP', reason: blockers.map((b) => `line ${b.lineId}: ${b.reason}`).join('; ') });
      else {
        const port = sendPort;
        try {
          await db.transaction(async (trx) => {
            // Lines in the Jobs queue are sent only on the operator's yes, which Send HP asks for.
            await services.production.takeLinesFromQueue(trx, order.siteId, order.field1!, undefined, actor.id, false);
            await port.enqueueOrderSend(trx, { siteId: order.siteId, orderId: order.field1! }, actor.id);
          });
          ran.push('sendToHP');
        } catch (err) {
          if (!(err instanceof HttpError && err.status === 409)) throw err;
          skipped.push({ step: 'sendToHP', reason: `${err.message} Use Send HP on the order to choose.` });
        }
      }
    }
    return { ran, skipped };
  }

  // -------------------------------------------------------------------------------------------
  // Lines → print jobs, PDFs, images: what prints a line is production's to say.

  /** order-to-arwork: each mapped line's print job (made if it has none, personalised with the line's properties). */
  async function orderToArtwork(actor: Actor, id: string, siteId?: number, ownOrigin?: string): Promise<{ jobs: PrintJob[]; skipped: Array<{ lineId: string; reason: string }> }> {
    const order = await orderFor(actor, id, siteId);
    const mappings = await services.production.mapLines(order.siteId, order.data);
    const jobs: PrintJob[] = [];
    const skipped: Array<{ lineId: string; reason: string }> = [];
    for (const m of mappings) {
      if (!m.design) {
        skipped.push({ lineId: m.line.id, reason: m.reason ?? 'No design' });
        continue;
      }
      try {
        const { job } = await services.production.jobForLine({ siteId: order.siteId, orderId: order.field1!, line: m.line, design: m.design, actorId: actor.id, madeBy: 'inHouse', ownOrigin });
        jobs.push(job);
      } catch (err) {
        // A design that cannot print yet (no artwork, a broken document) is this line's problem only.
        if (!(err instanceof HttpError) || err.status >= 500 || err.status === 409) throw err;
        skipped.push({ lineId: m.line.id, reason: err.message });
      }
    }
    return { jobs, skipped };
  }

  async function lineOf(actor: Actor, input: OrderLineInput): Promise<{ order: OrderRecord; line: OrderLine; mapping: LineMapping<OrderLine> }> {
    const order = await orderFor(actor, input.id, input.siteId);
    const line = order.data.line_items?.find((l) => l.id === input.lineId);
    if (!line) throw notFound('The order has no such line');
    return { order, line, mapping: await services.production.designForLine(order.siteId, line) };
  }

  /** hood-download-pdf: the line's print file, as the Jobs download gives it (the line's job is made if it has none, and marked downloaded). */
  async function linePdf(actor: Actor, input: OrderLineInput & { printInHouse?: boolean }, ownOrigin: string): Promise<Buffer> {
    const { order, line, mapping } = await lineOf(actor, input);
    const existing = await services.production.jobOfLine(order.siteId, order.field1!, line.id);
    if (!existing && !mapping.design) throw badRequest(mapping.reason ?? 'No design');
    return services.production.downloadLineFile(actor, { siteId: order.siteId, orderId: order.field1!, line, design: mapping.design ?? undefined, ownOrigin, printInHouse: input.printInHouse });
  }

  /**
   * hood-generate-image (every page) / hood-generate-page-content-image (`page`, 1-based). A line
   * with a print job answers its pages (what prints); otherwise a personalised design is drawn with
   * the line's properties (`missing` names those that drew their sample) and other designs answer
   * their artwork.
   */
  async function lineImages(actor: Actor, input: OrderLineInput & { page?: number }, ownOrigin?: string): Promise<{ images: string[]; preview: string | null; missing: string[] }> {
    const { order, line, mapping } = await lineOf(actor, input);
    const job = await services.production.jobOfLine(order.siteId, order.field1!, line.id);
    const pick = (images: string[], preview: string | null, missing: string[]) => {
      if (input.page !== undefined && input.page > images.length) throw badRequest(`page: the job has ${images.length} page${images.length === 1 ? '' : 's'}`);
      return { images: input.page === undefined ? images : [images[input.page - 1]], preview, missing };
    };
    if (job && job.artworkUrls.length) {
      const missing = Array.isArray(job.data.missingFields) ? job.data.missingFields.map(String) : [];
      return pick(job.artworkUrls, job.previewUrl, missing);
    }
    if (!mapping.design) throw badRequest(mapping.reason ?? 'No design');
    return services.production.linePages(actor, order.siteId, mapping.design, line, { page: input.page, ownOrigin });
  }

  return {
    receiveWebhook,
    processSoon: inbox.processSoon,
    processDelivery: inbox.processDelivery,
    /** The inbox's recovery pass (every source's deliveries). */
    recoverDeliveries: inbox.recover,
    idle: inbox.idle,
    invalidateSites,
    getOrder,
    mapLines: (siteId: number, order: { line_items: OrderLine[] }) => services.production.mapLines(siteId, order),
    checkOrder,
    rerunOrder,
    orderToArtwork,
    linePdf,
    lineImages,
    /** Wires the provider side after both services exist (and lets tests use a fake). */
    setSendPort: (port: OrderSendPort | undefined) => void (sendPort = port),
  };
}

export type OrdersService = ReturnType<typeof ordersService>;
