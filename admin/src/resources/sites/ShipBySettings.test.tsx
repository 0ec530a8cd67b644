import { describe, expect, it } from 'vitest';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { ADMIN, renderInAdmin, signIn } from '../../test/helpers';
import { answerSite as answer, siteSaves as saves, openSection, type Env } from '../../test/siteEdit';
import { SiteEdit } from './SiteEdit';

describe('Site editor: Ship-by dates', () => {
  it('writes production days, cut-off, days off and holidays (typed DD/MM/YYYY) into the environment variables, saying what is wrong as typed', async () => {
    signIn(ADMIN);
    const { calls } = answer([
      { key: 'SHIP_BY_DAYS_POSTER', value: '5' },
      { key: 'SHIP_BY_HOLIDAYS', value: '2026-12-25' },
    ]);
    renderInAdmin(<SiteEdit />, { path: '/sites/2', routePath: '/sites/:id' });
    await screen.findByDisplayValue('Presswork Demo');
    const section = await openSection('Ship-by dates');
    const poster = within(section).getByRole('textbox', { name: 'Poster (working days)' });
    const card = within(section).getByRole('textbox', { name: 'Card (working days)' });
    const cutoff = within(section).getByRole('textbox', { name: 'Daily cut-off (HH:MM)' });
    const holidays = within(section).getByRole('textbox', { name: 'Holidays' });
    expect(poster).toHaveValue('5');
    expect(card).toHaveValue('');
    expect(card).toHaveAttribute('placeholder', '2');
    expect(holidays).toHaveValue('25/12/2026');
    // E-cards are e-mailed: no production time to set.
    expect(within(section).queryByRole('textbox', { name: /E-card/ })).not.toBeInTheDocument();
    // Saturday and Sunday are off by default.
    expect(within(section).getByRole('checkbox', { name: 'Sat' })).toBeChecked();
    expect(within(section).getByRole('checkbox', { name: 'Mon' })).not.toBeChecked();

    // The server's own sentence, as typed.
    await userEvent.type(cutoff, '2pm');
    expect(within(section).getByText('SHIP_BY_CUTOFF: "2pm" is not a time of day HH:MM (24-hour, e.g. 14:00).')).toBeInTheDocument();
    await userEvent.clear(cutoff);
    await userEvent.type(cutoff, '11:30');
    expect(within(section).queryByText(/SHIP_BY_CUTOFF/)).not.toBeInTheDocument();
    await userEvent.type(card, '3');

    await userEvent.click(within(section).getByRole('checkbox', { name: 'Sat' }));
    await userEvent.type(holidays, ', 31/02/2026');
    expect(within(section).getByText('31/02/2026 is not a date ("31/02/2026")')).toBeInTheDocument();
    await userEvent.clear(holidays);
    await userEvent.type(holidays, '25/12/2026, 28/12/2026');
    expect(within(section).queryByText(/is not a date/)).not.toBeInTheDocument();

    await userEvent.click(screen.getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(saves(calls)).toHaveLength(1));
    const env = (saves(calls)[0].body as { settings: { env: Env } }).settings.env;
    expect(Object.fromEntries(env.map((v) => [v.key, v.value]))).toEqual({
      SHIP_BY_DAYS_POSTER: '5',
      SHIP_BY_HOLIDAYS: '2026-12-25,2026-12-28',
      SHIP_BY_CUTOFF: '11:30',
      SHIP_BY_DAYS_CARD: '3',
      SHIP_BY_NON_WORKING_DAYS: 'Sun',
    });
  });
});
