// Issue 2 end to end: sign-in and its validation, home, sites and users, white label, sign-out,
// protected pages redirecting with `redirect`. The app must call no host but its own.
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { expectFailedRequest, guardOwnHost, launch, shot } from './browser';

const base = inject('baseUrl');
let browser: Browser;
let context: BrowserContext;
let page: Page;
let foreign: string[];

beforeAll(async () => {
  browser = await launch();
  context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
  page = await context.newPage();
  foreign = guardOwnHost(page, base);
});
afterAll(async () => {
  await browser?.close();
});

async function fillLogin(p: Page, email: string, password: string) {
  await p.getByLabel('Email').fill(email);
  await p.getByLabel('Password').fill(password);
  await p.getByRole('button', { name: 'Sign in' }).click();
}

describe('foundation in the browser', () => {
  it('sends a signed-out visitor of a protected page to /login with redirect', async () => {
    await page.goto(`${base}/sites?page=1`);
    await page.waitForURL(/\/login/);
    const url = new URL(page.url());
    expect(url.searchParams.get('redirect')).toBe('/sites?page=1');
    await expect.poll(() => page.title()).toBe('Login | Presswork');
    await shot(page, 'foundation-01-login');
  });

  it('sends a signed-out visitor of any screen of the menu to /login, never showing the screen', async () => {
    // Screens with no resource list of their own (the scan station, Needs attention, the manual) too.
    for (const path of ['/scan', '/attention', '/manual', '/print-jobs', '/batches', '/check-order']) {
      await page.goto(`${base}${path}`);
      await page.waitForURL(/\/login/);
      expect(new URL(page.url()).searchParams.get('redirect')).toBe(path);
    }
    // The next test signs in from where the first one left the visitor.
    await page.goto(`${base}/sites?page=1`);
    await page.waitForURL(/\/login/);
  });

  it('asks for both fields, shows the server error as-is, then signs in and returns to the page', async () => {
    await page.getByRole('button', { name: 'Sign in' }).click();
    await expect(page.getByText('Please input your email and password').waitFor()).resolves.toBeUndefined();
    expectFailedRequest(page, '/api/users/login', 401);
    await fillLogin(page, 'admin@presswork.local', 'not-the-password');
    await page.getByText('Wrong email or password').waitFor();
    await fillLogin(page, 'admin@presswork.local', 'presswork');
    await page.getByText(/^Welcome, Dana/).first().waitFor();
    await shot(page, 'foundation-02-welcome');
    await page.waitForURL((u) => u.pathname === '/sites' && u.search === '?page=1', { timeout: 10_000 });
    await page.getByText('Hope Harbour Charity').waitFor();
    await expect.poll(() => page.title()).toBe('List Sites | Presswork');
    await shot(page, 'foundation-03-sites');
  });

  it('draws the shell: 55.3 px header with search and user, 188 px sidebar, Raleway, the admin menu', async () => {
    const m = await page.evaluate(() => ({
      header: document.querySelector('.RaAppBar-toolbar')?.getBoundingClientRect().height,
      sidebar: document.querySelector('.RaSidebar-fixed')?.getBoundingClientRect().width,
      font: getComputedStyle(document.body).fontFamily,
      raleway: document.fonts.check('16px Raleway'),
    }));
    expect(m.header).toBeCloseTo(55.3, 1);
    expect(m.sidebar).toBe(188);
    expect(m.font).toMatch(/Raleway/);
    expect(m.raleway).toBe(true);
    await page.getByPlaceholder(/search/i).waitFor();
    await page.getByText('Dana Admin').waitFor();
    await page.getByRole('menuitem', { name: 'List Sites' }).waitFor();
  });

  it("greets on Home, whose manual link opens the operator's guide", async () => {
    await page.getByRole('menuitem', { name: 'Home' }).click();
    await page.getByText('Welcome, Dana').waitFor();
    await page.getByRole('link', { name: 'manual' }).click();
    await page.waitForURL(/\/manual$/);
    await page.getByRole('heading', { name: "Operator's guide", level: 1 }).waitFor();
    expect(await page.getByRole('heading', { name: '2. Store orders reach Jobs' }).count()).toBe(1);
  });

  it('creates a site (slug checked), adds a user with a mismatched then a good confirmation', async () => {
    await page.goto(`${base}/sites`);
    await page.getByRole('link', { name: /add site/i }).click();
    await page.waitForURL(/\/sites\/new$/);
    await page.getByRole('textbox', { name: 'Name' }).fill('Acme Cards');
    await page.getByRole('textbox', { name: 'Slug' }).fill('Acme Cards!');
    await page.getByRole('button', { name: 'Save' }).click();
    expect(new URL(page.url()).pathname).toBe('/sites/new');
    await page.getByRole('textbox', { name: 'Slug' }).fill('acme-cards');
    await page.getByRole('button', { name: 'Save' }).click();
    await page.waitForURL(/\/sites\/\d+$/);
    await page.getByText('Users', { exact: true }).waitFor();

    await page.getByRole('button', { name: 'Add user' }).click();
    const dialog = page.getByRole('dialog');
    await dialog.getByLabel('First name').fill('Alex');
    await dialog.getByLabel('Last name').fill('Printer');
    await dialog.getByLabel('Email').fill('alex@acme.test');
    await dialog.getByLabel('Password', { exact: true }).fill('printing-is-fun');
    await dialog.getByLabel('Confirm password').fill('printing-is-fn');
    await dialog.getByRole('button', { name: 'Save' }).click();
    await page.getByText('Confirm password not match').waitFor();
    await shot(page, 'foundation-04-confirm-mismatch');
    expect(await dialog.isVisible()).toBe(true);
    await dialog.getByLabel('Confirm password').fill('printing-is-fun');
    await dialog.getByRole('button', { name: 'Save' }).click();
    await dialog.waitFor({ state: 'hidden' });
    await page.getByText('alex@acme.test').waitFor();
    await shot(page, 'foundation-05-user-added');
  });

  it('asks before Back drops typed edits of a site; No keeps them, Yes leaves', async () => {
    const editUrl = page.url();
    await page.getByRole('textbox', { name: 'Name' }).fill('Acme Cards Ltd');
    const asked: string[] = [];
    page.once('dialog', (d) => {
      asked.push(d.message());
      void d.dismiss();
    });
    await page.goBack();
    await expect.poll(() => asked.length).toBe(1);
    expect(asked[0]).toMatch(/changes weren't saved/);
    // The blocked Back is undone: the address returns to the form.
    await expect.poll(() => page.url()).toBe(editUrl);
    expect(await page.getByRole('textbox', { name: 'Name' }).inputValue()).toBe('Acme Cards Ltd');
    page.once('dialog', (d) => {
      asked.push(d.message());
      void d.accept();
    });
    await page.goBack();
    await expect.poll(() => asked.length).toBe(2);
    await page.waitForURL(/\/sites\/new$/);
    await expect.poll(() => page.getByRole('textbox', { name: 'Name' }).inputValue()).toBe('');
  });

  it('signs out from the header; the new user signs in on the new site with its default black theme', async () => {
    await page.getByRole('button', { name: 'Logout' }).click();
    await page.waitForURL(/\/login/);
    await fillLogin(page, 'alex@acme.test', 'printing-is-fun');
    await page.waitForURL((u) => u.pathname === '/', { timeout: 10_000 });
    await page.getByText('Welcome, Alex').waitFor();
    const bar = await page.evaluate(() => getComputedStyle(document.querySelector('.RaAppBar-toolbar')!.parentElement!).backgroundColor);
    expect(bar).toBe('rgb(0, 0, 0)');
    await expect(page.getByRole('menuitem', { name: 'List Sites' }).count()).resolves.toBe(0);
    await page.goto(`${base}/sites`);
    await page.getByText('Access denied').first().waitFor();
  });

  it('takes the white-label colour of the signed-in user\'s site', async () => {
    await page.getByRole('button', { name: 'Logout' }).click();
    await page.waitForURL(/\/login/);
    await fillLogin(page, 'staff@hopeharbour.local', 'presswork');
    await page.waitForURL((u) => u.pathname === '/', { timeout: 10_000 });
    await page.getByText('Hope Harbour Charity').first().waitFor();
    const bar = await page.evaluate(() => getComputedStyle(document.querySelector('.RaAppBar-toolbar')!.parentElement!).backgroundColor);
    expect(bar).toBe('rgb(30, 136, 229)'); // #1e88e5
    await shot(page, 'foundation-06-white-label');
  });

  it('skips the welcome animation below 480 px', async () => {
    const narrow = await browser.newContext({ viewport: { width: 400, height: 800 } });
    const p = await narrow.newPage();
    await p.goto(`${base}/login`);
    await fillLogin(p, 'staff@presswork.local', 'presswork');
    await p.waitForURL((u) => u.pathname === '/', { timeout: 3_000 });
    await expect(p.getByText(/^Welcome, Sam/).count()).resolves.toBeLessThanOrEqual(1);
    await narrow.close();
  });

  it('made no request to any other host', () => {
    expect(foreign).toEqual([]);
  });
});
