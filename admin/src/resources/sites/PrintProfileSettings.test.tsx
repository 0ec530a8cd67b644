import { describe, expect, it } from 'vitest';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { PrintProfile } from '../../../../common/api/printProfiles';
import { ADMIN, jsonResponse, renderInAdmin, signIn, fakeFetch } from '../../test/helpers';
import { demoSite, siteSaves as saves, openSection, type Env } from '../../test/siteEdit';
import { SiteEdit } from './SiteEdit';

const profile = (id: number, name: string, siteId: number | null): PrintProfile => ({ id, name, colorSpace: 'CMYK', deviceClass: 'prtr', version: 2, siteId, size: 1000, createdAt: '2026-11-20T10:00:00Z' });
const PROFILES = [profile(1, 'Coated FOGRA39', null), profile(2, 'Press of site 2', 2), profile(3, 'Another site\'s press', 5)];

describe('Site editor: Print files', () => {
  it('offers the site\'s own profiles and those for every site, by name; the choice writes PRINT_OUTPUT_PROFILE with its number', async () => {
    signIn(ADMIN);
    const { calls } = fakeFetch((call) => {
      if (call.method === 'PUT' && call.url === '/api/admin/sites/2') return jsonResponse(call.body);
      if (call.url.startsWith('/api/admin/sites/2')) return jsonResponse(demoSite([]));
      if (call.url.startsWith('/api/admin/users')) return jsonResponse([], 200, { 'Content-Range': 'users 0-0/0' });
      if (call.url.startsWith('/api/print-profiles')) return jsonResponse({ success: true, data: PROFILES });
      return jsonResponse({ success: true, data: ADMIN });
    });
    renderInAdmin(<SiteEdit />, { path: '/sites/2', routePath: '/sites/:id' });
    await screen.findByDisplayValue('Presswork Demo');
    const section = await openSection('Print files');
    await userEvent.click(within(section).getByRole('combobox', { name: "Printer's colour profile" }));
    const options = (await screen.findAllByRole('option')).map((o) => o.textContent);
    expect(options).toEqual(['Default', 'Coated FOGRA39 (1, every site)', 'Press of site 2 (2)']);
    await userEvent.click(screen.getByRole('option', { name: 'Press of site 2 (2)' }));
    await userEvent.click(screen.getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(saves(calls)).toHaveLength(1));
    expect((saves(calls)[0].body as { settings: { env: Env } }).settings.env).toEqual([{ key: 'PRINT_OUTPUT_PROFILE', value: '2' }]);
  });
});
