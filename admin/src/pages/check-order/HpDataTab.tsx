import { Box, Typography } from '@mui/material';
import type { ProviderEventRecord, ProviderSendRecord } from '../../../../common/api/orders';
import { ProviderEventsTable } from '../hp-data/ProviderEventsTable';
import { ProviderSends } from '../hp-data/ProviderSends';

/** The provider's side of the order: its postbacks, and what was sent with the answers. */
export function HpDataTab({ events, sends }: { events: readonly ProviderEventRecord[]; sends: readonly ProviderSendRecord[] }) {
  return (
    <Box sx={{ display: 'flex', flexDirection: 'column', gap: 3 }}>
      <Box>
        <Typography variant="subtitle1" component="h3" sx={{ mb: 1 }}>
          Events from HP
        </Typography>
        <ProviderEventsTable events={events} />
      </Box>
      <Box>
        <Typography variant="subtitle1" component="h3" sx={{ mb: 1 }}>
          Sent to HP
        </Typography>
        <ProviderSends sends={sends} />
      </Box>
    </Box>
  );
}
