import { useState } from 'react';
import { useDataProvider, useNotify } from 'react-admin';
import { useMutation } from '@tanstack/react-query';
import { Button, CircularProgress } from '@mui/material';
import ReplayIcon from '@mui/icons-material/Replay';
import type { ReprintWhy } from '../../../../common/api/reprints';
import { errorMessage } from '../../lib/format';
import type { AppDataProvider } from '../../providers/dataProvider';
import { REPRINT } from '../../providers/printProduction';
import type { PrintJobActionProps } from '../print-jobs/PrintJobTable';
import { ReprintDialog } from './ReprintDialog';

/** Asks why, then sends a printed job back to the Jobs queue (pessimistic: the row leaves once the server agrees). */
export function ReprintButton({ job, leave }: PrintJobActionProps) {
  const dataProvider = useDataProvider<AppDataProvider>();
  const notify = useNotify();
  const [asking, setAsking] = useState(false);
  const reprint = useMutation({
    mutationFn: (why: ReprintWhy) => dataProvider.changePrintJob(job.id, { ...REPRINT, ...why }),
    onSuccess: () => {
      setAsking(false);
      notify('Sent back to Jobs for reprint', { type: 'success' });
      leave();
    },
    onError: (error) => notify(errorMessage(error), { type: 'error' }),
  });
  return (
    <>
      <Button
        variant="outlined"
        size="small"
        disabled={reprint.isPending || reprint.isSuccess}
        startIcon={reprint.isPending ? <CircularProgress size={16} /> : <ReplayIcon />}
        onClick={() => setAsking(true)}
      >
        Reprint
      </Button>
      {asking ? (
        <ReprintDialog open title={`Reprint ${job.productName} (#${job.id})`} busy={reprint.isPending} onConfirm={(why) => reprint.mutate(why)} onClose={() => setAsking(false)} />
      ) : null}
    </>
  );
}
