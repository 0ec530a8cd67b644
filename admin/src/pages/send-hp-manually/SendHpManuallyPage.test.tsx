import { describe, expect, it } from 'vitest';
import { act, fireEvent, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { ADMIN, jsonResponse, renderInAdmin, signIn, fakeFetch, USER } from '../../test/helpers';
import { ok, router } from '../../test/printProduction';
import { toSubmission, initialForm } from './manualForm';
import { SendHpManuallyPage } from './SendHpManuallyPage';

function renderManual() {
  renderInAdmin(<SendHpManuallyPage />, { path: '/send-hp-manually', routePath: '/send-hp-manually' });
}

/** Types a whole value at once (fast, same change events as typing). */
function fill(input: HTMLElement, value: string) {
  fireEvent.change(input, { target: { value } });
}

function deferred<T>() {
  let resolve!: (value: T) => void;
  const promise = new Promise<T>((r) => (resolve = r));
  return { promise, resolve };
}

const HP_ANSWER = { success: true, order: { _id: 'hp-77', sourceOrderId: 'TEST-1', status: 'received' } };

describe('toSubmission', () => {
  it('turns quantities into numbers and keeps everything else as typed', () => {
    const form = initialForm();
    form.items = [{ ...form.items[0], sku: 'A', quantity: '3' }, { ...form.items[0], key: 99, quantity: '' }];
    const body = toSubmission(form);
    expect(body.items.map((i) => i.quantity)).toEqual([3, 0]);
    expect(body.shipTo.isoCountry).toBe('gb');
    expect(body).not.toHaveProperty('siteId');
    expect(toSubmission(form, 4).siteId).toBe(4);
  });
});

describe('Send HP Manually (/send-hp-manually)', () => {
  it('sends the form (items added and deleted, quantity as a number, "gb" by default) and shows the response', async () => {
    signIn(USER);
    const answer = deferred<Response>();
    const { calls } = fakeFetch(router({ 'POST /api/online-stores/manually-send-hp': () => answer.promise }, USER));
    renderManual();
    expect(await screen.findByText('Please fill in all the fields. Make up some ids')).toBeInTheDocument();
    expect(document.title).toBe('Send HP Manually | Presswork');
    expect(screen.queryByLabelText('Site')).not.toBeInTheDocument();
    expect(screen.getByLabelText('ISO Country')).toHaveValue('gb');

    fill(screen.getByLabelText('Source Order Id'), 'TEST-1');
    fill(screen.getByLabelText('Customer Name'), 'Robin Hood');
    expect(screen.getAllByTestId('manual-item')).toHaveLength(1);
    await userEvent.click(screen.getByRole('button', { name: 'Add item' }));
    await userEvent.click(screen.getByRole('button', { name: 'Add item' }));
    expect(screen.getAllByTestId('manual-item')).toHaveLength(3);

    fill(screen.getByLabelText('SKU of item 1'), 'HP-A5-CARD');
    fill(screen.getByLabelText('Quantity of item 1'), '3');
    fill(screen.getByLabelText('PDF URL of item 1'), 'https://files.example/a.pdf');
    fill(screen.getByLabelText('Source Item ID of item 1'), 'TEST-1-1');
    fill(screen.getByLabelText('SKU of item 2'), 'DELETE-ME');
    fill(screen.getByLabelText('SKU of item 3'), 'HP-MUG');
    await userEvent.click(screen.getByRole('button', { name: 'Delete item 2' }));
    expect(screen.getAllByTestId('manual-item')).toHaveLength(2);
    expect(screen.getByLabelText('SKU of item 2')).toHaveValue('HP-MUG');

    fill(screen.getByLabelText('Name'), 'Robin Hood');
    fill(screen.getByLabelText('Address 1'), '1 Forest Lane');
    fill(screen.getByLabelText('Town'), 'Nottingham');
    fill(screen.getByLabelText('Post Code'), 'NG1 1AA');

    await userEvent.click(screen.getByRole('button', { name: 'Send' }));
    expect(await screen.findByRole('button', { name: 'Sending...' })).toBeDisabled();
    expect(calls.find((c) => c.url === '/api/online-stores/manually-send-hp')?.body).toEqual({
      orderData: { sourceOrderId: 'TEST-1', customerName: 'Robin Hood' },
      items: [
        { sku: 'HP-A5-CARD', quantity: 3, pdfUrl: 'https://files.example/a.pdf', sourceItemId: 'TEST-1-1' },
        { sku: 'HP-MUG', quantity: 1, pdfUrl: '', sourceItemId: '' },
      ],
      shipTo: { name: 'Robin Hood', address1: '1 Forest Lane', address2: '', town: 'Nottingham', isoCountry: 'gb', postcode: 'NG1 1AA' },
    });

    await act(async () => answer.resolve(ok(HP_ANSWER)));
    expect((await screen.findAllByText('Successfully sent to HP')).length).toBeGreaterThan(0);
    const response = screen.getByRole('region', { name: 'Response Data from HP' });
    expect(within(response).getByLabelText('Response Data from HP').textContent).toBe(JSON.stringify(HP_ANSWER, null, 2));
    expect(screen.getByRole('button', { name: 'Send' })).toBeEnabled();
  });

  it("shows a refusal in an alert, with the provider's answer", async () => {
    signIn(USER);
    const refusal = { success: false, error: { message: 'Validation failed', validations: [{ path: 'shipTo.postcode', message: 'is required' }] } };
    fakeFetch(
      router(
        {
          'POST /api/online-stores/manually-send-hp': () =>
            jsonResponse({ success: false, error: 'HP refused the order: Validation failed', data: refusal, errorMes: { status: 400 } }, 422),
        },
        USER,
      ),
    );
    renderManual();
    await userEvent.click(await screen.findByRole('button', { name: 'Send' }));
    const alerts = await screen.findAllByText('HP refused the order: Validation failed');
    expect(alerts.length).toBeGreaterThan(0);
    const response = await screen.findByRole('region', { name: 'Response Data from HP' });
    expect(response).toHaveTextContent('shipTo.postcode');
    expect(screen.queryByText('Successfully sent to HP')).not.toBeInTheDocument();
  });

  it('lets an admin pick the site (their own by default) and sends its id', async () => {
    signIn(ADMIN);
    const { calls } = fakeFetch(
      router(
        {
          'GET /api/admin/sites': () =>
            jsonResponse(
              [
                { id: 1, name: 'Hood Charity' },
                { id: 2, name: 'Sherwood Prints' },
              ],
              200,
              { 'Content-Range': 'sites 0-1/2' },
            ),
          'POST /api/online-stores/manually-send-hp': () => ok(HP_ANSWER),
        },
        ADMIN,
      ),
    );
    renderManual();
    const site = await screen.findByRole('combobox', { name: 'Site' });
    expect(await within(site).findByText('Hood Charity')).toBeInTheDocument();
    fireEvent.mouseDown(site);
    await userEvent.click(await screen.findByRole('option', { name: 'Sherwood Prints' }));
    await userEvent.click(screen.getByRole('button', { name: 'Send' }));
    await screen.findByRole('region', { name: 'Response Data from HP' });
    expect((calls.find((c) => c.url === '/api/online-stores/manually-send-hp')?.body as { siteId?: number }).siteId).toBe(2);
  });
});
