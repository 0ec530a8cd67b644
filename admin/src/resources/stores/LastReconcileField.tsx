import { useRecordContext } from 'react-admin';
import { Typography } from '@mui/material';
import type { Store } from '../../../../common/api/orders';
import { formatDateTime } from '../../lib/format';

/** When missed orders were last pulled from the store, how many it found, and its error. */
export function LastReconcileField(_props: { label?: string; sortable?: boolean }) {
  const store = useRecordContext<Store>();
  if (!store) return null;
  if (!store.lastReconciledAt) return <Typography variant="body2" color="text.secondary">never</Typography>;
  return (
    <Typography variant="body2" component="span">
      {formatDateTime(store.lastReconciledAt)} · found {store.lastReconcileFound ?? 0}
      {store.lastReconcileError && (
        <Typography variant="body2" color="error" component="span" sx={{ display: 'block' }}>
          {store.lastReconcileError}
        </Typography>
      )}
    </Typography>
  );
}
