import { Alert, AlertTitle, Typography } from '@mui/material';
import type { LineProduction, OrderRecord } from '../../../../common/api/orders';
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

/**
 * What became of a cancelled order, as it happened: whether it had reached HP Site Flow (and was
 * asked to cancel there), whether its lines had print jobs in house (and left the Jobs queue, or
 * were printed already), and that nothing more of it is printed or sent.
 */
export function cancellationStory(order: OrderRecord): string {
  const data = order.data ?? { id: '' };
  const production = Array.isArray(data.production) ? (data.production as LineProduction[]) : [];
  const sentToHp = Boolean(data.hpOrderId || data.preGeneratedHPItems?.some((i) => i.sentAt) || production.some((p) => p.madeBy === 'provider'));
  const inHouse = production.filter((p) => p.madeBy === 'inHouse');
  const printed = inHouse.filter((p) => p.isPrinted).length;
  const left = inHouse.filter((p) => !p.isPrinted && p.withdrawn).length;
  const parts: string[] = [];
  if (sentToHp) parts.push('It had been sent to HP Site Flow, which was asked to cancel it (its answer is below)');
  if (left) parts.push(`${left === 1 ? 'its print job' : `its ${left} print jobs`} left the Jobs queue unprinted`);
  if (printed) parts.push(`${printed === 1 ? 'one item was' : `${printed} items were`} printed in house before the cancel`);
  if (!sentToHp && !inHouse.length) parts.push('It had not been printed or sent');
  return `${parts.map((p, i) => (i === 0 ? p.charAt(0).toUpperCase() + p.slice(1) : p)).join('; ')}. Nothing more of it is printed or sent.`;
}

/** Shown above the tabs of Check order when the store cancelled the order, or HP Site Flow was asked to cancel it. */
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
          Reason: {cancelled.reason || 'not given'}. {cancellationStory(order)}
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
