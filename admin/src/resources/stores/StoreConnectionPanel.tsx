import { useState } from 'react';
import { useDataProvider, useRecordContext } from 'react-admin';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { Alert, Box, Button, CircularProgress, Stack, Table, TableBody, TableCell, TableHead, TableRow, Typography } from '@mui/material';
import { missingScopeSentence, type Store, type StoreConnection, type StoreWebhookSubscription } from '../../../../common/api/orders';
import { errorMessage, formatDateTime } from '../../lib/format';
import type { AppDataProvider } from '../../providers/dataProvider';
import { disconnectedText, isAppAuth } from './types';
import { RedirectOutcome } from '../../components/RedirectOutcome';

const ACTION_TEXT: Record<StoreWebhookSubscription['action'], string> = {
  kept: 'Already in place',
  created: 'Created',
  updated: 'Moved to this address',
  elsewhere: 'Points elsewhere (left alone)',
};

/** What Shopify's redirect back from Install on Shopify ended in (?shopify=connected|refused&message=…), until dismissed. */
export const InstallOutcome = () => <RedirectOutcome outcomeParam="shopify" messageParam="message" okValue="connected" sx={{ mb: 1 }} />;

/** The connection as it stands: connected (and to what), not yet, or needs reconnecting with Shopify's reason. */
function ConnectionState({ store, state }: { store: Store; state: StoreConnection | undefined }) {
  const disconnected = disconnectedText(store, formatDateTime);
  if (disconnected && !isAppAuth(store.auth))
    return (
      <Alert severity="warning" sx={{ mb: 1 }}>
        {disconnected}. Reinstall the app in Shopify and paste its new access token.
      </Alert>
    );
  if (!state) return null;
  if (state.needsReconnect)
    return (
      <Alert severity="error" sx={{ mb: 1 }}>
        <strong>Needs reconnecting.</strong> {state.reason} Nothing is asked of the store until it is reconnected{store.auth === 'authorization_code' ? ' (Install on Shopify)' : ' (Connect)'}.
      </Alert>
    );
  return (
    <>
      {state.connected && state.shopName && (
        <Alert severity="success" sx={{ mb: 1 }}>
          Connected to {state.shopName}
          {isAppAuth(state.auth) && state.expiresAt ? `: the token renews itself (this one lasts until ${formatDateTime(state.expiresAt)}).` : '.'}
          {state.scopes.length ? ` Scopes: ${state.scopes.join(', ')}.` : ''}
        </Alert>
      )}
      {!state.connected && isAppAuth(state.auth) && (
        <Alert severity="info" sx={{ mb: 1 }}>
          {state.auth === 'authorization_code' ? 'Not installed yet: save the Client ID and secret, then Install on Shopify.' : 'Not connected yet: save the Client ID and secret, then Connect.'}
        </Alert>
      )}
      {state.missingScopes.map((scope) => {
        const sentence = missingScopeSentence(scope);
        return (
          <Alert key={scope} severity="warning" sx={{ mb: 1 }}>
            {sentence.charAt(0).toUpperCase() + sentence.slice(1)}: add it to the app’s version in the Dev Dashboard, release it, then Connect again.
          </Alert>
        );
      })}
    </>
  );
}

/** Connect / Install on Shopify / Check connection and Register webhooks: they use the saved settings, so save first. */
export function StoreConnectionPanel() {
  const store = useRecordContext<Store>();
  const dataProvider = useDataProvider<AppDataProvider>();
  const queryClient = useQueryClient();
  const [subscriptions, setSubscriptions] = useState<StoreWebhookSubscription[]>();
  const site = store?.siteSlug ?? '';
  const state = useQuery({ queryKey: ['store-connection', site], queryFn: () => dataProvider.getStoreConnection(site), enabled: Boolean(site) });
  const refresh = () => queryClient.invalidateQueries({ queryKey: ['store-connection', site] });
  const connect = useMutation({ mutationFn: () => dataProvider.connectStore(site), onSettled: refresh });
  const check = useMutation({ mutationFn: () => dataProvider.checkStoreConnection(site) });
  const install = useMutation({
    mutationFn: () => dataProvider.storeInstallUrl(site),
    onSuccess: (answer) => window.location.assign(answer.url),
  });
  const register = useMutation({
    mutationFn: () => dataProvider.registerStoreWebhooks(site),
    onSuccess: (answer) => setSubscriptions(answer.subscriptions),
    onSettled: refresh,
  });
  if (!store) return null;
  const busy = check.isPending || register.isPending || connect.isPending || install.isPending;
  const spinner = (pending: boolean) => (pending ? <CircularProgress size={16} /> : undefined);
  const app = isAppAuth(store.auth);
  return (
    <Box sx={{ width: '100%' }}>
      <ConnectionState store={store} state={state.data} />
      <Typography variant="body2" color="text.secondary" sx={{ mb: 1 }}>
        These use the saved settings: save first. Register webhooks points the store's order and uninstall webhooks at the webhook URL above.
      </Typography>
      <Stack direction="row" spacing={1} sx={{ mb: 1, flexWrap: 'wrap' }}>
        {store.auth === 'authorization_code' && (
          <Button variant="contained" size="small" disabled={busy} startIcon={spinner(install.isPending)} onClick={() => install.mutate()}>
            Install on Shopify
          </Button>
        )}
        {app ? (
          <Button variant={store.auth === 'client_credentials' ? 'contained' : 'outlined'} size="small" disabled={busy} startIcon={spinner(connect.isPending)} onClick={() => connect.mutate()}>
            Connect
          </Button>
        ) : (
          <Button variant="outlined" size="small" disabled={busy} startIcon={spinner(check.isPending)} onClick={() => check.mutate()}>
            Check connection
          </Button>
        )}
        <Button variant="outlined" size="small" disabled={busy} startIcon={spinner(register.isPending)} onClick={() => register.mutate()}>
          Register webhooks
        </Button>
      </Stack>
      {connect.isSuccess && (
        <Alert severity="success" sx={{ mb: 1 }}>
          Connected to {connect.data.shopName}
          {connect.data.expiresAt ? ` (token until ${formatDateTime(connect.data.expiresAt)}, renewed by itself)` : ''}.
        </Alert>
      )}
      {connect.isError && <Alert severity="error">{errorMessage(connect.error)}</Alert>}
      {install.isError && <Alert severity="error">{errorMessage(install.error)}</Alert>}
      {check.isSuccess && <Alert severity="success">Connected to {check.data.shopName}</Alert>}
      {check.isError && <Alert severity="error">{errorMessage(check.error)}</Alert>}
      {register.isError && <Alert severity="error">{errorMessage(register.error)}</Alert>}
      {register.isSuccess && subscriptions && (
        <Box sx={{ overflowX: 'auto' }}>
          <Typography variant="subtitle2" sx={{ mt: 1 }}>
            Webhook subscriptions the store holds
          </Typography>
          <Table size="small" aria-label="Webhook subscriptions">
            <TableHead>
              <TableRow>
                <TableCell>Topic</TableCell>
                <TableCell>Address</TableCell>
                <TableCell>State</TableCell>
              </TableRow>
            </TableHead>
            <TableBody>
              {subscriptions.map((s) => (
                <TableRow key={s.id}>
                  <TableCell>{s.topic}</TableCell>
                  <TableCell sx={{ wordBreak: 'break-all' }}>{s.callbackUrl}</TableCell>
                  <TableCell>{ACTION_TEXT[s.action]}</TableCell>
                </TableRow>
              ))}
            </TableBody>
          </Table>
        </Box>
      )}
    </Box>
  );
}
