// Every menu screen, as an admin and as a client's staff, opens without a console error (e2e/setup.ts
// fails the test on one) and without attributes React would warn of (`inputprops` on a <div>).
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { launch, shot, signIn } from './browser';

const base = inject('baseUrl');
let browser: Browser;

beforeAll(async () => {
  browser = await launch();
});
afterAll(async () => {
  await browser?.close();
});

/** The menu's links, in order: each one's label without the count badge on its icon. */
async function menuLinks(page: Page): Promise<Array<{ label: string; href: string }>> {
  const nav = page.locator('.RaSidebar-fixed');
  await nav.getByRole('menuitem').first().waitFor();
  return nav.getByRole('menuitem').evaluateAll((items) =>
    items
      .map((a) => {
        const label = a.cloneNode(true) as HTMLElement;
        for (const badge of label.querySelectorAll('.MuiBadge-badge')) badge.remove();
        return { label: (label.textContent ?? '').trim(), href: a.getAttribute('href') ?? '' };
      })
      .filter((l) => l.href.startsWith('/')),
  );
}

async function expectScreenClean(page: Page, path: string) {
  // The screen is up once the loading indicator has gone and nothing is in flight.
  await page.waitForLoadState('networkidle');
  // Every loading indicator gone (a screen and a part of it loading on first use can show one each).
  await expect.poll(() => page.getByText('Loading...', { exact: true }).count(), { timeout: 30_000 }).toBe(0);
  const stray = await page.locator('[inputprops], [inputref]').count();
  expect(stray, `stray attributes on ${path}`).toBe(0);
}

/** Forms behind the menu's lists (react-admin inputs): a new and an existing record. */
const ADMIN_FORMS = ['/sites/new', '/sites/1', '/stores/1', '/products/create', '/resellers/create', '/instances/create', '/design/new'];

async function openEveryScreen(email: string, expected: string[], forms: string[] = []) {
  const page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
  await signIn(page, base, email, 'presswork');
  const links = await menuLinks(page);
  expect(links.map((l) => l.label)).toEqual(expect.arrayContaining(expected));
  for (const link of links) {
    // An entry with a count says it in its name ("Needs attention, 4 problems, 1 critical").
    const name = new RegExp(`^${link.label.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}(, .+)?$`);
    await page.locator('.RaSidebar-fixed').getByRole('menuitem', { name }).click();
    await page.waitForURL((u) => u.pathname === link.href);
    await expectScreenClean(page, link.href);
  }
  for (const path of forms) {
    await page.goto(`${base}${path}`);
    await page.locator('form').first().waitFor();
    await expectScreenClean(page, path);
  }
  await page.close();
  return links;
}

describe('every menu screen', () => {
  it('as an admin', async () => {
    const links = await openEveryScreen('admin@presswork.local', ['List Sites', 'Jobs', 'All list Orders', 'Product Designs', 'Stores', 'Instances'], ADMIN_FORMS);
    expect(links.length).toBeGreaterThan(12);
  });

  it("as a client's staff (Hope Harbour, with the sync)", async () => {
    const links = await openEveryScreen('staff@hopeharbour.local', ['Jobs', 'List Orders', 'RE & Adestra Sync']);
    expect(links.map((l) => l.label)).not.toContain('List Sites');
  });
});

describe('small screens and the menu', () => {
  it('the menu shows every label whole in the 188 px sidebar', async () => {
    const page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
    await signIn(page, base, 'admin@presswork.local', 'presswork');
    const labels = page.locator('.RaSidebar-fixed [role="menuitem"] p');
    await labels.first().waitFor();
    const cut = await labels.evaluateAll((ps) => ps.filter((p) => p.scrollWidth > p.clientWidth + 1).map((p) => p.textContent));
    expect(cut).toEqual([]);
    expect(await page.locator('.RaSidebar-fixed').evaluate((el) => Math.round(el.getBoundingClientRect().width))).toBe(188);
    await page.close();
  });

  it('at 1280 px every order\'s actions on /all-orders stay inside the window', async () => {
    const page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
    await signIn(page, base, 'admin@presswork.local', 'presswork');
    await page.goto(`${base}/all-orders`);
    await expect.poll(() => page.title()).toBe('List Orders | Presswork');
    await page.waitForLoadState('networkidle');
    const details = page.getByRole('link', { name: 'Detail' });
    await details.first().waitFor();
    const rightEdges = await details.evaluateAll((buttons) => buttons.map((b) => Math.ceil(b.getBoundingClientRect().right)));
    expect(rightEdges.length).toBeGreaterThan(0);
    expect(Math.max(...rightEdges)).toBeLessThanOrEqual(1280);
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(1280);
    await page.close();
  });

  it.each([
    ['/all-orders', 'all-orders', 'List Orders'],
    ['/sites', 'sites', 'List Sites'],
  ])('at 400 px %s is a list of rows that keeps the page 400 px wide', async (path, name, title) => {
    const page = await browser.newPage({ viewport: { width: 400, height: 800 } });
    await signIn(page, base, 'admin@presswork.local', 'presswork');
    await page.goto(`${base}${path}`);
    await expect.poll(() => page.title()).toBe(`${title} | Presswork`);
    await page.waitForLoadState('networkidle');
    // Rows, not a table: one list item a record, each opening or acting on its record.
    expect(await page.locator('table').count()).toBe(0);
    expect(await page.getByRole('listitem').count()).toBeGreaterThan(1);
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(400);
    // The app bar keeps room for the screen's title beside the site's brand (the user's name yields).
    const titleBox = await page.locator('#react-admin-title').boundingBox();
    expect(titleBox?.width ?? 0).toBeGreaterThan(40);
    await expect.poll(() => page.locator('#react-admin-title').innerText()).not.toBe('');
    await shot(page, `screens-400-${name}`);
    await page.close();
  });
});
