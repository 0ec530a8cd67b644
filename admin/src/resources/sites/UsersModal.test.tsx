import { describe, expect, it, vi } from 'vitest';
import { getDefaultNormalizer, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { User } from '../../../../common/api/sites';
import { ADMIN, jsonResponse, renderInAdmin, signIn, fakeFetch } from '../../test/helpers';
import { CONFIRM_PASSWORD_MESSAGE, passwordConfirmationMatches, UsersModal } from './UsersModal';

const EXISTING: User = {
  id: 7,
  firstName: 'Grace',
  lastName: 'Hopper',
  email: 'grace@example.com',
  role: 'user',
  siteId: 3,
  createdAt: '2025-01-01T00:00:00.000Z',
};

function renderModal(user: User | null = null) {
  const onClose = vi.fn();
  const onSaved = vi.fn();
  renderInAdmin(<UsersModal open siteId={3} user={user} onClose={onClose} onSaved={onSaved} />, { path: '/modal' });
  return { onClose, onSaved };
}

const exactText = { normalizer: getDefaultNormalizer({ trim: false }) };

describe('passwordConfirmationMatches', () => {
  it('needs an identical non-empty confirmation only when a password is typed', () => {
    expect(passwordConfirmationMatches('', '')).toBe(true);
    expect(passwordConfirmationMatches('secret', '')).toBe(false);
    expect(passwordConfirmationMatches('secret', 'secreT')).toBe(false);
    expect(passwordConfirmationMatches('secret', 'secret')).toBe(true);
  });
});

describe('UsersModal', () => {
  it.each([
    ['an empty confirmation', ''],
    ['a different confirmation', 'other-password'],
  ])('refuses %s with "Confirm password not match " and sends nothing', async (_case, confirmation) => {
    signIn(ADMIN);
    const { fetchMock } = fakeFetch(() => jsonResponse({ success: true, data: EXISTING }));
    const { onSaved } = renderModal();
    const user = userEvent.setup();
    await user.type(screen.getByLabelText('First name'), 'Grace');
    await user.type(screen.getByLabelText('Email'), 'grace@example.com');
    await user.type(screen.getByLabelText('Password'), 'secret-1');
    if (confirmation) await user.type(screen.getByLabelText('Confirm password'), confirmation);
    await user.click(screen.getByRole('button', { name: 'Save' }));

    expect(await screen.findByText(CONFIRM_PASSWORD_MESSAGE, exactText)).toBeInTheDocument();
    expect(CONFIRM_PASSWORD_MESSAGE).toBe('Confirm password not match ');
    expect(fetchMock).not.toHaveBeenCalled();
    expect(onSaved).not.toHaveBeenCalled();
  });

  it('creates a user of the site through POST /api/users/upsert', async () => {
    signIn(ADMIN, 'tok');
    const created = { ...EXISTING, id: 8 };
    const { calls } = fakeFetch(() => jsonResponse({ success: true, data: created }));
    const { onSaved, onClose } = renderModal();
    const user = userEvent.setup();
    await user.type(screen.getByLabelText('First name'), 'Grace');
    await user.type(screen.getByLabelText('Last name'), 'Hopper');
    await user.type(screen.getByLabelText('Email'), 'grace@example.com');
    await user.type(screen.getByLabelText('Password'), 'secret-1');
    await user.type(screen.getByLabelText('Confirm password'), 'secret-1');
    await user.click(screen.getByRole('button', { name: 'Save' }));

    await waitFor(() => expect(onSaved).toHaveBeenCalledWith(created));
    expect(onClose).toHaveBeenCalled();
    expect(calls).toHaveLength(1);
    expect(calls[0]).toMatchObject({ url: '/api/users/upsert', method: 'POST' });
    expect(calls[0].headers.get('Authorization')).toBe('Bearer tok');
    expect(calls[0].body).toEqual({
      firstName: 'Grace',
      lastName: 'Hopper',
      email: 'grace@example.com',
      password: 'secret-1',
      role: 'user',
      siteId: 3,
    });
  });

  it('updates an existing user without a password when none is typed', async () => {
    signIn(ADMIN);
    const { calls } = fakeFetch(() => jsonResponse({ success: true, data: EXISTING }));
    const { onSaved } = renderModal(EXISTING);
    const user = userEvent.setup();
    expect(screen.getByLabelText('First name')).toHaveValue('Grace');
    await user.clear(screen.getByLabelText('Last name'));
    await user.type(screen.getByLabelText('Last name'), 'Murray Hopper');
    await user.click(screen.getByRole('button', { name: 'Save' }));

    await waitFor(() => expect(onSaved).toHaveBeenCalled());
    expect(calls[0].body).toEqual({
      id: 7,
      firstName: 'Grace',
      lastName: 'Murray Hopper',
      email: 'grace@example.com',
      role: 'user',
      siteId: 3,
    });
  });

  it('shows the server error and stays open', async () => {
    signIn(ADMIN);
    fakeFetch(() => jsonResponse({ success: false, error: 'Email already used' }, 409));
    const { onSaved, onClose } = renderModal(EXISTING);
    await userEvent.setup().click(screen.getByRole('button', { name: 'Save' }));
    expect(await screen.findByText('Email already used')).toBeInTheDocument();
    expect(onSaved).not.toHaveBeenCalled();
    expect(onClose).not.toHaveBeenCalled();
  });

  it('a refusal about a field shows its sentence under that field, not the field key', async () => {
    signIn(ADMIN);
    const sentence = 'First name is required.';
    fakeFetch(() => jsonResponse({ success: false, error: sentence, field: 'firstName', details: [{ field: 'firstName', message: sentence }] }, 400));
    renderModal();
    const user = userEvent.setup();
    await user.type(screen.getByLabelText('Email'), 'grace@example.com');
    await user.click(screen.getByRole('button', { name: 'Save' }));

    const firstName = screen.getByLabelText('First name');
    await waitFor(() => expect(firstName).toHaveAccessibleDescription(sentence));
    expect(firstName).toHaveAttribute('aria-invalid', 'true');
    expect(screen.getByLabelText('Email')).toHaveAttribute('aria-invalid', 'false');
    expect(document.body.textContent).not.toContain('firstName');
    // Typing in the field clears its message.
    await user.type(firstName, 'G');
    expect(firstName).not.toHaveAccessibleDescription(sentence);
  });
});
