// The bulk toolbar of Jobs and Print History: ticks (a row, the page, all matching), the actions
// with their confirmations, progress by chunks, the summary with refusals, rows done leaving.
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { ADMIN, renderInAdmin, signIn, fakeFetch, type RecordedCall } from '../../test/helpers';
import { fail, ok, pdfResponse, printJob, router } from '../../test/printProduction';
import { PrintHistoryPage } from '../print-history/PrintHistoryPage';
import { bulkSummary } from './bulkSummary';
import { PrintJobsPage } from './PrintJobsPage';

const ROBIN = printJob({ id: 7, productName: 'Robin card' });
const WREN = printJob({ id: 8, productName: 'Wren card' });
const OWL = printJob({ id: 9, productName: 'Owl card' });

let downloads: string[];
beforeEach(() => {
  signIn(ADMIN);
  downloads = [];
  URL.createObjectURL = vi.fn(() => 'blob:print-files');
  URL.revokeObjectURL = vi.fn();
  vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(function (this: HTMLAnchorElement) {
    downloads.push(this.download);
  });
});
afterEach(() => vi.restoreAllMocks());

const renderJobs = () => renderInAdmin(<PrintJobsPage />, { path: '/print-jobs', routePath: '/print-jobs' });
const renderHistory = () => renderInAdmin(<PrintHistoryPage />, { path: '/print-history', routePath: '/print-history' });
/** The Ready list answers `ready`; the Held tab's count an empty list. */
const lists = (ready: (call: RecordedCall) => Response) => (call: RecordedCall) => (call.url.includes('held=1') ? ok({ list: [], hasNext: false, total: 0 }) : ready(call));
const tick = (name: string) => screen.getByRole('checkbox', { name: new RegExp(`^Select ${name} #`) });
const toolbar = () => screen.getByRole('toolbar', { name: 'Bulk actions' });
const posts = (calls: RecordedCall[], path: string) => calls.filter((c) => c.method === 'POST' && c.url === path);

