// Routing an order's lines by the site's rules: when an order becomes printable (paid, or created on
// a site that sends then), each line not routed yet gets its place by the first rule that matches
// (or the default), the floor's capacity taken as it goes — in-house lines become print jobs, the
// provider's are queued for HP Site Flow (one provider order per destination), held lines wait
// in Needs attention, e-cards are e-mailed. A use case of orders, production, fulfilment and
// routing together; `routeOrder` is the one place routing starts.
import type { Knex } from 'knex';
import type { Db } from '../db';
import type { Deps } from '../deps';
import { HttpError, badRequest, conflict, notFound } from '../http/errors';
import type { Actor } from '../http/types';
import { isoNow } from '../lib/clock';
import { claimOutboxRow, dueOutboxIds, insertManyOnce, insertOnce, markOutboxFailed, markOutboxSent, type EnqueueOrderSend } from '../modules/fulfilment';
import { AUTOMATIC, byUserId, recordChanges, type ChangeEntry, type HistoryBy } from '../modules/history';
import { latestOrdersOfSite, orderRecordOf, printHold, sendWhenOf, type OrderData, type OrderRecord } from '../modules/orders';
import { ECARD_NOT_PRINTED, providerBlocker, type LineMapping, type ProductionService } from '../modules/production';
import {
  chooseRoute,
  lineRoutesOf,
  planRoute,
  recordManualRoute,
  routesByItself,
  ruleSetOf,
  saveLineRoutes,
  takeFloorCapacityFor,
  type LineFacts,
  type LineRouteRow,
  type OrderFacts,
  type TakeCapacity,
  whenOutOfStock,
} from '../modules/routing';
import { stockShortage } from '../modules/stock';
import { findSite, type Site } from '../modules/sites';
import { unitsToMake } from '../../../common/api/units';
import { outOfStockReason, stockUsesOf } from '../../../common/api/stock';
import { ROUTING_ACTION_NAMES, type LineRouting, type RoutingAction, type RoutingRuleSet, type RoutingTestDay, type RoutingTestLine, type RoutingTestResult, type RoutingThen } from '../../../common/api/routing';

type Trx = Db | Knex.Transaction;

/** Outbox rows of lines routed in house: their print jobs are made after the routing's transaction. */
export const ROUTED_IN_HOUSE_KIND = 'routed-in-house';
const inHouseKey = (siteId: number, orderId: string, lineId: string) => `inhouse:${siteId}:${orderId}:${lineId}`;

export interface RoutingFlowDeps extends Pick<Deps, 'db' | 'clock' | 'log' | 'config'> {
  production: ProductionService;
  /** The provider's outbox (modules/fulfilment). */
  send: { enqueueOrderSend(trx: Trx, input: EnqueueOrderSend, actorId?: number | null): Promise<unknown> };
}

/** What the rules read of an order. */
export function orderFactsOf(order: Pick<OrderData, 'line_items' | 'shipping_address' | 'shipping_lines' | 'tags' | 'total_price' | 'source_name'>): OrderFacts {
  const address = order.shipping_address;
  const total = order.total_price === null || order.total_price === undefined ? null : Number(order.total_price);
  return {
    units: (order.line_items ?? []).reduce((n, l) => n + unitsToMake(l), 0),
    country: address?.country_code ? address.country_code.toUpperCase() : null,
    province: [address?.province_code, address?.province].filter((p): p is string => Boolean(p)),
    tags: (order.tags ?? '')
      .split(',')
      .map((t) => t.trim())
      .filter(Boolean),
    total: total !== null && Number.isFinite(total) ? total : null,
    shippingMethods: (order.shipping_lines ?? []).flatMap((s) => [s.title, s.code]).filter((s): s is string => Boolean(s)),
    store: order.source_name ?? null,
  };
}

