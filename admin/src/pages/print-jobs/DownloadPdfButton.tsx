import { useEffect, useState } from 'react';
import { useDataProvider, useNotify } from 'react-admin';
import { useMutation } from '@tanstack/react-query';
import { Box, Button, CircularProgress, IconButton, Tooltip, Typography } from '@mui/material';
import CheckIcon from '@mui/icons-material/Check';
import CloseIcon from '@mui/icons-material/Close';
import PictureAsPdfIcon from '@mui/icons-material/PictureAsPdf';
import { useServerQuestion } from '../../components/useServerQuestion';
import { saveBlob } from '../../lib/download';
import { ApiError } from '../../providers/api';
import { errorMessage } from '../../lib/format';
import type { AppDataProvider } from '../../providers/dataProvider';
import { MARK_NOT_PRINTED, MARK_PRINTED } from '../../providers/printProduction';
import { ALREADY_PRINTED_CODE } from '../../../../common/api/printProduction';
import { HELD_BY_PREFLIGHT_CODE } from '../../../../common/api/preflight';
import type { PrintJobActionProps } from './PrintJobTable';

export const PRINT_FILE_NAME = 'print-file.pdf';
/** The tick after a download shows this long before "Have you printed?" (spec §4, §9). */
export const DOWNLOADED_TICK_MS = 2000;

/** idle → downloading → downloaded (tick) → asking → answering → gone (✓) or idle (✗). */
type Step = 'idle' | 'downloading' | 'downloaded' | 'asking' | 'answering';

export function DownloadPdfButton(props: PrintJobActionProps) {
  const { dialog, ...button } = useDownloadPdf(props);
  return (
    <>
      {dialog}
      <DownloadPdfStep {...button} />
    </>
  );
}

function useDownloadPdf({ job, leave }: PrintJobActionProps) {
  const dataProvider = useDataProvider<AppDataProvider>();
  const notify = useNotify();
  // A job downloaded earlier (another tab, a reload) still waits for the answer.
  const [step, setStep] = useState<Step>(job.isPDFDownloaded ? 'asking' : 'idle');

  // A reload that brings the server's word that the file was handed out (another tab, a remounted row) asks too.
  useEffect(() => {
    if (job.isPDFDownloaded) setStep((s) => (s === 'idle' ? 'asking' : s));
  }, [job.isPDFDownloaded]);

  useEffect(() => {
    if (step !== 'downloaded') return;
    const timer = setTimeout(() => setStep('asking'), DOWNLOADED_TICK_MS);
    return () => clearTimeout(timer);
  }, [step]);

  // The provider's item (sent from another tab meanwhile) is printed here only after the operator says so.
  const question = useServerQuestion('Print in house as well?', 'Print here');
  const download = useMutation({
    mutationFn: () => question.withQuestion((answers) => dataProvider.downloadPrintPdf(job.id, 'jobs', answers)),
    onMutate: () => setStep('downloading'),
    onSuccess: (blob) => {
      if (typeof blob?.size !== 'number') return setStep('idle'); // signed out meanwhile (401), or the operator said no
      saveBlob(blob, PRINT_FILE_NAME);
      setStep('downloaded');
    },
    onError: (error) => {
      setStep('idle');
      notify(errorMessage(error), { type: 'error' });
      // Printed from another tab or by another operator, or held by a re-check meanwhile: it is no longer in this queue.
      if (isConflict(error, ALREADY_PRINTED_CODE) || isConflict(error, HELD_BY_PREFLIGHT_CODE)) leave();
    },
  });

  // Pessimistic: the row leaves (✓) or resets (✗) only once the server has recorded the answer.
  const answer = useMutation({
    mutationFn: (printed: boolean) => dataProvider.changePrintJob(job.id, printed ? MARK_PRINTED : MARK_NOT_PRINTED),
    onMutate: () => setStep('answering'),
    onSuccess: (_job, printed) => {
      if (printed) {
        notify('Marked as printed', { type: 'success' });
        leave();
      } else {
        setStep('idle');
      }
    },
    onError: (error) => {
      setStep('asking');
      notify(errorMessage(error), { type: 'error' });
    },
  });

  return { dialog: question.dialog, step, download: () => download.mutate(), answer: (printed: boolean) => answer.mutate(printed), answering: answer.variables };
}

