// Check order on a phone (400 px): the header's title is shown whole (it wraps, never "Chec…"),
// every table — Pipeline, Store fulfilment, Line items — scrolls inside the page to its last column,
// and the page itself is never wider than the screen. The charity site's order has every panel.
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import type { Browser } from 'playwright-core';
import { apiAs, guardOwnHost, launch, shot, signIn } from './browser';

const base = inject('baseUrl');
const WIDTH = 400;

let browser: Browser;
beforeAll(async () => {
  browser = await launch();
});
afterAll(async () => {
  await browser?.close();
});

describe('Check order at 400 px', () => {
  it('wraps the title and scrolls each table inside the page', async () => {
    const page = await (await browser.newContext({ viewport: { width: WIDTH, height: 800 } })).newPage();
    const foreign = guardOwnHost(page, base);
    await signIn(page, base, 'staff@hopeharbour.local', 'presswork');
    // The charity's shop sends its demo orders on a fresh start: wait for the first.
    let orderId = '';
    await expect
      .poll(
        async () => {
          const list = await apiAs<{ data: Array<{ field1: string }> }>(page, base, 'GET', '/api/general-data/shopify-order-log?name=order-log&userId=1&page=1');
          orderId = list.data[0]?.field1 ?? '';
          return orderId;
        },
        { timeout: 30_000 },
      )
      .not.toBe('');
    await page.goto(`${base}/check-order?id=${orderId}`);
    await page.getByRole('heading', { name: /^Order / }).waitFor();
    for (const name of ['Pipeline steps', 'Store fulfilment per line', 'Line items']) await page.getByRole('table', { name }).waitFor({ timeout: 15_000 });

    // The header's title: all of it shown (two lines at most), not cut.
    const title = await page.locator('#react-admin-title').evaluate((el) => ({ text: el.textContent, cut: el.scrollWidth > el.clientWidth + 1 || el.scrollHeight > el.clientHeight + 1 }));
    expect(title).toEqual({ text: 'Check order', cut: false });

    // No table widens the page; each one scrolls sideways inside its own box to its last column.
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(WIDTH);
    for (const name of ['Pipeline steps', 'Store fulfilment per line', 'Line items']) {
      const table = page.getByRole('table', { name });
      const reach = await table.evaluate((el) => {
        const box = el.closest('.MuiTableContainer-root') as HTMLElement | null;
        if (!box) return { inBox: false, lastColumnReached: false };
        box.scrollLeft = box.scrollWidth;
        const last = el.querySelector('thead tr')!.lastElementChild!.getBoundingClientRect();
        return { inBox: box.getBoundingClientRect().right <= window.innerWidth + 1, lastColumnReached: last.right <= window.innerWidth + 1 };
      });
      expect(reach, name).toEqual({ inBox: true, lastColumnReached: true });
    }
    await shot(page, 'check-order-400');
    expect(foreign).toEqual([]);
  });
});
