// What a rule set may say: every object strict (an unknown key is refused, not ignored), countries
// ISO 3166-1 alpha-2, SKU patterns of letters, digits, - _ . / and * wildcards, a default always.
import countries from 'i18n-iso-countries';
import { z } from 'zod';
import { ROUTING_ACTIONS } from '../../../../common/api/routing';
import { rowId } from '../../http/validate';

const text = (max: number) => z.string().trim().min(1).max(max);
const oneOrList = <T extends z.ZodType>(item: T) => z.union([item, z.array(item).min(1).max(200)]);

const range = z
  .strictObject({ min: z.number().min(0).optional(), max: z.number().min(0).optional() })
  .refine((r) => r.min === undefined || r.max === undefined || r.min <= r.max, 'must have min at most max');

const SKU_PATTERN = /^[A-Za-z0-9_\-./ *]+$/;
const skuPattern = z.string().trim().min(1).max(120).regex(SKU_PATTERN, 'must be a SKU with * for any characters (letters, digits, - _ . / and *)');

const country = z
  .string()
  .trim()
  .transform((c) => c.toUpperCase())
  .refine((c) => /^[A-Z]{2}$/.test(c) && countries.isValid(c), 'must be an ISO 3166-1 alpha-2 country code (e.g. GB, US)');

export const routingWhen = z.strictObject({
  sku: oneOrList(skuPattern).optional(),
  productType: oneOrList(text(60)).optional(),
  designId: rowId.optional(),
  quantity: range.optional(),
  orderQuantity: range.optional(),
  country: oneOrList(country).optional(),
  province: oneOrList(text(60)).optional(),
  tags: z.array(text(120)).min(1).max(100).optional(),
  property: z.strictObject({ name: text(120), value: z.string().max(500).optional() }).optional(),
  orderTotal: range.optional(),
  shippingMethod: oneOrList(text(120)).optional(),
  store: oneOrList(text(120)).optional(),
});

const fallback = z.strictObject({
  action: z.enum(['provider', 'hold', 'email']),
  destination: text(120).optional(),
  reason: text(300).optional(),
});

export const routingThen = z
  .strictObject({
    action: z.enum(ROUTING_ACTIONS),
    destination: text(120).optional(),
    reason: text(300).optional(),
    ifFull: fallback.optional(),
    ifOutOfStock: fallback.optional(),
  })
  .superRefine((t, ctx) => {
    if (t.destination !== undefined && t.action !== 'provider') ctx.addIssue({ code: 'custom', path: ['destination'], message: 'is only for Send to HP Site Flow' });
    if (t.ifFull !== undefined && t.action !== 'inHouse') ctx.addIssue({ code: 'custom', path: ['ifFull'], message: 'is only for Make in house' });
    if (t.ifOutOfStock !== undefined && t.action !== 'inHouse') ctx.addIssue({ code: 'custom', path: ['ifOutOfStock'], message: 'is only for Make in house' });
    if (t.action === 'hold' && !t.reason) ctx.addIssue({ code: 'custom', path: ['reason'], message: 'is required to hold a line (staff read it)' });
  });

export const routingRule = z.strictObject({
  id: z.string().trim().min(1).max(60).regex(/^[A-Za-z0-9_-]+$/, 'must be letters, digits, - or _').refine((id) => id !== 'default', 'cannot be "default" (the default has it)'),
  name: text(120),
  when: routingWhen,
  then: routingThen,
});

const capacity = z.strictObject({
  productType: text(60),
  unitsPerDay: z.number().int().min(0).max(1_000_000),
  cutoff: z
    .string()
    .regex(/^([01]\d|2[0-3]):[0-5]\d$/, 'must be a time of day, HH:MM')
    .default('23:59'),
});

