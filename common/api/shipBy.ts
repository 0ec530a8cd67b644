// Ship-by dates: when an order line (and its print job) must leave the shop, and how close it is.
// Pure and shared: the server puts `shipBy` and `due` on every job and order line it shows, the
// site form checks the settings as they are typed, and later views (Needs attention, History) read
// the same two functions.
//
// The rule (README, "Ship-by dates"):
// - All times are in one time zone: the shop's (the server's SYNC_TIMEZONE; sites have none of their own).
// - An order placed on a working day before the site's daily cut-off counts that day as its first
//   production day; placed at or after the cut-off, or on a non-working day, it counts from the next
//   working day.
// - A working day is a day whose weekday is not one of the site's non-working weekdays (default
//   Saturday and Sunday) and which is not one of its holidays (YYYY-MM-DD).
// - With N production days for the line's product type, ship-by is the cut-off time on the Nth
//   working day counted from that first day (N = 1: the same day's cut-off).
// - E-cards have no ship-by (they are e-mailed on their send date). A line HP makes keeps its ship-by:
//   the provider works to its own SLA, but the shop still promised the customer that date.
import { PRODUCT_TYPES, isEcard, type ProductType } from '../design-doc/types';
import type { SettingReader } from './preflight';
import { wallClockOf } from '../wallClock';

/** How close a line or job is to its ship-by: past it, within the at-risk hours and not printed, due today, or fine. */
export const DUE_STATES = ['late', 'atRisk', 'today', 'ok'] as const;
export type Due = (typeof DUE_STATES)[number];

/** What every print job and order line view carries. `shipBy` is null where nothing ships (an e-card), and then `due` is "ok". */
export interface ShipByState {
  shipBy: string | null;
  due: Due;
}

/** The product types that are made and shipped (an e-card is e-mailed, so it has no production time). */
export const SHIPPED_PRODUCT_TYPES = PRODUCT_TYPES.filter((t) => !isEcard(t)) as Array<Exclude<ProductType, 'E-card'>>;
export type ShippedProductType = (typeof SHIPPED_PRODUCT_TYPES)[number];

/** Weekdays as Date.getUTCDay() numbers them, with the names the settings use. */
export const WEEKDAYS = ['Sun', 'Mon', 'Tue', 'Wed', 'Thu', 'Fri', 'Sat'] as const;
export type Weekday = (typeof WEEKDAYS)[number];

export interface ShipBySettings {
  /** Working days of production per product type. */
  productionDays: Record<ShippedProductType, number>;
  /** Working days for a line or job whose product type is not known (no design, or a design without a type). */
  otherDays: number;
  /** The daily cut-off, HH:MM (24 h) in the shop's time zone. */
  cutoff: string;
  /** Weekdays nobody produces or ships. */
  nonWorkingDays: Weekday[];
  /** Days off besides the weekly ones, YYYY-MM-DD. */
  holidays: string[];
  /** Within this many hours of its ship-by, a line not yet printed is at risk. */
  atRiskHours: number;
}

export const DEFAULT_SHIP_BY_SETTINGS: ShipBySettings = {
  productionDays: Object.fromEntries(SHIPPED_PRODUCT_TYPES.map((t) => [t, 2])) as Record<ShippedProductType, number>,
  otherDays: 2,
  cutoff: '14:00',
  nonWorkingDays: ['Sat', 'Sun'],
  holidays: [],
  atRiskHours: 4,
};

/** The site settings (settings.env keys) of the rule. */
export const SHIP_BY_SETTING_KEYS = {
  productionDays: Object.fromEntries(SHIPPED_PRODUCT_TYPES.map((t) => [t, `SHIP_BY_DAYS_${t.toUpperCase()}`])) as Record<ShippedProductType, string>,
  otherDays: 'SHIP_BY_DAYS_OTHER',
  cutoff: 'SHIP_BY_CUTOFF',
  nonWorkingDays: 'SHIP_BY_NON_WORKING_DAYS',
  holidays: 'SHIP_BY_HOLIDAYS',
  atRiskHours: 'SHIP_BY_AT_RISK_HOURS',
} as const;

/** The most production days a product may take: more is a typing slip, not a promise. */
export const MAX_PRODUCTION_DAYS = 60;
const MAX_AT_RISK_HOURS = 240;

const WHOLE = /^\d{1,3}$/;
const CUTOFF = /^([01]\d|2[0-3]):([0-5]\d)$/;
const list = (v: string) =>
  v
    .split(/[\s,;]+/)
    .map((s) => s.trim())
    .filter(Boolean);

/** A real calendar day written YYYY-MM-DD. */
export function isCalendarDay(s: string): boolean {
  if (!/^\d{4}-\d{2}-\d{2}$/.test(s)) return false;
  const d = new Date(`${s}T00:00:00Z`);
  return !Number.isNaN(d.getTime()) && d.toISOString().slice(0, 10) === s;
}

