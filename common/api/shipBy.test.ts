import { describe, expect, it } from 'vitest';
import { DEFAULT_SHIP_BY_SETTINGS, SHIP_BY_SETTING_KEYS, dueOf, shipByOf, shipBySettingProblem, shipBySettingsOf, shipBySettingsProblem, type ShipBySettings } from './shipBy';

const settings = (over: Partial<ShipBySettings> = {}): ShipBySettings => ({ ...DEFAULT_SHIP_BY_SETTINGS, ...over });
const reader = (env: Record<string, string>) => (key: string) => env[key];

// March 2026: Monday 2, Friday 6, Saturday 7, Monday 9. Europe/London moves to BST on Sunday 29.
describe('shipByOf: the cut-off time on the last working day of production', () => {
  it('an order before the cut-off counts its own day: 2 working days ship by the next day at the cut-off', () => {
    expect(shipByOf('2026-03-02T10:00:00Z', 'Card', settings(), 'UTC')).toBe('2026-03-03T14:00:00.000Z');
  });

  it('an order at or after the cut-off counts from the next working day', () => {
    expect(shipByOf('2026-03-02T13:59:00Z', 'Card', settings(), 'UTC')).toBe('2026-03-03T14:00:00.000Z');
    expect(shipByOf('2026-03-02T14:00:00Z', 'Card', settings(), 'UTC')).toBe('2026-03-04T14:00:00.000Z');
  });

  it('Friday after the cut-off counts from Monday: the weekend is skipped', () => {
    expect(shipByOf('2026-03-06T15:30:00Z', 'Card', settings(), 'UTC')).toBe('2026-03-10T14:00:00.000Z');
    // Before the cut-off Friday is day one, Monday day two.
    expect(shipByOf('2026-03-06T09:00:00Z', 'Card', settings(), 'UTC')).toBe('2026-03-09T14:00:00.000Z');
    // A Saturday order waits for Monday too.
    expect(shipByOf('2026-03-07T09:00:00Z', 'Card', settings(), 'UTC')).toBe('2026-03-10T14:00:00.000Z');
  });

  it('a holiday is skipped like a weekend day', () => {
    expect(shipByOf('2026-03-06T15:30:00Z', 'Card', settings({ holidays: ['2026-03-09'] }), 'UTC')).toBe('2026-03-11T14:00:00.000Z');
    // An order placed on the holiday itself starts the next working day.
    expect(shipByOf('2026-03-09T08:00:00Z', 'Card', settings({ holidays: ['2026-03-09'] }), 'UTC')).toBe('2026-03-11T14:00:00.000Z');
  });

  it('the non-working weekdays are a setting: with only Sunday off, Saturday is a production day', () => {
    expect(shipByOf('2026-03-06T15:30:00Z', 'Card', settings({ nonWorkingDays: ['Sun'] }), 'UTC')).toBe('2026-03-09T14:00:00.000Z');
  });

  it('each product type has its own working days; no type takes the other-products days; an e-card has no ship-by', () => {
    const s = settings({ productionDays: { Card: 2, Mug: 1, Poster: 5 }, otherDays: 3 });
    expect(shipByOf('2026-03-02T10:00:00Z', 'Mug', s, 'UTC')).toBe('2026-03-02T14:00:00.000Z');
    expect(shipByOf('2026-03-02T10:00:00Z', 'Poster', s, 'UTC')).toBe('2026-03-06T14:00:00.000Z');
    expect(shipByOf('2026-03-02T10:00:00Z', null, s, 'UTC')).toBe('2026-03-04T14:00:00.000Z');
    expect(shipByOf('2026-03-02T10:00:00Z', 'E-card', s, 'UTC')).toBeNull();
  });

  it('times are the shop zone’s: the cut-off is 14:00 on the clock in London, before and after the clocks go forward', () => {
    // Friday 27 March 15:00 GMT: after the cut-off; Monday 30 is day one, Tuesday 31 (BST, UTC+1) day two.
    expect(shipByOf('2026-03-27T15:00:00Z', 'Card', settings(), 'Europe/London')).toBe('2026-03-31T13:00:00.000Z');
    // Thursday 26 March 13:30 GMT: before the cut-off: ships Friday 27 at 14:00 GMT.
    expect(shipByOf('2026-03-26T13:30:00Z', 'Card', settings(), 'Europe/London')).toBe('2026-03-27T14:00:00.000Z');
    // 13:30 UTC on Monday 30 March is 14:30 BST: after the cut-off there.
    expect(shipByOf('2026-03-30T13:30:00Z', 'Card', settings(), 'Europe/London')).toBe('2026-04-01T13:00:00.000Z');
    // Sunday 29 March, the day the clocks change, is not a working day: Monday is day one.
    expect(shipByOf('2026-03-29T01:30:00Z', 'Card', settings(), 'Europe/London')).toBe('2026-03-31T13:00:00.000Z');
  });
});

