import { describe, expect, it } from 'vitest';
import { screen, within } from '@testing-library/react';
import { customerNameOf } from '../../../../common/api/orders';
import { renderInAdmin, signIn, fakeFetch, USER } from '../../test/helpers';
import { order } from '../../test/orders';
import { ok, router } from '../../test/printProduction';
import { OrdersPage } from './OrdersPage';

// A guest checkout (or an imported order) has no customer: the shipping address names who it is for.
const GUEST = order({ id: 7, field1: '5500000007' }, { id: '5500000007', name: '#1007', customer: null, shipping_address: { name: 'Tuck Friar', address1: '2 Abbey Road', city: 'Nottingham', zip: 'NG2', country_code: 'GB' } });

describe('the customer of an order', () => {
  it('is the customer, else the shipping name, else its parts, else the email', () => {
    expect(customerNameOf({ customer: { first_name: 'Robin', last_name: 'Hood' }, shipping_address: { name: 'Marian' } })).toBe('Robin Hood');
    expect(customerNameOf({ customer: null, shipping_address: { name: ' Tuck Friar ' } })).toBe('Tuck Friar');
    expect(customerNameOf({ customer: { first_name: '', last_name: null }, shipping_address: { first_name: 'Will', last_name: 'Scarlet' } })).toBe('Will Scarlet');
    expect(customerNameOf({ email: 'much@example.com' })).toBe('much@example.com');
    expect(customerNameOf(undefined)).toBe('');
  });

  it('List Orders shows the shipping name of an order without a customer', async () => {
    signIn(USER);
    fakeFetch(
      router(
        {
          'GET /api/general-data/shopify-order-log': () => ok({ data: [GUEST], hasNext: false, total: 1 }),
          'GET /api/designs/all-with-product-type': () => ok({ data: [] }),
        },
        USER,
      ),
    );
    renderInAdmin(<OrdersPage />, { path: '/orders', routePath: '/orders' });
    const row = await screen.findByTestId('order-5500000007', {}, { timeout: 5000 });
    expect(within(row).getByTestId('customer-name')).toHaveTextContent('Tuck Friar');
  });
});
