// Batches: print jobs of one product, size and paper stock imposed together on press sheets, and
// the floor's state of the batch (open → printed → cut → packed). Marking a batch printed (packed)
// marks each job printed (packed) through the print-job state rules (print-jobs/service.ts), as the
// operator.
// Batches are made by hand (create) or by the site's automatic batching (autoBatchPass below).
import bwipjs from 'bwip-js/node';
import type { BatchItem, BatchJob, BatchLeftOutJob, BatchMove, ImpositionSheets } from '../../../../common/api/batches';
import { batchCode } from '../../../../common/api/scan';
import { isUniqueViolation } from '../../db';
import type { Deps } from '../../deps';
import type { Page } from '../../http/envelope';
import { HttpError, badRequest, conflict, notFound } from '../../http/errors';
import type { Actor } from '../../http/types';
import { isoNow } from '../../lib/clock';
import { pageWindow } from '../../lib/paging';
import { siteScope, visibleTo } from '../auth';
import { type Design, findDesign } from '../designs';
import type { PrintJob } from '../print-jobs';
import { formatOfJob, heldRefusal, nameOf, type PrintJobsService } from '../print-jobs';
import { productTypeOfFormat } from '../../../../common/design-doc/printSize';
import type { ProductionService } from '../production';
import { printSizeOfJob } from '../production';
import type { OutputIntent } from '../pdf';
import { findSite } from '../sites';
import { nextRunAt } from '../../lib/time';
import type { HistoryService } from '../history';
import { byUser, recordChange } from '../history';
import { autoBatchPass, type AutoBatchReport } from './autoBatch';
import { howToPrint, imposeBatch, ImposeRefusal, type ImposeJob, type ImposeProgress, type ImposeResult } from './impose';
import { BATCH_STATES, batchesRepo, type Batch, type BatchState } from './repo';
import type { BatchListQuery, CreateBatchInput } from './schema';
import { autoBatchingOfEnv, impositionOf } from './settings';
import { leavesPerCopy, pagesPerCopy, stockKey, stockName, type JobKind } from './kinds';
import { chooseSheet, leavesOf, sheetRule, sheetsNeeded, type ImposeSettings } from './sheets';

export const BATCH_NOT_FOUND = 'Batch not found';

/** "#4" or "#4, #7 and #9". */
export function jobList(ids: number[]): string {
  const named = ids.map((id) => `#${id}`);
  return named.length === 1 ? named[0] : `${named.slice(0, -1).join(', ')} and ${named[named.length - 1]}`;
}
const jobsWord = (ids: number[]) => (ids.length === 1 ? `Job ${jobList(ids)} is` : `Jobs ${jobList(ids)} are`);

/**
 * The odd ones out of jobs that must all be of one kind (`keys[i]` is job i's): the batch's kind is
 * the most jobs' (the first job's on a tie) and the others are named — the one mug among 45 cards,
 * not the 45 cards. Null when all are alike.
 */
export function oddOnesOut<J extends { id: number }>(jobs: J[], keys: string[]): { kind: string; like: J; odd: J[]; others: string } | null {
  const counts = new Map<string, number>();
  for (const k of keys) counts.set(k, (counts.get(k) ?? 0) + 1);
  if (counts.size <= 1) return null;
  let kind = keys[0];
  for (const [k, n] of counts) if (n > counts.get(kind)!) kind = k;
  const alike = jobs.filter((_, i) => keys[i] === kind);
  return { kind, like: alike[0], odd: jobs.filter((_, i) => keys[i] !== kind), others: alike.length === 1 ? `job #${alike[0].id}` : `the other ${alike.length} jobs` };
}

/** The one move a batch may make next; none after packed. */
export function nextState(state: BatchState): BatchState | null {
  const i = BATCH_STATES.indexOf(state);
  return i >= 0 && i < BATCH_STATES.length - 1 ? BATCH_STATES[i + 1] : null;
}

export interface BatchesParts {
  printJobs: PrintJobsService;
  production: Pick<ProductionService, 'printFile' | 'downloadRefusal'>;
  /** Each move's who and when (the batch row keeps only the last). */
  history: Pick<HistoryService, 'movesOfBatch'>;
  /** The site's printer profile (the pdf module's choice), the sheet's output intent as its pages'. */
  outputIntentOf?: (siteId: number) => Promise<OutputIntent>;
}

