// Setup → Routing in the browser: an admin adds two rules in the form (cards in house, posters to
// HP Site Flow), drags the second above the first by its handle, runs Test rules over the demo's
// recent orders (each line with the rule that would route it), and saves; the saved set is the
// one on screen, in the dragged order. Then a store order with a mug (no rule: the default holds
// it) shows in Needs attention with the reason and Route now; the admin makes it in house and the
// row goes. The screens are photographed (e2e/screenshots/routing*.png).
// It saves rules on the demo site, so later orders of that site route by them: it runs last.
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import type { AttentionAnswer } from '../common/api/attention';
import type { RoutingView } from '../common/api/routing';
import { fakeOrder } from '../server/simulators/shopify';
import { apiAs, guardOwnHost, launch, shot, signIn } from './browser';
import { callAs, demoStoreSender } from './demoStore';

const base = inject('baseUrl');
const ADMIN = 'admin@presswork.local';
const PASSWORD = 'presswork';
const SECRET = `e2e-routing-${Date.now().toString(36)}`;

let browser: Browser;
let admin: Page;
const foreign: string[][] = [];

beforeAll(async () => {
  browser = await launch();
  admin = await browser.newPage({ viewport: { width: 1280, height: 900 } });
  foreign.push(guardOwnHost(admin, base));
  await signIn(admin, base, ADMIN, PASSWORD);
});

afterAll(async () => {
  await browser?.close();
});

/** The demo site's id, as the site picker lists it. */
async function demoSiteId(): Promise<number> {
  const sites = await apiAs<Array<{ id: number; slug: string }> | { list: Array<{ id: number; slug: string }> }>(admin, base, 'GET', '/api/sites');
  const list = Array.isArray(sites) ? sites : sites.list;
  return list.find((s) => s.slug === 'demo')!.id;
}

