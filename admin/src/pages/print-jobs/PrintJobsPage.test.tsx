import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { act, fireEvent, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { ADMIN, USER, jsonResponse, renderInAdmin, signIn, fakeFetch } from '../../test/helpers';
import { fail, ok, pdfResponse, printJob, router } from '../../test/printProduction';
import { PrintJobsPage } from './PrintJobsPage';

const JOB = printJob({ id: 7, productName: 'Robin card', createdAt: '2025-03-07T10:00:00.000Z' });

function renderJobs() {
  renderInAdmin(<PrintJobsPage />, { path: '/print-jobs', routePath: '/print-jobs' });
}

let downloads: string[];

beforeEach(() => {
  signIn(ADMIN);
  downloads = [];
  URL.createObjectURL = vi.fn(() => 'blob:print-file');
  URL.revokeObjectURL = vi.fn();
  vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(function (this: HTMLAnchorElement) {
    downloads.push(this.download);
  });
});

afterEach(() => {
  document.title = '';
});

describe('Jobs (/print-jobs)', () => {
  it('lists jobs ready for print and not printed, with the columns of the spec', async () => {
    const { calls } = fakeFetch(router({ 'GET /api/print-jobs': () => ok({ list: [JOB], hasNext: false, total: 1 }) }, ADMIN));
    renderJobs();
    const row = await screen.findByTestId('print-job-7');
    expect(calls.find((c) => c.url.startsWith('/api/print-jobs'))?.url).toBe('/api/print-jobs?page=1&readyForPrint=1&isPrinted=0');
    const headers = screen.getAllByRole('columnheader').map((h) => h.textContent);
    expect(headers).toEqual(['', 'Order', 'Product', 'Client', 'Preview', 'QTY', 'Created At', 'Time Since Order', 'Ship by', 'Production Notes', 'PDF', 'History', '']);
    expect(within(row).getByText('Site A')).toBeInTheDocument();
    expect(within(row).getByText('Robin card')).toBeInTheDocument();
    expect(within(row).getByText('07/03/2025')).toBeInTheDocument();
    expect(within(row).getByText(/^\d+ d( \d+ h)?$/)).toBeInTheDocument();
    expect(within(row).getByRole('img', { name: 'Preview of Robin card' })).toHaveAttribute('src', '/files/previews/1.png');
    expect(document.title).toBe('Jobs | Presswork');
  });

  it("counts Time Since Order from the store order's placing and shows its name; a job made by hand counts from the job and says so", async () => {
    const hoursAgo = (h: number) => new Date(Date.now() - h * 3600_000).toISOString();
    const ofOrder = printJob({ id: 8, productName: 'Order card', createdAt: hoursAgo(5), orderName: '#1042', orderCreatedAt: hoursAgo(10 * 24 + 3), shopifyOrderId: '5550001' });
    const byHand = printJob({ id: 9, productName: 'Hand card', createdAt: hoursAgo(2 * 24 + 1) });
    fakeFetch(router({ 'GET /api/print-jobs': () => ok({ list: [ofOrder, byHand], hasNext: false, total: 2 }) }, ADMIN));
    renderJobs();
    const row = await screen.findByTestId('print-job-8');
    expect(within(row).getByText('#1042')).toBeInTheDocument();
    expect(within(row).getByText('10 d 3 h')).toBeInTheDocument();
    expect(within(row).queryByText(/no store order/)).not.toBeInTheDocument();
    const hand = screen.getByTestId('print-job-9');
    expect(within(hand).getByText('2 d 1 h')).toBeInTheDocument();
    expect(within(hand).getByText('since the job (no store order)')).toBeInTheDocument();
    expect(within(hand).queryByText(/^#/)).not.toBeInTheDocument();
  });

  it('says "No jobs found" when the queue is empty', async () => {
    fakeFetch(router({ 'GET /api/print-jobs': () => ok({ list: [], hasNext: false, total: 0 }) }, ADMIN));
    renderJobs();
    expect(await screen.findByText('No jobs found')).toBeInTheDocument();
  });

  it('shows the server error text in red', async () => {
    fakeFetch(router({ 'GET /api/print-jobs': () => fail('Database is unavailable', 503) }, ADMIN));
    renderJobs();
    const error = await screen.findByRole('alert');
    expect(error).toHaveTextContent('Database is unavailable');
    expect(screen.queryByText('No jobs found')).not.toBeInTheDocument();
  });

  it('downloads print-file.pdf, ticks, asks "Have you printed?", and ✓ marks it printed and removes the row', async () => {
    const user = userEvent.setup();
    const { calls } = fakeFetch(
      router(
        {
          'GET /api/print-jobs': () => ok({ list: [JOB, printJob({ id: 8, productName: 'Mug' })], hasNext: false, total: 2 }),
          'POST /api/pdf/from-print-job': () => pdfResponse(),
          'POST /api/print-jobs': (call) => ok({ ...JOB, ...(call.body as object), isPDFDownloaded: true }),
        },
        ADMIN,
      ),
    );
    renderJobs();
    const row = await screen.findByTestId('print-job-7');
    await user.click(within(row).getByRole('button', { name: 'PDF' }));

    expect(await within(row).findByLabelText('PDF downloaded')).toBeInTheDocument();
    expect(calls.find((c) => c.url === '/api/pdf/from-print-job')?.body).toEqual({ id: 7, from: 'jobs' });
    expect(downloads).toEqual(['print-file.pdf']);
    expect(within(row).queryByText('Have you printed?')).not.toBeInTheDocument();

    expect(await within(row).findByText('Have you printed?', {}, { timeout: 3500 })).toBeInTheDocument();
    await user.click(within(row).getByRole('button', { name: 'Yes, printed' }));

    await waitFor(() => expect(screen.queryByTestId('print-job-7')).not.toBeInTheDocument());
    expect(calls.filter((c) => c.method === 'POST' && c.url === '/api/print-jobs').map((c) => c.body)).toEqual([{ id: 7, isPrinted: true }]);
    expect(screen.getByTestId('print-job-8')).toBeInTheDocument();
  });

  it('asks "Have you printed?" when a reload says the file was handed out elsewhere (another tab)', async () => {
    let downloadedElsewhere = false;
    fakeFetch(router({ 'GET /api/print-jobs': () => ok({ list: [{ ...JOB, isPDFDownloaded: downloadedElsewhere }], hasNext: false, total: 1 }) }, ADMIN));
    renderJobs();
    const row = await screen.findByTestId('print-job-7');
    expect(within(row).getByRole('button', { name: 'PDF' })).toBeInTheDocument();
    downloadedElsewhere = true;
    act(() => {
      window.dispatchEvent(new Event('focus'));
    });
    expect(await within(row).findByRole('button', { name: 'Yes, printed' })).toBeInTheDocument();
    expect(within(row).queryByRole('button', { name: 'PDF' })).not.toBeInTheDocument();
  });

  it('✗ resets the job (not downloaded, not printed) and keeps the row', async () => {
    const user = userEvent.setup();
    const { calls } = fakeFetch(
      router(
        {
          'GET /api/print-jobs': () => ok({ list: [{ ...JOB, isPDFDownloaded: true }], hasNext: false, total: 1 }),
          'POST /api/print-jobs': (call) => ok({ ...JOB, ...(call.body as object) }),
        },
        ADMIN,
      ),
    );
    renderJobs();
    const row = await screen.findByTestId('print-job-7');
    // Downloaded earlier and not answered yet: the question is waiting.
    await user.click(within(row).getByRole('button', { name: 'No, not printed' }));
    expect(await within(row).findByRole('button', { name: 'PDF' })).toBeInTheDocument();
    expect(calls.filter((c) => c.method === 'POST').map((c) => c.body)).toEqual([{ id: 7, isPDFDownloaded: false, isPrinted: false }]);
    expect(screen.getByTestId('print-job-7')).toBeInTheDocument();
  });

  it('shows the PDF error of the server ("Only support 4 pages A5") and offers the button again', async () => {
    const user = userEvent.setup();
    fakeFetch(
      router(
        {
          'GET /api/print-jobs': () => ok({ list: [JOB], hasNext: false, total: 1 }),
          'POST /api/pdf/from-print-job': () => fail('Only support 4 pages A5'),
        },
        ADMIN,
      ),
    );
    renderJobs();
    const row = await screen.findByTestId('print-job-7');
    await user.click(within(row).getByRole('button', { name: 'PDF' }));
    expect(await screen.findByText('Only support 4 pages A5')).toBeInTheDocument();
    expect(within(row).getByRole('button', { name: 'PDF' })).toBeEnabled();
    expect(downloads).toEqual([]);
  });

  it("the provider's item (sent from another tab): the PDF asks first; Cancel downloads nothing, yes sends printInHouse", async () => {
    const user = userEvent.setup();
    const question = 'This item is made by HP Site Flow (job #7, Card): printing it here as well makes it twice. Print it in house anyway?';
    const { calls } = fakeFetch(
      router(
        {
          'GET /api/print-jobs': () => ok({ list: [JOB], hasNext: false, total: 1 }),
          'POST /api/pdf/from-print-job': (call) =>
            (call.body as { printInHouse?: boolean }).printInHouse ? pdfResponse() : jsonResponse({ success: false, error: question, details: { code: 'AT_PROVIDER', printJobId: 7, confirmWith: { printInHouse: true } } }, 409),
        },
        ADMIN,
      ),
    );
    renderJobs();
    const row = await screen.findByTestId('print-job-7');
    await user.click(within(row).getByRole('button', { name: 'PDF' }));
    const dialog = await screen.findByRole('dialog');
    expect(dialog).toHaveTextContent(question);
    await user.click(within(dialog).getByRole('button', { name: 'Cancel' }));
    await waitFor(() => expect(within(row).getByRole('button', { name: 'PDF' })).toBeEnabled());
    expect(downloads).toEqual([]);

    await user.click(within(row).getByRole('button', { name: 'PDF' }));
    await user.click(within(await screen.findByRole('dialog')).getByRole('button', { name: 'Print here' }));
    expect(await within(row).findByLabelText('PDF downloaded')).toBeInTheDocument();
    expect(downloads).toEqual(['print-file.pdf']);
    expect(calls.filter((c) => c.url === '/api/pdf/from-print-job').map((c) => c.body)).toEqual([{ id: 7, from: 'jobs' }, { id: 7, from: 'jobs' }, { id: 7, from: 'jobs', printInHouse: true }]);
  });

  it('shows a server error of the ✓ answer and keeps asking', async () => {
    const user = userEvent.setup();
    fakeFetch(
      router(
        {
          'GET /api/print-jobs': () => ok({ list: [{ ...JOB, isPDFDownloaded: true }], hasNext: false, total: 1 }),
          'POST /api/print-jobs': () => fail('Download the PDF before marking the job printed', 409),
        },
        ADMIN,
      ),
    );
    renderJobs();
    const row = await screen.findByTestId('print-job-7');
    await user.click(within(row).getByRole('button', { name: 'Yes, printed' }));
    expect(await screen.findByText('Download the PDF before marking the job printed')).toBeInTheDocument();
    expect(within(row).getByText('Have you printed?')).toBeInTheDocument();
  });

  it('saves the production note on blur, then updates the same record on Enter', async () => {
    const user = userEvent.setup();
    const { calls } = fakeFetch(
      router(
        {
          'GET /api/print-jobs': () => ok({ list: [JOB], hasNext: false, total: 1 }),
          'POST /api/general-data/production-note': (call) => ok({ id: 31, field1: '7', data: (call.body as { data: unknown }).data }),
        },
        ADMIN,
      ),
    );
    renderJobs();
    const note = await screen.findByRole('textbox', { name: 'Production note for Robin card' });
    await user.type(note, 'Use the matt stock');
    await user.tab();
    expect(await screen.findByText('Saved')).toBeInTheDocument();
    await user.type(note, ' please{Enter}');
    await waitFor(() => expect(calls.filter((c) => c.url === '/api/general-data/production-note')).toHaveLength(2));
    expect(calls.filter((c) => c.url === '/api/general-data/production-note').map((c) => c.body)).toEqual([
      { field1: '7', data: { note: 'Use the matt stock' } },
      { id: 31, field1: '7', data: { note: 'Use the matt stock please' } },
    ]);
  });

  it('shows a production-note save error under the field', async () => {
    const user = userEvent.setup();
    fakeFetch(
      router(
        {
          'GET /api/print-jobs': () => ok({ list: [{ ...JOB, productionNote: { id: 31, note: 'old' } }], hasNext: false, total: 1 }),
          'POST /api/general-data/production-note': () => fail('Note too long'),
        },
        ADMIN,
      ),
    );
    renderJobs();
    const note = await screen.findByRole('textbox', { name: 'Production note for Robin card' });
    expect(note).toHaveValue('old');
    await user.type(note, '!{Enter}');
    expect(await screen.findByText('Note too long')).toBeInTheDocument();
  });

  it('deletes a job only after confirmation', async () => {
    const user = userEvent.setup();
    const { calls } = fakeFetch(
      router(
        {
          'GET /api/print-jobs': () => ok({ list: [JOB], hasNext: false, total: 1 }),
          'DELETE /api/print-jobs/7': () => ok(JOB),
        },
        ADMIN,
      ),
    );
    renderJobs();
    await user.click(await screen.findByRole('button', { name: 'Delete Robin card' }));
    expect(screen.getByText('Are you sure you want to delete?')).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Cancel' }));
    expect(calls.some((c) => c.method === 'DELETE')).toBe(false);
    await user.click(await screen.findByRole('button', { name: 'Delete Robin card' }));
    await user.click(await screen.findByRole('button', { name: 'Delete' }));
    await waitFor(() => expect(screen.queryByTestId('print-job-7')).not.toBeInTheDocument());
    expect(calls.filter((c) => c.method === 'DELETE').map((c) => c.url)).toEqual(['/api/print-jobs/7']);
  });

  it('loads more while the server has more, and reloads from page 1 when the window regains focus', async () => {
    const user = userEvent.setup();
    const { calls } = fakeFetch(
      router(
        {
          'GET /api/print-jobs?page=1': () => ok({ list: [JOB], hasNext: true, total: 2 }),
          'GET /api/print-jobs?page=2': () => ok({ list: [printJob({ id: 9, productName: 'Poster' })], hasNext: false, total: 2 }),
        },
        ADMIN,
      ),
    );
    renderJobs();
    await screen.findByTestId('print-job-7');
    await user.click(screen.getByRole('button', { name: 'Load more' }));
    expect(await screen.findByTestId('print-job-9')).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Load more' })).not.toBeInTheDocument();

    act(() => {
      fireEvent.focus(window);
    });
    await waitFor(() => expect(screen.queryByTestId('print-job-9')).not.toBeInTheDocument());
    // The Ready list's pages (the Held tab's count is read beside it: ?held=1).
    const pages = calls.filter((c) => c.url.startsWith('/api/print-jobs?page=')).map((c) => new URL(c.url, 'http://x').searchParams.get('page'));
    expect(pages).toEqual(['1', '2', '1']);
  });

  it('shows no "Load more" while the focus reload of page 1 is pending, then offers it again', async () => {
    let release: (() => void) | undefined;
    let firstPages = 0;
    fakeFetch(
      router(
        {
          'GET /api/print-jobs?page=1': () => {
            const answer = ok({ list: [JOB], hasNext: true, total: 2 });
            if (++firstPages === 1) return answer;
            return new Promise<Response>((resolve) => (release = () => resolve(answer)));
          },
        },
        ADMIN,
      ),
    );
    renderJobs();
    await screen.findByTestId('print-job-7');
    expect(await screen.findByRole('button', { name: 'Load more' })).toBeEnabled();

    act(() => {
      fireEvent.focus(window);
    });
    await waitFor(() => expect(release).toBeDefined());
    // The counter starts again at page 1: nothing to "load more" onto until page 1 is back.
    expect(screen.queryByRole('button', { name: /Load more|Loading more/ })).not.toBeInTheDocument();
    expect(screen.getByTestId('print-job-7')).toBeInTheDocument();
    await act(async () => release!());
    expect(await screen.findByRole('button', { name: 'Load more' })).toBeEnabled();
  });
});

describe('a personalised job the order left a value out of', () => {
  it('is flagged "Needs review" with the missing fields', async () => {
    fakeFetch(
      router(
        { 'GET /api/print-jobs': () => ok({ list: [printJob({ id: 9, productName: 'Name card', data: { needsReview: true, missingFields: ['Recipient name'] } }), JOB], hasNext: false, total: 2 }) },
        ADMIN,
      ),
    );
    renderJobs();
    const flagged = await screen.findByTestId('print-job-9');
    expect(within(flagged).getByLabelText('Needs review: missing Recipient name')).toBeInTheDocument();
    expect(within(await screen.findByTestId('print-job-7')).queryByText('Needs review')).not.toBeInTheDocument();
  });
});

describe('a job back in the queue for a reprint', () => {
  it('says why: "Reprint: Print defect (shop)"; a job never reprinted says nothing', async () => {
    const lastReprint = { reason: 'printDefect', responsible: 'shop', note: null, at: '2026-11-24T09:15:00.000Z', byUserId: 2, byName: 'Ann Printer', originalPrintedAt: '2026-11-23T16:00:00.000Z', originalPrintedByName: 'Sam Staff' } as const;
    fakeFetch(router({ 'GET /api/print-jobs': () => ok({ list: [printJob({ id: 9, productName: 'Mug', isRePrinted: true, reprintCount: 1, lastReprint }), JOB], hasNext: false, total: 2 }) }, ADMIN));
    renderJobs();
    const back = await screen.findByTestId('print-job-9', {}, { timeout: 5000 });
    expect(within(back).getByText('Reprint: Print defect (shop)').closest('[title]')).toHaveAttribute('title', expect.stringMatching(/^Reprint: Print defect \(shop\)\. Sent back by Ann Printer on 24\/11\/2026 \d\d:\d\d$/));
    expect(within(await screen.findByTestId('print-job-7')).queryByText(/^Reprint:/)).not.toBeInTheDocument();
  });
});

describe('Jobs for operators: columns, sort, filters, notes, a job printed elsewhere', () => {
  // The Ready list's calls, not the Held count's (?held=1).
  const listCalls = (calls: { url: string }[]) => calls.filter((c) => c.url.startsWith('/api/print-jobs?page=')).map((c) => c.url);

  it('a non-admin sees no Client column and no client filter; product type filters', async () => {
    signIn(USER);
    const user = userEvent.setup();
    const { calls } = fakeFetch(router({ 'GET /api/print-jobs': () => ok({ list: [JOB], hasNext: false, total: 1 }) }, USER));
    renderJobs();
    await screen.findByTestId('print-job-7');
    expect(screen.getAllByRole('columnheader').map((h) => h.textContent)).toEqual(['', 'Order', 'Product', 'Preview', 'QTY', 'Created At', 'Time Since Order', 'Ship by', 'Production Notes', 'PDF', 'History', '']);
    expect(screen.queryByRole('combobox', { name: 'Client' })).not.toBeInTheDocument();
    await user.click(screen.getByRole('combobox', { name: 'Product type' }));
    await user.click(await screen.findByRole('option', { name: 'Mug' }));
    await waitFor(() => expect(listCalls(calls).at(-1)).toBe('/api/print-jobs?page=1&readyForPrint=1&isPrinted=0&productType=Mug'));
    expect(calls.some((c) => c.url.startsWith('/api/admin/sites'))).toBe(false);
  });

  it('an admin filters by client (site picker) and sorts by a column header, asc then desc', async () => {
    const user = userEvent.setup();
    const { calls } = fakeFetch(router({ 'GET /api/print-jobs': () => ok({ list: [JOB], hasNext: false, total: 1 }) }, ADMIN));
    renderJobs();
    await screen.findByTestId('print-job-7');
    await user.click(screen.getByRole('combobox', { name: 'Client' }));
    await user.click(await screen.findByRole('option', { name: 'Site B' }));
    await waitFor(() => expect(listCalls(calls).at(-1)).toBe('/api/print-jobs?page=1&readyForPrint=1&isPrinted=0&clientId=2'));
    await user.click(screen.getByRole('button', { name: 'Product' }));
    await waitFor(() => expect(listCalls(calls).at(-1)).toBe('/api/print-jobs?page=1&readyForPrint=1&isPrinted=0&sort=productName&order=asc&clientId=2'));
    await user.click(screen.getByRole('button', { name: 'Product' }));
    await waitFor(() => expect(listCalls(calls).at(-1)).toBe('/api/print-jobs?page=1&readyForPrint=1&isPrinted=0&sort=productName&order=desc&clientId=2'));
    expect(screen.getByRole('columnheader', { name: /^Product( |$)/ })).toHaveAttribute('aria-sort', 'descending');
  });

  it('a production note keeps several lines: Shift+Enter adds a line, Enter saves; the counter shows n/2000', async () => {
    const user = userEvent.setup();
    const { calls } = fakeFetch(
      router(
        {
          'GET /api/print-jobs': () => ok({ list: [JOB], hasNext: false, total: 1 }),
          'POST /api/general-data/production-note': (call) => ok({ id: 31, field1: '7', data: (call.body as { data: unknown }).data }),
        },
        ADMIN,
      ),
    );
    renderJobs();
    const note = await screen.findByRole('textbox', { name: 'Production note for Robin card' });
    await user.type(note, 'Matt stock{Shift>}{Enter}{/Shift}Fold twice');
    expect(note).toHaveValue('Matt stock\nFold twice');
    expect(calls.some((c) => c.url === '/api/general-data/production-note')).toBe(false);
    expect(screen.getByTestId('note-count')).toHaveTextContent('21/2000');
    expect(note).toHaveAttribute('maxlength', '2000');
    await user.type(note, '{Enter}');
    await waitFor(() => expect(calls.filter((c) => c.url === '/api/general-data/production-note')).toHaveLength(1));
    expect(calls.find((c) => c.url === '/api/general-data/production-note')?.body).toEqual({ field1: '7', data: { note: 'Matt stock\nFold twice' } });
  });

  it('the PDF of a job printed meanwhile (a stale tab): the server\'s "Already printed by…" is shown, no file, the row leaves', async () => {
    const user = userEvent.setup();
    const message = 'Already printed by Ann Printer at 24/11/2026 09:15';
    fakeFetch(
      router(
        {
          'GET /api/print-jobs': () => ok({ list: [JOB, printJob({ id: 8, productName: 'Mug' })], hasNext: false, total: 2 }),
          'POST /api/pdf/from-print-job': () => jsonResponse({ success: false, error: message, details: { code: 'ALREADY_PRINTED', printJobId: 7 } }, 409),
        },
        ADMIN,
      ),
    );
    renderJobs();
    const row = await screen.findByTestId('print-job-7');
    await user.click(within(row).getByRole('button', { name: 'PDF' }));
    expect(await screen.findByText(message)).toBeInTheDocument();
    await waitFor(() => expect(screen.queryByTestId('print-job-7')).not.toBeInTheDocument());
    expect(downloads).toEqual([]);
    expect(screen.getByTestId('print-job-8')).toBeInTheDocument();
  });

  it('the PDF of a job preflight held meanwhile: the server says why, no file, the row leaves for Held', async () => {
    const user = userEvent.setup();
    const held = 'Held by preflight: Page 1 photo is 120 ppi at its printed size — it will look soft';
    fakeFetch(
      router(
        {
          'GET /api/print-jobs': () => ok({ list: [JOB], hasNext: false, total: 1 }),
          'POST /api/pdf/from-print-job': () => jsonResponse({ success: false, error: held, details: { code: 'HELD_BY_PREFLIGHT' } }, 409),
        },
        ADMIN,
      ),
    );
    renderJobs();
    const row = await screen.findByTestId('print-job-7');
    await user.click(within(row).getByRole('button', { name: 'PDF' }));
    expect(await screen.findByText(held)).toBeInTheDocument();
    await waitFor(() => expect(screen.queryByTestId('print-job-7')).not.toBeInTheDocument());
    expect(downloads).toEqual([]);
  });

  it('another 409 (not "already printed") keeps the row', async () => {
    const user = userEvent.setup();
    fakeFetch(
      router(
        {
          'GET /api/print-jobs': () => ok({ list: [JOB], hasNext: false, total: 1 }),
          'POST /api/pdf/from-print-job': () => fail('This job left the queue unprinted (job #7): cancelled', 409),
        },
        ADMIN,
      ),
    );
    renderJobs();
    const row = await screen.findByTestId('print-job-7');
    await user.click(within(row).getByRole('button', { name: 'PDF' }));
    expect(await screen.findByText(/left the queue unprinted/)).toBeInTheDocument();
    expect(screen.getByTestId('print-job-7')).toBeInTheDocument();
  });
});

describe('Jobs on a phone (below sm)', () => {
  let matchMedia: typeof window.matchMedia | undefined;
  beforeEach(() => {
    matchMedia = window.matchMedia;
    // Every media query matches: MUI's down('sm') says "a phone".
    window.matchMedia = ((query: string) => ({
      matches: true,
      media: query,
      onchange: null,
      addListener: () => {},
      removeListener: () => {},
      addEventListener: () => {},
      removeEventListener: () => {},
      dispatchEvent: () => false,
    })) as unknown as typeof window.matchMedia;
  });
  afterEach(() => {
    window.matchMedia = matchMedia as typeof window.matchMedia;
  });

  it('shows each job as a card (no table) with its order, client and actions; the sort is picked above', async () => {
    const user = userEvent.setup();
    const job = printJob({ id: 7, productName: 'Robin card', orderName: '#1042', clientName: 'Site B' });
    const { calls } = fakeFetch(router({ 'GET /api/print-jobs': () => ok({ list: [job], hasNext: false, total: 1 }) }, ADMIN));
    renderJobs();
    const card = await screen.findByTestId('print-job-7');
    expect(screen.queryByRole('table')).not.toBeInTheDocument();
    expect(within(card).getByText('Order #1042 · Site B · QTY 2')).toBeInTheDocument();
    expect(within(card).getByRole('button', { name: 'PDF' })).toBeInTheDocument();
    expect(within(card).getByRole('button', { name: 'Delete Robin card' })).toBeInTheDocument();
    expect(within(card).getByRole('textbox', { name: 'Production note for Robin card' })).toBeInTheDocument();
    await user.click(screen.getByRole('combobox', { name: 'Sort by' }));
    await user.click(await screen.findByRole('option', { name: 'Product' }));
    await waitFor(() => expect(calls.filter((c) => c.url.startsWith('/api/print-jobs')).at(-1)?.url).toBe('/api/print-jobs?page=1&readyForPrint=1&isPrinted=0&sort=productName&order=asc'));
    await user.click(screen.getByRole('button', { name: 'Sorted ascending: sort descending' }));
    await waitFor(() => expect(calls.filter((c) => c.url.startsWith('/api/print-jobs')).at(-1)?.url).toBe('/api/print-jobs?page=1&readyForPrint=1&isPrinted=0&sort=productName&order=desc'));
  });

  it('opened on one job (?job=, from Needs attention): reads on to its page and highlights its row; a job gone meanwhile is said so', async () => {
    signIn(USER);
    const first = Array.from({ length: 3 }, (_, i) => printJob({ id: 100 + i, productName: `Card ${i}` }));
    const wanted = printJob({ id: 321, productName: 'Wanted card' });
    const { calls } = fakeFetch(
      router({ 'GET /api/print-jobs': (call) => (new URL(call.url, 'http://x').searchParams.get('page') === '2' ? ok({ list: [wanted], hasNext: false, total: 4 }) : ok({ list: first, hasNext: true, total: 4 })) }, USER),
    );
    const { unmount } = renderInAdmin(<PrintJobsPage />, { path: '/print-jobs?job=321', routePath: '/print-jobs' });
    const row = await screen.findByTestId('print-job-321');
    await waitFor(() => expect(row).toHaveAttribute('data-highlighted', 'true'));
    expect(screen.getByTestId('print-job-100')).not.toHaveAttribute('data-highlighted');
    expect(calls.filter((c) => c.url.startsWith('/api/print-jobs')).length).toBeGreaterThanOrEqual(2);
    unmount();
    renderInAdmin(<PrintJobsPage />, { path: '/print-jobs?job=999', routePath: '/print-jobs' });
    expect(await screen.findByText(/^Job 999 is not in this list any more/)).toBeInTheDocument();
  });
});
