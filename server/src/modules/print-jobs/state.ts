// The print job's life (docs/print-production.md): one pure function decides every change,
// so the rules are tested without HTTP or a database.
import { HttpError, conflict } from '../../http/errors';
import { formatDateTime } from '../../lib/clock';
import { ALREADY_PRINTED_CODE } from '../../../../common/api/printProduction';

export interface PrintJobState {
  isPrinted: boolean;
  isPDFDownloaded: boolean;
  isRePrinted: boolean;
  reprintCount: number;
  downloadedAt: string | null;
  downloadedByUserId: number | null;
  printedAt: string | null;
  printedByUserId: number | null;
  /** The printer's name when they marked it printed. */
  printedByName: string | null;
  /** Packed at the bench (after it was printed), and by whom: their name as it was then. */
  packedAt: string | null;
  packedByUserId: number | null;
  packedByName: string | null;
}

/** The flags a client sends (POST /api/print-jobs with id), the server serving the job's PDF, or the packing bench. */
export type PrintJobChange = { isPDFDownloaded?: boolean; isPrinted?: boolean; isRePrinted?: boolean } | 'pdf-served' | 'packed';

/**
 * `to-provider` / `to-in-house`: an operator (or a send) moved the item between the queue and the provider.
 * `withdrawn` / `restored`: the store order took the job out of play (cancelled, units removed), or back.
 */
export type PrintJobEventKind = 'downloaded' | 'printed' | 'packed' | 'reset' | 'reprinted' | 'to-provider' | 'to-in-house' | 'withdrawn' | 'restored';

export const ALREADY_PRINTED = 'This job is already printed';
export const DOWNLOAD_FIRST = 'Download the PDF before marking the job printed';
export const RESET_PRINTED = 'This job is already printed; use Reprint to put it back in the queue';
export const REPRINT_UNPRINTED = 'Only a printed job can be reprinted';
export const NOT_PRINTED_YET = 'This job is not printed yet: it is packed once it is printed';
export const UNKNOWN_CHANGE =
  'This change is not possible: send {isPDFDownloaded:true} (downloaded), {isPrinted:true} (printed), ' +
  '{isPDFDownloaded:false, isPrinted:false} (not printed) or {isPDFDownloaded:false, isPrinted:false, isRePrinted:true} (reprint)';

type Kind = 'download' | 'print' | 'reset' | 'reprint' | 'pack';

/** Which row of the table a set of flags asks for; undefined when the flags make no known change. */
export function changeKind(change: PrintJobChange): Kind | 'served' | undefined {
  if (change === 'pdf-served') return 'served';
  if (change === 'packed') return 'pack';
  const { isPDFDownloaded: d, isPrinted: p, isRePrinted: r } = change;
  if (r === true) return p !== true && d !== true ? 'reprint' : undefined;
  if (p === true) return d !== false ? 'print' : undefined;
  if (d === true) return 'download';
  if (d === false || p === false) return 'reset';
  return undefined;
}

/**
 * The state a change leads to, and the event to record (null: nothing to record).
 * Throws 409 for every change the table does not allow, with the reason.
 */
export function applyPrintJobChange(
  job: PrintJobState,
  change: PrintJobChange,
  now: string,
  userId: number | null,
  userName: string | null = null,
  timeZone = 'UTC',
): { state: PrintJobState; event: PrintJobEventKind | null } {
  const kind = changeKind(change);
  const downloaded = (): { state: PrintJobState; event: PrintJobEventKind } => ({
    state: { ...job, isPDFDownloaded: true, downloadedAt: now, downloadedByUserId: userId },
    event: 'downloaded',
  });
  switch (kind) {
    case 'served':
      // The PDF of a printed job can be fetched again from the history; it stays printed.
      return job.isPrinted ? { state: job, event: null } : downloaded();
    case 'download':
      if (job.isPrinted) throw conflict(ALREADY_PRINTED);
      return downloaded();
    case 'print':
      if (job.isPrinted) throw conflict(ALREADY_PRINTED);
      if (!job.isPDFDownloaded) throw conflict(DOWNLOAD_FIRST);
      return { state: { ...job, isPrinted: true, printedAt: now, printedByUserId: userId, printedByName: userName }, event: 'printed' };
    case 'reset':
      if (job.isPrinted) throw conflict(RESET_PRINTED);
      return { state: { ...job, isPDFDownloaded: false, isPrinted: false }, event: 'reset' };
    case 'pack':
      if (!job.isPrinted) throw conflict(NOT_PRINTED_YET);
      if (job.packedAt) throw alreadyPackedRefusal(job, timeZone);
      return { state: { ...job, packedAt: now, packedByUserId: userId, packedByName: userName }, event: 'packed' };
    case 'reprint':
      if (!job.isPrinted) throw conflict(REPRINT_UNPRINTED);
      // Back in the queue: whatever was packed of it is printed again, and packed again.
      return {
        state: { ...job, isPDFDownloaded: false, isPrinted: false, isRePrinted: true, reprintCount: job.reprintCount + 1, packedAt: null, packedByUserId: null, packedByName: null },
        event: 'reprinted',
      };
    default:
      throw conflict(UNKNOWN_CHANGE);
  }
}

