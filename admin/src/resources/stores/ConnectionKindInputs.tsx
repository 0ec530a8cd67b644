import { RadioButtonGroupInput, TextInput } from 'react-admin';
import { useWatch } from 'react-hook-form';
import { Typography } from '@mui/material';
import type { StoreAuth } from '../../../../common/api/orders';
import { AUTH_CHOICES, SECRET_MASK, isAppAuth } from './types';

const secretHelp = `${SECRET_MASK} keeps the current secret; clear the field to remove it`;

/** How the store is connected, and the credentials that kind needs. */
export function ConnectionKindInputs() {
  const auth = (useWatch({ name: 'auth' }) as StoreAuth | undefined) ?? 'static_token';
  const choice = AUTH_CHOICES.find((c) => c.id === auth);
  return (
    <>
      <RadioButtonGroupInput source="auth" label="How is this store connected?" choices={AUTH_CHOICES} row={false} helperText={false} />
      {choice && (
        <Typography variant="body2" color="text.secondary" sx={{ mb: 1 }}>
          {choice.help}
        </Typography>
      )}
      {isAppAuth(auth) ? (
        <>
          <TextInput source="clientId" label="Client ID" helperText="The app’s Settings page in the Dev Dashboard" fullWidth />
          <TextInput
            source="clientSecret"
            label="Client secret"
            type="password"
            autoComplete="new-password"
            helperText={`It also signs the app’s webhooks. After Rotate secret, paste the new one: the old one is still accepted for an hour. ${secretHelp}`}
            fullWidth
          />
        </>
      ) : (
        <TextInput source="adminToken" label="Admin API access token" type="password" autoComplete="new-password" helperText={`The custom app's token (shpat_…). ${secretHelp}`} fullWidth />
      )}
    </>
  );
}
