import { describe, expect, it, vi } from 'vitest';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { ADMIN, renderInAdmin, signIn, fakeFetch } from '../../test/helpers';
import { ok, printJob, router } from '../../test/printProduction';
import { defaultPeriod, ON_TIME_PENDING, PrintReportsPage } from './PrintReportsPage';
import { csvField, reportCsv } from './reportCsv';
import { REPRINT_REASONS, REPRINT_RESPONSIBLES } from '../../../../common/api/reprints';
import type { PrintReports } from '../../../../common/api/printProduction';
import { formatRate } from './reportDays';
import { periodLabel } from './PrintedChart';

describe('report helpers', () => {
  it('defaults to the last 30 days, today included', () => {
    expect(defaultPeriod(new Date(2025, 5, 10))).toEqual({ from: '2025-05-12', to: '2025-06-10' });
  });

  it('labels a bar by its day, its week or its month', () => {
    expect(periodLabel('day', { start: '2025-06-02', end: '2025-06-02' })).toBe('02/06/2025');
    expect(periodLabel('week', { start: '2025-06-02', end: '2025-06-08' })).toBe('02/06/2025–08/06/2025');
    expect(periodLabel('month', { start: '2000-01-01', end: '2000-01-31' })).toBe('Jan 2000');
  });

  it('shows the reprint rate as a percentage', () => {
    expect(formatRate(0.125)).toBe('12.5 %');
    expect(formatRate(0)).toBe('0 %');
    expect(formatRate(Number.NaN)).toBe('0 %');
  });
});

describe('Print Reports (/reports)', () => {
  it('asks for the period and shows jobs per day, per product, the reprint rate and the oldest unprinted jobs', async () => {
    signIn(ADMIN);
    const period = defaultPeriod();
    const { calls } = fakeFetch(
      router(
        {
          'GET /api/print-jobs/reports': () =>
            ok({
              printedPerDay: [{ day: period.to, jobs: 3, quantity: 5 }],
              bucket: 'day',
              printedPerPeriod: Array.from({ length: 30 }, (_, i) => ({
                start: `d${i}`,
                end: `d${i}`,
                jobs: i === 29 ? 3 : 0,
                quantity: i === 29 ? 5 : 0,
              })),
              totals: { jobs: 3, quantity: 5 },
              perProduct: [{ productName: 'Robin card', jobs: 3, quantity: 5 }],
              reprints: { printed: 8, reprinted: 1, rate: 0.125 },
              oldestUnprinted: [printJob({ id: 4, productName: 'Old mug' })],
            }),
        },
        ADMIN,
      ),
    );
    renderInAdmin(<PrintReportsPage />, { path: '/reports', routePath: '/reports' });
    expect(await screen.findByText('12.5 %')).toBeInTheDocument();
    expect(calls.find((c) => c.url.startsWith('/api/print-jobs/reports'))?.url).toBe(
      `/api/print-jobs/reports?from=${period.from}&to=${period.to}`,
    );
    const bars = screen.getAllByTestId('printed-bar');
    expect(bars).toHaveLength(30);
    expect(bars[29]).toHaveAttribute('data-jobs', '3');
    expect(within(screen.getByRole('table', { name: 'Per product' })).getByText('Robin card')).toBeInTheDocument();
    const oldest = screen.getByRole('table', { name: 'Oldest unprinted jobs' });
    expect(within(oldest).getByText('Old mug')).toBeInTheDocument();
    expect(within(oldest).getByText('2 d 4 h')).toBeInTheDocument();
    expect(document.title).toBe('Print Reports | Presswork');

    expect(screen.getByRole('heading', { name: 'Jobs printed per day' })).toBeInTheDocument();

    fireEvent.change(screen.getByLabelText('From'), { target: { value: period.to } });
    await waitFor(() =>
      expect(calls.some((c) => c.url === `/api/print-jobs/reports?from=${period.to}&to=${period.to}`)).toBe(true),
    );
  });

  it('over 26 years shows the server\'s totals and a bar a month for the whole range, as Per product does', async () => {
    signIn(ADMIN);
    const months = Array.from({ length: 26 * 12 }, (_, i) => {
      const y = 2000 + Math.floor(i / 12);
      const m = String((i % 12) + 1).padStart(2, '0');
      const jobs = i === 0 ? 3 : i === 26 * 12 - 1 ? 1 : 0;
      return { start: `${y}-${m}-01`, end: `${y}-${m}-28`, jobs, quantity: jobs * 2 };
    });
    fakeFetch(
      router(
        {
          'GET /api/print-jobs/reports': () =>
            ok({
              printedPerDay: [
                { day: '2000-01-01', jobs: 3, quantity: 6 },
                { day: '2025-12-31', jobs: 1, quantity: 2 },
              ],
              bucket: 'month',
              printedPerPeriod: months,
              totals: { jobs: 4, quantity: 8 },
              perProduct: [{ productName: 'Robin card', jobs: 4, quantity: 8 }],
              reprints: { printed: 4, reprinted: 0, rate: 0 },
              oldestUnprinted: [],
            }),
        },
        ADMIN,
      ),
    );
    renderInAdmin(<PrintReportsPage />, { path: '/reports', routePath: '/reports' });
    expect(await screen.findByRole('heading', { name: 'Jobs printed per month' })).toBeInTheDocument();
    expect(screen.getByText('Jobs printed').nextSibling).toHaveTextContent('4');
    expect(screen.getByText('Items printed').nextSibling).toHaveTextContent('8');
    const bars = screen.getAllByTestId('printed-bar');
    expect(bars).toHaveLength(312);
    expect(bars.at(-1)).toHaveAttribute('data-start', '2025-12-01');
    expect(screen.getByRole('img', { name: 'Jobs printed per month: 4 in 312 months, at most 3 a month' })).toBeInTheDocument();
    expect(screen.getByText('Dec 2025')).toBeInTheDocument();
  });
});