/** What the rules read of a line (its design mapped). */
export function lineFactsOf(m: LineMapping): LineFacts {
  const line = m.line as LineMapping['line'] & { properties?: Array<{ name: string; value: unknown }> | null };
  return {
    lineId: String(line.id),
    sku: typeof line.sku === 'string' ? line.sku.trim() || null : null,
    productType: m.design?.productType ?? null,
    designId: m.design?.id ?? null,
    units: unitsToMake(line),
    properties: (line.properties ?? []).map((p) => ({ name: String(p.name), value: p.value === null || p.value === undefined ? '' : String(p.value) })),
  };
}

/** What the line can do of what the rule said: an e-card is e-mailed, a line with no design or no provider SKU waits with the reason. */
function fitToLine(m: LineMapping, then: RoutingThen): RoutingThen {
  if (m.ecard) return then.action === 'email' ? then : { action: 'email', reason: ECARD_NOT_PRINTED };
  if (then.action === 'email') return { action: 'hold', reason: 'E-mail is for e-cards: this line\'s design is printed' };
  if ((then.action === 'inHouse' || then.action === 'provider') && !m.design) return { action: 'hold', reason: m.reason ?? 'No design prints this line' };
  if (then.action === 'provider') {
    const blocker = providerBlocker(m);
    if (blocker) return { action: 'hold', reason: blocker };
  }
  return then;
}

/**
 * A Make in house whose rule says what to do when the stock cannot cover the line: the stock
 * module's shortage of the line's blanks now (read only: the job reserves them when it is made).
 */
async function stockFit(db: Trx, siteId: number, m: LineMapping, then: RoutingThen): Promise<RoutingThen> {
  if (then.action !== 'inHouse' || !then.ifOutOfStock || !m.design) return then;
  const uses = stockUsesOf(m.design.data as { consumes?: unknown } | null);
  if (!uses.length) return then;
  const short = await stockShortage(db, siteId, uses, unitsToMake(m.line));
  return short.length ? whenOutOfStock(then, outOfStockReason(short)) : then;
}

export interface RoutedLine {
  lineId: string;
  action: RoutingAction;
  ruleId: string | null;
  reason: string | null;
}

const describe = (set: RoutingRuleSet, r: { ruleId: string | null; action: RoutingAction; reason?: string | null; destination?: string | null }) => {
  const rule = r.ruleId === null ? 'the default' : `rule "${set.rules.find((x) => x.id === r.ruleId)?.name ?? r.ruleId}"`;
  return `${ROUTING_ACTION_NAMES[r.action]}${r.destination ? ` (${r.destination})` : ''} by ${rule}${r.reason ? `: ${r.reason}` : ''}`;
};

/** What the caller read in its transaction already, not read again: the order's site, and its lines' designs (production's mapLines of the order's lines, in their order). */
export interface RoutingKnown {
  site?: Site;
  lines?: LineMapping[];
}

/**
 * Routes the order's lines not routed yet, in the caller's transaction (the store delivery that made
 * the order printable, or Route now). A site without rules, an order not printable yet (unpaid per
 * SHOPIFY_SEND_WHEN, cancelled) and lines a person already placed (a job, a provider send) are left
 * alone. Lines are routed once: an edit adds lines to route; a cancellation follows the usual rules.
 * The order's writes go together: its routes in one statement, their history entries in one, the
 * floor's capacity one statement per product type and day (takeFloorCapacityFor).
 */
