import { useState } from 'react';
import { Confirm, useDataProvider, useNotify } from 'react-admin';
import { useMutation } from '@tanstack/react-query';
import { Button, CircularProgress } from '@mui/material';
import CancelIcon from '@mui/icons-material/Cancel';
import { useActionKey } from '../../lib/actionKey';
import { errorMessage } from '../../lib/format';
import type { AppDataProvider } from '../../providers/dataProvider';

export const CANCEL_AT_HP_SUCCESS = 'Cancelled at HP';

/** Cancels the order at HP Site Flow, after a yes; a cancel cannot be taken back. */
export function CancelAtHpButton({ orderId, onDone }: { orderId: string; onDone: () => void }) {
  const dataProvider = useDataProvider<AppDataProvider>();
  const notify = useNotify();
  const [open, setOpen] = useState(false);
  const actionKey = useActionKey();
  const cancel = useMutation({
    mutationFn: (key: string) => dataProvider.cancelOrderAtProvider(orderId, key),
    onSettled: actionKey.end,
    onSuccess: (result) => {
      setOpen(false);
      if (!result) return; // signed out meanwhile (401)
      // Still pending: HP did not answer yet; the step is retried and the order shows how it ends.
      if (result.status === 'pending') notify(`Cancelling at HP: ${result.message}`, { type: 'info', autoHideDuration: 10_000 });
      else notify(CANCEL_AT_HP_SUCCESS, { type: 'success', autoHideDuration: 10_000 });
      onDone();
    },
    onError: (error) => {
      setOpen(false);
      notify(errorMessage(error), { type: 'error', autoHideDuration: 10_000 });
    },
  });
  return (
    <>
      <Button
        size="small"
        color="warning"
        variant="outlined"
        startIcon={cancel.isPending ? <CircularProgress size={16} /> : <CancelIcon fontSize="small" />}
        disabled={cancel.isPending}
        onClick={() => setOpen(true)}
        sx={{ alignSelf: 'flex-start' }}
      >
        Cancel at HP
      </Button>
      <Confirm
        isOpen={open}
        loading={cancel.isPending}
        title="Cancel at HP"
        content="HP Site Flow will not print or ship this order. Cancel it there?"
        confirm="Cancel at HP"
        cancel="Keep it"
        confirmColor="warning"
        onConfirm={() => cancel.mutate(actionKey.begin())}
        onClose={() => setOpen(false)}
      />
    </>
  );
}
