import { afterEach, describe, expect, it, vi } from 'vitest';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { Store, StoreConnection, StorePrivacyRequest } from '../../../../common/api/orders';
import { ADMIN, jsonResponse, renderInAdmin, signIn, fakeFetch, type RecordedCall } from '../../test/helpers';
import { StoreEdit } from './StoreEdit';

const APP_STORE: Store = {
  id: 1,
  siteId: 1,
  siteName: 'Hood Charity',
  siteSlug: 'hood',
  shopDomain: 'hood-shop.myshopify.com',
  webhookSecret: '',
  previousSecret: '',
  webhookUrl: 'http://localhost:8094/api/online-stores/shopify-webhook?site=hood',
  autoSendToHP: false,
  sendWhen: 'paid',
  lastReconciledAt: null,
  lastReconcileFound: null,
  lastReconcileError: null,
  adminToken: '',
  apiVersion: '2026-07',
  adminUrl: '',
  disconnectedAt: null,
  auth: 'client_credentials',
  clientId: 'a1b2c3',
  clientSecret: '********',
  previousClientSecretUntil: null,
};

const CONNECTED: StoreConnection = {
  auth: 'client_credentials',
  connected: true,
  shopName: 'Hood Charity Shop',
  scopes: ['read_orders', 'write_merchant_managed_fulfillment_orders'],
  missingScopes: [],
  expiresAt: new Date(2026, 11, 2, 10, 0).toISOString(),
  needsReconnect: false,
  reason: null,
  connectedAt: null,
};

function api(o: { store?: Partial<Store>; connection?: Partial<StoreConnection>; privacy?: StorePrivacyRequest[]; connect?: (call: RecordedCall) => Response } = {}) {
  const store = { ...APP_STORE, ...o.store };
  return (call: RecordedCall) => {
    if (call.url.startsWith('/api/online-stores/connection')) return jsonResponse({ success: true, data: { ...CONNECTED, auth: store.auth, ...o.connection } });
    if (call.url.startsWith('/api/online-stores/privacy-requests')) return jsonResponse({ success: true, data: o.privacy ?? [] });
    if (call.url === '/api/online-stores/connect') return o.connect ? o.connect(call) : jsonResponse({ success: true, data: { shopName: 'Hood Charity Shop', scopes: CONNECTED.scopes, missingScopes: [], expiresAt: CONNECTED.expiresAt } });
    if (call.url === '/api/online-stores/shopify/install-url') return jsonResponse({ success: true, data: { url: 'https://hood-shop.myshopify.com/admin/oauth/authorize?client_id=a1b2c3&state=s', expiresAt: '', redirectUri: '' } });
    if (call.url.startsWith('/api/admin/stores/1') && call.method === 'PUT') return jsonResponse({ ...store, ...(call.body as object), clientSecret: '********' });
    if (call.url.startsWith('/api/admin/stores/1')) return jsonResponse(store);
    return jsonResponse({ success: true, data: ADMIN });
  };
}

const renderEdit = (path = '/stores/1') => renderInAdmin(<StoreEdit />, { path, routePath: '/stores/:id' });

afterEach(() => vi.unstubAllGlobals());

