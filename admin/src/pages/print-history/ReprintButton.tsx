import { createContext, useCallback, useContext, useMemo, useState, type ReactNode } from 'react';
import { useDataProvider, useNotify } from 'react-admin';
import { useMutation } from '@tanstack/react-query';
import { Button, CircularProgress } from '@mui/material';
import ReplayIcon from '@mui/icons-material/Replay';
import type { PrintJob } from '../../../../common/api/printProduction';
import type { ReprintWhy } from '../../../../common/api/reprints';
import { errorMessage } from '../../lib/format';
import type { AppDataProvider } from '../../providers/dataProvider';
import { REPRINT } from '../../providers/printProduction';
import type { PrintJobActionProps } from '../print-jobs/PrintJobTable';
import { DENSE_ACTION } from '../print-jobs/DownloadPdfButton';
import { ReprintDialog } from './ReprintDialog';

interface Reprinting {
  /** Opens the reason dialog for a job; `leave` fades its row out once the server agrees. */
  ask: (job: PrintJob, leave: () => void) => void;
  /** The job whose reprint is being sent, or whose reprint was done. */
  pending: { id: PrintJob['id']; done: boolean } | null;
}

const ReprintContext = createContext<Reprinting | null>(null);

/**
 * Holds the Reprint dialog for a whole list, above its rows: what an operator has filled in stays
 * while the rows re-render or are rebuilt under it (a list reload, a poll), and one dialog serves
 * every row. A row's `leave` removes its job from the list even if the row was rebuilt meanwhile.
 */
export function ReprintDialogHost({ children }: { children: ReactNode }) {
  const dataProvider = useDataProvider<AppDataProvider>();
  const notify = useNotify();
  const [asking, setAsking] = useState<{ job: PrintJob; leave: () => void } | null>(null);
  const reprint = useMutation({
    mutationFn: ({ job, why }: { job: PrintJob; leave: () => void; why: ReprintWhy }) => dataProvider.changePrintJob(job.id, { ...REPRINT, ...why }),
    onSuccess: (_answer, { leave }) => {
      setAsking(null);
      notify('Sent back to Jobs for reprint', { type: 'success' });
      leave();
    },
    onError: (error) => notify(errorMessage(error), { type: 'error' }),
  });
  const ask = useCallback((job: PrintJob, leave: () => void) => setAsking({ job, leave }), []);
  const pendingId = reprint.isPending || reprint.isSuccess ? reprint.variables?.job.id : undefined;
  const done = reprint.isSuccess;
  const value = useMemo<Reprinting>(() => ({ ask, pending: pendingId === undefined ? null : { id: pendingId, done } }), [ask, pendingId, done]);
  return (
    <ReprintContext.Provider value={value}>
      {children}
      {asking ? (
        <ReprintDialog
          open
          title={`Reprint ${asking.job.productName} (#${asking.job.id})`}
          busy={reprint.isPending}
          onConfirm={(why) => reprint.mutate({ job: asking.job, leave: asking.leave, why })}
          onClose={() => setAsking(null)}
        />
      ) : null}
    </ReprintContext.Provider>
  );
}

/** Asks why, then sends a printed job back to the Jobs queue (pessimistic: the row leaves once the server agrees). */
export function ReprintButton({ job, leave }: PrintJobActionProps) {
  const reprinting = useContext(ReprintContext);
  if (!reprinting) throw new Error('ReprintButton needs a ReprintDialogHost above it');
  const mine = reprinting.pending?.id === job.id ? reprinting.pending : null;
  const sending = mine !== null && !mine.done;
  return (
    <Button
      variant="outlined"
      size="small"
      disabled={mine !== null}
      startIcon={sending ? <CircularProgress size={14} /> : <ReplayIcon />}
      onClick={() => reprinting.ask(job, leave)}
      sx={DENSE_ACTION}
    >
      Reprint
    </Button>
  );
}
