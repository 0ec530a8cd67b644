import { useState } from 'react';
import { useDataProvider, useNotify } from 'react-admin';
import { useMutation } from '@tanstack/react-query';
import { Button, CircularProgress, Tooltip } from '@mui/material';
import MarkEmailReadIcon from '@mui/icons-material/MarkEmailRead';
import SendIcon from '@mui/icons-material/Send';
import { useServerQuestion } from '../../components/useServerQuestion';
import type { SendOutcome } from '../../../../common/api/orders';
import { useActionKey } from '../../lib/actionKey';
import { errorMessage, formatDateTime } from '../../lib/format';
import type { AppDataProvider } from '../../providers/dataProvider';
import { errorDataOf } from '../../providers/orders';

/** The spec's success alert (§8); the toast goes on to say what happened. */
export const SEND_HP_SUCCESS = 'Send HP successfully';

/** "Send HP successfully: HP Site Flow has the order (HP order 9f3…) and prints and ships it." */
export function sentMessage(outcome: { hpOrderId: string | null }, line: boolean): string {
  const what = line ? 'this line' : 'the order';
  return `${SEND_HP_SUCCESS}: HP Site Flow has ${what}${outcome.hpOrderId ? ` (HP order ${outcome.hpOrderId})` : ''} and prints and ships it.`;
}

/** What a click on an order HP already has says (and the disabled button's tooltip). */
export function alreadySentMessage(sentAt: string | null | undefined): string {
  return sentAt ? `Already sent to HP on ${formatDateTime(sentAt)}` : 'Already sent to HP';
}

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
  /** HP has it (sent from here, or shipped): the button is disabled and says when it went. */
  sentBefore?: { sentAt: string | null } | null;
  /** Cancelled or shipped: disabled, saying this (a send could only be refused). */
  blocked?: string | null;
  onSent: (outcome: SendOutcome) => void;
  /** The failure's errorMes, for the Error Data panel; undefined clears it. */
  onErrorData: (data: unknown) => void;
}

/** "Send HP": the whole order to the provider; the server makes a second click harmless. */
export function SendHpButton({ orderId, lineId, alreadySent, sentBefore, blocked = null, onSent, onErrorData }: SendHpButtonProps) {
  const dataProvider = useDataProvider<AppDataProvider>();
  const notify = useNotify();
  // This button's own answer: a second send would only be answered "already sent".
  const [answered, setAnswered] = useState<{ sentAt: string | null } | null>(null);
  const done = answered ?? sentBefore ?? null;
  // A line in the Jobs queue is sent only after the operator says so.
  const question = useServerQuestion('Send to HP Site Flow?', 'Send to HP');
  const actionKey = useActionKey();
  const send = useMutation({
    mutationFn: (clickKey: string) =>
      question.withQuestion(
        (answers, key) => (lineId === undefined ? dataProvider.sendOrderToProvider(orderId, answers, key) : dataProvider.sendOrderLineToProvider(orderId, lineId, answers, key)),
        clickKey,
      ),
    onSettled: actionKey.end,
    onMutate: () => onErrorData(undefined),
    onSuccess: (outcome) => {
      if (!outcome) return; // signed out meanwhile (401), or the operator said no
      if (outcome.status === 'queued') notify(queuedMessage(outcome), { type: 'warning', autoHideDuration: 10_000 });
      else if (outcome.status === 'already-sent') notify(alreadySentMessage(outcome.sentAt), { type: 'info' });
      else notify(sentMessage(outcome, lineId !== undefined), { type: 'success' });
      if (outcome.status !== 'queued') setAnswered({ sentAt: outcome.sentAt ?? null });
      onSent(outcome);
    },
    onError: (error) => {
      notify(errorMessage(error), { type: 'error', autoHideDuration: 10_000 });
      onErrorData(errorDataOf(error));
    },
  });
  const icon = send.isPending ? (
    <CircularProgress size={16} />
  ) : alreadySent || done ? (
    <MarkEmailReadIcon fontSize="small" />
  ) : (
    <SendIcon fontSize="small" />
  );
  if (lineId !== undefined) {
    return (
      <Tooltip title={done ? alreadySentMessage(done.sentAt) : (blocked ?? 'Send only this line to HP Site Flow (a provider order of its own)')}>
        <span>
          {question.dialog}
          <Button size="small" startIcon={icon} disabled={send.isPending || done !== null || blocked !== null} onClick={() => send.mutate(actionKey.begin())} aria-label={`Send line ${lineId} to HP`} sx={{ minWidth: 0, py: 0, px: 1, fontSize: 12, whiteSpace: 'nowrap', textTransform: 'none' }}>
            Line to HP
          </Button>
        </span>
      </Tooltip>
    );
  }
  return (
    <Tooltip title={done ? alreadySentMessage(done.sentAt) : (blocked ?? (alreadySent ? 'Already sent to HP: send again' : 'Send this order to HP'))}>
      <span>
        {question.dialog}
        <Button size="small" variant="contained" startIcon={icon} disabled={send.isPending || done !== null || blocked !== null} onClick={() => send.mutate(actionKey.begin())} sx={{ whiteSpace: 'nowrap' }}>
          Send HP
        </Button>
      </span>
    </Tooltip>
  );
}