export async function routeOrder(
  ctx: RoutingFlowDeps,
  trx: Knex.Transaction,
  siteId: number,
  order: OrderData,
  opts: { by?: HistoryBy; lineIds?: string[]; rerouteHeld?: boolean; known?: RoutingKnown } = {},
): Promise<RoutedLine[]> {
  const site = opts.known?.site ?? (await findSite(trx, siteId));
  const set = await ruleSetOf(trx, site);
  if (!site || !set) return [];
  if (printHold(order, sendWhenOf(site))) return [];
  const orderId = String(order.id);
  const lines = await ctx.production.routeLines(trx, siteId, { ...order, id: orderId }, undefined, { site, mapped: opts.known?.lines });
  const done = await lineRoutesOf(trx, siteId, orderId);
  const now = ctx.clock.now();
  const at = now.toISOString();
  const facts = orderFactsOf(order);
  const by = opts.by ?? { automatic: AUTOMATIC.routingRules };
  // Each line's rule first, and what it does if it gets its floor units (its stock read as it is).
  const planned = [];
  for (const { mapping: m, job, route } of lines) {
    const lineId = String(m.line.id);
    if (opts.lineIds && !opts.lineIds.includes(lineId)) continue;
    const before = done.get(lineId);
    if (before && !(opts.rerouteHeld && before.action === 'hold')) continue;
    // Units gone, or placed by a person before any rule ran: nothing to route. A line in its change
    // window or waiting for its proof is routed when its wait ends (workflows/waits.ts).
    if (m.removed || job || route.code === 'at-provider' || route.code === 'waiting') continue;
    const plan = planRoute(set, lineFactsOf(m), facts, now, ctx.config.sync.timezone);
    planned.push({ m, lineId, before, plan, ifTaken: fitToLine(m, await stockFit(trx, siteId, m, plan.then)) });
  }
  // Then the floor's capacity, and where a line whose day is full goes instead.
  const asking = planned.filter((p) => p.plan.floor);
  const got = await takeFloorCapacityFor(trx, siteId, asking.map((p) => ({ ...p.plan.floor!, keep: p.ifTaken.action === 'inHouse' })));
  const taken = new Set(asking.filter((_, i) => got[i]));
  const rows: LineRouteRow[] = [];
  const entries: ChangeEntry[] = [];
  const routed: Array<RoutedLine & { destination: string | null }> = [];
  for (const p of planned) {
    const { m, lineId, before } = p;
    const full = p.plan.floor && !taken.has(p);
    const then = full ? fitToLine(m, await stockFit(trx, siteId, m, p.plan.floor!.whenFull)) : p.ifTaken;
    const row: LineRouteRow = {
      siteId,
      orderId,
      lineId,
      action: then.action,
      ruleId: p.plan.ruleId,
      by: 'rule',
      byUserId: null,
      byName: null,
      at,
      reason: then.reason ?? null,
      destination: then.action === 'provider' ? (then.destination ?? null) : null,
      productType: m.design?.productType ?? null,
      units: unitsToMake(m.line),
      day: p.plan.floor && !full && then.action === 'inHouse' ? p.plan.floor.day : null,
    };
    rows.push(row);
    entries.push({ at, siteId, kind: 'order', subjectId: orderId, by, action: 'routed', from: before?.action ?? null, to: then.action, reason: `line ${lineId}: ${describe(set, row)}` });
    routed.push({ lineId, action: then.action, ruleId: row.ruleId, reason: row.reason ?? null, destination: row.destination ?? null });
  }
  await saveLineRoutes(trx, rows);
  await recordChanges(trx, entries);
  // Lines whose units are all gone are not the order's to make: the rest may still go as one order.
  await dispatch(ctx, trx, siteId, orderId, lines.filter((l) => !l.mapping.removed).length, done.size === 0 && lines.every((l) => !l.job && l.route.code !== 'at-provider'), routed, at);
  return routed.map(({ destination: _destination, ...r }) => r);
}

/**
 * Where routed lines go next, in the same transaction: the provider's queued (the whole order as one
 * provider order when every line to make goes there to one destination, else one provider order
 * per destination, named after its first line),
 * in-house lines queued for their print jobs (their outbox rows in one statement). Held and
 * e-mailed lines need nothing more here.
 */
