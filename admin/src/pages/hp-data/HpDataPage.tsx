import { useCallback, useState } from 'react';
import { Link } from 'react-router-dom';
import { Title, useDataProvider } from 'react-admin';
import { Box, Button, Card, Table, TableBody, TableCell, TableContainer, TableHead, TableRow, Typography } from '@mui/material';
import ManageSearchIcon from '@mui/icons-material/ManageSearch';
import type { ProviderEventRecord } from '../../../../common/api/orders';
import { PagedListError, PagedListFooter } from '../../components/PagedListParts';
import { RequireAccess } from '../../components/RequireAccess';
import { formatDateTime } from '../../lib/format';
import { usePagedList } from '../../lib/usePagedList';
import { useWindowFocus } from '../../lib/useViewport';
import { usePageTitle } from '../../layout/usePageTitle';
import type { AppDataProvider } from '../../providers/dataProvider';
import { NO_POSTBACK } from './ProviderEventsTable';
import { ProviderOrderDetail } from './ProviderOrderDetail';

const orderIdOf = (e: ProviderEventRecord) => e.data?.shopifyOrderId ?? e.field1 ?? '';

function HpDataView() {
  usePageTitle('Data from HP');
  const dataProvider = useDataProvider<AppDataProvider>();
  const fetchPage = useCallback((page: number) => dataProvider.getProviderEvents({ page }), [dataProvider]);
  const list = usePagedList(fetchPage);
  useWindowFocus(list.reload);
  const [openOrder, setOpenOrder] = useState<string | null>(null);

  return (
    <Card sx={{ mt: 2, mb: 4 }}>
      <Title title="Data from HP" />
      <Box sx={{ display: 'flex', alignItems: 'center', gap: 2, p: 2, pb: 1 }}>
        <Typography variant="h6" component="h1" sx={{ flexGrow: 1 }}>
          Data from HP
        </Typography>
        <Button variant="contained" color="secondary" component={Link} to="/check-order" startIcon={<ManageSearchIcon />}>
          Check order
        </Button>
      </Box>
      <PagedListError list={list} />
      {list.items.length ? (
        <TableContainer>
          <Table size="small" aria-label="Data from HP">
            <TableHead>
              <TableRow>
                <TableCell>Timestamp</TableCell>
                <TableCell>Status</TableCell>
                <TableCell>Order Id</TableCell>
                <TableCell>Tracking Number</TableCell>
                <TableCell>Shipping Method</TableCell>
                <TableCell />
              </TableRow>
            </TableHead>
            <TableBody>
              {list.items.map((event) => {
                const orderId = orderIdOf(event);
                return (
                  <TableRow
                    key={String(event.id)}
                    hover
                    data-testid={`hp-event-${event.id}`}
                    // Reachable with Tab and opened with Enter, like a click.
                    tabIndex={orderId ? 0 : undefined}
                    aria-label={orderId ? `Open order ${orderId}` : undefined}
                    onClick={() => orderId && setOpenOrder(orderId)}
                    onKeyDown={(e) => {
                      if (e.key === 'Enter' && e.target === e.currentTarget && orderId) setOpenOrder(orderId);
                    }}
                    sx={{ cursor: orderId ? 'pointer' : 'default', '&:nth-of-type(even)': { bgcolor: 'action.hover' }, '&:focus-visible': { outline: 2, outlineColor: 'primary.main', outlineOffset: -2 } }}
                  >
                    <TableCell sx={{ whiteSpace: 'nowrap' }}>{formatDateTime(event.data?.timestamp ?? event.createdAt)}</TableCell>
                    <TableCell>
                      {event.data?.status ?? event.status ?? ''}
                      {event.data?.error ? (
                        <Typography variant="body2" color="error">
                          {event.data.error}
                        </Typography>
                      ) : null}
                    </TableCell>
                    <TableCell>{orderId}</TableCell>
                    <TableCell>{event.data?.trackingNumber ?? ''}</TableCell>
                    <TableCell>{event.data?.shippingMethod ?? ''}</TableCell>
                    <TableCell align="right" onClick={(e) => e.stopPropagation()}>
                      {orderId && event.hasStoreOrder === false ? (
                        // No store order (a manual send's postback): Check order would only say "Order not found".
                        <Button size="small" variant="outlined" onClick={() => setOpenOrder(orderId)}>
                          Sent data
                        </Button>
                      ) : orderId ? (
                        <Button size="small" variant="outlined" component={Link} to={`/check-order?id=${encodeURIComponent(orderId)}`}>
                          Check order
                        </Button>
                      ) : null}
                    </TableCell>
                  </TableRow>
                );
              })}
            </TableBody>
          </Table>
        </TableContainer>
      ) : null}
      <PagedListFooter list={list} emptyText={NO_POSTBACK} />
      {openOrder ? <ProviderOrderDetail orderId={openOrder} onClose={() => setOpenOrder(null)} /> : null}
    </Card>
  );
}

/** /hp-data: the provider's postbacks; a row opens everything known about its order. */
export function HpDataPage() {
  return (
    <RequireAccess resource="hp-data" action="list">
      <HpDataView />
    </RequireAccess>
  );
}

export default HpDataPage;
