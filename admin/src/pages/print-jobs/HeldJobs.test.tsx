import { beforeEach, describe, expect, it } from 'vitest';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { PreflightFinding } from '../../../../common/api/preflight';
import { ADMIN, LocationDisplay, renderInAdmin, signIn, fakeFetch, type RecordedCall } from '../../test/helpers';
import { ok, printJob, router } from '../../test/printProduction';
import { APPROVE_ANYWAY_MEANING } from './HeldJobActions';
import { MOVED_TO_JOBS } from './HeldJobs';
import { PrintJobsPage } from './PrintJobsPage';

const LOW_RES: PreflightFinding = {
  severity: 'error',
  code: 'low-resolution',
  message: 'Page 2 photo “Photo” is 120 ppi at its printed size — it will look soft',
  page: 2,
  area: { x: 0.1, y: 0.25, width: 0.5, height: 0.4 },
};
const SOFT: PreflightFinding = { severity: 'warning', code: 'low-resolution', message: 'Page 1 photo is 200 ppi at its printed size — 250 ppi or more prints sharp', page: 1 };
const HELD = printJob({ id: 7, productName: 'Robin card', orderName: '#1042', clientName: 'Site B', held: true, preflight: [SOFT, LOW_RES], preflightCheckedAt: '2025-03-07T10:00:00.000Z' });
const READY = printJob({ id: 8, productName: 'Mug' });

const isHeldList = (c: RecordedCall) => c.method === 'GET' && c.url.startsWith('/api/print-jobs?held=1');
const keyOf = (c: RecordedCall) => c.headers.get('Idempotency-Key');

function deferred<T>() {
  let resolve!: (value: T) => void;
  const promise = new Promise<T>((r) => (resolve = r));
  return { promise, resolve };
}

/** The Jobs screen with a stubbed server: `held` answers ?held=1, `ready` the queue, `post` the actions. */
function stubJobs({ held = [HELD], ready = [READY], post = {} }: { held?: unknown[]; ready?: unknown[]; post?: Record<string, (call: RecordedCall) => Response | Promise<Response>> } = {}) {
  return fakeFetch(
    router(
      {
        ...Object.fromEntries(Object.entries(post).map(([path, answer]) => [`POST ${path}`, answer])),
        'GET /api/print-jobs?held=1': () => ok({ list: held, hasNext: false, total: held.length }),
        'GET /api/print-jobs?page=': () => ok({ list: ready, hasNext: false, total: ready.length }),
      },
      ADMIN,
    ),
  );
}

function renderJobs(path = '/print-jobs?tab=held') {
  renderInAdmin(
    <>
      <PrintJobsPage />
      <LocationDisplay />
    </>,
    { path, routePath: '/print-jobs' },
  );
}

beforeEach(() => signIn(ADMIN));

