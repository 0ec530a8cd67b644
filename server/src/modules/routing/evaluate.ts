// The rules themselves, pure: does a rule's `when` hold for a line of an order, which rule decides
// (the first that matches, the default last), and which floor day a line routed now counts on.
import type { Range, RoutingCapacity, RoutingRuleSet, RoutingThen, RoutingWhen } from '../../../../common/api/routing';
import { clockTimeIn, dayIn } from '../../lib/time';

/** What the rules read of a line. */
export interface LineFacts {
  lineId: string;
  sku: string | null;
  productType: string | null;
  designId: number | null;
  /** Units to make. */
  units: number;
  properties: Array<{ name: string; value: string }>;
}

/** What the rules read of its order. */
export interface OrderFacts {
  /** Units of every line together. */
  units: number;
  country: string | null;
  /** The shipping address's province code and name (either matches). */
  province: string[];
  tags: string[];
  total: number | null;
  /** The shipping lines' titles and codes. */
  shippingMethods: string[];
  store: string | null;
}

const lower = (s: string) => s.trim().toLowerCase();
const listOf = <T>(v: T | T[] | undefined): T[] => (v === undefined ? [] : Array.isArray(v) ? v : [v]);

const skuRegexCache = new Map<string, RegExp>();
/** A SKU pattern: `*` is any run of characters, everything else literal, case ignored. */
export function skuRegex(pattern: string): RegExp {
  let re = skuRegexCache.get(pattern);
  if (!re) {
    re = new RegExp(`^${pattern.trim().split('*').map((part) => part.replace(/[.*+?^${}()|[\]\\/-]/g, '\\$&')).join('.*')}$`, 'i');
    if (skuRegexCache.size > 5000) skuRegexCache.clear();
    skuRegexCache.set(pattern, re);
  }
  return re;
}

const inRange = (value: number | null, r: Range | undefined) => r === undefined || (value !== null && (r.min === undefined || value >= r.min) && (r.max === undefined || value <= r.max));
const oneOf = (value: string | null, wanted: string | string[] | undefined) => wanted === undefined || (value !== null && listOf(wanted).some((w) => lower(w) === lower(value)));
const anyOf = (values: string[], wanted: string | string[] | undefined) => wanted === undefined || values.some((v) => oneOf(v, wanted));

/** Whether every condition given holds (none given: it matches every line). */
export function matches(when: RoutingWhen, line: LineFacts, order: OrderFacts): boolean {
  if (when.sku !== undefined && !(line.sku !== null && listOf(when.sku).some((p) => skuRegex(p).test(line.sku!.trim())))) return false;
  if (!oneOf(line.productType, when.productType)) return false;
  if (when.designId !== undefined && line.designId !== when.designId) return false;
  if (!inRange(line.units, when.quantity)) return false;
  if (!inRange(order.units, when.orderQuantity)) return false;
  if (!oneOf(order.country, when.country)) return false;
  if (!anyOf(order.province, when.province)) return false;
  if (when.tags !== undefined && !anyOf(order.tags, when.tags)) return false;
  if (when.property !== undefined) {
    const { name, value } = when.property;
    const found = line.properties.filter((p) => lower(p.name) === lower(name));
    if (!found.length || (value !== undefined && !found.some((p) => p.value.trim() === value.trim()))) return false;
  }
  if (!inRange(order.total, when.orderTotal)) return false;
  if (!anyOf(order.shippingMethods, when.shippingMethod)) return false;
  if (!oneOf(order.store, when.store)) return false;
  return true;
}

/** The rule that decides a line: the first whose conditions all hold, else the default (ruleId null). */
export function decide(set: Pick<RoutingRuleSet, 'rules' | 'default'>, line: LineFacts, order: OrderFacts): { ruleId: string | null; then: RoutingThen } {
  for (const rule of set.rules) if (matches(rule.when, line, order)) return { ruleId: rule.id, then: rule.then };
  return { ruleId: null, then: set.default };
}

/** The capacity of a product type (case ignored), if the floor has one. */
export const capacityOf = (set: Pick<RoutingRuleSet, 'capacity'>, productType: string | null): RoutingCapacity | undefined =>
  productType === null ? undefined : set.capacity.find((c) => lower(c.productType) === lower(productType));

/** The floor day a line routed at `at` counts on: today in `timeZone`, or the next day once the cut-off has passed. */
export function floorDay(at: Date, cutoff: string, timeZone: string): string {
  const today = dayIn(at, timeZone);
  if (clockTimeIn(at, timeZone) < cutoff) return today;
  const next = new Date(Date.parse(`${today}T12:00:00Z`) + 86_400_000);
  return next.toISOString().slice(0, 10);
}

/** What a full floor does with a line a rule would make in house: the rule's `ifFull`, else it waits for a person. */
export function whenFull(then: RoutingThen, capacity: RoutingCapacity, day: string): RoutingThen {
  const full = `The floor is full for ${day} (${capacity.unitsPerDay} ${capacity.productType} a day)`;
  if (!then.ifFull) return { action: 'hold', reason: full };
  return { ...then.ifFull, reason: then.ifFull.reason ?? full };
}

/** What a rule does with a line its blanks' stock cannot cover: the rule's `ifOutOfStock` (the shortage its reason), else in house all the same (the job waits for stock). */
export function whenOutOfStock(then: RoutingThen, shortage: string): RoutingThen {
  if (!then.ifOutOfStock) return then;
  return { ...then.ifOutOfStock, reason: then.ifOutOfStock.reason ? `${then.ifOutOfStock.reason} (${shortage})` : shortage };
}
