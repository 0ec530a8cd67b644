import { useDataProvider, useNotify } from 'react-admin';
import { useMutation } from '@tanstack/react-query';
import { Button, CircularProgress, Tooltip } from '@mui/material';
import PictureAsPdfIcon from '@mui/icons-material/PictureAsPdf';
import { useServerQuestion } from '../../components/useServerQuestion';
import type { Id } from '../../../../common/api/envelope';
import { saveBlob } from '../../lib/download';
import { errorMessage } from '../../lib/format';
import type { AppDataProvider } from '../../providers/dataProvider';

export const PRINT_FILE_NAME = 'print-file.pdf';

/** What the PDF button does, before and after: the line is made in house, so it is in Jobs (no double print with HP). */
export const LINE_PDF_TITLE = "Download this line's print file: the line is made in house and put in Jobs, marked downloaded";
export const LINE_PDF_DONE = 'Print file downloaded. The line is in Jobs now (made in house): mark it printed there once printed.';

/** One line item's print PDF, saved as print-file.pdf; the line's job goes into Jobs; a refusal (data.error) is shown in an alert. */
export function OrderLinePdfButton({ orderId, lineId, sku, blocked = null }: { orderId: string; lineId: Id; sku?: string | null; blocked?: string | null }) {
  const dataProvider = useDataProvider<AppDataProvider>();
  const notify = useNotify();
  // A line the provider makes is printed here only after the operator says so.
  const question = useServerQuestion('Print in house as well?', 'Print here');
  const download = useMutation({
    mutationFn: () => question.withQuestion((answers) => dataProvider.downloadOrderLinePdf(orderId, lineId, answers)),
    onSuccess: (blob) => {
      if (typeof blob?.size !== 'number') return; // not when signed out meanwhile (401) or on a no
      saveBlob(blob, PRINT_FILE_NAME);
      notify(LINE_PDF_DONE, { type: 'success' });
    },
    onError: (error) => notify(errorMessage(error), { type: 'error' }),
  });
  return (
    <>
      {question.dialog}
      <Tooltip title={blocked ?? LINE_PDF_TITLE}>
        <span>
          <Button
            size="small"
            variant="outlined"
            aria-label={`PDF of ${sku || `line ${lineId}`}`}
            aria-description={blocked ?? LINE_PDF_TITLE}
            disabled={download.isPending || blocked !== null}
            startIcon={download.isPending ? <CircularProgress size={14} /> : <PictureAsPdfIcon fontSize="small" />}
            onClick={() => download.mutate()}
            sx={{ minWidth: 0, py: 0, px: 1, fontSize: 12 }}
          >
            PDF
          </Button>
        </span>
      </Tooltip>
    </>
  );
}
