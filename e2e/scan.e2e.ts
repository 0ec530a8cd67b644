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
let sender: ReturnType<typeof createShopifySender>;
let orderSeq = 0;

/** A paid demo-store order of the card, a line per quantity, and its jobs made in house (in line order). */
async function orderWithJobs(quantities: number[]): Promise<{ order: FakeOrder; jobIds: number[] }> {
  const seed = (Date.now() + ++orderSeq * 7919) % 1_000_000_007;
  const made = fakeOrder(seed, { skus: [SKU], lineCount: quantities.length, orderNumber: 95_000 + (seed % 4_000), withCustomer: true, withAddress: true, financialStatus: 'paid' });
  const o = { ...made, line_items: made.line_items.map((l, i) => ({ ...l, quantity: quantities[i], current_quantity: quantities[i], fulfillable_quantity: quantities[i], properties: PERSONALISATION })) };
  expect((await sender.sendOrder(o)).status).toBe(200);
  // Its jobs, made in house as the order screen's "order to artwork" does (the order is stored once its delivery is processed).
  for (let tries = 0; ; tries++) {
    const res = await call<{ success: boolean; error?: string }>(staffToken, 'POST', '/api/online-stores/shopify-webhook/order-to-arwork', { id: o.id });
    if (res.json.success) break;
    if (tries > 120) throw new Error(`order-to-arwork → ${res.status} ${res.json.error}`);
    await new Promise((r) => setTimeout(r, 250));
  }
  const jobs = await call<{ data: { list: Array<{ id: number; lineItemId: string; held: boolean }> } }>(staffToken, 'GET', `/api/print-jobs/from-shopify-order/${o.id}`);
  expect(jobs.json.data.list.every((j) => !j.held)).toBe(true);
  // In the order's line order: "1 of 2", "2 of 2".
  return { order: o, jobIds: o.line_items.map((l) => jobs.json.data.list.find((j) => j.lineItemId === String(l.id))!.id) };
}

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

/** A page of its own (a context: its own storage) at this size, guarded to our host, signed in as staff unless told not to. */
async function benchPage(viewport: { width: number; height: number }, signedIn = true): Promise<{ page: Page; close: () => Promise<void> }> {
  const context = await browser.newContext({ viewport });
  const page = await context.newPage();
  foreign.push(guardOwnHost(page, base));
  if (signedIn) await signIn(page, base, STAFF, PASSWORD);
  return { page, close: () => context.close() };
}

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
  sender = createShopifySender({ webhookUrl: `${base}/api/online-stores/shopify-webhook`, shopDomain: SHOP_DOMAIN, secret: SECRET, retryDelaysMs: [] });
  ({ order, jobIds } = await orderWithJobs([1, 1]));
  expect(jobIds).toHaveLength(2);

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
    const { page: phone, close } = await benchPage({ width: 400, height: 850 });
    await phone.goto(`${base}/scan`);
    await phone.getByRole('heading', { name: 'Scan station', level: 1 }).waitFor();
    expectFailedRequest(phone, /^\/api\/scan$/, 409);
    await scanCode(phone, `PJ-${jobIds[0]}`);
    await answer(phone).getByText('Nothing changed').waitFor();
    await phone.getByTestId('scan-order').waitFor();
    expect(await phone.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(400);
    await shot(phone, 'scan-05-phone');
    await close();
  });

  it('takes the keys a scanner types the moment the page shows: nothing is lost while it gets ready', async () => {
    const { jobIds: [fresh, second] } = await orderWithJobs([1, 1]);
    const { page: bench, close } = await benchPage({ width: 1280, height: 800 });
    // A USB scanner types as soon as the page is there: no waiting for the input or its focus.
    await bench.goto(`${base}/scan`);
    await bench.keyboard.type(`PJ-${fresh}-1`);
    await bench.keyboard.press('Enter');
    await answer(bench).getByText(new RegExp(`^Printed: .+ · 1 of 2$`)).waitFor();
    expect(await bench.getByTestId('scan-history').getByRole('listitem').first().textContent()).toContain(`PJ-${fresh}-1`);

    // The first scan after signing in (the sign-in page sends the packer on to the station) is whole too.
    const { page: signingIn, close: closeSigningIn } = await benchPage({ width: 1280, height: 800 }, false);
    await signingIn.goto(`${base}/login?redirect=${encodeURIComponent('/scan')}`);
    await signingIn.getByLabel(/email/i).fill(STAFF);
    await signingIn.getByLabel(/password/i).fill(PASSWORD);
    await signingIn.getByRole('button', { name: /sign in|log ?in/i }).click();
    await signingIn.waitForURL((u) => u.pathname === '/scan', { timeout: 15_000 });
    await signingIn.keyboard.type(`PJ-${second}-1`);
    await signingIn.keyboard.press('Enter');
    await answer(signingIn).getByText(new RegExp(`^Printed: .+ · 2 of 2$`)).waitFor();
    await closeSigningIn();
    await close();
  });

  it('counts copies: a line of 3 is "1 of 3 packed" … and the order is complete only when every copy is packed', async () => {
    const { order: o, jobIds: [three] } = await orderWithJobs([3]);
    const { page: bench, close } = await benchPage({ width: 1280, height: 800 });
    await bench.goto(`${base}/scan`);
    await bench.getByRole('heading', { name: 'Scan station', level: 1 }).waitFor();

    await scanCode(bench, `PJ-${three}-1`);
    await answer(bench).getByText(`Printed: ${o.name} · 1 of 1`).waitFor();
    await answer(bench).getByText(/all 3 copies/).waitFor();
    // The job's own code names no copy: nothing changes and the station says which codes to scan.
    expectFailedRequest(bench, /^\/api\/scan$/, 409);
    await scanCode(bench, `PJ-${three}`);
    await answer(bench).getByText(`Job #${three} has 3 copies: scan a copy's own barcode (PJ-${three}-1 to PJ-${three}-3), each on its slug`).waitFor();

    await scanCode(bench, `PJ-${three}-1`);
    await answer(bench).getByText(`Packed: ${o.name} · 1 of 1 · copy 1 of 3`).waitFor();
    await answer(bench).getByText(/1 of 3 copies packed/).waitFor();
    const item = bench.getByRole('list', { name: `Items of order ${o.name}` }).getByRole('listitem').first();
    await item.getByText('1 of 3 packed').waitFor();
    await scanCode(bench, `PJ-${three}-2`);
    await answer(bench).getByText(`Packed: ${o.name} · 1 of 1 · copy 2 of 3`).waitFor();
    expect(await bench.getByRole('form', { name: 'Mark shipped' }).count()).toBe(0);
    await shot(bench, 'scan-06-copies');

    await scanCode(bench, `PJ-${three}-3`);
    await answer(bench).getByText('Order complete — ship').waitFor();
    await item.getByText('packed', { exact: true }).waitFor();
    // At 1280 × 800 Mark shipped is in sight without scrolling.
    const button = bench.getByRole('form', { name: 'Mark shipped' }).getByRole('button', { name: 'Mark shipped' });
    await button.waitFor();
    const box = (await button.boundingBox())!;
    expect(await bench.evaluate(() => window.scrollY)).toBe(0);
    expect(box.y + box.height).toBeLessThanOrEqual(800);
    await shot(bench, 'scan-07-complete-1280x800');
    await close();
  });

  it('made no request to any other host', () => {
    expect(foreign.flat()).toEqual([]);
  });
});
