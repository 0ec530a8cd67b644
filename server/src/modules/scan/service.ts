// The scan station at the packing bench: an item's barcode (PJ-<job id>, the slug of the batch
// sheets) moves its print job one step — printed, as the floor marks it, then packed — through the
// print-job state rules (print-jobs/service.ts), and answers where every item of its order is.
// A scanner's double read (the same person, the same item, within SCAN_REPEAT_SECONDS of its last
// step) changes nothing: it must never pack an item that was just printed.
import type { Deps } from '../../deps';
import { HttpError, badRequest, conflict, notFound } from '../../http/errors';
import type { Actor } from '../../http/types';
import { SCANNED_TWICE_CODE, type ScanAdvance, type ScanItem, type ScanItemState, type ScanOrder, type ScanRefusalDetails, type ScanResult, type ScannedJob } from '../../../../common/api/scan';
import { BATCH_CODE_PREFIX, JOB_CODE_PREFIX, itemLabel } from '../batches/impose';
import { batchesRepo } from '../batches/repo';
import { orderTablesRepo } from '../orders/tablesRepo';
import type { OrderLine } from '../orders/shopify';
import type { PrintJob } from '../print-jobs/repo';
import { JOB_NOT_FOUND, type PrintJobsService } from '../print-jobs/service';
import type { ProductionService } from '../production/service';
import { unitsToMake } from '../production/units';

const MAX_ID = 2_147_483_647;
const CODE = new RegExp(`^(${JOB_CODE_PREFIX}|${BATCH_CODE_PREFIX})(\\d{1,12})$`, 'i');

export type ScannedCode = { kind: 'job'; id: number } | { kind: 'batch'; number: number };

/**
 * The code as the scanner typed it: `PJ-<id>` in any case, with whitespace around it (a scanner's
 * Enter or Tab) and nothing else. A batch cover's `PB-<n>` and anything else are refused saying so.
 */
