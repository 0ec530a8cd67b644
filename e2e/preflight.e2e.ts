// Preflight in the browser: the demo's order #1000 carries a photo too small for its box, so its job
// is held. Staff find it on Jobs → Held with the finding and the page marked, Re-check keeps it
// held, Approve anyway moves it to the queue with who approved it. Also at phone width.
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { guardOwnHost, launch, shot, signIn } from './browser';

const base = inject('baseUrl');
const PASSWORD = 'presswork';
const STAFF = 'staff@presswork.local';
const HELD_PRODUCT = 'Family Photo Card';

let browser: Browser;
const foreign: string[][] = [];

beforeAll(async () => {
  browser = await launch();
});
afterAll(async () => {
  await browser?.close();
});

async function staffAt(width: number): Promise<Page> {
  const context = await browser.newContext({ viewport: { width, height: 900 } });
  const page = await context.newPage();
  foreign.push(guardOwnHost(page, base));
  await signIn(page, base, STAFF, PASSWORD);
  return page;
}

const heldItem = (page: Page) => page.locator('[data-testid^="held-job-"]').filter({ hasText: HELD_PRODUCT });

describe('preflight: held jobs in the browser', () => {
  it('at 400 px the Held tab is a list of cards that keeps the page 400 px wide', async () => {
    const page = await staffAt(400);
    await page.goto(`${base}/print-jobs?tab=held`);
    await heldItem(page).waitFor({ timeout: 15_000 });
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(400);
    await heldItem(page).getByRole('button', { name: 'Approve anyway' }).waitFor();
    await shot(page, 'preflight-01-held-phone');
    await page.context().close();
  });

  it('Jobs → Held shows the soft photo with its page marked; Re-check keeps it; Approve anyway moves it to Jobs', async () => {
    const page = await staffAt(1280);
    await page.goto(`${base}/print-jobs`);
    await page.getByRole('tab', { name: /^Held \(\d+\)$/ }).waitFor({ timeout: 15_000 });
    // Not in the ready queue.
    await page.locator('[data-testid^="print-job-"]').first().waitFor();
    expect(await page.locator('[data-testid^="print-job-"]').filter({ hasText: HELD_PRODUCT }).count()).toBe(0);

    await page.getByRole('tab', { name: /^Held/ }).click();
    await page.waitForURL((u) => u.searchParams.get('tab') === 'held');
    const item = heldItem(page);
    await item.waitFor();
    await item.getByText(/^Page 1 photo “Photo” is \d+ ppi at its printed size — it will look soft/).first().waitFor();
    // The thumbnail is the customer's front page, loaded, with the photo's box outlined on it.
    const img = item.getByRole('img', { name: `Page 1 of ${HELD_PRODUCT}` });
    await img.waitFor();
    await expect.poll(() => img.evaluate((el) => (el as HTMLImageElement).naturalWidth)).toBeGreaterThan(0);
    const area = item.getByTestId('finding-area');
    await area.waitFor({ state: 'attached' });
    const box = (await area.boundingBox())!;
    const pic = (await img.boundingBox())!;
    expect(box.width).toBeGreaterThan(5);
    expect(box.x).toBeGreaterThanOrEqual(pic.x);
    expect(box.x + box.width).toBeLessThanOrEqual(pic.x + pic.width + 1);
    await shot(page, 'preflight-02-held');

    // Nothing changed in the design: still held.
    await item.getByRole('button', { name: 'Re-check' }).click();
    await page.getByText(/^Still held: /).waitFor();
    expect(await item.count()).toBe(1);

    await item.getByRole('button', { name: 'Approve anyway' }).click();
    const dialog = page.getByRole('dialog');
    await dialog.getByText('It prints as it is; recorded as approved by you', { exact: false }).waitFor();
    await dialog.getByRole('button', { name: 'Approve anyway' }).click();
    await page.getByText('Approved: it prints as it is, and is in Jobs').waitFor();
    await item.waitFor({ state: 'detached' });

    await page.getByRole('tab', { name: 'Ready' }).click();
    const row = page.locator('[data-testid^="print-job-"]').filter({ hasText: HELD_PRODUCT });
    await row.waitFor();
    await row.getByText(/^Approved anyway by .+/).waitFor();
    await shot(page, 'preflight-03-approved-in-jobs');
    await page.context().close();
  });

  it('made no request to any other host', () => {
    expect(foreign.flat()).toEqual([]);
  });
});
