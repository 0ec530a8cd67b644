import { describe, expect, it } from 'vitest';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { jsonResponse, renderInAdmin, signIn, fakeFetch, USER, type RecordedCall } from '../../test/helpers';
import { order, providerEvent, providerSend } from '../../test/orders';
import { fail, ok, router } from '../../test/printProduction';
import { CheckOrderPage } from './CheckOrderPage';
import { searchOf } from './OrderSearchForm';

const ROBIN = order({ id: 1 }, { id: '5500000001', name: '#1001', hpOrderId: 'hp-1', tracking: { number: 'TRK123', method: 'Royal Mail', url: null } });
const checkCalls = (calls: RecordedCall[]) => calls.filter((c) => c.url === '/api/online-stores/check-order');

function renderCheck(path = '/check-order?id=5500000001') {
  return renderInAdmin(<CheckOrderPage />, { path, routePath: '/check-order' });
}

describe('searchOf', () => {
  it('takes digits as an order id and anything else as an order name', () => {
    expect(searchOf(' 5500000001 ')).toEqual({ id: '5500000001' });
    expect(searchOf('#1001')).toEqual({ name: '#1001' });
    expect(searchOf('HOOD-1001')).toEqual({ name: 'HOOD-1001' });
    expect(searchOf('  ')).toEqual({});
  });
});