/**
 * A batch as the API shows it: what its items are and its site's name (for the screens), and when a
 * filling batch closes at the latest (its site's next daily cut-off).
 */
export type BatchView = Batch & { item: BatchItem | null; siteName: string | null; closesAt: string | null };

/**
 * One batch as its page shows it: every move it has made (who and when), its barcode, the sheets its
 * file holds now and how they print, and the jobs its sheets leave out and why.
 */
export type BatchDetail = BatchView & { moves: BatchMove[]; code: string; barcodeSvg: string; sheetCount: number | null; howToPrint: string | null; leftOut: BatchLeftOutJob[] };

/** The batch's cover barcode as an SVG image, for its page. */
const barcodeSvgOf = (number: number): string => bwipjs.toSVG({ bcid: 'code128', text: batchCode(number), height: 10, includetext: true, textxalign: 'center' });

/** What marking the batch printed or packed did to its jobs. */
export interface PrintedReport {
  done: number[];
  refused: Array<{ id: number; error: string }>;
}

export function batchesService(deps: Deps, parts: BatchesParts) {
  const { db, clock, config } = deps;
  const repo = batchesRepo(db);
  const jobsRepo = parts.printJobs.repo;

  /** The site's press sheets, gaps and duplex mode (its settings; the defaults where unset). Every batch of the site uses them. */
  async function impositionSettingsFor(siteId: number): Promise<ImposeSettings> {
    return impositionOf((await findSite(db, siteId))?.settings.env ?? []);
  }

  /** The product type and size of the batch's items, from its first job still there. */
  async function itemOf(batch: Batch, designs: Map<number, Design | undefined>): Promise<BatchItem | null> {
    for (const jobId of batch.jobIds) {
      const job = await jobsRepo.byId(jobId);
      if (!job) continue;
      const { productType, leaf } = await kindOf(job, designs);
      return { productType, ...leaf };
    }
    return null;
  }

  /**
   * Adds the items' kind, the site's name and closesAt: a filling batch closes at the first daily
   * cut-off after it opened (SYNC_TIMEZONE).
   */
  async function views(batches: Batch[]): Promise<BatchView[]> {
    const sites = new Map<number, Awaited<ReturnType<typeof findSite>>>();
    for (const siteId of new Set(batches.map((b) => b.siteId))) sites.set(siteId, await findSite(db, siteId));
    const designs = new Map<number, Design | undefined>();
    const out: BatchView[] = [];
    for (const b of batches) {
      const site = sites.get(b.siteId);
      const cutOff = b.filling ? autoBatchingOfEnv(site?.settings.env ?? []).cutOff : null;
      let closesAt: string | null = null;
      if (cutOff) {
        const [h, m] = cutOff.split(':').map(Number);
        closesAt = nextRunAt(h, config.sync.timezone, new Date(b.createdAt), m).toISOString();
      }
      out.push({ ...b, item: await itemOf(b, designs), siteName: site?.name ?? null, closesAt });
    }
    return out;
  }
  const view = async (batch: Batch): Promise<BatchView> => (await views([batch]))[0];

  const find = async (actor: Actor, id: number): Promise<Batch> => visibleTo(actor, await repo.byId(id), BATCH_NOT_FOUND);

  /**
   * Why a job of the batch is not put on its sheets now (null: it is): it left the queue after the
   * batch was made — cancelled or withdrawn, held by preflight, moved to HP Site Flow — or it was
   * printed by itself (before the batch was marked printed, if it was). The sentence is its own
   * download's refusal.
   */
  function leftOutReason(job: PrintJob, batchPrintedAt: string | null): string | null {
    if (job.madeBy === 'provider') return `Moved to HP Site Flow (job #${job.id}): HP makes it, not the floor`;
    if (job.held) return heldRefusal(job).message;
    const printedByItself = job.isPrinted && (batchPrintedAt === null || (job.printedAt !== null && job.printedAt < batchPrintedAt));
    return parts.production.downloadRefusal(job, { fromQueue: printedByItself, printInHouse: true })?.message ?? null;
  }

  /** The batch's jobs still there, split into those its sheets carry and those they leave out (and why). */
  async function sheetJobs(batch: Batch, moves: BatchMove[]): Promise<{ on: PrintJob[]; leftOut: BatchLeftOutJob[] }> {
    const printedAt = batch.state === 'open' ? null : (moves.find((m) => m.state === 'printed')?.at ?? batch.stateChangedAt);
    // One read of them all (a batch holds up to MAX_BATCH_JOBS), then in the batch's order.
    const { rows } = await jobsRepo.list({ ids: batch.jobIds }, [{ field: 'id', order: 'asc' }], Math.max(1, batch.jobIds.length), 0);
    const byId = new Map(rows.map((j) => [j.id, j]));
    const found = batch.jobIds.map((id) => byId.get(id)).filter((j): j is PrintJob => j !== undefined);
    const on: PrintJob[] = [];
    const leftOut: BatchLeftOutJob[] = [];
    for (const job of found) {
      const reason = leftOutReason(job, printedAt);
      if (reason) leftOut.push({ jobId: job.id, orderName: job.orderName, productName: job.productName, reason });
      else on.push(job);
    }
    return { on, leftOut };
  }

  /** The sheets these jobs take on the batch's sheet, counted as the imposition fills them; and how they print. */
  async function sheetsOf(batch: Batch, jobs: PrintJob[]): Promise<{ sheetCount: number | null; howToPrint: string | null }> {
    if (!jobs.length) return { sheetCount: null, howToPrint: null };
    const designs = new Map<number, Design | undefined>();
    const kinds = await Promise.all(jobs.map((job) => kindOf(job, designs)));
    const settings = await impositionSettingsFor(batch.siteId);
    const layout = chooseSheet(kinds[0].leaf, settings, batch.sheet, kinds[0].format);
    if (!layout) return { sheetCount: null, howToPrint: null };
    const leaves = jobs.flatMap((job, i) => Array<number>(Math.max(1, job.quantity)).fill(leavesPerCopy(job, kinds[i])));
    const twoSided = jobs.some((job, i) => leavesOf(pagesPerCopy(job, kinds[i])).some(([, back]) => back !== null));
    return { sheetCount: sheetsNeeded(layout.slots.length, leaves), howToPrint: howToPrint(twoSided, layout, settings.duplex) };
  }

  const detail = async (batch: Batch): Promise<BatchDetail> => {
    const moves = await parts.history.movesOfBatch(batch.id);
    const { on, leftOut } = await sheetJobs(batch, moves);
    return {
      ...(await view(batch)),
      moves,
      code: batchCode(batch.number),
      barcodeSvg: barcodeSvgOf(batch.number),
      ...(await sheetsOf(batch, on)),
      leftOut,
    };
  };
  const get = async (actor: Actor, id: number): Promise<BatchDetail> => detail(await find(actor, id));

  async function list(actor: Actor, q: BatchListQuery): Promise<Page<BatchView>> {
    const w = pageWindow(q.page, q.pageSize ?? 50);
    const { rows, total } = await repo.list({ siteId: siteScope(actor, q.clientId), state: q.state, filling: q.filling }, w.limit, w.offset);
    return { list: await views(rows), hasNext: w.offset + rows.length < total, total };
  }

  /** GET /api/batches/sheets: the press sheets a batch of this site can be imposed on (an admin may name the site). */
  async function sheets(actor: Actor, clientId?: number): Promise<ImpositionSheets> {
    const s = await impositionSettingsFor(siteScope(actor, clientId) ?? actor.siteId);
    return { sheets: s.sheets.map(({ name, widthMm, heightMm, marginMm }) => ({ name, widthMm, heightMm, marginMm })), gapMm: s.gapMm, slugMm: s.slugMm, duplex: s.duplex };
  }

  /** GET /api/batches/:id/jobs: each job of the batch in imposed order, with its place in its order ("2 of 3"); a deleted one as null. */
  async function jobsOf(actor: Actor, id: number): Promise<BatchJob[]> {
    const batch = await find(actor, id);
    const jobs = await Promise.all(batch.jobIds.map((jobId) => jobsRepo.byId(jobId)));
    const orderIds = [...new Set(jobs.map((j) => j?.shopifyOrderId).filter((o): o is string => typeof o === 'string'))];
    const numbers = await repo.itemNumbers(batch.siteId, orderIds);
    const packed = await jobsRepo.packedCopies(batch.jobIds);
    return batch.jobIds.map((jobId, i) => {
      const n = numbers.get(jobId);
      const job = jobs[i];
      const packedCopies = job?.packedAt ? Math.max(1, job.quantity) : (packed.get(jobId) ?? 0);
      return { jobId, job: (job ?? null) as BatchJob['job'], itemNumber: n?.number ?? null, itemCount: n?.count ?? null, packedCopies };
    });
  }

  /** The kind of a job as batches compare them; `designs` keeps the designs read in one pass. */
  async function kindOf(job: PrintJob, designs = new Map<number, Design | undefined>()): Promise<JobKind> {
    let design: Design | undefined;
    if (job.designId !== null) {
      if (!designs.has(job.designId)) designs.set(job.designId, await findDesign(db, job.designId));
      design = designs.get(job.designId);
    }
    const size = printSizeOfJob(job, design);
    const format = formatOfJob(job, design);
    return {
      format,
      productType: productTypeOfFormat(format),
      leaf: { trimWidthMm: size.trimWidthMm, trimHeightMm: size.trimHeightMm, bleedMm: size.bleedMm },
      stock: design?.stock?.trim() || null,
    };
  }

  /**
   * A new open batch of these jobs, in this order. Refused, naming the jobs: another site's or
   * unknown jobs, jobs that must not be printed now (held, printed, withdrawn, made by the
   * provider), jobs in another open batch, and jobs that cannot share a sheet (another product,
   * size or paper stock).
   */
  async function create(actor: Actor, input: CreateBatchInput): Promise<BatchView> {
    const jobs = await Promise.all(input.jobIds.map((id) => jobsRepo.byId(id)));
    const missing = input.jobIds.filter((id, i) => !jobs[i] || (actor.role !== 'admin' && jobs[i]!.clientId !== actor.siteId));
    if (missing.length) throw new HttpError(404, `Print ${missing.length === 1 ? 'job' : 'jobs'} ${jobList(missing)} not found`, { jobIds: missing });
    const found = jobs as PrintJob[];
    const siteId = found[0].clientId;
    const elsewhere = found.filter((j) => j.clientId !== siteId).map((j) => j.id);
    if (elsewhere.length) throw badRequest(`${jobsWord(elsewhere)} of another site than job #${found[0].id}: a batch is one site's`, { jobIds: elsewhere });

    const refuse = (ids: number[], why: string) => {
      if (ids.length) throw new HttpError(409, `${jobsWord(ids)} ${why}`, { jobIds: ids });
    };
    refuse(found.filter((j) => j.isPrinted).map((j) => j.id), 'already printed: use Reprint to put them back in the queue first');
    refuse(found.filter((j) => j.withdrawn).map((j) => j.id), 'out of the queue (their order no longer wants them)');
    // Never a job whose stock is not reserved: it waits for a delivery.
    refuse(found.filter((j) => j.stockHold).map((j) => j.id), `waiting for stock (${found.find((j) => j.stockHold)?.stockHold}): receive the stock first`);
    refuse(found.filter((j) => j.held).map((j) => j.id), 'held by preflight: approve or fix them first');
    refuse(found.filter((j) => j.madeBy === 'provider').map((j) => j.id), 'made by HP Site Flow, not printed here');

    const designs = new Map<number, Design | undefined>();
    const sizes: JobKind[] = [];
    for (const job of found) sizes.push(await kindOf(job, designs));
    const key = (s: JobKind) => `${s.productType} ${s.leaf.trimWidthMm} × ${s.leaf.trimHeightMm} mm`;
    // The batch's kind is the most jobs' (the first job's on a tie): the others are named as the odd ones out.
    const odd = oddOnesOut(found, sizes.map(key));
    if (odd) {
      const kinds = [...new Set(sizes.map(key))].join(', ');
      throw badRequest(`${jobsWord(odd.odd.map((j) => j.id))} not the same product and size as ${odd.others} (${odd.kind}): one sheet takes one kind (${kinds})`, { jobIds: odd.odd.map((j) => j.id) });
    }
    const oddStock = oddOnesOut(found, sizes.map((s) => stockKey(s.stock)));
    if (oddStock) {
      const stocks = [...new Set(sizes.map((s) => stockName(s.stock)))].join(', ');
      const stock = stockName(sizes[found.indexOf(oddStock.like)].stock);
      throw badRequest(`${jobsWord(oddStock.odd.map((j) => j.id))} on another paper stock than ${oddStock.others} (${stock}): one sheet takes one stock (${stocks})`, {
        jobIds: oddStock.odd.map((j) => j.id),
      });
    }
    const settings = await impositionSettingsFor(siteId);
    const first = key(sizes[0]);
    const layout = chooseSheet(sizes[0].leaf, settings, input.sheet, sizes[0].format);
    if (!layout) {
      const known = sheetRule(sizes[0].format, sizes[0].leaf, settings).sheets.map((s) => s.name);
      if (input.sheet && !known.some((n) => n.toLowerCase() === input.sheet!.toLowerCase())) throw badRequest(`There is no "${input.sheet}" sheet: use one of ${known.join(', ')}`);
      throw badRequest(`A ${first} item with its bleed and crop marks does not fit ${input.sheet ? `an ${input.sheet} sheet` : 'any press sheet'}`);
    }

    const at = isoNow(clock);
    for (let attempt = 0; ; attempt++) {
      try {
        const id = await db.transaction(async (trx) => {
          const tx = batchesRepo(trx);
          await tx.lockNumbering(siteId);
          const taken = await tx.inOpenBatch(input.jobIds);
          if (taken.length) {
            const numbers = [...new Set(taken.map((t) => t.number))].join(', ');
            throw new HttpError(409, `${jobsWord(taken.map((t) => t.jobId))} already in open batch ${numbers}`, { jobIds: taken.map((t) => t.jobId) });
          }
          const batchId = await tx.insert({ siteId, sheet: layout.sheet.name, stock: sizes[0].stock, jobIds: input.jobIds, at, byUserId: actor.id, byName: nameOf(actor) });
          await recordChange(trx, { at, siteId, kind: 'batch', subjectId: batchId, by: byUser(actor), action: 'created', to: 'open', reason: `Jobs ${jobList(input.jobIds)}` });
          return batchId;
        });
        return view((await repo.byId(id))!);
      } catch (err) {
        // Two batches of a site numbered at the same moment: the next number is taken again.
        if (!isUniqueViolation(err) || attempt >= 3) throw err;
      }
    }
  }

  /** The jobs of each leaf's slug and the cover, with their place in their order. */
  async function imposeJobs(batch: Batch, jobs: PrintJob[]): Promise<ImposeJob[]> {
    const orderIds = [...new Set(jobs.map((j) => j.shopifyOrderId).filter((o): o is string => o !== null))];
    const numbers = await repo.itemNumbers(batch.siteId, orderIds);
    return jobs.map((job) => {
      const n = numbers.get(job.id) ?? { number: 1, count: 1 };
      return { jobId: job.id, orderName: job.orderName ?? (job.shopifyOrderId ? `Order ${job.shopifyOrderId}` : null), productName: job.productName, quantity: job.quantity, itemNumber: n.number, itemCount: n.count };
    });
  }

  /**
   * The batch's imposed sheets, written to `outPath`: only the jobs still to print — a job that
   * left the queue since the batch was made is left off and named on the cover (and on the batch's
   * page). Serving them changes no job: the jobs count as printed when the batch is marked printed.
   */
  async function sheetPdf(
    actor: Actor,
    id: number,
    outPath: string,
    opts: { ownOrigin?: string; onProgress?: (progress: ImposeProgress) => void } = {},
  ): Promise<{ batch: Batch; result: ImposeResult }> {
    const batch = await find(actor, id);
    const { on, leftOut } = await sheetJobs(batch, await parts.history.movesOfBatch(batch.id));
    if (!on.length) {
      if (!leftOut.length) throw conflict(`Batch ${batch.number} has no jobs left to print (they were deleted)`);
      throw new HttpError(409, `Batch ${batch.number} has no jobs left to print — ${leftOut.map((j) => `#${j.jobId}: ${j.reason}`).join('; ')}`, { leftOut });
    }
    const byId = new Map(on.map((j) => [j.id, j]));
    const { leaf, format } = await kindOf(on[0]);
    const settings = await impositionSettingsFor(batch.siteId);
    try {
      const result = await imposeBatch(
        { number: batch.number, createdAt: batch.createdAt, createdByName: batch.createdByName, jobs: await imposeJobs(batch, on), leftOut },
        leaf,
        async (item) => (await parts.production.printFile(byId.get(item.jobId)!, { ownOrigin: opts.ownOrigin })).pdf,
        outPath,
        { settings, sheet: batch.sheet, format, siteId: batch.siteId, outputIntent: await parts.outputIntentOf?.(batch.siteId), timeZone: config.sync.timezone, onProgress: opts.onProgress },
      );
      return { batch, result };
    } catch (err) {
      if (err instanceof ImposeRefusal) throw conflict(err.message);
      throw err;
    }
  }

  /** Each job through one print-job rule as the operator; a refusal is reported, never stops the rest. */
  async function eachJob(actor: Actor, jobIds: number[], rule: (actor: Actor, id: number) => Promise<unknown>): Promise<PrintedReport> {
    const report: PrintedReport = { done: [], refused: [] };
    for (const jobId of jobIds) {
      try {
        await rule(actor, jobId);
        report.done.push(jobId);
      } catch (err) {
        if (!(err instanceof HttpError) || err.status >= 500) throw err;
        report.refused.push({ id: jobId, error: err.message });
      }
    }
    return report;
  }

  /** POST /api/batches/:id/state: one step forward; `printed` marks every job printed, `packed` every job packed. */
  async function changeState(actor: Actor, id: number, to: BatchState): Promise<BatchDetail & { printed?: PrintedReport; packed?: PrintedReport }> {
    const batch = await find(actor, id);
    const next = nextState(batch.state);
    if (to !== next) {
      throw conflict(next ? `Batch ${batch.number} is ${batch.state}: it can only move on to ${next}` : `Batch ${batch.number} is ${batch.state}: there is nothing after that`);
    }
    // Claimed first: of two operators marking it at once, one marks the jobs. A filling batch
    // closes with it, under the site's lock: the automatic pass adds no job once it is printed.
    const at = isoNow(clock);
    const claimed = await db.transaction(async (trx) => {
      const tx = batchesRepo(trx);
      if (batch.filling) await tx.lockNumbering(batch.siteId);
      if (!(await tx.setState(id, batch.state, to, { at, userId: actor.id, name: nameOf(actor) }))) return false;
      await recordChange(trx, { at, siteId: batch.siteId, kind: 'batch', subjectId: id, by: byUser(actor), action: 'moved', from: batch.state, to });
      if (to === 'printed' && (await tx.close(id, at, 'printed')) && batch.filling) {
        await recordChange(trx, { at, siteId: batch.siteId, kind: 'batch', subjectId: id, by: byUser(actor), action: 'closed', reason: 'printed' });
      }
      return true;
    });
    if (!claimed) throw conflict(`Batch ${batch.number} was moved on by someone else meanwhile; reload it`);
    // Read again: a job the automatic pass added after it was read is printed with the others.
    const claimedBatch = await repo.byId(id);
    if (!claimedBatch) throw notFound(BATCH_NOT_FOUND);
    // The sheets were the jobs' file: each job counts as printed from the floor (print-jobs/service.ts).
    const printed = to === 'printed' ? await eachJob(actor, claimedBatch.jobIds, parts.printJobs.markPrintedOnFloor) : undefined;
    const packed = to === 'packed' ? await eachJob(actor, claimedBatch.jobIds, parts.printJobs.markPacked) : undefined;
    const now = await repo.byId(id);
    if (!now) throw notFound(BATCH_NOT_FOUND);
    return { ...(await detail(now)), ...(printed ? { printed } : {}), ...(packed ? { packed } : {}) };
  }

  /** One pass of every site's automatic batching (see autoBatch.ts). */
  const autoBatch = (): Promise<AutoBatchReport> => autoBatchPass(deps, { jobsRepo, kindOf, impositionSettingsFor });

  return { get, find, list, create, sheetPdf, changeState, sheets, jobsOf, impositionSettingsFor, autoBatch };
}

export type BatchesService = ReturnType<typeof batchesService>;
