// The bulk toolbar of Jobs and Print History, in react-admin's BulkActionsToolbar look: "N selected",
// then the actions. Each action runs through the server's bulk calls (each job by its own rules);
// long work shows its progress, and a summary says what was done and what was refused.
import { useState } from 'react';
import { Confirm, useDataProvider } from 'react-admin';
import { Box, Button } from '@mui/material';
import DeleteIcon from '@mui/icons-material/Delete';
import DoneAllIcon from '@mui/icons-material/DoneAll';
import PictureAsPdfIcon from '@mui/icons-material/PictureAsPdf';
import ReplayIcon from '@mui/icons-material/Replay';
import { BULK_LIMIT, BULK_PDF_FILE_NAME, type BulkAction, type BulkRefusal, type BulkResult } from '../../../../common/api/bulk';
import type { PrintJob, PrintPdfFrom } from '../../../../common/api/printProduction';
import { newActionKey } from '../../lib/actionKey';
import { saveBlob } from '../../lib/download';
import { errorMessage } from '../../lib/format';
import type { PagedList } from '../../lib/usePagedList';
import { ApiError } from '../../providers/api';
import type { AppDataProvider } from '../../providers/dataProvider';
import { BulkSelectionBar, type BulkProgress } from '../../components/BulkSelectionBar';
import { BulkOutcomeAlert, type BulkOutcome } from './BulkOutcome';
import { bulkSummary } from './bulkSummary';
import { CreateBatchButton } from './CreateBatch';
import type { JobSelection } from './useJobSelection';
import type { ReprintWhy } from '../../../../common/api/reprints';
import { ReprintDialog } from '../print-history/ReprintDialog';

/** Ids a request: progress moves a chunk at a time and no request nears the server's limit. */
export const BULK_CHUNK = 100;

/** `batch`: Create batch (the Jobs queue's). */
export type BulkButton = 'download' | 'batch' | BulkAction;

const LABELS: Record<BulkAction, { button: string; running: string; confirm: (n: number) => string; content: string }> = {
  markPrinted: { button: 'Mark printed', running: 'Marking printed', confirm: (n) => `Mark ${n} job${n === 1 ? '' : 's'} printed`, content: 'They leave the Jobs queue for Print History, recorded as printed by you now.' },
  reprint: { button: 'Reprint', running: 'Sending back to reprint', confirm: (n) => `Reprint ${n} job${n === 1 ? '' : 's'}`, content: 'They go back to the Jobs queue to be printed again.' },
  delete: { button: 'Delete', running: 'Deleting', confirm: (n) => `Delete ${n} job${n === 1 ? '' : 's'}`, content: 'The jobs, their notes and their history are deleted. This cannot be undone.' },
};

/** The refused jobs a 409 of the merged download names (details.refused). */
function refusedOf(error: unknown): BulkRefusal[] {
  if (!(error instanceof ApiError)) return [];
  const refused = (error.body as { details?: { refused?: unknown } } | undefined)?.details?.refused;
  return Array.isArray(refused) ? (refused as BulkRefusal[]) : [];
}

