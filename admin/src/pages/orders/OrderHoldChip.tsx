import { Chip, Tooltip } from '@mui/material';
import { PAID_FINANCIAL_STATUSES, type OrderRecord } from '../../../../common/api/orders';

/** What holds an order back, at a glance in the list: cancelled in the store, not paid yet, or waiting (change window, buyer's proof). */
export function orderHoldOf(order: OrderRecord): { label: string; title: string; color: 'error' | 'warning' | 'info' } | undefined {
  const cancelled = order.data?.cancelled as { reason?: string | null } | null | undefined;
  if (cancelled) return { label: 'Cancelled', title: `Cancelled in the store${cancelled.reason ? ` (${cancelled.reason})` : ''}: not printed or sent`, color: 'error' };
  const payment = order.data?.financial_status;
  if (typeof payment === 'string' && payment && !(PAID_FINANCIAL_STATUSES as readonly string[]).includes(payment)) {
    return { label: 'Unpaid', title: `Payment status: ${payment}. Not sent automatically until paid; Send HP asks first.`, color: 'warning' };
  }
  // The list's answer says what the order still waits for, in the shop's time (the server's sentence).
  const waiting = order.data?.waiting as { sentence?: unknown } | null | undefined;
  if (waiting && typeof waiting.sentence === 'string' && waiting.sentence) {
    const label = `${waiting.sentence[0].toUpperCase()}${waiting.sentence.slice(1)}`;
    return { label, title: `${label}: nothing is made of it until then. Check order has Release now.`, color: 'info' };
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
