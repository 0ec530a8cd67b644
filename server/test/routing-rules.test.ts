// Routing rules without a database: each condition, first match, the default, the floor's day in the
// shop's time zone (cut-off, midnight), a full floor, and what a rule set may say.
import { describe, expect, it } from 'vitest';
import { decide, floorDay, matches, whenOutOfStock, type LineFacts, type OrderFacts } from '../src/modules/routing';
import { chooseRoute, ruleSetBody, type TakeCapacity } from '../src/modules/routing';
import { parse } from '../src/http/validate';
import type { RoutingRuleSet, RoutingWhen } from '../../common/api/routing';

const line = (o: Partial<LineFacts> = {}): LineFacts => ({ lineId: '1', sku: 'CARD-XMAS-01', productType: 'Card', designId: 7, units: 2, properties: [{ name: 'Message', value: 'Hi' }], ...o });
const order = (o: Partial<OrderFacts> = {}): OrderFacts => ({ units: 5, country: 'GB', province: ['ENG', 'England'], tags: ['vip', 'gift'], total: 42.5, shippingMethods: ['Royal Mail 2nd Class', 'RM2'], store: 'web', ...o });

describe('conditions (all given must hold)', () => {
  const cases: Array<[string, RoutingWhen, RoutingWhen]> = [
    ['sku with * wildcards (case ignored)', { sku: 'card-*' }, { sku: 'POSTER-*' }],
    ['sku as a list', { sku: ['MUG-*', '*-XMAS-*'] }, { sku: ['MUG-*'] }],
    ['sku exact', { sku: 'CARD-XMAS-01' }, { sku: 'CARD-XMAS-0' }],
    ['productType', { productType: ['Mug', 'card'] }, { productType: 'Poster' }],
    ['designId', { designId: 7 }, { designId: 8 }],
    ['quantity (line units)', { quantity: { min: 2, max: 2 } }, { quantity: { min: 3 } }],
    ['orderQuantity', { orderQuantity: { max: 50 } }, { orderQuantity: { min: 51 } }],
    ['country', { country: ['US', 'GB'] }, { country: 'US' }],
    ['province (code or name)', { province: 'england' }, { province: 'KY' }],
    ['tags (any of)', { tags: ['wholesale', 'VIP'] }, { tags: ['wholesale'] }],
    ['property name', { property: { name: 'message' } }, { property: { name: 'Photo' } }],
    ['property value', { property: { name: 'Message', value: 'Hi' } }, { property: { name: 'Message', value: 'Bye' } }],
    ['orderTotal', { orderTotal: { min: 40 } }, { orderTotal: { max: 40 } }],
    ['shippingMethod (title or code)', { shippingMethod: 'rm2' }, { shippingMethod: 'DHL' }],
    ['store', { store: 'web' }, { store: 'pos' }],
  ];
  it.each(cases)('%s', (_name, yes, no) => {
    expect(matches(yes, line(), order())).toBe(true);
    expect(matches(no, line(), order())).toBe(false);
    // All given must hold: one failing condition fails the rule.
    expect(matches({ ...yes, ...no }, line(), order())).toBe(false);
  });

  it('a line without a SKU, country or total matches no condition on it', () => {
    expect(matches({ sku: '*' }, line({ sku: null }), order())).toBe(false);
    expect(matches({ country: 'GB' }, line(), order({ country: null }))).toBe(false);
    expect(matches({ orderTotal: { min: 0 } }, line(), order({ total: null }))).toBe(false);
    expect(matches({}, line(), order())).toBe(true);
  });

  it('a pattern is literal but for * (a dot is a dot)', () => {
    expect(matches({ sku: 'A.B' }, line({ sku: 'AxB' }), order())).toBe(false);
    expect(matches({ sku: 'A.B' }, line({ sku: 'A.B' }), order())).toBe(true);
  });
});

describe('which rule decides', () => {
  const set: RoutingRuleSet = {
    rules: [
      { id: 'big', name: 'Over 50 to HP', when: { orderQuantity: { min: 51 } }, then: { action: 'provider' } },
      { id: 'cards', name: 'Cards in house', when: { productType: 'Card' }, then: { action: 'inHouse' } },
      { id: 'us', name: 'US to HP US', when: { country: 'US' }, then: { action: 'provider', destination: 'hp-us' } },
    ],
    default: { action: 'hold', reason: 'Check it' },
    capacity: [],
  };
  it('the first rule that matches, in order', () => {
    expect(decide(set, line(), order({ units: 60 })).ruleId).toBe('big');
    expect(decide(set, line(), order({ country: 'US' })).ruleId).toBe('cards');
    expect(decide(set, line({ productType: 'Poster' }), order({ country: 'US' }))).toEqual({ ruleId: 'us', then: { action: 'provider', destination: 'hp-us' } });
  });
  it('the default when none does', () => {
    expect(decide(set, line({ productType: 'Poster' }), order())).toEqual({ ruleId: null, then: { action: 'hold', reason: 'Check it' } });
  });
});