async function dispatch(ctx: RoutingFlowDeps, trx: Knex.Transaction, siteId: number, orderId: string, lineCount: number, untouched: boolean, routed: Array<RoutedLine & { destination: string | null }>, at: string): Promise<void> {
  const toProvider = routed.filter((r) => r.action === 'provider');
  const destinations = [...new Set(toProvider.map((r) => r.destination))];
  const made = routed.filter((r) => r.action !== 'email');
  if (toProvider.length && untouched && destinations.length === 1 && made.length === toProvider.length && routed.length === lineCount) {
    await ctx.send.enqueueOrderSend(trx, { siteId, orderId, destination: destinations[0] ?? undefined });
  } else {
    // One provider order per destination: its lines go together.
    for (const destination of destinations) await ctx.send.enqueueOrderSend(trx, { siteId, orderId, lineIds: toProvider.filter((r) => r.destination === destination).map((r) => r.lineId), destination: destination ?? undefined, together: true });
  }
  await insertManyOnce(
    trx,
    routed.filter((x) => x.action === 'inHouse').map((r) => ({ kind: ROUTED_IN_HOUSE_KIND, dedupeKey: inHouseKey(siteId, orderId, r.lineId), siteId, payload: { siteId, orderId, lineId: r.lineId, actorId: null }, at })),
  );
}

/** The routed-in-house rows due: each line's print job made (in house, by Presswork). A line that cannot be made fails its row with the reason. */
export async function makeRoutedJobs(ctx: RoutingFlowDeps, limit = 50): Promise<{ made: number; failed: number }> {
  const { db, clock, production } = ctx;
  let made = 0;
  let failed = 0;
  for (const id of await dueOutboxIds(db, isoNow(clock), limit, ROUTED_IN_HOUSE_KIND)) {
    const row = await claimOutboxRow(db, id, isoNow(clock), new Date(clock.now().getTime() + 5 * 60_000).toISOString(), false);
    if (!row) continue;
    const { siteId, orderId, lineId, actorId } = row.payload;
    try {
      const order = await orderRecordOf(db, siteId, orderId);
      const line = order?.data.line_items?.find((l) => String(l.id) === lineId);
      if (!order || !line) throw badRequest(`Line ${lineId} is no longer in order ${orderId}`);
      // Cancelled or emptied since it was routed: nothing to make (the order's usual rules hold).
      if (printHold(order.data, 'created') || unitsToMake(line) === 0) {
        await markOutboxSent(db, id, { skipped: 'cancelled or no units left' }, isoNow(clock));
        continue;
      }
      // Made by the rules (no one), or by the person who chose Route now → in house.
      const { job } = await production.jobForLine({ siteId, orderId, line, actorId, madeBy: 'inHouse' });
      await markOutboxSent(db, id, { printJobId: job.id }, isoNow(clock));
      made++;
    } catch (err) {
      if (!(err instanceof HttpError) || err.status >= 500) throw err;
      await markOutboxFailed(db, id, err.message, null, isoNow(clock));
      failed++;
    }
  }
  return { made, failed };
}

/**
 * Route now (an operator, on a held line): the order's held lines (or the one asked) routed again by
 * today's rules — or, with `to`, the one line made in house or sent to HP Site Flow as the person
 * chose (recorded as "manual, by <name>").
 */
export async function routeNow(ctx: RoutingFlowDeps, actor: Actor, site: Site, input: { orderId: string; lineId?: string; to?: 'inHouse' | 'provider' }): Promise<{ lines: RoutedLine[] }> {
  const order = await orderRecordOf(ctx.db, site.id, input.orderId);
  if (!order) throw notFound('Order not found');
  const lines = await ctx.db.transaction(async (trx) => {
    if (input.to && input.lineId) return [await placeHeldLine(ctx, trx, actor, site.id, { ...order.data, id: input.orderId }, input.lineId, input.to)];
    const by = await byUserId(trx, actor.id);
    return routeOrder(ctx, trx, site.id, { ...order.data, id: input.orderId }, { by, lineIds: input.lineId ? [input.lineId] : undefined, rerouteHeld: true });
  });
  await makeRoutedJobs(ctx);
  return { lines };
}

