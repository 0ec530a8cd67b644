import { describe, expect, it } from 'vitest';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import type { SearchResults } from '../../../common/api/search';
import { LocationDisplay, jsonResponse, renderInAdmin, signIn, fakeFetch, USER } from '../test/helpers';
import { HeaderSearch } from './HeaderSearch';

const RESULTS: SearchResults = {
  orders: [
    { id: 11, label: 'Order #1024', sub: 'Grace Hopper · received', link: '/check-order?id=880001', orderId: '880001', name: '#1024', siteId: 1, status: 'received', createdAt: '2026-11-20T10:00:00.000Z' },
    { id: 12, label: 'Order #1025', sub: 'Ada Lovelace · received', link: '/check-order?id=880002', orderId: '880002', name: '#1025', siteId: 1, status: 'received', createdAt: '2026-11-20T10:00:00.000Z' },
  ],
  jobs: [{ id: 7, label: 'Job 7 · Robin card', sub: 'Order #1024 · Ready', link: '/check-order?id=880001', productName: 'Robin card', orderId: '880001', siteId: 1, isPrinted: false }],
  designs: [{ id: 3, label: 'Winter robin', sub: 'SKU XMAS-ROBIN', link: '/design/3', name: 'Winter robin', sku: 'XMAS-ROBIN', siteId: 1 }],
};

function setup(results: SearchResults = RESULTS) {
  signIn(USER);
  const { calls } = fakeFetch(() => jsonResponse({ success: true, data: results }));
  renderInAdmin(
    <>
      <input aria-label="Another field" />
      <HeaderSearch />
      <LocationDisplay />
    </>,
    { path: '/print-jobs' },
  );
  return { calls, box: screen.getByRole('combobox', { name: 'Search orders, jobs and designs' }) };
}

const optionNames = () => screen.getAllByRole('option').map((o) => within(o).getAllByText(/./)[0].textContent);

