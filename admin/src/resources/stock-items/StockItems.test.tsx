// Setup → Stock against a small fake of /api/stock-items: the list (low items marked), making and
// changing an item, Receive and Count (each one action: one idempotency key per dialog), the
// movements with who, when and why, and the CSV.
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { StockItem, StockMovement } from '../../../../common/api/stock';
import { ADMIN, renderInAdmin, signIn, fakeFetch, USER, type RecordedCall } from '../../test/helpers';
import { fail, ok, router } from '../../test/printProduction';
import StockItemCreate from './StockItemCreate';
import StockItemEdit from './StockItemEdit';
import StockItemList from './StockItemList';
import StockItemShow from './StockItemShow';

const item = (over: Partial<StockItem>): StockItem => ({ id: 1, siteId: 1, name: 'Card blanks A5', unit: 'cards', onHand: 400, reserved: 20, available: 380, reorderPoint: 100, reorderQuantity: 500, supplierNote: 'Paperco', ...over });

/** A fake of the stock API: its items and movements, changed by receive and count as the server does. */
function fakeStock(user = ADMIN) {
  const items: StockItem[] = [item({}), item({ id: 2, siteId: null, name: 'White mugs 11 oz', unit: 'mugs', onHand: 13, reserved: 3, available: 10, reorderPoint: 12, reorderQuantity: 36 })];
  const moves: StockMovement[] = [
    { id: 1, itemId: 2, kind: 'count', quantity: 13, onHandAfter: 13, reservedAfter: 0, jobId: null, note: 'opening count', byUserId: 1, byName: 'Ada Admin', at: '2026-11-20T09:00:00.000Z' },
    { id: 2, itemId: 2, kind: 'reserve', quantity: 3, onHandAfter: 13, reservedAfter: 3, jobId: 41, note: null, byUserId: null, byName: 'Presswork', at: '2026-11-21T10:30:00.000Z' },
  ];
  const move = (id: number, kind: 'receive' | 'count', call: RecordedCall) => {
    const { quantity, note } = call.body as { quantity: number; note?: string };
    const it = items.find((i) => i.id === id)!;
    const change = kind === 'receive' ? quantity : quantity - it.onHand;
    it.onHand += change;
    it.available = it.onHand - it.reserved;
    moves.push({ id: moves.length + 1, itemId: id, kind, quantity: change, onHandAfter: it.onHand, reservedAfter: it.reserved, jobId: null, note: note ?? null, byUserId: 1, byName: 'Ada Admin', at: '2026-11-28T12:00:00.000Z' });
    return ok(it);
  };
  const fetches = fakeFetch(
    router(
      {
        'GET /api/stock-items?': () => ok({ list: items, hasNext: false, total: items.length }),
        'GET /api/stock-items/': (call) => {
          const m = /^\/api\/stock-items\/(\d+)(\/movements)?(\?.*)?$/.exec(call.url);
          if (!m) return undefined;
          const id = Number(m[1]);
          if (!m[2]) return items.some((i) => i.id === id) ? ok(items.find((i) => i.id === id)) : fail('Stock item not found', 404);
          const mine = moves.filter((x) => x.itemId === id).reverse();
          if (call.url.includes('format=csv')) return new Response(`at,kind,quantity\n${mine.map((x) => `${x.at},${x.kind},${x.quantity}`).join('\n')}\n`, { status: 200, headers: { 'Content-Type': 'text/csv' } });
          return ok({ list: mine, hasNext: false, total: mine.length });
        },
        'POST /api/stock-items/': (call) => {
          const m = /^\/api\/stock-items\/(\d+)\/(receive|count)$/.exec(call.url);
          return m ? move(Number(m[1]), m[2] as 'receive' | 'count', call) : undefined;
        },
        'POST /api/stock-items': (call) => {
          const body = call.body as Partial<StockItem> & { id?: number };
          if (body.id) {
            const it = items.find((i) => i.id === Number(body.id))!;
            Object.assign(it, { name: body.name, unit: body.unit, reorderPoint: body.reorderPoint, reorderQuantity: body.reorderQuantity, supplierNote: body.supplierNote });
            return ok(it);
          }
          const made = item({ id: items.length + 1, siteId: 1, reserved: 0, ...body, available: body.onHand ?? 0 });
          items.push(made);
          return ok(made);
        },
      },
      user,
    ),
  );
  return { items, moves, calls: fetches.calls };
}