describe('Jobs: bulk actions', () => {
  it('ticked rows → "N selected"; Mark printed asks first, then reports done and refused; done rows leave, refused stay', async () => {
    const user = userEvent.setup();
    const { calls } = fakeFetch(
      router(
        {
          'GET /api/print-jobs': lists(() => ok({ list: [ROBIN, WREN, OWL], hasNext: false, total: 3 })),
          'POST /api/print-jobs/bulk': () => ok({ done: [7], refused: [{ id: 9, error: 'Already printed by Sam Staff at 26/11/2026, 09:12' }] }),
        },
        ADMIN,
      ),
    );
    renderJobs();
    await screen.findByTestId('print-job-7');
    expect(screen.queryByRole('toolbar', { name: 'Bulk actions' })).not.toBeInTheDocument();
    await user.click(tick('Owl card'));
    await user.click(tick('Robin card'));
    expect(within(toolbar()).getByText('2 selected')).toBeInTheDocument();
    await user.click(within(toolbar()).getByRole('button', { name: 'Mark printed' }));
    const dialog = await screen.findByRole('dialog');
    expect(within(dialog).getByText('Mark 2 jobs printed')).toBeInTheDocument();
    expect(posts(calls, '/api/print-jobs/bulk')).toEqual([]);
    await user.click(within(dialog).getByRole('button', { name: 'Mark printed' }));

    const summary = await screen.findByTestId('bulk-summary');
    expect(summary).toHaveTextContent('1 marked printed; 1 refused: 1 already printed by Sam Staff');
    expect(within(summary).getByText('#9: Already printed by Sam Staff at 26/11/2026, 09:12')).toBeInTheDocument();
    const [call] = posts(calls, '/api/print-jobs/bulk');
    // The queue's order, not the order of the clicks; one Idempotency-Key for the request.
    expect(call.body).toEqual({ ids: [7, 9], action: 'markPrinted' });
    expect(call.headers.get('Idempotency-Key')).toMatch(/^[0-9a-f-]{36}$/);
    await waitFor(() => expect(screen.queryByTestId('print-job-7')).not.toBeInTheDocument());
    expect(screen.getByTestId('print-job-9')).toBeInTheDocument();
    expect(within(toolbar()).getByText('1 selected')).toBeInTheDocument();
  });

  it('the header box ticks this page; "Select all 250 matching" reads every id page by page; the action runs in chunks with progress', async () => {
    const user = userEvent.setup();
    const all = Array.from({ length: 250 }, (_, i) => printJob({ id: 1000 + i, productName: `Card ${i}` }));
    let release: () => void = () => {};
    const { calls } = fakeFetch(
      router(
        {
          'GET /api/print-jobs': lists((call) => {
            const q = new URL(call.url, 'http://x').searchParams;
            if (q.get('pageSize') === '100') {
              const page = Number(q.get('page'));
              return ok({ list: all.slice((page - 1) * 100, page * 100), hasNext: page * 100 < 250, total: 250 });
            }
            return ok({ list: all.slice(0, 20), hasNext: true, total: 250 });
          }),
          'POST /api/print-jobs/bulk': async (call) => {
            const { ids } = call.body as { ids: number[] };
            // The second chunk waits, so the progress between chunks can be seen.
            if (ids[0] === 1100) await new Promise<void>((resolve) => (release = resolve));
            return ok({ done: ids, refused: [] });
          },
        },
        ADMIN,
      ),
    );
    renderJobs();
    await screen.findByTestId('print-job-1000');
    await user.click(screen.getByRole('checkbox', { name: 'Select every job on this page' }));
    expect(within(toolbar()).getByText('20 selected')).toBeInTheDocument();
    await user.click(within(toolbar()).getByRole('button', { name: 'Select all 250 matching' }));
    await waitFor(() => expect(within(toolbar()).getByText('250 selected')).toBeInTheDocument());
    const idPages = calls.filter((c) => c.url.includes('pageSize=100')).map((c) => new URL(c.url, 'http://x').searchParams.get('page'));
    expect(idPages).toEqual(['1', '2', '3']);
    expect(calls.find((c) => c.url.includes('pageSize=100'))?.url).toBe('/api/print-jobs?page=1&pageSize=100&readyForPrint=1&isPrinted=0');

    await user.click(within(toolbar()).getByRole('button', { name: 'Delete' }));
    const dialog = await screen.findByRole('dialog');
    expect(within(dialog).getByText('Delete 250 jobs')).toBeInTheDocument();
    await user.click(within(dialog).getByRole('button', { name: 'Delete' }));
    expect(await screen.findByRole('status')).toHaveTextContent('Deleting… 100 of 250');
    release();
    expect(await screen.findByTestId('bulk-summary')).toHaveTextContent('250 deleted');
    const chunks = posts(calls, '/api/print-jobs/bulk').map((c) => c.body as { ids: number[]; action: string });
    expect(chunks.map((c) => [c.ids.length, c.ids[0], c.action])).toEqual([
      [100, 1000, 'delete'],
      [100, 1100, 'delete'],
      [50, 1200, 'delete'],
    ]);
    expect(new Set(posts(calls, '/api/print-jobs/bulk').map((c) => c.headers.get('Idempotency-Key'))).size).toBe(3);
    await waitFor(() => expect(screen.queryByTestId('print-job-1000')).not.toBeInTheDocument());
    expect(screen.queryByRole('toolbar', { name: 'Bulk actions' })).not.toBeInTheDocument();
  });

  it('Download: one print-files.pdf from the Jobs queue; the rows then ask "Have you printed?"', async () => {
    const user = userEvent.setup();
    let downloaded = false;
    const { calls } = fakeFetch(
      router(
        {
          'GET /api/print-jobs': lists(() => ok({ list: [ROBIN, WREN].map((j) => ({ ...j, isPDFDownloaded: downloaded })), hasNext: false, total: 2 })),
          'POST /api/print-jobs/bulk-pdf': () => {
            downloaded = true;
            return pdfResponse();
          },
        },
        ADMIN,
      ),
    );
    renderJobs();
    await screen.findByTestId('print-job-7');
    await user.click(tick('Wren card'));
    await user.click(tick('Robin card'));
    await user.click(within(toolbar()).getByRole('button', { name: 'Download' }));
    expect(await screen.findByTestId('bulk-summary')).toHaveTextContent('Downloaded 2 jobs in print-files.pdf.');
    expect(downloads).toEqual(['print-files.pdf']);
    expect(posts(calls, '/api/print-jobs/bulk-pdf')[0].body).toEqual({ ids: [7, 8], from: 'jobs' });
    await waitFor(() => expect(within(screen.getByTestId('print-job-7')).getByText('Have you printed?')).toBeInTheDocument());
    expect(within(screen.getByTestId('print-job-8')).getByText('Have you printed?')).toBeInTheDocument();
  });

  it('a refused download names each job that stops it; nothing is saved', async () => {
    const user = userEvent.setup();
    fakeFetch(
      router(
        {
          'GET /api/print-jobs': lists(() => ok({ list: [ROBIN, WREN], hasNext: false, total: 2 })),
          'POST /api/print-jobs/bulk-pdf': () =>
            new Response(JSON.stringify({ success: false, error: 'One job cannot be in the download — #8: Held by preflight (job #8): low resolution', details: { refused: [{ id: 8, error: 'Held by preflight (job #8): low resolution' }] } }), {
              status: 409,
              headers: { 'Content-Type': 'application/json' },
            }),
        },
        ADMIN,
      ),
    );
    renderJobs();
    await screen.findByTestId('print-job-7');
    await user.click(tick('Wren card'));
    await user.click(within(toolbar()).getByRole('button', { name: 'Download' }));
    const summary = await screen.findByTestId('bulk-summary');
    expect(summary).toHaveTextContent('Nothing downloaded: 1 of the selected jobs cannot be printed now.');
    expect(within(summary).getByText('#8: Held by preflight (job #8): low resolution')).toBeInTheDocument();
    expect(downloads).toEqual([]);
  });
});

