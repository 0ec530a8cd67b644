// The Batches screens: the list's state tabs in the address, a batch's next move (Mark printed asks
// first, then reports what it did to each job; a 409 is shown and the batch read again), its sheets'
// download, and Create batch on Jobs sending {jobIds, sheet} and showing the server's refusal.
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { Batch, BatchJob } from '../../../../common/api/batches';
import { ADMIN, LocationDisplay, renderInAdmin, signIn, fakeFetch, USER, type RecordedCall } from '../../test/helpers';
import { formatDateTime } from '../../lib/format';
import { fail, ok, pdfResponse, printJob, router } from '../../test/printProduction';
import { PrintJobsPage } from '../print-jobs/PrintJobsPage';
import { BatchesPage } from './BatchesPage';
import { BatchPage } from './BatchPage';

function batch(overrides: Partial<Batch> = {}): Batch {
  return {
    id: 5,
    siteId: 1,
    number: 3,
    state: 'open',
    sheet: 'SRA3',
    jobIds: [7, 8],
    createdAt: '2026-11-26T09:00:00.000Z',
    createdByName: 'Sam Staff',
    stateChangedAt: '2026-11-26T09:00:00.000Z',
    stateChangedByName: 'Sam Staff',
    item: { productType: 'Card', trimWidthMm: 148, trimHeightMm: 210, bleedMm: 3 },
    siteName: 'Site A',
    ...overrides,
  };
}

const ROBIN = printJob({ id: 7, productName: 'Robin card', orderName: '#1024' });
const WREN = printJob({ id: 8, productName: 'Wren card' });
const JOBS: BatchJob[] = [
  { jobId: 7, job: ROBIN, itemNumber: 2, itemCount: 3, packedCopies: 0 },
  { jobId: 8, job: WREN, itemNumber: null, itemCount: null, packedCopies: 0 },
];
const posts = (calls: RecordedCall[], path: string) => calls.filter((c) => c.method === 'POST' && c.url === path);

let downloads: string[];
beforeEach(() => {
  downloads = [];
  URL.createObjectURL = vi.fn(() => 'blob:batch');
  URL.revokeObjectURL = vi.fn();
  vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(function (this: HTMLAnchorElement) {
    downloads.push(this.download);
  });
});
afterEach(() => vi.restoreAllMocks());

describe('Batches list', () => {
  it('opens on the tab the address names, asks the server for that state, and keeps a new tab in the address', async () => {
    signIn(ADMIN);
    const user = userEvent.setup();
    const { calls } = fakeFetch(
      router(
        {
          'GET /api/batches': (call) =>
            call.url.includes('state=cut')
              ? ok({ list: [batch({ id: 9, number: 12, state: 'cut', stateChangedByName: 'Cat Cutter', filling: true, closesAt: '16:00' })], hasNext: false, total: 1 })
              : ok({ list: [], hasNext: false, total: 0 }),
        },
        ADMIN,
      ),
    );
    renderInAdmin(
      <>
        <BatchesPage />
        <LocationDisplay />
      </>,
      { path: '/batches?state=cut', routePath: '/batches' },
    );
    const row = await screen.findByTestId('batch-9');
    expect(screen.getByRole('tab', { name: 'Cut' })).toHaveAttribute('aria-selected', 'true');
    expect(calls.some((c) => c.url.startsWith('/api/batches?') && new URL(c.url, 'http://x').searchParams.get('state') === 'cut')).toBe(true);
    expect(within(row).getByRole('link', { name: 'Batch 12' })).toHaveAttribute('href', '/batches/9');
    expect(row).toHaveTextContent('Card, 148 × 210 mm');
    expect(row).toHaveTextContent('Filling — closes when full or at 16:00');
    expect(row).toHaveTextContent('Cut by Cat Cutter');
    // An admin sees whose batch it is.
    expect(screen.getByRole('columnheader', { name: 'Client' })).toBeInTheDocument();
    expect(within(row).getByText('Site A')).toBeInTheDocument();

    await user.click(screen.getByRole('tab', { name: 'Printed' }));
    expect(screen.getByTestId('location')).toHaveTextContent('/batches?state=printed');
    await screen.findByText('No printed batches');
    expect(calls.some((c) => new URL(c.url, 'http://x').searchParams.get('state') === 'printed')).toBe(true);
    await user.click(screen.getByRole('tab', { name: 'Open' }));
    expect(screen.getByTestId('location')).toHaveTextContent(/^\/batches$/);
  });
});

