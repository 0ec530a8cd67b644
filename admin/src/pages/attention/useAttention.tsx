// One poll of GET /api/attention for the whole app: the Needs attention page and the menu's badge
// read the same answer, asked every 30 s while the tab is visible (and at once when it comes back),
// so a count changes without a reload and two parts of the screen never disagree. Each ask sends
// the ETag of the answer held: while nothing changed the server answers 304, with no list to send.
import { createContext, useCallback, useContext, useEffect, useRef, useState, type ReactNode } from 'react';
import { usePermissions } from 'react-admin';
import { ATTENTION_POLL_MS, type AttentionAnswer } from '../../../../common/api/attention';
import { errorMessage } from '../../lib/format';
import { apiIfChanged } from '../../providers/api';

export interface AttentionState {
  answer: AttentionAnswer | null;
  /** The last poll's refusal, as the server said it (the last answer stays shown). */
  error: string | null;
  /** Asks again now (after a fix, or the page's Refresh). */
  refresh: () => void;
}

const AttentionContext = createContext<AttentionState>({ answer: null, error: null, refresh: () => undefined });

export function AttentionProvider({ children }: { children: ReactNode }) {
  const { permissions } = usePermissions();
  const signedIn = Boolean(permissions);
  const [answer, setAnswer] = useState<AttentionAnswer | null>(null);
  const [error, setError] = useState<string | null>(null);
  const inFlight = useRef<AbortController | null>(null);
  const etag = useRef<string | null>(null);

  const refresh = useCallback(() => {
    inFlight.current?.abort();
    const controller = new AbortController();
    inFlight.current = controller;
    apiIfChanged<AttentionAnswer>('/api/attention', etag.current, controller.signal).then(
      (changed) => {
        if (controller.signal.aborted) return;
        if (changed) {
          etag.current = changed.etag;
          setAnswer(changed.data);
        }
        setError(null);
      },
      (err: unknown) => {
        if (!controller.signal.aborted) setError(errorMessage(err));
      },
    );
  }, []);

  useEffect(() => {
    if (!signedIn) return;
    let timer: ReturnType<typeof setInterval> | undefined;
    const start = () => {
      if (timer !== undefined || document.hidden) return;
      refresh();
      timer = setInterval(refresh, ATTENTION_POLL_MS);
    };
    const stop = () => {
      if (timer !== undefined) clearInterval(timer);
      timer = undefined;
    };
    // A hidden tab asks nothing; shown again, it asks at once and resumes.
    const onVisibility = () => (document.hidden ? stop() : start());
    start();
    document.addEventListener('visibilitychange', onVisibility);
    return () => {
      stop();
      document.removeEventListener('visibilitychange', onVisibility);
      inFlight.current?.abort();
    };
  }, [signedIn, refresh]);

  return <AttentionContext.Provider value={{ answer, error, refresh }}>{children}</AttentionContext.Provider>;
}

export const useAttention = (): AttentionState => useContext(AttentionContext);