const posts = (calls: RecordedCall[], url: string) => calls.filter((c) => c.method === 'POST' && c.url === url);

describe('Setup → Stock', () => {
  beforeEach(() => signIn(ADMIN));
  afterEach(() => vi.restoreAllMocks());

  it('lists the items with on hand, reserved and available; an item at or under its reorder point is marked', async () => {
    fakeStock();
    renderInAdmin(<StockItemList />, { path: '/stock-items', routePath: '/stock-items' });
    const mugs = (await screen.findByText('White mugs 11 oz')).closest('tr')!;
    expect(within(mugs).getByText('10 mugs — reorder')).toBeInTheDocument();
    expect(within(mugs).getByText('Shared')).toBeInTheDocument();
    const cards = screen.getByText('Card blanks A5').closest('tr')!;
    expect(within(cards).getByText('380 cards')).toBeInTheDocument();
    expect(within(cards).queryByText(/reorder/)).not.toBeInTheDocument();
    // An admin reads the site's name.
    expect(await within(cards).findByText('Site A')).toBeInTheDocument();
    expect(within(cards).getByRole('button', { name: 'Receive' })).toBeInTheDocument();
    expect(within(cards).getByRole('button', { name: 'Count' })).toBeInTheDocument();
  });

  it('Receive from the list posts the quantity and note once, with one key for the dialog, and says what is on hand after', async () => {
    const { calls, items } = fakeStock();
    renderInAdmin(<StockItemList />, { path: '/stock-items', routePath: '/stock-items' });
    const cards = (await screen.findByText('Card blanks A5')).closest('tr')!;
    await userEvent.click(within(cards).getByRole('button', { name: 'Receive' }));
    const dialog = await screen.findByRole('dialog', { name: 'Receive a delivery: Card blanks A5' });
    const submit = within(dialog).getByRole('button', { name: 'Receive' });
    expect(submit).toBeDisabled();
    await userEvent.type(within(dialog).getByRole('spinbutton', { name: /Quantity received \(cards\)/ }), '500');
    await userEvent.type(within(dialog).getByRole('textbox', { name: 'Note' }), 'Paperco delivery 8812');
    await userEvent.click(submit);
    expect(await screen.findByText('Received: Card blanks A5 now 900 cards on hand, 880 available')).toBeInTheDocument();
    const sent = posts(calls, '/api/stock-items/1/receive');
    expect(sent).toHaveLength(1);
    expect(sent[0].body).toEqual({ quantity: 500, note: 'Paperco delivery 8812' });
    expect(sent[0].headers.get('Idempotency-Key')).toBeTruthy();
    expect(items[0].onHand).toBe(900);
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
  });

  it('the item shows its figures and every movement with who, when and why; Count records the difference; Export CSV downloads them', async () => {
    const { calls } = fakeStock();
    const clicked: string[] = [];
    vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(function (this: HTMLAnchorElement) {
      clicked.push(this.download);
    });
    URL.createObjectURL = vi.fn(() => 'blob:stock');
    URL.revokeObjectURL = vi.fn();
    renderInAdmin(<StockItemShow />, { path: '/stock-items/2/show', routePath: '/stock-items/:id/show' });
    const table = await screen.findByRole('table', { name: 'Movements' });
    await waitFor(() => expect(within(table).getAllByRole('row')).toHaveLength(3));
    const rows = within(table).getAllByRole('row').slice(1);
    expect(within(rows[0]).getByText('Reserved')).toBeInTheDocument();
    expect(within(rows[0]).getByText('#41')).toBeInTheDocument();
    expect(within(rows[0]).getByText('Presswork')).toBeInTheDocument();
    expect(within(rows[1]).getByText('Counted')).toBeInTheDocument();
    expect(within(rows[1]).getByText('opening count')).toBeInTheDocument();
    expect(within(rows[1]).getByText('Ada Admin')).toBeInTheDocument();

    await userEvent.click(screen.getByRole('button', { name: 'Count' }));
    const dialog = await screen.findByRole('dialog', { name: 'Count (stock-take): White mugs 11 oz' });
    await userEvent.type(within(dialog).getByRole('spinbutton', { name: /Quantity counted on the shelf \(mugs\)/ }), '11');
    await userEvent.type(within(dialog).getByRole('textbox', { name: 'Note' }), 'two broken');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Count' }));
    expect(await screen.findByText('Counted: White mugs 11 oz now 11 mugs on hand, 8 available')).toBeInTheDocument();
    expect(posts(calls, '/api/stock-items/2/count')[0].body).toEqual({ quantity: 11, note: 'two broken' });
    // The list shows the count's difference, newest first.
    await waitFor(() => expect(within(screen.getByRole('table', { name: 'Movements' })).getAllByRole('row')).toHaveLength(4));
    const newest = within(screen.getByRole('table', { name: 'Movements' })).getAllByRole('row')[1];
    expect(within(newest).getByText('-2')).toBeInTheDocument();
    expect(within(newest).getByText('two broken')).toBeInTheDocument();

    await userEvent.click(screen.getByRole('button', { name: 'Export CSV' }));
    await waitFor(() => expect(clicked).toEqual(['stock-2-movements.csv']));
    expect(calls.some((c) => c.url === '/api/stock-items/2/movements?format=csv')).toBe(true);
  });

  it('makes an item with its opening quantity', async () => {
    const { calls } = fakeStock();
    renderInAdmin(<StockItemCreate />, { path: '/stock-items/create', routePath: '/stock-items/create' });
    await userEvent.type(await screen.findByRole('textbox', { name: /^Name/ }), 'Poster paper A3');
    await userEvent.type(screen.getByRole('textbox', { name: /^Unit/ }), 'sheets');
    await userEvent.type(screen.getByRole('spinbutton', { name: 'On hand now' }), '60');
    await userEvent.type(screen.getByRole('spinbutton', { name: 'Reorder point' }), '20');
    await userEvent.click(screen.getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(posts(calls, '/api/stock-items')).toHaveLength(1));
    expect(posts(calls, '/api/stock-items')[0].body).toMatchObject({ name: 'Poster paper A3', unit: 'sheets', onHand: 60, reorderPoint: 20 });
  });

  it('a name left empty is refused before anything is sent', async () => {
    const { calls } = fakeStock();
    renderInAdmin(<StockItemCreate />, { path: '/stock-items/create', routePath: '/stock-items/create' });
    await userEvent.type(await screen.findByRole('textbox', { name: /^Unit/ }), 'sheets');
    await userEvent.click(screen.getByRole('button', { name: 'Save' }));
    expect(await screen.findAllByText('Required')).not.toHaveLength(0);
    expect(posts(calls, '/api/stock-items')).toHaveLength(0);
  });

  it("changes an item's fields, never its on hand (that is Receive and Count)", async () => {
    const { calls } = fakeStock();
    renderInAdmin(<StockItemEdit />, { path: '/stock-items/2', routePath: '/stock-items/:id' });
    const point = await screen.findByRole('spinbutton', { name: 'Reorder point' });
    await waitFor(() => expect(point).toHaveValue(12));
    expect(screen.queryByRole('spinbutton', { name: 'On hand now' })).not.toBeInTheDocument();
    await userEvent.clear(point);
    await userEvent.type(point, '20');
    await userEvent.click(screen.getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(posts(calls, '/api/stock-items')).toHaveLength(1));
    const body = posts(calls, '/api/stock-items')[0].body as Record<string, unknown>;
    expect(body).toMatchObject({ id: '2', name: 'White mugs 11 oz', reorderPoint: 20, reorderQuantity: 36 });
    expect(body.onHand).toBeUndefined();
    await waitFor(() => expect(screen.queryByText(/Cannot|error/i)).not.toBeInTheDocument());
  });

  it('staff see their list with Receive and Count too', async () => {
    signIn(USER);
    const { calls } = fakeStock(USER);
    renderInAdmin(<StockItemList />, { path: '/stock-items', routePath: '/stock-items' });
    const cards = (await screen.findByText('Card blanks A5')).closest('tr')!;
    expect(within(cards).getByRole('button', { name: 'Receive' })).toBeInTheDocument();
    expect(within(cards).getByText('This site')).toBeInTheDocument();
    // Staff may not list the sites: never asked.
    expect(calls.some((c) => c.url.startsWith('/api/admin/sites'))).toBe(false);
  });
});
