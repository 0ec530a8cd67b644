// Issue 4 end to end: an order signed and delivered by the Shopify simulator shows in List Orders
// (staff) and All orders (admin, Client column); Send HP → the HP Site Flow simulator's postbacks
// (received → printready → printed → shipped) in Data from HP with a tracking number, the customer
// name bold once shipped; Check order's two tabs; Send HP Manually; "Load more" over 20+ orders.
// The app must call no host but its own.
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import type { Browser, BrowserContext, Page, Route } from 'playwright-core';
import { fakeOrder, type FakeOrder } from '../server/simulators/shopify';
import { guardOwnHost, launch, shot, signIn } from './browser';
import { callAs, demoStoreSender } from './demoStore';

const base = inject('baseUrl');
const PASSWORD = 'presswork';
const STAFF = 'staff@presswork.local';
const ADMIN = 'admin@presswork.local';
const SECRET = `e2e-orders-${Date.now().toString(36)}`;
const SKU = 'DEMO-CARD-BDAY';
/** The card's personalisation, as the store's checkout asks for it: without it preflight holds the line. */
const PERSONALISATION = [
  { name: 'Recipient name', value: 'Ada' },
  { name: 'Message', value: 'Happy birthday!' },
];
const CUSTOMER = { first_name: 'Ellery', last_name: 'Proofwell' };
const CUSTOMER_NAME = 'Ellery Proofwell';
// The demo's staff user (the seed's name for staff@presswork.local).
const STAFF_NAME = 'Sam Staff';
/** Orders older than every other one, to fill a second page of the list. */
const BULK = 22;

let browser: Browser;
let staffContext: BrowserContext;
let adminContext: BrowserContext;
let staff: Page;
let admin: Page;
const foreign: string[][] = [];
let adminToken: string;
let staffToken: string;
let sender: Awaited<ReturnType<typeof demoStoreSender>>;
let order: FakeOrder;

// ---------------------------------------------------------------------------------------------
// Helpers

async function tokenOf(email: string): Promise<string> {
  const res = await fetch(`${base}/api/users/login`, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify({ email, password: PASSWORD }) });
  const json = (await res.json()) as { success: boolean; data: { token: string }; error?: string };
  if (!json.success) throw new Error(`login ${email} → ${res.status} ${json.error}`);
  return json.data.token;
}

const call = <T,>(token: string, method: string, path: string, body?: unknown): Promise<T> => callAs<T>(base, token, method, path, body);

/** Store order ids of the staff's List Orders, pages 1..n (the screen's own call). */
async function listedIds(pages: number): Promise<string[]> {
  const ids: string[] = [];
  for (let page = 1; page <= pages; page++) {
    const json = await call<{ data: { data: Array<{ field1: string }> } }>(staffToken, 'GET', `/api/general-data/shopify-order-log?name=order-log&userId=1&page=${page}`);
    ids.push(...json.data.data.map((r) => r.field1));
  }
  return [...new Set(ids)];
}

const orderRow = (page: Page, id: string) => page.getByTestId(`order-${id}`);
const bodyRows = (page: Page) => page.getByRole('table', { name: 'Orders' }).locator('tbody > tr');

async function openOrders(page: Page, path: '/orders' | '/all-orders') {
  await page.goto(`${base}${path}`);
  await page.getByRole('heading', { name: 'List Orders', level: 1 }).waitFor();
  await bodyRows(page).first().waitFor();
}

// ---------------------------------------------------------------------------------------------

beforeAll(async () => {
  [adminToken, staffToken] = await Promise.all([tokenOf(ADMIN), tokenOf(STAFF)]);
  sender = await demoStoreSender(base, adminToken, SECRET);

  browser = await launch();
  staffContext = await browser.newContext({ viewport: { width: 1280, height: 900 } });
  adminContext = await browser.newContext({ viewport: { width: 1280, height: 900 } });
  staff = await staffContext.newPage();
  admin = await adminContext.newPage();
  foreign.push(guardOwnHost(staff, base), guardOwnHost(admin, base));
  await Promise.all([signIn(staff, base, STAFF, PASSWORD), signIn(admin, base, ADMIN, PASSWORD)]);
});
afterAll(async () => {
  await browser?.close();
});

