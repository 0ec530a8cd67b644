import { describe, expect, it } from 'vitest';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { StoreFulfilment } from '../../../../common/api/orders';
import { ADMIN, jsonResponse, renderInAdmin, signIn, fakeFetch, USER } from '../../test/helpers';
import { order } from '../../test/orders';
import { ok, router } from '../../test/printProduction';
import { CheckOrderPage } from './CheckOrderPage';

const TWO_LINES = order(
  { id: 1 },
  {
    id: '5500000001',
    name: '#1001',
    line_items: [
      { id: '901', name: 'Robin card', sku: 'CARD-ROBIN', quantity: 1, fulfillment_status: 'fulfilled', fulfillable_quantity: 0 },
      { id: '902', name: 'Marian mug', sku: 'MUG-MARIAN', quantity: 1, fulfillment_status: null, fulfillable_quantity: 1 },
    ],
  },
);

/** The same order with its mug printed in house (the server's production list says where each line is made). */
const MUG_IN_HOUSE = order(
  { id: 1 },
  {
    ...TWO_LINES.data,
    production: [
      { lineId: '901', printJobId: 6, madeBy: 'provider', isPrinted: true },
      { lineId: '902', printJobId: 7, madeBy: 'inHouse', isPrinted: true },
    ],
  },
);

const sentBack = (over: Partial<StoreFulfilment> = {}): StoreFulfilment => ({
  outboxId: 7,
  status: 'sent',
  source: 'provider',
  lineIds: ['901'],
  tracking: { number: 'RM123456789GB', url: 'https://track.example/RM123456789GB', company: 'Royal Mail' },
  error: null,
  note: null,
  fulfillmentId: 'gid://shopify/Fulfillment/41',
  fulfilledLineIds: ['901'],
  alreadyFulfilledLineIds: [],
  createdAt: '2025-03-08T09:30:00',
  doneAt: '2025-03-08T09:31:00',
  ...over,
});

const renderCheck = () => renderInAdmin(<CheckOrderPage />, { path: '/check-order?id=5500000001', routePath: '/check-order' });

describe('Check order: store fulfilment', () => {
  it('shows per line the store\'s state and the fulfilment Presswork created', async () => {
    signIn(USER);
    fakeFetch(
      router(
        {
          'POST /api/online-stores/check-order': () => ok([TWO_LINES]),
          'GET /api/orders/5500000001/store-fulfilments': () => ok([sentBack()]),
        },
        USER,
      ),
    );
    renderCheck();
    const table = await screen.findByRole('table', { name: 'Store fulfilment per line' });
    const card = within(table).getByTestId('store-line-901');
    expect(card).toHaveTextContent('Fulfilled');
    expect(await within(card).findByText('In the store')).toBeInTheDocument();
    expect(within(card).getByRole('link', { name: 'Royal Mail RM123456789GB' })).toHaveAttribute('href', 'https://track.example/RM123456789GB');
    expect(card).toHaveTextContent('gid://shopify/Fulfillment/41');
    const mug = within(table).getByTestId('store-line-902');
    expect(mug).toHaveTextContent('Not fulfilled');
    // Every line is the provider's: it ships them and posts the tracking back; nothing to mark here.
    expect(screen.queryByRole('button', { name: 'Mark shipped' })).not.toBeInTheDocument();
    expect(mug).toHaveTextContent('None');
  });

  it('Mark shipped sends the carrier, number and URL once per click, shows field errors, then the new state', async () => {
    signIn(USER);
    let shipped = false;
    const { calls } = fakeFetch(
      router(
        {
          'POST /api/online-stores/check-order': () => ok([MUG_IN_HOUSE]),
          'GET /api/orders/5500000001/store-fulfilments': () => ok(shipped ? [sentBack({ source: 'in-house', lineIds: ['902'], fulfilledLineIds: ['902'], tracking: { number: 'RM000111222GB', url: null, company: 'Royal Mail' } })] : []),
          'POST /api/orders/mark-shipped': (call) => {
            const body = call.body as { trackingNumber: string };
            if (!body.trackingNumber.trim()) return jsonResponse({ success: false, error: 'Tracking number is required.', field: 'trackingNumber', details: [{ field: 'trackingNumber', message: 'Tracking number is required.' }] }, 400);
            shipped = true;
            return ok(sentBack({ source: 'in-house', lineIds: ['902'] }));
          },
        },
        USER,
      ),
    );
    renderCheck();
    await userEvent.click(await screen.findByRole('button', { name: 'Mark shipped' }));
    const dialog = await screen.findByRole('dialog', { name: 'Mark shipped' });
    await userEvent.type(within(dialog).getByRole('textbox', { name: 'Carrier' }), 'Royal Mail');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Mark shipped' }));
    expect(await within(dialog).findByText('Tracking number is required.')).toBeInTheDocument();
    await userEvent.type(within(dialog).getByRole('textbox', { name: 'Tracking number' }), 'RM000111222GB');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Mark shipped' }));
    await waitFor(() => expect(screen.queryByRole('dialog', { name: 'Mark shipped' })).not.toBeInTheDocument());
    const posts = calls.filter((c) => c.url === '/api/orders/mark-shipped');
    expect(posts).toHaveLength(2);
    expect(posts[1].body).toEqual({ orderId: '5500000001', siteId: 1, carrier: 'Royal Mail', trackingNumber: 'RM000111222GB' });
    expect(posts[1].headers.get('Idempotency-Key')).toBeTruthy();
    expect(posts[1].headers.get('Idempotency-Key')).not.toBe(posts[0].headers.get('Idempotency-Key'));
    const mug = await screen.findByTestId('store-line-902');
    expect(await within(mug).findByText('Royal Mail RM000111222GB', { exact: false })).toBeInTheDocument();
  });

  it("an HP-shipped order of a store that is not connected says why the store's state is not known, and where to connect it", async () => {
    const shippedUnknown = order({ id: 1 }, { id: '5500000001', name: '#1001', status: 'shipped', storeConnection: { connected: false, uninstalledAt: null }, line_items: [{ id: '901', name: 'Robin card', sku: 'CARD-ROBIN', quantity: 1 }] });
    for (const user of [USER, ADMIN]) {
      signIn(user);
      fakeFetch(router({ 'POST /api/online-stores/check-order': () => ok([shippedUnknown]), 'GET /api/orders/5500000001/store-fulfilments': () => ok([]) }, user));
      const { unmount } = renderCheck();
      const line = await screen.findByTestId('store-line-901');
      expect(line).toHaveTextContent('Not known: the store is not connected');
      expect(line).not.toHaveTextContent('Not known yet');
      if (user === ADMIN) expect(await within(line).findByRole('link', { name: 'Setup → Stores' })).toHaveAttribute('href', '/stores');
      else expect(line).toHaveTextContent('Setup → Stores, by an admin');
      unmount();
    }
  });
});
