import { describe, expect, it, vi } from 'vitest';
import { act, render, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { createMemoryRouter, Route, RouterProvider, Routes } from 'react-router-dom';
import { AdminContext, defaultI18nProvider } from 'react-admin';
import { authProvider } from '../../providers/authProvider';
import { dataProvider } from '../../providers/dataProvider';
import { ADMIN, jsonResponse, renderInAdmin, signIn, fakeFetch } from '../../test/helpers';
import { SiteEdit } from './SiteEdit';

const site = (env: Array<{ key: string; value: string }>) => ({ id: 2, name: 'Hope Harbour Charity', slug: 'hope-harbour', logo: null, theme: { mainColor: '#1e88e5' }, settings: { env }, createdAt: '2025-03-07T10:00:00.000Z' });
const SYNC_ENV = [
  { key: 'RE_BASE_URL', value: 'https://api.sky.blackbaud.com' },
  { key: 'ADESTRA_BASE_URL', value: 'https://app.adestra.com/api/rest/1' },
  { key: 'RE_REFRESH_TOKEN', value: '********' },
];

function answer(record: ReturnType<typeof site>) {
  return fakeFetch((call) => {
    if (call.url.startsWith('/api/admin/sites/2')) return jsonResponse(record);
    if (call.url.startsWith('/api/sites/hope-harbour/raiser-edge/status')) return jsonResponse({ success: true, data: { connected: false, needsReconnect: true, reason: 'the CRM refused the refresh token (400 invalid_grant)', connectedAt: null, environmentName: null } });
    if (call.url.startsWith('/api/admin/users')) return jsonResponse([], 200, { 'Content-Range': 'users 0-0/0' });
    return jsonResponse({ success: true, data: ADMIN });
  });
}

describe('SiteEdit: the site\'s Raiser\'s Edge connection', () => {
  it('a site with the sync settings shows its connection and a Reconnect button', async () => {
    signIn(ADMIN);
    answer(site(SYNC_ENV));
    renderInAdmin(<SiteEdit />, { path: '/sites/2', routePath: '/sites/:id' });
    expect(await screen.findByText('Needs reconnecting')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Reconnect' })).toBeInTheDocument();
  });

  it('a site without them shows none', async () => {
    signIn(ADMIN);
    const { calls } = answer(site([]));
    renderInAdmin(<SiteEdit />, { path: '/sites/2', routePath: '/sites/:id' });
    expect(await screen.findByDisplayValue('Hope Harbour Charity')).toBeInTheDocument();
    expect(screen.queryByText("Raiser's Edge connection")).not.toBeInTheDocument();
    expect(calls.some((c) => c.url.includes('/raiser-edge/'))).toBe(false);
  });
});

describe('SiteEdit: typed edits are not dropped unasked', () => {
  it('Back with a changed field asks first; No keeps the form and its edit, Yes leaves', async () => {
    signIn(ADMIN);
    answer(site([]));
    // The app's router is a data router (App.tsx), which lets the form block a navigation.
    const router = createMemoryRouter(
      [
        {
          path: '*',
          element: (
            <AdminContext authProvider={authProvider} dataProvider={dataProvider} i18nProvider={defaultI18nProvider}>
              <Routes>
                <Route path="/sites/:id" element={<SiteEdit />} />
                <Route path="/sites" element={<p>Sites list</p>} />
              </Routes>
            </AdminContext>
          ),
        },
      ],
      { initialEntries: ['/sites', '/sites/2'], initialIndex: 1 },
    );
    render(<RouterProvider router={router} />);
    const name = await screen.findByDisplayValue('Hope Harbour Charity');
    await userEvent.type(name, ' North');
    const confirm = vi.spyOn(window, 'confirm').mockReturnValueOnce(false);
    await act(() => router.navigate(-1));
    await waitFor(() => expect(confirm).toHaveBeenCalledTimes(1));
    expect(confirm.mock.calls[0][0]).toMatch(/changes weren't saved/);
    expect(screen.getByDisplayValue('Hope Harbour Charity North')).toBeInTheDocument();
    expect(router.state.location.pathname).toBe('/sites/2');

    confirm.mockReturnValueOnce(true);
    await act(() => router.navigate(-1));
    expect(await screen.findByText('Sites list')).toBeInTheDocument();
    confirm.mockRestore();
  });
});
