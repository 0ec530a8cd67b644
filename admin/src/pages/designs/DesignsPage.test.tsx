import { afterEach, describe, expect, it } from 'vitest';
import { act, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { ADMIN, renderInAdmin, signIn, fakeFetch } from '../../test/helpers';
import { design, fail, ok, router } from '../../test/printProduction';
import { designGridColumns, DesignsPage } from './DesignsPage';

function setWindowWidth(width: number) {
  Object.defineProperty(window, 'innerWidth', { value: width, configurable: true, writable: true });
  window.dispatchEvent(new Event('resize'));
}

afterEach(() => setWindowWidth(1024));

function renderDesigns() {
  renderInAdmin(<DesignsPage />, { path: '/designs', routePath: '/designs' });
}

describe('designGridColumns', () => {
  it('is four columns wide and two on small screens', () => {
    expect(designGridColumns(1440)).toBe(4);
    expect(designGridColumns(900)).toBe(4);
    expect(designGridColumns(899)).toBe(2);
    expect(designGridColumns(375)).toBe(2);
  });
});

describe('Product Designs (/designs)', () => {
  it('shows cards (image, name, SKU) in four columns, two when the window narrows, and a Create button', async () => {
    signIn(ADMIN);
    setWindowWidth(1280);
    const { calls } = fakeFetch(
      router(
        {
          'GET /api/designs': () =>
            ok({ list: [design(), design({ id: 6, name: 'Snow mug', sku: null, image: null })], hasNext: false, total: 2 }),
        },
        ADMIN,
      ),
    );
    renderDesigns();
    const cards = await screen.findAllByTestId('design-card');
    expect(calls.find((c) => c.url.startsWith('/api/designs'))?.url).toBe('/api/designs?page=1');
    expect(within(cards[0]).getByRole('img', { name: 'Robin card' })).toHaveAttribute('src', '/files/designs/robin.png');
    expect(within(cards[0]).getByText('SKU: CARD-ROBIN')).toBeInTheDocument();
    expect(within(cards[0]).getByRole('link')).toHaveAttribute('href', '/design/5');
    expect(within(cards[1]).getByText('Snow mug')).toBeInTheDocument();
    expect(screen.getByRole('link', { name: /Create/ })).toHaveAttribute('href', '/design/new');

    const grid = screen.getByTestId('designs-grid');
    expect(grid).toHaveAttribute('data-columns', '4');
    expect(grid).toHaveStyle({ gridTemplateColumns: 'repeat(4, minmax(0, 1fr))' });
    act(() => setWindowWidth(600));
    expect(grid).toHaveAttribute('data-columns', '2');
    expect(grid).toHaveStyle({ gridTemplateColumns: 'repeat(2, minmax(0, 1fr))' });
    expect(document.title).toBe('Product Designs | Presswork');
  });

  it('loads more designs while the server has more', async () => {
    signIn(ADMIN);
    const user = userEvent.setup();
    fakeFetch(
      router(
        {
          'GET /api/designs?page=1': () => ok({ list: [design()], hasNext: true, total: 2 }),
          'GET /api/designs?page=2': () => ok({ list: [design({ id: 6, name: 'Snow mug' })], hasNext: false, total: 2 }),
        },
        ADMIN,
      ),
    );
    renderDesigns();
    await screen.findByText('Robin card');
    await user.click(screen.getByRole('button', { name: 'Load more' }));
    expect(await screen.findByText('Snow mug')).toBeInTheDocument();
    expect(screen.getAllByTestId('design-card')).toHaveLength(2);
    expect(screen.queryByRole('button', { name: 'Load more' })).not.toBeInTheDocument();
  });

  it('shows the server error in red', async () => {
    signIn(ADMIN);
    fakeFetch(router({ 'GET /api/designs': () => fail('Database is unavailable', 503) }, ADMIN));
    renderDesigns();
    expect(await screen.findByRole('alert')).toHaveTextContent('Database is unavailable');
  });
});
