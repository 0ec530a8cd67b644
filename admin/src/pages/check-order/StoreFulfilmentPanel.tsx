import { useState } from 'react';
import { Link as RouterLink } from 'react-router-dom';
import { useCanAccess, useDataProvider, useNotify } from 'react-admin';
import { useMutation, useQuery } from '@tanstack/react-query';
import {
  Box,
  Button,
  Chip,
  CircularProgress,
  Dialog,
  DialogActions,
  DialogContent,
  DialogTitle,
  Link,
  Table,
  TableBody,
  TableCell,
  TableContainer,
  TableHead,
  TableRow,
  Typography,
} from '@mui/material';
import LocalShippingIcon from '@mui/icons-material/LocalShipping';
import type { OrderLineItem, OrderRecord, StoreConnectionState, StoreFulfilment } from '../../../../common/api/orders';
import { NO_TRACKING, TrackingFields, trackingRefusal, type Tracking } from '../../components/TrackingFields';
import { useActionKey } from '../../lib/actionKey';
import { errorMessage, formatDateTime } from '../../lib/format';
import type { AppDataProvider } from '../../providers/dataProvider';
import { storeOrderId } from '../../providers/orders';

export const MARK_SHIPPED_SUCCESS = 'Shipped: the store has the tracking';

/** Why the store's side is not known: its store takes no Admin API calls (Setup → Stores connects it). */
export const STORE_NOT_CONNECTED = 'Not known: the store is not connected';

/** What the store says about a line (its orders/fulfilled and orders/updated webhooks). */
export function storeStateOf(line: OrderLineItem, connection?: StoreConnectionState | null): string {
  if (line.fulfillment_status === 'fulfilled') return 'Fulfilled';
  if (line.fulfillment_status === 'partial') return `Partly fulfilled${typeof line.fulfillable_quantity === 'number' ? ` (${line.fulfillable_quantity} left)` : ''}`;
  if (line.fulfillment_status === undefined && line.fulfillable_quantity === undefined) return connection?.connected === false ? STORE_NOT_CONNECTED : 'Not known yet';
  return 'Not fulfilled';
}

/** A line's state in the store; when the store is not connected, where it is connected (a link for those who may). */
function StoreState({ line, connection }: { line: OrderLineItem; connection: StoreConnectionState | null | undefined }) {
  const { canAccess: mayConnect } = useCanAccess({ resource: 'stores', action: 'list' });
  const state = storeStateOf(line, connection);
  if (state !== STORE_NOT_CONNECTED) return <>{state}</>;
  const where = mayConnect ? (
    <Link component={RouterLink} to="/stores">
      Setup → Stores
    </Link>
  ) : (
    'Setup → Stores, by an admin'
  );
  return (
    <>
      {state}
      {connection?.uninstalledAt ? ` (the app was uninstalled in Shopify on ${formatDateTime(connection.uninstalledAt)})` : ''}: {where}
    </>
  );
}

const STATUS_LABEL: Record<StoreFulfilment['status'], string> = { pending: 'Sending to the store', sent: 'In the store', failed: 'Failed' };
const STATUS_COLOR: Record<StoreFulfilment['status'], 'default' | 'success' | 'error'> = { pending: 'default', sent: 'success', failed: 'error' };

/** The newest write-back of a line. */
const ofLine = (all: StoreFulfilment[], lineId: string) => [...all].reverse().find((f) => f.lineIds.includes(lineId));

function Tracking({ f }: { f: StoreFulfilment }) {
  const label = [f.tracking.company, f.tracking.number].filter(Boolean).join(' ');
  return f.tracking.url ? (
    <Link href={f.tracking.url} target="_blank" rel="noopener noreferrer">
      {label}
    </Link>
  ) : (
    <>{label}</>
  );
}

function PressworkCell({ f }: { f: StoreFulfilment | undefined }) {
  if (!f) return <Typography variant="body2" color="text.secondary">None</Typography>;
  return (
    <Box sx={{ display: 'flex', flexDirection: 'column', gap: 0.5, alignItems: 'flex-start' }}>
      <Chip size="small" label={STATUS_LABEL[f.status]} color={STATUS_COLOR[f.status]} />
      <Typography variant="body2">
        <Tracking f={f} />
        {f.doneAt ? ` · ${formatDateTime(f.doneAt)}` : ''}
      </Typography>
      {f.fulfillmentId ? (
        <Typography variant="caption" color="text.secondary">
          {f.fulfillmentId}
        </Typography>
      ) : null}
      {f.note ? (
        <Typography variant="caption" color="text.secondary">
          {f.note}
        </Typography>
      ) : null}
      {f.error ? (
        <Typography variant="caption" color="error">
          {f.error}
        </Typography>
      ) : null}
    </Box>
  );
}

