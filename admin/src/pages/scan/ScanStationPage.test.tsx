import { describe, expect, it, vi } from 'vitest';
import { act, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { ScanItemState, ScanOrder, ScanResult, ScannedJob } from '../../../../common/api/scan';
import { jsonResponse, renderInAdmin, signIn, fakeFetch, USER } from '../../test/helpers';
import { ok, printJob, router } from '../../test/printProduction';
import { startEarlyKeys } from '../../lib/earlyKeys';
import ScanStationPage, { ORDER_COMPLETE } from './ScanStationPage';

const job = (id: number, state: ScanItemState, itemNumber: number): ScannedJob => ({
  ...printJob({ id, productName: `Card ${itemNumber}`, orderName: '#1024', shopifyOrderId: '9001', lineItemId: `L${itemNumber}`, isPrinted: state !== 'waiting' }),
  state,
  itemNumber,
  itemCount: 2,
  label: `#1024 · ${itemNumber} of 2`,
  batchNumber: 4,
  copy: 1,
  packedCopies: state === 'packed' ? 1 : 0,
});

const orderWith = (s1: ScanItemState, s2: ScanItemState, shipped = false): ScanOrder => ({
  id: '9001',
  siteId: 1,
  name: '#1024',
  shipped,
  items: [
    { lineId: 'L1', jobId: 11, productName: 'Card 1', quantity: 1, packedCopies: s1 === 'packed' ? 1 : 0, state: s1, itemNumber: 1, previewUrl: null },
    { lineId: 'L2', jobId: 12, productName: 'Card 2', quantity: 1, packedCopies: s2 === 'packed' ? 1 : 0, state: s2, itemNumber: 2, previewUrl: null },
    { lineId: 'L3', jobId: null, productName: 'Thank-you e-card', quantity: 1, packedCopies: 0, state: 'e-mailed', itemNumber: null, previewUrl: null },
  ],
});

const typeCode = async (code: string) => {
  const input = screen.getByLabelText('Scan or type a code');
  await waitFor(() => expect(input).toHaveFocus());
  // A USB scanner types the code and Enter.
  await userEvent.type(input, `${code}{Enter}`);
};

describe('Scan station (/scan)', () => {
  it('says each answer in big text and colour, shows the order, and ships a complete order', async () => {
    signIn(USER);
    const answers: Array<() => Response> = [
      () => ok({ job: job(11, 'printed', 1), order: orderWith('printed', 'packed'), advancedTo: 'printed', orderComplete: false } satisfies ScanResult),
      () =>
        jsonResponse(
          {
            success: false,
            error: 'Scanned twice: #1024 · 1 of 2 was marked printed 2 s ago; nothing changed. Scan it again when it is packed.',
            details: { code: 'SCANNED_TWICE', job: job(11, 'printed', 1), order: orderWith('printed', 'packed'), orderComplete: false },
          },
          409,
        ),
      () => ok({ job: job(11, 'packed', 1), order: orderWith('packed', 'packed'), advancedTo: 'packed', orderComplete: true } satisfies ScanResult),
      () => jsonResponse({ success: false, error: '“hello” is not a Presswork item barcode (they read PJ-, the job and the copy, e.g. PJ-17-2)' }, 400),
    ];
    const { calls } = fakeFetch(
      router(
        {
          'POST /api/scan': () => answers.shift()!(),
          'POST /api/orders/mark-shipped': () =>
            ok({ outboxId: 1, status: 'sent', source: 'in-house', lineIds: ['L1', 'L2'], tracking: { number: 'RM123', url: null, company: 'Royal Mail' }, error: null, note: null, fulfillmentId: 'gid://1', fulfilledLineIds: ['L1', 'L2'], alreadyFulfilledLineIds: [], createdAt: '', doneAt: '' }),
        },
        USER,
      ),
    );
    renderInAdmin(<ScanStationPage />, { path: '/scan', routePath: '/scan' });
    const answer = await screen.findByTestId('scan-answer');
    expect(answer).toHaveAttribute('aria-live', 'polite');

    await typeCode('PJ-11');
    await within(answer).findByText('Printed: #1024 · 1 of 2');
    expect(answer).toHaveAttribute('data-tone', 'info');
    const scanCall = calls.find((c) => c.url === '/api/scan')!;
    expect(scanCall.body).toEqual({ code: 'PJ-11' });
    expect(scanCall.headers.get('Idempotency-Key')).toBeTruthy();
    const input = screen.getByLabelText('Scan or type a code');
    expect(input).toHaveValue('');
    expect(input).toHaveFocus();
    const items = screen.getByRole('list', { name: 'Items of order #1024' });
    expect(within(items).getAllByRole('listitem').map((li) => li.textContent)).toEqual(['1. Card 1printed', '2. Card 2packed', 'Thank-you e-carde-mailed']);
    expect(screen.getByTestId('scan-job')).toHaveTextContent('Batch 4');

    await typeCode('PJ-11');
    await within(answer).findByText('Nothing changed');
    expect(answer).toHaveAttribute('data-tone', 'warning');
    expect(answer).toHaveTextContent('Scanned twice: #1024 · 1 of 2 was marked printed 2 s ago; nothing changed.');
    // The refusal still shows the item and its order.
    expect(screen.getByTestId('scan-job')).toHaveTextContent('Card 1');
    expect(screen.queryByRole('form', { name: 'Mark shipped' })).not.toBeInTheDocument();

    await typeCode('PJ-11');
    await within(answer).findByText(ORDER_COMPLETE);
    expect(answer).toHaveAttribute('data-tone', 'success');
    const form = screen.getByRole('form', { name: 'Mark shipped' });
    await userEvent.type(within(form).getByLabelText(/Carrier/), 'Royal Mail');
    await userEvent.type(within(form).getByLabelText(/Tracking number/), 'RM123');
    await userEvent.click(within(form).getByRole('button', { name: 'Mark shipped' }));
    await within(answer).findByText('Shipped');
    expect(answer).toHaveTextContent('Order #1024 left with Royal Mail RM123; the store has the tracking.');
    // Only the lines made here, packed, go out with this tracking.
    expect(calls.find((c) => c.url === '/api/orders/mark-shipped')!.body).toEqual({ orderId: '9001', siteId: 1, lineIds: ['L1', 'L2'], carrier: 'Royal Mail', trackingNumber: 'RM123' });
    expect(screen.queryByRole('form', { name: 'Mark shipped' })).not.toBeInTheDocument();
    await waitFor(() => expect(screen.getByLabelText('Scan or type a code')).toHaveFocus());

    await typeCode('hello');
    await within(answer).findByText('Not an item barcode');
    expect(answer).toHaveAttribute('data-tone', 'error');
    // The session's last scans, newest first.
    const history = screen.getByTestId('scan-history');
    expect(within(history).getAllByRole('listitem')).toHaveLength(4);
    expect(within(history).getAllByRole('listitem')[0]).toHaveTextContent('hello');
    expect(within(history).getAllByRole('listitem')[3]).toHaveTextContent('Printed: #1024 · 1 of 2');
  });

  it('counts copies: all printed at once, each copy packed in turn, "2 of 4 packed" on its line', async () => {
    signIn(USER);
    const four = (state: ScanItemState, copy: number, packedCopies: number): ScannedJob => ({ ...job(11, state, 1), quantity: 4, copy, packedCopies });
    const orderOf = (state: ScanItemState, packedCopies: number): ScanOrder => {
      const o = orderWith(state, 'waiting');
      return { ...o, items: o.items.map((i) => (i.jobId === 11 ? { ...i, quantity: 4, packedCopies } : i)) };
    };
    const answers = [
      { job: four('printed', 2, 0), order: orderOf('printed', 0), advancedTo: 'printed', orderComplete: false },
      { job: four('printed', 2, 2), order: orderOf('printed', 2), advancedTo: 'packed', orderComplete: false },
    ] satisfies ScanResult[];
    fakeFetch(router({ 'POST /api/scan': () => ok(answers.shift()!) }, USER));
    renderInAdmin(<ScanStationPage />, { path: '/scan', routePath: '/scan' });
    const answer = await screen.findByTestId('scan-answer');
    await typeCode('PJ-11-2');
    await within(answer).findByText('Printed: #1024 · 1 of 2');
    expect(answer).toHaveTextContent('Card 1 × 4: all 4 copies. Scan each copy when it is packed.');
    await typeCode('PJ-11-2');
    await within(answer).findByText('Packed: #1024 · 1 of 2 · copy 2 of 4');
    expect(answer).toHaveTextContent('Card 1: 2 of 4 copies packed');
    const items = screen.getByRole('list', { name: 'Items of order #1024' });
    expect(within(items).getAllByRole('listitem')[0]).toHaveTextContent('1. Card 1 × 42 of 4 packed');
    expect(screen.queryByRole('form', { name: 'Mark shipped' })).not.toBeInTheDocument();
  });

  it('takes the keys typed before it was ready, and keys typed while a button has the focus', async () => {
    signIn(USER);
    const { calls } = fakeFetch(router({ 'POST /api/scan': () => ok({ job: job(11, 'printed', 1), order: orderWith('printed', 'waiting'), advancedTo: 'printed', orderComplete: false } satisfies ScanResult) }, USER));
    // The scanner types on /scan while the app still loads: nothing has the focus yet.
    window.history.pushState({}, '', '/scan');
    startEarlyKeys();
    (document.activeElement as HTMLElement | null)?.blur();
    for (const key of [...'PJ-11-1', 'Enter']) document.body.dispatchEvent(new KeyboardEvent('keydown', { key, bubbles: true }));
    renderInAdmin(<ScanStationPage />, { path: '/scan', routePath: '/scan' });
    const answer = await screen.findByTestId('scan-answer');
    await within(answer).findByText('Printed: #1024 · 1 of 2');
    expect(calls.filter((c) => c.url === '/api/scan').map((c) => c.body)).toEqual([{ code: 'PJ-11-1' }]);

    // A button has the focus (the last thing clicked): the scanner's keys still reach the code, Enter does not press it.
    const heading = screen.getByRole('heading', { name: 'Scan station' });
    const button = document.createElement('button');
    heading.after(button);
    button.focus();
    const pressed = vi.fn();
    button.addEventListener('click', pressed);
    await userEvent.keyboard('PJ-12-1{Enter}');
    await waitFor(() => expect(calls.filter((c) => c.url === '/api/scan').map((c) => c.body)).toEqual([{ code: 'PJ-11-1' }, { code: 'PJ-12-1' }]));
    expect(pressed).not.toHaveBeenCalled();
    expect(screen.getByLabelText('Scan or type a code')).toHaveFocus();
    window.history.pushState({}, '', '/');
  });

  it('gives the input back after a click anywhere but a control', async () => {
    signIn(USER);
    fakeFetch(router({}, USER));
    renderInAdmin(<ScanStationPage />, { path: '/scan', routePath: '/scan' });
    const input = await screen.findByLabelText('Scan or type a code');
    await waitFor(() => expect(input).toHaveFocus());
    act(() => input.blur());
    expect(input).not.toHaveFocus();
    await userEvent.click(screen.getByRole('heading', { name: 'Scan station' }));
    expect(input).toHaveFocus();
  });
});
