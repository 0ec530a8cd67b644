// Issue 6 end to end: create a Card design, open the Editor tab, add a text layer bound to the line-item
// property "Recipient name" (sample "Sam") and an uploaded image, save in the editor → the Design screen
// reloads with 4 artwork pages. Then a signed Shopify order for that SKU with "Recipient name" =
// "Morgan Ashdown" → order-to-arwork → its print job's PDF (4 A5 pages), whose first page shows the
// customer's words (pixel comparison against the same design rendered without the property).
// The app must call no host but its own.
import fs from 'node:fs';
import path from 'node:path';
import { PDFDocument } from 'pdf-lib';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import type { Browser, BrowserContext, FrameLocator, Page } from 'playwright-core';
import { FORMATS, type DesignDocument, type Layer, type TextLayer } from '../common/design-doc/types';
import { createShopifySender, fakeOrder, type FakeOrder } from '../server/simulators/shopify';
import { expectCardPages, guardOwnHost, launch, SCREENSHOTS, shot, signIn } from './browser';

const base = inject('baseUrl');
const PASSWORD = 'presswork';
const ADMIN = 'admin@presswork.local';
const SHOP_DOMAIN = 'presswork-demo.myshopify.com';
const STAMP = Date.now().toString(36).toUpperCase();
const SECRET = `e2e-editor-${STAMP}`;
const DESIGN = { name: `E2E Personalised Card ${STAMP}`, sku: `E2E-CARD-${STAMP}` };
const PROPERTY = 'Recipient name';
const SAMPLE = 'Sam';
const CUSTOMER_WORDS = 'Morgan Ashdown';

let browser: Browser;
let context: BrowserContext;
let admin: Page;
let token: string;
const foreign: string[][] = [];
let designId: number;
let sender: ReturnType<typeof createShopifySender>;

interface Design {
  id: number;
  name: string;
  sku: string | null;
  productType: string | null;
  isCustomizable: boolean;
  image?: string | null;
  data: { artworkUrls?: string[]; document?: DesignDocument };
}
interface PrintJob {
  id: number;
  artworkUrls: string[];
  lineItemId: string | null;
  designId: number | null;
  data: Record<string, unknown>;
}

// ---------------------------------------------------------------------------------------------
// Helpers

async function tokenOf(email: string): Promise<string> {
  const res = await fetch(`${base}/api/users/login`, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify({ email, password: PASSWORD }) });
  const json = (await res.json()) as { success: boolean; data: { token: string }; error?: string };
  if (!json.success) throw new Error(`login ${email} → ${res.status} ${json.error}`);
  return json.data.token;
}

