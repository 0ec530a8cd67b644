// The connection guide (docs/connect-shopify.md) followed as a new user would, against the demo's
// simulated store: Setup → Stores → the demo store → Connect (an app of our own organisation,
// client credentials), then the OAuth install round trip — Install on Shopify, Shopify's consent
// screen, Install, and back on the store's screen connected.
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { apiAs, guardOwnHost, launch, shot, signIn } from './browser';

const base = inject('baseUrl');

let browser: Browser;
let page: Page;
let foreign: string[];
let storeId = 0;

beforeAll(async () => {
  browser = await launch();
  page = await (await browser.newContext({ viewport: { width: 1280, height: 900 } })).newPage();
  foreign = guardOwnHost(page, base);
  await signIn(page, base, 'admin@presswork.local', 'presswork');
});
afterAll(async () => {
  await browser?.close();
});

describe('Setup → Stores: connecting the demo store', () => {
  it('an app of our own organisation: Connect shows the shop, its scopes and the token\'s end', async () => {
    await page.goto(`${base}/stores`);
    await page.getByRole('cell', { name: 'Presswork Demo', exact: true }).click();
    await page.waitForURL(/\/stores\/\d+$/);
    storeId = Number(new URL(page.url()).pathname.split('/').pop());
    expect(await page.getByRole('radio', { name: 'An app of our own organisation (recommended)' }).isChecked()).toBe(true);
    expect(await page.getByLabel('Client ID').inputValue()).toMatch(/^[0-9a-f]{32}$/);
    expect(await page.getByLabel('Client secret').inputValue()).toBe('********');
    await page.getByRole('button', { name: 'Connect', exact: true }).click();
    const connected = page.getByText(/^Connected to Presswork Demo \(token until \d\d\/\d\d\/\d{4} \d\d:\d\d, renewed by itself\)\.$/);
    await connected.waitFor();
    await page.getByText(/Scopes: read_orders, write_merchant_managed_fulfillment_orders\./).waitFor();
    await shot(page, 'store-connect-client-credentials');
  });

  it('the OAuth install: Install on Shopify → Shopify\'s consent screen → Install → back, connected', async () => {
    await page.getByRole('radio', { name: 'Install an app on the store (OAuth)' }).check();
    await page.getByRole('button', { name: 'Save' }).click();
    await page.waitForURL(/\/stores$/);
    await page.goto(`${base}/stores/${storeId}`);
    await page.getByText('Not installed yet: save the Client ID and secret, then Install on Shopify.').waitFor();
    await page.getByRole('button', { name: 'Install on Shopify' }).click();
    await page.waitForURL(/\/admin\/oauth\/authorize\?/);
    expect(await page.getByRole('heading', { name: 'Install Presswork' }).isVisible()).toBe(true);
    expect(await page.textContent('body')).toContain('write_merchant_managed_fulfillment_orders');
    await shot(page, 'store-connect-consent');
    await page.getByRole('button', { name: 'Install' }).click();
    await page.waitForURL(new RegExp(`/stores/${storeId}\\?shopify=connected`));
    await page.getByText('Connected to Presswork Demo (presswork-demo.myshopify.com): the app is installed and its token renews itself.').waitFor();
    await page.getByText(/^Connected to Presswork Demo: the token renews itself/).waitFor();
    await shot(page, 'store-connect-oauth-done');
    const state = await apiAs<{ auth: string; connected: boolean; expiresAt: string }>(page, base, 'GET', '/api/online-stores/connection?site=demo');
    expect(state).toMatchObject({ auth: 'authorization_code', connected: true });
    // An hour's token (the expiring offline token).
    expect(Date.parse(state.expiresAt) - Date.now()).toBeGreaterThan(55 * 60_000);
    expect(Date.parse(state.expiresAt) - Date.now()).toBeLessThan(61 * 60_000);
    expect(foreign).toEqual([]);
  });

  // The other browser tests find the demo store as seeded.
  it('back to client credentials, as seeded', async () => {
    await page.goto(`${base}/stores/${storeId}`);
    await page.getByRole('radio', { name: 'An app of our own organisation (recommended)' }).check();
    await page.getByRole('button', { name: 'Save' }).click();
    await page.waitForURL(/\/stores$/);
    expect((await apiAs<{ shopName: string }>(page, base, 'POST', '/api/online-stores/connect', { site: 'demo' })).shopName).toBe('Presswork Demo');
  });
});
