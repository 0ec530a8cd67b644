// A site's routing rules: read and saved whole (admins), the set a site routes with (its own, or the
// one HP_AUTO_SEND stands for on a site that never saved one), and the choice for one line with the
// floor's capacity taken as it is made. Where an order's lines then go is the workflow's
// (workflows/routeOrder.ts): it reads orders, production and fulfilment, which sit above this.
import type { Knex } from 'knex';
import type { Db } from '../../db';
import type { Deps } from '../../deps';
import { notFound } from '../../http/errors';
import type { Actor } from '../../http/types';
import { isoNow } from '../../lib/clock';
import { assertAdmin, isAdmin } from '../auth';
import { findSite, findSiteBySlug, type Site } from '../sites';
import { autoSendOf } from '../orders';
import type { RoutingRuleSet, RoutingTestResult, RoutingThen, RoutingView } from '../../../../common/api/routing';
import { capacityOf, decide, floorDay, whenFull, type LineFacts, type OrderFacts } from './evaluate';
import { routingRepo } from './repo';
import type { z } from 'zod';
import type { routeNowBody, testBody } from './schema';

type Trx = Db | Knex.Transaction;

/** What a site with HP_AUTO_SEND on and no rule set of its own routes by: every line to HP Site Flow. */
export const AUTO_SEND_RULE_SET: RoutingRuleSet = { rules: [], default: { action: 'provider' }, capacity: [] };

/** The rule set a site routes with: its own, else the one HP_AUTO_SEND stands for, else none (lines wait for a person). */
export async function ruleSetOf(db: Trx, site: Pick<Site, 'id' | 'settings'> | undefined): Promise<RoutingRuleSet | undefined> {
  if (!site) return undefined;
  const own = await routingRepo(db).ruleSet(site.id);
  if (own) return own;
  return autoSendOf(site.settings.env) ? AUTO_SEND_RULE_SET : undefined;
}

/** Does the site route its orders' lines by itself? */
export const routesByItself = async (db: Trx, site: Pick<Site, 'id' | 'settings'> | undefined): Promise<boolean> => Boolean(await ruleSetOf(db, site));

/** Takes a product type's units on a floor day, if they fit (the real counters, or a test run's own). */
export type TakeCapacity = (productType: string, day: string, units: number, limit: number) => Promise<boolean>;

export interface RouteChoice {
  ruleId: string | null;
  then: RoutingThen;
  /** The floor day an in-house line took capacity on (null: none taken, no capacity set). */
  day: string | null;
}

/** A line's rule choice before the floor is asked: the floor day it would take units on, if any. */
export interface PlannedRoute {
  ruleId: string | null;
  then: RoutingThen;
  /** A Make in house whose product type has a capacity: its units asked of that floor day, and what the line does when the day is full. */
  floor?: FloorAsk & { whenFull: RoutingThen };
}

/** Units of a product type (lower case) asked of a floor day under its limit. */
export interface FloorAsk {
  productType: string;
  day: string;
  units: number;
  limit: number;
}

/** The first matching rule (else the default) for a line at `at`, and the floor day a Make in house whose product type has a capacity counts on. */
export function planRoute(set: RoutingRuleSet, line: LineFacts, order: OrderFacts, at: Date, timeZone: string): PlannedRoute {
  const { ruleId, then } = decide(set, line, order);
  if (then.action !== 'inHouse') return { ruleId, then };
  const capacity = capacityOf(set, line.productType);
  if (!capacity) return { ruleId, then };
  const day = floorDay(at, capacity.cutoff, timeZone);
  return { ruleId, then, floor: { productType: capacity.productType.toLowerCase(), day, units: line.units, limit: capacity.unitsPerDay, whenFull: whenFull(then, capacity, day) } };
}

/**
 * The choice for one line at `at`: the first matching rule (else the default); a Make in house
 * whose product type has a capacity takes its units on that floor day, or, when the floor is full,
 * does what the rule says then (held, by default).
 */
export async function chooseRoute(set: RoutingRuleSet, line: LineFacts, order: OrderFacts, at: Date, timeZone: string, take: TakeCapacity): Promise<RouteChoice> {
  const { ruleId, then, floor } = planRoute(set, line, order, at, timeZone);
  if (!floor) return { ruleId, then, day: null };
  if (await take(floor.productType, floor.day, floor.units, floor.limit)) return { ruleId, then, day: floor.day };
  return { ruleId, then: floor.whenFull, day: null };
}

/** The real counters, in the caller's transaction. */
export const takeFloorCapacity =
  (db: Trx, siteId: number): TakeCapacity =>
  (productType, day, units, limit) =>
    routingRepo(db).takeCapacity(siteId, productType, day, units, limit);

