// Routing rules of a site, as the API and the Setup → Routing screen both read them: an ordered list
// of rules (the first that matches a line decides), a default that ends the list, and the floor's
// capacity per product type and day.

export const ROUTING_ACTIONS = ['inHouse', 'provider', 'hold', 'email'] as const;
export type RoutingAction = (typeof ROUTING_ACTIONS)[number];

/** How each action is named on the screens. */
export const ROUTING_ACTION_NAMES: Record<RoutingAction, string> = {
  inHouse: 'Make in house',
  provider: 'Send to HP Site Flow',
  hold: 'Hold for review',
  email: 'E-mail (e-cards)',
};

export interface Range {
  min?: number;
  max?: number;
}

/** The conditions of a rule: all optional, all given must hold. */
export interface RoutingWhen {
  /** `*` matches any run of characters; a list matches when one of it does. */
  sku?: string | string[];
  productType?: string | string[];
  designId?: number;
  /** The line's units. */
  quantity?: Range;
  /** The order's units, every line together. */
  orderQuantity?: Range;
  /** ISO 3166-1 alpha-2 of the shipping address. */
  country?: string | string[];
  province?: string | string[];
  /** The order has any of these tags. */
  tags?: string[];
  /** The line has this property (with this value, when given). */
  property?: { name: string; value?: string };
  orderTotal?: Range;
  shippingMethod?: string | string[];
  /** The sales channel the order came through (the store's source_name: web, pos, …). */
  store?: string | string[];
}

/** What a full floor (or missing stock) does instead of making a line in house. */
export interface RoutingFallback {
  action: Exclude<RoutingAction, 'inHouse'>;
  destination?: string;
  reason?: string;
}

export interface RoutingThen {
  action: RoutingAction;
  /** The provider's destination account (provider only; default: the site's HP_DESTINATION). */
  destination?: string;
  /** Shown to staff on a held line (hold only). */
  reason?: string;
  /** inHouse only: what happens when the floor is full that day (default: hold). */
  ifFull?: RoutingFallback;
  /**
   * inHouse only: what happens when the stock of the line's blanks cannot cover it (default: made
   * in house all the same, its job held "out of stock: Mugs (short by 3)" until stock is received).
   */
  ifOutOfStock?: RoutingFallback;
}

export interface RoutingRule {
  id: string;
  name: string;
  when: RoutingWhen;
  then: RoutingThen;
}

export interface RoutingCapacity {
  productType: string;
  unitsPerDay: number;
  /** HH:MM in the shop's time zone: lines routed after it count on the next day. */
  cutoff: string;
}

export interface RoutingRuleSet {
  rules: RoutingRule[];
  default: RoutingThen;
  capacity: RoutingCapacity[];
}

/** Where a line went and who decided: a rule (its id, null for the default) or a person. */
export interface LineRouting {
  action: RoutingAction;
  ruleId: string | null;
  by: 'rule' | 'manual';
  at: string;
  /** The person (by: manual). */
  byName?: string | null;
  /** The rule's name in the site's rules now (absent: the default, or a rule removed since). */
  ruleName?: string | null;
  /** Why it waits (hold), or why the floor did not take it. */
  reason?: string | null;
  destination?: string | null;
}

/** GET /api/sites/:site/routing: the rule set and how many lines each rule routed in the last 30 days. */
export interface RoutingView extends RoutingRuleSet {
  /** Rule id (or "default") → lines routed in the last 30 days. */
  routedLast30Days: Record<string, number>;
}

export interface RoutingTestLine {
  orderId: string;
  orderName: string | null;
  lineId: string;
  sku: string | null;
  ruleId: string | null;
  action: RoutingAction | 'none';
  /** Why (hold, a full floor, a line that is not routed: an e-card without a design, units gone). */
  reason?: string;
  /** The floor's day an in-house line counts on. */
  day?: string;
}

export interface RoutingTestDay {
  day: string;
  productType: string;
  units: number;
  /** Units a day the floor makes (null: no limit set). */
  capacity: number | null;
}

export interface RoutingTestResult {
  lines: RoutingTestLine[];
  perDay: RoutingTestDay[];
}
