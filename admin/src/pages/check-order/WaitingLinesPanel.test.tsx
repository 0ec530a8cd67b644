import { describe, expect, it } from 'vitest';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { renderInAdmin, signIn, fakeFetch, USER } from '../../test/helpers';
import { order } from '../../test/orders';
import { ok, router } from '../../test/printProduction';
import { CheckOrderPage } from './CheckOrderPage';

const WAITING = order(
  { id: 1 },
  {
    id: '5500000001',
    name: '#1001',
    line_items: [
      { id: '901', name: 'Robin card', sku: 'CARD-ROBIN', quantity: 1, properties: [{ name: 'Recipient', value: 'Ada' }, { name: '_hidden', value: 'x' }] },
      { id: '902', name: 'Marian mug', sku: 'MUG-MARIAN', quantity: 1 },
    ],
    // check-order's routes: production's routing says what each line waits for, in the shop's time.
    routes: [
      { lineId: '901', goes: 'provider', now: false, code: 'waiting', reason: 'In the change window until 14:30', waiting: { reason: 'hold', until: '2026-11-20T14:30:00Z' } },
      { lineId: '902', goes: 'provider', now: false, code: 'waiting', reason: 'Waiting for the buyer to approve the proof', waiting: { reason: 'proof', until: null } },
    ],
  },
);
const PROOF_ONLY = order({ id: 1 }, { ...WAITING.data, routes: [{ ...(WAITING.data.routes as object[])[1] }] });
const MADE = order({ id: 1 }, { ...WAITING.data, routes: [] });

const renderCheck = () => renderInAdmin(<CheckOrderPage />, { path: '/check-order?id=5500000001', routePath: '/check-order' });
const base = (current: () => unknown) => ({
  'POST /api/online-stores/check-order': () => ok([current()]),
  'GET /api/orders/5500000001/store-fulfilments': () => ok([]),
});

describe('Check order: lines waiting before they are made', () => {
  it('shows each waiting line with the sentence the server gives; Release now asks, posts once and the panel goes', async () => {
    signIn(USER);
    let released = false;
    const { calls } = fakeFetch(router({ ...base(() => (released ? MADE : WAITING)), 'POST /api/orders/5500000001/release': () => ((released = true), ok({ released: ['901', '902'] })) }, USER));
    renderCheck();
    const panel = await screen.findByRole('region', { name: 'Waiting before it is made' });
    expect(panel).toHaveTextContent('Robin card: In the change window until 14:30');
    expect(panel).toHaveTextContent('Marian mug: Waiting for the buyer to approve the proof');
    await userEvent.click(within(panel).getByRole('button', { name: 'Release now' }));
    const confirm = await screen.findByRole('dialog', { name: 'Release now' });
    await userEvent.click(within(confirm).getByRole('button', { name: 'Release now' }));
    await waitFor(() => expect(screen.queryByRole('region', { name: 'Waiting before it is made' })).not.toBeInTheDocument());
    const posts = calls.filter((c) => c.method === 'POST' && c.url.startsWith('/api/orders/5500000001/release'));
    expect(posts).toHaveLength(1);
    expect(posts[0].url).toBe('/api/orders/5500000001/release?siteId=1');
  });

  it('Extend hold posts the minutes; it is offered only while a line is in the change window', async () => {
    signIn(USER);
    const { calls } = fakeFetch(router({ ...base(() => WAITING), 'POST /api/orders/5500000001/extend-hold': () => ok({ holdUntil: '2026-11-20T15:15:00Z', lines: ['901'] }) }, USER));
    const { unmount } = renderCheck();
    const panel = await screen.findByRole('region', { name: 'Waiting before it is made' });
    await userEvent.click(within(panel).getByRole('button', { name: 'Extend hold' }));
    const dialog = await screen.findByRole('dialog', { name: 'Extend hold' });
    const minutes = within(dialog).getByRole('spinbutton', { name: 'Minutes more' });
    await userEvent.clear(minutes);
    await userEvent.type(minutes, '45');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Extend' }));
    await waitFor(() => expect(calls.filter((c) => c.url.startsWith('/api/orders/5500000001/extend-hold'))).toHaveLength(1));
    expect(calls.find((c) => c.url.startsWith('/api/orders/5500000001/extend-hold'))!.body).toEqual({ minutes: 45 });
    unmount();

    fakeFetch(router(base(() => PROOF_ONLY), USER));
    renderCheck();
    const proofOnly = await screen.findByRole('region', { name: 'Waiting before it is made' });
    expect(within(proofOnly).queryByRole('button', { name: 'Extend hold' })).not.toBeInTheDocument();
    expect(within(proofOnly).getByRole('button', { name: 'Release now' })).toBeInTheDocument();
  });

  it("Edit personalisation shows the line's own properties (not the store's hidden ones) and sends the edited list", async () => {
    signIn(USER);
    const { calls } = fakeFetch(router({ ...base(() => WAITING), 'POST /api/orders/5500000001/lines/901/personalisation': () => ok({ proof: 'sent', properties: [] }) }, USER));
    renderCheck();
    const panel = await screen.findByRole('region', { name: 'Waiting before it is made' });
    await userEvent.click(within(panel).getAllByRole('button', { name: 'Edit personalisation' })[0]);
    const dialog = await screen.findByRole('dialog', { name: /Edit personalisation: Robin card/ });
    const values = within(dialog).getAllByRole('textbox', { name: 'Value' });
    expect(values).toHaveLength(1);
    expect(values[0]).toHaveValue('Ada');
    await userEvent.clear(values[0]);
    await userEvent.type(values[0], 'Adah');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(calls.filter((c) => c.url.startsWith('/api/orders/5500000001/lines/901/personalisation'))).toHaveLength(1));
    expect(calls.find((c) => c.url.startsWith('/api/orders/5500000001/lines/901/personalisation'))!.body).toEqual({ properties: [{ name: 'Recipient', value: 'Adah' }] });
    expect(await screen.findByText('Personalisation saved: a new proof was e-mailed to the buyer')).toBeInTheDocument();
  });
});
