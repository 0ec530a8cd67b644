import { describe, expect, it } from 'vitest';
import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { ADMIN, renderInAdmin, signIn, fakeFetch, USER } from '../../test/helpers';
import { order, providerEvent, providerSend } from '../../test/orders';
import { fail, ok, router } from '../../test/printProduction';
import { HpDataPage } from './HpDataPage';

const EVENTS = [
  providerEvent({ id: 31 }),
  providerEvent({ id: 32, field1: '5500000002', status: 'printed' }, { shopifyOrderId: '5500000002', status: 'printed', trackingNumber: null, shippingMethod: null }),
];

const DETAIL = {
  order: order({ id: 1 }, { id: '5500000001', name: '#1001' }),
  lines: [{ lineId: '901', sku: 'CARD-ROBIN', quantity: 1, productName: 'Robin card', productId: '77', previewUrl: '/files/previews/robin.png', pdfUrl: 'http://localhost/files/print/abc.pdf' }],
  events: [providerEvent()],
  sent: [providerSend()],
};

function renderHpData() {
  renderInAdmin(<HpDataPage />, { path: '/hp-data', routePath: '/hp-data' });
}

describe('Data from HP (/hp-data)', () => {
  it('lists the provider events with the columns of the spec', async () => {
    signIn(ADMIN);
    const { calls } = fakeFetch(router({ 'GET /api/hp-data': () => ok({ list: EVENTS, hasNext: false, total: 2 }) }, ADMIN));
    renderHpData();
    const row = await screen.findByTestId('hp-event-31');
    expect(calls.find((c) => c.url.startsWith('/api/hp-data'))?.url).toBe('/api/hp-data?page=1');
    expect(screen.getAllByRole('columnheader').map((h) => h.textContent)).toEqual(['Timestamp', 'Status', 'Order Id', 'Tracking Number', 'Shipping Method', '']);
    expect(within(row).getByText('08/03/2025 09:30')).toBeInTheDocument();
    expect(within(row).getByText('shipped')).toBeInTheDocument();
    expect(within(row).getByText('5500000001')).toBeInTheDocument();
    expect(within(row).getByText('TRK123')).toBeInTheDocument();
    expect(within(row).getByText('Royal Mail 1st Class')).toBeInTheDocument();
    expect(within(row).getByRole('link', { name: 'Check order' })).toHaveAttribute('href', '/check-order?id=5500000001');
    expect(screen.getAllByRole('link', { name: /Check order/ })[0]).toHaveAttribute('href', '/check-order');
    expect(document.title).toBe('Data from HP | Presswork');
  });

  it('opens everything about the order of a clicked row: product, preview, print PDF, events, sent data and response', async () => {
    signIn(ADMIN);
    const { calls } = fakeFetch(
      router({ 'GET /api/hp-data/order/': () => ok(DETAIL), 'GET /api/hp-data': () => ok({ list: EVENTS, hasNext: false, total: 2 }) }, ADMIN),
    );
    renderHpData();
    await userEvent.click(await screen.findByTestId('hp-event-31'));
    const dialog = await screen.findByRole('dialog', { name: /Order 5500000001/ });
    expect(await within(dialog).findByText('Robin card')).toBeInTheDocument();
    expect(calls.some((c) => c.url === '/api/hp-data/order/5500000001')).toBe(true);
    expect(within(dialog).getByText('Product ID: 77')).toBeInTheDocument();
    expect(within(dialog).getByRole('img', { name: 'Preview of Robin card' })).toHaveAttribute('src', '/files/previews/robin.png');
    expect(within(dialog).getByRole('link', { name: /Print PDF/ })).toHaveAttribute('href', 'http://localhost/files/print/abc.pdf');
    expect(within(within(dialog).getByRole('table', { name: 'Provider events' })).getByText('TRK123')).toBeInTheDocument();
    expect(within(dialog).getByLabelText('Sent data')).toHaveTextContent('"sourceOrderId": "5500000001"');
    expect(within(dialog).getByLabelText('Response')).toHaveTextContent('"_id": "hp-1"');
    await userEvent.click(within(dialog).getAllByRole('button', { name: 'Close' })[0]);
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
  });

  it('shows whether each tracking reached the store: sent, or failed with the reason', async () => {
    signIn(ADMIN);
    const back = (outboxId: number, status: 'sent' | 'failed' | 'pending', error: string | null, note: string | null = null) => ({
      outboxId,
      status,
      source: 'provider',
      lineIds: ['901'],
      tracking: { number: `TRK${outboxId}`, url: null, company: 'royalmail' },
      error,
      note,
      fulfillmentId: null,
      fulfilledLineIds: [],
      alreadyFulfilledLineIds: [],
      createdAt: '2025-03-08T09:30:00',
      doneAt: null,
    });
    const detail = { ...DETAIL, storeFulfilments: [back(1, 'sent', null, 'already fulfilled in the store'), back(2, 'failed', 'The store refused the fulfilment: fulfillment: Fulfillment order is not in an open state.'), back(3, 'pending', 'The store did not answer: socket hang up')] };
    fakeFetch(router({ 'GET /api/hp-data/order/': () => ok(detail), 'GET /api/hp-data': () => ok({ list: EVENTS, hasNext: false, total: 2 }) }, ADMIN));
    renderHpData();
    await userEvent.click(await screen.findByTestId('hp-event-31'));
    const dialog = await screen.findByRole('dialog', { name: /Order 5500000001/ });
    expect(await within(dialog).findByTestId('to-store-1')).toHaveTextContent('Sent · royalmail TRK1 · lines 901already fulfilled in the store');
    expect(within(dialog).getByTestId('to-store-2')).toHaveTextContent('Failed · royalmail TRK2 · lines 901The store refused the fulfilment: fulfillment: Fulfillment order is not in an open state.');
    expect(within(dialog).getByTestId('to-store-3')).toHaveTextContent('Pending · royalmail TRK3');
  });

  it('rows are reached with Tab and open with Enter', async () => {
    signIn(ADMIN);
    fakeFetch(router({ 'GET /api/hp-data/order/': () => ok(DETAIL), 'GET /api/hp-data': () => ok({ list: EVENTS, hasNext: false, total: 2 }) }, ADMIN));
    renderHpData();
    const row = await screen.findByTestId('hp-event-31');
    for (let i = 0; i < 5 && document.activeElement !== row; i++) await userEvent.tab();
    expect(row).toHaveFocus();
    expect(row).toHaveAccessibleName('Open order 5500000001');
    await userEvent.keyboard('{Enter}');
    expect(await screen.findByRole('dialog', { name: /Order 5500000001/ })).toBeInTheDocument();
  });

  it('a manual send\'s row opens the send (what was sent, HP\'s answer), not "Order not found"', async () => {
    signIn(ADMIN);
    const manualEvent = providerEvent({ id: 33, field1: 'manual-7', status: 'printed' }, { shopifyOrderId: 'manual-7', status: 'printed', trackingNumber: null, shippingMethod: null });
    const manualDetail = {
      order: null,
      lines: [],
      events: [manualEvent],
      sent: [providerSend({ id: 42, field1: 'manual-7' }, { manual: true, sentData: { orderData: { sourceOrderId: 'manual-7' } }, results: { order: { _id: 'hp-77' } } })],
    };
    const { calls } = fakeFetch(
      router(
        {
          'GET /api/hp-data/order/': () => ok(manualDetail),
          'GET /api/hp-data': () => ok({ list: [{ ...manualEvent, hasStoreOrder: false }, { ...EVENTS[0], hasStoreOrder: true }], hasNext: false, total: 2 }),
        },
        ADMIN,
      ),
    );
    renderHpData();
    const row = await screen.findByTestId('hp-event-33');
    expect(within(row).queryByRole('link', { name: 'Check order' })).not.toBeInTheDocument();
    expect(within(await screen.findByTestId('hp-event-31')).getByRole('link', { name: 'Check order' })).toHaveAttribute('href', '/check-order?id=5500000001');
    await userEvent.click(within(row).getByRole('button', { name: 'Sent data' }));
    const dialog = await screen.findByRole('dialog', { name: /Order manual-7/ });
    expect(calls.some((c) => c.url === '/api/hp-data/order/manual-7')).toBe(true);
    expect(await within(dialog).findByText('Manual')).toBeInTheDocument();
    expect(within(dialog).getByLabelText('Sent data')).toHaveTextContent('"sourceOrderId": "manual-7"');
    expect(within(dialog).getByLabelText('Response')).toHaveTextContent('"_id": "hp-77"');
  });

  it('says "There is no postback" and "There is no sent data" for an order the provider knows nothing of', async () => {
    signIn(ADMIN);
    fakeFetch(
      router(
        {
          'GET /api/hp-data/order/': () => ok({ ...DETAIL, events: [], sent: [] }),
          'GET /api/hp-data': () => ok({ list: EVENTS, hasNext: false, total: 2 }),
        },
        ADMIN,
      ),
    );
    renderHpData();
    await userEvent.click(await screen.findByTestId('hp-event-32'));
    const dialog = await screen.findByRole('dialog');
    expect(await within(dialog).findByText('There is no postback')).toBeInTheDocument();
    expect(within(dialog).getByText('There is no sent data')).toBeInTheDocument();
  });

  it('shows the detail error text', async () => {
    signIn(ADMIN);
    fakeFetch(router({ 'GET /api/hp-data/order/': () => fail('Order not found', 404), 'GET /api/hp-data': () => ok({ list: EVENTS, hasNext: false, total: 2 }) }, ADMIN));
    renderHpData();
    await userEvent.click(await screen.findByTestId('hp-event-31'));
    const dialog = await screen.findByRole('dialog');
    expect(await within(dialog).findByRole('alert')).toHaveTextContent('Order not found');
  });

  it('says "There is no postback" when the provider has posted nothing yet', async () => {
    signIn(ADMIN);
    fakeFetch(router({ 'GET /api/hp-data': () => ok({ list: [], hasNext: false, total: 0 }) }, ADMIN));
    renderHpData();
    expect(await screen.findByText('There is no postback')).toBeInTheDocument();
  });

  it('shows the list error text in red', async () => {
    signIn(ADMIN);
    fakeFetch(router({ 'GET /api/hp-data': () => fail('Database is unavailable', 503) }, ADMIN));
    renderHpData();
    expect(await screen.findByRole('alert')).toHaveTextContent('Database is unavailable');
    expect(screen.queryByText('There is no postback')).not.toBeInTheDocument();
  });

  it('is an admin screen', async () => {
    signIn(USER);
    const { calls } = fakeFetch(router({}, USER));
    renderHpData();
    expect(await screen.findByRole('heading', { name: 'Access denied' })).toBeInTheDocument();
    expect(calls.some((c) => c.url.startsWith('/api/hp-data'))).toBe(false);
  });
});
