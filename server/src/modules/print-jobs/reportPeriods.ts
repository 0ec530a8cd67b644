// The printed-jobs series of the reports: every day, week or month of the range, so a long range is
// still whole (a bar a day over 26 years would be ~9,500 bars) and its sum is the range's total.
import type { ReportBucket } from '../../../../common/api/printProduction';

const DAY_MS = 24 * 60 * 60 * 1000;
/** Up to about a quarter a bar a day, up to two years a bar a week, beyond a bar a month. */
export const DAY_BUCKET_MAX_DAYS = 92;
export const WEEK_BUCKET_MAX_DAYS = 731;

const ms = (day: string) => Date.parse(`${day}T00:00:00Z`);
const dayAt = (t: number) => new Date(t).toISOString().slice(0, 10);

export function bucketOf(from: string, to: string): ReportBucket {
  const days = Math.round((ms(to) - ms(from)) / DAY_MS) + 1;
  if (days <= DAY_BUCKET_MAX_DAYS) return 'day';
  return days <= WEEK_BUCKET_MAX_DAYS ? 'week' : 'month';
}

/** The first day of the bucket after the one holding `day` (weeks start on Monday). */
function nextStart(day: string, bucket: ReportBucket): string {
  const t = ms(day);
  if (bucket === 'day') return dayAt(t + DAY_MS);
  if (bucket === 'week') {
    const sinceMonday = (new Date(t).getUTCDay() + 6) % 7;
    return dayAt(t + (7 - sinceMonday) * DAY_MS);
  }
  const d = new Date(t);
  return dayAt(Date.UTC(d.getUTCFullYear(), d.getUTCMonth() + 1, 1));
}

export interface PeriodCount {
  /** First and last day (inclusive) of the bucket inside the range: the first and last may be partial. */
  start: string;
  end: string;
  jobs: number;
  quantity: number;
}

/** Folds the per-day figures into every bucket of [from, to], empty ones included. */
export function printedPerPeriod(from: string, to: string, bucket: ReportBucket, perDay: ReadonlyArray<{ day: string; jobs: number; quantity: number }>): PeriodCount[] {
  const periods: PeriodCount[] = [];
  for (let start = from; start <= to; ) {
    const next = nextStart(start, bucket);
    const endT = Math.min(ms(next) - DAY_MS, ms(to));
    periods.push({ start, end: dayAt(endT), jobs: 0, quantity: 0 });
    start = next;
  }
  // Days are sorted, so one pass assigns each to its bucket.
  let i = 0;
  for (const d of [...perDay].sort((a, b) => a.day.localeCompare(b.day))) {
    while (i < periods.length && periods[i].end < d.day) i++;
    const p = periods[i];
    if (!p || d.day < p.start) continue;
    p.jobs += d.jobs;
    p.quantity += d.quantity;
  }
  return periods;
}