describe('Jobs: the Held tab', () => {
  it('lists the held jobs (?held=1) with their findings and the page of the first error, the spot outlined', async () => {
    const { calls } = stubJobs();
    renderJobs();
    const row = await screen.findByTestId('held-job-7');
    expect(calls.filter(isHeldList).map((c) => c.url)).toContain('/api/print-jobs?held=1&page=1');
    expect(screen.getByRole('tab', { name: 'Held (1)' })).toHaveAttribute('aria-selected', 'true');
    expect(within(row).getByText('Robin card')).toBeInTheDocument();
    expect(within(row).getByText('#1042')).toBeInTheDocument();
    expect(within(row).getByText('Site B')).toBeInTheDocument();
    const findings = within(within(row).getByRole('list', { name: 'Preflight findings' })).getAllByRole('listitem');
    expect(findings).toHaveLength(2);
    expect(findings[0]).toHaveTextContent(`Warning${SOFT.message}page 1`);
    expect(findings[1]).toHaveTextContent(`Error${LOW_RES.message}page 2`);
    // The error's page (2), not the preview, with the photo's box drawn over it in percent.
    expect(within(row).getByRole('img', { name: 'Page 2 of Robin card' })).toHaveAttribute('src', '/files/a/2.png');
    const area = within(row).getByTestId('finding-area');
    expect(area).toHaveStyle({ left: '10%', top: '25%', width: '50%', height: '40%' });
    // A held job cannot be downloaded or deleted from here: its ways out are these two.
    expect(within(row).queryByRole('button', { name: 'PDF' })).not.toBeInTheDocument();
    expect(within(row).getByRole('button', { name: 'Approve anyway' })).toBeInTheDocument();
    expect(within(row).getByRole('button', { name: 'Re-check' })).toBeInTheDocument();
  });

  it('a server older than preflight (held=1 ignored, every job answered) shows no job as held and no count', async () => {
    stubJobs({ held: [READY, printJob({ id: 13 })] });
    renderJobs();
    expect(await screen.findByText(/^No held jobs/)).toBeInTheDocument();
    expect(screen.getByRole('tab', { name: 'Held' })).toHaveAttribute('aria-selected', 'true');
    expect(screen.queryByTestId('held-job-8')).not.toBeInTheDocument();
  });

  it('a finding about the whole file shows the preview, with nothing outlined', async () => {
    const whole = printJob({ id: 9, held: true, preflight: [{ severity: 'error', code: 'page-count', message: 'A card needs 4 pages; this file has 3', page: null }] });
    stubJobs({ held: [whole] });
    renderJobs();
    const row = await screen.findByTestId('held-job-9');
    expect(within(row).getByRole('img', { name: 'Preview of Birthday card' })).toHaveAttribute('src', '/files/previews/1.png');
    expect(within(row).queryByTestId('finding-area')).not.toBeInTheDocument();
  });

  it('Approve anyway asks first, says what it means, then approves (one key) and the row leaves', async () => {
    const user = userEvent.setup();
    const { calls } = stubJobs({
      held: [HELD, printJob({ id: 10, productName: 'Poster', held: true, preflight: [LOW_RES] })],
      post: { '/api/print-jobs/7/approve': () => ok({ ...HELD, held: false, preflightApproval: { byUserId: 1, byName: 'Ada Admin', at: '2025-03-08T09:00:00.000Z' } }) },
    });
    renderJobs();
    const row = await screen.findByTestId('held-job-7');
    expect(screen.getByRole('tab', { name: 'Held (2)' })).toBeInTheDocument();
    await user.click(within(row).getByRole('button', { name: 'Approve anyway' }));
    const dialog = await screen.findByRole('dialog');
    expect(dialog).toHaveTextContent('Approve Robin card anyway?');
    expect(dialog).toHaveTextContent(APPROVE_ANYWAY_MEANING);
    expect(calls.some((c) => c.method === 'POST')).toBe(false);

    await user.click(within(dialog).getByRole('button', { name: 'Approve anyway' }));
    await waitFor(() => expect(screen.queryByTestId('held-job-7')).not.toBeInTheDocument());
    const approvals = calls.filter((c) => c.method === 'POST');
    expect(approvals.map((c) => c.url)).toEqual(['/api/print-jobs/7/approve']);
    expect(keyOf(approvals[0])).toMatch(/^[0-9a-f-]{36}$/);
    expect(screen.getByTestId('held-job-10')).toBeInTheDocument();
    expect(screen.getByRole('tab', { name: 'Held (1)' })).toBeInTheDocument();
  });

  it('Re-check that still holds the job shows its new findings; the button is disabled while it runs', async () => {
    const answer = deferred<Response>();
    const stillSoft: PreflightFinding = { ...LOW_RES, message: 'Page 2 photo “Photo” is 140 ppi at its printed size — it will look soft', area: undefined };
    const { calls } = stubJobs({ post: { '/api/print-jobs/7/recheck': () => answer.promise.then((r) => r.clone()) } });
    renderJobs();
    const row = await screen.findByTestId('held-job-7');
    const recheck = within(row).getByRole('button', { name: 'Re-check' });
    // Two clicks in the same tick, before React can disable the button: one action, one key.
    fireEvent.click(recheck);
    fireEvent.click(recheck);
    await waitFor(() => expect(within(row).getByRole('button', { name: 'Re-check' })).toBeDisabled());
    expect(within(row).getByRole('button', { name: 'Approve anyway' })).toBeDisabled();
    const sent = calls.filter((c) => c.method === 'POST');
    expect(new Set(sent.map((c) => c.url))).toEqual(new Set(['/api/print-jobs/7/recheck']));
    expect(keyOf(sent[0])).toMatch(/^[0-9a-f-]{36}$/);
    expect(new Set(sent.map(keyOf)).size).toBe(1);

    answer.resolve(ok({ ...HELD, preflight: [stillSoft] }));
    expect(await within(row).findByText(stillSoft.message)).toBeInTheDocument();
    expect(within(row).queryByText(LOW_RES.message)).not.toBeInTheDocument();
    expect(within(row).queryByTestId('finding-area')).not.toBeInTheDocument();
    expect(await screen.findByText('Still held: 1 error')).toBeInTheDocument();
    expect(within(row).getByRole('button', { name: 'Re-check' })).toBeEnabled();
    expect(screen.getByTestId('held-job-7')).toBeInTheDocument();
  });

  it('Re-check of a fixed design: no problems, the row leaves Held with a notification', async () => {
    const user = userEvent.setup();
    stubJobs({ post: { '/api/print-jobs/7/recheck': () => ok({ ...HELD, held: false, preflight: [] }) } });
    renderJobs();
    const row = await screen.findByTestId('held-job-7');
    await user.click(within(row).getByRole('button', { name: 'Re-check' }));
    expect(await screen.findByText(MOVED_TO_JOBS)).toBeInTheDocument();
    await waitFor(() => expect(screen.queryByTestId('held-job-7')).not.toBeInTheDocument());
    expect(screen.getByRole('tab', { name: 'Held (0)' })).toBeInTheDocument();
  });

  it('keeps the tab in the address: Held is ?tab=held, Ready has none, and Ready counts the held jobs', async () => {
    const user = userEvent.setup();
    stubJobs();
    renderJobs('/print-jobs');
    expect(await screen.findByTestId('print-job-8')).toBeInTheDocument();
    expect(await screen.findByRole('tab', { name: 'Held (1)' })).toHaveAttribute('aria-selected', 'false');
    expect(screen.queryByTestId('held-job-7')).not.toBeInTheDocument();

    await user.click(screen.getByRole('tab', { name: 'Held (1)' }));
    expect(screen.getByTestId('location')).toHaveTextContent('/print-jobs?tab=held');
    expect(await screen.findByTestId('held-job-7')).toBeInTheDocument();
    expect(screen.queryByTestId('print-job-8')).not.toBeInTheDocument();

    await user.click(screen.getByRole('tab', { name: 'Ready' }));
    expect(screen.getByTestId('location')).toHaveTextContent(/^\/print-jobs$/);
    expect(await screen.findByTestId('print-job-8')).toBeInTheDocument();
  });
});

