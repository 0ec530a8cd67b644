import { useDataProvider, useNotify } from 'react-admin';
import { useMutation } from '@tanstack/react-query';
import { Button, CircularProgress } from '@mui/material';
import ReplayIcon from '@mui/icons-material/Replay';
import { errorMessage } from '../../lib/format';
import type { AppDataProvider } from '../../providers/dataProvider';
import { REPRINT } from '../../providers/printProduction';
import type { PrintJobActionProps } from '../print-jobs/PrintJobTable';

/** Sends a printed job back to the Jobs queue (pessimistic: the row leaves once the server agrees). */
export function ReprintButton({ job, leave }: PrintJobActionProps) {
  const dataProvider = useDataProvider<AppDataProvider>();
  const notify = useNotify();
  const reprint = useMutation({
    mutationFn: () => dataProvider.changePrintJob(job.id, REPRINT),
    onSuccess: () => {
      notify('Sent back to Jobs for reprint', { type: 'success' });
      leave();
    },
    onError: (error) => notify(errorMessage(error), { type: 'error' }),
  });
  return (
    <Button
      variant="outlined"
      size="small"
      disabled={reprint.isPending || reprint.isSuccess}
      startIcon={reprint.isPending ? <CircularProgress size={16} /> : <ReplayIcon />}
      onClick={() => reprint.mutate()}
    >
      Reprint
    </Button>
  );
}