/** A held line placed by a person: its route says so, and it goes where they chose (a print job, or its own provider order). */
async function placeHeldLine(ctx: RoutingFlowDeps, trx: Knex.Transaction, actor: Actor, siteId: number, order: OrderData & { id: string }, lineId: string, to: 'inHouse' | 'provider'): Promise<RoutedLine> {
  const before = (await lineRoutesOf(trx, siteId, order.id)).get(lineId);
  if (before?.action !== 'hold') throw conflict(`Line ${lineId} is not held by a routing rule${before ? ` (it was routed: ${ROUTING_ACTION_NAMES[before.action]})` : ''}: use Send HP or Add to print jobs in Check order`);
  if (printHold(order, 'created')) throw conflict('The order was cancelled in the store: its lines are not made');
  const found = (await ctx.production.routeLines(trx, siteId, order)).find((l) => String(l.mapping.line.id) === lineId);
  if (!found || found.mapping.removed) throw conflict(`Line ${lineId} has no units left to make`);
  const fitted = fitToLine(found.mapping, { action: to });
  if (fitted.action !== to) throw conflict(`Line ${lineId} cannot be ${to === 'inHouse' ? 'made in house' : 'sent to HP Site Flow'}: ${fitted.reason ?? 'its design does not allow it'}`);
  const at = ctx.clock.now().toISOString();
  await recordManualRoute(trx, { siteId, orderId: order.id, lineIds: [lineId], action: to, actorId: actor.id, at });
  if (to === 'provider') await ctx.send.enqueueOrderSend(trx, { siteId, orderId: order.id, lineIds: [lineId] }, actor.id);
  else await insertOnce(trx, { kind: ROUTED_IN_HOUSE_KIND, dedupeKey: inHouseKey(siteId, order.id, lineId), siteId, payload: { siteId, orderId: order.id, lineId, actorId: actor.id }, at });
  return { lineId, action: to, ruleId: null, reason: null };
}

/**
 * Test rules: a rule set over chosen orders (or the site's last N), oldest first, each line routed
 * as it would have been when its order came in, capacity counted from zero for the run — and
 * nothing written.
 */