describe('Print History: bulk actions', () => {
  const printed = [ROBIN, WREN].map((j) => ({ ...j, isPrinted: true, isPDFDownloaded: true, printedAt: '2026-11-25T09:00:00.000Z', printedByName: 'Sam Staff' }));

  it('Reprint (confirmed) sends the ticked jobs back to the queue; Download takes them from History (nothing marked)', async () => {
    const user = userEvent.setup();
    const { calls } = fakeFetch(
      router(
        {
          'GET /api/print-jobs': () => ok({ list: printed, hasNext: false, total: 2 }),
          'POST /api/print-jobs/bulk-pdf': () => pdfResponse(),
          'POST /api/print-jobs/bulk': () => ok({ done: [7, 8], refused: [] }),
        },
        ADMIN,
      ),
    );
    renderHistory();
    await screen.findByTestId('print-job-7');
    await user.click(screen.getByRole('checkbox', { name: 'Select every job on this page' }));
    expect(within(toolbar()).queryByRole('button', { name: 'Mark printed' })).not.toBeInTheDocument();
    await user.click(within(toolbar()).getByRole('button', { name: 'Download' }));
    await screen.findByTestId('bulk-summary');
    expect(posts(calls, '/api/print-jobs/bulk-pdf')[0].body).toEqual({ ids: [7, 8], from: 'history' });
    await user.click(within(toolbar()).getByRole('button', { name: 'Reprint' }));
    const dialog = await screen.findByRole('dialog', { name: 'Reprint 2 jobs' });
    await user.click(within(dialog).getByRole('radio', { name: 'Lost in post' }));
    await user.click(within(dialog).getByRole('radio', { name: 'Carrier' }));
    await user.click(within(dialog).getByRole('button', { name: 'Confirm' }));
    await waitFor(() => expect(screen.getByTestId('bulk-summary')).toHaveTextContent('2 back in the Jobs queue to reprint'));
    expect(posts(calls, '/api/print-jobs/bulk')[0].body).toEqual({ ids: [7, 8], action: 'reprint', reprintReason: 'lostInPost', reprintResponsible: 'carrier' });
    await waitFor(() => expect(screen.queryByTestId('print-job-8')).not.toBeInTheDocument());
  });

  it('a failed bulk call shows the server sentence', async () => {
    const user = userEvent.setup();
    fakeFetch(router({ 'GET /api/print-jobs': () => ok({ list: printed, hasNext: false, total: 2 }), 'POST /api/print-jobs/bulk': () => fail('Ids has too many print jobs (500 at most in one go).') }, ADMIN));
    renderHistory();
    await screen.findByTestId('print-job-7');
    await user.click(tick('Robin card'));
    await user.click(within(toolbar()).getByRole('button', { name: 'Reprint' }));
    const dialog = await screen.findByRole('dialog');
    await user.click(within(dialog).getByRole('radio', { name: 'Print defect' }));
    await user.click(within(dialog).getByRole('radio', { name: 'Shop' }));
    await user.click(within(dialog).getByRole('button', { name: 'Confirm' }));
    expect(await screen.findByTestId('bulk-summary')).toHaveTextContent('Ids has too many print jobs (500 at most in one go).');
    expect(screen.getByTestId('print-job-7')).toBeInTheDocument();
  });
});

