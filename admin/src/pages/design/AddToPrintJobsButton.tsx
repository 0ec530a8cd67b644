import { useDataProvider, useGetIdentity, useNotify } from 'react-admin';
import { useMutation } from '@tanstack/react-query';
import { Button, CircularProgress } from '@mui/material';
import PrintIcon from '@mui/icons-material/Print';
import type { Id } from '../../../../common/api/envelope';
import type { Design } from '../../../../common/api/printProduction';
import { isEcard } from '../../../../common/design-doc/types';
import { retryLostAnswers, useActionKey } from '../../lib/actionKey';
import { errorMessage } from '../../lib/format';
import type { AppDataProvider } from '../../providers/dataProvider';
import { designHasData } from '../../providers/printProduction';

export const ADDED_MESSAGE = 'Successfully added a print job';
export const SAVE_EDITOR_FIRST_MESSAGE = 'Save your changes first: Add to print jobs prints the last saved design, and the editor has unsaved changes.';

interface AddToPrintJobsButtonProps {
  design: Design;
  /** The editor reports unsaved work: a job now would print the last saved artwork, not what is shown. */
  unsavedEditorChanges?: boolean;
  /** The design is being read again (the editor just saved): its new artwork is not here yet. */
  reloading?: boolean;
}

/** Queues one print of the design for the user's site; offered only when the design has data and is printed. */
export function AddToPrintJobsButton({ design, unsavedEditorChanges = false, reloading = false }: AddToPrintJobsButtonProps) {
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
  // An e-card is e-mailed to its recipient, never printed.
  if (!designHasData(design) || isEcard(design.productType)) return null;
  return (
    <Button
      variant="contained"
      color="secondary"
      size="small"
      disabled={add.isPending || reloading || !identity}
      startIcon={add.isPending || reloading ? <CircularProgress size={16} color="inherit" /> : <PrintIcon />}
      onClick={() => {
        if (unsavedEditorChanges) return notify(SAVE_EDITOR_FIRST_MESSAGE, { type: 'warning', autoHideDuration: 10_000 });
        add.mutate(actionKey.begin());
      }}
    >
      Add to print jobs
    </Button>
  );
}