describe('orders and fulfilment in the browser', () => {
  it('an order from the Shopify simulator shows in List Orders (staff) and All orders (admin, Client column)', async () => {
    const seed = Date.now() % 1_000_000_007;
    const made = fakeOrder(seed, { skus: [SKU], lineCount: 1, orderNumber: 90_000 + (seed % 9_000), withCustomer: true, withAddress: true });
    order = { ...made, customer: { ...made.customer!, ...CUSTOMER }, line_items: made.line_items.map((l) => ({ ...l, quantity: 2, current_quantity: 2, fulfillable_quantity: 2, properties: PERSONALISATION })) };
    const sent = await sender.sendOrder(order);
    expect(sent.status).toBe(200);
    expect(sent.body).toMatchObject({ success: true, data: { received: true } });
    // Processing follows the 200: wait until the list call has it.
    await expect.poll(() => listedIds(1), { timeout: 15_000 }).toContain(order.id);

    await openOrders(staff, '/orders');
    await expect.poll(() => staff.title()).toBe('List Orders | Presswork');
    const headers = await staff.getByRole('table', { name: 'Orders' }).getByRole('columnheader').allInnerTexts();
    // A tick box first (Make in house), then the spec's columns.
    expect(headers.slice(0, 5)).toEqual(['', 'Timestamp', 'Customer Name', 'Order Id / Number / Name', 'SKU']);
    const row = orderRow(staff, order.id);
    await row.waitFor();
    expect(await row.getByTestId('customer-name').innerText()).toBe(CUSTOMER_NAME);
    await row.getByText(`${order.id} / ${order.order_number} / ${order.name}`, { exact: true }).waitFor();
    const line = row.getByTestId(`line-${order.line_items[0].id}`);
    // Product type, SKU, quantity, the PDF button and the per-line Send HP button ("Line to HP"), on one row; the order's ship-by once, beside its customer.
    expect(await line.innerText()).toMatch(new RegExp(`^Card\\s*${SKU}\\s*× 2\\s*PDF\\s*Line to HP$`, 'i'));
    expect(await row.getByTestId('ship-by').innerText()).toMatch(/^Ship by \d{2}\/\d{2}\/\d{4},? \d{2}:\d{2}(\s*(Due today|At risk|Late))?$/);
    await line.getByRole('button', { name: /^Send line .+ to HP$/ }).waitFor();
    await line.getByRole('button', { name: `PDF of ${SKU}` }).waitFor();
    await row.getByText('received', { exact: true }).waitFor();
    expect(await row.getByTestId('customer-name').evaluate((el) => getComputedStyle(el).fontWeight)).toBe('400');
    await row.getByLabel('Send this order to HP', { exact: true }).getByRole('button', { name: 'Send HP' }).waitFor();
    expect(await row.getByRole('link', { name: 'Detail' }).getAttribute('href')).toBe(`/check-order?id=${order.id}`);
    await shot(staff, 'orders-01-list-staff');

    await openOrders(admin, '/all-orders');
    await expect.poll(() => admin.title()).toBe('List Orders | Presswork');
    const adminHeaders = await admin.getByRole('table', { name: 'Orders' }).getByRole('columnheader').allInnerTexts();
    expect(adminHeaders.slice(0, 6)).toEqual(['', 'Client', 'Timestamp', 'Customer Name', 'Order Id / Number / Name', 'SKU']);
    const adminRow = orderRow(admin, order.id);
    await adminRow.getByRole('cell', { name: 'Presswork Demo', exact: true }).waitFor();
    expect(await adminRow.getByTestId('customer-name').innerText()).toBe(CUSTOMER_NAME);
    await adminRow.getByText(SKU).waitFor();
    await shot(admin, 'orders-02-all-orders-admin');
  });

  it('Send HP on the order → "Send HP successfully"', async () => {
    const row = orderRow(staff, order.id);
    await row.getByRole('button', { name: 'Send HP' }).click();
    await staff.getByText(/^Send HP successfully: HP Site Flow has the order/).waitFor();
    // Sent from the screen: the button says when, and cannot send it again.
    await row.getByLabel(/^Already sent to HP on \d{2}\/\d{2}\/\d{4} \d{2}:\d{2}$/).first().waitFor();
    expect(await row.getByRole('button', { name: 'Send HP' }).isDisabled()).toBe(true);
    expect(await row.getByLabel('Send this order to HP', { exact: true }).count()).toBe(0);
    await shot(staff, 'orders-03-send-hp');
    const detail = await call<{ data: { sent: Array<{ status: string }> } }>(staffToken, 'GET', `/api/hp-data/order/${order.id}`);
    expect(detail.data.sent.map((s) => s.status)).toEqual(['sent']);
  });

  it('Send HP Manually: the note, ISO country "gb", add/delete an item, Send → the provider\'s answer as pretty JSON', async () => {
    await admin.goto(`${base}/send-hp-manually`);
    await admin.getByRole('heading', { name: 'Send HP Manually', level: 1 }).waitFor();
    await expect.poll(() => admin.title()).toBe('Send HP Manually | Presswork');
    await admin.getByText('Please fill in all the fields. Make up some ids', { exact: true }).waitFor();
    expect(await admin.getByRole('textbox', { name: 'ISO Country' }).inputValue()).toBe('gb');

    const manualId = `E2E-MANUAL-${Date.now().toString(36).toUpperCase()}`;
    await admin.getByRole('textbox', { name: 'Source Order Id' }).fill(manualId);
    await admin.getByRole('textbox', { name: 'Customer Name' }).fill('Morgan Manual');
    await admin.getByLabel('SKU of item 1').fill('HP-CARD-A5');
    await admin.getByLabel('Quantity of item 1').fill('3');
    await admin.getByLabel('PDF URL of item 1').fill(`${base}/api`);
    await admin.getByLabel('Source Item ID of item 1').fill(`${manualId}-1`);

    await admin.getByRole('button', { name: 'Add item' }).click();
    await expect.poll(() => admin.getByTestId('manual-item').count()).toBe(2);
    await admin.getByLabel('SKU of item 2').fill('HP-MUG-A5');
    await admin.getByRole('button', { name: 'Delete item 2' }).click();
    await expect.poll(() => admin.getByTestId('manual-item').count()).toBe(1);
    expect(await admin.getByLabel('SKU of item 1').inputValue()).toBe('HP-CARD-A5');

    await admin.getByRole('textbox', { name: 'Name', exact: true }).fill('Morgan Manual');
    await admin.getByRole('textbox', { name: 'Address 1' }).fill('1 Proof Lane');
    await admin.getByRole('textbox', { name: 'Town' }).fill('York');
    await admin.getByRole('textbox', { name: 'Post Code' }).fill('YO1 7HH');
    await shot(admin, 'orders-04-manual-form');
    await admin.getByRole('button', { name: 'Send', exact: true }).click();

    await admin.getByRole('heading', { name: 'Response Data from HP' }).waitFor();
    const pre = admin.locator('pre[aria-label="Response Data from HP"]');
    const text = await pre.innerText();
    const answer = JSON.parse(text) as { success: boolean; order: { _id: string; orderData: { sourceOrderId: string; items: Array<{ sku: string; quantity: number }> } } };
    expect(text).toBe(JSON.stringify(answer, null, 2)); // pretty-printed
    expect(answer.success).toBe(true);
    expect(answer.order._id).toMatch(/^[0-9a-f]{24}$/);
    expect(text).toContain(`"_id": "${answer.order._id}"`);
    expect(answer.order.orderData.sourceOrderId).toBe(manualId);
    expect(answer.order.orderData.items).toMatchObject([{ sku: 'HP-CARD-A5', quantity: 3 }]);
    await admin.getByText('Successfully sent to HP').first().waitFor();
    await shot(admin, 'orders-05-manual-response');
  });

  it('"Load more" loads the next page ("Loading more..." meanwhile), then disappears once the server says there is no more', async () => {
    const start = Date.now() - 3 * 24 * 3600_000; // older than every other order
    const bulk = Array.from({ length: BULK }, (_, i) => {
      const o = fakeOrder(7_000 + i + (Date.now() % 100_000), { skus: [SKU], lineCount: 1, orderNumber: 80_000 + i, withCustomer: true, createdAt: new Date(start + i * 60_000) });
      return { ...o, customer: { ...o.customer!, first_name: 'Bulk', last_name: `Order ${String(i + 1).padStart(2, '0')}` } };
    });
    const results = await Promise.all(bulk.map((o) => sender.sendOrder(o)));
    expect(results.map((r) => r.status)).toEqual(bulk.map(() => 200));
    const oldest = bulk[0];
    await expect.poll(async () => (await listedIds(3)).filter((id) => bulk.some((b) => b.id === id)).length, { timeout: 20_000 }).toBe(BULK);
    const total = (await listedIds(3)).length;
    expect(total).toBeGreaterThan(20);
    expect(total).toBeLessThanOrEqual(40); // two pages

    // Hold page 2 until "Loading more..." was seen.
    let release!: () => void;
    const held = new Promise<void>((r) => (release = r));
    const isPage2 = (u: URL) => u.pathname === '/api/general-data/shopify-order-log' && u.searchParams.get('page') === '2';
    const hold = async (route: Route) => {
      await held;
      await route.continue();
    };
    await staff.route(isPage2, hold);

    await openOrders(staff, '/orders');
    await expect.poll(() => bodyRows(staff).count()).toBe(20);
    expect(await orderRow(staff, oldest.id).count()).toBe(0);
    await staff.getByRole('button', { name: 'Load more', exact: true }).click();
    const loading = staff.getByRole('button', { name: 'Loading more...', exact: true });
    await loading.waitFor();
    expect(await loading.isDisabled()).toBe(true);
    await shot(staff, 'orders-06-loading-more');
    release();
    await orderRow(staff, oldest.id).waitFor();
    // A trickled order may arrive meanwhile (every ~45 s): one more row at most.
    await expect.poll(() => bodyRows(staff).count()).toBeGreaterThanOrEqual(total);
    expect(await bodyRows(staff).count()).toBeLessThanOrEqual(total + 1);
    expect(await orderRow(staff, oldest.id).getByTestId('customer-name').innerText()).toBe('Bulk Order 01');
    // The oldest is last: the list runs newest first.
    expect(await bodyRows(staff).last().getAttribute('data-testid')).toBe(`order-${oldest.id}`);
    await staff.unroute(isPage2, hold);
    await shot(staff, 'orders-07-loaded-more');

    // Page 2 said hasNext: false — the list is exhausted and the button is gone, with no call for an empty page 3.
    await staff.getByRole('button', { name: /^Load(ing)? more/ }).waitFor({ state: 'detached' });
    const asked: string[] = [];
    staff.on('request', (r) => asked.push(r.url()));
    await staff.waitForTimeout(500);
    expect(asked.filter((u) => u.includes('shopify-order-log') && u.includes('page=3'))).toEqual([]);
  });

  it('Data from HP lists the order\'s postbacks up to shipped with a tracking number; the customer is bold once shipped', async () => {
    await admin.goto(`${base}/hp-data`);
    await admin.getByRole('heading', { name: 'Data from HP', level: 1 }).waitFor();
    await expect.poll(() => admin.title()).toBe('Data from HP | Presswork');
    const eventRows = () => admin.getByRole('table', { name: 'Data from HP' }).getByRole('row').filter({ has: admin.getByRole('cell', { name: order.id, exact: true }) });
    // The simulator's timeline: 5 s, then received, printready, printed, shipped 5 s apart.
    await expect
      .poll(
        async () => {
          await admin.reload();
          await admin.getByRole('heading', { name: 'Data from HP', level: 1 }).waitFor();
          await admin.getByRole('table', { name: 'Data from HP' }).or(admin.getByText('There is no postback')).first().waitFor();
          return (await eventRows().locator('td:nth-child(2)').allInnerTexts()).sort();
        },
        { timeout: 45_000, interval: 1_500 },
      )
      .toEqual(['printed', 'printready', 'received', 'shipped']);
    const shipped = eventRows().filter({ has: admin.getByRole('cell', { name: 'shipped', exact: true }) });
    const cells = await shipped.getByRole('cell').allInnerTexts();
    expect(cells[2]).toBe(order.id);
    expect(cells[3]).toMatch(/^HP[0-9A-F]{10}$/);
    expect(cells[4]).toBe('royalmail tracked');
    const tracking = cells[3];
    // Only the shipped event carries tracking.
    for (const status of ['received', 'printready', 'printed']) {
      const r = eventRows().filter({ has: admin.getByRole('cell', { name: status, exact: true }) });
      expect((await r.getByRole('cell').allInnerTexts())[3]).toBe('');
    }
    await shot(admin, 'orders-08-hp-data');

    // A row opens everything known about the order.
    await shipped.getByRole('cell', { name: 'shipped', exact: true }).click();
    const dialog = admin.getByRole('dialog', { name: new RegExp(`^Order ${order.id}`) });
    await dialog.getByText(`${order.name} · ${CUSTOMER_NAME} · shipped`, { exact: true }).waitFor();
    await dialog.getByRole('table', { name: 'Provider events' }).getByRole('cell', { name: tracking, exact: true }).waitFor();
    await dialog.getByTestId(`hp-line-${order.line_items[0].id}`).getByText(`SKU: ${SKU} · QTY 2`).waitFor();
    await shot(admin, 'orders-09-hp-order-detail');
    await dialog.getByRole('button', { name: 'Close', exact: true }).first().click(); // the × of the title
    await dialog.waitFor({ state: 'detached' });

    // List Orders: the customer name is bold now, the status shipped.
    await openOrders(staff, '/orders');
    const name = orderRow(staff, order.id).getByTestId('customer-name');
    await orderRow(staff, order.id).getByText('shipped', { exact: true }).waitFor();
    expect(await name.innerText()).toBe(CUSTOMER_NAME);
    expect(await name.evaluate((el) => getComputedStyle(el).fontWeight)).toBe('700');
    // Other (unsent) orders stay regular.
    const unsent = bodyRows(staff).filter({ has: staff.getByText('received', { exact: true }) }).first().getByTestId('customer-name');
    expect(await unsent.evaluate((el) => getComputedStyle(el).fontWeight)).toBe('400');
    await shot(staff, 'orders-10-shipped-bold');
  });

  it('Check order (/check-order?id=): "Shopify Data" and "HP Data" show the order and its events', async () => {
    await staff.goto(`${base}/check-order?id=${order.id}`);
    await expect.poll(() => staff.title()).toBe('Check order | Presswork');
    await staff.getByRole('heading', { name: `Order ${order.name}`, level: 2 }).waitFor();
    expect(await staff.getByRole('textbox', { name: 'Order id or name' }).inputValue()).toBe(order.id);
    const shopifyTab = staff.getByRole('tab', { name: 'Shopify Data' });
    expect(await shopifyTab.getAttribute('aria-selected')).toBe('true');
    const panel = staff.getByRole('tabpanel');
    const field = async (label: string) => (await panel.locator('dt', { hasText: new RegExp(`^${label}$`) }).locator('xpath=following-sibling::dd[1]').innerText()).trim();
    expect(await field('Order Id')).toBe(order.id);
    expect(await field('Order Number')).toBe(String(order.order_number));
    expect(await field('Order Name')).toBe(order.name);
    expect(await field('Customer Name')).toBe(CUSTOMER_NAME);
    expect(await field('Status')).toBe('shipped');
    expect(await field('Email')).toBe(order.email);
    expect(await field('HP Order Id')).toMatch(/^[0-9a-f]{24}$/);
    expect(await field('Tracking')).toMatch(/^HP[0-9A-F]{10} \(royalmail tracked\) track$/);
    const lines = panel.getByRole('table', { name: 'Line items' });
    const lineCells = await lines.getByRole('row').nth(1).getByRole('cell').allInnerTexts();
    // Sent with Send HP: the line is made by HP, its job says so, and its route names who sent it.
    // Shipped: its ship-by is shown with no marker.
    const when = String.raw`\d{2}/\d{2}/\d{4},? \d{2}:\d{2}`;
    expect(lineCells).toEqual([
      order.line_items[0].id,
      order.line_items[0].name,
      order.line_items[0].product_id,
      SKU,
      '2',
      expect.stringMatching(/^HP Site Flow \(job #\d+\)$/),
      expect.stringMatching(new RegExp(`^Manual, by ${STAFF_NAME}\\s+Send to HP Site Flow, ${when}$`)),
      expect.stringMatching(new RegExp(`^${when}$`)),
    ]);
    const raw = JSON.parse(await panel.locator('pre[aria-label="Shopify raw data"]').innerText()) as { id: string; name: string };
    expect(String(raw.id)).toBe(order.id);
    expect(raw.name).toBe(order.name);
    await shot(staff, 'orders-11-check-shopify');

    await staff.getByRole('tab', { name: 'HP Data' }).click();
    await expect.poll(() => staff.getByRole('tab', { name: 'HP Data' }).getAttribute('aria-selected')).toBe('true');
    const events = panel.getByRole('table', { name: 'Provider events' });
    await events.waitFor();
    const statuses = await events.locator('tbody td:nth-child(2)').allInnerTexts();
    expect([...statuses].sort()).toEqual(['printed', 'printready', 'received', 'shipped']);
    expect(await events.locator('tbody td:nth-child(3)').allInnerTexts()).toEqual(
      expect.arrayContaining(['order.received', 'order.printready', 'component.printed', 'shipment.shipped']),
    );
    await events.getByRole('cell', { name: /^HP[0-9A-F]{10}$/ }).waitFor();
    // What was sent, and the provider's answer.
    const sent = panel.locator('pre[aria-label="Sent data"]');
    const sentData = JSON.parse(await sent.innerText()) as { orderData: { sourceOrderId: string; items: Array<{ sku: string; quantity: number }> } };
    expect(sentData.orderData.sourceOrderId).toBe(order.id);
    expect(sentData.orderData.items).toMatchObject([{ sku: 'HP-CARD-A5', quantity: 2 }]);
    expect(await panel.locator('pre[aria-label="Response"]').innerText()).toContain('"_id"');
    await shot(staff, 'orders-12-check-hp');
  });

  it('made no request to any other host', () => {
    expect(foreign.flat()).toEqual([]);
  });
});
