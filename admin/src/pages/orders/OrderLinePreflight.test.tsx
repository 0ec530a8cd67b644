// An order's lines show their print job's preflight (data.production[].held / .preflight) beside the PDF button.
import { beforeEach, describe, expect, it } from 'vitest';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { PreflightFinding } from '../../../../common/api/preflight';
import { renderInAdmin, signIn, fakeFetch, USER } from '../../test/helpers';
import { order } from '../../test/orders';
import { ok, router } from '../../test/printProduction';
import { ShopifyDataTab } from '../check-order/ShopifyDataTab';
import { OrdersPage } from './OrdersPage';

const SOFT: PreflightFinding = { severity: 'warning', code: 'low-resolution', message: 'Page 1 photo is 200 ppi at its printed size — 250 ppi or more prints sharp', page: 1 };
const BLURRY: PreflightFinding = { severity: 'error', code: 'low-resolution', message: 'Page 2 photo is 120 ppi at its printed size — it will look soft', page: 2 };

const TWO_LINES = order(
  { id: 4, field1: '5500000004' },
  {
    id: '5500000004',
    name: '#1004',
    line_items: [
      { id: '941', sku: 'CARD-ROBIN', quantity: 1 },
      { id: '942', sku: 'CARD-WREN', quantity: 1 },
      { id: '943', sku: 'CARD-OWL', quantity: 1 },
    ],
    production: [
      { lineId: '941', printJobId: 7, madeBy: 'inHouse', isPrinted: false, held: false, preflight: [SOFT] },
      { lineId: '942', printJobId: 8, madeBy: 'inHouse', isPrinted: false, held: true, preflight: [BLURRY] },
      // An older server: no preflight on the line's job.
      { lineId: '943', printJobId: 9, madeBy: 'inHouse', isPrinted: false },
    ],
  },
);

// A fresh answer each call: a Response's body can be read once.
const TYPES = () => ok({ data: [{ sku: 'CARD-ROBIN', productType: 'Card' }] });

beforeEach(() => signIn(USER));

describe("An order's lines: their job's preflight", () => {
  it('List Orders: a warning chip on a line with warnings, a red one on a held line, nothing without preflight', async () => {
    const user = userEvent.setup();
    fakeFetch(router({ 'GET /api/general-data/shopify-order-log': () => ok({ data: [TWO_LINES], hasNext: false, total: 1 }), 'GET /api/designs/all-with-product-type': TYPES }, USER));
    renderInAdmin(<OrdersPage />, { path: '/orders', routePath: '/orders' });
    const row = await screen.findByTestId('order-5500000004', {}, { timeout: 5000 });

    const warned = within(row).getByTestId('line-941');
    const chip = within(warned).getByRole('button', { name: 'Preflight: 1 warning' });
    expect(chip).toHaveClass('MuiChip-colorWarning');
    await user.click(chip);
    const popover = await screen.findByRole('dialog', { name: 'Preflight findings' });
    expect(popover).toHaveTextContent(`${SOFT.message}page 1`);
    await user.keyboard('{Escape}');
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());

    const held = within(row).getByTestId('line-942');
    expect(within(held).getByRole('button', { name: 'Held by preflight: 1 error' })).toHaveClass('MuiChip-colorError');
    expect(within(row).getByTestId('line-943').querySelector('.MuiChip-root')).toBeNull();
  });

  it("Check order: the line's Made by says it too", async () => {
    fakeFetch(router({ 'GET /api/designs/all-with-product-type': TYPES }, USER));
    renderInAdmin(<ShopifyDataTab order={TWO_LINES} />, { path: '/check-order', routePath: '/check-order' });
    const table = await screen.findByRole('table', { name: 'Line items' });
    const rows = within(table).getAllByRole('row').slice(1);
    expect(within(rows[0]).getByRole('button', { name: 'Preflight: 1 warning' })).toBeInTheDocument();
    expect(within(rows[1]).getByRole('button', { name: 'Held by preflight: 1 error' })).toBeInTheDocument();
    expect(within(rows[2]).queryByRole('button')).not.toBeInTheDocument();
  });
});
