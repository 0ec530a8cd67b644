// The scan station at the packing bench: a copy's barcode (PJ-<job id>-<copy>, the slug of the
// batch sheets; a job of one copy also PJ-<job id>) moves its print job on through the print-job
// state rules (print-jobs/service.ts): the first scan of any copy marks the job printed, as the
// floor does (its copies are printed together), each copy's next scan packs that copy, and the job
// is packed once every copy is. The answer says where every item of its order is.
// A scanner's double read (the same person, within SCAN_REPEAT_SECONDS of the item's last step:
// its copy's packing, else the job's printing) changes nothing: it must never pack an item that was
// just printed, nor count one copy twice.
import { MAX_ROW_ID } from '../../db';
import type { Deps } from '../../deps';
import { HttpError, badRequest, conflict, notFound } from '../../http/errors';
import type { Actor } from '../../http/types';
import {
  SCANNED_TWICE_CODE,
  copyCode,
  parseSlugCode,
  type ScanAdvance,
  type ScanItem,
  type ScanItemState,
  type ScanOrder,
  type ScanRefusalDetails,
  type ScanResult,
  type ScannedJob,
  type SlugCode,
} from '../../../../common/api/scan';
import { copyLabel, itemLabel, batchItemNumbers, newestBatchNumberOf } from '../batches';
import { newestOrder } from '../orders';
import type { OrderLine } from '../orders';
import type { PrintJob } from '../print-jobs';
import { JOB_NOT_FOUND, type PrintJobsService } from '../print-jobs';
import { noSuchCopyRefusal } from '../print-jobs';
import type { ProductionService } from '../production';
import { unitsToMake } from '../../../../common/api/units';

/**
 * The code as the scanner typed it (parseSlugCode: `PJ-<id>-<copy>` or `PJ-<id>`, any case,
 * whitespace around it). A batch cover's `PB-<n>` is answered as such; anything else is refused
 * saying what the codes read.
 */
export function readScanCode(code: string): SlugCode {
  const scanned = parseSlugCode(code);
  if (!scanned) {
    const text = code.trim();
    const shown = [...text].filter((ch) => ch >= ' ' && ch !== '\u007f').join('');
    throw badRequest(`“${shown.length > 40 ? `${shown.slice(0, 40)}…` : shown}” is not a Presswork item barcode (they read PJ-, the job and the copy, e.g. PJ-17-2)`);
  }
  if (scanned.kind === 'job' && (scanned.jobId < 1 || scanned.jobId > MAX_ROW_ID)) throw notFound(JOB_NOT_FOUND);
  return scanned;
}

/** Where a job's item is, in the bench's words. */
export function stateOfJob(job: PrintJob): ScanItemState {
  if (job.madeBy === 'provider') return 'with HP Site Flow';
  if (job.withdrawn) return 'withdrawn';
  if (job.packedAt) return 'packed';
  if (job.isPrinted) return 'printed';
  return job.held ? 'held' : 'waiting';
}

/** Items made elsewhere (HP, e-mailed) or no longer wanted do not hold an order back from shipping. */
const MADE_ELSEWHERE: ReadonlySet<ScanItemState> = new Set(['with HP Site Flow', 'e-mailed', 'withdrawn']);

/** Every item of the order made here is packed — every copy of it (and there is at least one). */
export const orderIsComplete = (items: ScanItem[]): boolean => {
  const madeHere = items.filter((i) => !MADE_ELSEWHERE.has(i.state));
  return madeHere.length > 0 && madeHere.every((i) => i.state === 'packed');
};

/** Copies of a job: its quantity, at least one. */
const copiesOf = (job: Pick<PrintJob, 'quantity'>) => Math.max(1, job.quantity);

export interface ScanParts {
  printJobs: PrintJobsService;
  production: Pick<ProductionService, 'mapLines'>;
}

