import { Table, TableBody, TableCell, TableContainer, TableHead, TableRow, Typography } from '@mui/material';
import type { ProviderEventRecord } from '../../../../common/api/orders';
import { formatDateTime } from '../../lib/format';

export const NO_POSTBACK = 'There is no postback';

/** The provider's postbacks for one order, newest first. */
export function ProviderEventsTable({ events }: { events: readonly ProviderEventRecord[] }) {
  if (events.length === 0) {
    return (
      <Typography color="text.secondary" sx={{ py: 1 }}>
        {NO_POSTBACK}
      </Typography>
    );
  }
  return (
    <TableContainer>
      <Table size="small" aria-label="Provider events">
        <TableHead>
          <TableRow>
            <TableCell>Timestamp</TableCell>
            <TableCell>Status</TableCell>
            <TableCell>Event</TableCell>
            <TableCell>Tracking Number</TableCell>
            <TableCell>Shipping Method</TableCell>
          </TableRow>
        </TableHead>
        <TableBody>
          {events.map((e) => (
            <TableRow key={String(e.id)}>
              <TableCell sx={{ whiteSpace: 'nowrap' }}>{formatDateTime(e.data?.timestamp ?? e.createdAt)}</TableCell>
              <TableCell>{e.data?.status ?? e.status ?? ''}</TableCell>
              <TableCell>
                {e.data?.event ?? e.name ?? ''}
                {e.data?.error ? (
                  <Typography variant="body2" color="error">
                    {e.data.error}
                  </Typography>
                ) : null}
              </TableCell>
              <TableCell>{e.data?.trackingNumber ?? ''}</TableCell>
              <TableCell>{e.data?.shippingMethod ?? ''}</TableCell>
            </TableRow>
          ))}
        </TableBody>
      </Table>
    </TableContainer>
  );
}