const FIGURES = {
  from: '2026-11-01',
  to: '2026-11-30',
  clientId: null,
  printedPerDay: [{ day: '2026-11-03', jobs: 10, quantity: 12 }],
  bucket: 'day' as const,
  printedPerPeriod: [
    { start: '2026-11-03', end: '2026-11-03', jobs: 10, quantity: 12 },
    { start: '2026-11-04', end: '2026-11-04', jobs: 0, quantity: 0 },
  ],
  totals: { jobs: 10, quantity: 12 },
  perProduct: [{ productName: 'Card, "large"', jobs: 10, quantity: 12 }],
  reprints: {
    printed: 10,
    reprinted: 3,
    rate: 0.3,
    byReason: REPRINT_REASONS.map((reason) => ({ reason, reprints: reason === 'printDefect' ? 2 : reason === 'lostInPost' ? 1 : 0, rate: reason === 'printDefect' ? 0.2 : reason === 'lostInPost' ? 0.1 : 0 })),
    byResponsible: REPRINT_RESPONSIBLES.map((responsible) => ({ responsible, reprints: responsible === 'shop' ? 2 : responsible === 'carrier' ? 1 : 0, rate: responsible === 'shop' ? 0.2 : responsible === 'carrier' ? 0.1 : 0 })),
    byProduct: [{ productName: 'Card, "large"', printed: 10, reprints: 3, rate: 0.3 }],
  },
  shipping: { shippedLines: 4, averageOrderToShipHours: 27, onTime: null },
  oldestUnprinted: [],
};

