// The scan station in the browser, as a packing bench uses it: a 2-item order from the demo store, its jobs made in
// house, then at /scan each item's barcode typed with Enter as a USB scanner does: printed → packed
// → "Order complete — ship" → Mark shipped → Shipped. A repeat of a packed item changes nothing and
// says why; the screen keeps a phone's width. The app must call no host but its own.
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { createShopifySender, fakeOrder, type FakeOrder } from '../server/simulators/shopify';
import { expectFailedRequest, guardOwnHost, launch, shot, signIn } from './browser';

const base = inject('baseUrl');
const PASSWORD = 'presswork';
const STAFF = 'staff@presswork.local';
const ADMIN = 'admin@presswork.local';
const SHOP_DOMAIN = 'presswork-demo.myshopify.com';
const SECRET = `e2e-scan-${Date.now().toString(36)}`;
const SKU = 'DEMO-CARD-BDAY';
/** The card's personalisation, as the store's checkout asks for it: without it preflight holds the line. */
const PERSONALISATION = [
  { name: 'Recipient name', value: 'Bo' },
  { name: 'Message', value: 'Packed with care' },
];

let browser: Browser;
let staff: Page;
const foreign: string[][] = [];
let staffToken: string;
let order: FakeOrder;
let jobIds: number[] = [];

async function tokenOf(email: string): Promise<string> {
  const res = await fetch(`${base}/api/users/login`, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify({ email, password: PASSWORD }) });
  const json = (await res.json()) as { success: boolean; data: { token: string }; error?: string };
  if (!json.success) throw new Error(`login ${email} → ${res.status} ${json.error}`);
  return json.data.token;
}

