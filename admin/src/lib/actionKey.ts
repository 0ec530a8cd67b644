// One Idempotency-Key per user action (a click of Add to print jobs, Save, Send): the server runs
// the action once for a key and answers its first result to every repeat of it.
import { useMemo, useRef } from 'react';
import { ApiError } from '../providers/api';

export const newActionKey = (): string => crypto.randomUUID();

/**
 * The key of the action a button starts. A second click that lands before the button is disabled
 * (the same tick) gets the running action's key, so the server answers it with the first result;
 * once the action has settled, the next click is a new action with a new key.
 */
export function useActionKey(): { begin(): string; end(): void } {
  const running = useRef<string | null>(null);
  return useMemo(
    () => ({
      begin: () => (running.current ??= newActionKey()),
      end: () => {
        running.current = null;
      },
    }),
    [],
  );
}

/**
 * react-query `retry` of a keyed action: a call whose answer never arrived (the network failed, or
 * the server answered 409 because that key is still being processed) is sent again with the same
 * key, which is safe: it cannot run the action twice. Any other answer is final.
 */
function retryLostAnswer(failures: number, error: unknown): boolean {
  if (failures >= 2) return false;
  if (error instanceof ApiError) return error.status === 409 && error.message.startsWith('This action is still being processed');
  return error instanceof TypeError;
}

/** The mutation options of a keyed action: retry a lost answer soon, with the same key (the mutation's variables). */
export const retryLostAnswers = { retry: retryLostAnswer, retryDelay: (failures: number) => 300 * 2 ** failures };