describe('dueOf: late, at risk, due today or fine', () => {
  const shipBy = '2026-03-03T14:00:00.000Z';
  const open = { printed: false, shipped: false };

  it('past the ship-by and not shipped is late, printed or not', () => {
    expect(dueOf(shipBy, new Date('2026-03-03T14:01:00Z'), open, 4, 'UTC')).toBe('late');
    expect(dueOf(shipBy, new Date('2026-03-05T09:00:00Z'), { printed: true, shipped: false }, 4, 'UTC')).toBe('late');
  });

  it('within the at-risk hours and not printed is at risk; printed, it is only due today', () => {
    expect(dueOf(shipBy, new Date('2026-03-03T10:00:00Z'), open, 4, 'UTC')).toBe('atRisk');
    expect(dueOf(shipBy, new Date('2026-03-03T14:00:00Z'), open, 4, 'UTC')).toBe('atRisk');
    expect(dueOf(shipBy, new Date('2026-03-03T10:00:00Z'), { printed: true, shipped: false }, 4, 'UTC')).toBe('today');
  });

  it('due later today, outside the at-risk hours, is due today; on another day it is ok', () => {
    expect(dueOf(shipBy, new Date('2026-03-03T08:00:00Z'), open, 4, 'UTC')).toBe('today');
    expect(dueOf(shipBy, new Date('2026-03-02T16:00:00Z'), open, 4, 'UTC')).toBe('ok');
    // The at-risk window reaches back into yesterday evening with 24 hours.
    expect(dueOf(shipBy, new Date('2026-03-02T16:00:00Z'), open, 24, 'UTC')).toBe('atRisk');
  });

  it('"today" is the shop zone’s day', () => {
    // 23:30 UTC on the 2nd is 00:30 on the 3rd in Paris: the ship-by (15:00 there) is today.
    expect(dueOf(shipBy, new Date('2026-03-02T23:30:00Z'), open, 4, 'Europe/Paris')).toBe('today');
    expect(dueOf(shipBy, new Date('2026-03-02T23:30:00Z'), open, 4, 'UTC')).toBe('ok');
  });

  it('shipped or cancelled is ok even past the date; no ship-by is ok', () => {
    expect(dueOf(shipBy, new Date('2026-03-09T09:00:00Z'), { printed: true, shipped: true }, 4, 'UTC')).toBe('ok');
    expect(dueOf(shipBy, new Date('2026-03-09T09:00:00Z'), { ...open, cancelled: true }, 4, 'UTC')).toBe('ok');
    expect(dueOf(null, new Date('2026-03-09T09:00:00Z'), open, 4, 'UTC')).toBe('ok');
  });
});

describe('ship-by settings', () => {
  it('unset: the defaults (2 working days, 14:00, Saturday and Sunday off, 4 hours at risk)', () => {
    expect(shipBySettingsOf(reader({}))).toEqual(DEFAULT_SHIP_BY_SETTINGS);
    expect(shipBySettingsProblem(reader({}))).toBeUndefined();
  });

  it('reads every key', () => {
    const k = SHIP_BY_SETTING_KEYS;
    const s = shipBySettingsOf(
      reader({
        [k.productionDays.Card]: '3',
        [k.productionDays.Poster]: '5',
        [k.otherDays]: '4',
        [k.cutoff]: '11:30',
        [k.nonWorkingDays]: 'sun, Sat',
        [k.holidays]: '2026-12-25, 2026-12-28',
        [k.atRiskHours]: '0',
      }),
    );
    expect(s).toEqual({ productionDays: { Card: 3, Mug: 2, Poster: 5 }, otherDays: 4, cutoff: '11:30', nonWorkingDays: ['Sun', 'Sat'], holidays: ['2026-12-25', '2026-12-28'], atRiskHours: 0 });
  });

  it('says what is wrong in a sentence naming the setting, and an unusable value counts as unset', () => {
    const k = SHIP_BY_SETTING_KEYS;
    expect(shipBySettingsProblem(reader({ [k.productionDays.Mug]: '0' }))).toBe('SHIP_BY_DAYS_MUG: "0" is not a number of working days for a mug (1 to 60, e.g. 2).');
    expect(shipBySettingsProblem(reader({ [k.cutoff]: '2pm' }))).toBe('SHIP_BY_CUTOFF: "2pm" is not a time of day HH:MM (24-hour, e.g. 14:00).');
    expect(shipBySettingsProblem(reader({ [k.nonWorkingDays]: 'Sat, Sunday, Funday' }))).toBe('SHIP_BY_NON_WORKING_DAYS: "Funday" is not a weekday (use Mon, Tue, Wed, Thu, Fri, Sat, Sun).');
    expect(shipBySettingsProblem(reader({ [k.nonWorkingDays]: 'Mon Tue Wed Thu Fri Sat Sun' }))).toBe('SHIP_BY_NON_WORKING_DAYS: at least one day of the week must be a working day.');
    expect(shipBySettingsProblem(reader({ [k.holidays]: '2026-12-25, 2026-02-30' }))).toBe('SHIP_BY_HOLIDAYS: "2026-02-30" is not a date YYYY-MM-DD (e.g. 2026-12-25).');
    expect(shipBySettingsProblem(reader({ [k.atRiskHours]: 'four' }))).toBe('SHIP_BY_AT_RISK_HOURS: "four" is not a number of hours (0 to 240, e.g. 4).');
    expect(shipBySettingProblem(reader({ [k.cutoff]: '25:00', [k.atRiskHours]: 'x' }), k.atRiskHours)).toMatch(/^SHIP_BY_AT_RISK_HOURS/);
    expect(shipBySettingsOf(reader({ [k.cutoff]: '25:00', [k.productionDays.Card]: '3' }))).toMatchObject({ cutoff: '14:00', productionDays: { Card: 3 } });
  });
});
