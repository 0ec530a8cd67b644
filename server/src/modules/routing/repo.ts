// SQL of routing: the rule sets, the floor's capacity counters, and where each order line was routed.
import type { Knex } from 'knex';
import type { Db } from '../../db';
import { fromJson, toJson } from '../../db';
import type { LineRouting, RoutingAction, RoutingRuleSet } from '../../../../common/api/routing';

type Trx = Db | Knex.Transaction;

export interface LineRouteRow extends LineRouting {
  siteId: number;
  orderId: string;
  lineId: string;
  byUserId: number | null;
  productType: string | null;
  units: number;
  day: string | null;
}

interface Row {
  site_id: number;
  order_id: string;
  line_id: string;
  action: string;
  rule_id: string | null;
  by: string;
  by_user_id: number | null;
  by_name: string | null;
  at: string;
  reason: string | null;
  destination: string | null;
  product_type: string | null;
  units: number;
  day: string | null;
}

const fromRow = (r: Row): LineRouteRow => ({
  siteId: Number(r.site_id),
  orderId: r.order_id,
  lineId: r.line_id,
  action: r.action as RoutingAction,
  ruleId: r.rule_id,
  by: r.by === 'manual' ? 'manual' : 'rule',
  byUserId: r.by_user_id,
  byName: r.by_name,
  at: r.at,
  reason: r.reason,
  destination: r.destination,
  productType: r.product_type,
  units: Number(r.units),
  day: r.day,
});

const NO_RULE_SET: RoutingRuleSet = { rules: [], default: { action: 'hold', reason: 'No rule set' }, capacity: [] };

/** Rule sets parsed from their stored text, shared by every reader: frozen, so none can change another's. */
const parsedSets = new Map<string, RoutingRuleSet>();
const deepFreeze = <T>(value: T): T => {
  if (value && typeof value === 'object' && !Object.isFrozen(value)) {
    Object.freeze(value);
    for (const v of Object.values(value)) deepFreeze(v);
  }
  return value;
};