describe('HeaderSearch', () => {
  it('asks once the typing pauses, and shows the results grouped by kind under headings', async () => {
    const { calls, box } = setup();
    fireEvent.focus(box);
    fireEvent.change(box, { target: { value: '1' } });
    fireEvent.change(box, { target: { value: '10' } });
    fireEvent.change(box, { target: { value: '102' } });
    await screen.findByRole('listbox');
    await waitFor(() => expect(screen.getAllByRole('option')).toHaveLength(4));
    // One call, for what was typed last (one letter asks nothing).
    expect(calls.map((c) => c.url)).toEqual(['/api/search?q=102']);
    const groups = screen.getAllByRole('group');
    expect(groups.map((g) => g.getAttribute('aria-labelledby')).map((id) => document.getElementById(id!)?.textContent)).toEqual(['Orders', 'Jobs', 'Designs']);
    expect(within(groups[0]).getAllByRole('option')).toHaveLength(2);
    expect(optionNames()).toEqual(['Order #1024', 'Order #1025', 'Job 7 · Robin card', 'Winter robin']);
    expect(box).toHaveAttribute('aria-expanded', 'true');
  });

  it("asks for a one-digit job number, and opens a batch found by its cover's code on its page", async () => {
    const { calls, box } = setup({ orders: [], jobs: [], designs: [], batches: [{ id: 5, label: 'Batch PB-3', sub: 'open', link: '/batches/5', number: 3, siteId: 1, state: 'open' }] });
    fireEvent.focus(box);
    fireEvent.change(box, { target: { value: '7' } });
    await waitFor(() => expect(calls.map((c) => c.url)).toEqual(['/api/search?q=7']));
    fireEvent.change(box, { target: { value: 'PB-3' } });
    await waitFor(() => expect(screen.getAllByRole('option')).toHaveLength(1));
    const groups = screen.getAllByRole('group');
    expect(document.getElementById(groups[0].getAttribute('aria-labelledby')!)?.textContent).toBe('Batches');
    fireEvent.keyDown(box, { key: 'Enter' });
    await waitFor(() => expect(screen.getByTestId('location')).toHaveTextContent('/batches/5'));
  });

  it('moves with ↑ ↓, tells assistive technology which result is active, and opens it with Enter', async () => {
    const { box } = setup();
    fireEvent.focus(box);
    fireEvent.change(box, { target: { value: 'robin' } });
    await waitFor(() => expect(screen.getAllByRole('option')).toHaveLength(4));
    expect(box).not.toHaveAttribute('aria-activedescendant');
    fireEvent.keyDown(box, { key: 'ArrowDown' });
    fireEvent.keyDown(box, { key: 'ArrowDown' });
    fireEvent.keyDown(box, { key: 'ArrowDown' });
    fireEvent.keyDown(box, { key: 'ArrowDown' });
    fireEvent.keyDown(box, { key: 'ArrowUp' });
    const active = screen.getByRole('option', { selected: true });
    expect(active).toHaveTextContent('Job 7 · Robin card');
    expect(box).toHaveAttribute('aria-activedescendant', active.id);
    fireEvent.keyDown(box, { key: 'Enter' });
    expect(screen.getByTestId('location')).toHaveTextContent('/check-order?id=880001');
    expect(screen.queryByRole('listbox')).toBeNull();
    expect(box).toHaveValue('');
  });

  it('wraps from the last result to the first, and Enter with nothing highlighted opens the first', async () => {
    const { box } = setup();
    fireEvent.focus(box);
    fireEvent.change(box, { target: { value: 'robin' } });
    await waitFor(() => expect(screen.getAllByRole('option')).toHaveLength(4));
    fireEvent.keyDown(box, { key: 'ArrowUp' });
    expect(screen.getByRole('option', { selected: true })).toHaveTextContent('Winter robin');
    fireEvent.keyDown(box, { key: 'ArrowDown' });
    expect(screen.getByRole('option', { selected: true })).toHaveTextContent('Order #1024');
    fireEvent.keyDown(box, { key: 'Escape' });
    expect(screen.queryByRole('listbox')).toBeNull();
    fireEvent.change(box, { target: { value: 'robi' } });
    await waitFor(() => expect(screen.getAllByRole('option')).toHaveLength(4));
    fireEvent.keyDown(box, { key: 'Enter' });
    expect(screen.getByTestId('location')).toHaveTextContent('/check-order?id=880001');
  });

  it("cancels an older query's call: its late answer never replaces the newer one's", async () => {
    signIn(USER);
    let answerFirst: () => void = () => {};
    const { calls } = fakeFetch((call) =>
      call.url.endsWith('q=gr')
        ? new Promise<Response>((resolve) => {
            answerFirst = () => resolve(jsonResponse({ success: true, data: { orders: [RESULTS.orders[1]], jobs: [], designs: [] } }));
          })
        : jsonResponse({ success: true, data: RESULTS }),
    );
    renderInAdmin(<HeaderSearch />, { path: '/print-jobs' });
    const box = screen.getByRole('combobox');
    fireEvent.focus(box);
    fireEvent.change(box, { target: { value: 'gr' } });
    await waitFor(() => expect(calls).toHaveLength(1));
    fireEvent.change(box, { target: { value: 'gra' } });
    await waitFor(() => expect(screen.getAllByRole('option')).toHaveLength(4));
    answerFirst();
    await new Promise((r) => setTimeout(r, 50));
    expect(optionNames()).toEqual(['Order #1024', 'Order #1025', 'Job 7 · Robin card', 'Winter robin']);
    expect(screen.queryByText('Searching…')).toBeNull();
  });

  it('says when nothing is found', async () => {
    const { box } = setup({ orders: [], jobs: [], designs: [] });
    fireEvent.focus(box);
    fireEvent.change(box, { target: { value: 'zz' } });
    expect(await screen.findByText('Nothing found for “zz”.')).toHaveAttribute('role', 'status');
  });

  it('focuses with / from anywhere but another input', () => {
    const { box } = setup();
    const other = screen.getByRole('textbox', { name: 'Another field' });
    other.focus();
    fireEvent.keyDown(other, { key: '/' });
    expect(document.activeElement).toBe(other);
    other.blur();
    fireEvent.keyDown(document.body, { key: '/' });
    return waitFor(() => expect(document.activeElement).toBe(box));
  });
});