describe('the floor day (shop time zone, cut-off)', () => {
  it('counts today before the cut-off and the next day from it', () => {
    expect(floorDay(new Date('2026-11-20T15:59:00Z'), '16:00', 'Europe/London')).toBe('2026-11-20');
    expect(floorDay(new Date('2026-11-20T16:00:00Z'), '16:00', 'Europe/London')).toBe('2026-11-21');
  });
  it('goes by the shop\'s midnight, not UTC\'s', () => {
    // 23:30 UTC on the 20th is 00:30 on the 21st in Berlin (winter, UTC+1).
    expect(floorDay(new Date('2026-11-20T23:30:00Z'), '23:59', 'Europe/Berlin')).toBe('2026-11-21');
    expect(floorDay(new Date('2026-11-20T22:58:00Z'), '23:59', 'Europe/Berlin')).toBe('2026-11-20');
    // New York: 03:00 UTC on the 21st is still the 20th there.
    expect(floorDay(new Date('2026-11-21T03:00:00Z'), '23:59', 'America/New_York')).toBe('2026-11-20');
  });
  it('rolls into the next month and year', () => {
    expect(floorDay(new Date('2026-12-31T18:00:00Z'), '17:00', 'Europe/London')).toBe('2027-01-01');
  });
});

describe('capacity', () => {
  const counters = (): TakeCapacity & { used: Map<string, number> } => {
    const used = new Map<string, number>();
    const take = (async (type: string, day: string, units: number, limit: number) => {
      const k = `${day}/${type}`;
      if ((used.get(k) ?? 0) + units > limit) return false;
      used.set(k, (used.get(k) ?? 0) + units);
      return true;
    }) as TakeCapacity & { used: Map<string, number> };
    take.used = used;
    return take;
  };
  const set = (ifFull?: RoutingRuleSet['rules'][number]['then']['ifFull']): RoutingRuleSet => ({
    rules: [{ id: 'cards', name: 'Cards in house', when: { productType: 'Card' }, then: { action: 'inHouse', ...(ifFull ? { ifFull } : {}) } }],
    default: { action: 'provider' },
    capacity: [{ productType: 'Card', unitsPerDay: 5, cutoff: '16:00' }],
  });
  const at = new Date('2026-11-20T10:00:00Z');

  it('fills exactly to the limit; the unit after it overflows to what the rule says', async () => {
    const take = counters();
    const s = set({ action: 'provider', destination: 'hp-overflow' });
    expect((await chooseRoute(s, line({ units: 3 }), order(), at, 'Europe/London', take)).then.action).toBe('inHouse');
    const fits = await chooseRoute(s, line({ units: 2 }), order(), at, 'Europe/London', take);
    expect(fits).toMatchObject({ ruleId: 'cards', then: { action: 'inHouse' }, day: '2026-11-20' });
    const over = await chooseRoute(s, line({ units: 1 }), order(), at, 'Europe/London', take);
    expect(over).toMatchObject({ ruleId: 'cards', then: { action: 'provider', destination: 'hp-overflow', reason: expect.stringContaining('The floor is full for 2026-11-20') }, day: null });
    expect(take.used.get('2026-11-20/card')).toBe(5);
  });

  it('a full floor holds the line when the rule says nothing; after the cut-off the next day has room', async () => {
    const take = counters();
    await chooseRoute(set(), line({ units: 5 }), order(), at, 'Europe/London', take);
    expect((await chooseRoute(set(), line({ units: 1 }), order(), at, 'Europe/London', take)).then).toMatchObject({ action: 'hold', reason: expect.stringMatching(/floor is full/) });
    const later = await chooseRoute(set(), line({ units: 1 }), order(), new Date('2026-11-20T16:30:00Z'), 'Europe/London', take);
    expect(later).toMatchObject({ then: { action: 'inHouse' }, day: '2026-11-21' });
  });

  it('a product type with no capacity is never full', async () => {
    const take = counters();
    const s: RoutingRuleSet = { ...set(), rules: [{ id: 'all', name: 'All in house', when: {}, then: { action: 'inHouse' } }] };
    expect((await chooseRoute(s, line({ productType: 'Mug', units: 999 }), order(), at, 'UTC', take)).then.action).toBe('inHouse');
    expect(take.used.size).toBe(0);
  });
});

