import { afterEach, describe, expect, it, vi } from 'vitest';
import { act, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { OrderPipeline, PipelineStepView } from '../../../../common/api/pipeline';
import { ADMIN, renderInAdmin, signIn, fakeFetch, USER, type RecordedCall } from '../../test/helpers';
import { order } from '../../test/orders';
import { fail, ok, router } from '../../test/printProduction';
import { CheckOrderPage } from './CheckOrderPage';
import { PIPELINE_POLL_MS } from './useOrderPipeline';
import { RESUBMIT_SUCCESS } from './RerunPanel';

const ROBIN = order({ id: 1 }, { id: '5500000001', name: '#1001' });
const PIPELINE_URL = '/api/orders/5500000001/pipeline?siteId=1';

const step = (over: Partial<PipelineStepView> & Pick<PipelineStepView, 'step' | 'state'>): PipelineStepView => ({
  lineId: null,
  message: null,
  ref: null,
  link: null,
  recipient: null,
  at: null,
  nextAttemptAt: null,
  attempts: 0,
  outboxId: null,
  ...over,
});

const pipeline = (steps: PipelineStepView[]): OrderPipeline => ({ orderId: '5500000001', siteId: 1, steps });

const EVERY_STATE = pipeline([
  step({ step: 'addToRaisersEdge', state: 'done', ref: '280', link: 'https://host.nxt.blackbaud.com/constituent/records/280', at: '2026-12-20T09:15:00', attempts: 1, outboxId: 11 }),
  step({ step: 'addToAdestra', state: 'failed', message: 'Adestra refused the contact: 422 email is invalid', at: '2026-12-20T09:16:00', attempts: 3, outboxId: 12 }),
  step({ step: 'sendEcard', lineId: '901', state: 'queued', recipient: 'Marian <marian@example.com>', nextAttemptAt: '2026-12-24T08:00:00', outboxId: 13 }),
  step({ step: 'sendEcard', lineId: '902', state: 'done', recipient: 'tuck@example.com', ref: '<abc.1@presswork.local>', at: '2026-12-20T09:17:00', attempts: 2, outboxId: 14 }),
]);

const pipelineCalls = (calls: RecordedCall[]) => calls.filter((c) => c.url === PIPELINE_URL);
const renderCheck = () => renderInAdmin(<CheckOrderPage />, { path: '/check-order?id=5500000001', routePath: '/check-order' });

afterEach(() => {
  vi.useRealTimers();
});

describe('Check order: the Pipeline panel', () => {
  it('shows each step with its state, message, record and when; the e-card rows name their recipient', async () => {
    signIn(USER);
    fakeFetch(router({ 'POST /api/online-stores/check-order': () => ok([ROBIN]), 'GET /api/orders/5500000001/pipeline': () => ok(EVERY_STATE) }, USER));
    renderCheck();
    const table = await screen.findByRole('table', { name: 'Pipeline steps' });
    expect(within(screen.getByRole('region', { name: 'Pipeline' })).getByRole('heading', { name: 'Pipeline' })).toBeInTheDocument();

    const crm = within(table).getByTestId('pipeline-addToRaisersEdge');
    expect(crm).toHaveTextContent("Add to Raiser's Edge");
    expect(within(crm).getByText('done').closest('.MuiChip-root')).toHaveClass('MuiChip-colorSuccess');
    expect(within(crm).getByRole('link', { name: 'Constituent 280' })).toHaveAttribute('href', 'https://host.nxt.blackbaud.com/constituent/records/280');
    expect(crm).toHaveTextContent('20/12/2026 09:15');
    // One attempt is the normal case: said only when it took more.
    expect(crm).not.toHaveTextContent('attempts');

    const adestra = within(table).getByTestId('pipeline-addToAdestra');
    expect(within(adestra).getByText('failed').closest('.MuiChip-root')).toHaveClass('MuiChip-colorError');
    expect(adestra).toHaveTextContent('Adestra refused the contact: 422 email is invalid');
    expect(adestra).toHaveTextContent('3 attempts');

    const queued = within(table).getByTestId('pipeline-sendEcard-901');
    expect(queued).toHaveTextContent('Send e-card to Marian <marian@example.com>');
    expect(within(queued).getByText('queued').closest('.MuiChip-root')).toHaveClass('MuiChip-colorInfo');
    expect(queued).toHaveTextContent('sends on 24/12/2026 08:00');

    const sent = within(table).getByTestId('pipeline-sendEcard-902');
    expect(sent).toHaveTextContent('Send e-card to tuck@example.com');
    // No address for an e-mail: the Message-ID as text.
    expect(sent).toHaveTextContent('Message-ID <abc.1@presswork.local>');
    expect(within(sent).queryByRole('link')).not.toBeInTheDocument();
    expect(sent).toHaveTextContent('2 attempts');
  });

  it.each([
    ['not-configured', 'not configured', 'Set RE_CONSENT_SOURCE and RE_CONSENT_CATEGORY'],
    ['off', 'off', 'Not run automatically: Re-run runs it'],
    ['waiting-for-payment', 'waiting for payment', 'Runs once the order is paid'],
    ['not-needed', 'not needed', 'No e-card in this order'],
  ] as const)('a %s step shows "%s" (no colour) and its message', async (state, label, message) => {
    signIn(USER);
    fakeFetch(router({ 'POST /api/online-stores/check-order': () => ok([ROBIN]), 'GET /api/orders/5500000001/pipeline': () => ok(pipeline([step({ step: 'addToRaisersEdge', state, message })])) }, USER));
    renderCheck();
    const row = await screen.findByTestId('pipeline-addToRaisersEdge');
    expect(within(row).getByText(label).closest('.MuiChip-root')).toHaveClass('MuiChip-colorDefault');
    expect(row).toHaveTextContent(message);
  });

  it('a step not set up: staff read that an admin sets it up; an admin gets the setting names as a link to the site', async () => {
    const notSetUp = (settingsLink?: string) => pipeline([step({ step: 'addToAdestra', state: 'not-configured', message: settingsLink ? 'not configured for this site: set ADESTRA_TOKEN' : "not set up for this site (an admin sets it up in the site's settings)", settingsLink })]);
    signIn(ADMIN);
    fakeFetch(router({ 'POST /api/online-stores/check-order': () => ok([ROBIN]), 'GET /api/orders/5500000001/pipeline': () => ok(notSetUp('/sites/1')) }, ADMIN));
    const { unmount } = renderCheck();
    const link = await screen.findByRole('link', { name: 'not configured for this site: set ADESTRA_TOKEN' });
    expect(link).toHaveAttribute('href', '/sites/1');
    unmount();
    signIn(USER);
    fakeFetch(router({ 'POST /api/online-stores/check-order': () => ok([ROBIN]), 'GET /api/orders/5500000001/pipeline': () => ok(notSetUp()) }, USER));
    renderCheck();
    const row = await screen.findByTestId('pipeline-addToAdestra');
    expect(row).toHaveTextContent("not set up for this site (an admin sets it up in the site's settings)");
    expect(within(row).queryByRole('link')).not.toBeInTheDocument();
  });

  it('the server\'s refusal shows in the panel', async () => {
    signIn(USER);
    fakeFetch(router({ 'POST /api/online-stores/check-order': () => ok([ROBIN]), 'GET /api/orders/5500000001/pipeline': () => fail('Order not found on this site', 404) }, USER));
    renderCheck();
    const panel = await screen.findByRole('region', { name: 'Pipeline' });
    expect(await within(panel).findByRole('alert')).toHaveTextContent('Order not found on this site');
  });

  it('reads again while a step is queued, and stops once none is', async () => {
    vi.useFakeTimers({ shouldAdvanceTime: true });
    signIn(USER);
    const answers = [
      pipeline([step({ step: 'sendEcard', lineId: '901', state: 'queued', recipient: 'marian@example.com', nextAttemptAt: '2026-12-24T08:00:00' })]),
      pipeline([step({ step: 'sendEcard', lineId: '901', state: 'done', recipient: 'marian@example.com', ref: '<m1@presswork.local>', at: '2026-12-24T08:00:05' })]),
    ];
    const { calls } = fakeFetch(
      router({ 'POST /api/online-stores/check-order': () => ok([ROBIN]), 'GET /api/orders/5500000001/pipeline': () => ok(answers[Math.min(pipelineCalls(calls).length - 1, 1)]) }, USER),
    );
    renderCheck();
    const row = await screen.findByTestId('pipeline-sendEcard-901');
    expect(within(row).getByText('queued')).toBeInTheDocument();
    await act(() => vi.advanceTimersByTimeAsync(PIPELINE_POLL_MS + 100));
    expect(await within(row).findByText('done')).toBeInTheDocument();
    expect(pipelineCalls(calls)).toHaveLength(2);
    // Nothing queued any more: no more reads.
    await act(() => vi.advanceTimersByTimeAsync(PIPELINE_POLL_MS * 3));
    expect(pipelineCalls(calls)).toHaveLength(2);
  });

  it('Re-run reads the pipeline again, and its failures show as errors, not as success', async () => {
    signIn(USER);
    let reran = false;
    const { calls } = fakeFetch(
      router(
        {
          'POST /api/online-stores/check-order': () => ok([ROBIN]),
          'GET /api/orders/5500000001/pipeline': () =>
            ok(pipeline([step({ step: 'addToRaisersEdge', state: reran ? 'failed' : 'off', message: reran ? "Raiser's Edge refused the constituent: 400 Invalid email" : null }), step({ step: 'addToAdestra', state: 'off' }), step({ step: 'sendEcard', state: 'not-needed' })])),
          'POST /api/online-stores/rerun-order': () => {
            reran = true;
            return ok({
              ran: ['addToAdestra'],
              skipped: [],
              failed: [
                { step: 'addToRaisersEdge', error: "Raiser's Edge refused the constituent: 400 Invalid email" },
                { step: 'sendEcard', error: 'The mail server did not answer: 421 try later', retrying: true },
              ],
            });
          },
        },
        USER,
      ),
    );
    renderCheck();
    const row = await screen.findByTestId('pipeline-addToRaisersEdge');
    expect(within(row).getByText('off')).toBeInTheDocument();
    await userEvent.click(screen.getByRole('checkbox', { name: "Add to Raiser's Edge" }));
    await userEvent.click(screen.getByRole('checkbox', { name: 'Add to Adestra' }));
    await userEvent.click(screen.getByRole('checkbox', { name: 'Send e-card' }));
    await userEvent.click(screen.getByRole('button', { name: 'Re-submit' }));

    const result = (await screen.findByText("Failed Add to Raiser's Edge: Raiser's Edge refused the constituent: 400 Invalid email")).closest('.MuiAlert-root');
    expect(result).toHaveClass('MuiAlert-colorError');
    expect(result).toHaveTextContent('Done: Add to Adestra');
    expect(result).toHaveTextContent('Failed Send e-card: The mail server did not answer: 421 try later (tried again automatically)');
    expect(await screen.findByText("Re-submit failed: Add to Raiser's Edge, Send e-card")).toBeInTheDocument();
    expect(screen.queryByText(RESUBMIT_SUCCESS)).not.toBeInTheDocument();

    expect(await within(row).findByText('failed')).toBeInTheDocument();
    expect(pipelineCalls(calls)).toHaveLength(2);
  });

  it('a re-run whose only failure is retried is a warning', async () => {
    signIn(USER);
    fakeFetch(
      router(
        {
          'POST /api/online-stores/check-order': () => ok([ROBIN]),
          'GET /api/orders/5500000001/pipeline': () => ok(pipeline([step({ step: 'sendEcard', state: 'not-needed' })])),
          'POST /api/online-stores/rerun-order': () => ok({ ran: [], skipped: [], failed: [{ step: 'sendEcard', error: '421 try later', retrying: true }] }),
        },
        USER,
      ),
    );
    renderCheck();
    await screen.findByRole('table', { name: 'Pipeline steps' });
    await userEvent.click(screen.getByRole('checkbox', { name: 'Send e-card' }));
    await userEvent.click(screen.getByRole('button', { name: 'Re-submit' }));
    const result = (await screen.findByText('Failed Send e-card: 421 try later (tried again automatically)')).closest('.MuiAlert-root');
    expect(result).toHaveClass('MuiAlert-colorWarning');
    expect(screen.queryByText(RESUBMIT_SUCCESS)).not.toBeInTheDocument();
  });
});
