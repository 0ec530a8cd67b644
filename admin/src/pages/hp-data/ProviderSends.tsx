import { Box, Chip, Grid, Stack, Typography } from '@mui/material';
import type { ProviderSendRecord } from '../../../../common/api/orders';
import { JsonBlock } from '../../components/JsonBlock';
import { formatDateTime } from '../../lib/format';

export const NO_SENT_DATA = 'There is no sent data';

/** What was sent to the provider for one order and what it answered, newest first. */
export function ProviderSends({ sends }: { sends: readonly ProviderSendRecord[] }) {
  if (sends.length === 0) {
    return (
      <Typography color="text.secondary" sx={{ py: 1 }}>
        {NO_SENT_DATA}
      </Typography>
    );
  }
  return (
    <Stack spacing={2}>
      {sends.map((send) => (
        <Box key={String(send.id)} data-testid={`send-${send.id}`} sx={{ border: 1, borderColor: 'divider', borderRadius: 1, p: 1.5 }}>
          <Box sx={{ display: 'flex', alignItems: 'center', gap: 1, mb: 1, flexWrap: 'wrap' }}>
            <Typography variant="subtitle2">{formatDateTime(send.createdAt)}</Typography>
            <Chip size="small" label={send.status ?? 'sent'} color={send.status === 'failed' ? 'error' : 'success'} />
            {send.field2 ? <Typography variant="caption">Line {send.field2}</Typography> : null}
            {send.data?.manual ? <Chip size="small" variant="outlined" label="Manual" /> : null}
            {send.data?.attempts ? <Typography variant="caption" color="text.secondary">Attempts: {send.data.attempts}</Typography> : null}
            {send.data?.error ? <Typography variant="caption" color="error">{send.data.error}</Typography> : null}
          </Box>
          <Grid container spacing={2}>
            <Grid size={{ xs: 12, md: 6 }}>
              <Typography variant="overline">Sent data</Typography>
              <JsonBlock value={send.data?.sentData ?? null} label="Sent data" maxHeight={320} />
            </Grid>
            <Grid size={{ xs: 12, md: 6 }}>
              <Typography variant="overline">Response</Typography>
              <JsonBlock value={send.data?.results ?? null} label="Response" maxHeight={320} />
            </Grid>
          </Grid>
        </Box>
      ))}
    </Stack>
  );
}
