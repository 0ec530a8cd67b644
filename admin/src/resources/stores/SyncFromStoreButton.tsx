import { useState } from 'react';
import { useDataProvider, useNotify, useRefresh } from 'react-admin';
import { useMutation } from '@tanstack/react-query';
import { Button, CircularProgress, Stack, Typography } from '@mui/material';
import SyncIcon from '@mui/icons-material/Sync';
import type { ReconcileCounts } from '../../../../common/api/orders';
import { retryLostAnswers, useActionKey } from '../../lib/actionKey';
import { errorMessage } from '../../lib/format';
import type { AppDataProvider } from '../../providers/dataProvider';

export const countsText = (c: ReconcileCounts) => `Found ${c.found}: ${c.stored} stored, ${c.alreadyKnown} already known`;

/**
 * Sync from store: asks the store now for the orders it changed since the last look (missed
 * webhooks) and stores the ones Presswork did not have. One key per click: a repeat is answered
 * with the first run's counts, never a second run.
 */
export function SyncFromStoreButton({ siteSlug }: { siteSlug: string }) {
  const dataProvider = useDataProvider<AppDataProvider>();
  const notify = useNotify();
  const refresh = useRefresh();
  const actionKey = useActionKey();
  const [counts, setCounts] = useState<ReconcileCounts | null>(null);
  const sync = useMutation({
    mutationFn: (key: string) => dataProvider.reconcileStore(siteSlug, key),
    ...retryLostAnswers,
    onSettled: actionKey.end,
    onSuccess: (result) => {
      if (!result) return; // signed out meanwhile (401)
      setCounts(result);
      notify(countsText(result), { type: 'success', autoHideDuration: 10_000 });
      refresh();
    },
    onError: (error) => notify(errorMessage(error), { type: 'error', autoHideDuration: 10_000 }),
  });
  return (
    <Stack direction="row" spacing={1} sx={{ alignItems: 'center' }} onClick={(e) => e.stopPropagation()}>
      <Button
        size="small"
        variant="outlined"
        startIcon={sync.isPending ? <CircularProgress size={16} /> : <SyncIcon fontSize="small" />}
        disabled={sync.isPending}
        onClick={() => sync.mutate(actionKey.begin())}
        sx={{ whiteSpace: 'nowrap', flexShrink: 0 }}
      >
        Sync from store
      </Button>
      {counts && (
        <Typography variant="body2" color="text.secondary" role="status">
          {countsText(counts)}
        </Typography>
      )}
    </Stack>
  );
}
