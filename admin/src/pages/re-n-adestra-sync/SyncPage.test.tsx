import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { User } from '../../../../common/api/sites';
import type { ProcessedFile, SyncResult, SyncRun } from '../../../../common/api/sync';
import { Menu } from '../../layout/Menu';
import { SiteInfoProvider } from '../../layout/SiteInfoContext';
import { formatDateTime } from '../../lib/format';
import { ADMIN, renderInAdmin, signIn, fakeFetch, USER, type RecordedCall } from '../../test/helpers';
import { RECORD_DEFAULTS } from '../../test/orders';
import { fail, ok, router } from '../../test/printProduction';
import { SyncPage } from './SyncPage';

const HOPE = { id: 2, name: 'Hope Harbour Charity', slug: 'hope-harbour', logo: null, theme: { mainColor: '#1e88e5' }, features: { sync: true } };
const DEMO = { id: 1, name: 'Presswork Demo', slug: 'demo', logo: null, theme: { mainColor: '#e91e63' }, features: { sync: false } };
const STAFF: User = { ...USER, id: 3, email: 'staff@hopeharbour.local', siteId: 2 };
const OTHER: User = { ...USER, id: 4, email: 'user@presswork.local', siteId: 1 };
const API = '/api/sites/hope-harbour';
const EXPORT_URL = 'http://adestra.test/exports/80';

const RESULT: SyncResult = {
  constituentId: '1005',
  name: 'Oliver Brown',
  email: 'oliver.brown.1005@example.org',
  category: 'Newsletter',
  consent: 'OptIn',
  consentDate: '2026-10-17T12:52:52.516Z',
  action: 'opted-in',
  reason: 'consent-opt-in',
  contactId: '1',
  link: 'http://adestra.test/contacts/1',
};

function run(overrides: Partial<SyncRun['data']> = {}, record: Partial<SyncRun> = {}): SyncRun {
  return {
    id: 31,
    type: 're-sync',
    field1: '2026-11-21',
    field2: 'day',
    name: 'manual',
    status: overrides.status ?? 'running',
    siteId: 2,
    ...RECORD_DEFAULTS,
    createdAt: '2026-11-22T00:31:15.417Z',
    data: {
      kind: 'day',
      trigger: 'manual',
      status: 'running',
      startedAt: '2026-11-22T00:31:15.417Z',
      finishedAt: null,
      results: [],
      errors: [],
      optInList: [],
      optOutList: [],
      progress: { pages: 0, seen: 0, total: null, matched: 0, done: 0, failed: 0 },
      ...overrides,
    },
    ...record,
  };
}

const CONFIGS = {
  list: [
    { job: 're-sync', type: 're-sync-config', id: null, hour: '19', targetDate: 'yesterday', updatedAt: null },
    { job: 'unsubscribe', type: 'adestra-unsubscribe-sync', id: null, hour: '2', targetDate: 'yesterday', updatedAt: null },
    { job: 'export80', type: 'adestra-export80-sync', id: null, hour: '4', targetDate: 'yesterday', updatedAt: null },
    { job: 'export92', type: 'adestra-export92-sync', id: null, hour: '6', targetDate: 'yesterday', updatedAt: null },
  ],
  links: { export80: EXPORT_URL, export92: 'http://adestra.test/exports/92' },
};

const jobStatus = (job: string, hour: string) => ({
  job,
  label: job,
  configType: job,
  hour,
  targetDate: 'yesterday',
  targetDay: '2026-11-21',
  nextRunAt: `2026-11-22T${hour.padStart(2, '0')}:00:00.000Z`,
  lastScheduledAt: null,
  lastRunAt: job === 'export80' ? '2026-11-21T04:00:00.000Z' : null,
  lastFinishedAt: null,
  lastStatus: job === 'export80' ? 'partial' : null,
  lastError: job === 'export80' ? 'adestra: network error' : null,
  lastRecordId: null,
  running: false,
});