describe('Jobs: warnings that do not hold a job', () => {
  it('a ready job with warnings shows a chip that lists them with their pages; an approved one says who approved it', async () => {
    const user = userEvent.setup();
    const clipped: PreflightFinding = { severity: 'warning', code: 'text-clipped', message: 'Page 3 text “Message” is cut off', page: 3 };
    const warned = printJob({ id: 11, productName: 'Name card', preflight: [SOFT, clipped, { severity: 'info', code: 'no-bleed', message: 'A note', page: 1 }] });
    const approved = printJob({ id: 12, productName: 'Soft card', preflight: [LOW_RES], preflightApproval: { byUserId: 1, byName: 'Ada Admin', at: '2025-03-08T09:00:00.000Z' } });
    stubJobs({ held: [], ready: [warned, approved, READY] });
    renderJobs('/print-jobs');
    const row = await screen.findByTestId('print-job-11');
    const chip = within(row).getByRole('button', { name: 'Preflight: 2 warnings' });
    expect(chip).toHaveTextContent('2 warnings');
    expect(chip).toHaveClass('MuiChip-colorWarning');
    await user.click(chip);
    const popover = await screen.findByRole('dialog', { name: 'Preflight findings' });
    const listed = within(popover).getAllByRole('listitem');
    expect(listed).toHaveLength(2);
    expect(listed[0]).toHaveTextContent(`${SOFT.message}page 1`);
    expect(listed[1]).toHaveTextContent(`${clipped.message}page 3`);
    await user.keyboard('{Escape}');
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());

    const approvedRow = screen.getByTestId('print-job-12');
    expect(within(approvedRow).getByText('Approved anyway by Ada Admin')).toBeInTheDocument();
    expect(within(approvedRow).getByRole('button', { name: 'Preflight: 1 error' })).toBeInTheDocument();
    // A clean job says nothing.
    expect(within(screen.getByTestId('print-job-8')).queryByRole('button', { name: /^Preflight/ })).not.toBeInTheDocument();
  });
});
