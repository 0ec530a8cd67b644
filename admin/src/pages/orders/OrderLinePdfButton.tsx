import { useDataProvider, useNotify } from 'react-admin';
import { useMutation } from '@tanstack/react-query';
import { Button, CircularProgress } from '@mui/material';
import PictureAsPdfIcon from '@mui/icons-material/PictureAsPdf';
import { useServerQuestion } from '../../components/useServerQuestion';
import type { Id } from '../../../../common/api/envelope';
import { saveBlob } from '../../lib/download';
import { errorMessage } from '../../lib/format';
import type { AppDataProvider } from '../../providers/dataProvider';

export const PRINT_FILE_NAME = 'print-file.pdf';

/** One line item's print PDF, saved as print-file.pdf; a refusal (data.error) is shown in an alert. */
export function OrderLinePdfButton({ orderId, lineId, sku }: { orderId: string; lineId: Id; sku?: string | null }) {
  const dataProvider = useDataProvider<AppDataProvider>();
  const notify = useNotify();
  // A line the provider makes is printed here only after the operator says so.
  const question = useServerQuestion('Print in house as well?', 'Print here');
  const download = useMutation({
    mutationFn: () => question.withQuestion((answers) => dataProvider.downloadOrderLinePdf(orderId, lineId, answers)),
    onSuccess: (blob) => {
      if (typeof blob?.size === 'number') saveBlob(blob, PRINT_FILE_NAME); // not when signed out meanwhile (401) or on a no
    },
    onError: (error) => notify(errorMessage(error), { type: 'error' }),
  });
  return (
    <>
      {question.dialog}
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
    </>
  );
}