/**
 * The floor's units for an order's lines, in the caller's transaction: answers, per ask, whether
 * it got them. `keep` false: the line does not stay on the floor even with its units (its stock
 * sends it elsewhere), so they are only asked, as taking them one after the other would ask
 * them and give them back. Per product type and day one statement takes the kept units when
 * every asking line fits (then each would have fitted in turn); otherwise the lines ask in turn.
 */
export async function takeFloorCapacityFor(db: Trx, siteId: number, asks: Array<FloorAsk & { keep: boolean }>): Promise<boolean[]> {
  const repo = routingRepo(db);
  const got = asks.map(() => false);
  const groups = new Map<string, number[]>();
  asks.forEach((a, i) => groups.set(`${a.day}\n${a.productType}`, [...(groups.get(`${a.day}\n${a.productType}`) ?? []), i]));
  for (const group of groups.values()) {
    const first = asks[group[0]];
    const all = group.reduce((n, i) => n + asks[i].units, 0);
    const keep = group.reduce((n, i) => n + (asks[i].keep ? asks[i].units : 0), 0);
    if (await repo.takeCapacityTogether(siteId, first.productType, first.day, keep, all, first.limit)) {
      for (const i of group) got[i] = true;
      continue;
    }
    for (const i of group) {
      const a = asks[i];
      got[i] = await repo.takeCapacity(siteId, a.productType, a.day, a.units, a.limit);
      if (got[i] && !a.keep) await repo.releaseCapacity(siteId, a.productType, a.day, a.units);
    }
  }
  return got;
}

/** The workflow's side of the screen: a test run, and Route now on held lines. */
export interface RoutingPorts {
  testRun(site: Site, set: RoutingRuleSet, input: { orderIds?: string[]; last?: number }): Promise<RoutingTestResult>;
  routeNow(actor: Actor, site: Site, input: z.infer<typeof routeNowBody>): Promise<unknown>;
}

export function routingService(deps: Pick<Deps, 'db' | 'clock'>, ports: RoutingPorts) {
  const { db, clock } = deps;

  /** The site of `/api/sites/:site` (its id or slug), for an admin. */
  async function siteFor(actor: Actor, param: string): Promise<Site> {
    assertAdmin(actor, 'Only an admin can see or change routing rules');
    const site = /^\d{1,9}$/.test(param) ? await findSite(db, Number(param)) : await findSiteBySlug(db, param);
    if (!site) throw notFound('Site not found');
    return site;
  }

  /** The site of Route now: its own users place its held lines as admins do (Send HP, Add to print jobs are theirs too). */
  async function siteForOperator(actor: Actor, param: string): Promise<Site> {
    const site = /^\d{1,9}$/.test(param) ? await findSite(db, Number(param)) : await findSiteBySlug(db, param);
    if (!site || (!isAdmin(actor) && site.id !== actor.siteId)) throw notFound('Site not found');
    return site;
  }

  async function view(site: Site): Promise<RoutingView> {
    const set = (await ruleSetOf(db, site)) ?? { rules: [], default: { action: 'hold', reason: 'Routed by a person' }, capacity: [] };
    const since = new Date(clock.now().getTime() - 30 * 86_400_000).toISOString();
    return { ...set, routedLast30Days: await routingRepo(db).routedSince(site.id, since) };
  }

  return {
    siteFor,
    async get(actor: Actor, param: string): Promise<RoutingView & { saved: boolean }> {
      const site = await siteFor(actor, param);
      return { ...(await view(site)), saved: Boolean(await routingRepo(db).ruleSet(site.id)) };
    },
    async save(actor: Actor, param: string, set: RoutingRuleSet): Promise<RoutingView & { saved: boolean }> {
      const site = await siteFor(actor, param);
      await routingRepo(db).saveRuleSet(site.id, set, isoNow(clock), actor.id);
      return { ...(await view(site)), saved: true };
    },
    /** A draft (or the saved set, or saved rules with draft ones) over chosen or recent orders; nothing is written. */
    async test(actor: Actor, param: string, input: z.infer<typeof testBody>): Promise<RoutingTestResult> {
      const site = await siteFor(actor, param);
      const saved = (await ruleSetOf(db, site)) ?? { rules: [], default: { action: 'hold', reason: 'Routed by a person' }, capacity: [] };
      const set: RoutingRuleSet = input.rules === undefined ? saved : Array.isArray(input.rules) ? { ...saved, rules: input.rules } : { ...input.rules, default: input.rules.default! };
      return ports.testRun(site, set, { orderIds: input.orderIds, last: input.orderIds ? undefined : (input.last ?? 20) });
    },
    async routeNow(actor: Actor, param: string, input: z.infer<typeof routeNowBody>) {
      const site = await siteForOperator(actor, param);
      return ports.routeNow(actor, site, input);
    },
  };
}

export type RoutingService = ReturnType<typeof routingService>;
