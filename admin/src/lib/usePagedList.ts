import { useCallback, useEffect, useRef, useState } from 'react';
import type { DataPage, Id, ListPage } from '../../../common/api/envelope';
import { errorMessage } from './format';

export interface PagedList<T> {
  items: T[];
  /** The next page to load: 1 until the first page arrives, then 2, and so on (spec §4). */
  page: number;
  /** Nothing more to load: an empty page came back, or the server said it has no more. */
  exhausted: boolean;
  /** Page 1 is loading (first load or reload). */
  loading: boolean;
  loadingMore: boolean;
  /** The server's error text, shown as-is in red (spec §8). */
  error: string | null;
  /** How many rows match in all (the server's `total` of the last page 1), less those dropped since; null when not told. */
  total: number | null;
  /** spec §2: "Load more" only when the page counter is above 1 and the list is not exhausted. */
  canLoadMore: boolean;
  /** Starts again from page 1. */
  reload: () => void;
  loadMore: () => void;
  /** Drops one row locally (it left this list on the server). */
  remove: (id: Id) => void;
}

export interface PagedListOptions {
  /** An empty page ends the list (the order log, spec §4), or an answer saying hasNext: false; one silent on hasNext does not. */
  untilEmptyPage?: boolean;
}

/** A product-API list page ({list, hasNext}) or a general-data one ({data, hasNext}). */
export type PageAnswer<T> = ListPage<T> | DataPage<T>;

interface State<T> {
  items: T[];
  page: number;
  exhausted: boolean;
  loading: boolean;
  loadingMore: boolean;
  error: string | null;
  total: number | null;
}

function rowsOf<T>(answer: PageAnswer<T> | undefined): T[] {
  if (answer && 'list' in answer && Array.isArray(answer.list)) return answer.list;
  if (answer && 'data' in answer && Array.isArray(answer.data)) return answer.data;
  return [];
}

/**
 * Every paged screen's list, read page by page with "Load more" from page 1 on each (re)load.
 * `fetchPage` must be stable (useCallback): a new one (a filter change) starts again at page 1.
 * Call it through useDataProvider(), whose proxy signs the user out on 401.
 */
export function usePagedList<T extends { id: Id }>(
  fetchPage: (page: number) => Promise<PageAnswer<T>>,
  { untilEmptyPage = false }: PagedListOptions = {},
): PagedList<T> {
  const [state, setState] = useState<State<T>>({ items: [], page: 1, exhausted: false, loading: true, loadingMore: false, error: null, total: null });
  // Only the latest request may write: a reload supersedes a pending "load more" and vice versa.
  const latest = useRef(0);
  const nextPage = useRef(1);

  const load = useCallback(
    (page: number) => {
      const request = ++latest.current;
      setState((s) => (page === 1 ? { ...s, loading: true, error: null } : { ...s, loadingMore: true, error: null }));
      fetchPage(page).then(
        (answer) => {
          if (request !== latest.current) return;
          const rows = rowsOf(answer);
          const exhausted = rows.length === 0 || (untilEmptyPage ? answer?.hasNext === false : !answer?.hasNext);
          nextPage.current = page + 1;
          setState((s) => {
            const seen = new Set(page === 1 ? [] : s.items.map((item) => String(item.id)));
            const items = page === 1 ? rows : [...s.items, ...rows.filter((item) => !seen.has(String(item.id)))];
            const total = answer && 'total' in answer && typeof answer.total === 'number' ? answer.total : page === 1 ? null : s.total;
            return { items, page: page + 1, exhausted, loading: false, loadingMore: false, error: null, total };
          });
        },
        (error: unknown) => {
          if (request !== latest.current) return;
          // spec §8: a failed list is empty with the error text; a failed "load more" keeps what was shown.
          if (page === 1) nextPage.current = 1;
          setState((s) =>
            page === 1
              ? { items: [], page: 1, exhausted: false, loading: false, loadingMore: false, error: errorMessage(error), total: null }
              : { ...s, loading: false, loadingMore: false, error: errorMessage(error) },
          );
        },
      );
    },
    [fetchPage, untilEmptyPage],
  );

  useEffect(() => {
    nextPage.current = 1;
    load(1);
    const requests = latest;
    return () => {
      requests.current++; // ignore answers arriving after unmount or a filter change
    };
  }, [load]);

  const reload = useCallback(() => load(1), [load]);
  const loadMore = useCallback(() => load(nextPage.current), [load]);
  const remove = useCallback(
    (id: Id) =>
      setState((s) => {
        const items = s.items.filter((item) => String(item.id) !== String(id));
        return { ...s, items, total: s.total === null || items.length === s.items.length ? s.total : Math.max(0, s.total - 1) };
      }),
    [],
  );

  return {
    ...state,
    // A reload starts the counter again at 1, so "Load more" waits for page 1's answer.
    canLoadMore: state.page > 1 && !state.exhausted && !state.loading,
    reload,
    loadMore,
    remove,
  };
}
