import { useDataProvider, useNotify } from 'react-admin';
import { useMutation } from '@tanstack/react-query';
import { Button, CircularProgress, Tooltip } from '@mui/material';
import MarkEmailReadIcon from '@mui/icons-material/MarkEmailRead';
import SendIcon from '@mui/icons-material/Send';
import { useServerQuestion } from '../../components/useServerQuestion';
import type { SendOutcome } from '../../../../common/api/orders';
import { errorMessage, formatDateTime } from '../../lib/format';
import type { AppDataProvider } from '../../providers/dataProvider';
import { errorDataOf } from '../../providers/orders';

export const SEND_HP_SUCCESS = 'Send HP successfully';

function queuedMessage(outcome: Extract<SendOutcome, { status: 'queued' }>): string {
  const why = outcome.error ? `: ${outcome.error}` : '';
  const when = outcome.nextAttemptAt ? `, next attempt at ${formatDateTime(outcome.nextAttemptAt)}` : '';
  return `HP did not take the order yet${why}. It is queued and will be sent again${when}.`;
}

interface SendHpButtonProps {
  orderId: string;
  /** One line only (send-hp-single-line): a small per-line button. */
  lineId?: string;
  /** Provider items exist already (sent before): a different icon (spec §2). */
  alreadySent: boolean;
  onSent: (outcome: SendOutcome) => void;
  /** The failure's errorMes, for the Error Data panel; undefined clears it. */
  onErrorData: (data: unknown) => void;
}

/** "Send HP": the whole order to the provider; the server makes a second click harmless. */
export function SendHpButton({ orderId, lineId, alreadySent, onSent, onErrorData }: SendHpButtonProps) {
  const dataProvider = useDataProvider<AppDataProvider>();
  const notify = useNotify();
  // A line in the Jobs queue is sent only after the operator says so.
  const question = useServerQuestion('Send to HP Site Flow?', 'Send to HP');
  const send = useMutation({
    mutationFn: () =>
      question.withQuestion((answers) => (lineId === undefined ? dataProvider.sendOrderToProvider(orderId, answers) : dataProvider.sendOrderLineToProvider(orderId, lineId, answers))),
    onMutate: () => onErrorData(undefined),
    onSuccess: (outcome) => {
      if (!outcome) return; // signed out meanwhile (401), or the operator said no
      if (outcome.status === 'queued') notify(queuedMessage(outcome), { type: 'warning', autoHideDuration: 10_000 });
      else notify(SEND_HP_SUCCESS, { type: 'success' });
      onSent(outcome);
    },
    onError: (error) => {
      notify(errorMessage(error), { type: 'error', autoHideDuration: 10_000 });
      onErrorData(errorDataOf(error));
    },
  });
  const icon = send.isPending ? (
    <CircularProgress size={16} />
  ) : alreadySent ? (
    <MarkEmailReadIcon fontSize="small" />
  ) : (
    <SendIcon fontSize="small" />
  );
  if (lineId !== undefined) {
    return (
      <Tooltip title={`Send only this line to HP`}>
        <span>
          {question.dialog}
          <Button size="small" startIcon={icon} disabled={send.isPending} onClick={() => send.mutate()} aria-label={`Send line ${lineId} to HP`} sx={{ minWidth: 0, whiteSpace: 'nowrap' }}>
            Line
          </Button>
        </span>
      </Tooltip>
    );
  }
  return (
    <Tooltip title={alreadySent ? 'Already sent to HP: send again' : 'Send this order to HP'}>
      <span>
        {question.dialog}
        <Button size="small" variant="contained" startIcon={icon} disabled={send.isPending} onClick={() => send.mutate()} sx={{ whiteSpace: 'nowrap' }}>
          Send HP
        </Button>
      </span>
    </Tooltip>
  );
}