export function readScanCode(code: string): ScannedCode {
  const text = code.trim();
  const m = CODE.exec(text);
  if (!m) {
    const shown = [...text].filter((ch) => ch >= ' ' && ch !== '\u007f').join('');
    throw badRequest(`“${shown.length > 40 ? `${shown.slice(0, 40)}…` : shown}” is not a Presswork item barcode (they read ${JOB_CODE_PREFIX} and a number)`);
  }
  const n = Number(m[2]);
  if (m[1].toUpperCase() === BATCH_CODE_PREFIX) return { kind: 'batch', number: n };
  if (n < 1 || n > MAX_ID) throw notFound(JOB_NOT_FOUND);
  return { kind: 'job', id: n };
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

/** Every item of the order made here is packed (and there is at least one). */
export const orderIsComplete = (items: ScanItem[]): boolean => {
  const madeHere = items.filter((i) => !MADE_ELSEWHERE.has(i.state));
  return madeHere.length > 0 && madeHere.every((i) => i.state === 'packed');
};

export interface ScanParts {
  printJobs: PrintJobsService;
  production: Pick<ProductionService, 'mapLines'>;
}

export function scanService({ db, clock, config }: Deps, parts: ScanParts) {
  const batches = batchesRepo(db);
  const orders = orderTablesRepo(db);
  const jobsRepo = parts.printJobs.repo;

  /** The job with its place ("2 of 3", its batch) and its order's every line, and where each is. */
  async function whereItIs(job: PrintJob): Promise<{ job: ScannedJob; order: ScanOrder | null; orderComplete: boolean }> {
    const batchNumber = await batches.newestNumberOf(job.id);
    const orderId = job.shopifyOrderId;
    const view = (place: { number: number; count: number } | undefined): ScannedJob => ({
      ...job,
      state: stateOfJob(job),
      itemNumber: place?.number ?? null,
      itemCount: place?.count ?? null,
      label: itemLabel({ jobId: job.id, orderName: place ? job.orderName : null, itemNumber: place?.number ?? 0, itemCount: place?.count ?? 0 }),
      batchNumber,
    });
    if (!orderId) return { job: view(undefined), order: null, orderComplete: false };
    const [record, jobs, numbers] = await Promise.all([orders.newestOrder(orderId, job.clientId), jobsRepo.ofOrder(job.clientId, orderId), batches.itemNumbers(job.clientId, [orderId])]);
    const lines = ((record?.data.line_items ?? []) as OrderLine[]).filter((l) => l && l.id !== undefined && l.id !== null);
    const ecards = new Set(lines.length ? (await parts.production.mapLines(job.clientId, { line_items: lines })).filter((m) => m.ecard).map((m) => String(m.line.id)) : []);
    const itemOf = (j: PrintJob): ScanItem => ({
      lineId: j.lineItemId,
      jobId: j.id,
      productName: j.productName,
      quantity: j.quantity,
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
      return { lineId: String(line.id), jobId: null, productName: line.title || line.name || line.sku || `Line ${line.id}`, quantity: units, state, itemNumber: null, previewUrl: null };
    });
    // A job whose line the stored order does not hold (no order record here) is still one of its items.
    const listed = new Set(lines.map((l) => String(l.id)));
    for (const j of jobs) if (!j.lineItemId || !listed.has(j.lineItemId)) items.push(itemOf(j));
    const status = record ? (record.status ?? (typeof record.data.status === 'string' ? record.data.status : null)) : null;
    return {
      job: view(numbers.get(job.id)),
      order: { id: orderId, siteId: job.clientId, name: record?.data.name || job.orderName || `Order ${orderId}`, shipped: status === 'shipped', items },
      orderComplete: orderIsComplete(items),
    };
  }

  /** The step this person gave this item less than SCAN_REPEAT_SECONDS ago, if any: a second read of it is the scanner's. */
  function doubleRead(actor: Actor, job: PrintJob): { what: ScanAdvance; ago: number } | null {
    const last: { what: ScanAdvance; at: string | null; by: number | null } = job.packedAt
      ? { what: 'packed', at: job.packedAt, by: job.packedByUserId }
      : { what: 'printed', at: job.isPrinted ? job.printedAt : null, by: job.printedByUserId };
    if (!last.at || last.by !== actor.id) return null;
    const ago = clock.now().getTime() - Date.parse(last.at);
    return ago < config.scan.repeatSeconds * 1000 ? { what: last.what, ago } : null;
  }

  /** "Scanned twice: #1024 · 2 of 3 was marked printed 2 s ago; nothing changed. …" */
  function doubleReadMessage(job: ScannedJob, read: { what: ScanAdvance; ago: number }): string {
    const then = `${Math.max(1, Math.round(read.ago / 1000))} s ago`;
    return `Scanned twice: ${job.label} was marked ${read.what} ${then}; nothing changed.${read.what === 'printed' ? ' Scan it again when it is packed.' : ''}`;
  }

  /** A refusal as the bench shows it: the rule's status and sentence, with the job and its order as they are now. */
  async function refusal(err: HttpError, jobId: number, code?: string): Promise<HttpError> {
    const now = await jobsRepo.byId(jobId);
    const own = err.details && typeof err.details === 'object' && !Array.isArray(err.details) ? (err.details as Record<string, unknown>) : {};
    const details: ScanRefusalDetails & Record<string, unknown> = { ...own, ...(code ? { code } : {}), ...(now ? await whereItIs(now) : {}) };
    return new HttpError(err.status, err.message, details, err.headers, err.field);
  }

  /** POST /api/scan: not printed → printed; printed → packed; anything else refused, nothing changed. */
  async function scan(actor: Actor, code: string): Promise<ScanResult> {
    const scanned = readScanCode(code);
    if (scanned.kind === 'batch') throw badRequest(`That is the cover of batch ${scanned.number}: scan an item's barcode`);
    const job = await parts.printJobs.get(actor, scanned.id);
    const twice = doubleRead(actor, job);
    if (twice) throw await refusal(conflict(doubleReadMessage((await whereItIs(job)).job, twice)), job.id, SCANNED_TWICE_CODE);
    const advancedTo: ScanAdvance = job.isPrinted ? 'packed' : 'printed';
    try {
      if (advancedTo === 'printed') await parts.printJobs.markPrintedOnFloor(actor, job.id);
      else await parts.printJobs.markPacked(actor, job.id);
    } catch (err) {
      // The rules' own refusal (held, withdrawn, made by HP, printed or packed by someone meanwhile).
      if (!(err instanceof HttpError) || err.status >= 500) throw err;
      throw await refusal(err, job.id);
    }
    const now = await jobsRepo.byId(job.id);
    if (!now) throw notFound(JOB_NOT_FOUND);
    return { ...(await whereItIs(now)), advancedTo };
  }

  return { scan, whereItIs };
}

export type ScanService = ReturnType<typeof scanService>;
