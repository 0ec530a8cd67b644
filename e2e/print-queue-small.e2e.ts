// Jobs and Print History on a phone (400 px): rows as cards, nothing wider than the screen, for an
// admin (client shown and filterable) and for staff.
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { guardOwnHost, launch, shot, signIn } from './browser';

const base = inject('baseUrl');
const PASSWORD = 'presswork';
const WIDTH = 400;

let browser: Browser;
beforeAll(async () => {
  browser = await launch();
});
afterAll(async () => {
  await browser?.close();
});

async function phone(email: string): Promise<{ page: Page; foreign: string[]; consoleErrors: string[] }> {
  const context = await browser.newContext({ viewport: { width: WIDTH, height: 800 } });
  const page = await context.newPage();
  const foreign = guardOwnHost(page, base);
  const consoleErrors: string[] = [];
  page.on('console', (m) => {
    if (m.type() === 'error') consoleErrors.push(m.text());
  });
  await signIn(page, base, email, PASSWORD);
  return { page, foreign, consoleErrors };
}

/** The page's own width: a wide table would push it past the viewport. */
const scrollWidth = (page: Page) => page.evaluate(() => document.documentElement.scrollWidth);

async function openQueue(page: Page, path: string): Promise<void> {
  await page.goto(`${base}${path}`);
  // Cards, not a table: the first job's card is there and no table header is.
  await page.locator('[data-testid^="print-job-"]').first().waitFor({ timeout: 15_000 });
  expect(await page.locator('table[aria-label="Print jobs"]').count()).toBe(0);
}

describe.each([
  ['admin', 'admin@presswork.local'],
  ['staff', 'staff@presswork.local'],
])('Jobs and Print History at %s 400 px', (who, email) => {
  it('show job cards with their actions and no horizontal page overflow', async () => {
    const { page, foreign, consoleErrors } = await phone(email);

    await openQueue(page, '/print-jobs');
    const card = page.locator('[data-testid^="print-job-"]').first();
    await expect.poll(() => card.getByRole('button', { name: 'PDF' }).count()).toBe(1);
    expect(await card.getByRole('textbox', { name: /^Production note for / }).count()).toBe(1);
    expect(await page.getByRole('combobox', { name: 'Client' }).count()).toBe(who === 'admin' ? 1 : 0);
    expect(await scrollWidth(page)).toBeLessThanOrEqual(WIDTH);
    await page.screenshot({ path: `/tmp/i13-t-jobs-${who}.png`, fullPage: true });
    await shot(page, `print-queue-small-jobs-${who}`);

    await openQueue(page, '/print-history');
    const printed = page.locator('[data-testid^="print-job-"]').first();
    await expect.poll(() => printed.getByRole('button', { name: 'Reprint' }).count()).toBe(1);
    expect(await printed.getByText(/^Printed \d\d\/\d\d\/\d{4} \d\d:\d\d/).count()).toBe(1);
    expect(await scrollWidth(page)).toBeLessThanOrEqual(WIDTH);
    await page.screenshot({ path: `/tmp/i13-t-history-${who}.png`, fullPage: true });
    await shot(page, `print-queue-small-history-${who}`);

    expect(foreign).toEqual([]);
    expect(consoleErrors).toEqual([]);
    await page.context().close();
  });
});
