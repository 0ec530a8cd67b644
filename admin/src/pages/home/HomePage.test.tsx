import { describe, expect, it } from 'vitest';
import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { LowStockItem } from '../../../../common/api/stock';
import { ADMIN, LocationDisplay, renderInAdmin, signIn, fakeFetch, USER } from '../../test/helpers';
import { fail, ok, router } from '../../test/printProduction';
import { HomePage } from './HomePage';

const MUGS: LowStockItem = {
  item: { id: 4, siteId: 1, name: 'White mugs 11 oz', unit: 'mugs', onHand: 10, reserved: 0, available: 10, reorderPoint: 12, reorderQuantity: 36, supplierNote: null },
  usedPerDay: 0.2,
  daysLeft: 46,
};
const SHEETS: LowStockItem = {
  item: { id: 5, siteId: null, name: 'Sublimation sheets A4', unit: 'sheets', onHand: 30, reserved: 4, available: 26, reorderPoint: 40, reorderQuantity: 0, supplierNote: null },
  usedPerDay: 0,
  daysLeft: null,
};

function renderHome(user = ADMIN, low: () => Response = () => ok({ list: [MUGS, SHEETS] })) {
  signIn(user);
  const fetches = fakeFetch(router({ 'GET /api/stock-items/low': low, 'GET /api/attention': () => ok({ items: [], counts: { total: 0, critical: 0 } }) }, user));
  renderInAdmin(
    <>
      <HomePage />
      <LocationDisplay />
    </>,
    { path: '/home', routePath: '*' },
  );
  return fetches;
}

describe('Home: stock running low', () => {
  it("lists each item under its reorder point with the days it lasts at the last 14 days' use, each a link to the item", async () => {
    const { calls } = renderHome();
    const list = await screen.findByRole('list', { name: 'Stock running low' });
    const rows = within(list).getAllByRole('listitem');
    expect(rows.map((r) => r.textContent)).toEqual([
      "White mugs 11 oz10 mugs available (reorder point 12); lasts about 46 days at the last 14 days' use; reorder 36 mugs",
      'Sublimation sheets A426 sheets available (reorder point 40); none used in the last 14 days',
    ]);
    expect(calls.some((c) => c.url === '/api/stock-items/low?limit=10')).toBe(true);
    const link = within(rows[0]).getByRole('link', { name: 'White mugs 11 oz' });
    expect(link).toHaveAttribute('href', '/stock-items/4/show');
    await userEvent.click(link);
    expect(screen.getByTestId('location')).toHaveTextContent('/stock-items/4/show');
  });

  it('staff see it above Needs attention', async () => {
    renderHome(USER);
    expect(await screen.findByRole('link', { name: 'White mugs 11 oz' })).toHaveAttribute('href', '/stock-items/4/show');
    expect(screen.getByRole('link', { name: 'All stock' })).toHaveAttribute('href', '/stock-items');
    const attention = screen.getByRole('heading', { level: 1, name: 'Needs attention' });
    expect(screen.getByRole('list', { name: 'Stock running low' }).compareDocumentPosition(attention) & Node.DOCUMENT_POSITION_FOLLOWING).toBeTruthy();
  });

  it('shows nothing while no item is low', async () => {
    renderHome(ADMIN, () => ok({ list: [] }));
    expect(await screen.findByText(/Welcome, Ada/)).toBeInTheDocument();
    // Give the answer time to arrive: still no card.
    await new Promise((r) => setTimeout(r, 50));
    expect(screen.queryByText('Stock running low')).not.toBeInTheDocument();
  });

  it('says so when the list cannot be loaded', async () => {
    renderHome(ADMIN, () => fail('The database is not answering', 503));
    expect(await screen.findByText(/Stock running low could not be loaded: The database is not answering/)).toBeInTheDocument();
  });
});