describe('out of stock', () => {
  const short = 'out of stock: Mugs (short by 3)';
  it('does what the rule says, with the shortage as the reason (after the rule\'s own)', () => {
    expect(whenOutOfStock({ action: 'inHouse', ifOutOfStock: { action: 'provider', destination: 'hp-us' } }, short)).toEqual({ action: 'provider', destination: 'hp-us', reason: short });
    expect(whenOutOfStock({ action: 'inHouse', ifOutOfStock: { action: 'hold', reason: 'Ask the buyer' } }, short)).toEqual({ action: 'hold', reason: `Ask the buyer (${short})` });
  });
  it('without ifOutOfStock the line is made in house all the same (its job waits for stock)', () => {
    expect(whenOutOfStock({ action: 'inHouse', ifFull: { action: 'provider' } }, short)).toEqual({ action: 'inHouse', ifFull: { action: 'provider' } });
  });
});

describe('what a rule set may say', () => {
  const ok = { rules: [{ id: 'cards', name: 'Cards', when: { sku: 'CARD-*', country: ['gb'] }, then: { action: 'inHouse', ifFull: { action: 'provider' } } }], default: { action: 'provider' }, capacity: [{ productType: 'Card', unitsPerDay: 200, cutoff: '15:00' }] };
  const problem = (body: unknown) => {
    try {
      parse(ruleSetBody, body);
    } catch (err) {
      return (err as { message: string; details?: Array<{ field?: string }> }).details?.[0];
    }
    return undefined;
  };
  it('takes a good set (countries upper-cased)', () => {
    expect(parse(ruleSetBody, ok).rules[0].when.country).toEqual(['GB']);
  });
  it('refuses, naming the rule and field: an unknown key, a country not ISO 3166, a bad SKU pattern, no default', () => {
    expect(problem({ ...ok, rules: [{ ...ok.rules[0], when: { skuu: 'X' } }] })).toMatchObject({ field: 'rules.0.when.skuu' });
    expect(problem({ ...ok, rules: [{ ...ok.rules[0], when: { country: 'UK' } }] })).toMatchObject({ field: 'rules.0.when.country', message: expect.stringMatching(/ISO 3166-1 alpha-2/) });
    expect(problem({ ...ok, rules: [{ ...ok.rules[0], when: { sku: 'CARD-[0-9]+' } }] })).toMatchObject({ field: 'rules.0.when.sku' });
    expect(problem({ ...ok, default: undefined })).toMatchObject({ field: 'default', message: expect.stringMatching(/default action/) });
    expect(problem({ ...ok, extra: 1 })).toBeDefined();
  });
  it('refuses a hold without a reason, a destination off the provider, ifFull off Make in house, repeated ids', () => {
    expect(problem({ ...ok, default: { action: 'hold' } })).toMatchObject({ field: 'default.reason' });
    expect(problem({ ...ok, default: { action: 'inHouse', destination: 'x' } })).toMatchObject({ field: 'default.destination' });
    expect(problem({ ...ok, default: { action: 'provider', ifFull: { action: 'hold', reason: 'x' } } })).toMatchObject({ field: 'default.ifFull' });
    expect(problem({ ...ok, rules: [ok.rules[0], ok.rules[0]] })).toMatchObject({ field: 'rules.1.id' });
  });
  it('ifOutOfStock: another action on Make in house only, never in house again, no unknown key', () => {
    const inHouse = { ...ok.rules[0], then: { action: 'inHouse', ifOutOfStock: { action: 'provider', destination: 'hp-us' } } };
    expect(parse(ruleSetBody, { ...ok, rules: [inHouse] }).rules[0].then.ifOutOfStock).toEqual({ action: 'provider', destination: 'hp-us' });
    expect(problem({ ...ok, default: { action: 'provider', ifOutOfStock: { action: 'hold' } } })).toMatchObject({ field: 'default.ifOutOfStock', message: expect.stringMatching(/only for Make in house/) });
    expect(problem({ ...ok, rules: [{ ...inHouse, then: { action: 'inHouse', ifOutOfStock: { action: 'inHouse' } } }] })).toMatchObject({ field: 'rules.0.then.ifOutOfStock.action' });
    expect(problem({ ...ok, rules: [{ ...inHouse, then: { action: 'inHouse', ifOutOfStock: { action: 'hold', why: 'x' } } }] })).toBeDefined();
  });
});
