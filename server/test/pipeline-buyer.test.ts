// The buyer of a store order (who, where, marketing consent), read from Shopify's own example
// order (fixtures/vendor/shopify-order-1001.json) byte for byte, and from variants of it.
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { buyerOf } from '../src/modules/pipeline/buyer';

const raw = fs.readFileSync(path.resolve(import.meta.dirname, 'fixtures/vendor/shopify-order-1001.json'), 'utf8');
/** A fresh copy of the example order each time, so no variant leaks into another. */
const order = () => JSON.parse(raw) as Record<string, unknown> & { customer: Record<string, unknown> & { email_marketing_consent: Record<string, unknown> }; billing_address: Record<string, unknown>; shipping_address: Record<string, unknown> };

describe('buyerOf: Shopify\'s example order #1001', () => {
  it('Bob Norman, his billing address, and no marketing consent (not_subscribed)', () => {
    expect(buyerOf(JSON.parse(raw))).toEqual({
      email: 'bob.norman@mail.example.com',
      first: 'Bob',
      last: 'Norman',
      address: { lines: ['Chestnut Street 92'], city: 'Louisville', state: 'KY', postalCode: '40202', country: 'United States', countryCode: 'US' },
      marketingConsent: 'not-given',
      consentDate: null,
      consentFrom: 'customer.email_marketing_consent',
    });
  });
});

describe('buyerOf: variants', () => {
  it('subscribed: given, dated when the customer consented', () => {
    const o = order();
    o.customer.email_marketing_consent = { state: 'subscribed', opt_in_level: 'single_opt_in', consent_updated_at: '2026-03-01T10:00:00-05:00' };
    expect(buyerOf(o)).toMatchObject({ marketingConsent: 'given', consentDate: '2026-03-01T10:00:00-05:00', consentFrom: 'customer.email_marketing_consent' });
  });

  it('subscribed without a consent date: dated by the order', () => {
    const o = order();
    o.customer.email_marketing_consent = { state: 'subscribed', opt_in_level: null, consent_updated_at: null };
    expect(buyerOf(o)).toMatchObject({ marketingConsent: 'given', consentDate: '2008-01-10T11:00:00-05:00' });
  });

  it('unsubscribed: withdrawn, although the order says buyer_accepts_marketing (the consent record wins)', () => {
    const o = order();
    o.buyer_accepts_marketing = true;
    o.customer.email_marketing_consent = { state: 'unsubscribed', opt_in_level: null, consent_updated_at: '2025-12-24T09:00:00Z' };
    expect(buyerOf(o)).toMatchObject({ marketingConsent: 'withdrawn', consentDate: '2025-12-24T09:00:00Z', consentFrom: 'customer.email_marketing_consent' });
  });

  it.each(['pending', 'invalid', 'redacted', 'not_subscribed', 'SUBSCRIBED_SOMEDAY'])('%s: not given (never opted in on a guess)', (state) => {
    const o = order();
    o.buyer_accepts_marketing = true;
    o.customer.email_marketing_consent = { state, opt_in_level: 'confirmed_opt_in', consent_updated_at: '2026-01-01T00:00:00Z' };
    expect(buyerOf(o)).toMatchObject({ marketingConsent: 'not-given', consentDate: null });
  });

  it('the GraphQL spelling SUBSCRIBED counts too', () => {
    const o = order();
    o.customer.email_marketing_consent = { state: 'SUBSCRIBED', consent_updated_at: '2026-01-01T00:00:00Z' };
    expect(buyerOf(o).marketingConsent).toBe('given');
  });

  it('no customer object, buyer_accepts_marketing true: given, from the order field, dated by processed_at; email and names from the order', () => {
    const o = order();
    delete (o as Record<string, unknown>).customer;
    o.buyer_accepts_marketing = true;
    o.processed_at = '2026-03-09T08:30:00Z';
    expect(buyerOf(o)).toMatchObject({ email: 'bob.norman@mail.example.com', first: 'Bob', last: 'Norman', marketingConsent: 'given', consentDate: '2026-03-09T08:30:00Z', consentFrom: 'buyer_accepts_marketing' });
  });

  it('no customer object, buyer_accepts_marketing false: not given, said by the order field', () => {
    const o = order();
    o.customer = null as never;
    expect(buyerOf(o)).toMatchObject({ marketingConsent: 'not-given', consentDate: null, consentFrom: 'buyer_accepts_marketing' });
  });

  it('nothing said at all: not given, from nowhere', () => {
    expect(buyerOf({ id: 1 })).toEqual({ email: null, first: '', last: '', address: null, marketingConsent: 'not-given', consentDate: null, consentFrom: null });
  });

  it('no name on the customer: names from the billing address', () => {
    const o = order();
    o.customer.first_name = null;
    o.customer.last_name = '  ';
    o.billing_address.first_name = 'Roberta';
    o.billing_address.last_name = 'Norman-Smith';
    expect(buyerOf(o)).toMatchObject({ first: 'Roberta', last: 'Norman-Smith' });
  });

  it('no names anywhere but the shipping address\'s: from there; only a full name: split at its last space', () => {
    const o = order();
    o.customer.first_name = null;
    o.customer.last_name = null;
    o.billing_address = null as never;
    o.shipping_address.first_name = 'Ann';
    o.shipping_address.last_name = 'Lee';
    expect(buyerOf(o)).toMatchObject({ first: 'Ann', last: 'Lee' });
    o.shipping_address.first_name = null;
    o.shipping_address.last_name = null;
    o.shipping_address.name = ' Mary  Ann   Lee ';
    expect(buyerOf(o)).toMatchObject({ first: 'Mary Ann', last: 'Lee' });
  });

  it('email: order.email, else contact_email, else the customer\'s; trimmed and lower-cased', () => {
    const o = order();
    o.email = '  Bob.NORMAN@Mail.Example.com ';
    expect(buyerOf(o).email).toBe('bob.norman@mail.example.com');
    o.email = '';
    o.contact_email = 'Contact@Example.org';
    expect(buyerOf(o).email).toBe('contact@example.org');
    o.contact_email = null;
    o.customer.email = 'Customer@Example.org';
    expect(buyerOf(o).email).toBe('customer@example.org');
  });

  it('address: billing, else shipping, else the customer\'s default address; address2 kept as a second line; no province code → the name', () => {
    const o = order();
    o.billing_address = null as never;
    o.shipping_address = { address1: '1 High St', address2: 'Flat 3', city: 'York', zip: 'YO1 7HH', province: 'North Yorkshire', province_code: null, country: 'United Kingdom', country_code: 'GB' };
    expect(buyerOf(o).address).toEqual({ lines: ['1 High St', 'Flat 3'], city: 'York', state: 'North Yorkshire', postalCode: 'YO1 7HH', country: 'United Kingdom', countryCode: 'GB' });
    o.shipping_address = null as never;
    o.customer.default_address = { address1: '9 Low Rd', address2: '', city: 'Leeds', zip: 'LS1 1AA', province: null, country: 'United Kingdom', country_code: 'GB' };
    expect(buyerOf(o).address).toEqual({ lines: ['9 Low Rd'], city: 'Leeds', state: null, postalCode: 'LS1 1AA', country: 'United Kingdom', countryCode: 'GB' });
    delete o.customer.default_address;
    expect(buyerOf(o).address).toBeNull();
  });
});
