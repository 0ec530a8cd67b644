// The demo's store (outside production): cancel the order as the customer would in the store, so a
// newcomer sees a cancellation arrive (the store's webhook secret is masked: nobody can sign one).
import { useState } from 'react';
import { Confirm, useDataProvider, useNotify } from 'react-admin';
import { useMutation, useQuery } from '@tanstack/react-query';
import { Button, CircularProgress } from '@mui/material';
import StorefrontIcon from '@mui/icons-material/Storefront';
import type { OrderRecord } from '../../../../common/api/orders';
import { errorMessage } from '../../lib/format';
import type { AppDataProvider } from '../../providers/dataProvider';
import { storeOrderId } from '../../providers/orders';

export const DEMO_CANCEL_SENT = 'The demo store cancelled the order and sent orders/cancelled: this page shows it in a moment.';

/** Shown only for an order of the demo store's site, on a server that runs the demo store, while the order is not cancelled. */
export function DemoStoreCancelButton({ order, onDone }: { order: OrderRecord; onDone: () => void }) {
  const dataProvider = useDataProvider<AppDataProvider>();
  const notify = useNotify();
  const [open, setOpen] = useState(false);
  const demo = useQuery({ queryKey: ['demo-store'], queryFn: () => dataProvider.demoStore(), retry: false, staleTime: 60_000 });
  const cancel = useMutation({
    mutationFn: () => dataProvider.cancelInDemoStore(storeOrderId(order)),
    onSuccess: (result) => {
      setOpen(false);
      if (!result) return;
      notify(DEMO_CANCEL_SENT, { type: 'info' });
      // The webhook is answered at once and processed just after.
      setTimeout(onDone, 1_500);
    },
    onError: (error) => {
      setOpen(false);
      notify(errorMessage(error), { type: 'error' });
    },
  });
  if (order.data?.cancelled || demo.data?.siteId === null || demo.data?.siteId === undefined || String(demo.data.siteId) !== String(order.siteId)) return null;
  return (
    <>
      <Button size="small" variant="outlined" color="inherit" startIcon={cancel.isPending ? <CircularProgress size={16} /> : <StorefrontIcon fontSize="small" />} disabled={cancel.isPending} onClick={() => setOpen(true)} sx={{ alignSelf: 'flex-start' }}>
        Cancel in the demo store
      </Button>
      <Confirm
        isOpen={open}
        loading={cancel.isPending}
        title="Cancel in the demo store"
        content="Demo only: the demo store cancels this order as its customer asked, and tells Presswork (a signed orders/cancelled webhook), as a real store would."
        confirm="Cancel the order"
        cancel="Keep it"
        confirmColor="warning"
        onConfirm={() => cancel.mutate()}
        onClose={() => setOpen(false)}
      />
    </>
  );
}
