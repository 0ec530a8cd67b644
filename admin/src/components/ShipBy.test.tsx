// Ship-by on the screens: Jobs (Ready and Held tabs, phone cards), List Orders and Check order lines,
// DD/MM/YYYY HH:mm with a Late (red), At risk (amber) or Due today (blue) marker, nothing when ok.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { screen, within } from '@testing-library/react';
import { ADMIN, USER, renderInAdmin, signIn, fakeFetch } from '../test/helpers';
import { order } from '../test/orders';
import { ok, printJob, router } from '../test/printProduction';
import { formatDateTime } from '../lib/format';
import { ShopifyDataTab } from '../pages/check-order/ShopifyDataTab';
import { OrdersPage } from '../pages/orders/OrdersPage';
import { PrintJobsPage } from '../pages/print-jobs/PrintJobsPage';

const SHIP = '2026-03-10T14:00:00.000Z';
const shown = formatDateTime(SHIP);

const JOBS = [
  printJob({ id: 1, productName: 'Late card', shipBy: SHIP, due: 'late' }),
  printJob({ id: 2, productName: 'Risky card', shipBy: SHIP, due: 'atRisk' }),
  printJob({ id: 3, productName: 'Today card', shipBy: SHIP, due: 'today' }),
  printJob({ id: 4, productName: 'Fine card', shipBy: SHIP, due: 'ok' }),
];

const renderJobs = (path = '/print-jobs') => renderInAdmin(<PrintJobsPage />, { path, routePath: '/print-jobs' });
const chipOf = (row: HTMLElement) => row.querySelector('[data-testid="ship-by"] .MuiChip-root');

describe('Ship by on Jobs', () => {
  beforeEach(() => signIn(ADMIN));

  it('the Ready tab shows each job’s ship-by with its marker: Late red, At risk amber, Due today blue, nothing when ok', async () => {
    fakeFetch(router({ 'GET /api/print-jobs': () => ok({ list: JOBS, hasNext: false, total: JOBS.length }) }, ADMIN));
    renderJobs();
    const rows = await Promise.all(JOBS.map((j) => screen.findByTestId(`print-job-${j.id}`)));
    for (const row of rows) expect(within(row).getByTestId('ship-by')).toHaveTextContent(shown);
    expect(chipOf(rows[0])).toHaveTextContent('Late');
    expect(chipOf(rows[0])).toHaveClass('MuiChip-colorError');
    expect(chipOf(rows[1])).toHaveTextContent('At risk');
    expect(chipOf(rows[1])).toHaveClass('MuiChip-colorWarning');
    expect(chipOf(rows[2])).toHaveTextContent('Due today');
    expect(chipOf(rows[2])).toHaveClass('MuiChip-colorInfo');
    expect(chipOf(rows[3])).toBeNull();
  });

  it('the Held tab shows it too', async () => {
    const held = printJob({ id: 5, productName: 'Held card', held: true, readyForPrint: true, shipBy: SHIP, due: 'atRisk', preflight: [{ severity: 'error', code: 'low-resolution', message: 'Page 1 photo is 68 ppi', page: 1 }] });
    fakeFetch(
      router(
        {
          'GET /api/print-jobs?held=1': () => ok({ list: [held], hasNext: false, total: 1 }),
          'GET /api/print-jobs?page=': () => ok({ list: [], hasNext: false, total: 0 }),
        },
        ADMIN,
      ),
    );
    renderJobs('/print-jobs?tab=held');
    const row = await screen.findByTestId('held-job-5');
    expect(screen.getAllByRole('columnheader').map((h) => h.textContent)).toContain('Ship by');
    expect(within(row).getByTestId('ship-by')).toHaveTextContent(`${shown}At risk`);
  });
});

