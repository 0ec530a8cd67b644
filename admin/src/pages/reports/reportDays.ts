import type { PrintReports } from '../../../../common/api/printProduction';
import { addDays } from '../../lib/format';

export type DayCount = PrintReports['printedPerDay'][number];

/** Every day of [from, to] with its counts; days the server does not list printed nothing. */
export function fillDays(from: string, to: string, printedPerDay: readonly DayCount[], maxDays = 366): DayCount[] {
  const byDay = new Map(printedPerDay.map((d) => [d.day.slice(0, 10), d]));
  const days: DayCount[] = [];
  for (let day = from; day <= to && days.length < maxDays; day = addDays(day, 1)) {
    days.push(byDay.get(day) ?? { day, jobs: 0, quantity: 0 });
  }
  return days;
}

/** "12.5 %" from the server's rate (a fraction: reprinted / printed). */
export function formatRate(rate: number | null | undefined): string {
  if (rate === null || rate === undefined || !Number.isFinite(rate)) return '0 %';
  return `${Math.round(rate * 1000) / 10} %`;
}