const STATUS = { timezone: 'UTC', scheduler: true, now: '2026-11-22T00:31:15.227Z', jobs: CONFIGS.list.map((c) => jobStatus(c.job, c.hour)) };

const dropFile = (name: string) => ({
  name,
  kind: 'export80',
  day: '2026-11-21',
  size: 973,
  modifiedAt: '2026-11-22T00:31:01.528Z',
  status: 'unprocessed',
  doneAt: null,
  result: null,
  rowsDone: 0,
  rowsTotal: null,
  error: null,
});

const processed = (name: string, doneAt: string): ProcessedFile => ({
  id: name.length,
  name,
  day: '2026-11-21',
  status: 'success',
  doneAt,
  result: { rows: 12, rowsDone: 12, applied: 7, unchanged: 2, unmatched: 1, skipped: 2, errors: 0 },
  rowsDone: 12,
  rowsTotal: 12,
  unmatched: ['nobody@example.org'],
  error: null,
});

type Routes = Parameters<typeof router>[0];

const NOT_CONNECTED = { connected: false, needsReconnect: false, reason: null, connectedAt: null, environmentName: null };
const CONNECTED = { connected: true, needsReconnect: false, reason: null, connectedAt: '2026-11-22T00:00:00.000Z', environmentName: 'Hope Harbour RE' };
const REVOKED = { connected: false, needsReconnect: true, reason: 'the CRM refused the refresh token (400 invalid_grant)', connectedAt: '2026-11-01T00:00:00.000Z', environmentName: 'Hope Harbour RE' };

/** The sync calls of hope-harbour and the sites calls; `extra` adds or replaces routes. */
function syncRoutes(extra: Routes = {}): Routes {
  const defaults: Routes = {
    'GET /api/sites/info': (call) => ok({ data: call.url.includes('slug=demo') ? DEMO : HOPE }),
    'GET /api/sites?': () => ok({ list: [DEMO, HOPE], hasNext: false, total: 2 }),
    [`GET ${API}/sync-config`]: () => ok(CONFIGS),
    [`GET ${API}/sync-status`]: () => ok(STATUS),
    [`GET ${API}/raiser-edge-sync/list`]: () => ok({ list: [], hasNext: false, total: 0, page: 1 }),
    [`GET ${API}/list-file-export80`]: () => ok({ list: [dropFile('export_80_20261120.csv'), dropFile('export_80_20261121.csv')], hasNext: false, total: 2, exportUrl: EXPORT_URL }),
    [`GET ${API}/list-handle-export80`]: () => ok({ list: [], hasNext: false, total: 0 }),
    [`GET ${API}/list-file-export92`]: () => ok({ list: [], hasNext: false, total: 0, exportUrl: 'http://adestra.test/exports/92' }),
    [`GET ${API}/list-handle-export92`]: () => ok({ list: [], hasNext: false, total: 0 }),
    [`GET ${API}/raiser-edge/status`]: () => ok(NOT_CONNECTED),
    [`GET ${API}/raiser-edge-sync-day-preview`]: (call) => ok({ day: new URL(call.url, 'http://x').searchParams.get('day'), contacts: null, basis: null }),
  };
  return { ...defaults, ...extra };
}

function renderSync(path = '/re-n-adestra-sync') {
  return renderInAdmin(
    <SiteInfoProvider>
      <SyncPage />
    </SiteInfoProvider>,
    { path, routePath: '/re-n-adestra-sync' },
  );
}

const callsTo = (calls: RecordedCall[], method: string, path: string) => calls.filter((c) => c.method === method && c.url.startsWith(path));

beforeEach(() => signIn(ADMIN));
afterEach(() => {
  document.title = '';
});

