// Issue 3 end to end: the Jobs queue (PDF download, "Have you printed?" ✓/✗, Print History and Reprint),
// production notes, designs (create, artwork, Add to print jobs), who sees which designs, the small-screen
// message of the Design screen. The app must call no host but its own.
import fs from 'node:fs/promises';
import { PDFDocument } from 'pdf-lib';
import sharp from 'sharp';
import { pagePixelSize } from '../common/design-doc/render';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import type { Browser, BrowserContext, Locator, Page } from 'playwright-core';
import { fakeOrder } from '../server/simulators/shopify';
import { apiAs, expectCardPages, guardOwnHost, launch, shot, signIn } from './browser';
import { demoStoreSender } from './demoStore';

const base = inject('baseUrl');
const PASSWORD = 'presswork';
const STAFF = 'staff@presswork.local';
const ADMIN = 'admin@presswork.local';

const NEW_DESIGN = { name: 'E2E Greeting Card', sku: 'E2E-CARD-01' };
const ADMIN_DESIGN = { name: 'E2E Admin Only Poster', sku: 'E2E-ADMIN-01' };

let browser: Browser;
let staffContext: BrowserContext;
let staff: Page;
const foreign: string[][] = [];
let newDesignId: number;

beforeAll(async () => {
  browser = await launch();
  staffContext = await browser.newContext({ viewport: { width: 1280, height: 900 }, acceptDownloads: true });
  staff = await staffContext.newPage();
  foreign.push(guardOwnHost(staff, base));
  await signIn(staff, base, STAFF, PASSWORD);
});
afterAll(async () => {
  await browser?.close();
});

// ---------------------------------------------------------------------------------------------
// Helpers

/** The product API as the signed-in user of `page`, envelope unwrapped. */
const api = <T,>(page: Page, method: string, path: string, body?: unknown): Promise<T> => apiAs<T>(page, base, method, path, body);

/** Uploads a PNG through the presigned-URL flow and returns its /files/… address. */
async function uploadPng(page: Page, name: string, bytes: Buffer): Promise<string> {
  const signed = await api<string>(page, 'POST', '/api/users/me/get-upload-url', { serverSidePath: `e2e/${name}`, contentType: 'image/png' });
  expect(new URL(signed).host).toBe(new URL(base).host);
  const res = await fetch(signed, { method: 'PUT', headers: { 'Content-Type': 'image/png' }, body: new Uint8Array(bytes) });
  const json = (await res.json()) as { success: boolean; data: { url: string }; error?: string };
  if (!json.success) throw new Error(`upload ${name} → ${res.status} ${json.error}`);
  return json.data.url;
}

/** A card page of one colour as a printer wants it: 300 ppi, with its bleed (preflight passes it). */
function pagePng(background: string): Promise<Buffer> {
  const { width, height } = pagePixelSize({ format: 'card-a5' }, 300);
  return sharp({ create: { width, height, channels: 3, background } }).png().toBuffer();
}

/** The table row of the (only) job named `name` on the current list screen (chips such as "Reprint: …" may follow the name). */
function rowOf(page: Page, name: string): Locator {
  const escaped = name.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  return page.getByRole('row').filter({ has: page.getByRole('cell', { name: new RegExp(`^${escaped}( Reprint: .*)?$`) }) });
}

/** Pins a row by its job id, so later checks follow that job and not any row of the same name. */
async function pinRow(page: Page, name: string): Promise<{ testId: string; row: Locator }> {
  const row = rowOf(page, name);
  await row.first().waitFor();
  expect(await row.count()).toBe(1);
  const testId = (await row.getAttribute('data-testid'))!;
  expect(testId).toMatch(/^print-job-\d+$/);
  return { testId, row: page.getByTestId(testId) };
}

/** Opens a list screen and waits until the first page is shown (a row we know is there). */
async function openList(page: Page, path: '/print-jobs' | '/print-history', anyRow: string) {
  await page.goto(`${base}${path}`);
  await rowOf(page, anyRow).first().waitFor();
}

