import { useDataProvider, useNotify } from 'react-admin';
import { useMutation } from '@tanstack/react-query';
import { Button, CircularProgress } from '@mui/material';
import PictureAsPdfIcon from '@mui/icons-material/PictureAsPdf';
import type { Id } from '../../../../common/api/envelope';
import { saveBlob } from '../../lib/download';
import { errorMessage } from '../../lib/format';
import type { AppDataProvider } from '../../providers/dataProvider';

export const PRINT_FILE_NAME = 'print-file.pdf';

/** One line item's print PDF, saved as print-file.pdf; a refusal (data.error) is shown in an alert. */
export function OrderLinePdfButton({ orderId, lineId, sku }: { orderId: string; lineId: Id; sku?: string | null }) {
  const dataProvider = useDataProvider<AppDataProvider>();
  const notify = useNotify();
  const download = useMutation({
    mutationFn: () => dataProvider.downloadOrderLinePdf(orderId, lineId),
    onSuccess: (blob) => {
      if (typeof blob?.size === 'number') saveBlob(blob, PRINT_FILE_NAME); // not when signed out meanwhile (401)
    },
    onError: (error) => notify(errorMessage(error), { type: 'error' }),
  });
  return (
    <Button
      size="small"
      variant="outlined"
      aria-label={`PDF of ${sku || `line ${lineId}`}`}
      disabled={download.isPending}
      startIcon={download.isPending ? <CircularProgress size={14} /> : <PictureAsPdfIcon fontSize="small" />}
      onClick={() => download.mutate()}
      sx={{ minWidth: 0, py: 0, px: 1, fontSize: 12 }}
    >
      PDF
    </Button>
  );
}
