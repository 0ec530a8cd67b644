import { describe, expect, it } from 'vitest';
import { act, renderHook, waitFor } from '@testing-library/react';
import type { DataPage, ListPage } from '../../../common/api/envelope';
import { usePagedList } from './usePagedList';

interface Row {
  id: number;
}

const rows = (...ids: number[]): Row[] => ids.map((id) => ({ id }));
const listPage = (list: Row[], hasNext: boolean): ListPage<Row> => ({ list, hasNext, total: 99 });
const dataPage = (data: Row[], hasNext = false): DataPage<Row> => ({ data, hasNext, total: data.length });

function deferred<T>() {
  let resolve!: (value: T) => void;
  let reject!: (error: unknown) => void;
  const promise = new Promise<T>((res, rej) => {
    resolve = res;
    reject = rej;
  });
  return { promise, resolve, reject };
}

describe('usePagedList', () => {
  it('counts pages from 1 and offers "Load more" only after page 1, while the server has more', async () => {
    const pages: number[] = [];
    const fetchPage = (page: number) => {
      pages.push(page);
      return Promise.resolve(page === 1 ? listPage(rows(1, 2), true) : listPage(rows(2, 3), false));
    };
    const { result } = renderHook(() => usePagedList(fetchPage));
    expect(result.current).toMatchObject({ page: 1, loading: true, canLoadMore: false });
    await waitFor(() => expect(result.current.loading).toBe(false));
    expect(result.current).toMatchObject({ page: 2, exhausted: false, canLoadMore: true });

    act(() => result.current.loadMore());
    expect(result.current.loadingMore).toBe(true);
    await waitFor(() => expect(result.current.loadingMore).toBe(false));
    // A row already shown (it moved between pages) is not shown twice.
    expect(result.current.items.map((r) => r.id)).toEqual([1, 2, 3]);
    expect(result.current).toMatchObject({ page: 3, exhausted: true, canLoadMore: false });
    expect(pages).toEqual([1, 2]);
  });

  it('with untilEmptyPage, goes on while hasNext is not said and stops at the first empty page (the order log)', async () => {
    // An answer silent on hasNext (an older server's).
    const fetchPage = (page: number) => Promise.resolve((page < 3 ? { data: rows(page) } : { data: [] }) as unknown as DataPage<Row>);
    const { result } = renderHook(() => usePagedList(fetchPage, { untilEmptyPage: true }));
    await waitFor(() => expect(result.current.canLoadMore).toBe(true));
    act(() => result.current.loadMore());
    await waitFor(() => expect(result.current.items).toHaveLength(2));
    expect(result.current.canLoadMore).toBe(true);
    act(() => result.current.loadMore());
    await waitFor(() => expect(result.current.exhausted).toBe(true));
    expect(result.current).toMatchObject({ page: 4, canLoadMore: false });
    expect(result.current.items.map((r) => r.id)).toEqual([1, 2]);
  });

  it('with untilEmptyPage, an answer saying hasNext: false ends the list too (a one-result search offers no "Load more")', async () => {
    const fetchPage = () => Promise.resolve(dataPage(rows(1)));
    const { result } = renderHook(() => usePagedList(fetchPage, { untilEmptyPage: true }));
    await waitFor(() => expect(result.current.exhausted).toBe(true));
    expect(result.current.canLoadMore).toBe(false);
  });

  it('marks an empty first page exhausted, whatever hasNext says', async () => {
    const fetchPage = () => Promise.resolve(listPage([], true));
    const { result } = renderHook(() => usePagedList(fetchPage));
    await waitFor(() => expect(result.current.loading).toBe(false));
    expect(result.current).toMatchObject({ items: [], exhausted: true, canLoadMore: false });
  });

  it('hides "Load more" while a reload of page 1 is pending, and starts the list again from its answer', async () => {
    let first = deferred<ListPage<Row>>();
    const fetchPage = (page: number) => (page === 1 ? first.promise : Promise.resolve(listPage(rows(5), true)));
    const { result } = renderHook(() => usePagedList(fetchPage));
    await act(async () => first.resolve(listPage(rows(1), true)));
    act(() => result.current.loadMore());
    await waitFor(() => expect(result.current.items).toHaveLength(2));

    first = deferred<ListPage<Row>>();
    act(() => result.current.reload());
    expect(result.current).toMatchObject({ loading: true, canLoadMore: false });
    expect(result.current.items).toHaveLength(2); // the rows stay until the new page 1 arrives
    await act(async () => first.resolve(listPage(rows(7), true)));
    expect(result.current.items.map((r) => r.id)).toEqual([7]);
    expect(result.current).toMatchObject({ page: 2, canLoadMore: true });
  });

  it('a failed page 1 empties the list with the error; a failed "load more" keeps the rows and the button', async () => {
    let fail = true;
    const fetchPage = (page: number) =>
      page === 1 && fail ? Promise.reject(new Error('Database is unavailable')) : page === 1 ? Promise.resolve(listPage(rows(1), true)) : Promise.reject(new Error('Timed out'));
    const { result } = renderHook(() => usePagedList(fetchPage));
    await waitFor(() => expect(result.current.error).toBe('Database is unavailable'));
    expect(result.current).toMatchObject({ items: [], page: 1, exhausted: false, canLoadMore: false });

    fail = false;
    act(() => result.current.reload());
    await waitFor(() => expect(result.current.items).toHaveLength(1));
    expect(result.current.error).toBeNull();
    act(() => result.current.loadMore());
    await waitFor(() => expect(result.current.error).toBe('Timed out'));
    expect(result.current).toMatchObject({ page: 2, canLoadMore: true });
    expect(result.current.items).toHaveLength(1);
  });

  it('lets only the latest request write: a reload supersedes a pending "load more"', async () => {
    const second = deferred<ListPage<Row>>();
    let firstCalls = 0;
    const fetchPage = (page: number) => (page === 1 ? Promise.resolve(listPage(rows(++firstCalls === 1 ? 1 : 9), true)) : second.promise);
    const { result } = renderHook(() => usePagedList(fetchPage));
    await waitFor(() => expect(result.current.canLoadMore).toBe(true));
    act(() => result.current.loadMore());
    act(() => result.current.reload());
    await waitFor(() => expect(result.current.items.map((r) => r.id)).toEqual([9]));
    await act(async () => second.resolve(listPage(rows(2), false)));
    expect(result.current.items.map((r) => r.id)).toEqual([9]);
    expect(result.current).toMatchObject({ page: 2, canLoadMore: true });
  });

  it('drops a row locally with remove', async () => {
    const fetchPage = () => Promise.resolve(listPage(rows(1, 2), false));
    const { result } = renderHook(() => usePagedList(fetchPage));
    await waitFor(() => expect(result.current.items).toHaveLength(2));
    act(() => result.current.remove('1'));
    expect(result.current.items.map((r) => r.id)).toEqual([2]);
  });
});
