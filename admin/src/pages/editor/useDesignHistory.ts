import { useCallback, useMemo, useReducer } from 'react';
import {
  historyApply,
  historyBreak,
  historyOf,
  historyRedo,
  historyUndo,
  type HistoryState,
  type Operation,
} from '../../../../common/design-doc/model';
import type { DesignDocument } from '../../../../common/design-doc/types';

type Action =
  | { type: 'apply'; op: Operation; coalesce?: string }
  | { type: 'undo' }
  | { type: 'redo' }
  | { type: 'commit' }
  | { type: 'reset'; doc: DesignDocument };

function reducer(state: HistoryState, action: Action): HistoryState {
  switch (action.type) {
    case 'apply':
      return historyApply(state, action.op, { coalesce: action.coalesce });
    case 'undo':
      return historyUndo(state);
    case 'redo':
      return historyRedo(state);
    case 'commit':
      return historyBreak(state);
    case 'reset':
      return historyOf(action.doc, state.limit);
  }
}

export interface DesignHistory {
  doc: DesignDocument;
  canUndo: boolean;
  canRedo: boolean;
  /** Applies an operation as one undo step (or joins the previous step with the same coalesce key). */
  apply: (op: Operation, coalesce?: string) => void;
  undo: () => void;
  redo: () => void;
  /** The next coalesced change starts a new step (e.g. when a text box loses focus). */
  commit: () => void;
  reset: (doc: DesignDocument) => void;
}

export function useDesignHistory(initial: DesignDocument, limit = 100): DesignHistory {
  const [state, dispatch] = useReducer(reducer, undefined, () => historyOf(initial, limit));
  const apply = useCallback((op: Operation, coalesce?: string) => dispatch({ type: 'apply', op, coalesce }), []);
  const undo = useCallback(() => dispatch({ type: 'undo' }), []);
  const redo = useCallback(() => dispatch({ type: 'redo' }), []);
  const commit = useCallback(() => dispatch({ type: 'commit' }), []);
  const reset = useCallback((doc: DesignDocument) => dispatch({ type: 'reset', doc }), []);
  return useMemo(
    () => ({ doc: state.present, canUndo: state.past.length > 0, canRedo: state.future.length > 0, apply, undo, redo, commit, reset }),
    [state, apply, undo, redo, commit, reset],
  );
}