describe('Setup → Routing in the browser', () => {
  it('adds rules in the form, drags to reorder, tests them on recent orders and saves', async () => {
    const page = admin;
    await page.goto(`${base}/routing`);
    await page.getByRole('heading', { name: /Rules \(the first that matches a line decides\)/ }).waitFor();
    // The demo site: it has orders to test on.
    await page.getByRole('combobox', { name: 'Site' }).click();
    await page.getByRole('option', { name: 'Presswork Demo', exact: true }).click();
    const siteId = await demoSiteId();

    await page.getByRole('button', { name: 'Add rule' }).click();
    await page.getByRole('button', { name: 'Add rule' }).click();
    const first = page.getByTestId('rule-0');
    const second = page.getByTestId('rule-1');
    await first.getByLabel('Rule name').fill('Cards in house');
    await first.getByLabel('SKU (* = any characters)').fill('DEMO-CARD-*');
    await second.getByLabel('Rule name').fill('Posters to HP');
    await second.getByLabel('SKU (* = any characters)').fill('DEMO-POSTER-*');
    await second.getByRole('combobox', { name: 'Then' }).click();
    await page.getByRole('option', { name: 'Send to HP Site Flow' }).click();
    // Make in house says what happens when the stock of the blanks runs out.
    await first.getByRole('combobox', { name: 'If out of stock' }).click();
    await page.getByRole('option', { name: 'Send to HP Site Flow' }).click();
    await expect.poll(() => first.getByRole('combobox', { name: 'If out of stock' }).textContent()).toBe('Send to HP Site Flow');
    // The closed menu fades out over the page: the pointer reaches the handle only once it is gone.
    await page.locator('.MuiMenu-root').waitFor({ state: 'detached' });

    // Drag "Posters to HP" above "Cards in house" by its handle (the pointer moves in steps, as a hand does).
    const handle = second.getByRole('button', { name: 'Drag rule 2' });
    const target = first.getByRole('button', { name: 'Drag rule 1' });
    await handle.scrollIntoViewIfNeeded();
    const from = (await handle.boundingBox())!;
    const to = (await target.boundingBox())!;
    const x = from.x + from.width / 2;
    await page.mouse.move(x, from.y + from.height / 2);
    await page.mouse.down();
    for (let i = 1; i <= 15; i++) {
      await page.mouse.move(x, from.y + from.height / 2 + ((to.y - from.y - 20) * i) / 15);
      await page.waitForTimeout(30);
    }
    await page.mouse.up();
    await expect.poll(() => page.getByTestId('rule-0').getByLabel('Rule name').inputValue()).toBe('Posters to HP');
    await expect.poll(() => page.getByTestId('rule-1').getByLabel('Rule name').inputValue()).toBe('Cards in house');

    // Test rules: the draft on screen over the site's last orders; nothing is saved.
    await page.getByRole('button', { name: 'Test rules' }).click();
    const dialog = page.getByRole('dialog', { name: 'Test rules' });
    await dialog.getByRole('button', { name: 'Run' }).click();
    const lines = dialog.getByRole('table', { name: 'Lines' });
    await lines.waitFor();
    const cardRow = lines.getByRole('row').filter({ hasText: /DEMO-CARD-/ }).first();
    await expect.poll(() => cardRow.textContent()).toMatch(/Cards in house.*Make in house/);
    expect((await apiAs<RoutingView & { saved: boolean }>(page, base, 'GET', `/api/sites/${siteId}/routing`)).rules.map((r) => r.name)).not.toContain('Cards in house');
    await shot(page, 'routing-test-rules');
    await dialog.getByRole('button', { name: 'Close' }).click();

    await page.getByRole('button', { name: 'Save', exact: true }).click();
    await page.getByText('Routing rules saved').waitFor();
    const saved = await apiAs<RoutingView & { saved: boolean }>(page, base, 'GET', `/api/sites/${siteId}/routing`);
    expect(saved.saved).toBe(true);
    expect(saved.rules.map((r) => [r.name, r.when, r.then])).toEqual([
      ['Posters to HP', { sku: 'DEMO-POSTER-*' }, { action: 'provider' }],
      ['Cards in house', { sku: 'DEMO-CARD-*' }, { action: 'inHouse', ifOutOfStock: { action: 'provider' } }],
    ]);
    // Reloaded, the screen shows the saved order.
    await page.reload();
    await page.getByRole('combobox', { name: 'Site' }).click();
    await page.getByRole('option', { name: 'Presswork Demo', exact: true }).click();
    await expect.poll(() => page.getByTestId('rule-0').getByLabel('Rule name').inputValue()).toBe('Posters to HP');
    await shot(page, 'routing');
    // At a laptop's width every condition's label is read whole, never cut short with an ellipsis.
    const cut = await page.getByTestId('rule-0').locator('label').evaluateAll((labels) => labels.filter((l) => l.scrollWidth > l.clientWidth + 1).map((l) => l.textContent));
    expect(cut).toEqual([]);
    expect(foreign.flat()).toEqual([]);
  });

  it('a line the default holds is in Needs attention with its reason; Route now makes it in house', async () => {
    const page = admin;
    const login = await callAs<{ data: { token: string } }>(base, '', 'POST', '/api/users/login', { email: ADMIN, password: PASSWORD });
    const sender = await demoStoreSender(base, login.data.token, SECRET);
    const seed = (Date.now() + 29) % 1_000_000_007;
    const mug = fakeOrder(seed, { skus: ['DEMO-MUG-01'], lineCount: 1, orderNumber: 80_000 + (seed % 9_000), withCustomer: true, withAddress: true });
    expect((await sender.sendOrder(mug)).status).toBe(200);
    const lineId = String(mug.line_items[0].id);
    await expect
      .poll(async () => (await apiAs<AttentionAnswer>(page, base, 'GET', '/api/attention')).items.some((i) => i.kind === 'routingHeld' && i.lineId === lineId), { timeout: 20_000 })
      .toBe(true);

    await page.goto(`${base}/attention`);
    const list = page.getByRole('list', { name: 'Problems, worst first' });
    const row = list.getByRole('link', { name: new RegExp(`Line ${lineId} of Order ${mug.name} is held: Routed by a person`) });
    await row.waitFor();
    const routeNow = list.getByRole('button', { name: `Route now: line ${lineId}` });
    await routeNow.scrollIntoViewIfNeeded();
    await shot(page, 'routing-attention');
    await routeNow.click();
    const dialog = page.getByRole('dialog', { name: `Route line ${lineId} now` });
    await dialog.getByRole('radio', { name: 'Make in house (a print job now)' }).check();
    await dialog.getByRole('button', { name: 'Route now' }).click();
    await dialog.waitFor({ state: 'detached' });
    await row.waitFor({ state: 'detached' });
    // Check order says who chose.
    await page.goto(`${base}/check-order?id=${mug.id}`);
    const lines = page.getByRole('table', { name: 'Line items' });
    await expect.poll(() => lines.getByRole('row').filter({ hasText: 'DEMO-MUG-01' }).textContent(), { timeout: 15_000 }).toMatch(/Manual, by Dana AdminMake in house, \d{2}\/\d{2}\/\d{4} \d{2}:\d{2}/);
    await shot(page, 'routing-check-order');
    expect(foreign.flat()).toEqual([]);
  });
});
