import { describe, expect, it } from 'vitest';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { ADMIN, renderInAdmin, signIn, stubFetch } from '../../test/helpers';
import { ok, printJob, router } from '../../test/printProduction';
import { defaultPeriod, PrintReportsPage } from './PrintReportsPage';
import { fillDays, formatRate } from './reportDays';

describe('report helpers', () => {
  it('defaults to the last 30 days, today included', () => {
    expect(defaultPeriod(new Date(2025, 5, 10))).toEqual({ from: '2025-05-12', to: '2025-06-10' });
  });

  it('fills the days the server does not list with zero', () => {
    expect(fillDays('2025-06-01', '2025-06-03', [{ day: '2025-06-02', jobs: 4, quantity: 6 }])).toEqual([
      { day: '2025-06-01', jobs: 0, quantity: 0 },
      { day: '2025-06-02', jobs: 4, quantity: 6 },
      { day: '2025-06-03', jobs: 0, quantity: 0 },
    ]);
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
    const bars = screen.getAllByTestId('printed-per-day-bar');
    expect(bars).toHaveLength(30);
    expect(bars[29]).toHaveAttribute('data-jobs', '3');
    expect(within(screen.getByRole('table', { name: 'Per product' })).getByText('Robin card')).toBeInTheDocument();
    const oldest = screen.getByRole('table', { name: 'Oldest unprinted jobs' });
    expect(within(oldest).getByText('Old mug')).toBeInTheDocument();
    expect(within(oldest).getByText('2 d 4 h')).toBeInTheDocument();
    expect(document.title).toBe('Print Reports | Presswork');

    fireEvent.change(screen.getByLabelText('From'), { target: { value: period.to } });
    await waitFor(() =>
      expect(calls.some((c) => c.url === `/api/print-jobs/reports?from=${period.to}&to=${period.to}`)).toBe(true),
    );
  });
});
