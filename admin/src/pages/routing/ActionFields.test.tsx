import { describe, expect, it, vi } from 'vitest';
import { fireEvent, render, screen, within } from '@testing-library/react';
import type { RoutingThen } from '../../../../common/api/routing';
import { ActionFields } from './ActionFields';
import { cleanThen } from './routingForm';

function renderAction(then: RoutingThen) {
  const onChange = vi.fn<(then: RoutingThen) => void>();
  render(<ActionFields then={then} onChange={onChange} errors={{ 'rules.0.then.ifOutOfStock': 'is only for Make in house' }} at="rules.0.then" />);
  return onChange;
}

/** Opens a select by its label and picks an option. */
function pick(label: string, option: string) {
  fireEvent.mouseDown(screen.getByRole('combobox', { name: label }));
  fireEvent.click(within(screen.getByRole('listbox')).getByRole('option', { name: option }));
}

describe('a rule\'s action: If out of stock', () => {
  it('Make in house offers it: in house all the same (the default), HP Site Flow or hold', () => {
    const onChange = renderAction({ action: 'inHouse' });
    expect(screen.getByRole('combobox', { name: 'If out of stock' })).toHaveTextContent('Make in house all the same');
    pick('If out of stock', 'Send to HP Site Flow');
    expect(onChange).toHaveBeenLastCalledWith({ action: 'inHouse', ifOutOfStock: { action: 'provider' } });
    pick('If out of stock', 'Hold for review');
    expect(onChange).toHaveBeenLastCalledWith({ action: 'inHouse', ifOutOfStock: { action: 'hold' } });
  });

  it('sending to HP Site Flow when out of stock may name the destination; the server\'s sentence shows on the field', () => {
    const onChange = renderAction({ action: 'inHouse', ifOutOfStock: { action: 'provider' } });
    fireEvent.change(screen.getByRole('textbox', { name: 'Out-of-stock destination' }), { target: { value: 'hp-us' } });
    expect(onChange).toHaveBeenLastCalledWith({ action: 'inHouse', ifOutOfStock: { action: 'provider', destination: 'hp-us' } });
    expect(screen.getByText('is only for Make in house')).toBeInTheDocument();
  });

  it('other actions do not offer it, and the saved action drops it when the action changes', () => {
    renderAction({ action: 'provider' });
    expect(screen.queryByRole('combobox', { name: 'If out of stock' })).toBeNull();
    expect(cleanThen({ action: 'inHouse', ifOutOfStock: { action: 'provider', destination: 'hp-us' } })).toEqual({ action: 'inHouse', ifOutOfStock: { action: 'provider', destination: 'hp-us' } });
    expect(cleanThen({ action: 'provider', ifOutOfStock: { action: 'hold' } })).toEqual({ action: 'provider' });
  });
});