describe('Batch page', () => {
  const renderBatch = () => renderInAdmin(<BatchPage />, { path: '/batches/5', routePath: '/batches/:id' });

  it('Mark printed asks first, then reports what it did to each job, and offers the next move', async () => {
    signIn(USER);
    const user = userEvent.setup();
    let current = batch();
    const { calls } = fakeFetch(
      router(
        {
          'GET /api/batches/5/jobs': () => ok(JOBS),
          'GET /api/batches/5': () => ok(current),
          'POST /api/batches/5/state': () => {
            current = batch({ state: 'printed', stateChangedByName: 'Uma User', stateChangedAt: '2026-11-26T10:30:00.000Z' });
            return ok({ ...current, printed: { done: [7], refused: [{ id: 8, error: 'Already printed by Sam Staff at 26/11/2026, 09:12' }] } });
          },
        },
        USER,
      ),
    );
    renderBatch();
    await screen.findByRole('heading', { name: 'Batch 3' });
    const robin = await screen.findByTestId('batch-job-7');
    expect(robin).toHaveTextContent('#1024 · 2 of 3');
    expect(robin).toHaveTextContent('In queue');
    expect(screen.getByText('148 × 210 mm, 3 mm bleed')).toBeInTheDocument();
    expect(within(screen.getByTestId('step-open')).getByText(/Created by Sam Staff/)).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Mark cut' })).not.toBeInTheDocument();

    await user.click(screen.getByRole('button', { name: 'Mark printed' }));
    const dialog = await screen.findByRole('dialog');
    expect(within(dialog).getByText('Mark batch 3 printed')).toBeInTheDocument();
    expect(posts(calls, '/api/batches/5/state')).toEqual([]);
    await user.click(within(dialog).getByRole('button', { name: 'Mark printed' }));

    const summary = await screen.findByTestId('bulk-summary');
    expect(summary).toHaveTextContent('1 marked printed; 1 refused: 1 already printed by Sam Staff');
    expect(within(summary).getByText('#8: Already printed by Sam Staff at 26/11/2026, 09:12')).toBeInTheDocument();
    const [call] = posts(calls, '/api/batches/5/state');
    expect(call.body).toEqual({ state: 'printed' });
    expect(call.headers.get('Idempotency-Key')).toMatch(/^[0-9a-f-]{36}$/);
    expect(await screen.findByRole('button', { name: 'Mark cut' })).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Mark printed' })).not.toBeInTheDocument();
    expect(within(screen.getByTestId('step-printed')).getByText(/by Uma User/)).toBeInTheDocument();
  });

  it('the stepper says who made each move and when, not only the last one', async () => {
    signIn(USER);
    const moves = [
      { state: 'printed' as const, at: '2026-11-26T10:30:00.000Z', byName: 'Uma User' },
      { state: 'cut' as const, at: '2026-11-26T11:45:00.000Z', byName: 'Cat Cutter' },
      { state: 'packed' as const, at: '2026-11-26T13:05:00.000Z', byName: 'Pat Packer' },
    ];
    fakeFetch(
      router(
        {
          'GET /api/batches/5/jobs': () => ok(JOBS),
          'GET /api/batches/5': () => ok(batch({ state: 'packed', stateChangedByName: 'Pat Packer', stateChangedAt: moves[2].at, moves })),
        },
        USER,
      ),
    );
    renderBatch();
    await screen.findByRole('heading', { name: 'Batch 3' });
    expect(within(screen.getByTestId('step-open')).getByText(`Created by Sam Staff, ${formatDateTime('2026-11-26T09:00:00.000Z')}`)).toBeInTheDocument();
    for (const m of moves) expect(within(screen.getByTestId(`step-${m.state}`)).getByText(`by ${m.byName}, ${formatDateTime(m.at)}`)).toBeInTheDocument();
    expect(screen.queryByText('Done')).not.toBeInTheDocument();
  });

  it('a move someone else made first: shows the server’s sentence and reads the batch again', async () => {
    signIn(USER);
    const user = userEvent.setup();
    let reads = 0;
    const { calls } = fakeFetch(
      router(
        {
          'GET /api/batches/5/jobs': () => ok(JOBS),
          'GET /api/batches/5': () => ok(batch(reads++ === 0 ? { state: 'printed' } : { state: 'cut', stateChangedByName: 'Cat Cutter' })),
          'POST /api/batches/5/state': () => fail('Batch 3 was moved on by someone else meanwhile; reload it', 409),
        },
        USER,
      ),
    );
    renderBatch();
    await user.click(await screen.findByRole('button', { name: 'Mark cut' }));
    // No confirmation for cut: the move is sent at once.
    expect(await screen.findByTestId('move-error')).toHaveTextContent('Batch 3 was moved on by someone else meanwhile; reload it');
    expect(posts(calls, '/api/batches/5/state')[0].body).toEqual({ state: 'cut' });
    expect(await screen.findByRole('button', { name: 'Mark packed' })).toBeInTheDocument();
    expect(within(screen.getByTestId('step-cut')).getByText(/by Cat Cutter/)).toBeInTheDocument();
  });

  it('Mark packed says how many jobs it packed and which were refused', async () => {
    signIn(USER);
    const user = userEvent.setup();
    fakeFetch(
      router(
        {
          'GET /api/batches/5/jobs': () => ok(JOBS),
          'GET /api/batches/5': () => ok(batch({ state: 'cut' })),
          'POST /api/batches/5/state': () =>
            ok({ ...batch({ state: 'packed', stateChangedByName: 'Uma User' }), packed: { done: [7], refused: [{ id: 8, error: 'This job was already packed by Sam Staff at 26/11/2026 14:02' }] } }),
        },
        USER,
      ),
    );
    renderBatch();
    await user.click(await screen.findByRole('button', { name: 'Mark packed' }));
    const summary = await screen.findByTestId('bulk-summary');
    expect(summary).toHaveTextContent('1 marked packed; 1 refused: 1 already packed by Sam Staff');
  });

  it('Download sheets saves batch-<number>.pdf, and says so when the sheets cannot be made', async () => {
    signIn(USER);
    const user = userEvent.setup();
    let refuse = false;
    fakeFetch(
      router(
        {
          'GET /api/batches/5/pdf/progress': () => ok(null),
          'GET /api/batches/5/pdf': () => (refuse ? fail('Batch 3 has no jobs left to print (they were deleted)', 409) : pdfResponse()),
          'GET /api/batches/5/jobs': () => ok(JOBS),
          'GET /api/batches/5': () => ok(batch({ state: 'packed' })),
        },
        USER,
      ),
    );
    renderBatch();
    await user.click(await screen.findByRole('button', { name: 'Download sheets' }));
    await waitFor(() => expect(downloads).toEqual(['batch-3.pdf']));
    // Packed: nothing comes after.
    expect(screen.queryByRole('button', { name: /^Mark / })).not.toBeInTheDocument();
    refuse = true;
    await user.click(screen.getByRole('button', { name: 'Download sheets' }));
    expect(await screen.findByText('The sheets could not be made: Batch 3 has no jobs left to print (they were deleted)')).toBeInTheDocument();
    expect(downloads).toEqual(['batch-3.pdf']);
  });
});

