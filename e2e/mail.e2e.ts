// The demo's caught e-mails end to end: the app started outside production runs the mail catcher
// and points the charity site (hope-harbour) at it; a test e-mail sent through POST
// /api/test/send-email with `to` shows on the admin's "Caught e-mails" page as received.
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import sharp from 'sharp';
import { createMailer } from '../server/src/integrations/mailer';
import { guardOwnHost, launch, shot, signIn, takeConsoleProblems } from './browser';

const base = inject('baseUrl');
const ADMIN = 'admin@presswork.local';
const PASSWORD = 'presswork';
const SITE = 'hope-harbour';

let browser: Browser;
let page: Page;
let foreign: string[];

beforeAll(async () => {
  browser = await launch();
  page = await (await browser.newContext({ viewport: { width: 1400, height: 1000 } })).newPage();
  foreign = guardOwnHost(page, base);
  await signIn(page, base, ADMIN, PASSWORD);
});
afterAll(async () => {
  await browser?.close();
});

async function adminToken(): Promise<string> {
  const res = await fetch(`${base}/api/users/login`, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify({ email: ADMIN, password: PASSWORD }) });
  return ((await res.json()) as { data: { token: string } }).data.token;
}

describe('Caught e-mails (demo mail catcher)', () => {
  it('a test e-mail to the charity site is caught and shown as received', async () => {
    const token = await adminToken();
    const res = await fetch(`${base}/api/test/send-email`, {
      method: 'POST',
      headers: { Authorization: `Bearer ${token}`, 'Content-Type': 'application/json' },
      body: JSON.stringify({ site: SITE, to: 'supporter@example.net' }),
    });
    const answer = (await res.json()) as { data: { ok: boolean; checks: Array<{ step: string; ok: boolean; url: string; error: string | null }> } };
    expect(answer.data.checks.map((c) => [c.step, c.ok, c.error])).toEqual([
      ['connection', true, null],
      ['test message', true, null],
    ]);
    expect(answer.data.checks[0].url).toMatch(/^smtp:\/\/demo-catcher@127\.0\.0\.1:\d+$/);

    await page.goto(`${base}/caught-emails`);
    // The admin menu lists the page while the catcher runs.
    await expect.poll(() => page.getByRole('menuitem', { name: 'Caught e-mails' }).count()).toBeGreaterThan(0);
    const row = page.getByRole('row', { name: /Presswork test message/ }).first();
    await row.waitFor();
    await expect.poll(() => row.textContent()).toContain('supporter@example.net');
    await row.click();
    const headers = page.getByRole('table', { name: 'Headers' });
    await headers.waitFor();
    expect(await headers.textContent()).toContain(`cards@${SITE}.example.org`);
    expect(await page.getByLabel('Plain text part').textContent()).toMatch(/This is a test message from Presswork/);
    const frame = page.frameLocator('iframe[title="HTML part"]');
    await expect.poll(() => frame.locator('p').textContent()).toMatch(/test message from Presswork/);
    expect(takeConsoleProblems()).toEqual([]);
    expect(foreign).toEqual([]);
  });

  it("an HTML message's inline (cid:) image is shown in the sandboxed frame", async () => {
    const token = await adminToken();
    const check = await fetch(`${base}/api/test/send-email`, { method: 'POST', headers: { Authorization: `Bearer ${token}`, 'Content-Type': 'application/json' }, body: JSON.stringify({ site: SITE }) });
    const port = new URL(((await check.json()) as { data: { checks: Array<{ url: string }> } }).data.checks[0].url).port;
    // The demo catcher's login (docs/admin-guide.md): an e-card-like message straight to it.
    const mailer = createMailer(`smtp://demo-catcher:demo@127.0.0.1:${port}`);
    const png = await sharp({ create: { width: 240, height: 160, channels: 3, background: '#2e7d32' } }).png().toBuffer();
    await mailer.send({
      from: { name: 'Hope Harbour Charity', address: `cards@${SITE}.example.org` },
      to: { name: 'Ann Recipient', address: 'ann@example.net' },
      subject: 'A card for you',
      text: 'Happy birthday, Ann!',
      html: '<h2>Happy birthday, Ann!</h2><img src="cid:front@presswork" alt="card front" width="240" height="160">',
      attachments: [{ filename: 'card.png', content: png, contentType: 'image/png', cid: 'front@presswork' }],
    });
    mailer.close();
    await page.getByRole('button', { name: 'Reload' }).click();
    const row = page.getByRole('row', { name: /A card for you/ }).first();
    await row.waitFor();
    await row.click();
    const img = page.frameLocator('iframe[title="HTML part"]').locator('img');
    await expect.poll(() => img.evaluate((el: HTMLImageElement) => el.complete && el.naturalWidth)).toBe(240);
    expect(await img.getAttribute('src')).toMatch(/^data:image\/png;base64,/);
    await shot(page, 'caught-emails');
    expect(takeConsoleProblems()).toEqual([]);
    expect(foreign).toEqual([]);
  });
});