export function scanService({ db, clock, config }: Deps, parts: ScanParts) {
  const jobsRepo = parts.printJobs.repo;

  /** Copies of each job packed so far: all of a packed job's (its batch may have packed it whole). */
  async function packedCopiesOf(jobs: PrintJob[]): Promise<Map<number, number>> {
    const counted = await jobsRepo.packedCopies(jobs.filter((j) => !j.packedAt).map((j) => j.id));
    return new Map(jobs.map((j) => [j.id, j.packedAt ? copiesOf(j) : (counted.get(j.id) ?? 0)]));
  }

  /** The job with its place ("2 of 3", its batch, the copy scanned) and its order's every line, and where each is. */
  async function whereItIs(job: PrintJob, copy: number | null = null): Promise<{ job: ScannedJob; order: ScanOrder | null; orderComplete: boolean }> {
    const batchNumber = await newestBatchNumberOf(db, job.id);
    const orderId = job.shopifyOrderId;
    const view = (place: { number: number; count: number } | undefined, packed: Map<number, number>): ScannedJob => ({
      ...job,
      state: stateOfJob(job),
      itemNumber: place?.number ?? null,
      itemCount: place?.count ?? null,
      label: itemLabel({ jobId: job.id, orderName: place ? job.orderName : null, itemNumber: place?.number ?? 0, itemCount: place?.count ?? 0 }),
      batchNumber,
      copy,
      packedCopies: packed.get(job.id) ?? 0,
    });
    if (!orderId) return { job: view(undefined, await packedCopiesOf([job])), order: null, orderComplete: false };
    const [record, jobs, numbers] = await Promise.all([newestOrder(db, orderId, job.clientId), jobsRepo.ofOrder(job.clientId, orderId), batchItemNumbers(db, job.clientId, [orderId])]);
    const packed = await packedCopiesOf(jobs.some((j) => j.id === job.id) ? jobs : [...jobs, job]);
    const lines = ((record?.data.line_items ?? []) as OrderLine[]).filter((l) => l && l.id !== undefined && l.id !== null);
    const ecards = new Set(lines.length ? (await parts.production.mapLines(job.clientId, { line_items: lines })).filter((m) => m.ecard).map((m) => String(m.line.id)) : []);
    const itemOf = (j: PrintJob): ScanItem => ({
      lineId: j.lineItemId,
      jobId: j.id,
      productName: j.productName,
      quantity: j.quantity,
      packedCopies: packed.get(j.id) ?? 0,
      state: stateOfJob(j),
      itemNumber: numbers.get(j.id)?.number ?? null,
      previewUrl: j.previewUrl,
    });
    const byLine = new Map(jobs.filter((j) => j.lineItemId !== null).map((j) => [j.lineItemId!, j]));
    const items: ScanItem[] = lines.map((line) => {
      const j = byLine.get(String(line.id));
      if (j) return itemOf(j);
      // No print job yet: an e-card (never printed), a line with no units left, or one still to be made.
      const units = unitsToMake(line);
      const state: ScanItemState = ecards.has(String(line.id)) ? 'e-mailed' : units === 0 ? 'withdrawn' : 'waiting';
      return { lineId: String(line.id), jobId: null, productName: line.title || line.name || line.sku || `Line ${line.id}`, quantity: units, packedCopies: 0, state, itemNumber: null, previewUrl: null };
    });
    // A job whose line the stored order does not hold (no order record here) is still one of its items.
    const listed = new Set(lines.map((l) => String(l.id)));
    for (const j of jobs) if (!j.lineItemId || !listed.has(j.lineItemId)) items.push(itemOf(j));
    const status = record ? (record.status ?? (typeof record.data.status === 'string' ? record.data.status : null)) : null;
    return {
      job: view(numbers.get(job.id), packed),
      order: { id: orderId, siteId: job.clientId, name: record?.data.name || job.orderName || `Order ${orderId}`, shipped: status === 'shipped', items },
      orderComplete: orderIsComplete(items),
    };
  }

  /**
   * The step this person gave this item less than SCAN_REPEAT_SECONDS ago, if any: its copy's
   * packing, else the job's printing (the first scan of any copy prints them all). A second read
   * within it is the scanner's.
   */
  async function doubleRead(actor: Actor, job: PrintJob, copy: number): Promise<{ what: ScanAdvance; ago: number } | null> {
    const packing = await jobsRepo.copyPacking(job.id, job.reprintCount, copy);
    const last: { what: ScanAdvance; at: string | null; by: number | null } = packing
      ? { what: 'packed', at: packing.packedAt, by: packing.packedByUserId }
      : job.packedAt
        ? { what: 'packed', at: job.packedAt, by: job.packedByUserId }
        : { what: 'printed', at: job.isPrinted ? job.printedAt : null, by: job.printedByUserId };
    if (!last.at || last.by !== actor.id) return null;
    const ago = clock.now().getTime() - Date.parse(last.at);
    return ago < config.scan.repeatSeconds * 1000 ? { what: last.what, ago } : null;
  }

  /** The item as the bench names it: "#1024 · 2 of 3", and "copy 2 of 4" of a job of several. */
  const itemName = (job: ScannedJob, copy: number) => [job.label, copyLabel(copy, copiesOf(job))].filter(Boolean).join(' · ');

  /** "Scanned twice: #1024 · 2 of 3 was marked printed 2 s ago; nothing changed. …" */
  function doubleReadMessage(job: ScannedJob, copy: number, read: { what: ScanAdvance; ago: number }): string {
    const then = `${Math.max(1, Math.round(read.ago / 1000))} s ago`;
    const copies = copiesOf(job);
    if (read.what === 'packed') return `Scanned twice: ${itemName(job, copy)} was marked packed ${then}; nothing changed.`;
    if (copies === 1) return `Scanned twice: ${job.label} was marked printed ${then}; nothing changed. Scan it again when it is packed.`;
    return `Scanned twice: ${job.label} was marked printed ${then} (all ${copies} copies); nothing changed. Scan each copy again when it is packed.`;
  }

  /** A refusal as the bench shows it: the rule's status and sentence, with the job and its order as they are now. */
  async function refusal(err: HttpError, jobId: number, copy: number | null, code?: string): Promise<HttpError> {
    const now = await jobsRepo.byId(jobId);
    const own = err.details && typeof err.details === 'object' && !Array.isArray(err.details) ? (err.details as Record<string, unknown>) : {};
    const details: ScanRefusalDetails & Record<string, unknown> = { ...own, ...(code ? { code } : {}), ...(now ? await whereItIs(now, copy) : {}) };
    return new HttpError(err.status, err.message, details, err.headers, err.field);
  }

  /** POST /api/scan: not printed → printed (every copy); printed → this copy packed (the job once all are); anything else refused, nothing changed. */
  async function scan(actor: Actor, code: string): Promise<ScanResult> {
    const scanned = readScanCode(code);
    if (scanned.kind === 'batch') throw badRequest(`That is the cover of batch ${scanned.number}: scan an item's barcode`);
    const job = await parts.printJobs.get(actor, scanned.jobId);
    const copies = copiesOf(job);
    // A job of one copy may be scanned by its own code; a job of several only by a copy's.
    const copy = scanned.copy ?? (copies === 1 ? 1 : null);
    if (copy === null) {
      throw await refusal(conflict(`Job #${job.id} has ${copies} copies: scan a copy's own barcode (${copyCode(job.id, 1)} to ${copyCode(job.id, copies)}), each on its slug`), job.id, null);
    }
    if (copy > copies) throw await refusal(noSuchCopyRefusal(job, copy), job.id, null);
    const twice = await doubleRead(actor, job, copy);
    if (twice) throw await refusal(conflict(doubleReadMessage((await whereItIs(job, copy)).job, copy, twice)), job.id, copy, SCANNED_TWICE_CODE);
    const advancedTo: ScanAdvance = job.isPrinted ? 'packed' : 'printed';
    try {
      if (advancedTo === 'printed') await parts.printJobs.markPrintedOnFloor(actor, job.id);
      else await parts.printJobs.markCopyPacked(actor, job.id, copy);
    } catch (err) {
      // The rules' own refusal (held, withdrawn, made by HP, printed or packed by someone meanwhile).
      if (!(err instanceof HttpError) || err.status >= 500) throw err;
      throw await refusal(err, job.id, copy);
    }
    const now = await jobsRepo.byId(job.id);
    if (!now) throw notFound(JOB_NOT_FOUND);
    return { ...(await whereItIs(now, copy)), advancedTo };
  }

  return { scan, whereItIs };
}

export type ScanService = ReturnType<typeof scanService>;