describe('RE & Adestra Sync (/re-n-adestra-sync)', () => {
  it('lets an admin pick among the sites with the sync (the first by default) and shows the four areas', async () => {
    fakeFetch(router(syncRoutes(), ADMIN));
    renderSync();
    expect(await screen.findByRole('combobox', { name: 'Site' })).toHaveTextContent('Hope Harbour Charity');
    expect(screen.getAllByRole('tab').slice(0, 4).map((t) => t.textContent)).toEqual(['RE to Adestra', 'Unsubscribe sync', 'Sync Export 80', 'Sync Export 92']);
    expect(screen.getAllByRole('tab').slice(4).map((t) => t.textContent)).toEqual(['Single check', 'Sync by day', 'Execution logs']);
    expect(document.title).toBe('RE & Adestra Sync | Presswork');
    await userEvent.click(screen.getByRole('combobox', { name: 'Site' }));
    expect(screen.getAllByRole('option').map((o) => o.textContent)).toEqual(['Hope Harbour Charity']);
  });

  it('asks for the constituent id without calling the server', async () => {
    const user = userEvent.setup();
    const { calls } = fakeFetch(router(syncRoutes(), ADMIN));
    renderSync();
    await user.click(await screen.findByRole('button', { name: 'Sync' }));
    expect(await screen.findByText('Please enter RE constitunent id')).toBeInTheDocument();
    expect(callsTo(calls, 'POST', `${API}/raiser-edge-sync-one`)).toHaveLength(0);
  });

  it('syncs one constituent and shows email, category, consent, action and the Adestra contact link', async () => {
    const user = userEvent.setup();
    const { calls } = fakeFetch(
      router(syncRoutes({ [`POST ${API}/raiser-edge-sync-one`]: () => ok({ result: RESULT, run: run({ kind: 'one', status: 'success', results: [RESULT], finishedAt: '2026-11-22T00:31:15.480Z' }) }) }), ADMIN),
    );
    renderSync();
    await user.type(await screen.findByLabelText('RE constituent ID'), ' 1005 ');
    await user.click(screen.getByRole('button', { name: 'Sync' }));
    const result = await screen.findByTestId('sync-result');
    expect(callsTo(calls, 'POST', `${API}/raiser-edge-sync-one`)[0].body).toEqual({ constituent_id: '1005' });
    expect(within(result).getByText('oliver.brown.1005@example.org')).toBeInTheDocument();
    expect(within(result).getByText('Newsletter')).toBeInTheDocument();
    expect(within(result).getByText('OptIn (17/10/2026)')).toBeInTheDocument();
    expect(within(result).getByText('Opted in')).toBeInTheDocument();
    expect(within(result).getByText('Email consent: opt-in')).toBeInTheDocument();
    expect(within(result).getByRole('link', { name: /Contact in Adestra/ })).toHaveAttribute('href', 'http://adestra.test/contacts/1');
  });

  it("shows the server's refusal of a single sync", async () => {
    const user = userEvent.setup();
    fakeFetch(router(syncRoutes({ [`POST ${API}/raiser-edge-sync-one`]: () => fail('Constituent 99999 was not found in the CRM', 404) }), ADMIN));
    renderSync();
    await user.type(await screen.findByLabelText('RE constituent ID'), '99999');
    await user.click(screen.getByRole('button', { name: 'Sync' }));
    expect(await screen.findByText('Constituent 99999 was not found in the CRM')).toBeInTheDocument();
  });

  it('refuses a day in the future without calling the server', async () => {
    const user = userEvent.setup();
    const { calls } = fakeFetch(router(syncRoutes(), ADMIN));
    renderSync('/re-n-adestra-sync?view=day');
    const tomorrow = new Date(Date.now() + 86_400_000);
    const day = `${tomorrow.getFullYear()}-${String(tomorrow.getMonth() + 1).padStart(2, '0')}-${String(tomorrow.getDate()).padStart(2, '0')}`;
    fireEvent.change(await screen.findByLabelText('Day'), { target: { value: day } });
    await user.click(screen.getByRole('button', { name: 'Sync' }));
    expect(await screen.findByText('The date is in the future: no contact can have changed on that day yet')).toBeInTheDocument();
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
    expect(callsTo(calls, 'POST', `${API}/raiser-edge-sync-list-from-specific-day`)).toHaveLength(0);
  });

  it('asks for the date without calling the server, then starts the day and follows it to its results', async () => {
    const user = userEvent.setup();
    let polls = 0;
    const done = run({
      status: 'success',
      finishedAt: '2026-11-22T00:31:20.000Z',
      results: [RESULT],
      optInList: [RESULT.email!],
      progress: { pages: 2, seen: 40, total: 40, matched: 1, done: 1, failed: 0 },
    });
    const { calls } = fakeFetch(
      router(
        syncRoutes({
          [`POST ${API}/raiser-edge-sync-list-from-specific-day`]: () => ok({ run: run(), alreadyRunning: false }),
          [`GET ${API}/raiser-edge-sync/31`]: () => {
            polls++;
            return ok(polls === 1 ? run({ progress: { pages: 1, seen: 20, total: 40, matched: 1, done: 0, failed: 0 } }) : done);
          },
        }),
        ADMIN,
      ),
    );
    renderSync('/re-n-adestra-sync?view=day');
    await user.click(await screen.findByRole('button', { name: 'Sync' }));
    expect(await screen.findByText('Please enter the date')).toBeInTheDocument();
    expect(callsTo(calls, 'POST', `${API}/raiser-edge-sync-list-from-specific-day`)).toHaveLength(0);

    fireEvent.change(screen.getByLabelText('Day'), { target: { value: '2026-11-21' } });
    await user.click(screen.getByRole('button', { name: 'Sync' }));
    // It changes contacts: asked first; No sends nothing.
    const asked = await screen.findByRole('dialog', { name: 'Sync this day?' });
    expect(asked).toHaveTextContent('Every constituent modified on 21/11/2026 will be written to Adestra');
    await user.click(within(asked).getByRole('button', { name: 'Cancel' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    expect(callsTo(calls, 'POST', `${API}/raiser-edge-sync-list-from-specific-day`)).toHaveLength(0);
    await user.click(screen.getByRole('button', { name: 'Sync' }));
    const confirm = within(await screen.findByRole('dialog', { name: 'Sync this day?' })).getByRole('button', { name: 'Sync' });
    expect(confirm).toHaveClass('RaConfirm-confirmWarning');
    await user.click(confirm);
    expect(await screen.findByText('Sync of 21/11/2026')).toBeInTheDocument();
    expect(callsTo(calls, 'POST', `${API}/raiser-edge-sync-list-from-specific-day`)[0].body).toEqual({ day: '2026-11-21' });
    expect(await screen.findByText('20 / 40')).toBeInTheDocument();
    expect(await screen.findByTestId('result-1005')).toHaveTextContent('oliver.brown.1005@example.org');
    expect(screen.getByTestId('progress-done')).toHaveTextContent('1');
    expect(within(screen.getByRole('list', { name: 'Opt-in list' })).getByText(RESULT.email!)).toBeInTheDocument();
    const pollsAtEnd = polls;
    await new Promise((r) => setTimeout(r, 1300));
    expect(polls).toBe(pollsAtEnd); // no polling once the run ended
  });

  it('the question says how many contacts the sync changes when the server knows it', async () => {
    const user = userEvent.setup();
    const previews: Record<string, unknown> = {
      '2026-11-21': { day: '2026-11-21', contacts: 42, basis: 'webhooks' },
      '2026-11-20': { day: '2026-11-20', contacts: 1, basis: 'last-run' },
      '2026-11-19': { day: '2026-11-19', contacts: null, basis: null },
    };
    fakeFetch(
      router(
        syncRoutes({ [`GET ${API}/raiser-edge-sync-day-preview`]: (call) => ok(previews[new URL(call.url, 'http://x').searchParams.get('day') ?? '']) }),
        ADMIN,
      ),
    );
    renderSync('/re-n-adestra-sync?view=day');
    const ask = async (day: string) => {
      fireEvent.change(await screen.findByLabelText('Day'), { target: { value: day } });
      await user.click(screen.getByRole('button', { name: 'Sync' }));
      return screen.findByRole('dialog', { name: 'Sync this day?' });
    };
    const close = async (dialog: HTMLElement) => {
      await user.click(within(dialog).getByRole('button', { name: 'Cancel' }));
      await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    };
    let dialog = await ask('2026-11-21');
    await waitFor(() => expect(dialog).toHaveTextContent("Raiser's Edge reported changes to 42 contacts that day. Every constituent modified on 21/11/2026"));
    await close(dialog);
    dialog = await ask('2026-11-20');
    await waitFor(() => expect(dialog).toHaveTextContent('The last sync of this day changed 1 contact. Every constituent modified on 20/11/2026'));
    await close(dialog);
    dialog = await ask('2026-11-19');
    await waitFor(() => expect(dialog).not.toHaveTextContent('Counting'));
    expect(dialog).toHaveTextContent(/^Sync this day\?Every constituent modified on 19\/11\/2026/);
  });

  it('lists the runs in the execution logs and opens one', async () => {
    const user = userEvent.setup();
    const failed = run(
      { kind: 'one', status: 'partial', trigger: 'schedule', results: [RESULT], optInList: [RESULT.email!], optOutList: ['#1010'], errors: [{ constituentId: '1010', message: 'adestra: timeout' }] },
      { id: 40, field1: '1005', field2: 'one' },
    );
    fakeFetch(router(syncRoutes({ [`GET ${API}/raiser-edge-sync/list`]: () => ok({ list: [failed], hasNext: false, total: 1, page: 1 }) }), ADMIN));
    renderSync('/re-n-adestra-sync?view=logs');
    const row = await screen.findByTestId('run-40');
    expect(within(row).getByText('Scheduled')).toBeInTheDocument();
    expect(within(row).getByText('Partly done')).toBeInTheDocument();
    await user.click(row);
    expect(await screen.findByText(/#1010: adestra: timeout/)).toBeInTheDocument();
    expect(within(screen.getByRole('list', { name: 'Opt-out list' })).getByText('#1010')).toBeInTheDocument();
  });

  it('saves the hour of a job: "Sync config saved", with the hour as the payload', async () => {
    const user = userEvent.setup();
    const { calls } = fakeFetch(
      router(
        syncRoutes({
          [`POST ${API}/sync-config/export80`]: (call) => ok({ config: { ...CONFIGS.list[2], hour: (call.body as { hour: string }).hour }, message: 'Sync config saved' }),
        }),
        ADMIN,
      ),
    );
    renderSync('/re-n-adestra-sync?tab=export80');
    const hour = await screen.findByRole('textbox', { name: 'Hour (24h format)' });
    await waitFor(() => expect(hour).toHaveValue('4'));
    expect(screen.getByTestId('job-status-export80')).toHaveTextContent('adestra: network error');
    await user.clear(hour);
    await user.type(hour, '5');
    await user.click(screen.getByRole('button', { name: 'Save' }));
    expect(await screen.findByText('Sync config saved')).toBeInTheDocument();
    expect(callsTo(calls, 'POST', `${API}/sync-config/export80`)[0].body).toEqual({ hour: '5' });
  });

  it("shows the server's refusal of an hour", async () => {
    const user = userEvent.setup();
    fakeFetch(router(syncRoutes({ [`POST ${API}/sync-config/export80`]: () => fail('Hour must be a whole number from 0 to 23 (24h format)') }), ADMIN));
    renderSync('/re-n-adestra-sync?tab=export80');
    const hour = await screen.findByRole('textbox', { name: 'Hour (24h format)' });
    await waitFor(() => expect(hour).toHaveValue('4'));
    await user.clear(hour);
    await user.type(hour, '25');
    await user.click(screen.getByRole('button', { name: 'Save' }));
    expect((await screen.findAllByText('Hour must be a whole number from 0 to 23 (24h format)')).length).toBeGreaterThan(0);
    expect(screen.queryByText('Sync config saved')).not.toBeInTheDocument();
  });

  it('runs an export file: "Done at …", and the answer\'s listAlreadyProcess replaces the list', async () => {
    const user = userEvent.setup();
    const doneAt = '2026-11-22T09:15:00.000Z';
    const { calls } = fakeFetch(
      router(
        syncRoutes({
          [`POST ${API}/sync-single-export80`]: () =>
            ok({
              file: processed('export_80_20261121.csv', doneAt),
              alreadyProcessed: false,
              error: null,
              result: processed('x', doneAt).result,
              unmatched: ['nobody@example.org'],
              runId: 50,
              // The other file was processed meanwhile (by the schedule): the list says so.
              listAlreadyProcess: [processed('export_80_20261121.csv', doneAt), processed('export_80_20261120.csv', '2026-11-22T04:00:00.000Z')],
            }),
        }),
        ADMIN,
      ),
    );
    renderSync('/re-n-adestra-sync?tab=export80');
    expect(await screen.findByRole('heading', { name: 'Adestra Export80 Sync RE Configuration' })).toBeInTheDocument();
    expect(await screen.findByRole('link', { name: /Export 80 in Adestra/ })).toHaveAttribute('href', EXPORT_URL);
    expect(screen.getAllByRole('columnheader').map((h) => h.textContent)).toEqual(['File name', 'Status']);
    const row = await screen.findByTestId('file-export_80_20261121.csv');
    await user.click(within(row).getByRole('button', { name: 'Run' }));

    expect(await within(row).findByText(`Done at ${formatDateTime(doneAt)}`)).toBeInTheDocument();
    expect(within(row).getByText('12 rows · 7 applied · 2 unchanged · 1 unmatched · 2 skipped')).toBeInTheDocument();
    expect(within(row).getByText(/Not in the CRM: nobody@example.org/)).toBeInTheDocument();
    expect(within(row).getByRole('button', { name: 'Re-process' })).toBeInTheDocument();
    expect(callsTo(calls, 'POST', `${API}/sync-single-export80`)[0].body).toEqual({ name: 'export_80_20261121.csv' });
    const other = screen.getByTestId('file-export_80_20261120.csv');
    expect(within(other).getByText(`Done at ${formatDateTime('2026-11-22T04:00:00.000Z')}`)).toBeInTheDocument();
    expect(within(other).queryByRole('button', { name: 'Run' })).not.toBeInTheDocument();
    // The list came from the answer, not from reading the lists again.
    expect(callsTo(calls, 'GET', `${API}/list-handle-export80`)).toHaveLength(1);
  });

  it('shows a failed file with its error and lets it run again; a server error of a run is shown too', async () => {
    const user = userEvent.setup();
    const failedRecord: ProcessedFile = { ...processed('export_80_20261121.csv', ''), status: 'failed', doneAt: null, result: null, rowsDone: 5, error: 'raisers-edge: network error' };
    let attempt = 0;
    fakeFetch(
      router(
        syncRoutes({
          [`GET ${API}/list-handle-export80`]: () => ok({ list: [failedRecord], hasNext: false, total: 1 }),
          [`POST ${API}/sync-single-export80`]: () => (++attempt === 1 ? fail('export_80_20261121.csv is being processed right now; try again in a moment', 409) : undefined),
        }),
        ADMIN,
      ),
    );
    renderSync('/re-n-adestra-sync?tab=export80');
    const row = await screen.findByTestId('file-export_80_20261121.csv');
    expect(await within(row).findByText('raisers-edge: network error')).toBeInTheDocument();
    expect(within(row).getByText('5 / 12 rows done')).toBeInTheDocument();
    await user.click(within(row).getByRole('button', { name: 'Re-run' }));
    expect(await within(row).findByRole('alert')).toHaveTextContent('is being processed right now');
  });

  it('shows a file list that cannot be read', async () => {
    fakeFetch(router(syncRoutes({ [`GET ${API}/list-file-export80`]: () => fail('This site has no CRM sync', 404) }), ADMIN));
    renderSync('/re-n-adestra-sync?tab=export80');
    expect(await screen.findByText('This site has no CRM sync')).toBeInTheDocument();
  });

  it('headlines Export 92 as Export92 (not the original export80)', async () => {
    fakeFetch(router(syncRoutes(), ADMIN));
    renderSync('/re-n-adestra-sync?tab=export92');
    expect(await screen.findByRole('heading', { name: 'Adestra Export92 Sync RE Configuration' })).toBeInTheDocument();
    expect(screen.queryByText(/Export80/)).not.toBeInTheDocument();
    expect(await screen.findByRole('link', { name: /Export 92 in Adestra/ })).toHaveAttribute('href', 'http://adestra.test/exports/92');
    expect(await screen.findByText('No files in the drop folder yet')).toBeInTheDocument();
  });

  it("gives a charity-site user their own site's sync, without a site selector", async () => {
    signIn(STAFF);
    const { calls } = fakeFetch(router(syncRoutes(), STAFF));
    renderSync();
    expect(await screen.findByRole('tab', { name: 'RE to Adestra' })).toBeInTheDocument();
    expect(screen.queryByRole('combobox', { name: 'Site' })).not.toBeInTheDocument();
    await waitFor(() => expect(callsTo(calls, 'GET', `${API}/sync-config`).length).toBeGreaterThan(0));
    expect(callsTo(calls, 'GET', '/api/sites?')).toHaveLength(0);
  });

  it("tells another site's user that their site has no sync, without calling it", async () => {
    signIn(OTHER);
    const { calls } = fakeFetch(router({ 'GET /api/sites/info': () => ok({ data: DEMO }) }, OTHER));
    renderSync();
    expect(await screen.findByText('The RE & Adestra sync is not set up for Presswork Demo.')).toBeInTheDocument();
    expect(calls.some((c) => c.url.includes('/sync-'))).toBe(false);
  });
});

describe('Menu: RE & Adestra Sync', () => {
  function renderMenu() {
    renderInAdmin(
      <SiteInfoProvider>
        <Menu />
      </SiteInfoProvider>,
      { path: '/menu' },
    );
  }

  it("is shown to a user of the charity site (its features.sync)", async () => {
    signIn(STAFF);
    fakeFetch(router({ 'GET /api/sites/info': () => ok({ data: HOPE }) }, STAFF));
    renderMenu();
    expect(await screen.findByRole('menuitem', { name: /RE & Adestra Sync/ })).toHaveAttribute('href', '/re-n-adestra-sync');
  });

  it("is hidden from another site's user", async () => {
    signIn(OTHER);
    fakeFetch(router({ 'GET /api/sites/info': () => ok({ data: DEMO }) }, OTHER));
    renderMenu();
    expect(await screen.findByRole('menuitem', { name: /Product Designs/ })).toBeInTheDocument();
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(screen.queryByText('RE & Adestra Sync')).not.toBeInTheDocument();
  });

});

describe("Raiser's Edge connection", () => {
  it('a revoked token: "Needs reconnecting" and why; Reconnect fetches a fresh Blackbaud address with the token and goes there', async () => {
    const assign = vi.fn();
    vi.stubGlobal('location', { ...window.location, assign });
    const { calls } = fakeFetch(
      router(
        syncRoutes({
          [`GET ${API}/raiser-edge/status`]: () => ok(REVOKED),
          [`POST ${API}/raiser-edge/connect-url`]: () => ok({ url: 'https://app.blackbaud.com/oauth/authorize?client_id=x&state=s', expiresAt: '2026-11-22T00:10:00.000Z', redirectUri: 'https://p.example/api/sites/hope-harbour/raiser-edge/callback' }),
        }),
        ADMIN,
      ),
    );
    renderSync();
    expect(await screen.findByText('Needs reconnecting')).toBeInTheDocument();
    expect(screen.getByText(/Syncs stop until an admin reconnects: the CRM refused the refresh token \(400 invalid_grant\)/)).toBeInTheDocument();
    await userEvent.click(screen.getByRole('button', { name: 'Reconnect' }));
    await waitFor(() => expect(assign).toHaveBeenCalledWith('https://app.blackbaud.com/oauth/authorize?client_id=x&state=s'));
    expect(callsTo(calls, 'POST', `${API}/raiser-edge/connect-url`)).toHaveLength(1);
    vi.unstubAllGlobals();
  });

  it('back from Blackbaud: the outcome of the connection is shown', async () => {
    fakeFetch(router(syncRoutes(), ADMIN));
    renderSync('/re-n-adestra-sync?site=hope-harbour&reConnect=failed&reConnectMessage=Access%20was%20not%20granted%20in%20Blackbaud%20(access_denied)%3A%20nothing%20changed');
    expect(await screen.findByText('Access was not granted in Blackbaud (access_denied): nothing changed')).toBeInTheDocument();
    expect(await screen.findByRole('button', { name: "Connect to Raiser's Edge" })).toBeInTheDocument();
  });

  it('connected: the consent names come from the CRM\'s lists and are saved; webhook subscriptions are listed and created', async () => {
    let subs = { list: [] as unknown[], eventTypes: ['com.blackbaud.constituent.change.v1', 'com.blackbaud.constituent.emailaddress.change.v1'], missing: ['com.blackbaud.constituent.change.v1', 'com.blackbaud.constituent.emailaddress.change.v1'] };
    const { calls } = fakeFetch(
      router(
        syncRoutes({
          [`GET ${API}/raiser-edge/status`]: () => ok(CONNECTED),
          [`GET ${API}/raiser-edge/consent-options`]: () => ok({ sources: ['Website', 'Email platform'], categories: ['Newsletter'], source: '', category: '' }),
          [`POST ${API}/raiser-edge/consent-settings`]: () => ok({ source: 'Email platform', category: 'Newsletter', message: 'Consent settings saved' }),
          [`GET ${API}/raiser-edge/webhook-subscriptions`]: () => ok(subs),
          [`POST ${API}/raiser-edge/webhook-subscriptions`]: () => {
            subs = { ...subs, missing: [], list: subs.eventTypes.map((eventType, i) => ({ id: String(i), eventType, webhookUrl: 'x', provisioningStatus: 'Provisioned', ours: true })) };
            return ok({ ...subs, created: subs.eventTypes });
          },
        }),
        ADMIN,
      ),
    );
    renderSync();
    expect(await screen.findByText('Connected to Hope Harbour RE')).toBeInTheDocument();
    await userEvent.click(await screen.findByRole('combobox', { name: 'Consent source' }));
    expect(screen.getAllByRole('option').map((o) => o.textContent)).toEqual(['None', 'Website', 'Email platform']);
    await userEvent.click(screen.getByRole('option', { name: 'Email platform' }));
    await userEvent.click(screen.getByRole('combobox', { name: 'Consent category' }));
    await userEvent.click(screen.getByRole('option', { name: 'Newsletter' }));
    await userEvent.click(screen.getByRole('button', { name: 'Save consent settings' }));
    await waitFor(() => expect(callsTo(calls, 'POST', `${API}/raiser-edge/consent-settings`)).toHaveLength(1));
    expect(callsTo(calls, 'POST', `${API}/raiser-edge/consent-settings`)[0].body).toEqual({ source: 'Email platform', category: 'Newsletter' });
    const table = await screen.findByRole('table', { name: 'Webhook subscriptions' });
    expect(within(table).getAllByText('not subscribed yet')).toHaveLength(2);
    await userEvent.click(screen.getByRole('button', { name: 'Create webhook subscriptions' }));
    await waitFor(() => expect(within(screen.getByRole('table', { name: 'Webhook subscriptions' })).getAllByText('Provisioned')).toHaveLength(2));
  });

  it("a user of the site sees the connection's state but no Connect button", async () => {
    signIn(STAFF);
    fakeFetch(router(syncRoutes({ [`GET ${API}/raiser-edge/status`]: () => ok(REVOKED) }), STAFF));
    renderSync();
    expect(await screen.findByText('Needs reconnecting')).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Reconnect' })).not.toBeInTheDocument();
  });
});
