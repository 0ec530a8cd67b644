import type { PrintReports } from '../../../../common/api/printProduction';

export type PeriodCount = PrintReports['printedPerPeriod'][number];

/** "12.5 %" from the server's rate (a fraction: reprinted / printed). */
export function formatRate(rate: number | null | undefined): string {
  if (rate === null || rate === undefined || !Number.isFinite(rate)) return '0 %';
  return `${Math.round(rate * 1000) / 10} %`;
}
