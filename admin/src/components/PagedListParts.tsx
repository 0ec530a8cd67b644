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

/** Below a paged list: loading, the empty message, or "Load more" while the server has more. */
export function PagedListFooter({
  list,
  emptyText,
}: {
  list: Pick<PagedList<{ id: number | string }>, 'loading' | 'loadingMore' | 'error' | 'hasNext' | 'loadMore'> & { items: readonly unknown[] };
  emptyText: string;
}) {
  if (list.loading && list.items.length === 0) {
    return (
      <Box role="status" sx={{ display: 'flex', justifyContent: 'center', alignItems: 'center', gap: 1, py: 4 }}>
        <CircularProgress size={20} />
        <Typography color="text.secondary">Loading...</Typography>
      </Box>
    );
  }
  if (!list.loading && !list.error && list.items.length === 0) {
    return (
      <Typography color="text.secondary" sx={{ textAlign: 'center', py: 4 }}>
        {emptyText}
      </Typography>
    );
  }
  if (!list.hasNext) return null;
  return (
    <Box sx={{ display: 'flex', justifyContent: 'center', py: 2 }}>
      <Button variant="outlined" onClick={list.loadMore} disabled={list.loadingMore || list.loading}>
        {list.loadingMore ? 'Loading more...' : 'Load more'}
      </Button>
    </Box>
  );
}