export const ruleSetBody = z
  .strictObject({
    rules: z.array(routingRule).max(500).default([]),
    default: routingThen.optional(),
    capacity: z.array(capacity).max(100).default([]),
  })
  .superRefine((set, ctx) => {
    if (!set.default) ctx.addIssue({ code: 'custom', path: ['default'], message: 'is required: a rule set ends with a default action' });
    const ids = new Set<string>();
    set.rules.forEach((r, i) => {
      if (ids.has(r.id)) ctx.addIssue({ code: 'custom', path: ['rules', i, 'id'], message: `repeats "${r.id}": each rule has its own id` });
      ids.add(r.id);
    });
    const types = new Set<string>();
    set.capacity.forEach((c, i) => {
      const key = c.productType.toLowerCase();
      if (types.has(key)) ctx.addIssue({ code: 'custom', path: ['capacity', i, 'productType'], message: `repeats "${c.productType}": one capacity per product type` });
      types.add(key);
    });
  });

export const testBody = z
  .strictObject({
    /** A whole draft set, or draft rules with the saved default and capacity. */
    rules: z.union([z.array(routingRule).max(500), ruleSetBody]).optional(),
    orderIds: z.array(text(40)).min(1).max(500).optional(),
    last: z.number().int().min(1).max(1000).optional(),
  })
  .refine((b) => !(b.orderIds && b.last), { message: 'give either orderIds or last, not both', path: ['orderIds'] });

export const routeNowBody = z
  .strictObject({
    orderId: text(40),
    lineId: text(40).optional(),
    /** A person's choice for the held line instead of today's rules: made in house, or sent to HP Site Flow. */
    to: z.enum(['inHouse', 'provider']).optional(),
  })
  .refine((b) => !b.to || b.lineId, { message: 'is required to choose where a line goes (to)', path: ['lineId'] });

// The answers, as the API reference shows them (what `data` is).
const routingAction = z.enum(ROUTING_ACTIONS);
const fallbackOut = z.object({ action: z.enum(['provider', 'hold', 'email']), destination: z.string().optional(), reason: z.string().optional() });
const thenOut = z.object({ action: routingAction, destination: z.string().optional(), reason: z.string().optional(), ifFull: fallbackOut.optional(), ifOutOfStock: fallbackOut.optional() });
const rangeOut = z.object({ min: z.number().optional(), max: z.number().optional() });
const listOut = z.union([z.string(), z.array(z.string())]);
const whenOut = z.object({
  sku: listOut.optional(),
  productType: listOut.optional(),
  designId: z.number().optional(),
  quantity: rangeOut.optional(),
  orderQuantity: rangeOut.optional(),
  country: listOut.optional(),
  province: listOut.optional(),
  tags: z.array(z.string()).optional(),
  property: z.object({ name: z.string(), value: z.string().optional() }).optional(),
  orderTotal: rangeOut.optional(),
  shippingMethod: listOut.optional(),
  store: listOut.optional(),
});

/** GET and PUT /routing: the set, lines each rule routed in the last 30 days (rule id or "default"), and whether the site saved one. */
export const routingViewAnswer = z
  .object({
    rules: z.array(z.object({ id: z.string(), name: z.string(), when: whenOut, then: thenOut })),
    default: thenOut,
    capacity: z.array(z.object({ productType: z.string(), unitsPerDay: z.number().int(), cutoff: z.string() })),
    routedLast30Days: z.record(z.string(), z.number().int()),
    saved: z.boolean(),
  })
  .meta({ id: 'RoutingView' });

/** POST /routing/test: where each line would go, and units per floor day against capacity. */
export const routingTestAnswer = z
  .object({
    lines: z.array(
      z.object({
        orderId: z.string(),
        orderName: z.string().nullable(),
        lineId: z.string(),
        sku: z.string().nullable(),
        ruleId: z.string().nullable(),
        action: z.union([routingAction, z.literal('none')]),
        reason: z.string().optional(),
        day: z.string().optional(),
      }),
    ),
    perDay: z.array(z.object({ day: z.string(), productType: z.string(), units: z.number(), capacity: z.number().nullable() })),
  })
  .meta({ id: 'RoutingTestResult' });

/** POST /routing/route-now: each line routed, where it went (hold: still held, with why). */
export const routeNowAnswer = z
  .object({ lines: z.array(z.object({ lineId: z.string(), action: routingAction, ruleId: z.string().nullable(), reason: z.string().nullable() })) })
  .meta({ id: 'RouteNowResult' });
