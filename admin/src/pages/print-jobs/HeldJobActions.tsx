import { useState } from 'react';
import { Confirm, useDataProvider, useNotify } from 'react-admin';
import { useMutation } from '@tanstack/react-query';
import { Button, CircularProgress, Stack } from '@mui/material';
import DoneAllIcon from '@mui/icons-material/DoneAll';
import RefreshIcon from '@mui/icons-material/Refresh';
import { retryLostAnswers, useActionKey } from '../../lib/actionKey';
import { errorMessage } from '../../lib/format';
import type { AppDataProvider } from '../../providers/dataProvider';
import type { PrintJob } from '../../../../common/api/printProduction';

export const APPROVE_ANYWAY_MEANING = 'It prints as it is; recorded as approved by you.';

interface HeldJobActionsProps {
  job: PrintJob;
  /** The server's answer to Approve anyway: the job, no longer held. */
  onApproved: (job: PrintJob) => void;
  /** The server's answer to Re-check: the job with its new findings, held or not. */
  onRechecked: (job: PrintJob) => void;
}

/** A held job's two ways out: Approve anyway (after a confirm) or Re-check (after the design was fixed). */
export function HeldJobActions({ job, onApproved, onRechecked }: HeldJobActionsProps) {
  const dataProvider = useDataProvider<AppDataProvider>();
  const notify = useNotify();
  const [confirming, setConfirming] = useState(false);
  const approveKey = useActionKey();
  const recheckKey = useActionKey();
  const approve = useMutation({
    // The click's key travels as the mutation's variables, so a retry sends it again.
    mutationFn: (idempotencyKey: string) => dataProvider.approvePrintJob(job.id, idempotencyKey),
    ...retryLostAnswers,
    onSettled: approveKey.end,
    onSuccess: (approved) => {
      setConfirming(false);
      if (approved && typeof approved === 'object') onApproved(approved); // not when signed out meanwhile (401)
    },
    onError: (error) => {
      setConfirming(false);
      notify(errorMessage(error), { type: 'error' });
    },
  });
  const recheck = useMutation({
    mutationFn: (idempotencyKey: string) => dataProvider.recheckPrintJob(job.id, idempotencyKey),
    ...retryLostAnswers,
    onSettled: recheckKey.end,
    onSuccess: (checked) => {
      if (checked && typeof checked === 'object') onRechecked(checked);
    },
    onError: (error) => notify(errorMessage(error), { type: 'error' }),
  });
  // One action at a time: approving a job while it is being checked again would race its answer.
  const busy = approve.isPending || recheck.isPending;
  const name = job.productName || `job ${job.id}`;
  return (
    <Stack direction="row" useFlexGap spacing={1} sx={{ flexWrap: 'wrap', alignItems: 'center' }}>
      <Button
        size="small"
        // Contained: the theme's yellow as a fill under dark text (as outline text it is unreadable).
        variant="contained"
        color="warning"
        disableElevation
        disabled={busy}
        startIcon={approve.isPending ? <CircularProgress size={16} color="inherit" /> : <DoneAllIcon />}
        onClick={() => setConfirming(true)}
      >
        Approve anyway
      </Button>
      <Button
        size="small"
        variant="outlined"
        disabled={busy}
        startIcon={recheck.isPending ? <CircularProgress size={16} color="inherit" /> : <RefreshIcon />}
        onClick={() => recheck.mutate(recheckKey.begin())}
      >
        Re-check
      </Button>
      <Confirm
        isOpen={confirming}
        loading={approve.isPending}
        title={`Approve ${name} anyway?`}
        content={APPROVE_ANYWAY_MEANING}
        confirm="Approve anyway"
        confirmColor="warning"
        onConfirm={() => approve.mutate(approveKey.begin())}
        onClose={() => setConfirming(false)}
      />
    </Stack>
  );
}
