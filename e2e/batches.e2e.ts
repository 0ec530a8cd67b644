// Batches in the browser: two card jobs ticked on Jobs → Create batch → the batch's page → its
// sheets downloaded as batch-<number>.pdf → Mark printed (asked first) takes the jobs out of the
// Ready queue → Mark cut → Mark packed; the list and the page at phone width.
import fs from 'node:fs/promises';
import { PDFDocument } from 'pdf-lib';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { pagePixelSize } from '../common/design-doc/render';
import { apiAs, guardOwnHost, launch, shot, signIn } from './browser';

const base = inject('baseUrl');
const STAFF = 'staff@presswork.local';
const PASSWORD = 'presswork';
const PRODUCT = 'E2E Batch Robin Card';

let browser: Browser;
let context: BrowserContext;
let staff: Page;
const foreign: string[][] = [];

beforeAll(async () => {
  browser = await launch();
  context = await browser.newContext({ viewport: { width: 1280, height: 800 }, acceptDownloads: true });
  staff = await context.newPage();
  foreign.push(guardOwnHost(staff, base));
  await signIn(staff, base, STAFF, PASSWORD);
});
afterAll(async () => {
  await browser?.close();
});

/** The product API as the signed-in user of `page`, envelope unwrapped. */
const api = <T,>(page: Page, method: string, path: string, body?: unknown): Promise<T> => apiAs<T>(page, base, method, path, body);

/** A card job ready for print: four 300 ppi pages with bleed (preflight passes them). */
async function cardJob(page: Page): Promise<number> {
  const { width, height } = pagePixelSize({ format: 'card-a5' }, 300);
  const urls: string[] = [];
  for (const [i, background] of ['#c0392b', '#f5f5f5', '#f5f5f5', '#2c3e50'].entries()) {
    const bytes = await sharp({ create: { width, height, channels: 3, background } }).png().toBuffer();
    const signed = await api<string>(page, 'POST', '/api/users/me/get-upload-url', { serverSidePath: `e2e/batch-${Date.now()}-${i}.png`, contentType: 'image/png' });
    const put = await fetch(signed, { method: 'PUT', headers: { 'Content-Type': 'image/png' }, body: new Uint8Array(bytes) });
    urls.push(((await put.json()) as { data: { url: string } }).data.url);
  }
  const job = await api<{ id: number; held: boolean }>(page, 'POST', '/api/print-jobs', { productName: PRODUCT, artworkUrls: urls, quantity: 1 });
  expect(job.held).toBe(false);
  return job.id;
}

/** The page makes the window no wider than it is (phones scroll down, never sideways). */
async function expectNoSidewaysScroll(page: Page) {
  const { scroll, inner } = await page.evaluate(() => ({ scroll: document.documentElement.scrollWidth, inner: window.innerWidth }));
  expect(scroll).toBeLessThanOrEqual(inner);
}

