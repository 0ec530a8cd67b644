import { describe, expect, it, vi } from 'vitest';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { Store, StoreConnection } from '../../../../common/api/orders';
import { ADMIN, jsonResponse, renderInAdmin, signIn, fakeFetch, type RecordedCall } from '../../test/helpers';
import { StoreEdit } from './StoreEdit';
import { StoreList } from './StoreList';
import { storeChanges } from './types';

const STORE: Store = {
  id: 1,
  siteId: 1,
  siteName: 'Hood Charity',
  siteSlug: 'hood',
  shopDomain: 'hood-shop.myshopify.com',
  webhookSecret: '********',
  previousSecret: '********',
  webhookUrl: 'http://localhost:8094/api/online-stores/shopify-webhook?site=hood',
  autoSendToHP: false,
  sendWhen: 'paid',
  lastReconciledAt: '2026-11-25T09:30:00.000Z',
  lastReconcileFound: 4,
  lastReconcileError: null,
  adminToken: '********',
  apiVersion: '2026-07',
  adminUrl: '',
  disconnectedAt: null,
  auth: 'static_token',
  clientId: '',
  clientSecret: '',
  previousClientSecretUntil: null,
};

const SUBSCRIPTIONS = [
  { id: 'gid://shopify/WebhookSubscription/1', topic: 'ORDERS_CREATE', callbackUrl: STORE.webhookUrl, ours: true, action: 'kept' },
  { id: 'gid://shopify/WebhookSubscription/2', topic: 'ORDERS_PAID', callbackUrl: STORE.webhookUrl, ours: true, action: 'created' },
  { id: 'gid://shopify/WebhookSubscription/3', topic: 'ORDERS_UPDATED', callbackUrl: 'https://other-app.example/hooks', ours: false, action: 'elsewhere' },
];

const CONNECTION: StoreConnection = { auth: 'static_token', connected: true, shopName: null, scopes: [], missingScopes: [], expiresAt: null, needsReconnect: false, reason: null, connectedAt: null };

function storesApi(call: RecordedCall) {
  if (call.url.startsWith('/api/online-stores/connection')) return jsonResponse({ success: true, data: CONNECTION });
  if (call.url.startsWith('/api/online-stores/privacy-requests')) return jsonResponse({ success: true, data: [] });
  if (call.url === '/api/online-stores/check-connection') return jsonResponse({ success: true, data: { shopName: 'Hood Charity Shop' } });
  if (call.url === '/api/online-stores/register-webhooks') return jsonResponse({ success: true, data: { subscriptions: SUBSCRIPTIONS } });
  if (call.url.startsWith('/api/admin/stores/1') && call.method === 'PUT') return jsonResponse({ ...STORE, ...(call.body as object), webhookSecret: '********' });
  if (call.url.startsWith('/api/admin/stores/1')) return jsonResponse(STORE);
  if (call.url.startsWith('/api/admin/stores')) return jsonResponse([STORE], 200, { 'Content-Range': 'stores 0-0/1' });
  return jsonResponse({ success: true, data: ADMIN });
}

function renderEdit() {
  renderInAdmin(<StoreEdit />, { path: '/stores/1', routePath: '/stores/:id' });
}

describe('storeChanges', () => {
  it('sends the masked secrets back unchanged, and leaves the previous secret to the server when the secret changes', () => {
    expect(storeChanges({ ...STORE, shopDomain: ' new.myshopify.com ' }, STORE)).toEqual({
      shopDomain: 'new.myshopify.com',
      webhookSecret: '********',
      previousSecret: '********',
      autoSendToHP: false,
      sendWhen: 'paid',
      adminToken: '********',
      apiVersion: '2026-07',
      auth: 'static_token',
      clientId: '',
      clientSecret: '',
    });
    expect(storeChanges({ ...STORE, webhookSecret: 'shpss_new' }, STORE)).toEqual({ shopDomain: STORE.shopDomain, webhookSecret: 'shpss_new', autoSendToHP: false, sendWhen: 'paid', adminToken: '********', apiVersion: '2026-07', auth: 'static_token', clientId: '', clientSecret: '' });
    expect(storeChanges({ ...STORE, sendWhen: 'created' }, STORE)).toMatchObject({ sendWhen: 'created' });
    expect(storeChanges({ ...STORE, webhookSecret: 'shpss_new', previousSecret: '' }, STORE)).toHaveProperty('previousSecret', '');
  });
});