/** The Jobs queue's download of a job someone printed meanwhile (a stale tab): who and when, no file. */
export function alreadyPrintedRefusal(job: { id: number; printedAt: string | null; printedByName: string | null }, timeZone: string): HttpError {
  const who = job.printedByName || 'someone';
  const when = job.printedAt ? ` at ${formatDateTime(job.printedAt, timeZone)}` : '';
  return new HttpError(409, `Already printed by ${who}${when}`, { code: ALREADY_PRINTED_CODE, printJobId: job.id, printedAt: job.printedAt, printedByName: job.printedByName });
}

/** details.code of the 409 "This job was already packed by <name> at <time>". */
export const ALREADY_PACKED_CODE = 'ALREADY_PACKED';

/** A second packing of the same item: who packed it and when, in the server's zone. */
export function alreadyPackedRefusal(job: { packedAt: string | null; packedByName: string | null }, timeZone: string): HttpError {
  const who = job.packedByName || 'someone';
  const when = job.packedAt ? ` at ${formatDateTime(job.packedAt, timeZone)}` : '';
  return new HttpError(409, `This job was already packed by ${who}${when}`, { code: ALREADY_PACKED_CODE, packedAt: job.packedAt, packedByName: job.packedByName });
}

/** A copy of a job of several packed a second time: which copy, who packed it and when. */
export function copyAlreadyPackedRefusal(copy: number, quantity: number, packing: { packedAt: string | null; packedByName: string | null }, timeZone: string): HttpError {
  const who = packing.packedByName || 'someone';
  const when = packing.packedAt ? ` at ${formatDateTime(packing.packedAt, timeZone)}` : '';
  return new HttpError(409, `Copy ${copy} of ${quantity} was already packed by ${who}${when}`, { code: ALREADY_PACKED_CODE, copy, packedAt: packing.packedAt, packedByName: packing.packedByName });
}

/** A copy number the job does not have (a slug of another quantity, or a typing slip). */
export function noSuchCopyRefusal(job: { id: number; quantity: number }, copy: number): HttpError {
  const copies = Math.max(1, job.quantity);
  return new HttpError(404, `Job #${job.id} has ${copies === 1 ? 'one copy' : `${copies} copies`}: there is no copy ${copy}`);
}

/** 409 details code of "the provider makes this item: print it in house as well?" */
export const AT_PROVIDER = 'AT_PROVIDER';

/** Changes that mean the item is being printed here (a download, marking it printed). */
export function printsInHouse(change: PrintJobChange): boolean {
  const kind = changeKind(change);
  return kind === 'served' || kind === 'download' || kind === 'print';
}

/** The question asked before the provider's item is printed in house too (answered with printInHouse: true). */
export function atProviderRefusal(job: { id: number; productName: string }): HttpError {
  return new HttpError(
    409,
    `This item is made by HP Site Flow (job #${job.id}, ${job.productName}): printing it here as well makes it twice. Print it in house anyway?`,
    { code: AT_PROVIDER, printJobId: job.id, confirmWith: { printInHouse: true } },
  );
}

/** HP Site Flow makes, packs and ships its items: none of them is packed at our bench. */
export function providerPacksRefusal(job: { id: number; productName: string }): HttpError {
  return new HttpError(409, `This item is made by HP Site Flow (job #${job.id}, ${job.productName}): HP packs and ships it, not this bench`, { code: AT_PROVIDER, printJobId: job.id });
}

/** Printing a job its order no longer wants is refused, with the reason the job carries. */
export function withdrawnRefusal(job: { id: number; withdrawn: { reason: string } | null }): HttpError {
  return conflict(`This job left the queue unprinted (job #${job.id}): ${job.withdrawn?.reason ?? 'withdrawn'}`);
}

/** A job's state in one word, as the history shows from → to. */
export function stateName(job: Pick<PrintJobState, 'isPrinted' | 'isPDFDownloaded' | 'packedAt'> & { held?: boolean; withdrawn?: unknown }): string {
  if (job.withdrawn) return 'withdrawn';
  if (job.packedAt) return 'packed';
  if (job.isPrinted) return 'printed';
  if (job.held) return 'held';
  return job.isPDFDownloaded ? 'downloaded' : 'queued';
}
