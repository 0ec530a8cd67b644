import { useEffect, useState, type FormEvent } from 'react';
import { useDataProvider, useNotify } from 'react-admin';
import {
  Button,
  CircularProgress,
  Dialog,
  DialogActions,
  DialogContent,
  DialogTitle,
  MenuItem,
  TextField,
} from '@mui/material';
import type { UpsertUserInput, User } from '../../../../common/api/sites';
import { useActionKey } from '../../lib/actionKey';
import { ApiError } from '../../providers/api';
import type { AppDataProvider } from '../../providers/dataProvider';

export const CONFIRM_PASSWORD_MESSAGE = 'Confirm password not match ';

interface UserFormValues {
  firstName: string;
  lastName: string;
  email: string;
  role: 'admin' | 'user';
  password: string;
  confirmPassword: string;
}

function initialValues(user: User | null | undefined): UserFormValues {
  return {
    firstName: user?.firstName ?? '',
    lastName: user?.lastName ?? '',
    email: user?.email ?? '',
    role: user?.role === 'admin' ? 'admin' : 'user',
    password: '',
    confirmPassword: '',
  };
}

/** Spec §5: a typed password needs an identical, non-empty confirmation. */
export function passwordConfirmationMatches(password: string, confirmPassword: string): boolean {
  if (!password) return true;
  return confirmPassword !== '' && confirmPassword === password;
}

export interface UsersModalProps {
  open: boolean;
  siteId: number | string;
  /** The user being edited; null/undefined to create one. */
  user?: User | null;
  onClose: () => void;
  onSaved: (user: User) => void;
}

export function UsersModal({ open, siteId, user, onClose, onSaved }: UsersModalProps) {
  const dataProvider = useDataProvider<AppDataProvider>();
  const notify = useNotify();
  const [values, setValues] = useState<UserFormValues>(() => initialValues(user));
  const [saving, setSaving] = useState(false);
  const actionKey = useActionKey();
  /** The server's sentence per field of the last refusal, shown under each input until it is edited. */
  const [fieldErrors, setFieldErrors] = useState<Record<string, string>>({});

  useEffect(() => {
    if (open) {
      setValues(initialValues(user));
      setFieldErrors({});
    }
  }, [open, user]);

  const set = (name: keyof UserFormValues) => (event: { target: { value: string } }) => {
    setValues((current) => ({ ...current, [name]: event.target.value }));
    setFieldErrors(({ [name]: _edited, ...rest }) => rest);
  };
  const problem = (name: keyof UserFormValues, helperText?: string) => ({ error: Boolean(fieldErrors[name]), helperText: fieldErrors[name] ?? helperText });

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    if (saving) return;
    if (!passwordConfirmationMatches(values.password, values.confirmPassword)) {
      notify(CONFIRM_PASSWORD_MESSAGE, { type: 'error' });
      return;
    }
    const payload: UpsertUserInput = {
      firstName: values.firstName.trim(),
      lastName: values.lastName.trim(),
      email: values.email.trim(),
      role: values.role,
      siteId,
    };
    if (user?.id !== undefined && user?.id !== null) payload.id = user.id;
    if (values.password) payload.password = values.password;
    setSaving(true);
    try {
      const saved = await dataProvider.upsertUser(payload, actionKey.begin());
      notify(user ? 'User updated' : 'User created', { type: 'success' });
      onSaved(saved);
      onClose();
    } catch (error) {
      if (error instanceof ApiError) setFieldErrors(error.fieldErrors);
      notify(error instanceof Error ? error.message : String(error), { type: 'error' });
    } finally {
      actionKey.end();
      setSaving(false);
    }
  };

  return (
    <Dialog open={open} onClose={saving ? undefined : onClose} fullWidth maxWidth="sm" aria-labelledby="users-modal-title">
      <form onSubmit={submit} noValidate>
        <DialogTitle id="users-modal-title">{user ? 'Edit user' : 'Add user'}</DialogTitle>
        <DialogContent sx={{ display: 'grid', gridTemplateColumns: { xs: '1fr', sm: '1fr 1fr' }, columnGap: 2 }}>
          <TextField label="First name" name="firstName" value={values.firstName} onChange={set('firstName')} autoFocus {...problem('firstName')} />
          <TextField label="Last name" name="lastName" value={values.lastName} onChange={set('lastName')} {...problem('lastName')} />
          <TextField
            label="Email"
            name="email"
            type="email"
            value={values.email}
            onChange={set('email')}
            {...problem('email')}
            sx={{ gridColumn: '1 / -1' }}
          />
          <TextField select label="Role" name="role" value={values.role} onChange={set('role')} {...problem('role')} sx={{ gridColumn: '1 / -1' }}>
            <MenuItem value="admin">admin</MenuItem>
            <MenuItem value="user">user</MenuItem>
          </TextField>
          <TextField
            label="Password"
            name="password"
            type="password"
            autoComplete="new-password"
            value={values.password}
            onChange={set('password')}
            {...problem('password', user ? 'Leave empty to keep the current password' : undefined)}
          />
          <TextField
            label="Confirm password"
            name="confirmPassword"
            type="password"
            autoComplete="new-password"
            value={values.confirmPassword}
            onChange={set('confirmPassword')}
          />
        </DialogContent>
        <DialogActions sx={{ px: 3, pb: 2 }}>
          <Button onClick={onClose} disabled={saving}>
            Cancel
          </Button>
          <Button
            type="submit"
            variant="contained"
            disabled={saving}
            startIcon={saving ? <CircularProgress size={16} color="inherit" /> : undefined}
          >
            Save
          </Button>
        </DialogActions>
      </form>
    </Dialog>
  );
}

export default UsersModal;