describe('Ship by on a phone', () => {
  let matchMedia: typeof window.matchMedia;
  beforeEach(() => {
    signIn(ADMIN);
    matchMedia = window.matchMedia;
    window.matchMedia = ((query: string) => ({ matches: true, media: query, onchange: null, addListener: () => {}, removeListener: () => {}, addEventListener: () => {}, removeEventListener: () => {}, dispatchEvent: () => false })) as unknown as typeof window.matchMedia;
  });
  afterEach(() => {
    window.matchMedia = matchMedia;
  });

  it('a job’s card says "Ship by" with its marker', async () => {
    fakeFetch(router({ 'GET /api/print-jobs': () => ok({ list: [JOBS[0]], hasNext: false, total: 1 }) }, ADMIN));
    renderJobs();
    const card = await screen.findByTestId('print-job-1');
    expect(within(card).getByTestId('ship-by')).toHaveTextContent(`Ship by ${shown}Late`);
  });
});

describe('Ship by on order lines', () => {
  beforeEach(() => signIn(USER));
  const ORDER = order(
    { id: 4, field1: '5500000004' },
    {
      id: '5500000004',
      name: '#1004',
      line_items: [
        { id: '941', sku: 'CARD-ROBIN', quantity: 1, shipBy: SHIP, due: 'late' },
        { id: '942', sku: 'MUG-ROBIN', quantity: 1, shipBy: SHIP, due: 'ok' },
        { id: '943', sku: 'ECARD', quantity: 1, shipBy: null, due: 'ok' },
      ],
    },
  );
  const TYPES = () => ok({ data: [{ sku: 'ECARD', productType: 'E-card' }] });

  it('List Orders: each line’s ship-by and marker; an e-card has none', async () => {
    fakeFetch(router({ 'GET /api/general-data/shopify-order-log': () => ok({ data: [ORDER], hasNext: false, total: 1 }), 'GET /api/designs/all-with-product-type': TYPES }, USER));
    renderInAdmin(<OrdersPage />, { path: '/orders', routePath: '/orders' });
    const row = await screen.findByTestId('order-5500000004', {}, { timeout: 5000 });
    expect(within(within(row).getByTestId('line-941')).getByTestId('ship-by')).toHaveTextContent(`Ship by ${shown}Late`);
    expect(within(row).getByTestId('line-941').querySelector('.MuiChip-colorError')).not.toBeNull();
    expect(within(within(row).getByTestId('line-942')).getByTestId('ship-by')).toHaveTextContent(`Ship by ${shown}`);
    expect(within(row).getByTestId('line-942').querySelector('[data-testid="ship-by"] .MuiChip-root')).toBeNull();
    expect(within(within(row).getByTestId('line-943')).queryByTestId('ship-by')).toBeNull();
  });

  it('List Orders: lines that share their ship-by show it once, beside the customer, not on every line', async () => {
    const same = order({ id: 5, field1: '5500000005' }, { id: '5500000005', name: '#1005', line_items: [941, 942].map((id) => ({ id: String(id), sku: 'CARD-ROBIN', quantity: 1, shipBy: SHIP, due: 'late' as const })) });
    fakeFetch(router({ 'GET /api/general-data/shopify-order-log': () => ok({ data: [same], hasNext: false, total: 1 }), 'GET /api/designs/all-with-product-type': TYPES }, USER));
    renderInAdmin(<OrdersPage />, { path: '/orders', routePath: '/orders' });
    const row = await screen.findByTestId('order-5500000005', {}, { timeout: 5000 });
    expect(within(row).getAllByTestId('ship-by')).toHaveLength(1);
    expect(within(row).getByTestId('ship-by')).toHaveTextContent(`Ship by ${shown}Late`);
    expect(within(within(row).getByTestId('line-941')).queryByTestId('ship-by')).toBeNull();
  });

  it('Check order: a Ship by column on the lines', async () => {
    fakeFetch(router({ 'GET /api/designs/all-with-product-type': TYPES }, USER));
    renderInAdmin(<ShopifyDataTab order={ORDER} />, { path: '/check-order', routePath: '/check-order' });
    const table = await screen.findByRole('table', { name: 'Line items' });
    expect(within(table).getAllByRole('columnheader').map((h) => h.textContent)).toContain('Ship by');
    const rows = within(table).getAllByRole('row').slice(1);
    expect(within(rows[0]).getByTestId('ship-by')).toHaveTextContent(`${shown}Late`);
    expect(within(rows[1]).getByTestId('ship-by')).toHaveTextContent(shown);
    expect(within(rows[2]).queryByTestId('ship-by')).toBeNull();
  });
});