describe('Batch page: what its sheets carry, packing, progress', () => {
  const renderBatch = () => renderInAdmin(<BatchPage />, { path: '/batches/5', routePath: '/batches/:id' });
  const SVG = '<svg viewBox="0 0 10 10" xmlns="http://www.w3.org/2000/svg"><path d="M1 0L1 10"/></svg>';

  it('warns of the jobs its sheets leave out and why, and shows its sheet count, how to print it and its barcode', async () => {
    signIn(USER);
    const cancelled = printJob({ id: 8, productName: 'Wren card', orderName: '#1025', withdrawn: { at: '2026-11-26T10:00:00.000Z', reason: 'The order was cancelled' } });
    const reason = 'This job left the queue unprinted (job #8): The order was cancelled';
    fakeFetch(
      router(
        {
          'GET /api/batches/5/jobs': () => ok([JOBS[0], { ...JOBS[1], job: cancelled }]),
          'GET /api/batches/5': () =>
            ok(
              batch({
                code: 'PB-3',
                barcodeSvg: SVG,
                sheetCount: 2,
                howToPrint: 'Print two-sided (duplex), flip on the long edge, the whole file as it is',
                leftOut: [{ jobId: 8, orderName: '#1025', productName: 'Wren card', reason }],
              }),
            ),
        },
        USER,
      ),
    );
    renderBatch();
    const warning = await screen.findByTestId('left-out');
    expect(warning).toHaveTextContent('One job is not on the sheets any more');
    expect(warning).toHaveTextContent(`#8 (#1025), Wren card: ${reason}`);
    expect(warning).toHaveTextContent('Download sheets makes the sheets without it');
    expect(within(await screen.findByTestId('batch-job-8')).getByText('Not on the sheets')).toBeInTheDocument();
    expect(within(screen.getByTestId('batch-job-7')).queryByText('Not on the sheets')).not.toBeInTheDocument();
    expect(screen.getByText('2 sheets')).toBeInTheDocument();
    expect(screen.getByText(/^Print two-sided \(duplex\), flip on the long edge/)).toBeInTheDocument();
    const barcode = screen.getByRole('img', { name: 'Barcode PB-3' });
    expect(barcode.getAttribute('src')).toBe(`data:image/svg+xml;charset=utf-8,${encodeURIComponent(SVG)}`);
  });

  it('once packed: who packed the batch and when, each job packed by whom, copies counted', async () => {
    signIn(USER);
    const packedAt = '2026-11-26T13:05:00.000Z';
    const robin = { ...ROBIN, isPrinted: true, printedByName: 'Uma User', printedAt: '2026-11-26T10:30:00.000Z', packedAt, packedByName: 'Pat Packer' };
    const wren = { ...WREN, quantity: 4, isPrinted: true, printedByName: 'Uma User', printedAt: '2026-11-26T10:30:00.000Z' };
    fakeFetch(
      router(
        {
          'GET /api/batches/5/jobs': () => ok([{ ...JOBS[0], job: robin, packedCopies: 1 }, { ...JOBS[1], job: wren, packedCopies: 2 }]),
          'GET /api/batches/5': () => ok(batch({ state: 'packed', stateChangedByName: 'Pat Packer', stateChangedAt: packedAt, moves: [{ state: 'packed', at: packedAt, byName: 'Pat Packer' }] })),
        },
        USER,
      ),
    );
    renderBatch();
    await screen.findByRole('heading', { name: 'Batch 3' });
    expect(screen.getByText('Packed', { selector: 'dt' }).nextSibling).toHaveTextContent(`by Pat Packer, ${formatDateTime(packedAt)}`);
    expect(await screen.findByTestId('batch-job-7')).toHaveTextContent(`Packed by Pat Packer, ${formatDateTime(packedAt)}`);
    expect(screen.getByTestId('batch-job-8')).toHaveTextContent('Printed by Uma User');
    expect(screen.getByTestId('batch-job-8')).toHaveTextContent('2 of 4 copies packed');
  });

  it('shows real progress while the sheets are made, then saves them', async () => {
    signIn(USER);
    const user = userEvent.setup();
    let release: (r: Response) => void = () => {};
    const { calls } = fakeFetch(
      router(
        {
          'GET /api/batches/5/pdf/progress': () => ok({ jobsDone: 12, jobs: 45, sheets: 6, finished: false }),
          'GET /api/batches/5/pdf': () => new Promise<Response>((r) => (release = r)),
          'GET /api/batches/5/jobs': () => ok(JOBS),
          'GET /api/batches/5': () => ok(batch()),
        },
        USER,
      ),
    );
    renderBatch();
    await user.click(await screen.findByRole('button', { name: 'Download sheets' }));
    const status = await screen.findByTestId('sheets-progress');
    expect(await within(status).findByText('Placing job 13 of 45 on the sheets (6 sheets so far)', {}, { timeout: 3000 })).toBeInTheDocument();
    expect(within(status).getByRole('progressbar')).toHaveAttribute('aria-valuenow', String(Math.round((100 * 12) / 45)));
    // The download and the progress name the same work.
    const pdfCall = calls.find((c) => c.url.startsWith('/api/batches/5/pdf?'))!;
    const key = new URL(pdfCall.url, 'http://x').searchParams.get('progress');
    expect(key).toMatch(/^[0-9a-f-]{36}$/);
    expect(calls.some((c) => c.url === `/api/batches/5/pdf/progress?key=${key}`)).toBe(true);
    release(pdfResponse());
    await waitFor(() => expect(downloads).toEqual(['batch-3.pdf']));
    expect(screen.queryByTestId('sheets-progress')).not.toBeInTheDocument();
  });
});