function MarkShippedDialog({ order, onClose, onDone }: { order: OrderRecord; onClose: () => void; onDone: () => void }) {
  const dataProvider = useDataProvider<AppDataProvider>();
  const notify = useNotify();
  const actionKey = useActionKey();
  const [tracking, setTracking] = useState<Tracking>(NO_TRACKING);
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [problem, setProblem] = useState<string | null>(null);
  const ship = useMutation({
    mutationFn: (key: string) =>
      dataProvider.markShipped({ orderId: storeOrderId(order), siteId: Number(order.siteId), carrier: tracking.carrier, trackingNumber: tracking.trackingNumber, trackingUrl: tracking.trackingUrl.trim() || undefined }, key),
    onSettled: actionKey.end,
    onSuccess: (result) => {
      if (!result) return;
      if (result.status === 'failed') notify(`The store refused the fulfilment: ${result.error ?? ''}`, { type: 'error', autoHideDuration: 10_000 });
      else if (result.status === 'pending') notify(`Sending the tracking to the store: ${result.error ?? 'tried again shortly'}`, { type: 'info', autoHideDuration: 10_000 });
      else notify(MARK_SHIPPED_SUCCESS, { type: 'success' });
      onDone();
      onClose();
    },
    onError: (error) => {
      const refused = trackingRefusal(error);
      setErrors(refused.errors);
      setProblem(refused.problem);
    },
  });
  return (
    <Dialog open onClose={onClose} fullWidth maxWidth="sm" aria-labelledby="mark-shipped-title">
      <DialogTitle id="mark-shipped-title">Mark shipped</DialogTitle>
      <DialogContent sx={{ display: 'flex', flexDirection: 'column', gap: 2, pt: '8px !important' }}>
        <Typography variant="body2" color="text.secondary">
          The lines printed in house go to the store as shipped with this tracking; the store emails the customer.
        </Typography>
        <TrackingFields value={tracking} onChange={setTracking} errors={errors} />
        {problem ? (
          <Typography color="error" role="alert">
            {problem}
          </Typography>
        ) : null}
      </DialogContent>
      <DialogActions>
        <Button onClick={onClose}>Cancel</Button>
        <Button variant="contained" disabled={ship.isPending} startIcon={ship.isPending ? <CircularProgress size={16} /> : <LocalShippingIcon />} onClick={() => ship.mutate(actionKey.begin())}>
          Mark shipped
        </Button>
      </DialogActions>
    </Dialog>
  );
}

/** Check order: per line, the store's fulfilment state and the fulfilment Presswork created; Mark shipped for lines printed in house. */
export function StoreFulfilmentPanel({ order, onChanged }: { order: OrderRecord; onChanged: () => void }) {
  const dataProvider = useDataProvider<AppDataProvider>();
  const orderId = storeOrderId(order);
  const [open, setOpen] = useState(false);
  const query = useQuery({
    queryKey: ['store-fulfilments', order.siteId, orderId],
    queryFn: () => dataProvider.getStoreFulfilments(orderId, order.siteId),
    retry: false,
  });
  const lines = order.data?.line_items ?? [];
  const all = query.data ?? [];
  // Only lines printed in house are shipped from here; the provider ships its own and posts back.
  const production = Array.isArray(order.data?.production) ? (order.data.production as Array<{ madeBy?: string; withdrawn?: unknown }>) : [];
  const printsInHouse = production.some((p) => p.madeBy === 'inHouse' && !p.withdrawn);
  return (
    <Box>
      <Box sx={{ display: 'flex', alignItems: 'center', gap: 2, mb: 1, flexWrap: 'wrap' }}>
        <Typography variant="subtitle1" component="h3">
          Store fulfilment
        </Typography>
        {printsInHouse ? (
          <Button size="small" variant="outlined" startIcon={<LocalShippingIcon fontSize="small" />} onClick={() => setOpen(true)}>
            Mark shipped
          </Button>
        ) : null}
      </Box>
      {query.isError ? (
        <Typography color="error" role="alert">
          {errorMessage(query.error)}
        </Typography>
      ) : null}
      {/* A phone scrolls the table sideways inside the page, never the page. */}
      <TableContainer sx={{ contain: 'inline-size' }}>
        <Table size="small" aria-label="Store fulfilment per line">
          <TableHead>
            <TableRow>
              <TableCell>Line</TableCell>
              <TableCell>In the store</TableCell>
              <TableCell>Sent by Presswork</TableCell>
            </TableRow>
          </TableHead>
          <TableBody>
            {lines.map((line) => (
              <TableRow key={String(line.id)} data-testid={`store-line-${line.id}`}>
                <TableCell>
                  {line.name || line.title || line.sku || String(line.id)}
                  {line.sku ? (
                    <Typography variant="caption" color="text.secondary" component="div">
                      SKU {line.sku}
                    </Typography>
                  ) : null}
                </TableCell>
                <TableCell>
                  <StoreState line={line} connection={order.data?.storeConnection as StoreConnectionState | undefined} />
                </TableCell>
                <TableCell>{query.isPending ? <CircularProgress size={16} aria-label="Loading" /> : <PressworkCell f={ofLine(all, String(line.id))} />}</TableCell>
              </TableRow>
            ))}
          </TableBody>
        </Table>
      </TableContainer>
      {open ? (
        <MarkShippedDialog
          order={order}
          onClose={() => setOpen(false)}
          onDone={() => {
            void query.refetch();
            onChanged();
          }}
        />
      ) : null}
    </Box>
  );
}
