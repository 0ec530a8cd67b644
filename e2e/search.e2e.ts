// The header search in the browser: an order delivered by the Shopify simulator is found by its
// number as the operator types (after `/` focuses the box), ↓ highlights it, Enter opens it in
// Check order; at phone width the search icon opens the box across the header.
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { fakeOrder, type FakeOrder } from '../server/simulators/shopify';
import { apiAs, guardOwnHost, launch, shot, signIn } from './browser';
import { callAs, demoStoreSender } from './demoStore';

const base = inject('baseUrl');
const PASSWORD = 'presswork';
const STAFF = 'staff@presswork.local';
const ADMIN = 'admin@presswork.local';
const SECRET = `e2e-search-${Date.now().toString(36)}`;
const CUSTOMER = { first_name: 'Quillon', last_name: 'Searchwell' };

let browser: Browser;
let staff: Page;
let order: FakeOrder;
const foreign: string[][] = [];

beforeAll(async () => {
  const login = await callAs<{ data: { token: string } }>(base, '', 'POST', '/api/users/login', { email: ADMIN, password: PASSWORD });
  const sender = await demoStoreSender(base, login.data.token, SECRET);
  const seed = Date.now() % 1_000_000_007;
  const made = fakeOrder(seed, { skus: ['DEMO-CARD-BDAY'], lineCount: 1, orderNumber: 60_000 + (seed % 9_000), withCustomer: true, withAddress: true });
  order = { ...made, customer: { ...made.customer!, ...CUSTOMER } };
  expect((await sender.sendOrder(order)).status).toBe(200);

  browser = await launch();
  staff = await browser.newPage({ viewport: { width: 1280, height: 900 } });
  foreign.push(guardOwnHost(staff, base));
  await signIn(staff, base, STAFF, PASSWORD);
});

/** Processing follows the store's 200: wait until the search has the order. */
async function orderArrived() {
  await expect
    .poll(async () => (await apiAs<{ orders: Array<{ orderId: string }> }>(staff, base, 'GET', `/api/search?q=${encodeURIComponent(order.name)}`)).orders.map((o) => o.orderId), { timeout: 15_000 })
    .toContain(order.id);
}
afterAll(async () => {
  await browser?.close();
});

describe('header search in the browser', () => {
  it('/ focuses the search; typing the order number lists it; ↓ then Enter opens it in Check order', async () => {
    await orderArrived();
    await staff.goto(`${base}/print-jobs`);
    await staff.getByRole('tab', { name: 'Ready' }).waitFor();
    await staff.keyboard.press('/');
    const box = staff.getByRole('combobox', { name: 'Search orders, jobs and designs' });
    await expect.poll(() => box.evaluate((el) => el === document.activeElement)).toBe(true);
    await box.pressSequentially(order.name, { delay: 40 });
    const listbox = staff.getByRole('listbox', { name: 'Search results' });
    const hit = listbox.getByRole('option', { name: new RegExp(`^Order ${order.name}\\b`) });
    await hit.waitFor();
    await listbox.getByRole('group', { name: 'Orders' }).waitFor();
    await expect.poll(() => hit.innerText()).toContain('Quillon Searchwell');
    await staff.keyboard.press('ArrowDown');
    expect(await hit.getAttribute('aria-selected')).toBe('true');
    expect(await box.getAttribute('aria-activedescendant')).toBe(await hit.getAttribute('id'));
    await shot(staff, 'search-01-dropdown');
    await staff.keyboard.press('Enter');
    await staff.waitForURL((u) => u.pathname === '/check-order' && u.searchParams.get('id') === order.id);
    await staff.getByRole('heading', { name: `Order ${order.name}`, level: 2 }).waitFor();
    expect(await listbox.count()).toBe(0);
    expect(foreign.flat()).toEqual([]);
  });

  it('at phone width the search icon opens the box across the header', async () => {
    const phone = await browser.newPage({ viewport: { width: 390, height: 844 } });
    foreign.push(guardOwnHost(phone, base));
    await signIn(phone, base, STAFF, PASSWORD);
    await phone.goto(`${base}/print-jobs`);
    const box = phone.getByRole('combobox', { name: 'Search orders, jobs and designs' });
    expect(await box.isVisible()).toBe(false);
    await phone.getByRole('button', { name: 'Open search' }).click();
    await box.waitFor({ state: 'visible' });
    await box.pressSequentially('searchw', { delay: 40 });
    await phone.getByRole('option', { name: new RegExp(`^Order ${order.name}\\b`) }).waitFor();
    const { scroll, inner } = await phone.evaluate(() => ({ scroll: document.documentElement.scrollWidth, inner: window.innerWidth }));
    expect(scroll).toBeLessThanOrEqual(inner);
    await shot(phone, 'search-02-phone');
    await phone.keyboard.press('Escape');
    expect(await phone.getByRole('listbox').count()).toBe(0);
    await phone.close();
  });
});
