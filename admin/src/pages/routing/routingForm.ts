// The rules screen's form values ↔ the API's rule set: lists typed as comma-separated text, ranges as
// two numbers, empty fields left out (a condition not given is no condition).
import type { Range, RoutingRule, RoutingThen, RoutingWhen } from '../../../../common/api/routing';

export const LIST_CONDITIONS = ['sku', 'productType', 'country', 'province', 'shippingMethod', 'store'] as const;
export const RANGE_CONDITIONS = ['quantity', 'orderQuantity', 'orderTotal'] as const;

export const CONDITION_LABELS: Record<keyof RoutingWhen, string> = {
  sku: 'SKU (* = any characters)',
  productType: 'Product type',
  designId: 'Design id',
  quantity: 'Line units',
  orderQuantity: 'Order units',
  country: 'Country (ISO, e.g. GB, US)',
  province: 'State / province',
  tags: 'Order tags (any of)',
  property: 'Line property',
  orderTotal: 'Order total',
  shippingMethod: 'Shipping method',
  store: 'Store channel',
};

/** "a, b" → "a" or ["a","b"]; "" → undefined. */
export function listOf(text: string): string | string[] | undefined {
  const items = text
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean);
  return items.length === 0 ? undefined : items.length === 1 ? items[0] : items;
}

export const textOf = (v: string | string[] | undefined): string => (v === undefined ? '' : Array.isArray(v) ? v.join(', ') : v);

export function rangeOf(min: string, max: string): Range | undefined {
  const r: Range = {};
  if (min.trim() !== '') r.min = Number(min);
  if (max.trim() !== '') r.max = Number(max);
  return Object.keys(r).length ? r : undefined;
}

/** A condition set without its empty parts. */
export function cleanWhen(when: RoutingWhen): RoutingWhen {
  return Object.fromEntries(Object.entries(when).filter(([, v]) => v !== undefined && v !== '' && !(Array.isArray(v) && !v.length))) as RoutingWhen;
}

/** An action without the fields its kind does not take. */
export function cleanThen(then: RoutingThen): RoutingThen {
  const out: RoutingThen = { action: then.action };
  if (then.action === 'provider' && then.destination) out.destination = then.destination;
  if (then.reason && (then.action === 'hold' || then.action === 'email')) out.reason = then.reason;
  if (then.action === 'inHouse' && then.ifFull) out.ifFull = then.ifFull;
  if (then.action === 'inHouse' && then.ifOutOfStock) out.ifOutOfStock = then.ifOutOfStock;
  return out;
}

let counter = 0;
export const newRule = (): RoutingRule => ({ id: `rule-${Date.now().toString(36)}-${++counter}`, name: 'New rule', when: {}, then: { action: 'inHouse' } });