export function routingRepo(db: Trx) {
  return {
    async ruleSet(siteId: number): Promise<RoutingRuleSet | undefined> {
      const row = (await db('routing_rule_sets').where({ site_id: siteId }).first('rule_set')) as { rule_set: unknown } | undefined;
      if (!row) return undefined;
      // SQLite answers the set as text, read for every order routed: parsed once per text.
      if (typeof row.rule_set !== 'string') return fromJson<RoutingRuleSet>(row.rule_set, NO_RULE_SET);
      let set = parsedSets.get(row.rule_set);
      if (!set) {
        if (parsedSets.size >= 100) parsedSets.clear();
        parsedSets.set(row.rule_set, (set = deepFreeze(fromJson<RoutingRuleSet>(row.rule_set, NO_RULE_SET))));
      }
      return set;
    },

    /** The whole set in one statement: a save is all or nothing. */
    async saveRuleSet(siteId: number, set: RoutingRuleSet, at: string, userId: number | null): Promise<void> {
      await db('routing_rule_sets')
        .insert({ site_id: siteId, rule_set: toJson(set), updated_at: at, updated_by_user_id: userId })
        .onConflict('site_id')
        .merge(['rule_set', 'updated_at', 'updated_by_user_id']);
    },

    /**
     * Takes `units` of a product type's day when they fit under `limit`: the counter row is made
     * once, then raised by one conditional UPDATE, so of two takers of the last slot (two
     * instances on PostgreSQL: the row lock orders them, the second re-reads the raised count)
     * only one gets it.
     */
    async takeCapacity(siteId: number, productType: string, day: string, units: number, limit: number): Promise<boolean> {
      await db('routing_capacity_days').insert({ site_id: siteId, product_type: productType, day, units: 0 }).onConflict(['site_id', 'product_type', 'day']).ignore();
      const n = await db('routing_capacity_days')
        .where({ site_id: siteId, product_type: productType, day })
        .where(db.raw('units + ? <= ?', [units, limit]))
        .update({ units: db.raw('units + ?', [units]) });
      return Number(n) === 1;
    },

    /**
     * Takes `keep` units of a product type's day in one statement when `all` (the units of every
     * line of the order asking for that day, `keep` among them) fit under `limit`; false (nothing
     * taken) otherwise. An upsert whose update is conditional: on PostgreSQL the conflicting row is
     * locked and its latest count checked, so two instances still never take the last slot twice.
     */
    async takeCapacityTogether(siteId: number, productType: string, day: string, keep: number, all: number, limit: number): Promise<boolean> {
      if (all > limit) return false;
      const rows = (await db('routing_capacity_days')
        .insert({ site_id: siteId, product_type: productType, day, units: keep })
        .onConflict(['site_id', 'product_type', 'day'])
        .merge({ units: db.raw('routing_capacity_days.units + ?', [keep]) })
        .where(db.raw('routing_capacity_days.units + ? <= ?', [all, limit]))
        .returning('units')) as unknown[];
      return rows.length === 1;
    },

    /** Gives units back (a line moved out of the floor's day). */
    async releaseCapacity(siteId: number, productType: string, day: string, units: number): Promise<void> {
      await db('routing_capacity_days')
        .where({ site_id: siteId, product_type: productType, day })
        .update({ units: db.raw('CASE WHEN units > ? THEN units - ? ELSE 0 END', [units, units]) });
    },

    /** Units taken per product type (lower case) on these days. */
    async capacityUsed(siteId: number, days: string[]): Promise<Map<string, number>> {
      if (!days.length) return new Map();
      const rows = (await db('routing_capacity_days').where({ site_id: siteId }).whereIn('day', days).select('product_type', 'day', 'units')) as Array<{ product_type: string; day: string; units: number }>;
      return new Map(rows.map((r) => [`${r.day}\n${r.product_type.toLowerCase()}`, Number(r.units)]));
    },

    async routesOfOrder(siteId: number, orderId: string): Promise<Map<string, LineRouteRow>> {
      const rows = (await db('order_line_routes').where({ site_id: siteId, order_id: orderId })) as Row[];
      return new Map(rows.map((r) => [r.line_id, fromRow(r)]));
    },

    /** Where lines went, in one statement: a line has one route, the newest decision replaces it. */
    async saveRoutes(rows: LineRouteRow[]): Promise<void> {
      if (!rows.length) return;
      // One row per line (PostgreSQL refuses a statement that updates a row twice): the last decision.
      const last = [...new Map(rows.map((r) => [`${r.siteId}\n${r.orderId}\n${r.lineId}`, r])).values()];
      await db('order_line_routes')
        .insert(
          last.map((r) => ({
            site_id: r.siteId,
            order_id: r.orderId,
            line_id: r.lineId,
            action: r.action,
            rule_id: r.ruleId,
            by: r.by,
            by_user_id: r.byUserId,
            by_name: r.byName ?? null,
            at: r.at,
            reason: r.reason ? r.reason.slice(0, 400) : null,
            destination: r.destination ?? null,
            product_type: r.productType,
            units: r.units,
            day: r.day,
          })),
        )
        .onConflict(['site_id', 'order_id', 'line_id'])
        .merge();
    },

    /** Lines routed per rule id ('default' for the default) since `since`, by rule only. */
    async routedSince(siteId: number, since: string): Promise<Record<string, number>> {
      const rows = (await db('order_line_routes').where({ site_id: siteId, by: 'rule' }).where('at', '>=', since).select('rule_id').count({ n: '*' }).groupBy('rule_id')) as Array<{ rule_id: string | null; n: number | string }>;
      return Object.fromEntries(rows.map((r) => [r.rule_id ?? 'default', Number(r.n)]));
    },

    /** Held lines, oldest first (Needs attention). */
    async heldLines(siteIds: number[] | 'all', limit: number): Promise<LineRouteRow[]> {
      const q = db('order_line_routes').where({ action: 'hold' }).orderBy('at').orderBy('id').limit(limit);
      if (siteIds !== 'all') q.whereIn('site_id', siteIds);
      return ((await q) as Row[]).map(fromRow);
    },
  };
}

export type RoutingRepo = ReturnType<typeof routingRepo>;
