import { useDataProvider } from 'react-admin';
import { useQuery } from '@tanstack/react-query';
import { Box, CircularProgress, Typography } from '@mui/material';
import type { OrderRecord } from '../../../../common/api/orders';
import { Timeline } from '../../components/Timeline';
import { errorMessage } from '../../lib/format';
import type { AppDataProvider } from '../../providers/dataProvider';
import { storeOrderId } from '../../providers/orders';

export const orderHistoryQueryKey = (order: OrderRecord) => ['order-history', order.siteId, storeOrderId(order)];

/** Check order's History: the order's changes with its jobs' and sends', oldest first. */
export function OrderHistoryPanel({ order }: { order: OrderRecord }) {
  const dataProvider = useDataProvider<AppDataProvider>();
  const query = useQuery({
    queryKey: orderHistoryQueryKey(order),
    queryFn: () => dataProvider.orderHistory(storeOrderId(order), order.siteId ?? undefined),
    retry: false,
  });
  return (
    <Box component="section" aria-labelledby="order-history-title">
      <Typography id="order-history-title" variant="subtitle1" component="h3" sx={{ fontWeight: 600 }}>
        History
      </Typography>
      {query.isPending && query.isFetching ? <CircularProgress size={20} aria-label="Loading the history" /> : null}
      {query.isError ? (
        <Typography color="error" role="alert">
          {errorMessage(query.error)}
        </Typography>
      ) : null}
      {query.data ? <Timeline entries={query.data} showSubject empty="Nothing recorded for this order yet." /> : null}
    </Box>
  );
}
