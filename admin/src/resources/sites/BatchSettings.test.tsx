import { describe, expect, it } from 'vitest';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { ADMIN, renderInAdmin, signIn, type RecordedCall } from '../../test/helpers';
import { answerSite as answer, siteSaves as saves, openSection, type Env } from '../../test/siteEdit';
import { SiteEdit } from './SiteEdit';

const savedEnv = (calls: RecordedCall[]) => (saves(calls)[0].body as { settings: { env: Env } }).settings.env;

describe('Site editor: Press sheets and batching', () => {
  it('shows the standard sheets; editing the list, the gap, duplex and the rule writes the settings; a bad cut-off is said as typed', async () => {
    signIn(ADMIN);
    const { calls } = answer([]);
    renderInAdmin(<SiteEdit />, { path: '/sites/2', routePath: '/sites/:id' });
    await screen.findByDisplayValue('Presswork Demo');
    const section = await openSection('Press sheets and batching');
    const sheets = within(section).getByRole('list', { name: 'Press sheets' });
    // The standard sheets while the site has none of its own.
    expect(within(sheets).getAllByRole('textbox', { name: 'Sheet' }).map((i) => (i as HTMLInputElement).value)).toEqual(['SRA3', 'SRA4', 'A4', 'A3']);
    // Duplex explained in words, side to side by default.
    expect(within(section).getByRole('radio', { name: 'Turned side to side (sheetwise / work-and-turn)' })).toBeChecked();
    expect(within(section).getByRole('switch', { name: 'Batch jobs automatically' })).not.toBeChecked();
    expect(within(section).getByRole('textbox', { name: 'Daily cut-off' })).toBeDisabled();

    // Only A4: remove the other three.
    for (const name of ['SRA3', 'SRA4', 'A3']) await userEvent.click(within(sheets).getByRole('button', { name: `Remove sheet ${name}` }));
    expect(within(sheets).getAllByRole('textbox', { name: 'Sheet' })).toHaveLength(1);
    await userEvent.type(within(section).getByRole('textbox', { name: 'Gap between items (mm)' }), '4');
    await userEvent.click(within(section).getByRole('radio', { name: 'Turned head to foot (work-and-tumble)' }));
    await userEvent.click(within(section).getByRole('switch', { name: 'Batch jobs automatically' }));
    const cutOff = within(section).getByRole('textbox', { name: 'Daily cut-off' });
    await userEvent.type(cutOff, '3pm');
    expect(within(section).getByRole('alert')).toHaveTextContent('BATCH_CUT_OFF: "3pm" is not a time of day like 15:30 (24-hour clock).');
    await userEvent.clear(cutOff);
    await userEvent.type(cutOff, '15:30');
    expect(within(section).queryByRole('alert')).not.toBeInTheDocument();
    await userEvent.type(within(section).getByRole('textbox', { name: 'Sheets per batch' }), '20');

    await userEvent.click(screen.getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(saves(calls)).toHaveLength(1));
    expect(savedEnv(calls)).toEqual([
      { key: 'PRESS_SHEETS', value: 'A4 210x297 margin 5' },
      { key: 'PRESS_SHEET_GAP_MM', value: '4' },
      { key: 'PRESS_SHEET_DUPLEX', value: 'tumble' },
      { key: 'BATCH_AUTOMATICALLY', value: '1' },
      { key: 'BATCH_CUT_OFF', value: '15:30' },
      { key: 'BATCH_SHEETS_PER_BATCH', value: '20' },
    ]);
  });

  it("reads the site's own sheets; a sheet typed wrongly is said at once; back to the standard sheets removes the setting", async () => {
    signIn(ADMIN);
    const { calls } = answer([{ key: 'PRESS_SHEETS', value: 'A4 210x297 margin 5; Long 330x660 margin 0' }]);
    renderInAdmin(<SiteEdit />, { path: '/sites/2', routePath: '/sites/:id' });
    await screen.findByDisplayValue('Presswork Demo');
    const section = await openSection('Press sheets and batching');
    const sheets = within(section).getByRole('list', { name: 'Press sheets' });
    expect(within(sheets).getAllByRole('textbox', { name: 'Sheet' }).map((i) => (i as HTMLInputElement).value)).toEqual(['A4', 'Long']);
    const height = within(sheets).getAllByRole('textbox', { name: 'Height' })[1];
    await userEvent.clear(height);
    await userEvent.type(height, '20');
    expect(within(section).getByRole('alert')).toHaveTextContent('PRESS_SHEETS: Press sheet "Long" must be between 50 and 2000 mm each way.');
    await userEvent.click(within(section).getByRole('button', { name: 'Back to the standard sheets' }));
    expect(within(section).queryByRole('alert')).not.toBeInTheDocument();
    expect(within(sheets).getAllByRole('textbox', { name: 'Sheet' })).toHaveLength(4);
    await userEvent.click(screen.getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(saves(calls)).toHaveLength(1));
    expect(savedEnv(calls)).toEqual([]);
  });

  it('edits the mug transfer sheets, their mirroring, the poster sheets and the poster roll; a bad roll width or mug sheet is said as typed', async () => {
    signIn(ADMIN);
    const { calls } = answer([{ key: 'POSTER_SHEETS', value: 'SRA3 320x450 margin 0; SRA2 450x640 margin 0; B1 707x1000 margin 0' }]);
    renderInAdmin(<SiteEdit />, { path: '/sites/2', routePath: '/sites/:id' });
    await screen.findByDisplayValue('Presswork Demo');
    const section = await openSection('Press sheets and batching');
    const mugs = within(section).getByRole('list', { name: 'Mug transfer sheets' });
    const posters = within(section).getByRole('list', { name: 'Poster sheets' });
    // The standard mug sheets; the site's own poster sheets.
    expect(within(mugs).getAllByRole('textbox', { name: 'Sheet' }).map((i) => (i as HTMLInputElement).value)).toEqual(['Sublimation A3+', 'Sublimation A4']);
    expect(within(posters).getAllByRole('textbox', { name: 'Sheet' }).map((i) => (i as HTMLInputElement).value)).toEqual(['SRA3', 'SRA2', 'B1']);
    const mirror = within(section).getByRole('switch', { name: 'Mirror mug transfers' });
    expect(mirror).not.toBeChecked();

    // Mugs on the A4 transfer sheet only; a width typed too small is said at once.
    await userEvent.click(within(mugs).getByRole('button', { name: 'Remove sheet Sublimation A3+' }));
    const width = within(mugs).getByRole('textbox', { name: 'Width' });
    await userEvent.clear(width);
    await userEvent.type(width, '20');
    expect(within(section).getByRole('alert')).toHaveTextContent('MUG_SHEETS: Press sheet "Sublimation A4" must be between 50 and 2000 mm each way.');
    await userEvent.clear(width);
    await userEvent.type(width, '210');
    expect(within(section).queryByRole('alert')).not.toBeInTheDocument();
    await userEvent.click(mirror);
    expect(mirror).toBeChecked();

    // Posters: B1 removed; a roll, typed wrongly first.
    await userEvent.click(within(posters).getByRole('button', { name: 'Remove sheet B1' }));
    const roll = within(section).getByRole('textbox', { name: 'Poster roll width (mm)' });
    await userEvent.type(roll, 'wide');
    expect(within(section).getByRole('alert')).toHaveTextContent('POSTER_ROLL_WIDTH_MM: "wide" must be a roll width in millimetres');
    await userEvent.clear(roll);
    await userEvent.type(roll, '914');
    expect(within(section).queryByRole('alert')).not.toBeInTheDocument();

    await userEvent.click(screen.getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(saves(calls)).toHaveLength(1));
    // Poster sheets back on the standard two: no setting.
    expect(savedEnv(calls)).toEqual([
      { key: 'MUG_SHEETS', value: 'Sublimation A4 210x297 margin 5' },
      { key: 'MUG_SHEET_MIRROR', value: '1' },
      { key: 'POSTER_ROLL_WIDTH_MM', value: '914' },
    ]);
  });
});
