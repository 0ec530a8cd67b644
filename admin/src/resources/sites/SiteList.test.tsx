import { describe, expect, it } from 'vitest';
import { screen } from '@testing-library/react';
import { ADMIN, jsonResponse, renderInAdmin, signIn, fakeFetch, USER } from '../../test/helpers';
import { SiteList } from './SiteList';

const SITES = [
  {
    id: 1,
    name: 'Hood Charity',
    slug: 'hood',
    logo: '/files/logos/hood.png',
    theme: { mainColor: '#E91E63' },
    settings: { env: [] },
    createdAt: '2025-03-07T10:00:00.000Z',
  },
];

function renderList() {
  renderInAdmin(<SiteList />, { path: '/sites', routePath: '/sites' });
}

describe('SiteList', () => {
  it('lists sites for an admin with DD/MM/YYYY dates and an Add site button', async () => {
    signIn(ADMIN);
    const { calls } = fakeFetch((call) =>
      call.url.startsWith('/api/admin/sites')
        ? jsonResponse(SITES, 200, { 'Content-Range': 'sites 0-0/1' })
        : jsonResponse({ success: true, data: ADMIN }),
    );
    renderList();
    expect(await screen.findByText('Hood Charity')).toBeInTheDocument();
    expect(screen.getByText('hood')).toBeInTheDocument();
    expect(screen.getByText('07/03/2025')).toBeInTheDocument();
    expect(screen.getByRole('img', { name: 'Hood Charity logo' })).toHaveAttribute('src', '/files/logos/hood.png');
    expect(screen.getByRole('link', { name: /Add site/ })).toHaveAttribute('href', '/sites/new');
    const listCall = calls.find((c) => c.url.startsWith('/api/admin/sites'));
    expect(listCall?.headers.get('Authorization')).toBe('Bearer test-token');
  });

  it('says "No site found" when there is none', async () => {
    signIn(ADMIN);
    fakeFetch(() => jsonResponse([], 200, { 'Content-Range': 'sites */0' }));
    renderList();
    expect(await screen.findByText('No site found')).toBeInTheDocument();
  });

  it('shows the server error text as-is', async () => {
    signIn(ADMIN);
    fakeFetch((call) =>
      call.url.startsWith('/api/admin/sites')
        ? jsonResponse({ success: false, error: 'Database is unavailable' }, 503)
        : jsonResponse({ success: true, data: ADMIN }),
    );
    renderList();
    expect((await screen.findAllByText('Database is unavailable')).length).toBeGreaterThan(0);
  });

  it('shows access denied to a non-admin and never asks for the sites', async () => {
    signIn(USER);
    const { calls } = fakeFetch(() => jsonResponse({ success: true, data: USER }));
    renderList();
    expect(await screen.findByText('Access denied')).toBeInTheDocument();
    expect(calls.some((c) => c.url.startsWith('/api/admin/sites'))).toBe(false);
  });
});