export function BulkActionsBar({ selection, list, from, actions }: { selection: JobSelection; list: PagedList<PrintJob>; from: PrintPdfFrom; actions: readonly BulkButton[] }) {
  const dataProvider = useDataProvider<AppDataProvider>();
  const [asking, setAsking] = useState<BulkAction | null>(null);
  const [progress, setProgress] = useState<BulkProgress | null>(null);
  const [outcome, setOutcome] = useState<BulkOutcome | null>(null);
  const count = selection.ids.length;
  const busy = progress !== null;

  /** Chunk by chunk, each with its own Idempotency-Key: a retried chunk is not done twice. */
  async function run(action: BulkAction, why?: ReprintWhy) {
    setAsking(null);
    setOutcome(null);
    const ids = selection.ids;
    const result: BulkResult = { done: [], refused: [] };
    setProgress({ label: LABELS[action].running, done: 0, total: ids.length });
    try {
      for (let i = 0; i < ids.length; i += BULK_CHUNK) {
        const chunk = await dataProvider.bulkPrintJobs(ids.slice(i, i + BULK_CHUNK), action, newActionKey(), why);
        result.done.push(...chunk.done);
        result.refused.push(...chunk.refused);
        // Rows done left this list (printed, back in the queue, deleted).
        for (const id of chunk.done) list.remove(id);
        selection.drop(chunk.done);
        setProgress({ label: LABELS[action].running, done: Math.min(ids.length, i + BULK_CHUNK), total: ids.length });
      }
      setOutcome({ severity: result.refused.length ? 'warning' : 'success', text: bulkSummary(action, result), refused: result.refused });
    } catch (error) {
      const sofar = result.done.length ? ` (${bulkSummary(action, result)} before it stopped)` : '';
      setOutcome({ severity: 'error', text: `${errorMessage(error)}${sofar}`, refused: result.refused });
    } finally {
      setProgress(null);
    }
  }

  async function download() {
    setOutcome(null);
    const ids = selection.ids;
    if (ids.length > BULK_LIMIT) {
      setOutcome({ severity: 'error', text: `Download at most ${BULK_LIMIT} jobs in one file: ${ids.length} are selected.`, refused: [] });
      return;
    }
    setProgress({ label: `Making one PDF of ${ids.length} job${ids.length === 1 ? '' : 's'}`, done: 0, total: null });
    try {
      const blob = await dataProvider.downloadPrintFiles(ids, from);
      if (typeof blob?.size !== 'number') return; // signed out meanwhile (401)
      saveBlob(blob, BULK_PDF_FILE_NAME);
      const asks = from === 'jobs' ? ' Each row now asks "Have you printed?"; or mark them all printed here.' : '';
      setOutcome({ severity: 'success', text: `Downloaded ${ids.length} job${ids.length === 1 ? '' : 's'} in ${BULK_PDF_FILE_NAME}.${asks}`, refused: [] });
      // From Jobs the server marked them downloaded: the rows ask the printed question as a single download does.
      if (from === 'jobs') list.reload();
    } catch (error) {
      const refused = refusedOf(error);
      setOutcome({ severity: 'error', text: refused.length ? `Nothing downloaded: ${refused.length} of the selected jobs cannot be printed now.` : errorMessage(error), refused });
    } finally {
      setProgress(null);
    }
  }

  return (
    <Box>
      <BulkSelectionBar selection={selection} progress={progress}>
        {actions.map((action) =>
          action === 'batch' ? (
            <CreateBatchButton key={action} ids={selection.ids} disabled={busy || count === 0} />
          ) : action === 'download' ? (
            <Button key={action} size="small" startIcon={<PictureAsPdfIcon />} disabled={busy || count === 0} onClick={() => void download()}>
              Download
            </Button>
          ) : (
            <Button
              key={action}
              size="small"
              color={action === 'delete' ? 'error' : 'primary'}
              startIcon={action === 'delete' ? <DeleteIcon /> : action === 'reprint' ? <ReplayIcon /> : <DoneAllIcon />}
              disabled={busy || count === 0}
              onClick={() => setAsking(action)}
            >
              {LABELS[action].button}
            </Button>
          ),
        )}
      </BulkSelectionBar>
      {outcome ? <BulkOutcomeAlert outcome={outcome} onClose={() => setOutcome(null)} /> : null}
      {asking === 'reprint' ? (
        // A reprint says why and whose fault: the same question as one job's Reprint, for all of them.
        <ReprintDialog open title={LABELS.reprint.confirm(count)} onConfirm={(why) => void run('reprint', why)} onClose={() => setAsking(null)} />
      ) : asking ? (
        <Confirm
          isOpen
          title={LABELS[asking].confirm(count)}
          content={LABELS[asking].content}
          confirm={LABELS[asking].button}
          // Delete cannot be undone: the confirm button looks like it.
          confirmColor={asking === 'delete' ? 'warning' : 'primary'}
          onConfirm={() => void run(asking)}
          onClose={() => setAsking(null)}
        />
      ) : null}
    </Box>
  );
}