describe('Stores', () => {
  it('lists each site’s store with its webhook URL ready to copy', async () => {
    signIn(ADMIN);
    const writeText = vi.fn(async () => undefined);
    Object.defineProperty(navigator, 'clipboard', { value: { writeText }, configurable: true });
    fakeFetch(storesApi);
    renderInAdmin(<StoreList />, { path: '/stores', routePath: '/stores' });
    expect(await screen.findByText('Hood Charity')).toBeInTheDocument();
    expect(screen.getByText('hood-shop.myshopify.com')).toBeInTheDocument();
    expect(screen.getByText(STORE.webhookUrl)).toBeInTheDocument();
    await userEvent.click(screen.getByRole('button', { name: 'Copy webhook URL' }));
    expect(writeText).toHaveBeenCalledWith(STORE.webhookUrl);
  });

  it('keeps the masked webhook secret unchanged when another field is saved', async () => {
    signIn(ADMIN);
    const { calls } = fakeFetch(storesApi);
    renderEdit();
    const domain = await screen.findByLabelText('Shop domain');
    await waitFor(() => expect(domain).toHaveValue('hood-shop.myshopify.com'));
    expect(screen.getByLabelText('Webhook secret')).toHaveValue('********');
    expect(screen.getByLabelText('Webhook secret')).toHaveAttribute('type', 'password');
    expect(within(screen.getByText(STORE.webhookUrl).parentElement!).getByRole('button', { name: 'Copy webhook URL' })).toBeInTheDocument();
    await userEvent.clear(domain);
    await userEvent.type(domain, 'sherwood.myshopify.com');
    await userEvent.click(screen.getByLabelText(/Send orders to HP automatically/));
    await userEvent.click(screen.getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(calls.some((c) => c.method === 'PUT')).toBe(true));
    expect(calls.find((c) => c.method === 'PUT')?.body).toEqual({
      shopDomain: 'sherwood.myshopify.com',
      webhookSecret: '********',
      previousSecret: '********',
      autoSendToHP: true,
      sendWhen: 'paid',
      adminToken: '********',
      apiVersion: '2026-07',
      auth: 'static_token',
      clientId: '',
      clientSecret: '',
    });
  });

  it('sets when orders go to print (SHOPIFY_SEND_WHEN)', async () => {
    signIn(ADMIN);
    const { calls } = fakeFetch(storesApi);
    renderEdit();
    await waitFor(() => expect(screen.getByLabelText('Shop domain')).toHaveValue('hood-shop.myshopify.com'));
    await userEvent.click(screen.getByRole('combobox', { name: /Orders go to print/ }));
    await userEvent.click(await screen.findByRole('option', { name: 'As soon as created, paid or not' }));
    await userEvent.click(screen.getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(calls.some((c) => c.method === 'PUT')).toBe(true));
    expect(calls.find((c) => c.method === 'PUT')?.body).toMatchObject({ sendWhen: 'created' });
  });

  it('sends a new webhook secret, letting the server keep the old one as the previous secret', async () => {
    signIn(ADMIN);
    const { calls } = fakeFetch(storesApi);
    renderEdit();
    const secret = await screen.findByLabelText('Webhook secret');
    await waitFor(() => expect(secret).toHaveValue('********'));
    await userEvent.clear(secret);
    await userEvent.type(secret, 'shpss_rotated');
    await userEvent.click(screen.getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(calls.some((c) => c.method === 'PUT')).toBe(true));
    expect(calls.find((c) => c.method === 'PUT')?.body).toEqual({ shopDomain: 'hood-shop.myshopify.com', webhookSecret: 'shpss_rotated', autoSendToHP: false, sendWhen: 'paid', adminToken: '********', apiVersion: '2026-07', auth: 'static_token', clientId: '', clientSecret: '' });
  });

  it('the Admin API token is a masked password field sent back unchanged; a new one is sent', async () => {
    signIn(ADMIN);
    const { calls } = fakeFetch(storesApi);
    renderEdit();
    const token = await screen.findByLabelText('Admin API access token');
    await waitFor(() => expect(token).toHaveValue('********'));
    expect(token).toHaveAttribute('type', 'password');
    await userEvent.clear(token);
    await userEvent.type(token, 'shpat_new');
    await userEvent.click(screen.getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(calls.some((c) => c.method === 'PUT')).toBe(true));
    expect(calls.find((c) => c.method === 'PUT')?.body).toMatchObject({ adminToken: 'shpat_new', apiVersion: '2026-07', webhookSecret: '********' });
  });

  it('Check connection shows the shop name; a refusal shows the server\'s sentence', async () => {
    signIn(ADMIN);
    let refuse = false;
    const { calls } = fakeFetch((call) =>
      refuse && call.url === '/api/online-stores/check-connection'
        ? jsonResponse({ success: false, error: 'The store refused the access token (401): check SHOPIFY_ADMIN_TOKEN' }, 502)
        : storesApi(call),
    );
    renderEdit();
    await userEvent.click(await screen.findByRole('button', { name: 'Check connection' }));
    expect(await screen.findByText('Connected to Hood Charity Shop')).toBeInTheDocument();
    expect(calls.find((c) => c.url === '/api/online-stores/check-connection')?.body).toEqual({ site: 'hood' });
    refuse = true;
    await userEvent.click(screen.getByRole('button', { name: 'Check connection' }));
    expect(await screen.findByText(/The store refused the access token/)).toBeInTheDocument();
  });

  it('Register webhooks lists what the store holds, with the ones pointing elsewhere', async () => {
    signIn(ADMIN);
    const { calls } = fakeFetch(storesApi);
    renderEdit();
    await userEvent.click(await screen.findByRole('button', { name: 'Register webhooks' }));
    const table = await screen.findByRole('table', { name: 'Webhook subscriptions' });
    expect(calls.find((c) => c.url === '/api/online-stores/register-webhooks')?.body).toEqual({ site: 'hood' });
    expect(within(table).getByText('ORDERS_PAID').closest('tr')).toHaveTextContent('Created');
    expect(within(table).getByText('ORDERS_CREATE').closest('tr')).toHaveTextContent('Already in place');
    expect(within(table).getByText('https://other-app.example/hooks').closest('tr')).toHaveTextContent('Points elsewhere (left alone)');
  });

  it('a store whose app was uninstalled says so, with when', async () => {
    signIn(ADMIN);
    const at = new Date(2026, 10, 24, 9, 5).toISOString();
    fakeFetch((call) => (call.url.startsWith('/api/admin/stores/1') ? jsonResponse({ ...STORE, adminToken: '', disconnectedAt: at }) : storesApi(call)));
    renderEdit();
    expect(await screen.findByText(/Disconnected \(app uninstalled on 24\/11\/2026 09:05\)/)).toBeInTheDocument();
  });

  it('Sync from store: one keyed call, the button disabled while it runs, then what it found', async () => {
    signIn(ADMIN);
    let answer: (r: Response) => void = () => {};
    const { calls } = fakeFetch((call) => {
      if (call.url === '/api/online-stores/reconcile') return new Promise<Response>((resolve) => (answer = resolve));
      if (call.url.startsWith('/api/admin/stores')) return jsonResponse([{ ...STORE, lastReconcileError: 'Invalid API key or access token' }], 200, { 'Content-Range': 'stores 0-0/1' });
      return jsonResponse({ success: true, data: ADMIN });
    });
    renderInAdmin(<StoreList />, { path: '/stores', routePath: '/stores' });
    expect(await screen.findByText(/found 4/)).toBeInTheDocument();
    expect(screen.getByText('Invalid API key or access token')).toBeInTheDocument();
    const button = screen.getByRole('button', { name: 'Sync from store' });
    await userEvent.click(button);
    await waitFor(() => expect(button).toBeDisabled());
    const posts = calls.filter((c) => c.url === '/api/online-stores/reconcile');
    expect(posts).toHaveLength(1);
    expect(posts[0]).toMatchObject({ method: 'POST', body: { site: 'hood' } });
    expect(posts[0].headers.get('Idempotency-Key')).toMatch(/^[0-9a-f-]{36}$/);
    answer(jsonResponse({ success: true, data: { found: 3, stored: 1, alreadyKnown: 2 } }));
    expect(await screen.findByRole('status')).toHaveTextContent('Found 3: 1 stored, 2 already known');
    await waitFor(() => expect(button).toBeEnabled());
    // The button's click does not open the row's edit page.
    expect(screen.queryByLabelText('Shop domain')).not.toBeInTheDocument();
  });
});
