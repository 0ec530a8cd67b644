import { describe, expect, it } from 'vitest';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { ADMIN, renderInAdmin, signIn, stubFetch } from '../../test/helpers';
import { ok, printJob, router } from '../../test/printProduction';
import { defaultPeriod, PrintReportsPage } from './PrintReportsPage';
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
    const { calls } = stubFetch(
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
    stubFetch(
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
