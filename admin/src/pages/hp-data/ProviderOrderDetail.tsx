import { Link as RouterLink } from 'react-router-dom';
import { useDataProvider } from 'react-admin';
import { useQuery } from '@tanstack/react-query';
import {
  Box,
  Button,
  CircularProgress,
  Dialog,
  DialogActions,
  DialogContent,
  DialogTitle,
  IconButton,
  Link,
  Stack,
  Typography,
} from '@mui/material';
import CloseIcon from '@mui/icons-material/Close';
import ManageSearchIcon from '@mui/icons-material/ManageSearch';
import PictureAsPdfIcon from '@mui/icons-material/PictureAsPdf';
import type { ProviderOrderDetail as Detail, ProviderOrderLine, StoreFulfilment } from '../../../../common/api/orders';
import { errorMessage } from '../../lib/format';
import type { AppDataProvider } from '../../providers/dataProvider';
import { customerNameOf, madeByLabel, orderStatusOf } from '../../providers/orders';
import { OrderLinePdfButton } from '../orders/OrderLinePdfButton';
import { ProviderEventsTable } from './ProviderEventsTable';
import { ProviderSends } from './ProviderSends';

function LineCard({ line, orderId }: { line: ProviderOrderLine; orderId: string }) {
  return (
    <Box data-testid={`hp-line-${line.lineId ?? line.productId}`} sx={{ display: 'flex', gap: 2, alignItems: 'flex-start', border: 1, borderColor: 'divider', borderRadius: 1, p: 1.5 }}>
      {line.previewUrl ? (
        <Box
          component="img"
          src={line.previewUrl}
          alt={`Preview of ${line.productName || 'the product'}`}
          sx={{ width: 96, height: 96, objectFit: 'contain', bgcolor: 'grey.100', borderRadius: 0.5, flexShrink: 0 }}
        />
      ) : (
        <Box sx={{ width: 96, height: 96, bgcolor: 'grey.100', borderRadius: 0.5, flexShrink: 0, display: 'grid', placeItems: 'center' }}>
          <Typography variant="caption" color="text.secondary">
            No preview
          </Typography>
        </Box>
      )}
      <Box sx={{ minWidth: 0 }}>
        <Typography variant="subtitle2">{line.productName || '(no product name)'}</Typography>
        <Typography variant="body2" color="text.secondary">
          Product ID: {line.productId ?? '—'}
        </Typography>
        <Typography variant="body2" color="text.secondary">
          Made by: {madeByLabel(line.madeBy, line.printJobId)}
        </Typography>
        {line.sku ? (
          <Typography variant="body2" color="text.secondary">
            SKU: {line.sku}
            {line.quantity ? ` · QTY ${line.quantity}` : ''}
          </Typography>
        ) : null}
        <Box sx={{ mt: 1 }}>
          {line.pdfUrl ? (
            <Button size="small" variant="outlined" component={Link} href={line.pdfUrl} target="_blank" rel="noopener noreferrer" startIcon={<PictureAsPdfIcon />}>
              Print PDF
            </Button>
          ) : line.lineId ? (
            <OrderLinePdfButton orderId={orderId} lineId={line.lineId} sku={line.sku} />
          ) : null}
        </Box>
      </Box>
    </Box>
  );
}

const TO_STORE: Record<StoreFulfilment['status'], string> = { pending: 'Pending', sent: 'Sent', failed: 'Failed' };

/** Whether each shipment's tracking reached the store: pending, sent, or failed with the reason. */
function TrackingToStore({ items }: { items: StoreFulfilment[] }) {
  if (!items.length) return <Typography variant="body2" color="text.secondary">No tracking sent to the store yet.</Typography>;
  return (
    <Stack spacing={1}>
      {items.map((f) => (
        <Box key={f.outboxId} data-testid={`to-store-${f.outboxId}`} sx={{ border: 1, borderColor: 'divider', borderRadius: 1, p: 1.5 }}>
          <Typography variant="body2">
            <strong>{TO_STORE[f.status]}</strong> · {[f.tracking.company, f.tracking.number].filter(Boolean).join(' ')} · lines {f.lineIds.join(', ')}
          </Typography>
          {f.note ? (
            <Typography variant="body2" color="text.secondary">
              {f.note}
            </Typography>
          ) : null}
          {f.error ? (
            <Typography variant="body2" color={f.status === 'failed' ? 'error' : 'text.secondary'}>
              {f.error}
            </Typography>
          ) : null}
        </Box>
      ))}
    </Stack>
  );
}

function DetailBody({ detail, orderId }: { detail: Detail; orderId: string }) {
  const order = detail.order;
  return (
    <Stack spacing={3}>
      {order ? (
        <Typography variant="body2">
          {order.data?.name ? `${order.data.name} · ` : ''}
          {customerNameOf(order)}
          {orderStatusOf(order) ? ` · ${orderStatusOf(order)}` : ''}
        </Typography>
      ) : null}
      {detail.lines.length ? (
        <Box>
          <Typography variant="subtitle1" component="h3" sx={{ mb: 1 }}>
            Products
          </Typography>
          <Stack spacing={1}>
            {detail.lines.map((line, i) => (
              <LineCard key={line.lineId ?? i} line={line} orderId={orderId} />
            ))}
          </Stack>
        </Box>
      ) : null}
      <Box>
        <Typography variant="subtitle1" component="h3" sx={{ mb: 1 }}>
          Events from HP
        </Typography>
        <ProviderEventsTable events={detail.events} />
      </Box>
      <Box>
        <Typography variant="subtitle1" component="h3" sx={{ mb: 1 }}>
          Sent data and response
        </Typography>
        <ProviderSends sends={detail.sent} />
      </Box>
      <Box>
        <Typography variant="subtitle1" component="h3" sx={{ mb: 1 }}>
          Tracking to the store
        </Typography>
        <TrackingToStore items={detail.storeFulfilments ?? []} />
      </Box>
    </Stack>
  );
}

/** Everything known about one order on the provider's side, in a dialog over the events list. */
export function ProviderOrderDetail({ orderId, onClose }: { orderId: string; onClose: () => void }) {
  const dataProvider = useDataProvider<AppDataProvider>();
  const query = useQuery({
    queryKey: ['hp-data', 'order', orderId],
    queryFn: () => dataProvider.getProviderOrderDetail(orderId),
    retry: false,
  });
  return (
    <Dialog open onClose={onClose} fullWidth maxWidth="md" aria-labelledby="hp-order-title">
      <DialogTitle id="hp-order-title" sx={{ pr: 6 }}>
        Order {orderId}
        <IconButton aria-label="Close" onClick={onClose} sx={{ position: 'absolute', right: 8, top: 8 }}>
          <CloseIcon />
        </IconButton>
      </DialogTitle>
      <DialogContent dividers>
        {query.isPending ? (
          <Box role="status" sx={{ display: 'flex', alignItems: 'center', gap: 1, py: 2 }}>
            <CircularProgress size={20} />
            <Typography color="text.secondary">Loading...</Typography>
          </Box>
        ) : query.isError ? (
          <Typography color="error" role="alert">
            {errorMessage(query.error)}
          </Typography>
        ) : query.data ? (
          <DetailBody detail={query.data} orderId={orderId} />
        ) : null}
      </DialogContent>
      <DialogActions>
        <Button component={RouterLink} to={`/check-order?id=${encodeURIComponent(orderId)}`} startIcon={<ManageSearchIcon />}>
          Check order
        </Button>
        <Button onClick={onClose}>Close</Button>
      </DialogActions>
    </Dialog>
  );
}