export async function testRouting(ctx: RoutingFlowDeps, site: Site, set: RoutingRuleSet, input: { orderIds?: string[]; last?: number }): Promise<RoutingTestResult> {
  const { db, production } = ctx;
  let orders: OrderRecord[];
  if (input.orderIds) {
    const found = await Promise.all(input.orderIds.map((id) => orderRecordOf(db, site.id, id)));
    const missing = input.orderIds.filter((_, i) => !found[i]);
    if (missing.length) throw badRequest(`No order ${missing.join(', ')} in this site`);
    orders = found as OrderRecord[];
  } else orders = await latestOrdersOfSite(db, site.id, input.last ?? 20);
  orders = [...orders].sort((a, b) => (a.createdAt < b.createdAt ? -1 : a.createdAt > b.createdAt ? 1 : a.id - b.id));
  const used = new Map<string, number>();
  const take: TakeCapacity = async (productType, day, units, limit) => {
    const key = `${day}\n${productType}`;
    const now = used.get(key) ?? 0;
    if (now + units > limit) return false;
    used.set(key, now + units);
    return true;
  };
  const lines: RoutingTestLine[] = [];
  const inHouse = new Map<string, RoutingTestDay>();
  for (const order of orders) {
    const orderId = order.field1 ?? String(order.data.id);
    const facts = orderFactsOf(order.data);
    const at = new Date(order.data.created_at ?? order.createdAt);
    for (const m of await production.mapLines(site.id, { line_items: order.data.line_items ?? [] })) {
      const base = { orderId, orderName: order.data.name ?? null, lineId: String(m.line.id), sku: m.line.sku ?? null };
      if (m.removed) {
        lines.push({ ...base, ruleId: null, action: 'none', reason: m.reason ?? 'No units left' });
        continue;
      }
      const facts1 = lineFactsOf(m);
      const choice = await chooseRoute(set, facts1, facts, at, ctx.config.sync.timezone, take);
      // Stock as it is now: a test run reserves nothing.
      const then = fitToLine(m, await stockFit(db, site.id, m, choice.then));
      if (choice.day && then.action !== 'inHouse') used.set(`${choice.day}\n${facts1.productType!.toLowerCase()}`, (used.get(`${choice.day}\n${facts1.productType!.toLowerCase()}`) ?? 0) - facts1.units);
      const day = then.action === 'inHouse' ? (choice.day ?? undefined) : undefined;
      lines.push({ ...base, ruleId: choice.ruleId, action: then.action, ...(then.reason ? { reason: then.reason } : {}), ...(day ? { day } : {}) });
      if (then.action === 'inHouse') {
        const d = day ?? at.toISOString().slice(0, 10);
        const type = facts1.productType ?? 'Other';
        const key = `${d}\n${type.toLowerCase()}`;
        const cap = set.capacity.find((c) => c.productType.toLowerCase() === type.toLowerCase());
        const entry = inHouse.get(key) ?? { day: d, productType: cap?.productType ?? type, units: 0, capacity: cap?.unitsPerDay ?? null };
        entry.units += facts1.units;
        inHouse.set(key, entry);
      }
    }
  }
  const perDay = [...inHouse.values()].sort((a, b) => (a.day === b.day ? a.productType.localeCompare(b.productType) : a.day < b.day ? -1 : 1));
  return { lines, perDay };
}

/** Each routed line's decision as an order line carries it: `{action, ruleId, by, at}` (with the rule's name, the person's name, the reason, the destination). */
export async function routesShownOf(db: Db, siteId: number, orderId: string): Promise<Map<string, LineRouting>> {
  const rows = await lineRoutesOf(db, siteId, orderId);
  const set = [...rows.values()].some((r) => r.ruleId) ? await ruleSetOf(db, await findSite(db, siteId)) : undefined;
  const nameOf = (ruleId: string | null) => (ruleId ? set?.rules.find((x) => x.id === ruleId)?.name : undefined);
  return new Map(
    [...rows].map(([lineId, r]) => {
      const ruleName = nameOf(r.ruleId);
      return [lineId, { action: r.action, ruleId: r.ruleId, by: r.by, at: r.at, ...(ruleName ? { ruleName } : {}), ...(r.byName ? { byName: r.byName } : {}), ...(r.reason ? { reason: r.reason } : {}), ...(r.destination ? { destination: r.destination } : {}) }];
    }),
  );
}

/** Routing's use cases built once (services.ts): the orders' port, the screen's ports and the in-house worker's pass. */
export function orderRouting(ctx: RoutingFlowDeps) {
  return {
    /** The orders' port: called as a store delivery is stored. */
    port: {
      routesByItself: (trx: Knex.Transaction, site: Site | undefined) => routesByItself(trx, site),
      routeOrder: (trx: Knex.Transaction, siteId: number, order: OrderData, known?: RoutingKnown) => routeOrder(ctx, trx, siteId, order, { known }),
      routesOf: (siteId: number, orderId: string) => routesShownOf(ctx.db, siteId, orderId),
    },
    testRun: (site: Site, set: RoutingRuleSet, input: { orderIds?: string[]; last?: number }) => testRouting(ctx, site, set, input),
    routeNow: (actor: Actor, site: Site, input: { orderId: string; lineId?: string; to?: 'inHouse' | 'provider' }) => routeNow(ctx, actor, site, input),
    /** The worker's pass: print jobs of lines routed in house. */
    processDue: () => makeRoutedJobs(ctx),
  };
}

export type OrderRouting = ReturnType<typeof orderRouting>;
