// Needs attention in the browser: an order placed at the store five days ago (delivered by the
// Shopify simulator with its old created_at) is late, the demo's order #1000 has its job held by
// preflight; staff land on the page, see the late row before the held one, the held row opens
// Jobs → Held, and the menu's badge carries the count. At phone width the rows still fit.
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { attentionSummary, type AttentionAnswer } from '../common/api/attention';
import { fakeOrder, type FakeOrder } from '../server/simulators/shopify';
import { apiAs, guardOwnHost, launch, shot, signIn } from './browser';
import { callAs, demoStoreSender } from './demoStore';

const base = inject('baseUrl');
const PASSWORD = 'presswork';
const STAFF = 'staff@presswork.local';
const ADMIN = 'admin@presswork.local';
const SECRET = `e2e-attention-${Date.now().toString(36)}`;

let browser: Browser;
let staff: Page;
let late: FakeOrder;
const foreign: string[][] = [];

beforeAll(async () => {
  const login = await callAs<{ data: { token: string } }>(base, '', 'POST', '/api/users/login', { email: ADMIN, password: PASSWORD });
  const sender = await demoStoreSender(base, login.data.token, SECRET);
  const seed = (Date.now() + 17) % 1_000_000_007;
  late = fakeOrder(seed, { skus: ['DEMO-CARD-BDAY'], lineCount: 1, orderNumber: 70_000 + (seed % 9_000), createdAt: new Date(Date.now() - 5 * 86_400_000), withCustomer: true, withAddress: true });
  expect((await sender.sendOrder(late)).status).toBe(200);
  browser = await launch();
  staff = await browser.newPage({ viewport: { width: 1280, height: 900 } });
  foreign.push(guardOwnHost(staff, base));
  await signIn(staff, base, STAFF, PASSWORD);
});

afterAll(async () => {
  await browser?.close();
});

/** Processing follows the store's 200: wait until the late order's job is listed. */
async function lateListed(): Promise<AttentionAnswer> {
  let answer: AttentionAnswer | undefined;
  await expect
    .poll(
      async () => {
        answer = await apiAs<AttentionAnswer>(staff, base, 'GET', '/api/attention');
        return answer.items.filter((i) => i.kind === 'late').map((i) => i.orderId);
      },
      { timeout: 20_000 },
    )
    .toContain(late.id);
  return answer!;
}

describe('Needs attention in the browser', () => {
  it("is staff's home: the late order before the held job, each with its chip; the menu badge counts them", async () => {
    const answer = await lateListed();
    await staff.goto(`${base}/`);
    const list = staff.getByRole('list', { name: 'Problems, worst first' });
    const lateRow = list.getByRole('link', { name: new RegExp(`Order ${late.name} is late: ship by \\d{2}/\\d{2}/\\d{4} \\d{2}:\\d{2}`) });
    const heldRow = list.getByRole('link', { name: /of order #1000 is held by preflight/ });
    await lateRow.waitFor();
    await heldRow.waitFor();
    const rows = await list.getByRole('link').allInnerTexts();
    const lateAt = rows.findIndex((t) => t.includes(`Order ${late.name} is late`));
    const heldAt = rows.findIndex((t) => t.includes('of order #1000 is held by preflight'));
    expect(lateAt).toBeGreaterThanOrEqual(0);
    expect(heldAt).toBeGreaterThan(lateAt);
    expect(await lateRow.innerText()).toContain('Critical');
    expect(await heldRow.innerText()).toContain('Warning');
    expect(await lateRow.getAttribute('href')).toBe(`/check-order?id=${late.id}`);
    // The badge on "Needs attention": every problem, red while one is critical.
    const badge = staff.getByRole('menuitem', { name: 'Needs attention' }).locator('.MuiBadge-badge');
    await expect.poll(() => badge.innerText()).toBe(String(answer.counts.total));
    // The badge is hidden from screen readers; the entry's name says the count.
    expect(await staff.getByRole('menuitem', { name: `Needs attention, ${attentionSummary(answer.counts)}`, exact: true }).count()).toBe(1);
    expect(await badge.getAttribute('class')).toContain('MuiBadge-colorError');
    // Jobs carries the held count.
    await expect.poll(() => staff.getByRole('menuitem', { name: 'Jobs' }).locator('.MuiBadge-badge').innerText()).toBe(String(answer.counts.held));
    expect(await staff.getByRole('menuitem', { name: `Jobs, ${answer.counts.held} held by preflight`, exact: true }).count()).toBe(1);
    await shot(staff, 'attention-01-home');
  });

  it('the held row opens Jobs on its Held tab, on that job, highlighted', async () => {
    await staff.getByRole('list', { name: 'Problems, worst first' }).getByRole('link', { name: /of order #1000 is held by preflight/ }).click();
    await staff.waitForURL((u) => u.pathname === '/print-jobs' && u.searchParams.get('tab') === 'held' && Boolean(u.searchParams.get('job')));
    await expect.poll(() => staff.getByRole('tab', { name: /Held/ }).getAttribute('aria-selected')).toBe('true');
    const jobId = new URL(staff.url()).searchParams.get('job');
    await expect.poll(() => staff.getByTestId(`held-job-${jobId}`).getAttribute('data-highlighted')).toBe('true');
    await shot(staff, 'attention-02-held-tab');
    expect(foreign.flat()).toEqual([]);
  });

  it('at phone width the page fits the window', async () => {
    const phone = await browser.newPage({ viewport: { width: 390, height: 844 } });
    foreign.push(guardOwnHost(phone, base));
    await signIn(phone, base, STAFF, PASSWORD);
    await phone.goto(`${base}/attention`);
    await phone.getByRole('list', { name: 'Problems, worst first' }).getByRole('link', { name: new RegExp(`Order ${late.name} is late`) }).waitFor();
    expect(await phone.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth)).toBe(true);
    await shot(phone, 'attention-03-phone');
    await phone.close();
    expect(foreign.flat()).toEqual([]);
  });
});
