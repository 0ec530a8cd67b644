// One Idempotency-Key per user action: sent with the call, the same on a retry of that call, a new
// one for the next action; the buttons of the three double-click actions are disabled while they run.
import { beforeAll, describe, expect, it } from 'vitest';
import { configure, fireEvent, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { ADMIN, renderInAdmin, signIn, fakeFetch, USER, type RecordedCall } from '../test/helpers';
import { design, ok, router } from '../test/printProduction';
import { order } from '../test/orders';
import { AddToPrintJobsButton } from '../pages/design/AddToPrintJobsButton';
import { DesignInfoForm } from '../pages/design/DesignInfoForm';
import { SendHpManuallyPage } from '../pages/send-hp-manually/SendHpManuallyPage';
import { useServerQuestion } from '../components/useServerQuestion';
import { SendHpButton } from '../pages/orders/SendHpButton';
import { RerunPanel } from '../pages/check-order/RerunPanel';
import { CancelAtHpButton } from '../pages/check-order/CancelAtHpButton';
import { UsersModal } from '../resources/sites/UsersModal';
import { DaySync } from '../pages/re-n-adestra-sync/DaySync';
import { ApiError } from '../providers/api';
import { dataProvider } from '../providers/dataProvider';

beforeAll(() => configure({ asyncUtilTimeout: 10_000 }));

function deferred<T>() {
  let resolve!: (value: T) => void;
  const promise = new Promise<T>((r) => (resolve = r));
  return { promise, resolve };
}

const keyOf = (c: RecordedCall) => c.headers.get('Idempotency-Key');
const posts = (calls: RecordedCall[], url: string) => calls.filter((c) => c.method === 'POST' && c.url === url);

describe('Add to print jobs', () => {
  it('sends a key, disables the button while it runs, and a double click is one action', async () => {
    signIn(USER);
    const answer = deferred<Response>();
    const { calls } = fakeFetch(router({ 'POST /api/print-jobs': () => answer.promise.then((r) => r.clone()) }, USER));
    renderInAdmin(<AddToPrintJobsButton design={design({ data: { artworkUrls: ['/files/a/1.png'] } })} />, { path: '/design/5' });
    const button = await screen.findByRole('button', { name: 'Add to print jobs' });
    await waitFor(() => expect(button).toBeEnabled());
    // Two clicks in the same tick, before React can disable the button.
    fireEvent.click(button);
    fireEvent.click(button);
    await waitFor(() => expect(screen.getByRole('button', { name: 'Add to print jobs' })).toBeDisabled());
    const sent = posts(calls, '/api/print-jobs');
    expect(sent.length).toBeGreaterThan(0);
    expect(keyOf(sent[0])).toMatch(/^[0-9a-f-]{36}$/);
    expect(new Set(sent.map(keyOf)).size).toBe(1);
    answer.resolve(ok({ id: 99 }));
    expect(await screen.findByText('Successfully added a print job')).toBeInTheDocument();
    await waitFor(() => expect(screen.getByRole('button', { name: 'Add to print jobs' })).toBeEnabled());
    // The next click is a new action: a new key.
    await userEvent.click(screen.getByRole('button', { name: 'Add to print jobs' }));
    await waitFor(() => expect(new Set(posts(calls, '/api/print-jobs').map(keyOf)).size).toBe(2));
  });

  it('a retry after a lost answer sends the same key again', async () => {
    signIn(USER);
    let tries = 0;
    const { calls } = fakeFetch(
      router(
        {
          'POST /api/print-jobs': () => {
            tries += 1;
            if (tries === 1) return Promise.reject(new TypeError('Failed to fetch'));
            return ok({ id: 100 });
          },
        },
        USER,
      ),
    );
    renderInAdmin(<AddToPrintJobsButton design={design({ data: { artworkUrls: ['/files/a/1.png'] } })} />, { path: '/design/5' });
    const button = await screen.findByRole('button', { name: 'Add to print jobs' });
    await waitFor(() => expect(button).toBeEnabled());
    await userEvent.click(button);
    expect(await screen.findByText('Successfully added a print job')).toBeInTheDocument();
    const sent = posts(calls, '/api/print-jobs');
    expect(sent).toHaveLength(2);
    expect(keyOf(sent[1])).toBe(keyOf(sent[0]));
  });
});

describe('Save of a new design', () => {
  it('sends a key and disables Save while it runs', async () => {
    signIn(USER);
    const answer = deferred<Response>();
    const { calls } = fakeFetch(router({ 'POST /api/designs': () => answer.promise }, USER));
    renderInAdmin(<DesignInfoForm design={null} canSave canDelete={false} onSaved={() => undefined} onDeleted={() => undefined} />, { path: '/design/new' });
    await userEvent.click(await screen.findByRole('button', { name: 'Save' }));
    await waitFor(() => expect(screen.getByRole('button', { name: 'Save' })).toBeDisabled());
    expect(keyOf(posts(calls, '/api/designs')[0])).toMatch(/^[0-9a-f-]{36}$/);
    answer.resolve(ok(design({ id: 12 })));
    await waitFor(() => expect(screen.getByRole('button', { name: 'Save' })).toBeEnabled());
    expect(posts(calls, '/api/designs')).toHaveLength(1);
  });
});

describe('Send HP Manually', () => {
  it('sends a key and disables Send while it runs; a new Send is a new key', async () => {
    signIn(USER);
    let answer = deferred<Response>();
    const { calls } = fakeFetch(router({ 'POST /api/online-stores/manually-send-hp': () => answer.promise }, USER));
    renderInAdmin(<SendHpManuallyPage />, { path: '/send-hp-manually', routePath: '/send-hp-manually' });
    await userEvent.click(await screen.findByRole('button', { name: 'Send' }));
    expect(await screen.findByRole('button', { name: 'Sending...' })).toBeDisabled();
    const first = keyOf(posts(calls, '/api/online-stores/manually-send-hp')[0]);
    expect(first).toMatch(/^[0-9a-f-]{36}$/);
    answer.resolve(ok({ success: true }));
    answer = deferred<Response>();
    await userEvent.click(await screen.findByRole('button', { name: 'Send' }));
    await waitFor(() => expect(posts(calls, '/api/online-stores/manually-send-hp')).toHaveLength(2));
    expect(keyOf(posts(calls, '/api/online-stores/manually-send-hp')[1])).not.toBe(first);
    answer.resolve(ok({ success: true }));
  });
});

describe('admin REST create (react-admin useCreate)', () => {
  it('sends a key per create, the caller\'s own when given in meta', async () => {
    signIn(USER);
    const { calls } = fakeFetch(() => new Response(JSON.stringify({ id: 3, name: 'x' }), { status: 201, headers: { 'Content-Type': 'application/json' } }));
    await dataProvider.create('sites', { data: { name: 'x' } });
    await dataProvider.create('sites', { data: { name: 'x' }, meta: { idempotencyKey: 'given-key' } });
    expect(keyOf(calls[0])).toMatch(/^[0-9a-f-]{36}$/);
    expect(keyOf(calls[1])).toBe('given-key');
    expect(calls[1].headers.get('Authorization')).toMatch(/^Bearer /);
  });
});

describe('a question the server asks first (useServerQuestion)', () => {
  function Asker({ action }: { action: (answers: Record<string, boolean>, key: string) => Promise<string> }) {
    const question = useServerQuestion('Print it?', 'Print');
    return (
      <>
        <button type="button" onClick={() => void question.withQuestion(action)}>
          Go
        </button>
        {question.dialog}
      </>
    );
  }

  it('the yes is a new action: its try carries a new key (the first key keeps the question as its answer)', async () => {
    signIn(USER);
    fakeFetch(router({}, USER));
    const tries: Array<{ answers: Record<string, boolean>; key: string }> = [];
    const action = async (answers: Record<string, boolean>, key: string) => {
      tries.push({ answers, key });
      if (!answers.printInHouse) throw new ApiError('The provider makes this item. Print it in house?', 409, { details: { confirmWith: { printInHouse: true } } });
      return 'done';
    };
    renderInAdmin(<Asker action={action} />, { path: '/ask' });
    await userEvent.click(await screen.findByRole('button', { name: 'Go' }));
    await userEvent.click(await screen.findByRole('button', { name: 'Print' }));
    await waitFor(() => expect(tries).toHaveLength(2));
    expect(tries[0].key).toMatch(/^[0-9a-f-]{36}$/);
    expect(tries[1].answers).toEqual({ printInHouse: true });
    expect(tries[1].key).toMatch(/^[0-9a-f-]{36}$/);
    expect(tries[1].key).not.toBe(tries[0].key);
  });
});

/** Two clicks in the same tick (before React disables the button): the calls they make carry one key. */
async function doubleClick(name: string | RegExp) {
  const button = await screen.findByRole('button', { name });
  await waitFor(() => expect(button).toBeEnabled());
  fireEvent.click(button);
  fireEvent.click(button);
}

describe('the other create and send actions', () => {
  it('Send HP on an order: a double click is one key, the button disabled while it runs', async () => {
    signIn(USER);
    const answer = deferred<Response>();
    const url = '/api/online-stores/shopify-webhook/send-hp';
    const { calls } = fakeFetch(router({ [`POST ${url}`]: () => answer.promise.then((r) => r.clone()) }, USER));
    renderInAdmin(<SendHpButton orderId="77" alreadySent={false} onSent={() => undefined} onErrorData={() => undefined} />, { path: '/orders' });
    await doubleClick('Send HP');
    await waitFor(() => expect(screen.getByRole('button', { name: 'Send HP' })).toBeDisabled());
    const sent = posts(calls, url);
    expect(sent.length).toBeGreaterThan(0);
    expect(keyOf(sent[0])).toMatch(/^[0-9a-f-]{36}$/);
    expect(new Set(sent.map(keyOf)).size).toBe(1);
    answer.resolve(ok({ status: 'sent', hpOrderId: 'H1', sentAt: '2026-03-01T10:00:00.000Z', orderStatus: 'sent' }));
    expect(await screen.findByText(/^Send HP successfully: HP Site Flow has (the order|this line)/)).toBeInTheDocument();
  });

  it('LINE on an order: sends a key', async () => {
    signIn(USER);
    const url = '/api/online-stores/shopify-webhook/send-hp-single-line';
    const { calls } = fakeFetch(router({ [`POST ${url}`]: () => ok({ status: 'sent', hpOrderId: 'H1', sentAt: null, orderStatus: 'sent' }) }, USER));
    renderInAdmin(<SendHpButton orderId="77" lineId="5" alreadySent={false} onSent={() => undefined} onErrorData={() => undefined} />, { path: '/orders' });
    await doubleClick('Send line 5 to HP');
    await waitFor(() => expect(posts(calls, url).length).toBeGreaterThan(0));
    expect(keyOf(posts(calls, url)[0])).toMatch(/^[0-9a-f-]{36}$/);
    expect(new Set(posts(calls, url).map(keyOf)).size).toBe(1);
  });

  it('Re-submit and Cancel at HP send a key', async () => {
    signIn(USER);
    const { calls } = fakeFetch(
      router(
        {
          'POST /api/online-stores/rerun-order': () => ok({ ran: ['addToAdestra'], skipped: [] }),
          'GET /api/orders/77/pipeline': () => ok({ orderId: '77', siteId: 1, steps: [{ step: 'addToAdestra', lineId: null, state: 'off', message: null, ref: null, link: null, recipient: null, at: null, nextAttemptAt: null, attempts: 0, outboxId: null }] }),
          'POST /api/online-stores/shopify-webhook/cancel-hp': () => ok({ status: 'cancelled', message: 'ok', at: null, sourceOrderIds: [] }),
        },
        USER,
      ),
    );
    renderInAdmin(
      <>
        <RerunPanel order={order({ id: 1 }, { id: '77' })} onDone={() => undefined} />
        <CancelAtHpButton orderId="77" onDone={() => undefined} />
      </>,
      { path: '/check-order' },
    );
    await userEvent.click(await screen.findByRole('checkbox', { name: 'Add to Adestra' }));
    await doubleClick('Re-submit');
    await waitFor(() => expect(posts(calls, '/api/online-stores/rerun-order').length).toBeGreaterThan(0));
    expect(new Set(posts(calls, '/api/online-stores/rerun-order').map(keyOf)).size).toBe(1);
    expect(keyOf(posts(calls, '/api/online-stores/rerun-order')[0])).toMatch(/^[0-9a-f-]{36}$/);
    await userEvent.click(screen.getByRole('button', { name: 'Cancel at HP' }));
    const dialog = await screen.findByRole('dialog');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Cancel at HP' }));
    await waitFor(() => expect(posts(calls, '/api/online-stores/shopify-webhook/cancel-hp')).toHaveLength(1));
    expect(keyOf(posts(calls, '/api/online-stores/shopify-webhook/cancel-hp')[0])).toMatch(/^[0-9a-f-]{36}$/);
  });

  it('Save of a new user: sends a key, Save disabled while it runs', async () => {
    signIn(ADMIN);
    const answer = deferred<Response>();
    const { calls } = fakeFetch(router({ 'POST /api/users/upsert': () => answer.promise }, ADMIN));
    renderInAdmin(<UsersModal open siteId={3} user={null} onClose={() => undefined} onSaved={() => undefined} />, { path: '/sites/3' });
    await userEvent.type(screen.getByLabelText('First name'), 'Grace');
    await userEvent.type(screen.getByLabelText('Email'), 'grace@example.com');
    await doubleClick('Save');
    await waitFor(() => expect(screen.getByRole('button', { name: 'Save' })).toBeDisabled());
    expect(posts(calls, '/api/users/upsert')).toHaveLength(1);
    expect(keyOf(posts(calls, '/api/users/upsert')[0])).toMatch(/^[0-9a-f-]{36}$/);
    answer.resolve(ok({ id: 9, firstName: 'Grace', lastName: '', email: 'grace@example.com', role: 'user', siteId: 3, createdAt: '2026-01-01T00:00:00.000Z' }));
  });

  it('Sync by day: the yes starts the run with a key', async () => {
    signIn(USER);
    const url = '/api/sites/site-a/raiser-edge-sync-list-from-specific-day';
    const run = { id: 4, type: 're-sync', field1: '2026-03-10', field2: 'day', data: { status: 'success', startedAt: '2026-03-10T00:00:00.000Z', results: [], errors: [] } };
    const { calls } = fakeFetch(
      router({ [`POST ${url}`]: () => ok({ run, alreadyRunning: false }), 'GET /api/sites/site-a/raiser-edge-sync-day-preview': () => ok({ day: '2026-03-10', contacts: null, basis: null }) }, USER),
    );
    renderInAdmin(<DaySync site="site-a" />, { path: '/re-n-adestra-sync' });
    fireEvent.change(screen.getByLabelText('Day'), { target: { value: '2026-03-10' } });
    await userEvent.click(screen.getByRole('button', { name: 'Sync' }));
    const dialog = await screen.findByRole('dialog');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Sync' }));
    await waitFor(() => expect(posts(calls, url)).toHaveLength(1));
    expect(keyOf(posts(calls, url)[0])).toMatch(/^[0-9a-f-]{36}$/);
  });
});