async function downloadPdf(page: Page, row: Locator) {
  const [download] = await Promise.all([page.waitForEvent('download'), row.getByRole('button', { name: 'PDF', exact: true }).click()]);
  return download;
}

/** Runs a wait; when it times out, says what the page showed instead (a rare flake left no trace). */
async function whatTheRowShows(page: Page, row: Locator, wait: () => Promise<unknown>) {
  try {
    await wait();
  } catch (error) {
    const rows = await page.locator('[data-testid^="print-job-"]').evaluateAll((els) => els.map((e) => `${e.getAttribute('data-testid')}: ${(e as HTMLElement).innerText.replace(/\s+/g, ' ')}`));
    await shot(page, 'print-failed-wait');
    throw new Error(`${(error as Error).message}\nrow count ${await row.count()}; rows shown:\n${rows.join('\n')}`);
  }
}

// ---------------------------------------------------------------------------------------------

describe('print production in the browser', () => {
  it('Jobs: PDF download (4 card pages, A5 trim + bleed), the 2 s tick, "Have you printed?" ✓ → Print History → Reprint → Jobs', async () => {
    await openList(staff, '/print-jobs', 'Thank You Leaves');
    await expect.poll(() => staff.title()).toBe('Jobs | Presswork');
    for (const col of ['Product', 'Preview', 'QTY', 'Created At', 'Time Since Order', 'Production Notes', 'PDF']) {
      await staff.getByRole('columnheader', { name: col, exact: true }).waitFor();
    }
    // Held back (not ready for print) and printed jobs are not in the queue.
    expect(await rowOf(staff, 'City Skyline Poster').count()).toBe(0);
    const { testId, row } = await pinRow(staff, 'Thank You Leaves');
    await row.getByRole('cell', { name: '5', exact: true }).waitFor();
    expect(await row.getByRole('textbox', { name: 'Production note for Thank You Leaves' }).inputValue()).toBe('Use the cream envelopes.');
    await shot(staff, 'print-01-jobs');

    const download = await downloadPdf(staff, row);
    expect(download.suggestedFilename()).toBe('print-file.pdf');
    // The tick, for about 2 seconds, then the question.
    await row.getByRole('status').filter({ hasText: 'Downloaded' }).waitFor();
    const tickAt = Date.now();
    await row.getByLabel('PDF downloaded').waitFor();
    expect(await row.getByText('Have you printed?').count()).toBe(0);
    await shot(staff, 'print-02-downloaded-tick');
    await row.getByText('Have you printed?', { exact: true }).waitFor({ timeout: 5_000 });
    expect(Date.now() - tickAt).toBeGreaterThanOrEqual(1_500);
    expect(await row.getByRole('status').count()).toBe(0);
    await shot(staff, 'print-03-have-you-printed');

    const bytes = await fs.readFile((await download.path())!);
    expect(bytes.subarray(0, 5).toString('latin1')).toBe('%PDF-');
    const pdf = await PDFDocument.load(bytes);
    expect(pdf.getPageCount()).toBe(4);
    expectCardPages(pdf);

    // ✓: the row leaves Jobs (server-side too: a fresh load does not list it).
    await whatTheRowShows(staff, row, () => row.getByRole('button', { name: 'Yes, printed' }).waitFor({ timeout: 15_000 }));
    await row.getByRole('button', { name: 'Yes, printed' }).click();
    await staff.getByText('Marked as printed').waitFor();
    await row.waitFor({ state: 'detached' });
    await openList(staff, '/print-jobs', 'Morning Mug');
    expect(await staff.getByTestId(testId).count()).toBe(0);

    // Print History lists it, with Reprint as the last column.
    await openList(staff, '/print-history', 'City Skyline Poster');
    await expect.poll(() => staff.title()).toBe('Print History | Presswork');
    const headers = await staff.getByRole('columnheader').allInnerTexts();
    expect(headers.at(-1)).toBe('Reprint');
    const printed = staff.getByTestId(testId);
    await printed.waitFor();
    expect(await printed.getByRole('cell', { name: 'Thank You Leaves', exact: true }).count()).toBe(1);
    // Most recently printed first.
    expect(await staff.getByRole('row').nth(1).getAttribute('data-testid')).toBe(testId);
    await shot(staff, 'print-04-history');

    // Reprint asks why and who is responsible.
    await printed.getByRole('button', { name: 'Reprint', exact: true }).click();
    const why = staff.getByRole('dialog');
    await why.getByRole('radio', { name: 'Print defect' }).check();
    await why.getByRole('radio', { name: 'Shop' }).check();
    await why.getByRole('textbox', { name: /Note/ }).fill('Colours came out dark');
    await shot(staff, 'print-04b-reprint-reason');
    await why.getByRole('button', { name: 'Confirm' }).click();
    await staff.getByText('Sent back to Jobs for reprint').waitFor();
    await printed.waitFor({ state: 'detached' });
    await openList(staff, '/print-history', 'City Skyline Poster');
    expect(await staff.getByTestId(testId).count()).toBe(0);

    // Back in Jobs, waiting for a fresh download.
    await openList(staff, '/print-jobs', 'Morning Mug');
    const back = staff.getByTestId(testId);
    await back.getByRole('button', { name: 'PDF', exact: true }).waitFor();
    expect(await back.getByText('Have you printed?').count()).toBe(0);
    // It says why it is back.
    await back.getByText('Reprint: Print defect (shop)', { exact: true }).waitFor();
    await shot(staff, 'print-05-back-in-jobs');
  });

  it('Jobs: ✗ on "Have you printed?" resets the job (stays in Jobs, PDF button back, also after reload)', async () => {
    await openList(staff, '/print-jobs', 'Morning Mug');
    const { testId, row } = await pinRow(staff, 'Morning Mug');
    const download = await downloadPdf(staff, row);
    expect(download.suggestedFilename()).toBe('print-file.pdf');
    await row.getByText('Have you printed?', { exact: true }).waitFor({ timeout: 5_000 });
    await row.getByRole('button', { name: 'No, not printed' }).click();
    await row.getByRole('button', { name: 'PDF', exact: true }).waitFor();
    expect(await row.getByText('Have you printed?').count()).toBe(0);

    // The server recorded it: a reload shows the PDF button, not the question of a downloaded job.
    await openList(staff, '/print-jobs', 'Thank You Leaves');
    const reloaded = staff.getByTestId(testId);
    await reloaded.getByRole('button', { name: 'PDF', exact: true }).waitFor();
    expect(await reloaded.getByText('Have you printed?').count()).toBe(0);
    // A job downloaded earlier still asks after a reload (the seeded Birthday Balloons one).
    await rowOf(staff, 'Birthday Balloons').getByText('Have you printed?', { exact: true }).waitFor();
    await shot(staff, 'print-06-after-cross');
  });

  it('Jobs fits a 1280 × 800 laptop, as an admin (Client column) and as staff: nothing scrolls sideways', async () => {
    const adminContext = await browser.newContext({ viewport: { width: 1280, height: 800 } });
    const admin = await adminContext.newPage();
    foreign.push(guardOwnHost(admin, base));
    await signIn(admin, base, ADMIN, PASSWORD);
    for (const [who, page] of [['admin', admin], ['staff', staff]] as const) {
      await page.setViewportSize({ width: 1280, height: 800 });
      // The widest rows are here: one asks "Have you printed?" (seeded), one says why it is back (the first test).
      await openList(page, '/print-jobs', 'Birthday Balloons');
      await rowOf(page, 'Birthday Balloons').getByText('Have you printed?', { exact: true }).waitFor();
      await page.getByText('Reprint: Print defect (shop)', { exact: true }).first().waitFor();
      expect(await page.getByRole('columnheader', { name: 'Client', exact: true }).count()).toBe(who === 'admin' ? 1 : 0);
      const table = page.getByRole('table', { name: 'Print jobs' });
      const fit = await table.evaluate((t) => {
        const box = t.parentElement!;
        return { scroll: box.scrollWidth, client: box.clientWidth, page: document.documentElement.scrollWidth };
      });
      expect(fit.scroll, `${who}: the table is wider than its card`).toBeLessThanOrEqual(fit.client);
      expect(fit.page, `${who}: the page scrolls sideways`).toBeLessThanOrEqual(1280);
      // The row's last actions (✓ ✗, delete) are on the screen.
      const row = rowOf(page, 'Birthday Balloons');
      for (const action of [row.getByRole('button', { name: 'Yes, printed' }), row.getByRole('button', { name: /^Delete / })]) {
        const box = (await action.boundingBox())!;
        expect(box.x + box.width).toBeLessThanOrEqual(1280);
      }
      await shot(page, `print-06b-jobs-1280-${who}`);
    }
    await staff.setViewportSize({ width: 1280, height: 900 });
    await adminContext.close();
  });

  it('Print History fits a 1280 × 800 laptop as an admin, with a long store order name: nothing scrolls sideways', async () => {
    // A store order whose name is long (a shop with an order-name prefix and suffix), printed in house.
    const adminContext = await browser.newContext({ viewport: { width: 1280, height: 800 } });
    const admin = await adminContext.newPage();
    foreign.push(guardOwnHost(admin, base));
    await signIn(admin, base, ADMIN, PASSWORD);
    const adminToken = (await admin.evaluate(() => localStorage.getItem('token')))!;
    const sender = await demoStoreSender(base, adminToken, `e2e-print-history-${Date.now().toString(36)}`);
    const seed = (Date.now() + 31) % 1_000_000_007;
    const made = fakeOrder(seed, { skus: ['DEMO-POSTER-01'], lineCount: 1, orderNumber: 40_000 + (seed % 9_000), withCustomer: true, withAddress: true, financialStatus: 'paid' });
    const longName = `#HOPE-HARBOUR-${made.order_number}-GIFT-UK`;
    const order = { ...made, name: longName, line_items: made.line_items.map((l) => ({ ...l, quantity: 1, current_quantity: 1, fulfillable_quantity: 1 })) };
    expect((await sender.sendOrder(order)).status).toBe(200);
    // Its job, made as the order screen's "order to artwork" does (the order is stored once its delivery is processed).
    for (let tries = 0; ; tries++) {
      try {
        await api(staff, 'POST', '/api/online-stores/shopify-webhook/order-to-arwork', { id: order.id });
        break;
      } catch (error) {
        if (tries > 120) throw error;
        await new Promise((r) => setTimeout(r, 250));
      }
    }
    const { list } = await api<{ list: Array<{ id: number }> }>(staff, 'GET', `/api/print-jobs/from-shopify-order/${order.id}`);
    expect(list).toHaveLength(1);
    await api(staff, 'POST', '/api/print-jobs', { id: list[0].id, isPDFDownloaded: true });
    await api(staff, 'POST', '/api/print-jobs', { id: list[0].id, isPrinted: true });

    // Most recently printed first: the long-named order's row is on the first page.
    await admin.goto(`${base}/print-history`);
    const row = admin.getByRole('row').filter({ has: admin.getByRole('cell', { name: longName, exact: true }) });
    await row.waitFor();
    expect(await admin.getByRole('columnheader', { name: 'Client', exact: true }).count()).toBe(1);
    const table = admin.getByRole('table', { name: 'Print jobs' });
    const fit = await table.evaluate((t) => {
      const box = t.parentElement!;
      // The table fills its card; how narrow it can get (every column at its narrowest) is its room to spare.
      const full = t.style.width;
      t.style.width = 'min-content';
      const narrowest = t.getBoundingClientRect().width;
      t.style.width = full;
      return { scroll: box.scrollWidth, client: box.clientWidth, narrowest, page: document.documentElement.scrollWidth };
    });
    expect(fit.scroll, 'the table is wider than its card').toBeLessThanOrEqual(fit.client);
    expect(fit.page, 'the page scrolls sideways').toBeLessThanOrEqual(1280);
    // Room to spare, not a few pixels: a longer product or client name still fits.
    expect(fit.narrowest + 32, `at its narrowest the table (${Math.round(fit.narrowest)} px) leaves under 32 px of its card (${fit.client} px)`).toBeLessThanOrEqual(fit.client);
    // The row's last action, Reprint (the spec's last column), is on the screen.
    const reprint = (await row.getByRole('button', { name: 'Reprint', exact: true }).boundingBox())!;
    expect(reprint.x + reprint.width).toBeLessThanOrEqual(1280);
    await shot(admin, 'print-06c-history-1280-admin');
    await adminContext.close();
  });

  it('Production note: saved on Enter and on blur, still there after a reload', async () => {
    await openList(staff, '/print-jobs', 'Morning Mug');
    const note = () => staff.getByRole('textbox', { name: 'Production note for Morning Mug' });
    expect(await note().inputValue()).toBe('Handle print was off-centre; reprint.'); // the seeded note

    await note().fill('Glaze check before packing');
    await note().press('Enter');
    await rowOf(staff, 'Morning Mug').getByText('Saved', { exact: true }).waitFor();
    await rowOf(staff, 'Morning Mug').getByLabel('Note saved').waitFor();
    expect(await note().inputValue()).toBe('Glaze check before packing'); // Enter saved, no new line
    await shot(staff, 'print-07-note-saved');
    await staff.reload();
    await expect.poll(() => note().inputValue()).toBe('Glaze check before packing');

    // Changed again and left with Tab (blur): the same note record is updated.
    await note().fill('Glaze check before packing; gift box');
    await note().press('Tab');
    await rowOf(staff, 'Morning Mug').getByText('Saved', { exact: true }).waitFor();
    await staff.reload();
    await expect.poll(() => note().inputValue()).toBe('Glaze check before packing; gift box');
    // The other job's note is untouched.
    expect(await staff.getByRole('textbox', { name: 'Production note for Thank You Leaves' }).inputValue()).toBe('Use the cream envelopes.');
  });

  it('Design: Create → save Design Info first → /design/<id> → listed; Add to print jobs once it has artwork', async () => {
    await staff.goto(`${base}/designs`);
    await expect.poll(() => staff.title()).toBe('Product Designs | Presswork');
    await staff.getByRole('heading', { name: 'Birthday Balloons' }).waitFor();
    await staff.getByRole('link', { name: 'Create' }).click();
    await staff.waitForURL((u) => u.pathname === '/design/new');
    await staff.getByRole('tab', { name: 'Design Info', selected: true }).waitFor();
    await staff.getByText('Please save Design info and continue', { exact: true }).waitFor();
    // The Editor tab stays closed for a new design: the alert stays, Design Info stays selected.
    await staff.getByRole('tab', { name: 'Editor' }).click();
    await staff.getByRole('tab', { name: 'Design Info', selected: true }).waitFor();
    await staff.getByText('Please save Design info and continue', { exact: true }).waitFor();
    const name = staff.getByRole('textbox', { name: 'Name' });
    expect(await name.inputValue()).toBe('Untitled design');
    await shot(staff, 'print-08-new-design');

    await name.fill(NEW_DESIGN.name);
    await staff.getByRole('textbox', { name: 'SKU', exact: true }).fill(NEW_DESIGN.sku);
    await staff.getByRole('combobox', { name: 'Product type' }).click();
    await staff.getByRole('option', { name: 'Card', exact: true }).click();
    await staff.getByRole('button', { name: 'Save', exact: true }).click();
    await staff.getByText('Save design successfully', { exact: true }).waitFor();
    await staff.waitForURL((u) => /^\/design\/\d+$/.test(u.pathname));
    newDesignId = Number(new URL(staff.url()).pathname.split('/').pop());
    await staff.getByRole('heading', { name: NEW_DESIGN.name, level: 1 }).waitFor();
    const saved = await api<{ name: string; sku: string; productType: string; isCustomizable: boolean }>(staff, 'GET', `/api/designs/${newDesignId}`);
    expect(saved).toMatchObject({ name: NEW_DESIGN.name, sku: NEW_DESIGN.sku, productType: 'Card', isCustomizable: true });
    // No artwork yet: no Add to print jobs.
    expect(await staff.getByRole('button', { name: 'Add to print jobs' }).count()).toBe(0);
    await shot(staff, 'print-09-design-saved');

    await staff.goto(`${base}/designs`);
    const card = staff.getByTestId('design-card').filter({ has: staff.getByRole('heading', { name: NEW_DESIGN.name }) });
    await card.waitFor();
    await card.getByText(`SKU: ${NEW_DESIGN.sku}`, { exact: true }).waitFor();

    // Artwork through the API: 4 uploaded pages, then data.artworkUrls.
    const colours = ['#c62828', '#ffffff', '#fff8e1', '#eeeeee'];
    const urls: string[] = [];
    for (const [i, colour] of colours.entries()) urls.push(await uploadPng(staff, `page-${i + 1}.png`, await pagePng(colour)));
    await api(staff, 'POST', '/api/designs', { id: newDesignId, data: { artworkUrls: urls } });

    await card.click();
    await staff.waitForURL((u) => u.pathname === `/design/${newDesignId}`);
    const add = staff.getByRole('button', { name: 'Add to print jobs' });
    await add.waitFor();
    await shot(staff, 'print-10-design-with-artwork');
    await add.click();
    await staff.getByText('Successfully added a print job', { exact: true }).waitFor();

    await openList(staff, '/print-jobs', NEW_DESIGN.name);
    const { row } = await pinRow(staff, NEW_DESIGN.name);
    await row.getByRole('cell', { name: '1', exact: true }).waitFor();
    await row.getByRole('button', { name: 'PDF', exact: true }).waitFor();
    await shot(staff, 'print-11-new-job');
    // Its artwork makes a valid print file too.
    const download = await downloadPdf(staff, row);
    const pdf = await PDFDocument.load(await fs.readFile((await download.path())!));
    expect(pdf.getPageCount()).toBe(4);
  });

  it('a non-admin sees only their own designs; an admin sees everyone\'s', async () => {
    const adminContext = await browser.newContext({ viewport: { width: 1280, height: 900 } });
    const admin = await adminContext.newPage();
    foreign.push(guardOwnHost(admin, base));
    await signIn(admin, base, ADMIN, PASSWORD);
    const made = await api<{ id: number; createdByUserId: number }>(admin, 'POST', '/api/designs', { ...ADMIN_DESIGN, productType: 'Poster' });
    expect(made.id).toBeGreaterThan(0);

    await admin.goto(`${base}/designs`);
    await admin.getByRole('heading', { name: ADMIN_DESIGN.name }).waitFor();
    await admin.getByRole('heading', { name: NEW_DESIGN.name }).waitFor();
    await shot(admin, 'print-12-designs-admin');
    await adminContext.close();

    await staff.goto(`${base}/designs`);
    await staff.getByRole('heading', { name: NEW_DESIGN.name }).waitFor();
    await staff.getByRole('heading', { name: 'Birthday Balloons' }).waitFor();
    expect(await staff.getByRole('heading', { name: ADMIN_DESIGN.name }).count()).toBe(0);
    // The seeded designs made by the admin are not the staff's either.
    expect(await staff.getByRole('heading', { name: 'Morning Mug' }).count()).toBe(0);
    await shot(staff, 'print-13-designs-staff');
  });

  it('shows "Please use bigger screen to see this page." on /design/<id> at 600 px', async () => {
    const narrow = await browser.newContext({ viewport: { width: 600, height: 900 } });
    const p = await narrow.newPage();
    foreign.push(guardOwnHost(p, base));
    await signIn(p, base, STAFF, PASSWORD);
    await p.goto(`${base}/design/${newDesignId}`);
    await p.getByText('Please use bigger screen to see this page.', { exact: true }).waitFor();
    expect(await p.getByRole('tab').count()).toBe(0);
    expect(await p.getByRole('button', { name: 'Add to print jobs' }).count()).toBe(0);
    await shot(p, 'print-14-small-screen');
    await narrow.close();
  });

  it('made no request to any other host', () => {
    expect(foreign.flat()).toEqual([]);
  });
});
