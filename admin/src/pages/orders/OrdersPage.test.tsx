import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { act, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { MemoryRouter, Route, Routes, useNavigate } from 'react-router-dom';
import { AdminContext, defaultI18nProvider } from 'react-admin';
import { authProvider } from '../../providers/authProvider';
import { dataProvider } from '../../providers/dataProvider';
import userEvent from '@testing-library/user-event';
import { ADMIN, jsonResponse, renderInAdmin, signIn, fakeFetch, USER, type RecordedCall } from '../../test/helpers';
import { order } from '../../test/orders';
import { fail, ok, pdfResponse, router } from '../../test/printProduction';
import { AllOrdersPage, OrdersPage } from './OrdersPage';

const PRODUCT_TYPES = ok({ data: [{ sku: 'CARD-ROBIN', productType: 'Card' }, { sku: 'MUG-1', productType: 'Mug' }] });

const ROBIN = order({ id: 1 }, { id: '5500000001', name: '#1001' });
const SHIPPED = order(
  { id: 2, status: 'shipped', field1: '5500000002' },
  {
    id: '5500000002',
    name: '#1002',
    order_number: 1002,
    status: 'shipped',
    customer: { first_name: 'Marian', last_name: 'Fitzwalter' },
    line_items: [
      { id: '902', sku: 'MUG-1', quantity: 2 },
      { id: '903', sku: 'UNKNOWN-SKU', quantity: 1 },
    ],
    preGeneratedHPItems: [{ lineId: '902', sku: 'HP-MUG', path: 'https://x/902.pdf' }],
  },
);
const NO_LINES = order({ id: 3, field1: '5500000003' }, { id: '5500000003', name: '#1003', customer: { first_name: 'Nobody', last_name: 'Lines' }, line_items: [] });

// As the server answers: hasNext while rows came (an exact last page is followed by an empty one).
const page = (list: unknown[], hasNext = list.length > 0) => ok({ data: list, hasNext, total: list.length });
const orderCalls = (calls: RecordedCall[]) => calls.filter((c) => c.url.startsWith('/api/general-data/shopify-order-log'));
const pageOf = (call: RecordedCall) => new URL(call.url, 'http://x').searchParams.get('page');

function deferred<T>() {
  let resolve!: (value: T) => void;
  const promise = new Promise<T>((r) => (resolve = r));
  return { promise, resolve };
}

let downloads: string[];

beforeEach(() => {
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

function renderOrders() {
  renderInAdmin(<OrdersPage />, { path: '/orders', routePath: '/orders' });
}

describe('List Orders (/orders)', () => {
  it('an e-card line says it is e-mailed and offers no PDF or Send HP of its own', async () => {
    signIn(USER);
    const mixed = order({ id: 4, field1: '5500000004' }, { id: '5500000004', name: '#1004', line_items: [{ id: '941', sku: 'CARD-ROBIN', quantity: 1 }, { id: '942', sku: 'ECARD-SEASONS', quantity: 1 }] });
    const types = ok({ data: [{ sku: 'CARD-ROBIN', productType: 'Card' }, { sku: 'ECARD-SEASONS', productType: 'E-card' }] });
    fakeFetch(router({ 'GET /api/general-data/shopify-order-log': () => page([mixed]), 'GET /api/designs/all-with-product-type': () => types }, USER));
    renderOrders();
    const row = await screen.findByTestId('order-5500000004', {}, { timeout: 5000 });
    const ecardLine = within(row).getByTestId('line-942');
    await waitFor(() => expect(ecardLine).toHaveTextContent(/^E-card\s*ECARD-SEASONS\s*E-mailed, not printed$/));
    expect(within(ecardLine).queryAllByRole('button')).toEqual([]);
    const cardLine = within(row).getByTestId('line-941');
    expect(within(cardLine).getByRole('button', { name: 'PDF of CARD-ROBIN' })).toBeInTheDocument();
    expect(within(cardLine).getByRole('button', { name: 'Send line 941 to HP' })).toBeInTheDocument();
  });

  it('lists the orders of the own site with the columns and rules of the spec', async () => {
    signIn(USER);
    const { calls } = fakeFetch(
      router({ 'GET /api/general-data/shopify-order-log': () => page([ROBIN, SHIPPED, NO_LINES]), 'GET /api/designs/all-with-product-type': () => PRODUCT_TYPES }, USER),
    );
    renderOrders();
    const robin = await screen.findByTestId('order-5500000001', {}, { timeout: 5000 });

    const url = new URL(orderCalls(calls)[0].url, 'http://x');
    expect(url.searchParams.get('page')).toBe('1');
    expect(url.searchParams.get('allClients')).toBeNull();
    expect(screen.getByRole('heading', { name: 'List Orders' })).toBeInTheDocument();
    expect(screen.getByRole('link', { name: /Check order/ })).toHaveAttribute('href', '/check-order');
    expect(screen.getAllByRole('columnheader').map((h) => h.textContent)).toEqual(['', 'Timestamp', 'Customer Name', 'Order Id / Number / Name', 'SKU', '']);
    expect(document.title).toBe('List Orders | Presswork');

    // Orders without line items are hidden.
    expect(screen.queryByTestId('order-5500000003')).not.toBeInTheDocument();
    expect(screen.queryByText('Nobody Lines')).not.toBeInTheDocument();

    expect(within(robin).getByText('07/03/2025 10:05')).toBeInTheDocument();
    expect(within(robin).getByText('5500000001 / 1001 / #1001')).toBeInTheDocument();
    // Bold only when shipped.
    expect(within(robin).getByTestId('customer-name')).toHaveStyle({ fontWeight: 400 });
    const shipped = screen.getByTestId('order-5500000002');
    expect(within(shipped).getByTestId('customer-name')).toHaveTextContent('Marian Fitzwalter');
    expect(within(shipped).getByTestId('customer-name')).toHaveStyle({ fontWeight: 700 });

    // The product type comes before a known SKU; an unknown SKU stands alone.
    await waitFor(() => expect(within(robin).getByTestId('line-901')).toHaveTextContent(/^Card\s*CARD-ROBIN/));
    expect(within(shipped).getByTestId('line-902')).toHaveTextContent(/^Mug\s*MUG-1/);
    expect(within(shipped).getByTestId('line-903').textContent).toMatch(/^UNKNOWN-SKU/);
    expect(within(shipped).getByRole('button', { name: 'PDF of UNKNOWN-SKU' })).toBeInTheDocument();

    // Send HP: a different icon once provider items exist.
    expect(within(robin).getByRole('button', { name: 'Send HP' }).querySelector('[data-testid="SendIcon"]')).not.toBeNull();
    expect(within(shipped).getByRole('button', { name: 'Send HP' }).querySelector('[data-testid="MarkEmailReadIcon"]')).not.toBeNull();

    expect(within(robin).getByRole('link', { name: /Detail/ })).toHaveAttribute('href', '/check-order?id=5500000001');
    // Alternate rows are shaded.
    expect(getComputedStyle(shipped).backgroundColor).not.toBe(getComputedStyle(robin).backgroundColor);
  });

  it('shows the server error of the list call in red', async () => {
    signIn(USER);
    fakeFetch(router({ 'GET /api/general-data/shopify-order-log': () => fail('Database is unavailable', 503), 'GET /api/designs/all-with-product-type': () => PRODUCT_TYPES }, USER));
    renderOrders();
    expect(await screen.findByRole('alert')).toHaveTextContent('Database is unavailable');
    expect(screen.queryByRole('button', { name: 'Load more' })).not.toBeInTheDocument();
  });

  it('pages with "Load more" (counter 2 after the first load), "Loading more..." meanwhile, until an empty page', async () => {
    signIn(USER);
    const second = deferred<Response>();
    const { calls } = fakeFetch(
      router(
        {
          'GET /api/general-data/shopify-order-log': (call) => {
            const p = pageOf(call);
            if (p === '1') return page([ROBIN]);
            if (p === '2') return second.promise;
            return page([]);
          },
          'GET /api/designs/all-with-product-type': () => PRODUCT_TYPES,
        },
        USER,
      ),
    );
    renderOrders();
    await screen.findByTestId('order-5500000001');
    const loadMore = await screen.findByRole('button', { name: 'Load more' });
    await userEvent.click(loadMore);
    expect(await screen.findByRole('button', { name: 'Loading more...' })).toBeDisabled();
    await act(async () => second.resolve(page([SHIPPED]) as Response));
    expect(await screen.findByTestId('order-5500000002')).toBeInTheDocument();
    expect(screen.getByTestId('order-5500000001')).toBeInTheDocument();

    await userEvent.click(screen.getByRole('button', { name: 'Load more' }));
    await waitFor(() => expect(screen.queryByRole('button', { name: /Load more|Loading more/ })).not.toBeInTheDocument());
    expect(orderCalls(calls).map(pageOf)).toEqual(['1', '2', '3']);
    expect(screen.getByTestId('order-5500000002')).toBeInTheDocument();
  });

  it('shows no "Load more" when the first page is empty', async () => {
    signIn(USER);
    fakeFetch(router({ 'GET /api/general-data/shopify-order-log': () => page([]), 'GET /api/designs/all-with-product-type': () => PRODUCT_TYPES }, USER));
    renderOrders();
    expect(await screen.findByText('No orders found')).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Load more' })).not.toBeInTheDocument();
  });

  it('reloads from page 1 whenever the window regains focus', async () => {
    signIn(USER);
    let firstPage = [ROBIN];
    const { calls } = fakeFetch(
      router(
        {
          'GET /api/general-data/shopify-order-log': (call) => (pageOf(call) === '1' ? page(firstPage) : page([SHIPPED])),
          'GET /api/designs/all-with-product-type': () => PRODUCT_TYPES,
        },
        USER,
      ),
    );
    renderOrders();
    await screen.findByTestId('order-5500000001');
    await userEvent.click(screen.getByRole('button', { name: 'Load more' }));
    await screen.findByTestId('order-5500000002');

    firstPage = [order({ id: 9, field1: '5500000009' }, { id: '5500000009', name: '#1009' })];
    act(() => {
      fireEvent.focus(window);
    });
    expect(await screen.findByTestId('order-5500000009')).toBeInTheDocument();
    expect(screen.queryByTestId('order-5500000001')).not.toBeInTheDocument();
    expect(screen.queryByTestId('order-5500000002')).not.toBeInTheDocument();
    expect(orderCalls(calls).map(pageOf)).toEqual(['1', '2', '1']);
  });

  it('searches by order name or customer and filters by status, from page 1', async () => {
    signIn(USER);
    const { calls } = fakeFetch(router({ 'GET /api/general-data/shopify-order-log': () => page([ROBIN]), 'GET /api/designs/all-with-product-type': () => PRODUCT_TYPES }, USER));
    renderOrders();
    await screen.findByTestId('order-5500000001');
    await userEvent.type(screen.getByLabelText('Search'), 'robin');
    await waitFor(() => expect(orderCalls(calls).some((c) => c.url.includes('q=robin'))).toBe(true), { timeout: 2000 });
    fireEvent.mouseDown(screen.getByRole('combobox', { name: 'Status' }));
    await userEvent.click(await screen.findByRole('option', { name: 'shipped' }));
    await waitFor(() => expect(orderCalls(calls).some((c) => c.url.includes('status=shipped') && c.url.includes('q=robin'))).toBe(true));
    const last = new URL(orderCalls(calls).at(-1)!.url, 'http://x');
    expect(last.searchParams.get('page')).toBe('1');
  });

  it('keeps search, status and the pages shown in the URL: Detail then Back finds the same list', async () => {
    signIn(USER);
    const { calls } = fakeFetch(
      router(
        {
          'GET /api/general-data/shopify-order-log': (call) => {
            const p = pageOf(call);
            return p === '1' ? page([ROBIN]) : p === '2' ? page([SHIPPED]) : page([]);
          },
          'GET /api/designs/all-with-product-type': () => PRODUCT_TYPES,
        },
        USER,
      ),
    );
    function DetailStandIn() {
      const navigate = useNavigate();
      return (
        <button type="button" onClick={() => navigate(-1)}>
          Back
        </button>
      );
    }
    render(
      <MemoryRouter initialEntries={['/orders']}>
        <AdminContext authProvider={authProvider} dataProvider={dataProvider} i18nProvider={defaultI18nProvider}>
          <Routes>
            <Route path="/orders" element={<OrdersPage />} />
            <Route path="/check-order" element={<DetailStandIn />} />
          </Routes>
        </AdminContext>
      </MemoryRouter>,
    );
    await screen.findByTestId('order-5500000001');
    await userEvent.type(screen.getByLabelText('Search'), 'robin');
    fireEvent.mouseDown(screen.getByRole('combobox', { name: 'Status' }));
    await userEvent.click(await screen.findByRole('option', { name: 'shipped' }));
    await waitFor(() => expect(orderCalls(calls).some((c) => c.url.includes('status=shipped') && c.url.includes('q=robin'))).toBe(true), { timeout: 2000 });
    await screen.findByTestId('order-5500000001');
    await userEvent.click(await screen.findByRole('button', { name: 'Load more' }));
    await screen.findByTestId('order-5500000002');

    const before = calls.length;
    await userEvent.click(within(screen.getByTestId('order-5500000001')).getByRole('link', { name: /Detail/ }));
    await userEvent.click(await screen.findByRole('button', { name: 'Back' }));

    expect(await screen.findByLabelText('Search')).toHaveValue('robin');
    expect(screen.getByRole('combobox', { name: 'Status' })).toHaveTextContent('shipped');
    expect(await screen.findByTestId('order-5500000002')).toBeInTheDocument();
    expect(screen.getByTestId('order-5500000001')).toBeInTheDocument();
    const again = orderCalls(calls.slice(before));
    expect(again.map(pageOf)).toEqual(['1', '2']);
    for (const c of again) expect(c.url).toMatch(/q=robin.*status=shipped|status=shipped.*q=robin/);
  });

  it('sends to HP: "Send HP successfully", and the icon changes', async () => {
    signIn(USER);
    const { calls } = fakeFetch(
      router(
        {
          'GET /api/general-data/shopify-order-log': () => page([ROBIN]),
          'GET /api/designs/all-with-product-type': () => PRODUCT_TYPES,
          'POST /api/online-stores/shopify-webhook/send-hp': () => ok({ status: 'sent', hpOrderId: 'hp-1' }),
        },
        USER,
      ),
    );
    renderOrders();
    const row = await screen.findByTestId('order-5500000001');
    await userEvent.click(within(row).getByRole('button', { name: 'Send HP' }));
    expect(await screen.findByText(/^Send HP successfully: HP Site Flow has (the order|this line)/)).toBeInTheDocument();
    expect(calls.find((c) => c.url.endsWith('/send-hp'))?.body).toEqual({ id: '5500000001' });
    expect(within(row).getByRole('button', { name: 'Send HP' }).querySelector('[data-testid="MarkEmailReadIcon"]')).not.toBeNull();
    expect(screen.queryByRole('region', { name: 'Error Data' })).not.toBeInTheDocument();
  });

  it('after a send the row reads the status from the answer; a second click is not possible', async () => {
    signIn(USER);
    const { calls } = fakeFetch(
      router(
        {
          'GET /api/general-data/shopify-order-log': () => page([ROBIN]),
          'GET /api/designs/all-with-product-type': () => PRODUCT_TYPES,
          'POST /api/online-stores/shopify-webhook/send-hp': () => ok({ status: 'sent', hpOrderId: 'hp-1', sentAt: '2026-03-04T10:20:00.000Z', orderStatus: 'sent' }),
        },
        USER,
      ),
    );
    renderOrders();
    const row = await screen.findByTestId('order-5500000001');
    expect(within(row).getByTestId('order-status')).toHaveTextContent('received');
    await userEvent.click(within(row).getByRole('button', { name: 'Send HP' }));
    expect(await screen.findByText(/^Send HP successfully: HP Site Flow has (the order|this line)/)).toBeInTheDocument();
    expect(within(row).getByTestId('order-status')).toHaveTextContent('sent');
    expect(within(row).getByRole('button', { name: 'Send HP' })).toBeDisabled();
    expect(within(row).getByRole('button', { name: 'Send line 901 to HP' })).toBeDisabled();
    expect(orderCalls(calls)).toHaveLength(1);
  });

  it('an order HP already has: says "Already sent to HP on <date>", not success, and disables the button', async () => {
    signIn(USER);
    fakeFetch(
      router(
        {
          'GET /api/general-data/shopify-order-log': () => page([ROBIN]),
          'GET /api/designs/all-with-product-type': () => PRODUCT_TYPES,
          // First: the router matches by prefix.
          'POST /api/online-stores/shopify-webhook/send-hp-single-line': () => ok({ status: 'already-sent', hpOrderId: 'hp-1', sentAt: null, orderStatus: 'sent' }),
          'POST /api/online-stores/shopify-webhook/send-hp': () => ok({ status: 'already-sent', hpOrderId: 'hp-1', sentAt: '2026-03-04T10:20:00.000Z', orderStatus: 'shipped' }),
        },
        USER,
      ),
    );
    renderOrders();
    const row = await screen.findByTestId('order-5500000001');
    await userEvent.click(within(row).getByRole('button', { name: 'Send line 901 to HP' }));
    const notice = { selector: '.MuiSnackbarContent-message' };
    expect(await screen.findByText('Already sent to HP', notice)).toBeInTheDocument();
    expect(within(row).getByRole('button', { name: 'Send line 901 to HP' })).toBeDisabled();
    await userEvent.click(within(row).getByRole('button', { name: 'Send HP' }));
    expect(await screen.findByText(/^Already sent to HP on 04\/03\/2026/, notice)).toBeInTheDocument();
    expect(screen.queryByText(/^Send HP successfully/)).not.toBeInTheDocument();
    expect(within(row).getByRole('button', { name: 'Send HP' })).toBeDisabled();
    expect(within(row).getByTestId('order-status')).toHaveTextContent('shipped');
  });

  it('a shipped order: Send HP is disabled and says when it went', async () => {
    signIn(USER);
    const shipped = order(
      { id: 2, status: 'shipped', field1: '5500000002' },
      { ...SHIPPED.data, hpOrders: { '5500000002': { hpOrderId: 'hp-9', sentAt: '2026-02-01T09:00:00.000Z' } } },
    );
    fakeFetch(router({ 'GET /api/general-data/shopify-order-log': () => page([shipped]), 'GET /api/designs/all-with-product-type': () => PRODUCT_TYPES }, USER));
    renderOrders();
    const row = await screen.findByTestId('order-5500000002');
    const button = within(row).getByRole('button', { name: 'Send HP' });
    expect(button).toBeDisabled();
    expect(within(row).getAllByLabelText(/^Already sent to HP on 01\/02\/2026/).some((el) => el.contains(button))).toBe(true);
  });

  it('sends one line item to HP (send-hp-single-line) with the order and line ids', async () => {
    signIn(USER);
    const { calls } = fakeFetch(
      router(
        {
          'GET /api/general-data/shopify-order-log': () => page([ROBIN]),
          'GET /api/designs/all-with-product-type': () => PRODUCT_TYPES,
          'POST /api/online-stores/shopify-webhook/send-hp-single-line': () => ok({ status: 'sent', hpOrderId: 'hp-2' }),
        },
        USER,
      ),
    );
    renderOrders();
    const row = await screen.findByTestId('order-5500000001');
    await userEvent.click(within(row).getByRole('button', { name: 'Send line 901 to HP' }));
    expect(await screen.findByText(/^Send HP successfully: HP Site Flow has (the order|this line)/)).toBeInTheDocument();
    expect(calls.find((c) => c.url.endsWith('/send-hp-single-line'))?.body).toEqual({ orderId: '5500000001', lineId: '901' });
    expect(calls.some((c) => c.url.endsWith('/send-hp'))).toBe(false);
  });

  it('a line in the Jobs queue: Send HP asks the server\'s question; No sends nothing, Yes sends with the answer', async () => {
    signIn(USER);
    const question = 'Item 1 is in the Jobs queue to be printed in house. Send to HP Site Flow instead? It leaves the Jobs queue.';
    const { calls } = fakeFetch(
      router(
        {
          'GET /api/general-data/shopify-order-log': () => page([ROBIN]),
          'GET /api/designs/all-with-product-type': () => PRODUCT_TYPES,
          'POST /api/online-stores/shopify-webhook/send-hp': (call) =>
            (call.body as { sendFromJobs?: boolean }).sendFromJobs
              ? ok({ status: 'sent', hpOrderId: 'hp-3' })
              : jsonResponse({ success: false, error: question, details: { code: 'IN_JOBS_QUEUE', lines: [{ lineId: '901', printJobId: 7 }], confirmWith: { sendFromJobs: true } } }, 409),
        },
        USER,
      ),
    );
    renderOrders();
    const row = await screen.findByTestId('order-5500000001');
    const sends = () => calls.filter((c) => c.url.endsWith('/send-hp'));

    await userEvent.click(within(row).getByRole('button', { name: 'Send HP' }));
    const dialog = await screen.findByRole('dialog');
    expect(dialog).toHaveTextContent(question);
    await userEvent.click(within(dialog).getByRole('button', { name: 'Cancel' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    expect(sends().map((c) => c.body)).toEqual([{ id: '5500000001' }]);
    expect(screen.queryByText(/^Send HP successfully/)).not.toBeInTheDocument();

    await userEvent.click(within(row).getByRole('button', { name: 'Send HP' }));
    await userEvent.click(within(await screen.findByRole('dialog')).getByRole('button', { name: 'Send to HP' }));
    expect(await screen.findByText(/^Send HP successfully: HP Site Flow has (the order|this line)/)).toBeInTheDocument();
    expect(sends().map((c) => c.body)).toEqual([{ id: '5500000001' }, { id: '5500000001' }, { id: '5500000001', sendFromJobs: true }]);
  });

  it('an unpaid order with a line in the Jobs queue: both questions are asked in turn, the yeses sent together', async () => {
    signIn(USER);
    const unpaid = order({ id: 1 }, { id: '5500000001', name: '#1001', financial_status: 'pending' });
    const { calls } = fakeFetch(
      router(
        {
          'GET /api/general-data/shopify-order-log': () => page([unpaid]),
          'GET /api/designs/all-with-product-type': () => PRODUCT_TYPES,
          'POST /api/online-stores/shopify-webhook/send-hp': (call) => {
            const body = call.body as { sendUnpaid?: boolean; sendFromJobs?: boolean };
            if (!body.sendUnpaid) return jsonResponse({ success: false, error: 'The order is not paid yet (payment status: pending). Send it to HP Site Flow anyway?', details: { code: 'ORDER_UNPAID', confirmWith: { sendUnpaid: true } } }, 409);
            if (!body.sendFromJobs) return jsonResponse({ success: false, error: 'Item 1 is in the Jobs queue.', details: { code: 'IN_JOBS_QUEUE', confirmWith: { sendFromJobs: true } } }, 409);
            return ok({ status: 'sent', hpOrderId: 'hp-9' });
          },
        },
        USER,
      ),
    );
    renderOrders();
    const row = await screen.findByTestId('order-5500000001');
    await userEvent.click(within(row).getByRole('button', { name: 'Send HP' }));
    expect(await screen.findByRole('dialog')).toHaveTextContent('not paid yet (payment status: pending)');
    await userEvent.click(within(screen.getByRole('dialog')).getByRole('button', { name: 'Send to HP' }));
    await waitFor(() => expect(screen.getByRole('dialog')).toHaveTextContent('Item 1 is in the Jobs queue.'));
    await userEvent.click(within(screen.getByRole('dialog')).getByRole('button', { name: 'Send to HP' }));
    expect(await screen.findByText(/^Send HP successfully: HP Site Flow has (the order|this line)/)).toBeInTheDocument();
    expect(calls.filter((c) => c.url.endsWith('/send-hp')).map((c) => c.body)).toEqual([
      { id: '5500000001' },
      { id: '5500000001', sendUnpaid: true },
      { id: '5500000001', sendUnpaid: true, sendFromJobs: true },
    ]);
  });

  it("marks an order that waits: in the change window until HH:mm, or waiting for the buyer's proof", async () => {
    signIn(USER);
    const windowed = order({ id: 7, field1: '5500000007' }, { id: '5500000007', name: '#1007', financial_status: 'paid', waiting: { reason: 'hold', until: '2026-11-20T14:30:00Z', sentence: 'in the change window until 14:30' } });
    const proofed = order({ id: 8, field1: '5500000008' }, { id: '5500000008', name: '#1008', financial_status: 'paid', waiting: { reason: 'proof', until: null, sentence: 'waiting for the buyer to approve the proof' } });
    const made = order({ id: 9, field1: '5500000009' }, { id: '5500000009', name: '#1009', financial_status: 'paid' });
    fakeFetch(router({ 'GET /api/general-data/shopify-order-log': () => page([windowed, proofed, made]), 'GET /api/designs/all-with-product-type': () => PRODUCT_TYPES }, USER));
    renderOrders();
    expect(within(await screen.findByTestId('order-5500000007')).getByText('In the change window until 14:30')).toBeInTheDocument();
    expect(within(screen.getByTestId('order-5500000008')).getByText('Waiting for the buyer to approve the proof')).toBeInTheDocument();
    expect(within(screen.getByTestId('order-5500000009')).queryByText(/change window|approve the proof/)).not.toBeInTheDocument();
  });

  it('marks cancelled and unpaid orders in the list; paid ones carry no mark', async () => {
    signIn(USER);
    const unpaid = order({ id: 4, field1: '5500000004' }, { id: '5500000004', name: '#1004', financial_status: 'pending' });
    const cancelled = order({ id: 5, field1: '5500000005', status: 'cancelled' }, { id: '5500000005', name: '#1005', financial_status: 'voided', cancelled: { cancelledAt: '2025-03-08T10:00:00Z', reason: 'customer' } });
    const paid = order({ id: 6, field1: '5500000006' }, { id: '5500000006', name: '#1006', financial_status: 'partially_refunded' });
    fakeFetch(router({ 'GET /api/general-data/shopify-order-log': () => page([unpaid, cancelled, paid]), 'GET /api/designs/all-with-product-type': () => PRODUCT_TYPES }, USER));
    renderOrders();
    expect(within(await screen.findByTestId('order-5500000004')).getByText('Unpaid')).toBeInTheDocument();
    const cancelledRow = screen.getByTestId('order-5500000005');
    expect(within(cancelledRow).getByText('Cancelled')).toBeInTheDocument();
    expect(within(cancelledRow).queryByText('Unpaid')).not.toBeInTheDocument();
    const paidRow = screen.getByTestId('order-5500000006');
    expect(within(paidRow).queryByText('Unpaid')).not.toBeInTheDocument();
    expect(within(paidRow).queryByText('Cancelled')).not.toBeInTheDocument();
  });

  it('shows a refused send (422) in an alert and its errorMes in the Error Data panel', async () => {
    signIn(USER);
    fakeFetch(
      router(
        {
          'GET /api/general-data/shopify-order-log': () => page([ROBIN]),
          'GET /api/designs/all-with-product-type': () => PRODUCT_TYPES,
          'POST /api/online-stores/shopify-webhook/send-hp': () =>
            jsonResponse({ success: false, error: 'Line 901: no HP SKU', errorMes: { code: 'ValidationError', validations: [{ path: 'items.0.sku' }] } }, 422),
        },
        USER,
      ),
    );
    renderOrders();
    const row = await screen.findByTestId('order-5500000001');
    await userEvent.click(within(row).getByRole('button', { name: 'Send HP' }));
    expect(await screen.findByText('Line 901: no HP SKU')).toBeInTheDocument();
    const panel = await screen.findByRole('region', { name: 'Error Data' });
    expect(panel).toHaveTextContent('Error Data (#1001)');
    expect(panel).toHaveTextContent('"code": "ValidationError"');
    expect(panel).toHaveTextContent('items.0.sku');
    await userEvent.click(within(panel).getByRole('button', { name: 'Close Error Data' }));
    expect(screen.queryByRole('region', { name: 'Error Data' })).not.toBeInTheDocument();
  });

  it('says when the provider did not answer and the send is queued (202)', async () => {
    signIn(USER);
    fakeFetch(
      router(
        {
          'GET /api/general-data/shopify-order-log': () => page([ROBIN]),
          'GET /api/designs/all-with-product-type': () => PRODUCT_TYPES,
          'POST /api/online-stores/shopify-webhook/send-hp': () =>
            jsonResponse({ success: true, data: { status: 'queued', error: 'HP answered 503', nextAttemptAt: '2025-03-07T10:10:00' } }, 202),
        },
        USER,
      ),
    );
    renderOrders();
    const row = await screen.findByTestId('order-5500000001');
    await userEvent.click(within(row).getByRole('button', { name: 'Send HP' }));
    expect(await screen.findByText(/HP answered 503\. It is queued and will be sent again, next attempt at 07\/03\/2025 10:10/)).toBeInTheDocument();
    expect(screen.queryByText(/^Send HP successfully/)).not.toBeInTheDocument();
  });

  it('downloads a line item PDF as print-file.pdf, or shows data.error', async () => {
    signIn(USER);
    let answer = () => pdfResponse();
    const { calls } = fakeFetch(
      router(
        {
          'GET /api/general-data/shopify-order-log': () => page([ROBIN]),
          'GET /api/designs/all-with-product-type': () => PRODUCT_TYPES,
          'POST /api/online-stores/shopify-webhook/hood-download-pdf': () => answer(),
        },
        USER,
      ),
    );
    renderOrders();
    const row = await screen.findByTestId('order-5500000001');
    await userEvent.click(within(row).getByRole('button', { name: 'PDF of CARD-ROBIN' }));
    await waitFor(() => expect(downloads).toEqual(['print-file.pdf']));
    expect(calls.find((c) => c.url.endsWith('/hood-download-pdf'))?.body).toEqual({ id: '5500000001', lineId: '901' });

    answer = () => jsonResponse({ success: false, data: { error: 'The design has no artwork' } }, 404);
    await userEvent.click(within(row).getByRole('button', { name: 'PDF of CARD-ROBIN' }));
    expect(await screen.findByText('The design has no artwork')).toBeInTheDocument();
    expect(downloads).toEqual(['print-file.pdf']);
  });
});

describe('List Orders at volume: Make in house, and buttons that can only fail', () => {
  const CANCELLED = order({ id: 4, field1: '5500000004' }, { id: '5500000004', name: '#1004', cancelled: { cancelledAt: '2025-03-08T10:00:00', reason: 'customer' }, line_items: [{ id: '904', sku: 'CARD-ROBIN', quantity: 1 }] });

  it('ticks orders → Make in house: one call with their ids, a progress bar, then what was made, already in Jobs and refused with why', async () => {
    signIn(USER);
    const made = deferred<Response>();
    const { calls } = fakeFetch(
      router(
        {
          'GET /api/general-data/shopify-order-log': () => page([ROBIN, CANCELLED], false),
          'GET /api/designs/all-with-product-type': () => PRODUCT_TYPES,
          'POST /api/online-stores/shopify-webhook/order-to-arwork': () => made.promise,
        },
        USER,
      ),
    );
    renderOrders();
    await screen.findByTestId('order-5500000001');
    await userEvent.click(screen.getByRole('checkbox', { name: 'Select every order on this page' }));
    const bar = screen.getByRole('toolbar', { name: 'Bulk actions' });
    expect(bar).toHaveTextContent('2 selected');
    await userEvent.click(within(bar).getByRole('button', { name: 'Make in house' }));
    await userEvent.click(within(await screen.findByRole('dialog')).getByRole('button', { name: 'Make in house' }));
    expect(await screen.findByRole('progressbar', { name: 'Making in house' })).toBeInTheDocument();
    expect(screen.getByText('Making in house… 0 of 2')).toBeInTheDocument();
    made.resolve(
      ok({
        orders: [
          { orderId: '5500000001', name: '#1001', siteId: 1, outcome: 'made', made: [31, 32], already: [], refused: [] },
          { orderId: '5500000004', name: '#1004', siteId: 1, outcome: 'refused', made: [], already: [], refused: [{ lineId: null, code: 'cancelled', reason: 'The order was cancelled in the store (customer): it is not printed or sent' }] },
        ],
      }),
    );
    const summary = await screen.findByTestId('make-in-house-summary');
    expect(summary).toHaveTextContent('1 order made in house (2 jobs); 1 refused: 1 cancelled.');
    expect(within(summary).getByRole('list', { name: 'Not made in house' })).toHaveTextContent('#1004: The order was cancelled in the store (customer)');
    expect(calls.find((c) => c.url.endsWith('/order-to-arwork'))?.body).toEqual({ ids: ['5500000001', '5500000004'], siteId: 1 });
    expect(screen.queryByRole('progressbar', { name: 'Making in house' })).not.toBeInTheDocument();
  });

  it('a cancelled or shipped order: Send HP, Line to HP and PDF are disabled, saying why; a one-result search offers no "Load more"', async () => {
    signIn(USER);
    const SHIPPED_HERE = order({ id: 5, status: 'shipped', field1: '5500000005' }, { id: '5500000005', name: '#1005', status: 'shipped', line_items: [{ id: '905', sku: 'CARD-ROBIN', quantity: 1 }] });
    fakeFetch(router({ 'GET /api/general-data/shopify-order-log': () => page([CANCELLED, SHIPPED_HERE], false), 'GET /api/designs/all-with-product-type': () => PRODUCT_TYPES }, USER));
    renderOrders();
    for (const [id, why] of [
      ['5500000004', 'Cancelled in the store (customer): nothing of it is printed or sent'],
      ['5500000005', 'Shipped: nothing left to print or send (Re-run on Detail sends it again)'],
    ]) {
      const row = await screen.findByTestId(`order-${id}`);
      for (const name of ['Send HP', 'PDF of CARD-ROBIN', /^Send line .* to HP$/]) expect(within(row).getByRole('button', { name })).toBeDisabled();
      await userEvent.hover(within(row).getByRole('button', { name: 'Send HP' }).parentElement!);
      expect(await screen.findByRole('tooltip')).toHaveTextContent(why);
      await userEvent.unhover(within(row).getByRole('button', { name: 'Send HP' }).parentElement!);
      await waitFor(() => expect(screen.queryByRole('tooltip')).not.toBeInTheDocument());
    }
    expect(screen.queryByRole('button', { name: 'Load more' })).not.toBeInTheDocument();
  });

  it('a line says what its buttons do: "Line to HP", and the PDF puts the line in Jobs', async () => {
    signIn(USER);
    fakeFetch(router({ 'GET /api/general-data/shopify-order-log': () => page([ROBIN], false), 'GET /api/designs/all-with-product-type': () => PRODUCT_TYPES }, USER));
    renderOrders();
    const row = await screen.findByTestId('order-5500000001');
    expect(within(row).getByRole('button', { name: /^Send line .* to HP$/ })).toHaveTextContent('Line to HP');
    expect(within(row).getByRole('button', { name: 'PDF of CARD-ROBIN' })).toHaveAccessibleDescription(/made in house and put in Jobs/);
  });
});

describe('All orders (/all-orders)', () => {
  it('lists every client with a Client column from the sites list, titled "List Orders"', async () => {
    signIn(ADMIN);
    const { calls } = fakeFetch(
      router(
        {
          'GET /api/general-data/shopify-order-log': () => page([ROBIN, { ...SHIPPED, siteId: 2 }]),
          'GET /api/designs/all-with-product-type': () => PRODUCT_TYPES,
          'GET /api/admin/sites': () =>
            jsonResponse(
              [
                { id: 1, name: 'Hood Charity' },
                { id: 2, name: 'Sherwood Prints' },
              ],
              200,
              { 'Content-Range': 'sites 0-1/2' },
            ),
        },
        ADMIN,
      ),
    );
    renderInAdmin(<AllOrdersPage />, { path: '/all-orders', routePath: '/all-orders' });
    const robin = await screen.findByTestId('order-5500000001', {}, { timeout: 5000 });
    expect(screen.getAllByRole('columnheader').map((h) => h.textContent)).toEqual(['', 'Client', 'Timestamp', 'Customer Name', 'Order Id / Number / Name', 'SKU', '']);
    expect(await within(robin).findByText('Hood Charity')).toBeInTheDocument();
    expect(within(screen.getByTestId('order-5500000002')).getByText('Sherwood Prints')).toBeInTheDocument();
    const url = new URL(orderCalls(calls)[0].url, 'http://x');
    expect(url.searchParams.get('allClients')).toBe('1');
    expect(screen.getByRole('heading', { name: 'List Orders' })).toBeInTheDocument();
    expect(document.title).toBe('List Orders | Presswork');
  });

  it('has a Client filter: a client picked lists only its orders (in the address too)', async () => {
    signIn(ADMIN);
    const { calls } = fakeFetch(
      router(
        {
          'GET /api/general-data/shopify-order-log': () => page([ROBIN], false),
          'GET /api/designs/all-with-product-type': () => PRODUCT_TYPES,
          'GET /api/admin/sites': () => jsonResponse([{ id: 1, name: 'Hood Charity' }, { id: 2, name: 'Sherwood Prints' }], 200, { 'Content-Range': 'sites 0-1/2' }),
        },
        ADMIN,
      ),
    );
    renderInAdmin(<AllOrdersPage />, { path: '/all-orders', routePath: '/all-orders' });
    await screen.findByTestId('order-5500000001');
    expect(screen.getByText('All clients', { selector: 'h1 ~ *' })).toBeInTheDocument();
    fireEvent.mouseDown(screen.getByRole('combobox', { name: 'Client' }));
    await userEvent.click(await screen.findByRole('option', { name: 'Sherwood Prints' }));
    await waitFor(() => expect(new URL(orderCalls(calls).at(-1)!.url, 'http://x').searchParams.get('siteId')).toBe('2'));
    const last = new URL(orderCalls(calls).at(-1)!.url, 'http://x');
    expect(last.searchParams.get('allClients')).toBeNull();
  });

  it('is refused to a non-admin, who never asks for every client', async () => {
    signIn(USER);
    const { calls } = fakeFetch(router({}, USER));
    renderInAdmin(<AllOrdersPage />, { path: '/all-orders', routePath: '/all-orders' });
    expect(await screen.findByRole('heading', { name: 'Access denied' })).toBeInTheDocument();
    expect(orderCalls(calls)).toHaveLength(0);
  });
});
