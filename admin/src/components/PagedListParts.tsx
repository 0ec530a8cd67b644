import type { ReactNode } from 'react';
import { Box, Button, CircularProgress, Typography } from '@mui/material';
import type { PagedList } from '../lib/usePagedList';

/** The server's error text as-is, in red (spec §8). */
export function PagedListError({ list }: { list: { error: string | null } }) {
  if (!list.error) return null;
  return (
    <Typography color="error" role="alert" sx={{ p: 2 }}>
      {list.error}
    </Typography>
  );
}

/**
 * Below a paged list: "Loading..." while page 1 loads with nothing shown, the empty message once
 * the list is exhausted with nothing shown, and "Load more" (spec §2) while there may be more.
 */
export function PagedListFooter({
  list,
  emptyText,
  shown = list.items.length,
}: {
  list: Pick<PagedList<unknown>, 'loading' | 'loadingMore' | 'error' | 'exhausted' | 'canLoadMore' | 'loadMore'> & {
    items: readonly unknown[];
  };
  emptyText: ReactNode;
  /** Rows on screen, when the screen hides some of the loaded ones. */
  shown?: number;
}) {
  if (list.loading && shown === 0) {
    return (
      <Box role="status" sx={{ display: 'flex', justifyContent: 'center', alignItems: 'center', gap: 1, py: 4 }}>
        <CircularProgress size={20} />
        <Typography color="text.secondary">Loading...</Typography>
      </Box>
    );
  }
  return (
    <>
      {shown === 0 && !list.loading && !list.error && list.exhausted ? (
        <Typography color="text.secondary" sx={{ textAlign: 'center', py: 4, px: 2 }}>
          {emptyText}
        </Typography>
      ) : null}
      {list.canLoadMore ? (
        <Box sx={{ display: 'flex', justifyContent: 'center', py: 2 }}>
          <Button variant="outlined" onClick={list.loadMore} disabled={list.loadingMore}>
            {list.loadingMore ? 'Loading more...' : 'Load more'}
          </Button>
        </Box>
      ) : null}
    </>
  );
}
