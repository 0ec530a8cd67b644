import { useCallback, useEffect, useMemo, useState } from 'react';
import type { Id } from '../../../../common/api/envelope';
import type { PrintJob } from '../../../../common/api/printProduction';
import { errorMessage } from '../../lib/format';
import type { PagedList } from '../../lib/usePagedList';

/** The ticked jobs of a Jobs or Print History list: rows, this page, or every job the filter matches. */
export interface JobSelection {
  /** The ticked ids in the list's order (the order a merged PDF prints in). */
  ids: Id[];
  isSelected: (id: Id) => boolean;
  toggle: (id: Id) => void;
  /** The header checkbox: every loaded row. */
  page: { checked: boolean; indeterminate: boolean; toggle: () => void };
  /** How many jobs the filter matches (null: not known) and "Select all N matching". */
  matching: { total: number | null; loading: boolean; error: string | null; selectAll: () => void };
  clear: () => void;
  /** Rows that left the list (done) leave the selection too. */
  drop: (ids: Id[]) => void;
}

const key = (id: Id) => String(id);

/**
 * `allIds` reads every matching id through the list call; `view` is the filter: a new one clears
 * the ticks (they were of another list). `idOf` names a row (its id by default; List Orders: its
 * site and store order id, what its action takes).
 */
export function useJobSelection<T extends { id: Id } = PrintJob>(list: PagedList<T>, allIds: () => Promise<Id[]>, view: unknown, idOf: (row: T) => Id = (row) => row.id): JobSelection {
  const [ticked, setTicked] = useState<Set<string>>(() => new Set());
  // Every matching id in the list's order, once fetched: it orders ticks of rows not loaded yet.
  const [matchingIds, setMatchingIds] = useState<Id[] | null>(null);
  const [loading, setLoading] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const viewKey = JSON.stringify(view);

  useEffect(() => {
    setTicked(new Set());
    setMatchingIds(null);
    setError(null);
  }, [viewKey]);

  const order = useMemo(() => {
    const loaded = list.items.map(idOf);
    if (!matchingIds) return loaded;
    const known = new Set(matchingIds.map(key));
    return [...matchingIds, ...loaded.filter((id) => !known.has(key(id)))];
  }, [list.items, matchingIds, idOf]);
  const ids = useMemo(() => order.filter((id) => ticked.has(key(id))), [order, ticked]);

  const isSelected = useCallback((id: Id) => ticked.has(key(id)), [ticked]);
  const toggle = useCallback(
    (id: Id) =>
      setTicked((t) => {
        const next = new Set(t);
        if (next.has(key(id))) next.delete(key(id));
        else next.add(key(id));
        return next;
      }),
    [],
  );
  const onPage = list.items.filter((row) => ticked.has(key(idOf(row)))).length;
  const pageChecked = list.items.length > 0 && onPage === list.items.length;
  const togglePage = () =>
    setTicked((t) => {
      const next = new Set(t);
      for (const row of list.items) {
        if (pageChecked) next.delete(key(idOf(row)));
        else next.add(key(idOf(row)));
      }
      return next;
    });

  const selectAll = () => {
    setLoading(true);
    setError(null);
    allIds().then(
      (all) => {
        setMatchingIds(all);
        setTicked(new Set(all.map(key)));
        setLoading(false);
      },
      (e: unknown) => {
        setError(errorMessage(e));
        setLoading(false);
      },
    );
  };
  const clear = useCallback(() => setTicked(new Set()), []);
  const drop = useCallback(
    (gone: Id[]) => {
      setTicked((t) => {
        const next = new Set(t);
        for (const id of gone) next.delete(key(id));
        return next;
      });
      setMatchingIds((m) => (m ? m.filter((id) => !gone.some((g) => key(g) === key(id))) : m));
    },
    [],
  );

  return {
    ids,
    isSelected,
    toggle,
    page: { checked: pageChecked, indeterminate: onPage > 0 && !pageChecked, toggle: togglePage },
    matching: { total: list.total, loading, error, selectAll },
    clear,
    drop,
  };
}
