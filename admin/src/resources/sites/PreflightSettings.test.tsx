import { describe, expect, it } from 'vitest';
import { configure, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { ADMIN, jsonResponse, renderInAdmin, signIn, stubFetch, type RecordedCall } from '../../test/helpers';
import { SiteEdit } from './SiteEdit';

type Env = Array<{ key: string; value: string }>;
const site = (env: Env) => ({ id: 2, name: 'Presswork Demo', slug: 'demo', logo: null, theme: { mainColor: '#e91e63' }, settings: { env }, createdAt: '2025-03-07T10:00:00.000Z' });

function answer(env: Env) {
  return stubFetch((call) => {
    if (call.method === 'PUT' && call.url === '/api/admin/sites/2') return jsonResponse(call.body);
    if (call.url.startsWith('/api/admin/sites/2')) return jsonResponse(site(env));
    if (call.url.startsWith('/api/admin/users')) return jsonResponse([], 200, { 'Content-Range': 'users 0-0/0' });
    return jsonResponse({ success: true, data: ADMIN });
  });
}

const saves = (calls: RecordedCall[]) => calls.filter((c) => c.method === 'PUT' && c.url === '/api/admin/sites/2');

configure({ asyncUtilTimeout: 5000 });

describe('Site editor: Print checks', { timeout: 40_000 }, () => {
  it('writes the two thresholds into the environment variables, says what is wrong as typed, and empties remove them', async () => {
    signIn(ADMIN);
    const { calls } = answer([{ key: 'PREFLIGHT_MIN_PPI_ERROR', value: '120' }]);
    renderInAdmin(<SiteEdit />, { path: '/sites/2', routePath: '/sites/:id' });
    await screen.findByDisplayValue('Presswork Demo');
    const section = screen.getByRole('region', { name: 'Print checks' });
    const warn = within(section).getByRole('textbox', { name: 'Warn below (ppi)' });
    const hold = within(section).getByRole('textbox', { name: 'Hold below (ppi)' });
    expect(hold).toHaveValue('120');
    expect(warn).toHaveValue('');
    expect(warn).toHaveAttribute('placeholder', '250');

    // Hold above warn: the server's own sentence, before Save.
    await userEvent.type(warn, '100');
    expect(within(section).getByRole('alert')).toHaveTextContent('PREFLIGHT_MIN_PPI_ERROR (120) must not be above PREFLIGHT_MIN_PPI_WARNING (100)');
    await userEvent.clear(warn);
    await userEvent.type(warn, '300');
    expect(within(section).queryByRole('alert')).not.toBeInTheDocument();
    // The generic list shows the same variable (one store of the values).
    expect(screen.getByDisplayValue('PREFLIGHT_MIN_PPI_WARNING')).toBeInTheDocument();

    await userEvent.clear(hold);
    await userEvent.click(screen.getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(saves(calls)).toHaveLength(1));
    expect((saves(calls)[0].body as { settings: { env: Env } }).settings.env).toEqual([{ key: 'PREFLIGHT_MIN_PPI_WARNING', value: '300' }]);
  });
});
