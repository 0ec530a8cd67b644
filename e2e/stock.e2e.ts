// Stock of blanks in the browser, as the floor uses it: staff open Stock from the menu, make an
// item already under its reorder point, see it on Home with its forecast and follow the link to it,
// Receive a delivery and Count the shelf, read the movements (who, what, why) and download them as
// CSV with a kind column.
import fs from 'node:fs/promises';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { guardOwnHost, launch, shot, signIn } from './browser';

const base = inject('baseUrl');
const STAFF = 'staff@presswork.local';
const PASSWORD = 'presswork';
const NAME = `E2E foil sheets ${Date.now().toString(36)}`;

let browser: Browser;
let staff: Page;
let foreign: string[];

beforeAll(async () => {
  browser = await launch();
  staff = await browser.newPage({ viewport: { width: 1280, height: 900 }, acceptDownloads: true });
  foreign = guardOwnHost(staff, base);
  await signIn(staff, base, STAFF, PASSWORD);
});

afterAll(async () => {
  await browser?.close();
});

describe('Stock in the browser', () => {
  it('staff make an item from the menu; Home lists it as running low and links to it', async () => {
    await staff.getByRole('menuitem', { name: 'Stock' }).click();
    await staff.waitForURL(`${base}/stock-items`);
    // The demo's own stock is listed.
    await staff.getByText('White mugs 11 oz').waitFor();
    await shot(staff, 'stock-01-list');

    await staff.getByRole('link', { name: 'Create' }).click();
    await staff.getByRole('textbox', { name: /^Name/ }).fill(NAME);
    await staff.getByRole('textbox', { name: /^Unit/ }).fill('sheets');
    await staff.getByRole('spinbutton', { name: 'On hand now' }).fill('5');
    await staff.getByRole('spinbutton', { name: 'Reorder point' }).fill('10');
    await staff.getByRole('spinbutton', { name: 'Reorder quantity' }).fill('50');
    await staff.getByRole('textbox', { name: 'Supplier note' }).fill('Foilco, 2 days');
    await staff.getByRole('button', { name: 'Save' }).click();
    await staff.waitForURL(/\/stock-items\/\d+\/show$/);
    const itemPath = new URL(staff.url()).pathname;

    await staff.goto(`${base}/`);
    const low = staff.getByRole('list', { name: 'Stock running low' });
    const link = low.getByRole('link', { name: NAME });
    await link.waitFor();
    const row = low.getByRole('listitem').filter({ hasText: NAME });
    expect(await row.innerText()).toContain('5 sheets available (reorder point 10); none used in the last 14 days; reorder 50 sheets');
    await shot(staff, 'stock-02-home-low');
    await link.click();
    await staff.waitForURL(`${base}${itemPath}`);
  });

  it('Receive and Count change on hand; each is on the movements list with who and why; the CSV has them with their kind', async () => {
    const dialogMove = async (button: string, quantity: string, note: string) => {
      await staff.getByRole('button', { name: button, exact: true }).first().click();
      const dialog = staff.getByRole('dialog');
      await dialog.getByRole('spinbutton').fill(quantity);
      await dialog.getByRole('textbox', { name: 'Note' }).fill(note);
      await dialog.getByRole('button', { name: button, exact: true }).click();
      await dialog.waitFor({ state: 'detached' });
    };
    await dialogMove('Receive', '30', 'Foilco delivery 77');
    await staff.getByText(`Received: ${NAME} now 35 sheets on hand, 35 available`).waitFor();
    await dialogMove('Count', '33', 'two creased');
    await staff.getByText(`Counted: ${NAME} now 33 sheets on hand, 33 available`).waitFor();

    const table = staff.getByRole('table', { name: 'Movements' });
    await expect.poll(() => table.locator('tbody tr').count()).toBe(3);
    const rows = await table.locator('tbody tr').allInnerTexts();
    expect(rows[0]).toMatch(/Counted\s+-2\s+33\s+0\s+.*two creased/);
    expect(rows[1]).toMatch(/Received\s+\+30\s+35\s+0\s+.*Foilco delivery 77/);
    expect(rows[2]).toMatch(/Counted\s+\+5\s+5\s+0\s+.*opening count/);
    for (const r of rows) expect(r).toContain('Sam Staff');
    await shot(staff, 'stock-03-item-movements');

    const [download] = await Promise.all([staff.waitForEvent('download'), staff.getByRole('button', { name: 'Export CSV' }).click()]);
    expect(download.suggestedFilename()).toMatch(/^stock-\d+-movements\.csv$/);
    const csv = (await fs.readFile((await download.path())!, 'utf8')).trim().split('\n');
    expect(csv[0]).toBe('at,kind,quantity,onHandAfter,reservedAfter,jobId,by,note');
    expect(csv.slice(1).map((l) => l.split(',').slice(1, 3).join(','))).toEqual(['count,-2', 'receive,30', 'count,5']);
    expect(csv[2]).toContain('Foilco delivery 77');

    // Back above its reorder point: Home no longer lists it.
    await staff.goto(`${base}/`);
    await staff.getByRole('heading', { name: 'Needs attention' }).first().waitFor();
    await expect.poll(() => staff.getByRole('link', { name: NAME }).count()).toBe(0);
    expect(foreign).toEqual([]);
  });
});
