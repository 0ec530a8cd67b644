import { Chip, Tooltip } from '@mui/material';
import { PAID_FINANCIAL_STATUSES, type OrderRecord } from '../../../../common/api/orders';

/** What holds an order back, at a glance in the list: cancelled in the store, or not paid yet. */
export function orderHoldOf(order: OrderRecord): { label: string; title: string; color: 'error' | 'warning' } | undefined {
  const cancelled = order.data?.cancelled as { reason?: string | null } | null | undefined;
  if (cancelled) return { label: 'Cancelled', title: `Cancelled in the store${cancelled.reason ? ` (${cancelled.reason})` : ''}: not printed or sent`, color: 'error' };
  const payment = order.data?.financial_status;
  if (typeof payment === 'string' && payment && !(PAID_FINANCIAL_STATUSES as readonly string[]).includes(payment)) {
    return { label: 'Unpaid', title: `Payment status: ${payment}. Not sent automatically until paid; Send HP asks first.`, color: 'warning' };
  }
  return undefined;
}

export function OrderHoldChip({ order }: { order: OrderRecord }) {
  const hold = orderHoldOf(order);
  if (!hold) return null;
  return (
    <Tooltip title={hold.title}>
      <Chip label={hold.label} color={hold.color} size="small" variant="outlined" sx={{ ml: 0.75, height: 20, fontSize: 11 }} />
    </Tooltip>
  );
}
