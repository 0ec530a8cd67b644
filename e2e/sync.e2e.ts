// Issue 5 end to end: the RE & Adestra sync screen of the charity site (hope-harbour, backed by the
// loopback CRM and email-platform simulators): menu entry, title and the four areas, the two
// validations (no call made), a single sync of a real CRM constituent, the Export 80 hour, running
// an export file, the Export 92 heading; a user of a site without the sync has no menu entry.
// The app must call no host but its own.
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import type { Browser, BrowserContext, Page, Request } from 'playwright-core';
import { formatDate } from '../admin/src/lib/format';
import { guardOwnHost, launch, shot, signIn } from './browser';

const base = inject('baseUrl');
const PASSWORD = 'presswork';
const CHARITY_STAFF = 'staff@hopeharbour.local';
const DEMO_STAFF = 'staff@presswork.local';
const ADMIN = 'admin@presswork.local';
const SITE = 'hope-harbour';
const SYNC_PATH = '/re-n-adestra-sync';

let browser: Browser;
let context: BrowserContext;
let page: Page;
const foreign: string[][] = [];
/** Every request the charity staff's page made (for "no call was made" checks). */
const requests: string[] = [];

beforeAll(async () => {
  browser = await launch();
  context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
  page = await context.newPage();
  foreign.push(guardOwnHost(page, base));
  page.on('request', (req: Request) => void requests.push(req.url()));
  await signIn(page, base, CHARITY_STAFF, PASSWORD);
});
afterAll(async () => {
  await browser?.close();
});

// ---------------------------------------------------------------------------------------------
// Helpers

/** A token of `email`, straight from the login call (for API checks outside the browser). */
async function tokenOf(email: string): Promise<string> {
  const res = await fetch(`${base}/api/users/login`, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify({ email, password: PASSWORD }) });
  const json = (await res.json()) as { success: boolean; data: { token: string }; error?: string };
  if (!json.success) throw new Error(`login ${email} → ${res.status} ${json.error}`);
  return json.data.token;
}

