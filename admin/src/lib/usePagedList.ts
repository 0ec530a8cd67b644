import { useCallback, useEffect, useRef, useState } from 'react';
import type { Id, ListPage } from '../providers/printProduction';
import { errorMessage } from './format';

export interface PagedList<T> {
  items: T[];
  hasNext: boolean;
  /** The first page is loading (initial load or reload). */
  loading: boolean;
  loadingMore: boolean;
  /** The server's error text, shown as-is (spec §8). */
  error: string | null;
  /** Starts again from page 1. */
  reload: () => void;
  loadMore: () => void;
  /** Drops one row locally (it left this list on the server). */
  remove: (id: Id) => void;
}

interface State<T> {
  items: T[];
  page: number;
  hasNext: boolean;
  loading: boolean;
  loadingMore: boolean;
  error: string | null;
}

/**
 * A product-API list read page by page ("Load more"), from page 1 on every reload.
 * `fetchPage` must be stable (useCallback): a new one reloads the list. Use it through
 * useDataProvider(), whose proxy signs the user out on 401.
 */
export function usePagedList<T extends { id: Id }>(fetchPage: (page: number) => Promise<ListPage<T>>): PagedList<T> {
  const [state, setState] = useState<State<T>>({ items: [], page: 0, hasNext: false, loading: true, loadingMore: false, error: null });
  // Only the latest request may write: a reload supersedes a pending "load more" and vice versa.
  const latest = useRef(0);
  const pageRef = useRef(0);

  const load = useCallback(
    (page: number) => {
      const request = ++latest.current;
      setState((s) => (page === 1 ? { ...s, loading: true, error: null } : { ...s, loadingMore: true, error: null }));
      fetchPage(page).then(
        (answer) => {
          if (request !== latest.current) return;
          pageRef.current = page;
          setState((s) => {
            const list = answer?.list ?? [];
            let items = list;
            if (page > 1) {
              const seen = new Set(s.items.map((item) => String(item.id)));
              items = [...s.items, ...list.filter((item) => !seen.has(String(item.id)))];
            }
            return { items, page, hasNext: Boolean(answer?.hasNext), loading: false, loadingMore: false, error: null };
          });
        },
        (error: unknown) => {
          if (request !== latest.current) return;
          setState((s) => ({
            ...s,
            items: page === 1 ? [] : s.items,
            hasNext: page === 1 ? false : s.hasNext,
            loading: false,
            loadingMore: false,
            error: errorMessage(error),
          }));
        },
      );
    },
    [fetchPage],
  );

  useEffect(() => {
    load(1);
    const requests = latest;
    return () => {
      requests.current++; // ignore answers arriving after unmount
    };
  }, [load]);

  const reload = useCallback(() => load(1), [load]);
  const loadMore = useCallback(() => load(pageRef.current + 1), [load]);
  const remove = useCallback(
    (id: Id) => setState((s) => ({ ...s, items: s.items.filter((item) => String(item.id) !== String(id)) })),
    [],
  );

  return {
    items: state.items,
    hasNext: state.hasNext,
    loading: state.loading,
    loadingMore: state.loadingMore,
    error: state.error,
    reload,
    loadMore,
    remove,
  };
}