describe('batches in the browser', () => {
  let batchPath = '';
  let jobIds: number[] = [];

  it('Jobs → Create batch → the batch page → Download sheets → Mark printed → out of the queue → Mark cut → Mark packed', async () => {
    jobIds = [await cardJob(staff), await cardJob(staff)];
    const strayId = await cardJob(staff);
    await staff.goto(`${base}/print-jobs`);
    for (const id of [...jobIds, strayId]) await staff.getByTestId(`print-job-${id}`).waitFor();
    for (const id of [...jobIds, strayId]) await staff.getByRole('checkbox', { name: `Select ${PRODUCT} #${id}` }).check();
    const toolbar = staff.getByRole('toolbar', { name: 'Bulk actions' });
    await toolbar.getByText('3 selected').waitFor();
    await toolbar.getByRole('button', { name: 'Create batch' }).click();
    const dialog = staff.getByRole('dialog', { name: 'Create a batch of 3 jobs' });
    await dialog.getByRole('radio', { name: 'SRA3 (320 × 450 mm)' }).check();
    await shot(staff, 'batches-01-create-dialog');
    await dialog.getByRole('button', { name: 'Create batch' }).click();
    await staff.waitForURL((u) => /^\/batches\/\d+$/.test(u.pathname));
    batchPath = new URL(staff.url()).pathname;

    const heading = staff.getByRole('heading', { level: 1, name: /^Batch \d+$/ });
    await heading.waitFor();
    const number = Number((await heading.textContent())!.replace('Batch ', ''));
    await expect.poll(() => staff.title()).toBe(`Batch ${number} | Presswork`);
    await staff.getByText('148 × 210 mm, 3 mm bleed', { exact: true }).waitFor();
    for (const id of jobIds) expect(await staff.getByTestId(`batch-job-${id}`).textContent()).toContain('In queue');
    await staff.getByText('SRA3', { exact: true }).waitFor();
    // Its sheet count, how to print its file and its barcode.
    await staff.getByText('2 sheets', { exact: true }).waitFor();
    await staff.getByText(/^Print two-sided \(duplex\), flip on the long edge/).waitFor();
    await staff.getByRole('img', { name: `Barcode PB-${number}` }).waitFor();
    await shot(staff, 'batches-02-batch-open');

    // One job printed by itself meanwhile (from Jobs): the page says it is not on the sheets any more.
    await api(staff, 'POST', '/api/print-jobs', { id: strayId, isPDFDownloaded: true });
    await api(staff, 'POST', '/api/print-jobs', { id: strayId, isPrinted: true });
    await staff.reload();
    const warning = staff.getByTestId('left-out');
    await warning.getByText('One job is not on the sheets any more').waitFor();
    await warning.getByText(new RegExp(`^#${strayId}, ${PRODUCT}: Already printed by Sam Staff at \\d\\d/\\d\\d/\\d{4}`)).waitFor();
    await staff.getByTestId(`batch-job-${strayId}`).getByText('Not on the sheets').waitFor();
    await staff.getByText('1 sheet', { exact: true }).waitFor();
    await shot(staff, 'batches-02b-batch-left-out');

    // The sheets: one PDF named after the batch, a cover and its blank back, then a front and a back.
    const [download] = await Promise.all([staff.waitForEvent('download'), staff.getByRole('button', { name: 'Download sheets' }).click()]);
    expect(download.suggestedFilename()).toBe(`batch-${number}.pdf`);
    const bytes = await fs.readFile((await download.path())!);
    expect(bytes.subarray(0, 5).toString('latin1')).toBe('%PDF-');
    expect((await PDFDocument.load(bytes)).getPageCount()).toBe(4);
    await staff.getByRole('button', { name: 'Download sheets' }).waitFor();

    // Mark printed asks first; then every job is printed by the operator.
    await staff.getByRole('button', { name: 'Mark printed' }).click();
    const confirm = staff.getByRole('dialog');
    await confirm.getByText(`Mark batch ${number} printed`).waitFor();
    await confirm.getByRole('button', { name: 'Mark printed' }).click();
    await staff.getByTestId('bulk-summary').getByText(/^2 marked printed; 1 refused/).waitFor();
    await staff.getByRole('button', { name: 'Mark cut' }).waitFor();
    for (const id of jobIds) await staff.getByTestId(`batch-job-${id}`).getByText(/^Printed by Sam Staff/).waitFor();
    await shot(staff, 'batches-03-batch-printed');

    // Gone from the Ready queue (the list is read again on arrival).
    await staff.goto(`${base}/print-jobs`);
    await staff.getByRole('tab', { name: 'Ready', selected: true }).waitFor();
    await staff.locator('[data-testid^="print-job-"]').first().waitFor();
    for (const id of jobIds) expect(await staff.getByTestId(`print-job-${id}`).count()).toBe(0);
    const queue = await api<{ list: Array<{ id: number }> }>(staff, 'GET', '/api/print-jobs?readyForPrint=1&isPrinted=0&pageSize=100');
    expect(queue.list.map((j) => j.id)).not.toContain(jobIds[0]);

    await staff.goto(`${base}${batchPath}`);
    await staff.getByRole('button', { name: 'Mark cut' }).click();
    await staff.getByRole('button', { name: 'Mark packed' }).click();
    await staff.getByTestId('step-packed').getByText(/^by Sam Staff/).waitFor();
    expect(await staff.getByRole('button', { name: /^Mark / }).count()).toBe(0);
    // Who packed it, on the page and on each job.
    await staff.locator('dt', { hasText: 'Packed' }).waitFor();
    for (const id of jobIds) await staff.getByTestId(`batch-job-${id}`).getByText(/^Packed by Sam Staff, \d\d\/\d\d\/\d{4}/).waitFor();
    await shot(staff, 'batches-04-batch-packed');

    // Listed under Packed, the tab in the address.
    await staff.goto(`${base}/batches`);
    await staff.getByRole('tab', { name: 'Packed' }).click();
    await staff.waitForURL((u) => u.search === '?state=packed');
    const row = staff.getByTestId(`batch-${batchPath.split('/').pop()}`);
    await row.getByRole('link', { name: `Batch ${number}` }).waitFor();
    expect(await row.textContent()).toContain('Packed by Sam Staff');
    await shot(staff, 'batches-05-list-packed');
    expect(foreign.flat()).toEqual([]);
  });

  it('at phone width the list is cards and the batch page fits the screen', async () => {
    expect(batchPath).not.toBe('');
    const phone = await browser.newPage({ viewport: { width: 390, height: 844 } });
    foreign.push(guardOwnHost(phone, base));
    await signIn(phone, base, STAFF, PASSWORD);
    await phone.goto(`${base}/batches?state=packed`);
    const card = phone.getByTestId(`batch-${batchPath.split('/').pop()}`);
    await card.waitFor();
    expect(await phone.getByRole('table').count()).toBe(0);
    await expectNoSidewaysScroll(phone);
    await shot(phone, 'batches-06-phone-list');
    await card.click();
    await phone.waitForURL((u) => u.pathname === batchPath);
    await phone.getByTestId(`batch-job-${jobIds[0]}`).waitFor();
    await expectNoSidewaysScroll(phone);
    await shot(phone, 'batches-07-phone-batch');
    await phone.close();
    expect(foreign.flat()).toEqual([]);
  });
});
