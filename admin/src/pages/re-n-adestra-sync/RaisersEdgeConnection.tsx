import { useEffect, useState } from 'react';
import { useCanAccess, useDataProvider, useNotify } from 'react-admin';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { Alert, Box, Button, Chip, CircularProgress, FormControl, InputLabel, MenuItem, Paper, Select, Stack, Table, TableBody, TableCell, TableHead, TableRow, Typography } from '@mui/material';
import LinkIcon from '@mui/icons-material/Link';
import type { ReConnectionStatus } from '../../../../common/api/sync';
import { useActionKey } from '../../lib/actionKey';
import { errorMessage, formatDateTime } from '../../lib/format';
import type { AppDataProvider } from '../../providers/dataProvider';
import { syncKeys, useReConnection } from './syncQueries';

function ConnectionChip({ status }: { status: ReConnectionStatus }) {
  if (status.needsReconnect) return <Chip color="error" label="Needs reconnecting" />;
  if (status.connected) return <Chip color="success" label={`Connected${status.environmentName ? ` to ${status.environmentName}` : ''}`} />;
  return <Chip label="Not connected" />;
}

/** Connect / Reconnect: fetch a fresh authorisation address with the session's token, then go there. */
function ConnectButton({ site, status }: { site: string; status: ReConnectionStatus }) {
  const dataProvider = useDataProvider<AppDataProvider>();
  const notify = useNotify();
  const connect = useMutation({
    mutationFn: () => dataProvider.getReConnectUrl(site),
    onSuccess: (answer) => {
      if (answer?.url) window.location.assign(answer.url);
    },
    onError: (error) => notify(errorMessage(error), { type: 'error' }),
  });
  const label = status.needsReconnect ? 'Reconnect' : status.connected ? 'Connect again' : "Connect to Raiser's Edge";
  return (
    <Button variant={status.connected ? 'outlined' : 'contained'} color={status.needsReconnect ? 'error' : 'primary'} startIcon={connect.isPending ? <CircularProgress size={16} /> : <LinkIcon />} disabled={connect.isPending} onClick={() => connect.mutate()}>
      {label}
    </Button>
  );
}

/** The consent source and category written into the CRM, chosen from the CRM's own lists. */
function ConsentSettings({ site }: { site: string }) {
  const dataProvider = useDataProvider<AppDataProvider>();
  const notify = useNotify();
  const queryClient = useQueryClient();
  const options = useQuery({ queryKey: syncKeys.consent(site), queryFn: () => dataProvider.getConsentOptions(site), retry: false });
  const [source, setSource] = useState('');
  const [category, setCategory] = useState('');
  useEffect(() => {
    if (options.data) {
      setSource(options.data.source);
      setCategory(options.data.category);
    }
  }, [options.data]);
  const save = useMutation({
    mutationFn: () => dataProvider.saveConsentSettings(site, { source, category }),
    onSuccess: (answer) => {
      if (!answer) return;
      notify(answer.message, { type: 'success' });
      void queryClient.invalidateQueries({ queryKey: syncKeys.consent(site) });
    },
    onError: (error) => notify(errorMessage(error), { type: 'error' }),
  });
  if (options.isPending) return <CircularProgress size={20} aria-label="Loading the CRM's consent lists" />;
  if (options.error) return <Alert severity="warning">The CRM's consent lists could not be read: {errorMessage(options.error)}</Alert>;
  const pick = (label: string, value: string, list: string[], onChange: (v: string) => void) => (
    <FormControl size="small" sx={{ minWidth: 220 }}>
      <InputLabel id={`${label.toLowerCase().replace(/\s+/g, '-')}-label`}>{label}</InputLabel>
      <Select labelId={`${label.toLowerCase().replace(/\s+/g, '-')}-label`} label={label} value={list.includes(value) || value === '' ? value : ''} onChange={(e) => onChange(String(e.target.value))}>
        <MenuItem value="">
          <em>None</em>
        </MenuItem>
        {list.map((name) => (
          <MenuItem key={name} value={name}>
            {name}
          </MenuItem>
        ))}
      </Select>
    </FormControl>
  );
  return (
    <Stack direction={{ xs: 'column', sm: 'row' }} spacing={2} sx={{ alignItems: { sm: 'center' } }}>
      {pick('Consent source', source, options.data?.sources ?? [], setSource)}
      {pick('Consent category', category, options.data?.categories ?? [], setCategory)}
      <Button variant="outlined" disabled={save.isPending} onClick={() => save.mutate()} sx={{ flexShrink: 0, whiteSpace: 'nowrap' }}>
        Save consent settings
      </Button>
    </Stack>
  );
}

