import { Alert, AlertTitle, Typography } from '@mui/material';
import type { OrderRecord, ProviderError } from '../../../../common/api/orders';
import { formatDateTime } from '../../lib/format';

interface ProviderOrderEntry {
  acknowledged?: boolean;
}

export const SUBMITTED_TITLE = 'Submitted to HP Site Flow, not yet accepted';
export const REFUSED_TITLE = 'HP Site Flow refused the order';

/**
 * The provider's side of the order when it needs a look: Site Flow refused it after taking it in
 * (its reason, in its words), or its submit host only acknowledged it and nothing has come back yet.
 */
export function ProviderNotice({ order }: { order: OrderRecord }) {
  const refused = order.data?.providerError as ProviderError | null | undefined;
  const entries = Object.values((order.data?.hpOrders ?? {}) as Record<string, ProviderOrderEntry>);
  const waiting = !refused && entries.some((e) => e?.acknowledged === true);
  if (refused) {
    return (
      <Alert severity="error" role="status" aria-label="Provider refusal">
        <AlertTitle>{REFUSED_TITLE}</AlertTitle>
        <Typography variant="body2">{refused.message}</Typography>
        <Typography variant="caption" color="text.secondary">
          {refused.sourceOrderId} · {formatDateTime(refused.at)} · fix the order or its design, then Send HP again
        </Typography>
      </Alert>
    );
  }
  if (!waiting) return null;
  return (
    <Alert severity="info" role="status" aria-label="Provider acknowledgement">
      <AlertTitle>{SUBMITTED_TITLE}</AlertTitle>
      Site Flow acknowledged the order and checks it next; its acceptance or refusal arrives as a postback (or when Presswork asks after HP_POLL_AFTER_MINUTES).
    </Alert>
  );
}