/** The product API with `token`, envelope unwrapped. */
async function api<T>(token: string, method: string, path: string, body?: unknown): Promise<T> {
  const res = await fetch(`${base}${path}`, {
    method,
    headers: { Authorization: `Bearer ${token}`, ...(body === undefined ? {} : { 'Content-Type': 'application/json' }) },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const json = (await res.json()) as { success: boolean; data: T; error?: string };
  if (!json.success) throw new Error(`${method} ${path} → ${res.status} ${json.error}`);
  return json.data;
}

interface SimConstituent {
  id: string;
  name: string;
  inactive: boolean;
  deceased: boolean;
  requests_no_email: boolean;
  email: { address: string; inactive: boolean; do_not_email: boolean } | null;
}
interface SimConsent {
  channel: string;
  category: string;
  consent_date: string;
  constituent_consent_response: 'OptIn' | 'OptOut' | 'NoResponse';
}

/** A GET of the CRM (the simulator) through the admin's connectivity test call. */
async function crmGet<T>(adminToken: string, path: string): Promise<T> {
  const answer = await api<{ ok: boolean; status: number; body: T }>(adminToken, 'POST', '/api/test/raiser-edge/call', { site: SITE, path });
  expect(answer.ok, `CRM GET ${path} → ${answer.status}`).toBe(true);
  return answer.body;
}

/** The first demo supporter (ids 1000–1299) who would be opted in: usable email, latest Email consent OptIn. */
async function findOptedInSupporter(adminToken: string) {
  for (let id = 1000; id < 1060; id++) {
    const c = await crmGet<SimConstituent>(adminToken, `/constituent/v1/constituents/${id}`);
    if (!c.email || c.email.inactive || c.email.do_not_email || c.inactive || c.deceased || c.requests_no_email) continue;
    const consents = await crmGet<{ value: SimConsent[] }>(adminToken, `/commpref/v1/constituents/${id}/consents?channels=Email`);
    const latest = consents.value[0];
    if (latest?.constituent_consent_response === 'OptIn') return { id: String(id), name: c.name, email: c.email.address, consent: latest };
  }
  throw new Error('no opted-in supporter among the first 60 demo constituents');
}

/** The single-check result card as label → text. */
async function resultCard(p: Page): Promise<Record<string, string>> {
  return p.getByTestId('sync-result').evaluate((dl) => {
    const out: Record<string, string> = {};
    for (const dt of Array.from(dl.querySelectorAll('dt'))) out[dt.textContent ?? ''] = (dt.nextElementSibling as HTMLElement | null)?.innerText.trim() ?? '';
    return out;
  });
}

async function openArea(p: Page, area: 're' | 'unsubscribe' | 'export80' | 'export92', view?: 'single' | 'day' | 'logs') {
  await p.goto(`${base}${SYNC_PATH}?tab=${area}${view ? `&view=${view}` : ''}`);
  await p.getByRole('tabpanel').first().waitFor();
}

// ---------------------------------------------------------------------------------------------

describe('RE & Adestra sync in the browser', () => {
  it('the charity staff has the menu entry; the screen has its title and the four areas', async () => {
    const entry = page.getByRole('menuitem', { name: 'RE & Adestra Sync' });
    await entry.waitFor();
    await entry.click();
    await page.waitForURL((u) => u.pathname === SYNC_PATH);
    await expect.poll(() => page.title()).toBe('RE & Adestra Sync | Presswork');
    await page.getByRole('heading', { name: 'RE & Adestra Sync', exact: true, level: 1 }).waitFor();

    const areas = page.getByRole('tablist', { name: 'Sync areas' }).getByRole('tab');
    await areas.first().waitFor();
    expect(await areas.allTextContents()).toEqual(['RE to Adestra', 'Unsubscribe sync', 'Sync Export 80', 'Sync Export 92']);
    await page.getByRole('tab', { name: 'RE to Adestra', selected: true }).waitFor();
    // The first area: its three sub-tabs, single check first.
    const views = page.getByRole('tablist', { name: 'RE to Adestra' }).getByRole('tab');
    expect(await views.allTextContents()).toEqual(['Single check', 'Sync by day', 'Execution logs']);
    await page.getByRole('tab', { name: 'Single check', selected: true }).waitFor();
    await page.getByRole('textbox', { name: 'RE constituent ID' }).waitFor();
    await shot(page, 'sync-01-screen');

    // Each area opens from its tab.
    await page.getByRole('tab', { name: 'Unsubscribe sync' }).click();
    await page.getByRole('heading', { name: 'Adestra Unsubscribe Sync', exact: true }).waitFor();
    await page.getByRole('tab', { name: 'Sync Export 80' }).click();
    await page.getByRole('heading', { name: 'Adestra Export80 Sync RE Configuration', exact: true }).waitFor();
    await page.getByRole('tab', { name: 'Sync Export 92' }).click();
    await page.getByRole('heading', { name: 'Adestra Export92 Sync RE Configuration', exact: true }).waitFor();
    expect(new URL(page.url()).searchParams.get('tab')).toBe('export92');
  });

  it('single sync with an empty id says "Please enter RE constitunent id" and calls nothing', async () => {
    await openArea(page, 're', 'single');
    const id = page.getByRole('textbox', { name: 'RE constituent ID' });
    await id.waitFor();
    const before = requests.length;
    await page.getByRole('button', { name: 'Sync', exact: true }).click();
    await page.getByText('Please enter RE constitunent id', { exact: true }).waitFor();
    expect(await id.getAttribute('aria-invalid')).toBe('true');
    // Blanks only are empty too.
    await id.fill('   ');
    await page.getByRole('button', { name: 'Sync', exact: true }).click();
    await page.getByText('Please enter RE constitunent id', { exact: true }).waitFor();
    await shot(page, 'sync-02-single-empty');
    expect(requests.slice(before).filter((u) => u.includes('raiser-edge-sync-one'))).toEqual([]);
    expect(await page.getByTestId('sync-result').count()).toBe(0);
  });

  it('sync by day with an empty date says "Please enter the date" and calls nothing', async () => {
    await page.getByRole('tab', { name: 'Sync by day' }).click();
    await page.getByRole('tab', { name: 'Sync by day', selected: true }).waitFor();
    const day = page.getByLabel('Day', { exact: true });
    await day.waitFor();
    expect(await day.inputValue()).toBe('');
    const before = requests.length;
    await page.getByRole('button', { name: 'Sync', exact: true }).click();
    await page.getByText('Please enter the date', { exact: true }).waitFor();
    expect(await day.getAttribute('aria-invalid')).toBe('true');
    await shot(page, 'sync-03-day-empty');
    expect(requests.slice(before).filter((u) => u.includes('raiser-edge-sync-list-from-specific-day'))).toEqual([]);
    expect(await page.getByTestId('day-run').count()).toBe(0);
  });

  it('single sync of a supporter of the CRM shows the result: name, email, consent, opted in', async () => {
    const admin = await tokenOf(ADMIN);
    const who = await findOptedInSupporter(admin);

    await openArea(page, 're', 'single');
    await page.getByRole('textbox', { name: 'RE constituent ID' }).fill(who.id);
    await page.getByRole('button', { name: 'Sync', exact: true }).click();
    await page.getByTestId('sync-result').waitFor({ timeout: 20_000 });
    const card = await resultCard(page);
    expect(card).toMatchObject({
      Constituent: `${who.name} (#${who.id})`,
      Email: who.email,
      Category: 'Newsletter',
      Consent: `OptIn (${formatDate(who.consent.consent_date)})`,
    });
    expect(card.Action).toMatch(/^Opted in\s+Email consent: opt-in$/);
    expect(card.Adestra).not.toBe('No contact in Adestra');
    await shot(page, 'sync-04-single-result');

    // Logged as a successful run of that constituent.
    const staffToken = await page.evaluate(() => localStorage.getItem('token'));
    const runs = await api<{ list: Array<{ field1: string; field2: string; status: string; data: { results: Array<{ email: string; action: string }> } }> }>(
      staffToken!,
      'GET',
      `/api/sites/${SITE}/raiser-edge-sync/list?kind=one&field1=${who.id}`,
    );
    expect(runs.list.length).toBeGreaterThanOrEqual(1);
    expect(runs.list[0]).toMatchObject({ field1: who.id, field2: 'one', status: 'success' });
    expect(runs.list[0].data.results[0]).toMatchObject({ email: who.email, action: 'opted-in' });
  });

  it('Export 80: a saved hour says "Sync config saved" and is still there after a reload', async () => {
    // An hour that is neither the default (4) nor about to fire during the run.
    let h = (new Date().getUTCHours() + 12) % 24;
    if (h === 4) h = 5;
    const hour = String(h);

    await openArea(page, 'export80');
    await page.getByRole('heading', { name: 'Adestra Export80 Sync RE Configuration', exact: true }).waitFor();
    const field = page.getByRole('textbox', { name: 'Hour (24h format)' });
    await expect.poll(() => field.inputValue()).toBe('4'); // the default, loaded
    await field.fill(hour);
    await page.getByRole('button', { name: 'Save', exact: true }).click();
    await page.getByText('Sync config saved', { exact: true }).waitFor();
    await shot(page, 'sync-05-hour-saved');

    await page.reload();
    await page.getByRole('heading', { name: 'Adestra Export80 Sync RE Configuration', exact: true }).waitFor();
    await expect.poll(() => page.getByRole('textbox', { name: 'Hour (24h format)' }).inputValue()).toBe(hour);
    // Stored on the server, for this job only.
    const token = (await page.evaluate(() => localStorage.getItem('token')))!;
    expect((await api<{ hour: string }>(token, 'GET', `/api/sites/${SITE}/sync-config/export80`)).hour).toBe(hour);
    expect((await api<{ hour: string }>(token, 'GET', `/api/sites/${SITE}/sync-config/export92`)).hour).toBe('6');
  });

  it('Export 80: running a dropped export file shows "Done at …" on its row, also after a reload', async () => {
    await openArea(page, 'export80');
    const table = page.getByRole('table', { name: 'Exported files' });
    await table.waitFor();
    await page.getByRole('columnheader', { name: 'File name', exact: true }).waitFor();
    await page.getByRole('columnheader', { name: 'Status', exact: true }).waitFor();
    // The demo dropped the files of the last two days; take one not processed yet.
    const runnable = table.getByRole('row').filter({ has: page.getByRole('button', { name: 'Run', exact: true }) });
    await runnable.first().waitFor();
    const testId = (await runnable.first().getAttribute('data-testid'))!;
    expect(testId).toMatch(/^file-export_80_\d{8}\.csv$/);
    const name = testId.slice('file-'.length);
    const row = page.getByTestId(testId);
    await row.getByText('Unprocessed', { exact: true }).waitFor();
    expect(await row.getByText(/^Done at/).count()).toBe(0);

    await row.getByRole('button', { name: 'Run', exact: true }).click();
    const done = row.getByText(/^Done at \d{2}\/\d{2}\/\d{4} \d{2}:\d{2}$/);
    await done.waitFor({ timeout: 30_000 });
    await row.getByRole('button', { name: 'Re-process', exact: true }).waitFor();
    expect(await row.getByRole('button', { name: 'Run', exact: true }).count()).toBe(0);
    await page.getByText(new RegExp(`^${name.replace('.', '\\.')} processed: `)).first().waitFor();
    await shot(page, 'sync-06-export-done');

    // The server kept it: a fresh load shows the same row done.
    await page.reload();
    await page.getByTestId(testId).getByText(/^Done at \d{2}\/\d{2}\/\d{4} \d{2}:\d{2}$/).waitFor();
    const token = (await page.evaluate(() => localStorage.getItem('token')))!;
    const handled = await api<{ list: Array<{ name: string; status: string; doneAt: string | null }> }>(token, 'GET', `/api/sites/${SITE}/list-handle-export80`);
    const rec = handled.list.find((f) => f.name === name);
    expect(rec).toMatchObject({ name, status: 'success' });
    expect(rec!.doneAt).toBeTruthy();
  });

  it('Export 92: the heading reads "Adestra Export92 Sync RE Configuration"', async () => {
    await openArea(page, 'export92');
    const heading = page.getByRole('heading', { level: 2 });
    await heading.first().waitFor();
    expect(await heading.allTextContents()).toEqual(['Adestra Export92 Sync RE Configuration']);
    await page.getByRole('tab', { name: 'Sync Export 92', selected: true }).waitFor();
    await page.getByRole('textbox', { name: 'Hour (24h format)' }).waitFor();
    await expect.poll(() => page.getByRole('textbox', { name: 'Hour (24h format)' }).inputValue()).toBe('6');
    await shot(page, 'sync-07-export92');
  });

  it('a user of the demo site (no sync) has no "RE & Adestra Sync" menu entry', async () => {
    const demoContext = await browser.newContext({ viewport: { width: 1280, height: 900 } });
    const demo = await demoContext.newPage();
    foreign.push(guardOwnHost(demo, base));
    await signIn(demo, base, DEMO_STAFF, PASSWORD);
    // The menu is drawn once the site is known (its name in the header).
    await demo.getByText('Presswork Demo').first().waitFor();
    await demo.getByRole('menuitem', { name: 'Jobs' }).waitFor();
    expect(await demo.getByRole('menuitem', { name: 'RE & Adestra Sync' }).count()).toBe(0);
    expect(await demo.getByText('RE & Adestra Sync').count()).toBe(0);
    await shot(demo, 'sync-08-demo-staff-menu');
    await demoContext.close();
  });

  it('made no request to any other host', () => {
    expect(foreign.flat()).toEqual([]);
  });
});
