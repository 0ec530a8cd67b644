/** DD/MM/YYYY in the viewer's time zone (spec §9); empty for missing or unparseable dates. */
export function formatDate(value: string | number | Date | null | undefined): string {
  if (value === null || value === undefined || value === '') return '';
  const date = value instanceof Date ? value : new Date(value);
  if (Number.isNaN(date.getTime())) return '';
  const dd = String(date.getDate()).padStart(2, '0');
  const mm = String(date.getMonth() + 1).padStart(2, '0');
  return `${dd}/${mm}/${date.getFullYear()}`;
}

/** HH:mm in the viewer's time zone; empty for missing or unparseable dates. */
export function formatTime(value: string | number | Date | null | undefined): string {
  if (!formatDate(value)) return '';
  const date = value instanceof Date ? value : new Date(value as string | number);
  return `${String(date.getHours()).padStart(2, '0')}:${String(date.getMinutes()).padStart(2, '0')}`;
}

/** DD/MM/YYYY HH:mm in the viewer's time zone (order timestamps); empty for missing or unparseable dates. */
export function formatDateTime(value: string | number | Date | null | undefined): string {
  const day = formatDate(value);
  return day ? `${day} ${formatTime(value)}` : '';
}

const HEX_COLOUR = /^#(?:[0-9a-f]{3}|[0-9a-f]{6})$/i;

export function isHexColour(value: unknown): value is string {
  return typeof value === 'string' && HEX_COLOUR.test(value);
}

/** `<input type="color">` only understands #rrggbb. */
export function toColourInputValue(value: unknown, fallback = '#000000'): string {
  if (!isHexColour(value)) return fallback;
  if (value.length === 4) {
    const [, r, g, b] = value;
    return `#${r}${r}${g}${g}${b}${b}`.toLowerCase();
  }
  return value.toLowerCase();
}

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;

/** Time since an order, e.g. "12 min", "3 h", "2 d 4 h" (whole units, rounded down). */
export function formatTimeSince(value: string | number | Date | null | undefined, now: Date | number = Date.now()): string {
  if (value === null || value === undefined || value === '') return '';
  const from = value instanceof Date ? value.getTime() : new Date(value).getTime();
  if (Number.isNaN(from)) return '';
  const elapsed = Math.max(0, (now instanceof Date ? now.getTime() : now) - from);
  if (elapsed < HOUR) return `${Math.floor(elapsed / MINUTE)} min`;
  if (elapsed < DAY) return `${Math.floor(elapsed / HOUR)} h`;
  const days = Math.floor(elapsed / DAY);
  const hours = Math.floor((elapsed % DAY) / HOUR);
  return hours ? `${days} d ${hours} h` : `${days} d`;
}

/** YYYY-MM-DD of a local date (what `<input type="date">` and the reports call use). */
export function toDayString(date: Date): string {
  const mm = String(date.getMonth() + 1).padStart(2, '0');
  const dd = String(date.getDate()).padStart(2, '0');
  return `${date.getFullYear()}-${mm}-${dd}`;
}

/** The local date `days` after `day` (YYYY-MM-DD in, YYYY-MM-DD out). */
export function addDays(day: string, days: number): string {
  const [y, m, d] = day.split('-').map(Number);
  return toDayString(new Date(y, m - 1, d + days));
}

/** DD/MM/YYYY of a YYYY-MM-DD day, without any time-zone shift. */
export function formatDay(day: string): string {
  const [y, m, d] = day.split('-');
  return y && m && d ? `${d}/${m}/${y}` : day;
}

/** What a day field shows and expects (spec §9). */
export const DAY_PLACEHOLDER = 'DD/MM/YYYY';

export type ParsedDay = { day: string; error?: undefined } | { day?: undefined; error: string };

/**
 * A typed day → YYYY-MM-DD: DD/MM/YYYY (also with `.` or `-`, one-digit day or month), or a pasted
 * YYYY-MM-DD; '' for an empty field. An impossible date (31/02/2026) or another shape is an error.
 */
export function parseDay(text: string): ParsedDay {
  const value = text.trim();
  if (!value) return { day: '' };
  const dmy = /^(\d{1,2})[/.-](\d{1,2})[/.-](\d{4})$/.exec(value);
  const iso = /^(\d{4})-(\d{2})-(\d{2})$/.exec(value);
  if (!dmy && !iso) return { error: `Type the date as ${DAY_PLACEHOLDER}` };
  const [d, m, y] = dmy ? [dmy[1], dmy[2], dmy[3]].map(Number) : [iso![3], iso![2], iso![1]].map(Number);
  const date = new Date(y, m - 1, d);
  if (m < 1 || m > 12 || date.getFullYear() !== y || date.getMonth() !== m - 1 || date.getDate() !== d) {
    return { error: `${String(d).padStart(2, '0')}/${String(m).padStart(2, '0')}/${y} is not a date` };
  }
  return { day: toDayString(date) };
}

export function errorMessage(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
