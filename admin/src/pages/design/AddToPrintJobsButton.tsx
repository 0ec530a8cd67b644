import { useDataProvider, useGetIdentity, useNotify } from 'react-admin';
import { useMutation } from '@tanstack/react-query';
import { Button, CircularProgress } from '@mui/material';
import PrintIcon from '@mui/icons-material/Print';
import type { Id } from '../../../../common/api/envelope';
import type { Design } from '../../../../common/api/printProduction';
import { retryLostAnswers, useActionKey } from '../../lib/actionKey';
import { errorMessage } from '../../lib/format';
import type { AppDataProvider } from '../../providers/dataProvider';
import { designHasData } from '../../providers/printProduction';

export const ADDED_MESSAGE = 'Successfully added a print job';

/** Queues one print of the design for the user's site; offered only when the design has data. */
export function AddToPrintJobsButton({ design }: { design: Design }) {
  const dataProvider = useDataProvider<AppDataProvider>();
  const notify = useNotify();
  const { identity } = useGetIdentity();
  const actionKey = useActionKey();
  const add = useMutation({
    // The click's key travels as the mutation's variables, so a retry sends it again.
    mutationFn: (idempotencyKey: string) =>
      dataProvider.createPrintJob({
        clientId: (identity?.siteId as Id | null | undefined) ?? null,
        artworkUrls: design.data?.artworkUrls ?? [],
        previewUrl: design.image,
        productId: design.productId,
        productName: design.name,
        designId: design.id,
        quantity: 1,
      }, idempotencyKey),
    ...retryLostAnswers,
    onSettled: actionKey.end,
    onSuccess: () => notify(ADDED_MESSAGE, { type: 'success' }),
    onError: (error) => notify(errorMessage(error), { type: 'error' }),
  });
  if (!designHasData(design)) return null;
  return (
    <Button
      variant="contained"
      color="secondary"
      size="small"
      disabled={add.isPending || !identity}
      startIcon={add.isPending ? <CircularProgress size={16} color="inherit" /> : <PrintIcon />}
      onClick={() => add.mutate(actionKey.begin())}
    >
      Add to print jobs
    </Button>
  );
}