const weekdayOf = (s: string): Weekday | undefined => WEEKDAYS.find((w) => w.toLowerCase() === s.slice(0, 3).toLowerCase() && /^[a-z]+$/i.test(s));

/** Each setting's problem as one sentence, by key (an empty value is no problem: the default applies). */
function problems(read: SettingReader): Array<[string, string]> {
  const out: Array<[string, string]> = [];
  const value = (key: string) => (read(key) ?? '').trim();
  const days = (key: string, label: string) => {
    const v = value(key);
    if (v !== '' && (!WHOLE.test(v) || Number(v) < 1 || Number(v) > MAX_PRODUCTION_DAYS)) out.push([key, `${key}: "${v}" is not a number of working days for ${label} (1 to ${MAX_PRODUCTION_DAYS}, e.g. 2).`]);
  };
  for (const t of SHIPPED_PRODUCT_TYPES) days(SHIP_BY_SETTING_KEYS.productionDays[t], `a ${t.toLowerCase()}`);
  days(SHIP_BY_SETTING_KEYS.otherDays, 'other products');
  const cutoff = value(SHIP_BY_SETTING_KEYS.cutoff);
  if (cutoff !== '' && !CUTOFF.test(cutoff)) out.push([SHIP_BY_SETTING_KEYS.cutoff, `${SHIP_BY_SETTING_KEYS.cutoff}: "${cutoff}" is not a time of day HH:MM (24-hour, e.g. 14:00).`]);
  const closed = value(SHIP_BY_SETTING_KEYS.nonWorkingDays);
  const unknown = list(closed).filter((d) => !weekdayOf(d));
  if (unknown.length) out.push([SHIP_BY_SETTING_KEYS.nonWorkingDays, `${SHIP_BY_SETTING_KEYS.nonWorkingDays}: "${unknown.join(', ')}" is not a weekday (use Mon, Tue, Wed, Thu, Fri, Sat, Sun).`]);
  else if (new Set(list(closed).map(weekdayOf)).size === WEEKDAYS.length) out.push([SHIP_BY_SETTING_KEYS.nonWorkingDays, `${SHIP_BY_SETTING_KEYS.nonWorkingDays}: at least one day of the week must be a working day.`]);
  const badDays = list(value(SHIP_BY_SETTING_KEYS.holidays)).filter((d) => !isCalendarDay(d));
  if (badDays.length) out.push([SHIP_BY_SETTING_KEYS.holidays, `${SHIP_BY_SETTING_KEYS.holidays}: "${badDays.join(', ')}" is not a date YYYY-MM-DD (e.g. 2026-12-25).`]);
  const risk = value(SHIP_BY_SETTING_KEYS.atRiskHours);
  if (risk !== '' && (!WHOLE.test(risk) || Number(risk) > MAX_AT_RISK_HOURS)) out.push([SHIP_BY_SETTING_KEYS.atRiskHours, `${SHIP_BY_SETTING_KEYS.atRiskHours}: "${risk}" is not a number of hours (0 to ${MAX_AT_RISK_HOURS}, e.g. 4).`]);
  return out;
}

/** What is wrong with the ship-by settings, as one sentence (undefined: usable). The server refuses a save with it; the site form shows it as typed. */
export function shipBySettingsProblem(read: SettingReader): string | undefined {
  return problems(read)[0]?.[1];
}

/** The problem of one setting (the site form puts it under that field). */
export function shipBySettingProblem(read: SettingReader, key: string): string | undefined {
  return problems(read).find(([k]) => k === key)?.[1];
}

/** A site's settings; a value that is not usable (never saved so) counts as unset. */
export function shipBySettingsOf(read: SettingReader): ShipBySettings {
  const bad = new Set(problems(read).map(([k]) => k));
  const value = (key: string) => (bad.has(key) ? '' : (read(key) ?? '').trim());
  const number = (key: string, fallback: number) => (value(key) === '' ? fallback : Number(value(key)));
  const closed = value(SHIP_BY_SETTING_KEYS.nonWorkingDays);
  const d = DEFAULT_SHIP_BY_SETTINGS;
  return {
    productionDays: Object.fromEntries(SHIPPED_PRODUCT_TYPES.map((t) => [t, number(SHIP_BY_SETTING_KEYS.productionDays[t], d.productionDays[t])])) as Record<ShippedProductType, number>,
    otherDays: number(SHIP_BY_SETTING_KEYS.otherDays, d.otherDays),
    cutoff: value(SHIP_BY_SETTING_KEYS.cutoff) || d.cutoff,
    nonWorkingDays: closed ? [...new Set(list(closed).map((s) => weekdayOf(s)!))] : d.nonWorkingDays,
    holidays: list(value(SHIP_BY_SETTING_KEYS.holidays)),
    atRiskHours: number(SHIP_BY_SETTING_KEYS.atRiskHours, d.atRiskHours),
  };
}