/** The CRM's webhook subscriptions for this site, and the button that creates the missing ones. */
function WebhookSubscriptions({ site }: { site: string }) {
  const dataProvider = useDataProvider<AppDataProvider>();
  const notify = useNotify();
  const queryClient = useQueryClient();
  const subs = useQuery({ queryKey: syncKeys.subscriptions(site), queryFn: () => dataProvider.getWebhookSubscriptions(site), retry: false });
  const actionKey = useActionKey();
  const create = useMutation({
    mutationFn: (key: string) => dataProvider.createWebhookSubscriptions(site, key),
    onSettled: actionKey.end,
    onSuccess: (answer) => {
      if (!answer) return;
      queryClient.setQueryData(syncKeys.subscriptions(site), answer);
      notify(answer.created?.length ? `Created ${answer.created.length} webhook subscription(s)` : 'Every webhook subscription already exists', { type: 'success' });
    },
    onError: (error) => notify(errorMessage(error), { type: 'error' }),
  });
  return (
    <Box>
      <Stack direction="row" spacing={2} sx={{ mb: 1, alignItems: 'center' }}>
        <Typography variant="subtitle2">Webhook subscriptions</Typography>
        <Button size="small" variant="outlined" disabled={create.isPending || subs.isPending} onClick={() => create.mutate(actionKey.begin())}>
          Create webhook subscriptions
        </Button>
      </Stack>
      {subs.error ? (
        <Alert severity="warning">The CRM's subscriptions could not be read: {errorMessage(subs.error)}</Alert>
      ) : subs.data ? (
        <Table size="small" aria-label="Webhook subscriptions">
          <TableHead>
            <TableRow>
              <TableCell>Event type</TableCell>
              <TableCell>Status</TableCell>
              <TableCell>Address</TableCell>
            </TableRow>
          </TableHead>
          <TableBody>
            {subs.data.list.map((sub) => (
              <TableRow key={sub.id}>
                <TableCell>{sub.eventType}</TableCell>
                <TableCell>{sub.provisioningStatus ?? 'unknown'}</TableCell>
                <TableCell sx={{ wordBreak: 'break-all' }}>{sub.ours ? 'this site' : sub.webhookUrl}</TableCell>
              </TableRow>
            ))}
            {subs.data.missing.map((type) => (
              <TableRow key={`missing-${type}`}>
                <TableCell>{type}</TableCell>
                <TableCell colSpan={2}>not subscribed yet</TableCell>
              </TableRow>
            ))}
          </TableBody>
        </Table>
      ) : null}
    </Box>
  );
}

/**
 * The site's Raiser's Edge connection: its status, Connect / Reconnect (admins), and once
 * connected the consent names and the webhook subscriptions.
 */
export function RaisersEdgeConnection({ site }: { site: string }) {
  const status = useReConnection(site);
  const { canAccess: isAdmin } = useCanAccess({ resource: 'raisers-edge-connection', action: 'edit' });
  return (
    <Paper variant="outlined" sx={{ p: 2 }} component="section" aria-label="Raiser's Edge connection">
      <Stack spacing={2}>
        <Stack direction="row" spacing={2} useFlexGap sx={{ alignItems: 'center', flexWrap: 'wrap' }}>
          <Typography variant="subtitle1" component="h3">
            Raiser&apos;s Edge connection
          </Typography>
          {status.data ? <ConnectionChip status={status.data} /> : null}
          {status.data && isAdmin ? <ConnectButton site={site} status={status.data} /> : null}
        </Stack>
        {status.error ? <Alert severity="error">{errorMessage(status.error)}</Alert> : null}
        {status.data?.needsReconnect ? (
          <Alert severity="error">
            Syncs stop until an admin reconnects: {status.data.reason ?? 'Blackbaud refused the refresh token'}.
          </Alert>
        ) : null}
        {status.data?.connectedAt ? (
          <Typography variant="body2" color="text.secondary">
            Last connected {formatDateTime(status.data.connectedAt)}
          </Typography>
        ) : null}
        {isAdmin && status.data?.connected ? (
          <>
            <ConsentSettings site={site} />
            <WebhookSubscriptions site={site} />
          </>
        ) : null}
      </Stack>
    </Paper>
  );
}
