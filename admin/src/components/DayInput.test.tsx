import { useState } from 'react';
import { describe, expect, it } from 'vitest';
import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { DayInput } from './DayInput';

function Harness({ initial = '' }: { initial?: string }) {
  const [day, setDay] = useState<string | null>(initial);
  return (
    <>
      <DayInput label="Day" value={day ?? ''} onChange={setDay} />
      <output data-testid="day">{day === null ? 'unreadable' : day}</output>
      <button type="button" onClick={() => setDay('2025-12-24')}>
        Reset
      </button>
    </>
  );
}

describe('DayInput', () => {
  it('shows and takes DD/MM/YYYY, whatever the browser locale, and hands YYYY-MM-DD on', async () => {
    const user = userEvent.setup();
    render(<Harness initial="2025-06-09" />);
    const field = screen.getByRole('textbox', { name: 'Day' });
    expect(field).toHaveValue('09/06/2025');
    expect(field).toHaveAttribute('placeholder', 'DD/MM/YYYY');
    expect(field).not.toHaveAttribute('type', 'date');
    await user.clear(field);
    expect(screen.getByTestId('day')).toHaveTextContent(/^$/);
    await user.type(field, '21/11/2026');
    expect(screen.getByTestId('day')).toHaveTextContent('2026-11-21');
    expect(field).toHaveAttribute('aria-invalid', 'false');
  });

  it('says an impossible date is not one, once typed in full, and hands nothing on', async () => {
    const user = userEvent.setup();
    render(<Harness />);
    const field = screen.getByRole('textbox', { name: 'Day' });
    await user.type(field, '31/02');
    // Not yet: the user is still typing.
    expect(screen.queryByText(/is not a date|Type the date/)).not.toBeInTheDocument();
    await user.type(field, '/2026');
    expect(screen.getByText('31/02/2026 is not a date')).toBeInTheDocument();
    expect(field).toHaveAttribute('aria-invalid', 'true');
    expect(screen.getByTestId('day')).toHaveTextContent('unreadable');
  });

  it('says so on leaving a field that is not a date, and follows a value set by its screen', async () => {
    const user = userEvent.setup();
    render(<Harness />);
    const field = screen.getByRole('textbox', { name: 'Day' });
    await user.type(field, '6/9');
    await user.tab();
    expect(screen.getByText('Type the date as DD/MM/YYYY')).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Reset' }));
    expect(field).toHaveValue('24/12/2025');
    expect(screen.queryByText('Type the date as DD/MM/YYYY')).not.toBeInTheDocument();
  });
});