describe('Check order (/check-order)', () => {
  it('shows the order of ?id= on the "Shopify Data" tab, then its provider data on "HP Data"', async () => {
    signIn(USER);
    const { calls } = fakeFetch(
      router({ 'POST /api/online-stores/check-order': () => ok([providerEvent(), providerSend(), ROBIN]) }, USER),
    );
    renderCheck();
    expect(await screen.findByRole('heading', { name: 'Order #1001' })).toBeInTheDocument();
    expect(checkCalls(calls)[0].body).toEqual({ id: '5500000001' });
    expect(screen.getByRole('tab', { name: 'Shopify Data' })).toHaveAttribute('aria-selected', 'true');
    const panel = screen.getByRole('tabpanel');
    expect(within(panel).getByText('Robin Hood')).toBeInTheDocument();
    expect(within(panel).getByText('robin@example.com')).toBeInTheDocument();
    expect(within(panel).getByText('07/03/2025 10:05')).toBeInTheDocument();
    expect(within(panel).getByText('1 Forest Lane, Nottingham, NG1 1AA, GB', { exact: false })).toBeInTheDocument();
    const lines = within(panel).getByRole('table', { name: 'Line items' });
    expect(within(lines).getByText('CARD-ROBIN')).toBeInTheDocument();
    expect(within(panel).getByLabelText('Shopify raw data')).toHaveTextContent('"order_number": 1001');
    expect(document.title).toBe('Check order | Presswork');

    await userEvent.click(screen.getByRole('tab', { name: 'HP Data' }));
    const hp = screen.getByRole('tabpanel');
    const events = within(hp).getByRole('table', { name: 'Provider events' });
    expect(within(events).getByText('TRK123')).toBeInTheDocument();
    expect(within(events).getByText('Royal Mail 1st Class')).toBeInTheDocument();
    expect(within(hp).getByLabelText('Sent data')).toHaveTextContent('"sourceOrderId": "5500000001"');
    expect(within(hp).getByLabelText('Response')).toHaveTextContent('"_id": "hp-1"');
  });

  it("Site Flow's refusal shows on the order in its words", async () => {
    signIn(USER);
    const refused = order(
      { id: 1, status: 'error' },
      { id: '5500000001', name: '#1001', hpOrderId: 'ack-1', providerError: { message: 'Order validation failed: orderData.shipments[0].shipTo.postcode is required', sourceOrderId: '5500000001', at: '2025-03-08T10:01:00' } },
    );
    fakeFetch(router({ 'POST /api/online-stores/check-order': () => ok([refused]) }, USER));
    renderCheck();
    const notice = await screen.findByRole('status', { name: 'Provider refusal' });
    expect(notice).toHaveTextContent('HP Site Flow refused the order');
    expect(notice).toHaveTextContent('orderData.shipments[0].shipTo.postcode is required');
  });

  it('an order Site Flow only acknowledged says it is not yet accepted', async () => {
    signIn(USER);
    const waiting = order({ id: 1, status: 'sent' }, { id: '5500000001', name: '#1001', hpOrderId: 'ack-1', hpOrders: { '5500000001': { hpOrderId: 'ack-1', acknowledged: true } } });
    fakeFetch(router({ 'POST /api/online-stores/check-order': () => ok([waiting]) }, USER));
    renderCheck();
    expect(await screen.findByRole('status', { name: 'Provider acknowledgement' })).toHaveTextContent('Submitted to HP Site Flow, not yet accepted');
    expect(screen.queryByRole('status', { name: 'Provider refusal' })).not.toBeInTheDocument();
  });

  it('a cancelled order shows the store\'s reason and what HP Site Flow said about the cancellation', async () => {
    signIn(USER);
    const cancelled = order(
      { id: 1, status: 'cancelled' },
      {
        id: '5500000001',
        name: '#1001',
        financial_status: 'voided',
        line_items: [{ id: '901', name: 'Robin card', sku: 'CARD-ROBIN', quantity: 2, current_quantity: 1 }],
        production: [{ lineId: '901', printJobId: 7, madeBy: 'inHouse', isPrinted: false, withdrawn: 'The order was cancelled in the store (customer)' }],
        cancelled: { cancelledAt: '2025-03-08T10:00:00', reason: 'customer' },
        providerCancellation: { status: 'failed', message: 'HP Site Flow refused to cancel 5500000001: A shipped order cannot be cancelled', at: '2025-03-08T10:01:00' } },
    );
    fakeFetch(router({ 'POST /api/online-stores/check-order': () => ok([cancelled]) }, USER));
    renderCheck();
    const notice = await screen.findByRole('status', { name: 'Order cancelled' });
    expect(notice).toHaveTextContent('Cancelled in the store on 08/03/2025 10:00');
    expect(notice).toHaveTextContent('Reason: customer');
    const provider = screen.getByRole('status', { name: 'Provider cancellation' });
    expect(provider).toHaveTextContent('Not cancelled at HP Site Flow');
    expect(provider).toHaveTextContent('A shipped order cannot be cancelled');
    const lines = screen.getByRole('table', { name: 'Line items' });
    expect(within(lines).getByText('1 of 2')).toBeInTheDocument();
    expect(within(lines).getByText('In house, Jobs (job #7): left the Jobs queue unprinted (The order was cancelled in the store (customer))')).toBeInTheDocument();
    expect(screen.getByText('voided')).toBeInTheDocument();
    expect(notice).toHaveTextContent('Its print job left the Jobs queue unprinted. Nothing more of it is printed or sent.');
  });

  it('an order sent to HP and then cancelled says so: HP was asked to cancel it, its lines were never in Jobs, no "sent → sent"', async () => {
    signIn(USER);
    const sentThenCancelled = order(
      { id: 1, status: 'cancelled' },
      {
        id: '5500000001',
        name: '#1001',
        hpOrderId: 'hp-77',
        line_items: [{ id: '901', name: 'Robin card', sku: 'CARD-ROBIN', quantity: 1 }],
        preGeneratedHPItems: [{ lineId: '901', sentAt: '2025-03-08T09:00:00' }],
        production: [{ lineId: '901', printJobId: 12, madeBy: 'provider', isPrinted: false, withdrawn: 'The order was cancelled in the store (customer)' }],
        cancelled: { cancelledAt: '2025-03-08T10:00:00', reason: 'customer' },
        providerCancellation: { status: 'cancelled', message: 'Cancelled at HP Site Flow (5500000001)', at: '2025-03-08T10:01:00' },
      },
    );
    const history = [
      { at: '2025-03-08T09:00:00', actor: { automatic: 'HP Site Flow send' }, action: 'status', from: 'received', to: 'sent', reason: null, kind: 'order', subjectId: '5500000001' },
      { at: '2025-03-08T10:00:00', actor: { automatic: 'Shopify webhook orders/cancelled' }, action: 'cancelled', from: 'sent', to: 'sent', reason: 'customer', kind: 'order', subjectId: '5500000001' },
      { at: '2025-03-08T10:01:00', actor: { automatic: 'HP Site Flow send' }, action: 'cancelled', from: 'pending', to: 'cancelled', reason: 'Cancelled at HP Site Flow (5500000001)', kind: 'send', subjectId: '4' },
    ];
    fakeFetch(router({ 'POST /api/online-stores/check-order': () => ok([sentThenCancelled]), 'GET /api/online-stores/order-history': () => ok({ list: history }) }, USER));
    renderCheck();
    const notice = await screen.findByRole('status', { name: 'Order cancelled' });
    expect(notice).toHaveTextContent('It had been sent to HP Site Flow, which was asked to cancel it');
    expect(notice).not.toHaveTextContent('It had not been printed or sent');
    expect(notice).not.toHaveTextContent('left the');
    const lines = screen.getByRole('table', { name: 'Line items' });
    expect(within(lines).getByText('HP Site Flow (job #12): not made (The order was cancelled in the store (customer))')).toBeInTheDocument();
    const timeline = await screen.findByRole('list', { name: 'History' });
    expect(timeline).not.toHaveTextContent('sent → sent');
    expect(timeline).toHaveTextContent('Cancelled in the store(still sent)');
    expect(timeline).toHaveTextContent('Cancelled at HP Site Flowpending → cancelled');
  });

  it('each line says what routed it: the rule by name, the default, or the person, with when; a held line its reason', async () => {
    signIn(USER);
    const routed = order(
      { id: 1 },
      {
        id: '5500000001',
        name: '#1001',
        line_items: [
          { id: '901', name: 'Robin card', sku: 'CARD-ROBIN', quantity: 1, route: { action: 'inHouse', ruleId: 'cards', ruleName: 'Cards in house', by: 'rule', at: '2025-03-07T10:06:00' } },
          { id: '902', name: 'Robin poster', sku: 'POSTER-ROBIN', quantity: 1, route: { action: 'provider', ruleId: null, by: 'rule', at: '2025-03-07T10:06:00', destination: 'hp-us' } },
          { id: '903', name: 'Robin mug', sku: 'MUG-ROBIN', quantity: 1, route: { action: 'provider', ruleId: null, by: 'manual', byName: 'Ada Admin', at: '2025-03-07T11:30:00' } },
          { id: '904', name: 'Robin print', sku: 'PRINT-ROBIN', quantity: 1, route: { action: 'hold', ruleId: 'vip', ruleName: 'VIP checked', by: 'rule', at: '2025-03-07T10:06:00', reason: 'A VIP order: check it first' } },
          { id: '905', name: 'Robin tote', sku: 'TOTE-ROBIN', quantity: 1, route: { action: 'inHouse', ruleId: 'old', by: 'rule', at: '2025-03-07T10:06:00' } },
          { id: '906', name: 'Robin pin', sku: 'PIN-ROBIN', quantity: 1 },
        ],
      },
    );
    fakeFetch(router({ 'POST /api/online-stores/check-order': () => ok([routed]) }, USER));
    renderCheck();
    const lines = await screen.findByRole('table', { name: 'Line items' });
    const cellOf = (sku: string) => {
      const row = within(lines).getByText(sku).closest('tr')!;
      const column = within(lines).getAllByRole('columnheader').findIndex((h) => h.textContent === 'Routed');
      return row.querySelectorAll('td')[column];
    };
    expect(cellOf('CARD-ROBIN')).toHaveTextContent('Rule: Cards in houseMake in house, 07/03/2025 10:06');
    expect(cellOf('POSTER-ROBIN')).toHaveTextContent('Rule: Otherwise (the default)Send to HP Site Flow (hp-us), 07/03/2025 10:06');
    expect(cellOf('MUG-ROBIN')).toHaveTextContent('Manual, by Ada AdminSend to HP Site Flow, 07/03/2025 11:30');
    expect(cellOf('PRINT-ROBIN')).toHaveTextContent('Rule: VIP checkedHold for review, 07/03/2025 10:06A VIP order: check it first');
    expect(cellOf('TOTE-ROBIN')).toHaveTextContent('Rule: old (no longer in the rules)');
    expect(cellOf('PIN-ROBIN')).toHaveTextContent('Not routed');
  });

  it('an e-card line is e-mailed, not made: Made by says so', async () => {
    signIn(USER);
    const withEcard = { ...ROBIN, data: { ...ROBIN.data, line_items: [...(ROBIN.data.line_items ?? []), { id: '902', name: 'Snow e-card', sku: 'ECARD-SNOW', quantity: 1 }] } };
    fakeFetch(
      router(
        {
          'POST /api/online-stores/check-order': () => ok([withEcard]),
          'GET /api/designs/all-with-product-type': () => ok({ data: [{ sku: 'ECARD-SNOW', productType: 'E-card' }, { sku: 'CARD-ROBIN', productType: 'Card' }] }),
        },
        USER,
      ),
    );
    renderCheck();
    const lines = await screen.findByRole('table', { name: 'Line items' });
    const row = (await within(lines).findByText('ECARD-SNOW')).closest('tr')!;
    await waitFor(() => expect(row).toHaveTextContent('E-mailed (e-card)'));
  });

  it('the demo store (outside production) cancels an order from the screen; elsewhere there is no such button', async () => {
    signIn(USER);
    let demoSite: number | null = 1;
    const { calls } = fakeFetch(
      router(
        {
          'POST /api/online-stores/check-order': () => ok([ROBIN]),
          'GET /api/test/demo-store': () => ok({ siteId: demoSite }),
          'POST /api/test/demo-store/cancel': () => ok({ sent: true }),
        },
        USER,
      ),
    );
    const { unmount } = renderCheck();
    await userEvent.click(await screen.findByRole('button', { name: 'Cancel in the demo store' }));
    await userEvent.click(within(await screen.findByRole('dialog')).getByRole('button', { name: 'Cancel the order' }));
    expect(await screen.findByText(/^The demo store cancelled the order and sent orders\/cancelled/)).toBeInTheDocument();
    expect(calls.find((c) => c.url === '/api/test/demo-store/cancel')?.body).toEqual({ id: '5500000001' });
    unmount();
    demoSite = null;
    renderCheck();
    await screen.findByRole('heading', { name: 'Order #1001' });
    await waitFor(() => expect(calls.filter((c) => c.url === '/api/test/demo-store').length).toBeGreaterThanOrEqual(2));
    expect(screen.queryByRole('button', { name: 'Cancel in the demo store' })).not.toBeInTheDocument();
  });

  it('an order not cancelled shows no cancellation notice', async () => {
    signIn(USER);
    fakeFetch(router({ 'POST /api/online-stores/check-order': () => ok([ROBIN]) }, USER));
    renderCheck();
    expect(await screen.findByRole('heading', { name: 'Order #1001' })).toBeInTheDocument();
    expect(screen.queryByRole('status', { name: 'Order cancelled' })).not.toBeInTheDocument();
  });

  it('says "There is no postback" and "There is no sent data" when the provider has nothing', async () => {
    signIn(USER);
    fakeFetch(router({ 'POST /api/online-stores/check-order': () => ok([ROBIN]) }, USER));
    renderCheck();
    await userEvent.click(await screen.findByRole('tab', { name: 'HP Data' }));
    expect(screen.getByText('There is no postback')).toBeInTheDocument();
    expect(screen.getByText('There is no sent data')).toBeInTheDocument();
  });

  it('searches by order name from the search box (?name=)', async () => {
    signIn(USER);
    const { calls } = fakeFetch(router({ 'POST /api/online-stores/check-order': () => ok([ROBIN]) }, USER));
    renderCheck('/check-order');
    expect(await screen.findByText('Search an order by its id or its name.')).toBeInTheDocument();
    expect(checkCalls(calls)).toHaveLength(0);
    await userEvent.type(screen.getByLabelText('Order id or name'), '#1001');
    await userEvent.click(screen.getByRole('button', { name: 'Search' }));
    expect(await screen.findByRole('heading', { name: 'Order #1001' })).toBeInTheDocument();
    // Asked by name (an earlier test's late retry may also land in this fake on a loaded machine).
    expect(checkCalls(calls).map((c) => c.body)).toContainEqual({ name: '#1001' });
  });

  it('shows the error text of the detail call', async () => {
    signIn(USER);
    fakeFetch(router({ 'POST /api/online-stores/check-order': () => fail('Order not found', 404) }, USER));
    renderCheck('/check-order?id=404');
    expect(await screen.findByRole('alert')).toHaveTextContent('Order not found');
    expect(screen.queryByRole('tab')).not.toBeInTheDocument();
  });

  it('Re-run → Send to HP on a shipped order asks the server\'s question; No sends nothing more, Yes sends with the answer', async () => {
    signIn(USER);
    const { calls } = fakeFetch(
      router(
        {
          'POST /api/online-stores/check-order': () => ok([ROBIN]),
          'POST /api/online-stores/rerun-order': (call) =>
            (call.body as { sendShipped?: boolean }).sendShipped
              ? ok({ ran: ['sendToHP'], skipped: [] })
              : jsonResponse({ success: false, error: 'This order has shipped: sending it to HP again prints and posts it again. Send it anyway?', details: { code: 'ORDER_SHIPPED', confirmWith: { sendShipped: true } } }, 409),
        },
        USER,
      ),
    );
    renderCheck();
    await screen.findByRole('heading', { name: 'Order #1001' });
    await userEvent.click(screen.getByRole('checkbox', { name: 'Send to HP' }));
    await userEvent.click(screen.getByRole('button', { name: 'Re-submit' }));
    const asked = await screen.findByRole('dialog', { name: 'Send to HP again?' });
    expect(asked).toHaveTextContent('This order has shipped');
    await userEvent.click(within(asked).getByRole('button', { name: 'Cancel' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    expect(screen.queryByText(/^Re-submit successfully/)).not.toBeInTheDocument();
    await userEvent.click(screen.getByRole('button', { name: 'Re-submit' }));
    await userEvent.click(within(await screen.findByRole('dialog', { name: 'Send to HP again?' })).getByRole('button', { name: 'Send to HP' }));
    expect(await screen.findByText('Re-submit successfully: done now: Send to HP.')).toBeInTheDocument();
    expect(calls.filter((c) => c.url === '/api/online-stores/rerun-order').map((c) => (c.body as { sendShipped?: boolean }).sendShipped)).toEqual([undefined, undefined, true]);
  });

  it('re-runs the chosen steps of the site → "Re-submit successfully" and what was done, and says what was skipped', async () => {
    signIn(USER);
    const step = (name: string) => ({ step: name, lineId: null, state: 'off', message: null, ref: null, link: null, recipient: null, at: null, nextAttemptAt: null, attempts: 0, outboxId: null });
    const { calls } = fakeFetch(
      router(
        {
          'POST /api/online-stores/check-order': () => ok([ROBIN]),
          'GET /api/orders/5500000001/pipeline': () => ok({ orderId: '5500000001', siteId: 1, steps: ['addToRaisersEdge', 'addToAdestra', 'sendEcard'].map(step) }),
          'POST /api/online-stores/rerun-order': () => ok({ ran: ['sendToHP'], skipped: [{ step: 'addToAdestra', reason: 'not configured for this site' }] }),
        },
        USER,
      ),
    );
    renderCheck();
    await screen.findByRole('heading', { name: 'Order #1001' });
    const resubmit = screen.getByRole('button', { name: 'Re-submit' });
    expect(resubmit).toBeDisabled();
    await screen.findByRole('checkbox', { name: 'Add to Adestra' });
    expect(screen.getAllByRole('checkbox').map((c) => c.closest('label')?.textContent)).toEqual([
      'Add to Adestra',
      "Add to Raiser's Edge",
      'Send e-card',
      'Send to HP',
    ]);
    await userEvent.click(screen.getByRole('checkbox', { name: 'Add to Adestra' }));
    await userEvent.click(screen.getByRole('checkbox', { name: 'Send to HP' }));
    await userEvent.click(resubmit);
    expect(await screen.findByText('Re-submit successfully: done now: Send to HP. Skipped: Add to Adestra (see below).')).toBeInTheDocument();
    expect(calls.find((c) => c.url === '/api/online-stores/rerun-order')?.body).toEqual({
      id: '5500000001',
      flags: { addToAdestra: true, addToRaisersEdge: false, sendEcard: false, sendToHP: true },
    });
    expect(screen.getByText('Skipped Add to Adestra: not configured for this site')).toBeInTheDocument();
    // The order's logs are read again after the re-run.
    await waitFor(() => expect(checkCalls(calls)).toHaveLength(2));
  });

  it('a site without the charity pipeline: no Pipeline panel, Re-run offers only Send to HP', async () => {
    signIn(USER);
    fakeFetch(router({ 'POST /api/online-stores/check-order': () => ok([ROBIN]), 'GET /api/orders/5500000001/pipeline': () => ok({ orderId: '5500000001', siteId: 1, steps: [] }) }, USER));
    renderCheck();
    await screen.findByRole('heading', { name: 'Order #1001' });
    await waitFor(() => expect(screen.queryByRole('progressbar', { name: 'Loading' })).not.toBeInTheDocument());
    expect(screen.getAllByRole('checkbox').map((c) => c.closest('label')?.textContent)).toEqual(['Send to HP']);
    expect(screen.queryByRole('region', { name: 'Pipeline' })).not.toBeInTheDocument();
    expect(document.body).not.toHaveTextContent('RE_BASE_URL');
  });

  it('shows a re-run failure with errorMes in the Error Data panel', async () => {
    signIn(USER);
    fakeFetch(
      router(
        {
          'POST /api/online-stores/check-order': () => ok([ROBIN]),
          'GET /api/orders/5500000001/pipeline': () => ok({ orderId: '5500000001', siteId: 1, steps: [{ step: 'sendEcard', lineId: null, state: 'not-needed', message: null, ref: null, link: null, recipient: null, at: null, nextAttemptAt: null, attempts: 0, outboxId: null }] }),
          'POST /api/online-stores/rerun-order': () =>
            jsonResponse({ success: false, error: 'The provider refused the order', errorMes: { code: 'ValidationError', status: 400 } }, 422),
        },
        USER,
      ),
    );
    renderCheck();
    await screen.findByRole('heading', { name: 'Order #1001' });
    await userEvent.click(await screen.findByRole('checkbox', { name: 'Send e-card' }));
    await userEvent.click(screen.getByRole('button', { name: 'Re-submit' }));
    expect(await screen.findByText('The provider refused the order')).toBeInTheDocument();
    const panel = await screen.findByRole('region', { name: 'Error Data' });
    expect(panel).toHaveTextContent('"code": "ValidationError"');
    expect(screen.queryByText(/^Re-submit successfully/)).not.toBeInTheDocument();
  });

  describe('Cancel at HP', () => {
    it('asks first, then cancels the order at HP → "Cancelled at HP", and reads the order again', async () => {
      signIn(USER);
      const { calls } = fakeFetch(
        router(
          {
            'POST /api/online-stores/check-order': () => ok([ROBIN]),
            'POST /api/online-stores/shopify-webhook/cancel-hp': () => ok({ status: 'cancelled', message: 'Cancelled at HP Site Flow (5500000001)', at: '2025-03-08T10:01:00Z', sourceOrderIds: ['5500000001'] }),
          },
          USER,
        ),
      );
      renderCheck();
      await screen.findByRole('heading', { name: 'Order #1001' });
      await userEvent.click(screen.getByRole('button', { name: 'Cancel at HP' }));
      const dialog = await screen.findByRole('dialog');
      expect(dialog).toHaveTextContent('HP Site Flow will not print or ship this order. Cancel it there?');
      expect(calls.some((c) => c.url.endsWith('/cancel-hp'))).toBe(false);
      await userEvent.click(within(dialog).getByRole('button', { name: 'Cancel at HP' }));
      expect(await screen.findByText('Cancelled at HP')).toBeInTheDocument();
      expect(calls.find((c) => c.url === '/api/online-stores/shopify-webhook/cancel-hp')?.body).toEqual({ id: '5500000001' });
      await waitFor(() => expect(checkCalls(calls)).toHaveLength(2));
    });

    it('HP not answering yet: says the cancellation is under way, not done', async () => {
      signIn(USER);
      fakeFetch(
        router(
          {
            'POST /api/online-stores/check-order': () => ok([ROBIN]),
            'POST /api/online-stores/shopify-webhook/cancel-hp': () => ok({ status: 'pending', message: 'HP Site Flow did not answer the cancellation of 5500000001', at: '2025-03-08T10:01:00Z' }),
          },
          USER,
        ),
      );
      renderCheck();
      await screen.findByRole('heading', { name: 'Order #1001' });
      await userEvent.click(screen.getByRole('button', { name: 'Cancel at HP' }));
      await userEvent.click(within(await screen.findByRole('dialog')).getByRole('button', { name: 'Cancel at HP' }));
      expect(await screen.findByText('Cancelling at HP: HP Site Flow did not answer the cancellation of 5500000001')).toBeInTheDocument();
      expect(screen.queryByText('Cancelled at HP')).not.toBeInTheDocument();
    });

    it('shows HP\'s refusal and no success', async () => {
      signIn(USER);
      fakeFetch(
        router(
          {
            'POST /api/online-stores/check-order': () => ok([ROBIN]),
            'POST /api/online-stores/shopify-webhook/cancel-hp': () => fail('A shipped order cannot be cancelled', 422),
          },
          USER,
        ),
      );
      renderCheck();
      await screen.findByRole('heading', { name: 'Order #1001' });
      await userEvent.click(screen.getByRole('button', { name: 'Cancel at HP' }));
      await userEvent.click(within(await screen.findByRole('dialog')).getByRole('button', { name: 'Cancel at HP' }));
      expect(await screen.findByText('A shipped order cannot be cancelled')).toBeInTheDocument();
      expect(screen.queryByText('Cancelled at HP')).not.toBeInTheDocument();
    });

    it.each([
      ['never sent', order({ id: 1 }, { id: '5500000001', name: '#1001' })],
      ['shipped', order({ id: 1, status: 'shipped' }, { id: '5500000001', name: '#1001', hpOrderId: 'hp-1', status: 'shipped' })],
    ])('an order %s has no "Cancel at HP" button', async (_what, record) => {
      signIn(USER);
      fakeFetch(router({ 'POST /api/online-stores/check-order': () => ok([record]) }, USER));
      renderCheck();
      await screen.findByRole('heading', { name: 'Order #1001' });
      expect(screen.queryByRole('button', { name: 'Cancel at HP' })).not.toBeInTheDocument();
    });
  });
});