async function request(method: string, path: string, body?: unknown): Promise<Response> {
  return fetch(`${base}${path}`, {
    method,
    headers: { Authorization: `Bearer ${token}`, ...(body === undefined ? {} : { 'Content-Type': 'application/json' }) },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
}

/** The product API as the admin, envelope unwrapped. */
async function api<T>(method: string, path: string, body?: unknown): Promise<T> {
  const res = await request(method, path, body);
  const json = (await res.json()) as { success: boolean; data: T; error?: string };
  if (!json.success) throw new Error(`${method} ${path} → ${res.status} ${json.error}`);
  return json.data;
}

/** A binary answer (PDF, PNG), failing with the server's words otherwise. */
async function binary(method: string, path: string, body: unknown, type: string): Promise<Buffer> {
  const res = await request(method, path, body);
  if (!res.ok || !(res.headers.get('content-type') ?? '').startsWith(type)) throw new Error(`${method} ${path} → ${res.status} ${await res.text()}`);
  return Buffer.from(await res.arrayBuffer());
}

async function fileBytes(url: string): Promise<Buffer> {
  const res = await fetch(new URL(url, base));
  if (!res.ok) throw new Error(`GET ${url} → ${res.status}`);
  return Buffer.from(await res.arrayBuffer());
}

/** A 400 × 400 picture with a colour gradient (so it is not mistaken for a flat fill). */
async function photoPng(): Promise<Buffer> {
  const size = 400;
  const raw = Buffer.alloc(size * size * 3);
  for (let y = 0; y < size; y++) {
    for (let x = 0; x < size; x++) {
      const i = (y * size + x) * 3;
      raw[i] = Math.round((x / size) * 255);
      raw[i + 1] = 90;
      raw[i + 2] = Math.round((y / size) * 255);
    }
  }
  return sharp(raw, { raw: { width: size, height: size, channels: 3 } }).png().toBuffer();
}

interface Raw {
  data: Buffer;
  width: number;
  height: number;
}
const rgba = async (png: Buffer): Promise<Raw> => {
  const { data, info } = await sharp(png).ensureAlpha().raw().toBuffer({ resolveWithObject: true });
  return { data, width: info.width, height: info.height };
};

/** Pixels differing by more than `threshold` (any channel), inside and outside a box (px). */
function diffByRegion(a: Raw, b: Raw, box: { x0: number; y0: number; x1: number; y1: number }, threshold = 24) {
  let inside = 0;
  let outside = 0;
  let insideTotal = 0;
  let outsideTotal = 0;
  for (let y = 0; y < a.height; y++) {
    for (let x = 0; x < a.width; x++) {
      const i = (y * a.width + x) * 4;
      let d = 0;
      for (let c = 0; c < 4; c++) d = Math.max(d, Math.abs(a.data[i + c] - b.data[i + c]));
      const inBox = x >= box.x0 && x < box.x1 && y >= box.y0 && y < box.y1;
      if (inBox) insideTotal++;
      else outsideTotal++;
      if (d > threshold) {
        if (inBox) inside++;
        else outside++;
      }
    }
  }
  return { inside, outside, insideTotal, outsideTotal };
}

/** Mean absolute difference per channel (0..255) over the whole image. */
function meanDiff(a: Raw, b: Raw): number {
  let sum = 0;
  for (let i = 0; i < a.data.length; i++) sum += Math.abs(a.data[i] - b.data[i]);
  return sum / a.data.length;
}

/**
 * A screenshot of the viewport only. shot() takes the full page, which makes Chromium resize the
 * window for a moment; the Design screen re-renders on resize and remounts the editor frame, so
 * unsaved editor work is lost. Used while the editor holds unsaved changes.
 */
async function viewShot(page: Page, name: string): Promise<void> {
  fs.mkdirSync(SCREENSHOTS, { recursive: true });
  await page.screenshot({ path: path.join(SCREENSHOTS, `${name}.png`) });
}

const editor = (page: Page): FrameLocator => page.frameLocator('iframe[title="Design editor"]');

// ---------------------------------------------------------------------------------------------

beforeAll(async () => {
  token = await tokenOf(ADMIN);
  // The demo store's secret is masked in every answer: set a known one.
  const stores = (await (await request('GET', '/api/admin/stores')).json()) as Array<{ id: number; siteSlug: string }>;
  const demo = stores.find((s) => s.siteSlug === 'demo');
  expect(demo, 'the demo store').toBeTruthy();
  const res = await request('PUT', `/api/admin/stores/${demo!.id}`, { webhookSecret: SECRET });
  expect(res.status).toBe(200);
  sender = createShopifySender({ webhookUrl: `${base}/api/online-stores/shopify-webhook`, shopDomain: SHOP_DOMAIN, secret: SECRET, retryDelaysMs: [] });

  browser = await launch();
  context = await browser.newContext({ viewport: { width: 1440, height: 1000 } });
  admin = await context.newPage();
  foreign.push(guardOwnHost(admin, base));
  await signIn(admin, base, ADMIN, PASSWORD);
});
afterAll(async () => {
  await browser?.close();
});

describe('the design editor and personalised rendering in the browser', () => {
  it('create a Card design → Editor: text bound to "Recipient name" + an uploaded image → Save → 4 artwork pages', { timeout: 180_000 }, async () => {
    // Design Info first.
    await admin.goto(`${base}/design/new`);
    await admin.getByRole('tab', { name: 'Design Info', selected: true }).waitFor();
    await admin.getByRole('textbox', { name: 'Name' }).fill(DESIGN.name);
    await admin.getByRole('textbox', { name: 'SKU', exact: true }).fill(DESIGN.sku);
    await admin.getByRole('combobox', { name: 'Product type' }).click();
    await admin.getByRole('option', { name: 'Card', exact: true }).click();
    const customizable = admin.getByLabel('Customizable', { exact: true });
    if (!(await customizable.isChecked())) await customizable.check();
    expect(await customizable.isChecked()).toBe(true);
    await admin.getByRole('button', { name: 'Save', exact: true }).click();
    await admin.getByText('Save design successfully', { exact: true }).waitFor();
    await admin.waitForURL((u) => /^\/design\/\d+$/.test(u.pathname));
    designId = Number(new URL(admin.url()).pathname.split('/').pop());
    await admin.getByRole('heading', { name: DESIGN.name, level: 1 }).waitFor();
    const created = await api<Design>('GET', `/api/designs/${designId}`);
    expect(created).toMatchObject({ sku: DESIGN.sku, productType: 'Card', isCustomizable: true });

    // The Editor tab: the framed editor on the card's 4 A5 pages.
    await admin.getByRole('tab', { name: 'Editor' }).click();
    await admin.getByRole('tab', { name: 'Editor', selected: true }).waitFor();
    const frame = editor(admin);
    await frame.getByRole('toolbar', { name: 'Editor tools' }).waitFor({ timeout: 30_000 });
    await frame.getByRole('status').filter({ hasText: 'All changes saved' }).waitFor();
    const panel = frame.getByRole('complementary', { name: 'Properties' });
    // The frame must stay in place while there is unsaved work (a remount loses it).
    let frameDetached = 0;
    const onDetached = () => frameDetached++;
    admin.on('framedetached', onDetached);

    // A text layer, its words, then bound to the order's "Recipient name" with the sample "Sam".
    await frame.getByRole('button', { name: 'Text', exact: true }).click();
    const text = panel.getByRole('textbox', { name: 'Text', exact: true });
    await text.waitFor();
    await text.fill('Dear friend');
    await panel.getByRole('list', { name: 'Layers' }).getByText('Dear friend', { exact: true }).waitFor();
    await panel.getByLabel('Text comes from the order').check();
    const property = panel.getByRole('textbox', { name: 'Line-item property' });
    await property.fill(PROPERTY);
    await panel.getByRole('textbox', { name: 'Sample value' }).fill(SAMPLE);
    expect(await property.inputValue()).toBe(PROPERTY);
    await panel.getByRole('list', { name: 'Layers' }).getByLabel('Personalisation field').waitFor();
    await frame.getByRole('status').filter({ hasText: 'Unsaved changes' }).waitFor();

    // An image, uploaded through the file picker, sent behind the text.
    const [chooser] = await Promise.all([admin.waitForEvent('filechooser'), frame.getByRole('button', { name: 'Image', exact: true }).click()]);
    await chooser.setFiles({ name: 'e2e-photo.png', mimeType: 'image/png', buffer: await photoPng() });
    await panel.getByRole('region', { name: 'Image' }).getByRole('button', { name: 'Replace image' }).waitFor({ timeout: 20_000 });
    await frame.getByRole('button', { name: 'Send to back' }).click();
    // Viewport only: a full-page screenshot resizes the window for a moment, and the Design screen
    // then remounts the editor frame, losing unsaved work (see viewShot).
    await viewShot(admin, 'editor-01-layers');

    expect(frameDetached, 'the editor frame was remounted while it had unsaved work').toBe(0);
    admin.off('framedetached', onDetached);

    // Save in the editor: the document, 4 print pages at 300 dpi and a preview.
    await frame.getByRole('button', { name: 'Save', exact: true }).click();
    await frame.getByText('Design saved, with its print artwork.', { exact: true }).waitFor({ timeout: 120_000 });
    await frame.getByRole('status').filter({ hasText: 'All changes saved' }).waitFor();
    await shot(admin, 'editor-02-saved');

    // The host reloaded the design: Design Info shows the 4 artwork pages.
    await admin.getByRole('tab', { name: 'Design Info' }).click();
    await admin.getByRole('tab', { name: 'Design Info', selected: true }).waitFor();
    await expect.poll(() => admin.getByRole('img', { name: /^Artwork page \d+$/ }).count(), { timeout: 15_000 }).toBe(4);
    for (let i = 1; i <= 4; i++) {
      const img = admin.getByRole('img', { name: `Artwork page ${i}`, exact: true });
      await img.scrollIntoViewIfNeeded();
      await expect.poll(() => img.evaluate((el) => (el as HTMLImageElement).complete && (el as HTMLImageElement).naturalWidth > 0)).toBe(true);
    }
    await admin.getByRole('button', { name: 'Add to print jobs' }).waitFor();
    await shot(admin, 'editor-03-design-info-artwork');

    // And on the server.
    const saved = await api<Design>('GET', `/api/designs/${designId}`);
    expect(saved.data.artworkUrls).toHaveLength(4);
    const doc = saved.data.document!;
    expect(doc).toBeTruthy();
    expect(doc.format).toBe('card-a5');
    expect(doc.pages).toHaveLength(4);
    const layers = doc.pages[0].layers;
    const field = layers.find((l): l is TextLayer => l.type === 'text' && l.field?.property === PROPERTY);
    expect(field, `a text layer bound to "Recipient name" in ${JSON.stringify(layers)}`).toBeTruthy();
    expect(field!.field).toMatchObject({ property: PROPERTY, sample: SAMPLE });
    expect(field!.text).toBe(SAMPLE);
    const image = layers.find((l) => l.type === 'image');
    expect(image, 'an image layer').toBeTruthy();
    expect((image as Extract<Layer, { type: 'image' }>).src).toMatch(/\/files\//);
    expect(layers.indexOf(image!)).toBeLessThan(layers.indexOf(field!)); // behind the text
    // Print resolution: 300 dpi over the trim box plus bleed.
    const spec = FORMATS['card-a5'];
    const page1 = await sharp(await fileBytes(saved.data.artworkUrls![0])).metadata();
    expect(page1.width).toBeCloseTo(((spec.width + 2 * spec.bleed) * 300) / 25.4, -1);
    expect(page1.height).toBeCloseTo(((spec.height + 2 * spec.bleed) * 300) / 25.4, -1);
  });

  it('a Shopify order with "Recipient name" → order-to-arwork → a 4-page card PDF (A5 + bleed) showing the customer\'s words', { timeout: 180_000 }, async () => {
    expect(designId, 'the design of the first test').toBeTruthy();
    const seed = Date.now() % 1_000_000_007;
    const made = fakeOrder(seed, { skus: [DESIGN.sku], lineCount: 1, orderNumber: 60_000 + (seed % 9_000), withCustomer: true, withAddress: true });
    const order: FakeOrder = { ...made, line_items: made.line_items.map((l) => ({ ...l, quantity: 1, properties: [{ name: PROPERTY, value: CUSTOMER_WORDS }] })) };
    const line = order.line_items[0];
    const sent = await sender.sendOrder(order);
    expect(sent.status).toBe(200);
    // Processing follows the 200: wait until the order is stored.
    await expect
      .poll(async () => (await api<Array<{ type?: string }>>('POST', '/api/online-stores/check-order', { id: order.id })).length, { timeout: 15_000 })
      .toBeGreaterThan(0);

    const out = await api<{ jobs: PrintJob[]; skipped: Array<{ lineId: string; reason: string }> }>('POST', '/api/online-stores/shopify-webhook/order-to-arwork', { id: order.id });
    expect(out.skipped).toEqual([]);
    expect(out.jobs).toHaveLength(1);
    const job = out.jobs[0];
    expect(job).toMatchObject({ lineItemId: line.id, designId });
    expect(job.data).toMatchObject({ personalised: true });
    expect(job.data.needsReview).toBeFalsy();
    expect(job.artworkUrls).toHaveLength(4);

    // The print file: 4 card pages.
    const pdfBytes = await binary('POST', '/api/pdf/from-print-job', { id: job.id }, 'application/pdf');
    expect(pdfBytes.subarray(0, 5).toString('latin1')).toBe('%PDF-');
    const pdf = await PDFDocument.load(pdfBytes);
    expect(pdf.getPageCount()).toBe(4);
    expectCardPages(pdf);

    // The customer's words are on page 1: the job's page differs from the design drawn without the
    // property (its sample "Sam") inside the text box, and matches it everywhere else.
    const design = await api<Design>('GET', `/api/designs/${designId}`);
    const field = design.data.document!.pages[0].layers.find((l) => l.type === 'text' && l.field?.property === PROPERTY)!;
    const personalised = await rgba(await fileBytes(job.artworkUrls[0]));
    const reference = await rgba(await binary('POST', '/api/images/from-polotno', { designId, page: 1, values: {} }, 'image/png'));
    expect([personalised.width, personalised.height]).toEqual([reference.width, reference.height]);
    const spec = FORMATS['card-a5'];
    const pxPerMm = personalised.width / (spec.width + 2 * spec.bleed);
    const margin = 2; // mm around the box: antialiasing, glyph overhang
    const box = {
      x0: Math.floor((field.x + spec.bleed - margin) * pxPerMm),
      y0: Math.floor((field.y + spec.bleed - margin) * pxPerMm),
      x1: Math.ceil((field.x + field.width + spec.bleed + margin) * pxPerMm),
      y1: Math.ceil((field.y + field.height + spec.bleed + margin) * pxPerMm),
    };
    const d = diffByRegion(personalised, reference, box);
    expect(d.inside, 'pixels changed inside the text box').toBeGreaterThan(500);
    expect(d.outside / d.outsideTotal, 'share of pixels changed outside the text box').toBeLessThan(0.0005);
    await sharp(personalised.data, { raw: { width: personalised.width, height: personalised.height, channels: 4 } })
      .extract({ left: box.x0, top: box.y0, width: box.x1 - box.x0, height: box.y1 - box.y0 })
      .png()
      .toFile(path.join(SCREENSHOTS, 'editor-04-personalised-text-box.png'));

    // The server's render of the design agrees with the editor's (the design's own page 1, sample "Sam").
    const editorPage = await rgba(await fileBytes(design.data.artworkUrls![0]));
    expect([editorPage.width, editorPage.height]).toEqual([reference.width, reference.height]);
    expect(meanDiff(editorPage, reference), 'mean difference, editor vs server render').toBeLessThan(2);
  });

  it('the app called no host but its own', () => {
    expect(foreign.flat()).toEqual([]);
  });
});
