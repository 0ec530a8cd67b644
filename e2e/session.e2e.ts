// Back after sign-out: the protected screen the user left must give way to the sign-in form at
// once, not to a "Loading..." shell (measured before the fix: 11.5 s on /all-orders).
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { launch, signIn } from './browser';

const base = inject('baseUrl');
let browser: Browser;

beforeAll(async () => {
  browser = await launch();
});
afterAll(async () => {
  await browser?.close();
});

async function signOutThenBack(page: Page, path: string, title: string) {
  await page.goto(`${base}${path}`);
  await expect.poll(() => page.title(), { timeout: 15_000 }).toBe(`${title} | Presswork`);
  await page.getByRole('button', { name: 'Logout' }).click();
  await page.getByLabel('Email').waitFor();
  await page.goBack();
}

describe('signing out', () => {
  it.each([
    ['/all-orders', 'List Orders'],
    ['/sites', 'List Sites'],
    ['/print-jobs', 'Jobs'],
  ])('Back to %s after sign-out shows the sign-in form at once, keeping where to return', async (path, title) => {
    const page = await browser.newPage({ viewport: { width: 1280, height: 800 } });
    await signIn(page, base, 'admin@presswork.local', 'presswork');
    await signOutThenBack(page, path, title);
    // A short wait on purpose: the form must show without the seconds of "Loading..." there were.
    await page.getByLabel('Email').waitFor({ timeout: 2_000 });
    expect(await page.getByRole('button', { name: 'Sign in' }).isVisible()).toBe(true);
    expect(new URL(page.url()).searchParams.get('redirect')).toBe(path);
    await page.close();
  });
});
