import { Alert, AlertTitle, Typography } from '@mui/material';
import type { OrderRecord } from '../../../../common/api/orders';
import { formatDateTime } from '../../lib/format';

/** The store's cancellation of an order and, when it had reached the provider, HP's side of it. */
interface Cancelled {
  cancelledAt?: string | null;
  reason?: string | null;
}
interface ProviderCancellation {
  status?: 'pending' | 'cancelled' | 'failed' | string;
  message?: string | null;
  at?: string | null;
}

const PROVIDER_SEVERITY = { cancelled: 'success', failed: 'error', pending: 'info' } as const;
const PROVIDER_TITLE = { cancelled: 'Cancelled at HP Site Flow', failed: 'Not cancelled at HP Site Flow', pending: 'Cancelling at HP Site Flow' } as const;

/** Shown above the tabs of Check order when the store cancelled the order: nothing of it is printed or sent. */
export function CancellationNotice({ order }: { order: OrderRecord }) {
  const cancelled = order.data?.cancelled as Cancelled | null | undefined;
  const provider = order.data?.providerCancellation as ProviderCancellation | null | undefined;
  if (!cancelled && !provider) return null;
  const status = provider?.status === 'cancelled' || provider?.status === 'failed' || provider?.status === 'pending' ? provider.status : undefined;
  return (
    <>
      {cancelled ? (
        <Alert severity="warning" role="status" aria-label="Order cancelled">
          <AlertTitle>Cancelled in the store{cancelled.cancelledAt ? ` on ${formatDateTime(cancelled.cancelledAt)}` : ''}</AlertTitle>
          Reason: {cancelled.reason || 'not given'}. It is not printed or sent; its print jobs left the queue.
        </Alert>
      ) : null}
      {provider && status ? (
        <Alert severity={PROVIDER_SEVERITY[status]} role="status" aria-label="Provider cancellation">
          <AlertTitle>{PROVIDER_TITLE[status]}</AlertTitle>
          <Typography variant="body2">{provider.message}</Typography>
          {provider.at ? (
            <Typography variant="caption" color="text.secondary">
              {formatDateTime(provider.at)}
            </Typography>
          ) : null}
        </Alert>
      ) : null}
    </>
  );
}