describe('Create batch on Jobs', () => {
  const SHEETS = { sheets: [{ name: 'SRA3', widthMm: 320, heightMm: 450, marginMm: 0 }, { name: 'A4', widthMm: 210, heightMm: 297, marginMm: 5 }], gapMm: 6, slugMm: 3, duplex: 'turn' };
  const lists = () => (call: RecordedCall) => (call.url.includes('held=1') ? ok({ list: [], hasNext: false, total: 0 }) : ok({ list: [ROBIN, WREN, printJob({ id: 9, productName: 'Owl card' })], hasNext: false, total: 3 }));
  const renderJobs = () =>
    renderInAdmin(
      <>
        <PrintJobsPage />
        <LocationDisplay />
      </>,
      { path: '/print-jobs', routePath: '*' },
    );
  const tickAndOpen = async (user: ReturnType<typeof userEvent.setup>) => {
    await screen.findByTestId('print-job-7');
    await user.click(screen.getByRole('checkbox', { name: /^Select Wren card #/ }));
    await user.click(screen.getByRole('checkbox', { name: /^Select Robin card #/ }));
    await user.click(within(screen.getByRole('toolbar', { name: 'Bulk actions' })).getByRole('button', { name: 'Create batch' }));
    return screen.findByRole('dialog', { name: 'Create a batch of 2 jobs' });
  };

  it('sends the ticked jobs in queue order with the named sheet, and shows the refusal as the server wrote it', async () => {
    signIn(USER);
    const user = userEvent.setup();
    const { calls } = fakeFetch(
      router(
        {
          'GET /api/batches/sheets': () => ok(SHEETS),
          'POST /api/batches': () => fail('Jobs #7 and #8 are already in open batch 4', 409),
          'GET /api/print-jobs': lists(),
        },
        USER,
      ),
    );
    renderJobs();
    const dialog = await tickAndOpen(user);
    await user.click(await within(dialog).findByRole('radio', { name: 'SRA3 (320 × 450 mm)' }));
    await user.click(within(dialog).getByRole('button', { name: 'Create batch' }));
    expect(await within(dialog).findByRole('alert')).toHaveTextContent('Jobs #7 and #8 are already in open batch 4');
    const [call] = posts(calls, '/api/batches');
    expect(call.body).toEqual({ jobIds: [7, 8], sheet: 'SRA3' });
    expect(call.headers.get('Idempotency-Key')).toMatch(/^[0-9a-f-]{36}$/);
    // Still on Jobs, the dialog open to choose again.
    expect(screen.getByTestId('location')).toHaveTextContent(/^\/print-jobs$/);
    expect(within(dialog).getByRole('button', { name: 'Create batch' })).toBeEnabled();
  });

  it('Best fit sends no sheet and opens the new batch’s page', async () => {
    signIn(USER);
    const user = userEvent.setup();
    const { calls } = fakeFetch(
      router(
        {
          'GET /api/batches/sheets': () => ok(SHEETS),
          'POST /api/batches': () => ok(batch({ id: 12, number: 4 })),
          'GET /api/print-jobs': lists(),
        },
        USER,
      ),
    );
    renderJobs();
    const dialog = await tickAndOpen(user);
    expect(within(dialog).getByRole('radio', { name: 'Best fit (the sheet that holds the most)' })).toBeChecked();
    await user.click(within(dialog).getByRole('button', { name: 'Create batch' }));
    await waitFor(() => expect(screen.getByTestId('location')).toHaveTextContent('/batches/12'));
    expect(posts(calls, '/api/batches')[0].body).toEqual({ jobIds: [7, 8] });
  });
});
