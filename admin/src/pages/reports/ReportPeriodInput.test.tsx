import { describe, expect, it } from 'vitest';
import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { ADMIN, renderInAdmin, signIn, fakeFetch } from '../../test/helpers';
import { ok, router } from '../../test/printProduction';
import { formatDay } from '../../lib/format';
import { defaultPeriod, PrintReportsPage } from './PrintReportsPage';

const EMPTY = { printedPerDay: [], bucket: 'day', printedPerPeriod: [], totals: { jobs: 0, quantity: 0 }, perProduct: [], reprints: { printed: 0, reprinted: 0, rate: 0 }, oldestUnprinted: [] };

describe('Print Reports period', () => {
  it('shows and takes the days as DD/MM/YYYY and refuses an impossible one without asking the server', async () => {
    const user = userEvent.setup();
    signIn(ADMIN);
    const period = defaultPeriod();
    const { calls } = fakeFetch(router({ 'GET /api/print-jobs/reports': () => ok(EMPTY) }, ADMIN));
    renderInAdmin(<PrintReportsPage />, { path: '/reports', routePath: '/reports' });
    const from = await screen.findByRole('textbox', { name: 'From' });
    expect(from).toHaveValue(formatDay(period.from));
    expect(screen.getByRole('textbox', { name: 'To' })).toHaveValue(formatDay(period.to));

    await user.clear(from);
    await user.type(from, '01/01/2000');
    await waitFor(() => expect(calls.some((c) => c.url === `/api/print-jobs/reports?from=2000-01-01&to=${period.to}`)).toBe(true));

    const before = calls.length;
    await user.clear(from);
    await user.type(from, '30/02/2000');
    expect(await screen.findByText('30/02/2000 is not a date')).toBeInTheDocument();
    expect(calls.slice(before).filter((c) => c.url.startsWith('/api/print-jobs/reports'))).toEqual([]);
  });
});
