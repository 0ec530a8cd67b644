// Jobs opened on one job (?job=<id>, from Needs attention or the header search): the list is read
// on until that job's row is there, which is scrolled to and highlighted; a job that left the list
// meanwhile is said so.
import { useEffect, type ReactNode } from 'react';
import { useSearchParams } from 'react-router-dom';
import { Alert } from '@mui/material';
import type { PagedList } from '../../lib/usePagedList';
import type { PrintJob } from '../../../../common/api/printProduction';

/** How many pages are read looking for the job (a queue of a few hundred jobs). */
export const HIGHLIGHT_MAX_PAGES = 25;

/** The row's style while it is the one asked for. */
export const HIGHLIGHT_SX = { '& [data-highlighted="true"]': { outline: '3px solid', outlineColor: 'secondary.main', outlineOffset: '-3px', bgcolor: 'action.selected' } };

/** `rowPrefix`: the rows' data-testid before the job's id (print-job-, held-job-). */
export function useJobHighlight(list: PagedList<PrintJob>, rowPrefix: string): { missing: ReactNode } {
  const [params] = useSearchParams();
  const asked = Number(params.get('job')) || null;
  const found = asked !== null && list.items.some((j) => Number(j.id) === asked);
  const { loading, loadingMore, exhausted, page, loadMore } = list;
  // Read on until the job is there (or the list ends, or enough pages were read).
  useEffect(() => {
    if (asked === null || found || loading || loadingMore || exhausted || page > HIGHLIGHT_MAX_PAGES) return;
    loadMore();
  }, [asked, found, loading, loadingMore, exhausted, page, loadMore]);
  // Once its row is drawn: scrolled to, and marked. The table may draw it after the list has it
  // (the Held tab's table loads on first use), so its arrival is watched for.
  useEffect(() => {
    if (!found || asked === null) return;
    let row: Element | null = null;
    const mark = () => {
      row = document.querySelector(`[data-testid="${rowPrefix}${asked}"]`);
      if (!row) return false;
      row.setAttribute('data-highlighted', 'true');
      row.scrollIntoView?.({ block: 'center' });
      return true;
    };
    let watch: MutationObserver | undefined;
    if (!mark()) {
      watch = new MutationObserver(() => {
        if (mark()) watch?.disconnect();
      });
      watch.observe(document.body, { childList: true, subtree: true });
    }
    return () => {
      watch?.disconnect();
      (row as Element | null)?.removeAttribute('data-highlighted');
    };
  }, [found, asked, rowPrefix, list.items]);
  const gone = asked !== null && !found && !loading && !loadingMore && (exhausted || page > HIGHLIGHT_MAX_PAGES);
  return {
    missing: gone ? (
      <Alert severity="info" sx={{ mx: 2, my: 1 }}>
        Job {asked} is not in this list any more: it was printed, approved, withdrawn or deleted meanwhile. Search it in the header to find where it is.
      </Alert>
    ) : null,
  };
}
