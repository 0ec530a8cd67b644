// How the Batches screens word a batch: its states and moves, its items, its jobs' states.
import type { Batch, BatchItem, BatchJob, BatchSheetsProgress, BatchState } from '../../../../common/api/batches';
import { formatDateTime } from '../../lib/format';

export const STATE_LABELS: Record<BatchState, string> = { open: 'Open', printed: 'Printed', cut: 'Cut', packed: 'Packed' };

/** The one move a batch makes next, and its button; none once packed. */
export const NEXT_MOVE: Record<BatchState, { state: BatchState; button: string } | null> = {
  open: { state: 'printed', button: 'Mark printed' },
  printed: { state: 'cut', button: 'Mark cut' },
  cut: { state: 'packed', button: 'Mark packed' },
  packed: null,
};

export const batchTitle = (batch: Pick<Batch, 'number'>): string => `Batch ${batch.number}`;

/** "148 × 210 mm" (the finished size; the bleed is the print file's own). */
export const sizeText = (item: BatchItem): string => `${item.trimWidthMm} × ${item.trimHeightMm} mm`;

/** "Card, 148 × 210 mm"; empty when every job has left the batch. */
export const itemText = (item: BatchItem | null | undefined): string => (item ? `${item.productType}, ${sizeText(item)}` : '');

/** "by Sam Staff, 26/11/2026 09:12" (or just the time when nobody is recorded). */
export function whoWhen(name: string | null | undefined, at: string | null | undefined): string {
  const when = formatDateTime(at);
  return name ? `by ${name}${when ? `, ${when}` : ''}` : when;
}

/** HH:MM of a cut-off given as HH:MM or as a time. */
function clockOf(value: string): string {
  if (/^\d{1,2}:\d{2}$/.test(value)) return value;
  return formatDateTime(value).slice(-5);
}

/** An automatic batch still taking jobs: when it closes. Null for any other batch. */
export function fillingText(batch: Pick<Batch, 'filling' | 'closesAt'>): string | null {
  if (!batch.filling) return null;
  const at = batch.closesAt ? clockOf(batch.closesAt) : '';
  return at ? `Filling — closes when full or at ${at}` : 'Filling — closes when full or at the day’s cut-off';
}

/** Where one job of a batch is now, in an operator's words: packed, printed (and how many of its copies are packed), … */
export function jobStateText(entry: BatchJob): string {
  const job = entry.job;
  if (!job) return 'Deleted';
  if (job.packedAt) return `Packed ${whoWhen(job.packedByName, job.packedAt)}`.trim();
  if (job.isPrinted) {
    const printed = `Printed ${whoWhen(job.printedByName, job.printedAt)}`.trim();
    return entry.packedCopies > 0 ? `${printed} · ${entry.packedCopies} of ${Math.max(1, job.quantity)} copies packed` : printed;
  }
  if (job.withdrawn) return `Out of the queue: ${job.withdrawn.reason}`;
  if (job.stockHold) return `Held for stock: ${job.stockHold}`;
  if (job.held) return 'Held by preflight';
  return 'In queue';
}

/** "2 sheets" (a batch's file as it is made now); empty when nothing is left to print. */
export const sheetCountText = (count: number | null | undefined): string => (count ? `${count} sheet${count === 1 ? '' : 's'}` : '');

/** What the progress of the sheets says: how many jobs are on the sheets so far. */
export function sheetsProgressText(progress: BatchSheetsProgress | null, fileName: string): string {
  if (!progress) return `Making ${fileName}…`;
  if (progress.finished || progress.jobsDone >= progress.jobs) return `Sheets made (${sheetCountText(progress.sheets)}): saving ${fileName}…`;
  return `Placing job ${progress.jobsDone + 1} of ${progress.jobs} on the sheets${progress.sheets ? ` (${sheetCountText(progress.sheets)} so far)` : ''}`;
}

/** "#1024 · 2 of 3", or the order's name alone, or nothing for a job made by hand. */
export function orderText(entry: BatchJob): string {
  const name = entry.job?.orderName ?? '';
  if (!name) return '';
  return entry.itemNumber && entry.itemCount ? `${name} · ${entry.itemNumber} of ${entry.itemCount}` : name;
}