/** The server's 409 of the Jobs download with this details.code ("Already printed by…", held by preflight). */
function isConflict(error: unknown, code: string): boolean {
  if (!(error instanceof ApiError) || error.status !== 409) return false;
  return (error.body as { details?: { code?: unknown } } | undefined)?.details?.code === code;
}

/** A row's action button made narrow (tight padding, a small icon close to its word): Print History's actions fit a laptop. */
export const DENSE_ACTION = { minWidth: 0, px: 0.75, whiteSpace: 'nowrap', '& .MuiButton-startIcon': { mr: 0.5, ml: 0 }, '& .MuiButton-startIcon > svg': { fontSize: 16 } } as const;

/** Print History's PDF: the printed job's file again, nothing asked, nothing changed. */
export function HistoryPdfButton({ job }: PrintJobActionProps) {
  const dataProvider = useDataProvider<AppDataProvider>();
  const notify = useNotify();
  const download = useMutation({
    mutationFn: () => dataProvider.downloadPrintPdf(job.id, 'history'),
    onSuccess: (blob) => {
      if (typeof blob?.size === 'number') saveBlob(blob, PRINT_FILE_NAME);
    },
    onError: (error) => notify(errorMessage(error), { type: 'error' }),
  });
  return (
    <Button
      variant="outlined"
      size="small"
      disabled={download.isPending}
      startIcon={download.isPending ? <CircularProgress size={14} /> : <PictureAsPdfIcon />}
      aria-label={download.isPending ? 'Downloading PDF' : undefined}
      onClick={() => download.mutate()}
      sx={DENSE_ACTION}
    >
      PDF
    </Button>
  );
}

function DownloadPdfStep({ step, download, answer, answering }: { step: Step; download: () => void; answer: (printed: boolean) => void; answering: boolean | undefined }) {
  if (step === 'downloading') {
    return (
      <Button variant="outlined" size="small" disabled startIcon={<CircularProgress size={16} />} aria-label="Downloading PDF">
        PDF
      </Button>
    );
  }
  if (step === 'downloaded') {
    return (
      <Box role="status" sx={{ display: 'flex', alignItems: 'center', gap: 0.5, color: 'success.main' }}>
        <CheckIcon aria-label="PDF downloaded" />
        <Typography variant="body2">Downloaded</Typography>
      </Box>
    );
  }
  if (step === 'asking' || step === 'answering') {
    const busy = step === 'answering';
    return (
      // The question wraps above its ✓ ✗ in a narrow column (a laptop's Jobs table), beside them when there is room.
      <Box sx={{ display: 'flex', flexWrap: 'wrap', alignItems: 'center', columnGap: 0.5, whiteSpace: 'normal' }}>
        <Typography variant="body2" sx={{ fontWeight: 600, lineHeight: 1.3 }}>
          Have you printed?
        </Typography>
        <Tooltip title="Yes, it is printed">
          <span>
            <IconButton size="small" color="success" aria-label="Yes, printed" disabled={busy} onClick={() => answer(true)}>
              {busy && answering === true ? <CircularProgress size={18} /> : <CheckIcon />}
            </IconButton>
          </span>
        </Tooltip>
        <Tooltip title="No, not printed">
          <span>
            <IconButton size="small" color="error" aria-label="No, not printed" disabled={busy} onClick={() => answer(false)}>
              {busy && answering === false ? <CircularProgress size={18} /> : <CloseIcon />}
            </IconButton>
          </span>
        </Tooltip>
      </Box>
    );
  }
  return (
    <Button variant="outlined" size="small" startIcon={<PictureAsPdfIcon />} onClick={download}>
      PDF
    </Button>
  );
}
