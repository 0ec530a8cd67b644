import { useDataProvider, useRecordContext } from 'react-admin';
import { useQuery } from '@tanstack/react-query';
import { Alert, Box, Table, TableBody, TableCell, TableHead, TableRow, Typography } from '@mui/material';
import type { Store, StorePrivacyRequest } from '../../../../common/api/orders';
import { errorMessage, formatDateTime } from '../../lib/format';
import type { AppDataProvider } from '../../providers/dataProvider';

const TOPIC_WORDS: Record<StorePrivacyRequest['topic'], string> = {
  'customers/data_request': 'Data request',
  'customers/redact': 'Customer redaction',
  'shop/redact': 'Shop redaction',
};

/** What was done, in a sentence. */
export function privacyOutcome(r: StorePrivacyRequest): string {
  if (r.topic === 'customers/data_request') return r.held?.length ? `Listed below: ${r.held.length} order${r.held.length === 1 ? '' : 's'} hold this customer’s data` : 'Nothing is held on this customer';
  const count = r.orders.length;
  const what = r.topic === 'shop/redact' ? 'every order of the shop' : `${count} order${count === 1 ? '' : 's'}`;
  if (r.status === 'waiting') return `Redacted ${what} but ${r.waitingOrders.join(', ')}, still in production: redacted once shipped`;
  return `Redacted ${what}${r.doneAt ? ` on ${formatDateTime(r.doneAt)}` : ''}`;
}

function Holdings({ r }: { r: StorePrivacyRequest }) {
  if (!r.held?.length) return null;
  return (
    <Table size="small" aria-label={`What is held (request ${r.id})`}>
      <TableHead>
        <TableRow>
          <TableCell>Order</TableCell>
          <TableCell>Placed</TableCell>
          <TableCell>Data held</TableCell>
        </TableRow>
      </TableHead>
      <TableBody>
        {r.held.map((h) => (
          <TableRow key={h.orderId}>
            <TableCell>{h.orderName ?? h.orderId}</TableCell>
            <TableCell>{h.placedAt ? formatDateTime(h.placedAt) : ''}</TableCell>
            <TableCell>
              {Object.entries(h.values).map(([k, v]) => (
                <div key={k}>
                  {k}: {v}
                </div>
              ))}
              {h.printJobs ? <div>personalisation on {h.printJobs} print job{h.printJobs === 1 ? '' : 's'}</div> : null}
            </TableCell>
          </TableRow>
        ))}
      </TableBody>
    </Table>
  );
}

/** Shopify's privacy requests for this store (sent to the app's compliance webhook) and what Presswork did. */
export function PrivacyRequestsPanel() {
  const store = useRecordContext<Store>();
  const dataProvider = useDataProvider<AppDataProvider>();
  const site = store?.siteSlug ?? '';
  const list = useQuery({ queryKey: ['store-privacy', site], queryFn: () => dataProvider.getStorePrivacyRequests(site), enabled: Boolean(site) });
  if (!store) return null;
  return (
    <Box sx={{ width: '100%', mt: 2 }}>
      <Typography variant="subtitle2">Privacy requests from Shopify</Typography>
      {list.isError && <Alert severity="error">{errorMessage(list.error)}</Alert>}
      {list.data && list.data.length === 0 && (
        <Typography variant="body2" color="text.secondary">
          None yet. Shopify sends them to the compliance webhook set in the app’s configuration (docs: Connecting a Shopify store).
        </Typography>
      )}
      {list.data && list.data.length > 0 && (
        <Box sx={{ overflowX: 'auto' }}>
          <Table size="small" aria-label="Privacy requests">
            <TableHead>
              <TableRow>
                <TableCell>Received</TableCell>
                <TableCell>Request</TableCell>
                <TableCell>Customer</TableCell>
                <TableCell>What was done</TableCell>
              </TableRow>
            </TableHead>
            <TableBody>
              {list.data.map((r) => (
                <TableRow key={r.id}>
                  <TableCell>{formatDateTime(r.receivedAt)}</TableCell>
                  <TableCell>{TOPIC_WORDS[r.topic]}</TableCell>
                  <TableCell>{r.customerEmail ?? (r.customerId ? `customer ${r.customerId}` : '—')}</TableCell>
                  <TableCell>
                    {privacyOutcome(r)}
                    <Holdings r={r} />
                  </TableCell>
                </TableRow>
              ))}
            </TableBody>
          </Table>
        </Box>
      )}
    </Box>
  );
}
