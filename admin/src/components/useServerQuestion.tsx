import { useCallback, useRef, useState, type ReactNode } from 'react';
import { newActionKey } from '../lib/actionKey';
import { ApiError } from '../providers/api';
import { LazyConfirm } from './LazyConfirm';

/** A question the server asks before an action it will not take unasked (409 with details.confirmWith). */
export interface ServerQuestion {
  message: string;
  /** What to send again, added to the same call, when the operator says yes (e.g. {printInHouse: true}). */
  confirmWith: Record<string, boolean>;
}

export function serverQuestionOf(error: unknown): ServerQuestion | undefined {
  if (!(error instanceof ApiError) || error.status !== 409) return undefined;
  const details = (error.body as { details?: { confirmWith?: unknown } } | undefined)?.details;
  const confirmWith = details?.confirmWith;
  if (!confirmWith || typeof confirmWith !== 'object') return undefined;
  return { message: error.message, confirmWith: confirmWith as Record<string, boolean> };
}

/**
 * Runs an action; when the server asks first (the line is in the Jobs queue, the provider makes
 * this item…), shows its question and runs the action again with the answer only on a yes.
 * Answers undefined when the operator says no.
 *
 * Each try gets its own Idempotency-Key (the action's second argument): the server keeps its
 * question as the first try's answer, and the yes sends other data, which under the same key would
 * be refused (422). The yes is the operator's new decision, so it is a new action with a new key.
 * `firstKey`: the click's key (useActionKey), so a double click's two first tries are one action.
 */
export function useServerQuestion(title: string, confirmLabel: string): {
  withQuestion: <T>(action: (answers: Record<string, boolean>, idempotencyKey: string) => Promise<T>, firstKey?: string) => Promise<T | undefined>;
  dialog: ReactNode;
} {
  const [open, setOpen] = useState<ServerQuestion | null>(null);
  const answer = useRef<((yes: boolean) => void) | null>(null);

  const withQuestion = useCallback(async <T,>(action: (answers: Record<string, boolean>, idempotencyKey: string) => Promise<T>, firstKey?: string): Promise<T | undefined> => {
    // The server may ask more than one thing (the order is unpaid, then a line is in the Jobs
    // queue): each yes is kept and sent with the next try, each new question asked in turn.
    let answers: Record<string, boolean> = {};
    let key = firstKey ?? newActionKey();
    for (;;) {
      try {
        return await action(answers, key);
      } catch (error) {
        const question = serverQuestionOf(error);
        if (!question || Object.keys(question.confirmWith).every((k) => answers[k] === question.confirmWith[k])) throw error;
        const yes = await new Promise<boolean>((resolve) => {
          answer.current = resolve;
          setOpen(question);
        });
        if (!yes) return undefined;
        answers = { ...answers, ...question.confirmWith };
        key = newActionKey();
      }
    }
  }, []);

  const close = (yes: boolean) => {
    setOpen(null);
    answer.current?.(yes);
    answer.current = null;
  };

  const dialog = (
    <LazyConfirm isOpen={open !== null} title={title} content={open?.message ?? ''} confirm={confirmLabel} cancel="Cancel" confirmColor="warning" onConfirm={() => close(true)} onClose={() => close(false)} />
  );
  return { withQuestion, dialog };
}
