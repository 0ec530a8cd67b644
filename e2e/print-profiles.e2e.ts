// Setup → Print profiles in the browser: an admin uploads a printer's ICC output profile (built
// byte by byte by the server tests' fixture) and finds it listed by the name inside it; a file
// that is not a CMYK output profile is refused with the server's sentence.
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { iccProfile } from '../server/test/iccFixtures';
import { apiAs, expectFailedRequest, guardOwnHost, launch, shot, signIn } from './browser';

const base = inject('baseUrl');
const ADMIN = 'admin@presswork.local';
const PASSWORD = 'presswork';
const NAME = `E2E coated press ${Date.now().toString(36)}`;

let browser: Browser;
let admin: Page;
let foreign: string[];

beforeAll(async () => {
  browser = await launch();
  admin = await browser.newPage({ viewport: { width: 1280, height: 900 } });
  foreign = guardOwnHost(admin, base);
  await signIn(admin, base, ADMIN, PASSWORD);
});

afterAll(async () => {
  await browser?.close();
});

describe('Print profiles in the browser', () => {
  it('an admin uploads an ICC output profile from Setup and sees it listed by its own name', async () => {
    await admin.getByRole('menuitem', { name: 'Print profiles' }).click();
    await admin.waitForURL(`${base}/print-profiles`);
    const form = admin.getByRole('form', { name: 'Upload a print profile' });

    // A display (RGB monitor) profile is refused with the server's sentence.
    expectFailedRequest(admin, '/api/print-profiles', 400);
    await form.locator('input[type=file]').setInputFiles({ name: 'monitor.icc', mimeType: 'application/vnd.iccprofile', buffer: iccProfile({ name: 'A monitor', deviceClass: 'mntr', colourSpace: 'RGB ' }) });
    await form.getByRole('button', { name: 'Upload' }).click();
    await form.getByRole('alert').filter({ hasText: /output|CMYK|printer/i }).waitFor();

    await form.locator('input[type=file]').setInputFiles({ name: 'press.icc', mimeType: 'application/vnd.iccprofile', buffer: iccProfile({ name: NAME }) });
    await expect.poll(() => form.getByText('press.icc').count()).toBe(1);
    await form.getByRole('button', { name: 'Upload' }).click();
    await form.getByText(new RegExp(`“${NAME}” is profile \\d+\\.`)).waitFor();

    const row = admin.getByRole('table', { name: 'Print profiles' }).getByRole('row').filter({ hasText: NAME });
    await row.waitFor();
    expect(await row.innerText()).toMatch(/Every site\s+CMYK output, ICC v2/);
    await shot(admin, 'print-profiles-01-uploaded');
    expect(foreign).toEqual([]);
  });

  it("the site form's Press sheets and batching has the mug and poster sheets, mirroring and the roll", async () => {
    const me = await apiAs<{ siteId: number }>(admin, base, 'GET', '/api/users/me');
    await admin.goto(`${base}/sites/${me.siteId}`);
    const section = admin.getByRole('region', { name: 'Press sheets and batching' });
    // Closed until opened, as every section of the site form.
    await section.getByRole('button', { name: /^Press sheets and batching/ }).click();
    expect(await section.getByRole('list', { name: 'Mug transfer sheets' }).getByRole('textbox', { name: 'Sheet' }).count()).toBeGreaterThan(0);
    expect(await section.getByRole('list', { name: 'Poster sheets' }).getByRole('textbox', { name: 'Sheet' }).count()).toBeGreaterThan(0);
    await section.getByRole('switch', { name: 'Mirror mug transfers' }).waitFor();
    const roll = section.getByRole('textbox', { name: 'Poster roll width (mm)' });
    await roll.fill('5');
    await section.getByRole('alert').filter({ hasText: 'POSTER_ROLL_WIDTH_MM: "5" must be a roll width in millimetres' }).waitFor();
    await section.getByRole('list', { name: 'Mug transfer sheets' }).scrollIntoViewIfNeeded();
    await shot(admin, 'print-profiles-02-site-mug-poster-sheets');
    // Left unsaved.
    await roll.fill('');
  });
});