describe('bulkSummary', () => {
  it('counts what was done and groups the refusals by reason (who printed it, not when)', () => {
    const refused = [
      { id: 1, error: 'Already printed by Sam Staff at 26/11/2026, 09:12' },
      { id: 2, error: 'Already printed by Sam Staff at 26/11/2026, 09:14' },
      { id: 3, error: 'Held by preflight (job #3): Page 1 photo is 90 ppi. Approve it anyway or fix the design and re-check.' },
    ];
    expect(bulkSummary('markPrinted', { done: Array.from({ length: 197 }, (_, i) => i + 10), refused })).toBe('197 marked printed; 3 refused: 2 already printed by Sam Staff, 1 held by preflight');
    expect(bulkSummary('delete', { done: [1, 2], refused: [] })).toBe('2 deleted');
    expect(bulkSummary('markPrinted', { done: [], refused: [{ id: 5, error: 'Download the PDF before marking the job printed' }] })).toBe('0 marked printed; 1 refused: 1 not downloaded yet');
    expect(bulkSummary('reprint', { done: [], refused: [{ id: 4, error: 'Only a printed job can be reprinted' }] })).toBe('0 back in the Jobs queue to reprint; 1 refused: 1 only a printed job can be reprinted');
  });
});

describe('on a phone (below sm)', () => {
  let matchMedia: typeof window.matchMedia | undefined;
  beforeEach(() => {
    matchMedia = window.matchMedia;
    window.matchMedia = ((query: string) => ({ matches: true, media: query, onchange: null, addListener: () => {}, removeListener: () => {}, addEventListener: () => {}, removeEventListener: () => {}, dispatchEvent: () => false })) as unknown as typeof window.matchMedia;
  });
  afterEach(() => {
    window.matchMedia = matchMedia as typeof window.matchMedia;
  });

  it('each card has its tick box, and the toolbar counts them', async () => {
    const user = userEvent.setup();
    fakeFetch(router({ 'GET /api/print-jobs': lists(() => ok({ list: [ROBIN, WREN], hasNext: false, total: 2 })) }, ADMIN));
    renderJobs();
    const card = await screen.findByTestId('print-job-8');
    await user.click(within(card).getByRole('checkbox', { name: 'Select Wren card #8' }));
    expect(within(toolbar()).getByText('1 selected')).toBeInTheDocument();
    await user.click(screen.getByRole('checkbox', { name: 'Select every job shown' }));
    expect(within(toolbar()).getByText('2 selected')).toBeInTheDocument();
  });
});