/** The working days a product type takes (an unknown type: the settings' otherDays); null for an e-card, which is never shipped. */
export function productionDaysOf(productType: string | null | undefined, settings: ShipBySettings): number | null {
  if (isEcard(productType)) return null;
  const known = SHIPPED_PRODUCT_TYPES.find((t) => t === productType);
  return known ? settings.productionDays[known] : settings.otherDays;
}

// Calendar arithmetic in a time zone, with Intl only (no library): local parts of an instant, and
// the instant of a local date and time.

interface LocalTime {
  day: string;
  minutes: number;
}

function localTimeOf(at: Date, timeZone: string): LocalTime {
  const parts = wallClockOf(at, timeZone);
  return { day: `${parts.year}-${parts.month}-${parts.day}`, minutes: Number(parts.hour) * 60 + Number(parts.minute) };
}

/** How far ahead of UTC the zone's wall clock is at an instant, in ms. */
function offsetAt(at: number, timeZone: string): number {
  const { day, minutes } = localTimeOf(new Date(at), timeZone);
  const wall = Date.parse(`${day}T00:00:00Z`) + minutes * 60_000;
  return wall - Math.floor(at / 60_000) * 60_000;
}

/** The instant a zone's clock shows `minutes` past midnight on `day` (on a DST change day, the offset of that moment). */
function instantOf(day: string, minutes: number, timeZone: string): Date {
  const wall = Date.parse(`${day}T00:00:00Z`) + minutes * 60_000;
  const first = wall - offsetAt(wall, timeZone);
  return new Date(wall - offsetAt(first, timeZone));
}

const nextDay = (day: string) => new Date(Date.parse(`${day}T00:00:00Z`) + 86_400_000).toISOString().slice(0, 10);

function isWorkingDay(day: string, settings: Pick<ShipBySettings, 'nonWorkingDays' | 'holidays'>): boolean {
  return !settings.nonWorkingDays.includes(WEEKDAYS[new Date(`${day}T00:00:00Z`).getUTCDay()]) && !settings.holidays.includes(day);
}

// A year and a half of holidays in a row is a broken list, not a calendar: stop rather than loop.
const MAX_DAYS_SKIPPED = 550;

function nextWorkingDay(day: string, settings: ShipBySettings): string {
  let d = nextDay(day);
  for (let i = 0; i < MAX_DAYS_SKIPPED && !isWorkingDay(d, settings); i++) d = nextDay(d);
  return d;
}

const minutesOf = (hhmm: string) => Number(hhmm.slice(0, 2)) * 60 + Number(hhmm.slice(3, 5));

/**
 * When a line ordered at `orderedAt` must ship (ISO), by the rule at the top of this file; null for
 * an e-card or an unreadable order time.
 */
export function shipByOf(orderedAt: string | Date, productType: string | null | undefined, settings: ShipBySettings, timeZone: string): string | null {
  const days = productionDaysOf(productType, settings);
  const at = orderedAt instanceof Date ? orderedAt : new Date(orderedAt);
  if (days === null || Number.isNaN(at.getTime())) return null;
  const cutoff = minutesOf(settings.cutoff);
  const placed = localTimeOf(at, timeZone);
  let day = isWorkingDay(placed.day, settings) && placed.minutes < cutoff ? placed.day : nextWorkingDay(placed.day, settings);
  for (let n = 1; n < days; n++) day = nextWorkingDay(day, settings);
  return instantOf(day, cutoff, timeZone).toISOString();
}

/** Where a line or job stands: printed (in house, or the provider said so), shipped, or cancelled (a cancelled order or withdrawn job owes nothing). */
export interface ProgressOfLine {
  printed: boolean;
  shipped: boolean;
  cancelled?: boolean;
}

/**
 * How close a ship-by is at `now`. `due` only counts until the line ships: shipped (or cancelled)
 * is "ok" whatever the date. Otherwise past the ship-by is "late"; within `atRiskHours` of it and
 * not printed yet, "atRisk"; the ship-by falls on today (in the zone), "today"; else "ok".
 */
export function dueOf(shipBy: string | null, now: Date, progress: ProgressOfLine, atRiskHours: number, timeZone: string): Due {
  if (!shipBy || progress.shipped || progress.cancelled) return 'ok';
  const at = Date.parse(shipBy);
  if (Number.isNaN(at)) return 'ok';
  if (now.getTime() > at) return 'late';
  if (!progress.printed && at - now.getTime() <= atRiskHours * 3_600_000) return 'atRisk';
  if (localTimeOf(new Date(at), timeZone).day === localTimeOf(now, timeZone).day) return 'today';
  return 'ok';
}