describe('Setup → Stores: connecting through a Shopify app', () => {
  it('the kind of connection is chosen in the business\'s words; an app asks for its Client ID and secret, not a token', async () => {
    signIn(ADMIN);
    const { calls } = fakeFetch(api({ store: { auth: 'static_token', clientId: '', clientSecret: '', adminToken: '********' } }));
    renderEdit();
    expect(await screen.findByLabelText('Admin API access token')).toBeInTheDocument();
    expect(screen.getByRole('radio', { name: 'A legacy custom app token' })).toBeChecked();
    await userEvent.click(screen.getByRole('radio', { name: 'An app of our own organisation (recommended)' }));
    expect(screen.queryByLabelText('Admin API access token')).not.toBeInTheDocument();
    await userEvent.type(screen.getByLabelText('Client ID'), 'cid-123');
    const secret = screen.getByLabelText('Client secret');
    expect(secret).toHaveAttribute('type', 'password');
    await userEvent.type(secret, 'shpss_abc');
    await userEvent.click(screen.getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(calls.some((c) => c.method === 'PUT')).toBe(true));
    expect(calls.find((c) => c.method === 'PUT')?.body).toMatchObject({ auth: 'client_credentials', clientId: 'cid-123', clientSecret: 'shpss_abc', adminToken: '********' });
  });

  it('Connect shows the shop and when the token ends; a refusal shows Shopify\'s reason', async () => {
    signIn(ADMIN);
    let refuse = false;
    const reason = 'Shopify refused the client credentials grant for hood-shop.myshopify.com (shop_not_permitted): the app belongs to another organisation than the store. Install it on the store with OAuth instead.';
    const { calls } = fakeFetch(api({ connect: () => (refuse ? jsonResponse({ success: false, error: reason }, 422) : jsonResponse({ success: true, data: { shopName: 'Hood Charity Shop', scopes: [], missingScopes: [], expiresAt: CONNECTED.expiresAt } })) }));
    renderEdit();
    expect(await screen.findByText(/Connected to Hood Charity Shop: the token renews itself \(this one lasts until 02\/12\/2026 10:00\)/)).toBeInTheDocument();
    await userEvent.click(screen.getByRole('button', { name: 'Connect' }));
    expect(await screen.findByText('Connected to Hood Charity Shop (token until 02/12/2026 10:00, renewed by itself).')).toBeInTheDocument();
    expect(calls.find((c) => c.url === '/api/online-stores/connect')?.body).toEqual({ site: 'hood' });
    refuse = true;
    await userEvent.click(screen.getByRole('button', { name: 'Connect' }));
    expect(await screen.findByText(reason)).toBeInTheDocument();
  });

  it('a store that needs reconnecting says why; a missing scope is named with what it stops', async () => {
    signIn(ADMIN);
    fakeFetch(api({ connection: { connected: false, needsReconnect: true, reason: 'Shopify refused the refresh token of hood-shop.myshopify.com (invalid_grant): install the app on the store again.' } }));
    renderEdit();
    expect(await screen.findByText(/Needs reconnecting\./)).toBeInTheDocument();
    expect(screen.getByText(/invalid_grant\): install the app on the store again\. Nothing is asked of the store until it is reconnected/)).toBeInTheDocument();
  });

  it('a missing scope', async () => {
    signIn(ADMIN);
    fakeFetch(api({ connection: { missingScopes: ['write_merchant_managed_fulfillment_orders'] } }));
    renderEdit();
    expect(await screen.findByText(/^Tracking cannot be written back: the app lacks write_merchant_managed_fulfillment_orders: add it to the app’s version/)).toBeInTheDocument();
  });

  it('Install on Shopify sends the browser to Shopify\'s consent screen; the way back shows the outcome', async () => {
    signIn(ADMIN);
    const assign = vi.fn();
    vi.stubGlobal('location', { ...window.location, assign });
    const { calls } = fakeFetch(api({ store: { auth: 'authorization_code' }, connection: { connected: false, shopName: null } }));
    renderEdit('/stores/1?shopify=refused&message=This%20install%20link%20was%20already%20used%3A%20nothing%20was%20changed.');
    expect(await screen.findByText('This install link was already used: nothing was changed.')).toBeInTheDocument();
    expect(await screen.findByText('Not installed yet: save the Client ID and secret, then Install on Shopify.')).toBeInTheDocument();
    await userEvent.click(screen.getByRole('button', { name: 'Install on Shopify' }));
    await waitFor(() => expect(assign).toHaveBeenCalledWith('https://hood-shop.myshopify.com/admin/oauth/authorize?client_id=a1b2c3&state=s'));
    expect(calls.find((c) => c.url === '/api/online-stores/shopify/install-url')?.body).toEqual({ site: 'hood' });
  });

  it('the privacy requests Shopify sent: what is held, and what was redacted or waits', async () => {
    signIn(ADMIN);
    const privacy: StorePrivacyRequest[] = [
      { id: 2, topic: 'customers/redact', receivedAt: new Date(2026, 11, 1, 9, 30).toISOString(), status: 'waiting', customerId: '191167', customerEmail: 'ada@example.com', orders: ['#3001', '#3002'], waitingOrders: ['#3002'], held: null, doneAt: null },
      {
        id: 1,
        topic: 'customers/data_request',
        receivedAt: new Date(2026, 11, 1, 9, 0).toISOString(),
        status: 'listed',
        customerId: '191167',
        customerEmail: 'ada@example.com',
        orders: ['#3001'],
        waitingOrders: [],
        held: [{ orderId: '1', orderName: '#3001', placedAt: new Date(2026, 10, 20, 10, 0).toISOString(), status: 'shipped', kinds: ['name', 'e-mail'], values: { name: 'Ada Lovelace', 'e-mail': 'ada@example.com' }, printJobs: 1 }],
        doneAt: null,
      },
    ];
    fakeFetch(api({ privacy }));
    renderEdit();
    const table = await screen.findByRole('table', { name: 'Privacy requests' });
    const rows = within(table).getAllByRole('row');
    expect(rows[1]).toHaveTextContent('Customer redaction');
    expect(rows[1]).toHaveTextContent('Redacted 2 orders but #3002, still in production: redacted once shipped');
    expect(rows[2]).toHaveTextContent('Data request');
    const held = within(table).getByRole('table', { name: 'What is held (request 1)' });
    expect(held).toHaveTextContent('#3001');
    expect(held).toHaveTextContent('name: Ada Lovelace');
    expect(held).toHaveTextContent('personalisation on 1 print job');
  });
});