describe('Print Reports: reprints, shipping, CSV', () => {
  it('charts reprints by reason, responsibility and product, shows order-to-ship, and says when on-time appears', async () => {
    signIn(ADMIN);
    fakeFetch(router({ 'GET /api/print-jobs/reports': () => ok(FIGURES) }, ADMIN));
    renderInAdmin(<PrintReportsPage />, { path: '/reports', routePath: '/reports' });
    expect(await screen.findByRole('heading', { name: 'Reprints by reason' })).toBeInTheDocument();
    for (const id of ['reprints-by-reason-chart', 'reprints-by-responsible-chart', 'reprints-by-product-chart']) {
      expect(screen.getByTestId(id).querySelector('svg'), id).not.toBeNull();
    }
    const byReason = within(screen.getByRole('table', { name: 'Reprints by reason' }));
    expect(byReason.getByText('Print defect').closest('tr')).toHaveTextContent('Print defect220 %');
    expect(byReason.getAllByRole('row')).toHaveLength(1 + REPRINT_REASONS.length);
    expect(within(screen.getByRole('table', { name: 'Reprints by responsibility' })).getByText('Carrier').closest('tr')).toHaveTextContent('Carrier110 %');
    expect(within(screen.getByRole('table', { name: 'Reprints by product' })).getByText('Card, "large"').closest('tr')).toHaveTextContent('Card, "large"10330 %');
    expect(screen.getByText('Average order to ship').nextSibling).toHaveTextContent('1 d 3 h');
    expect(screen.getByText('4 lines shipped')).toBeInTheDocument();
    expect(screen.getByText('On-time rate').nextSibling).toHaveTextContent('—');
    expect(screen.getByText(ON_TIME_PENDING)).toBeInTheDocument();
  });

  it('Download CSV saves the figures shown, quoted, with DD/MM/YYYY dates', async () => {
    signIn(ADMIN);
    const saved: Blob[] = [];
    URL.createObjectURL = vi.fn((blob: Blob) => (saved.push(blob), 'blob:report'));
    URL.revokeObjectURL = vi.fn();
    const names: string[] = [];
    vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(function (this: HTMLAnchorElement) {
      names.push(this.download);
    });
    fakeFetch(router({ 'GET /api/print-jobs/reports': () => ok({ ...FIGURES, shipping: { ...FIGURES.shipping, onTime: { onTime: 3, counted: 4, rate: 0.75 } } }) }, ADMIN));
    renderInAdmin(<PrintReportsPage />, { path: '/reports', routePath: '/reports' });
    fireEvent.click(await screen.findByRole('button', { name: 'Download CSV' }));
    expect(names).toEqual(['print-report-2026-11-01-to-2026-11-30.csv']);
    const text = await new Promise<string>((resolve) => {
      const reader = new FileReader();
      reader.onload = () => resolve(String(reader.result));
      reader.readAsText(saved[0]);
    });
    const lines = text.split('\r\n');
    expect(lines.slice(0, 11)).toEqual([
      'Print report,01/11/2026 to 30/11/2026',
      '',
      'Figure,Value',
      'Jobs printed,10',
      'Items printed,12',
      'Reprints,3',
      'Reprint rate,30 %',
      'Lines shipped,4',
      'Average order to ship (hours),27',
      'On-time rate,75 %',
      '',
    ]);
    expect(lines).toContain('03/11/2026,03/11/2026,10,12');
    expect(lines).toContain('"Card, ""large""",10,12');
    expect(lines).toContain('Print defect,2,20 %');
    expect(lines).toContain('Carrier,1,10 %');
    expect(lines).toContain('"Card, ""large""",10,3,30 %');
  });

  it('csvField quotes commas, quotes and line breaks and defuses spreadsheet formulas', () => {
    expect(csvField('plain')).toBe('plain');
    expect(csvField('a,b')).toBe('"a,b"');
    expect(csvField('say "hi"')).toBe('"say ""hi"""');
    expect(csvField('two\nlines')).toBe('"two\nlines"');
    expect(csvField('=SUM(A1)')).toBe("'=SUM(A1)");
    expect(csvField(-3)).toBe('-3');
    expect(csvField(null)).toBe('');
    expect(reportCsv(FIGURES as PrintReports)).toContain('On-time rate,Not available: no ship-by dates yet\r\n');
  });
});
