import { describe, expect, it, vi } from 'vitest';
import { screen } from '@testing-library/react';
import { AutocompleteInput, BooleanInput, SelectInput, SimpleForm, TextInput } from 'react-admin';
import { renderInAdmin } from '../test/helpers';

// react-admin 5.15 with MUI 9 (admin/raMuiCompat.ts): its inputs must not leave removed MUI props on the DOM.
describe('react-admin inputs on MUI 9', () => {
  it('render without unknown-prop errors or stray attributes, and keep their adornments and refs', async () => {
    const errors = vi.spyOn(console, 'error');
    const { container } = renderInAdmin(
      <SimpleForm record={{ name: 'Robin', live: true, kind: 'a', pick: 'b' }} toolbar={false}>
        <TextInput source="name" label="Name" resettable />
        <BooleanInput source="live" label="Live" />
        <SelectInput source="kind" label="Kind" choices={[{ id: 'a', name: 'A' }]} />
        <AutocompleteInput source="pick" label="Pick" choices={[{ id: 'b', name: 'B' }]} />
      </SimpleForm>,
      { path: '/form', routePath: '/form' },
    );
    expect(await screen.findByDisplayValue('Robin')).toBeInTheDocument();
    const unknownProp = errors.mock.calls.map((args) => String(args[0])).filter((m) => /does not recognize|unknown prop/i.test(m));
    expect(unknownProp).toEqual([]);
    expect(container.querySelectorAll('[inputprops], [inputref]')).toHaveLength(0);
    // The values still reach MUI: the clear button of a resettable input, the autocomplete's popup button.
    expect(screen.getByRole('button', { name: /clear/i })).toBeInTheDocument();
    expect(screen.getByRole('button', { name: /open/i })).toBeInTheDocument();
    expect(screen.getByRole('switch', { name: 'Live' })).toBeChecked();
  });
});
