import { useState } from 'react';
import { useDataProvider, useRecordContext } from 'react-admin';
import { useMutation } from '@tanstack/react-query';
import { Alert, Box, Button, CircularProgress, Stack, Table, TableBody, TableCell, TableHead, TableRow, Typography } from '@mui/material';
import type { Store, StoreWebhookSubscription } from '../../../../common/api/orders';
import { errorMessage, formatDateTime } from '../../lib/format';
import type { AppDataProvider } from '../../providers/dataProvider';
import { disconnectedText } from './types';

const ACTION_TEXT: Record<StoreWebhookSubscription['action'], string> = {
  kept: 'Already in place',
  created: 'Created',
  updated: 'Moved to this address',
  elsewhere: 'Points elsewhere (left alone)',
};

/** Check connection and Register webhooks: they use the saved settings, so save first. */
export function StoreConnectionPanel() {
  const store = useRecordContext<Store>();
  const dataProvider = useDataProvider<AppDataProvider>();
  const [subscriptions, setSubscriptions] = useState<StoreWebhookSubscription[]>();
  const check = useMutation({ mutationFn: (site: string) => dataProvider.checkStoreConnection(site) });
  const register = useMutation({
    mutationFn: (site: string) => dataProvider.registerStoreWebhooks(site),
    onSuccess: (answer) => setSubscriptions(answer.subscriptions),
  });
  if (!store) return null;
  const disconnected = disconnectedText(store, formatDateTime);
  const busy = check.isPending || register.isPending;
  return (
    <Box sx={{ width: '100%' }}>
      {disconnected && (
        <Alert severity="warning" sx={{ mb: 1 }}>
          {disconnected}. Reinstall the app in Shopify and paste its new access token.
        </Alert>
      )}
      <Typography variant="body2" color="text.secondary" sx={{ mb: 1 }}>
        Both use the saved token and version: save first. Register webhooks points the store's order and uninstall webhooks at the webhook URL above.
      </Typography>
      <Stack direction="row" spacing={1} sx={{ mb: 1, flexWrap: 'wrap' }}>
        <Button variant="outlined" size="small" disabled={busy} startIcon={check.isPending ? <CircularProgress size={16} /> : undefined} onClick={() => check.mutate(store.siteSlug)}>
          Check connection
        </Button>
        <Button variant="outlined" size="small" disabled={busy} startIcon={register.isPending ? <CircularProgress size={16} /> : undefined} onClick={() => register.mutate(store.siteSlug)}>
          Register webhooks
        </Button>
      </Stack>
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
