import { useCallback, useEffect, useRef, useState } from 'react';
import { errorMessage } from '../../lib/format';
import type { DataPage, OrderRecord } from '../../providers/orders';

export interface OrderLog {
  orders: OrderRecord[];
  /** The next page to load: 1 before the first answer, 2 after it, and so on (spec §4). */
  page: number;
  /** A page came back empty: nothing more to load. */
  exhausted: boolean;
  loading: boolean;
  loadingMore: boolean;
  /** The server's error text, shown in red. */
  error: string | null;
  /** spec §2: "Load more" only when the page counter is above 1 and the list is not exhausted. */
  canLoadMore: boolean;
  reload: () => void;
  loadMore: () => void;
}

interface State {
  orders: OrderRecord[];
  page: number;
  exhausted: boolean;
  loading: boolean;
  loadingMore: boolean;
  error: string | null;
}

const INITIAL: State = { orders: [], page: 1, exhausted: false, loading: true, loadingMore: false, error: null };

/**
 * The order list's paging (spec §4): starts at page 1, the counter advances after each load, and an
 * empty page marks the list exhausted. `fetchPage` must be stable; a new one starts again at page 1.
 */
export function useOrderLog(fetchPage: (page: number) => Promise<DataPage<OrderRecord>>): OrderLog {
  const [state, setState] = useState<State>(INITIAL);
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
          const rows = Array.isArray(answer?.data) ? answer.data : [];
          nextPage.current = page + 1;
          setState((s) => {
            const seen = new Set(page === 1 ? [] : s.orders.map((o) => String(o.id)));
            const orders = page === 1 ? rows : [...s.orders, ...rows.filter((o) => !seen.has(String(o.id)))];
            return { orders, page: page + 1, exhausted: rows.length === 0, loading: false, loadingMore: false, error: null };
          });
        },
        (error: unknown) => {
          if (request !== latest.current) return;
          if (page === 1) nextPage.current = 1;
          setState((s) => ({
            ...s,
            orders: page === 1 ? [] : s.orders,
            page: page === 1 ? 1 : s.page,
            exhausted: page === 1 ? false : s.exhausted,
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
    nextPage.current = 1;
    load(1);
    const requests = latest;
    return () => {
      requests.current++; // ignore answers arriving after unmount or a filter change
    };
  }, [load]);

  const reload = useCallback(() => load(1), [load]);
  const loadMore = useCallback(() => load(nextPage.current), [load]);

  return {
    ...state,
    canLoadMore: state.page > 1 && !state.exhausted && !state.loading,
    reload,
    loadMore,
  };
}
