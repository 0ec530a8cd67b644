import { describe, expect, it } from 'vitest';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { ADMIN, renderInAdmin, signIn } from '../../test/helpers';
import { answerSite as answer, siteSaves as saves, openSection, type Env } from '../../test/siteEdit';
import { SiteEdit } from './SiteEdit';

describe('Site editor: Print checks', () => {
  it('writes the two thresholds into the environment variables, says what is wrong as typed, and empties remove them', async () => {
    signIn(ADMIN);
    const { calls } = answer([{ key: 'PREFLIGHT_MIN_PPI_ERROR', value: '120' }]);
    renderInAdmin(<SiteEdit />, { path: '/sites/2', routePath: '/sites/:id' });
    await screen.findByDisplayValue('Presswork Demo');
    const section = await openSection('Print checks');
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
