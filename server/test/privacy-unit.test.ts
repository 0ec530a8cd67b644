// The privacy rules without a database: what a request asks, what an order holds on its customer,
// and the order with the customer taken out while bookkeeping stays.
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { REDACTED, holdingsOf, isFinished, privacyRequestOf, redactJson, scrubText, subjectOf } from '../src/modules/orders/privacy';
import { PayloadError, parseJsonInt64Safe } from '../src/modules/orders/shopify';

const sample = (name: string) => parseJsonInt64Safe(fs.readFileSync(path.join(import.meta.dirname, 'fixtures', 'shopify-privacy', name), 'utf8'));

describe('privacyRequestOf (Shopify\'s published samples)', () => {
  it('reads each sample: the customer, the orders, the data request\'s id', () => {
    expect(privacyRequestOf('customers/data_request', sample('customers-data-request.json'))).toEqual({
      topic: 'customers/data_request',
      shopDomain: '{shop}.myshopify.com',
      customer: { id: '191167', email: 'john@example.com', phone: '555-625-1199' },
      orderIds: ['299938', '280263', '220458'],
      dataRequestId: '9999',
    });
    expect(privacyRequestOf('customers/redact', sample('customers-redact.json')).orderIds).toEqual(['299938', '280263', '220458']);
    expect(privacyRequestOf('shop/redact', sample('shop-redact.json'))).toEqual({ topic: 'shop/redact', shopDomain: '{shop}.myshopify.com', customer: null, orderIds: [], dataRequestId: null });
  });
  it('a customer request naming nobody is a PayloadError', () => {
    expect(() => privacyRequestOf('customers/redact', { shop_domain: 'x', orders_to_redact: [1] })).toThrow(PayloadError);
    expect(() => privacyRequestOf('customers/data_request', null)).toThrow(PayloadError);
  });
});

const ORDER = {
  id: '9007199254740993',
  name: '#1001',
  order_number: 1001,
  email: 'bob.norman@mail.example.com',
  created_at: '2026-11-20T10:00:00Z',
  financial_status: 'paid',
  customer: { id: '207119551', first_name: 'Bob', last_name: 'Card', email: 'bob.norman@mail.example.com' },
  line_items: [{ id: '1', sku: 'SKU-CARD', name: 'Birthday Card', quantity: 2, price: '4.50', properties: [{ name: 'Message', value: 'To Ann, from Bob Card (bob.norman@mail.example.com)' }] }],
  shipping_address: { name: 'Bob Card', first_name: 'Bob', last_name: 'Card', address1: 'Chestnut Street 92', address2: null, city: 'Louisville', zip: '40202', province: 'Kentucky', province_code: 'KY', country: 'United States', country_code: 'US', phone: '+1(502)-459-2181', company: null },
  shipping_lines: [{ title: 'Standard', code: 'STD' }],
};

describe('redactJson', () => {
  const subject = subjectOf(ORDER);
  const out = redactJson(ORDER, subject);

  it('replaces the customer\'s name, e-mail, phone and addresses', () => {
    expect(out.customer).toEqual({ id: '207119551', first_name: REDACTED, last_name: REDACTED, email: REDACTED });
    expect(out.email).toBe(REDACTED);
    expect(out.shipping_address).toEqual({ ...ORDER.shipping_address, name: REDACTED, first_name: REDACTED, last_name: REDACTED, address1: REDACTED, city: REDACTED, zip: REDACTED, phone: REDACTED });
    expect(out.line_items[0].properties).toEqual([{ name: 'Message', value: `To Ann, from ${REDACTED} (${REDACTED})` }]);
  });

  it('keeps what bookkeeping needs, even where a value looks like the customer\'s name (a SKU word equal to the surname)', () => {
    expect(out).toMatchObject({ id: ORDER.id, name: '#1001', order_number: 1001, created_at: ORDER.created_at, financial_status: 'paid', shipping_lines: ORDER.shipping_lines });
    expect(out.line_items[0]).toMatchObject({ id: '1', sku: 'SKU-CARD', name: 'Birthday Card', quantity: 2, price: '4.50' });
    expect(out.shipping_address).toMatchObject({ country: 'United States', country_code: 'US', province: 'Kentucky', province_code: 'KY' });
  });

  it('redacts an HP Site Flow shipTo and leaves its items', () => {
    expect(redactJson({ shipTo: { name: 'Bob Card', address1: 'x', town: 'y', postcode: 'z', isoCountry: 'US' }, items: [{ sku: 'SKU-CARD' }] }, subject)).toEqual({
      shipTo: { name: REDACTED, address1: REDACTED, town: REDACTED, postcode: REDACTED, isoCountry: 'US' },
      items: [{ sku: 'SKU-CARD' }],
    });
  });

  it('scrubText replaces names as words only, e-mails and phones wherever they are', () => {
    const s = { names: ['Ann'], emails: ['a@b.example'], phones: ['0123 456'] };
    expect(scrubText('Annie and Ann, a@b.example / 0123 456', s)).toBe(`Annie and ${REDACTED}, ${REDACTED} / ${REDACTED}`);
  });
});

describe('what an order holds, and whether it is finished', () => {
  it('holdingsOf lists each kind with its value', () => {
    expect(holdingsOf(ORDER)).toEqual({
      kinds: ['name', 'e-mail', 'phone', 'shipping address'],
      values: { name: 'Bob Card', 'e-mail': 'bob.norman@mail.example.com', phone: '+1(502)-459-2181', 'shipping address': 'Bob Card, Chestnut Street 92, Louisville, Kentucky, 40202, United States, +1(502)-459-2181' },
    });
  });
  it('shipped, cancelled, nothing to make or fulfilled in the store: finished; anything else is in production', () => {
    for (const s of ['shipped', 'cancelled', 'no-lines']) expect(isFinished(s, {})).toBe(true);
    expect(isFinished('received', { fulfillment_status: 'fulfilled' })).toBe(true);
    for (const s of ['received', 'sent', 'printready', 'printed', 'onhold', 'error']) expect(isFinished(s, {})).toBe(false);
  });
});
