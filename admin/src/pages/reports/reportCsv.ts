// The report's figures as CSV, made in the browser from the same answer the screen shows (one
// owner: what is on screen is what is downloaded). Dates DD/MM/YYYY, rates as percentages.
import type { PrintReports } from '../../../../common/api/printProduction';
import { REPRINT_REASON_LABELS, REPRINT_RESPONSIBLE_LABELS } from '../../../../common/api/reprints';
import { formatDay } from '../../lib/format';
import { formatRate } from './reportDays';

/** One CSV field: quoted when it holds a comma, a quote or a line break (quotes doubled); a leading =, +, - or @ is defused for spreadsheets. */
export function csvField(value: string | number | null | undefined): string {
  if (value === null || value === undefined) return '';
  let text = String(value);
  if (typeof value === 'string' && /^[=+\-@]/.test(text)) text = `'${text}`;
  return /[",\r\n]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}

const row = (...fields: Array<string | number | null | undefined>) => fields.map(csvField).join(',');

/** "27 h" → "1 d 3 h": the average order-to-ship time as people read it. */
export function formatHours(hours: number | null | undefined): string {
  if (hours === null || hours === undefined || !Number.isFinite(hours)) return '';
  const whole = Math.round(hours);
  const days = Math.floor(whole / 24);
  return days ? `${days} d ${whole % 24} h` : `${Math.round(hours * 10) / 10} h`;
}

export const reportFileName = (report: Pick<PrintReports, 'from' | 'to'>) => `print-report-${report.from}-to-${report.to}.csv`;

/** Sections one after another, each with its own header row; CRLF line ends as RFC 4180 has them. */
export function reportCsv(report: PrintReports): string {
  const { reprints, shipping } = report;
  const lines = [
    row('Print report', `${formatDay(report.from)} to ${formatDay(report.to)}`),
    '',
    row('Figure', 'Value'),
    row('Jobs printed', report.totals.jobs),
    row('Items printed', report.totals.quantity),
    row('Reprints', reprints.reprinted),
    row('Reprint rate', formatRate(reprints.rate)),
    row('Lines shipped', shipping?.shippedLines ?? 0),
    row('Average order to ship (hours)', shipping?.averageOrderToShipHours ?? ''),
    row('On-time rate', shipping?.onTime ? formatRate(shipping.onTime.rate) : 'Not available: no ship-by dates yet'),
    '',
    row('Period start', 'Period end', 'Jobs printed', 'Items printed'),
    ...report.printedPerPeriod.map((p) => row(formatDay(p.start), formatDay(p.end), p.jobs, p.quantity)),
    '',
    row('Product', 'Jobs printed', 'Items printed'),
    ...report.perProduct.map((p) => row(p.productName ?? '', p.jobs, p.quantity)),
    '',
    row('Reprint reason', 'Reprints', 'Rate'),
    ...(reprints.byReason ?? []).map((r) => row(REPRINT_REASON_LABELS[r.reason] ?? r.reason, r.reprints, formatRate(r.rate))),
    '',
    row('Responsible', 'Reprints', 'Rate'),
    ...(reprints.byResponsible ?? []).map((r) => row(REPRINT_RESPONSIBLE_LABELS[r.responsible] ?? r.responsible, r.reprints, formatRate(r.rate))),
    '',
    row('Reprinted product', 'Prints', 'Reprints', 'Rate'),
    ...(reprints.byProduct ?? []).map((p) => row(p.productName, p.printed, p.reprints, formatRate(p.rate))),
  ];
  return `${lines.join('\r\n')}\r\n`;
}
