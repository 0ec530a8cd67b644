import { describe, expect, it } from 'vitest';
import { fireEvent, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { ADMIN, jsonResponse, renderInAdmin, signIn, fakeFetch } from '../../test/helpers';
import { RecordEdit } from './RecordEdit';

const screens = { resource: 'resellers', title: 'Resellers', one: 'reseller' };
const dataInput = () => screen.getByLabelText('Data');

describe('RecordEdit: the reseller form reads plainly', () => {
  it('Data that is not a JSON object says so next to the field, without react-admin\'s wrapper', async () => {
    signIn(ADMIN);
    const { calls } = fakeFetch(() => jsonResponse({ success: true, data: ADMIN }));
    renderInAdmin(<RecordEdit {...screens} />, { path: '/resellers/create', routePath: '/resellers/create' });
    const user = userEvent.setup();
    await user.type(await screen.findByLabelText(/^Name/), 'Northern Prints');
    fireEvent.change(dataInput(), { target: { value: '{"key": ' } });
    await user.click(screen.getByRole('button', { name: 'Save' }));

    const message = await screen.findByText('Must be a JSON object, e.g. {"key": "value"}');
    expect(dataInput().closest('.MuiFormControl-root')).toContainElement(message);
    expect(document.body.textContent).not.toContain('@@react-admin@@');
    expect(calls.filter((c) => c.method === 'POST')).toHaveLength(0);
  });

  it('a server refusal about a field shows its sentence next to that field and in the notification', async () => {
    signIn(ADMIN);
    const sentence = 'Code must be at most 255 characters.';
    fakeFetch((call) =>
      call.method === 'POST' && call.url.startsWith('/api/admin/resellers')
        ? jsonResponse({ success: false, error: sentence, field: 'field1', details: [{ field: 'field1', message: sentence }] }, 400)
        : jsonResponse({ success: true, data: ADMIN }),
    );
    renderInAdmin(<RecordEdit {...screens} />, { path: '/resellers/create', routePath: '/resellers/create' });
    const user = userEvent.setup();
    await user.type(await screen.findByLabelText(/^Name/), 'Northern Prints');
    await user.type(screen.getByLabelText('Code'), 'x');
    await user.click(screen.getByRole('button', { name: 'Save' }));

    await waitFor(() => expect(screen.getAllByText(sentence)).toHaveLength(2));
    const code = screen.getByLabelText('Code').closest('.MuiFormControl-root') as HTMLElement;
    expect(code).toHaveTextContent(sentence);
    expect(screen.getByRole('alert')).toHaveTextContent(sentence);
    expect(document.body.textContent).not.toMatch(/field1|@@react-admin@@/);
  });
});