/** A call with `token`: the status and the JSON as answered. */
async function call<T>(token: string, method: string, path: string, body?: unknown): Promise<{ status: number; json: T }> {
  const res = await fetch(`${base}${path}`, {
    method,
    headers: { Authorization: `Bearer ${token}`, ...(body === undefined ? {} : { 'Content-Type': 'application/json' }) },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  return { status: res.status, json: (await res.json()) as T };
}

const answer = (page: Page) => page.getByTestId('scan-answer');

/** Types a code and Enter into the focused input, as a USB scanner does. */
async function scanCode(page: Page, code: string) {
  const input = page.getByLabel('Scan or type a code');
  await expect.poll(() => input.evaluate((el) => el === document.activeElement)).toBe(true);
  await page.keyboard.type(code);
  await page.keyboard.press('Enter');
}

beforeAll(async () => {
  const adminToken = await tokenOf(ADMIN);
  staffToken = await tokenOf(STAFF);
  // The demo store's secret is masked in every answer: set a known one to sign the order with.
  const stores = await call<Array<{ id: number; siteSlug: string }>>(adminToken, 'GET', '/api/admin/stores');
  const demo = stores.json.find((s) => s.siteSlug === 'demo');
  expect(demo, 'the demo store').toBeTruthy();
  expect((await call(adminToken, 'PUT', `/api/admin/stores/${demo!.id}`, { webhookSecret: SECRET })).status).toBe(200);
  const sender = createShopifySender({ webhookUrl: `${base}/api/online-stores/shopify-webhook`, shopDomain: SHOP_DOMAIN, secret: SECRET, retryDelaysMs: [] });

  const seed = Date.now() % 1_000_000_007;
  const made = fakeOrder(seed, { skus: [SKU], lineCount: 2, orderNumber: 95_000 + (seed % 4_000), withCustomer: true, withAddress: true, financialStatus: 'paid' });
  order = { ...made, line_items: made.line_items.map((l) => ({ ...l, quantity: 1, current_quantity: 1, fulfillable_quantity: 1, properties: PERSONALISATION })) };
  expect((await sender.sendOrder(order)).status).toBe(200);
  // Its jobs, made in house as the order screen's "order to artwork" does (the order is stored once its delivery is processed).
  for (let tries = 0; ; tries++) {
    const made = await call<{ success: boolean; error?: string }>(staffToken, 'POST', '/api/online-stores/shopify-webhook/order-to-arwork', { id: order.id });
    if (made.json.success) break;
    if (tries > 120) throw new Error(`order-to-arwork → ${made.status} ${made.json.error}`);
    await new Promise((r) => setTimeout(r, 250));
  }
  const jobs = await call<{ data: { list: Array<{ id: number; lineItemId: string; held: boolean }> } }>(staffToken, 'GET', `/api/print-jobs/from-shopify-order/${order.id}`);
  // In the order's line order: "1 of 2", "2 of 2".
  jobIds = order.line_items.map((l) => jobs.json.data.list.find((j) => j.lineItemId === String(l.id))!.id);
  expect(jobIds).toHaveLength(2);
  expect(jobs.json.data.list.every((j) => !j.held)).toBe(true);

  browser = await launch();
  const context = await browser.newContext({ viewport: { width: 1280, height: 1000 } });
  staff = await context.newPage();
  foreign.push(guardOwnHost(staff, base));
  await signIn(staff, base, STAFF, PASSWORD);
}, 90_000);

afterAll(async () => {
  await browser?.close();
});

describe('the scan station in the browser', () => {
  it('scan → printed → packed → "Order complete — ship" → Mark shipped → Shipped', async () => {
    const [a, b] = jobIds;
    await staff.goto(`${base}/scan`);
    await staff.getByRole('heading', { name: 'Scan station', level: 1 }).waitFor();
    await expect.poll(() => staff.title()).toBe('Scan station | Presswork');
    // In the staff's menu.
    await staff.getByRole('menuitem', { name: /Scan station/ }).waitFor();
    expect(await answer(staff).getAttribute('aria-live')).toBe('polite');

    await scanCode(staff, `PJ-${a}`);
    await answer(staff).getByText(`Printed: ${order.name} · 1 of 2`).waitFor();
    expect(await answer(staff).getAttribute('data-tone')).toBe('info');
    const items = staff.getByRole('list', { name: `Items of order ${order.name}` });
    await items.getByRole('listitem').first().getByText('printed', { exact: true }).waitFor();
    await items.getByRole('listitem').nth(1).getByText('waiting', { exact: true }).waitFor();
    await shot(staff, 'scan-01-printed');

    await scanCode(staff, `PJ-${b}`);
    await answer(staff).getByText(`Printed: ${order.name} · 2 of 2`).waitFor();
    await scanCode(staff, `PJ-${a}`);
    await answer(staff).getByText(`Packed: ${order.name} · 1 of 2`).waitFor();
    expect(await answer(staff).getAttribute('data-tone')).toBe('success');
    await items.getByRole('listitem').first().getByText('packed', { exact: true }).waitFor();

    // The same item again: refused with who packed it, nothing changed (this test's 409s are on purpose).
    expectFailedRequest(staff, /^\/api\/scan$/, 409);
    await scanCode(staff, `PJ-${a}`);
    await answer(staff).getByText('Nothing changed').waitFor();
    await answer(staff).getByText(/^This job was already packed by .+ at \d\d\/\d\d\/\d{4} \d\d:\d\d/).waitFor();
    expect(await answer(staff).getAttribute('data-tone')).toBe('warning');
    await shot(staff, 'scan-02-refused');

    // Typed by hand, lower case, with spaces: the same code.
    await scanCode(staff, `  pj-${b} `);
    await answer(staff).getByText('Order complete — ship').waitFor();
    const form = staff.getByRole('form', { name: 'Mark shipped' });
    await form.waitFor();
    await shot(staff, 'scan-03-order-complete');

    await form.getByLabel('Carrier').fill('Royal Mail');
    await form.getByLabel('Tracking number').fill('RM 1234 5678 GB');
    await form.getByRole('button', { name: 'Mark shipped' }).click();
    await answer(staff).getByText('Shipped', { exact: true }).waitFor();
    await answer(staff).getByText(new RegExp(`^Order ${order.name} left with Royal Mail RM 1234 5678 GB`)).waitFor();
    await form.waitFor({ state: 'detached' });
    await shot(staff, 'scan-04-shipped');

    // The order is shipped: a later scan of its item shows it so.
    await scanCode(staff, `PJ-${b}`);
    await answer(staff).getByText('Nothing changed').waitFor();
    await staff.getByTestId('scan-order').getByText('shipped', { exact: true }).waitFor();
    expect(await staff.getByTestId('scan-history').getByRole('listitem').count()).toBe(6);
  });

  it('at 400 px the station keeps the page 400 px wide', async () => {
    const context = await browser.newContext({ viewport: { width: 400, height: 850 } });
    const phone = await context.newPage();
    foreign.push(guardOwnHost(phone, base));
    await signIn(phone, base, STAFF, PASSWORD);
    await phone.goto(`${base}/scan`);
    await phone.getByRole('heading', { name: 'Scan station', level: 1 }).waitFor();
    expectFailedRequest(phone, /^\/api\/scan$/, 409);
    await scanCode(phone, `PJ-${jobIds[0]}`);
    await answer(phone).getByText('Nothing changed').waitFor();
    await phone.getByTestId('scan-order').waitFor();
    expect(await phone.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(400);
    await shot(phone, 'scan-05-phone');
    await context.close();
  });

  it('made no request to any other host', () => {
    expect(foreign.flat()).toEqual([]);
  });
});
