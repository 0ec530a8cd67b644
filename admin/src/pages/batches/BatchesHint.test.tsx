// A newcomer on an empty Batches screen is told where batches come from: Jobs.
import { describe, expect, it } from 'vitest';
import { screen } from '@testing-library/react';
import { renderInAdmin, signIn, fakeFetch, USER } from '../../test/helpers';
import { ok, router } from '../../test/printProduction';
import { BatchesPage } from './BatchesPage';

describe('Batches with none yet', () => {
  it('says batches are made from Jobs, with a link there', async () => {
    signIn(USER);
    fakeFetch(router({ 'GET /api/batches': () => ok({ list: [], hasNext: false, total: 0 }) }, USER));
    renderInAdmin(<BatchesPage />, { path: '/batches', routePath: '/batches' });
    const none = await screen.findByText('No open batches');
    expect(none.parentElement).toHaveTextContent('No open batches. Batches are made from Jobs: tick jobs of one kind there, then Create batch.');
    expect(screen.getByRole('link', { name: 'Jobs' })).toHaveAttribute('href', '/print-jobs');
  });
});
