// Batches: print jobs of one product and size imposed together on press sheets, and the floor's
// state of the batch (open → printed → cut → packed). Marking a batch printed (packed) marks each
// job printed (packed) through the print-job state rules (print-jobs/service.ts), as the operator.
import type { BatchItem, BatchJob, ImpositionSheets } from '../../../../common/api/batches';
import { isUniqueViolation } from '../../db';
import type { Deps } from '../../deps';
import type { Page } from '../../http/envelope';
import { HttpError, badRequest, conflict, notFound } from '../../http/errors';
import type { Actor } from '../../http/types';
import { isoNow } from '../../lib/clock';
import { pageWindow } from '../../lib/paging';
import { siteScope, visibleTo } from '../auth/scope';
import { designsRepo } from '../designs/repo';
import { sitesRepo } from '../sites/repo';
import type { PrintJob } from '../print-jobs/repo';
import { nameOf, type PrintJobsService } from '../print-jobs/service';
import type { ProductionService } from '../production/service';
import { printSizeOfJob } from '../production/service';
import { imposeBatch, ImposeRefusal, type ImposeJob, type ImposeResult } from './impose';
import { BATCH_STATES, batchesRepo, type Batch, type BatchState } from './repo';
import type { BatchListQuery, CreateBatchInput } from './schema';
import { chooseSheet, DEFAULT_IMPOSE_SETTINGS, type ImposeSettings, type LeafSize } from './sheets';

export const BATCH_NOT_FOUND = 'Batch not found';

/** "#4" or "#4, #7 and #9". */
export function jobList(ids: number[]): string {
  const named = ids.map((id) => `#${id}`);
  return named.length === 1 ? named[0] : `${named.slice(0, -1).join(', ')} and ${named[named.length - 1]}`;
}
const jobsWord = (ids: number[]) => (ids.length === 1 ? `Job ${jobList(ids)} is` : `Jobs ${jobList(ids)} are`);

/** The one move a batch may make next; none after packed. */
export function nextState(state: BatchState): BatchState | null {
  const i = BATCH_STATES.indexOf(state);
  return i >= 0 && i < BATCH_STATES.length - 1 ? BATCH_STATES[i + 1] : null;
}

export interface BatchesParts {
  printJobs: PrintJobsService;
  production: Pick<ProductionService, 'printFile'>;
  settings?: ImposeSettings;
}

/** What marking the batch printed or packed did to its jobs. */
export interface PrintedReport {
  done: number[];
  refused: Array<{ id: number; error: string }>;
}

/** A batch as the API answers it: with what its items are and its site's name, for the screens. */
export type BatchView = Batch & { item: BatchItem | null; siteName: string | null };

export function batchesService({ db, clock }: Deps, parts: BatchesParts) {
  const repo = batchesRepo(db);
  const settings = parts.settings ?? DEFAULT_IMPOSE_SETTINGS;
  const jobsRepo = parts.printJobs.repo;

  /** The sheets, gaps and duplex turn a site's batches are imposed with. */
  // Async and per site: sheet settings become a site's own here, and nowhere else.
  async function impositionSettingsFor(_siteId: number): Promise<ImposeSettings> {
    return settings;
  }

  const get = async (actor: Actor, id: number): Promise<Batch> => visibleTo(actor, await repo.byId(id), BATCH_NOT_FOUND);

  /** The batch with its items' product and size (from its first job still there) and its site's name. */
  async function view(batch: Batch, siteNames = new Map<number, string | null>()): Promise<BatchView> {
    let item: BatchItem | null = null;
    for (const jobId of batch.jobIds) {
      const job = await jobsRepo.byId(jobId);
      if (!job) continue;
      const { productType, leaf } = await sizeOf(job);
      item = { productType, ...leaf };
      break;
    }
    if (!siteNames.has(batch.siteId)) siteNames.set(batch.siteId, (await sitesRepo(db).byId(batch.siteId))?.name ?? null);
    return { ...batch, item, siteName: siteNames.get(batch.siteId) ?? null };
  }

  async function read(actor: Actor, id: number): Promise<BatchView> {
    return view(await get(actor, id));
  }

  async function list(actor: Actor, q: BatchListQuery): Promise<Page<BatchView>> {
    const w = pageWindow(q.page, q.pageSize ?? 50);
    const { rows, total } = await repo.list({ siteId: siteScope(actor, q.clientId), state: q.state }, w.limit, w.offset);
    const siteNames = new Map<number, string | null>();
    const list: BatchView[] = [];
    for (const row of rows) list.push(await view(row, siteNames));
    return { list, hasNext: w.offset + rows.length < total, total };
  }

  /** GET /api/batches/sheets: the press sheets a batch of this site can be imposed on (an admin may name the site). */
  async function sheets(actor: Actor, clientId?: number): Promise<ImpositionSheets> {
    const s = await impositionSettingsFor(siteScope(actor, clientId) ?? actor.siteId);
    return { sheets: s.sheets.map(({ name, widthMm, heightMm, marginMm }) => ({ name, widthMm, heightMm, marginMm })), gapMm: s.gapMm, slugMm: s.slugMm, duplex: s.duplex };
  }

  /** GET /api/batches/:id/jobs: each job of the batch in imposed order, with its place in its order ("2 of 3"); a deleted one as null. */
  async function jobsOf(actor: Actor, id: number): Promise<BatchJob[]> {
    const batch = await get(actor, id);
    const jobs = await Promise.all(batch.jobIds.map((jobId) => jobsRepo.byId(jobId)));
    const orderIds = [...new Set(jobs.map((j) => j?.shopifyOrderId).filter((o): o is string => typeof o === 'string'))];
    const numbers = await repo.itemNumbers(batch.siteId, orderIds);
    return batch.jobIds.map((jobId, i) => {
      const n = numbers.get(jobId);
      return { jobId, job: (jobs[i] ?? null) as BatchJob['job'], itemNumber: n?.number ?? null, itemCount: n?.count ?? null };
    });
  }

  /** The size a job prints at and its product type, as the batch compares them. */
  async function sizeOf(job: PrintJob): Promise<{ productType: string; leaf: LeafSize }> {
    const design = job.designId !== null ? await designsRepo(db).byId(job.designId) : undefined;
    const size = printSizeOfJob(job, design);
    return { productType: job.productType ?? design?.productType ?? 'Card', leaf: { trimWidthMm: size.trimWidthMm, trimHeightMm: size.trimHeightMm, bleedMm: size.bleedMm } };
  }

  /**
   * A new open batch of these jobs, in this order. Refused, naming the jobs: another site's or
   * unknown jobs, jobs that must not be printed now (held, printed, withdrawn, made by the
   * provider), jobs in another open batch, and jobs that cannot share a sheet.
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
    refuse(found.filter((j) => j.held).map((j) => j.id), 'held by preflight: approve or fix them first');
    refuse(found.filter((j) => j.madeBy === 'provider').map((j) => j.id), 'made by HP Site Flow, not printed here');

    const sizes = await Promise.all(found.map(sizeOf));
    const key = (s: { productType: string; leaf: LeafSize }) => `${s.productType} ${s.leaf.trimWidthMm} × ${s.leaf.trimHeightMm} mm`;
    const first = key(sizes[0]);
    const others = found.filter((_, i) => key(sizes[i]) !== first);
    if (others.length) {
      const kinds = [...new Set(sizes.map(key))].join(', ');
      throw badRequest(`${jobsWord(others.map((j) => j.id))} not the same product and size as job #${found[0].id} (${first}): one sheet takes one kind (${kinds})`, {
        jobIds: others.map((j) => j.id),
      });
    }
    const imposition = await impositionSettingsFor(siteId);
    const layout = chooseSheet(sizes[0].leaf, imposition, input.sheet);
    if (!layout) {
      const known = imposition.sheets.map((s) => s.name);
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
          return tx.insert({ siteId, sheet: layout.sheet.name, jobIds: input.jobIds, at, byUserId: actor.id, byName: nameOf(actor) });
        });
        return view((await repo.byId(id))!);
      } catch (err) {
        // Two batches of a site numbered at the same moment: the next number is taken again.
        if (!isUniqueViolation(err) || attempt >= 3) throw err;
      }
    }
  }

  /** The jobs of each leaf's slug and the cover, with their place in their order. */
  async function imposeJobs(batch: Batch): Promise<Array<{ job: PrintJob; item: ImposeJob }>> {
    const jobs = (await Promise.all(batch.jobIds.map((id) => jobsRepo.byId(id)))).filter((j): j is PrintJob => j !== undefined);
    const orderIds = [...new Set(jobs.map((j) => j.shopifyOrderId).filter((o): o is string => o !== null))];
    const numbers = await repo.itemNumbers(batch.siteId, orderIds);
    return jobs.map((job) => {
      const n = numbers.get(job.id) ?? { number: 1, count: 1 };
      return { job, item: { jobId: job.id, orderName: job.orderName ?? (job.shopifyOrderId ? `Order ${job.shopifyOrderId}` : null), productName: job.productName, quantity: job.quantity, itemNumber: n.number, itemCount: n.count } };
    });
  }

  /**
   * The batch's imposed sheets, written to `outPath`. Serving them changes no job: the jobs count
   * as printed when the batch is marked printed.
   */
  async function sheetPdf(actor: Actor, id: number, outPath: string, opts: { ownOrigin?: string } = {}): Promise<{ batch: Batch; result: ImposeResult }> {
    const batch = await get(actor, id);
    const jobs = await imposeJobs(batch);
    if (!jobs.length) throw conflict(`Batch ${batch.number} has no jobs left to print (they were deleted)`);
    const byId = new Map(jobs.map((j) => [j.job.id, j.job]));
    const { leaf } = await sizeOf(jobs[0].job);
    try {
      const result = await imposeBatch(
        { number: batch.number, createdAt: batch.createdAt, createdByName: batch.createdByName, jobs: jobs.map((j) => j.item) },
        leaf,
        async (item) => (await parts.production.printFile(byId.get(item.jobId)!, { ownOrigin: opts.ownOrigin })).pdf,
        outPath,
        { settings: await impositionSettingsFor(batch.siteId), sheet: batch.sheet },
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
  async function changeState(actor: Actor, id: number, to: BatchState): Promise<BatchView & { printed?: PrintedReport; packed?: PrintedReport }> {
    const batch = await get(actor, id);
    const next = nextState(batch.state);
    if (to !== next) {
      throw conflict(next ? `Batch ${batch.number} is ${batch.state}: it can only move on to ${next}` : `Batch ${batch.number} is ${batch.state}: there is nothing after that`);
    }
    // Claimed first: of two operators marking it at once, one marks the jobs.
    if (!(await repo.setState(id, batch.state, to, { at: isoNow(clock), userId: actor.id, name: nameOf(actor) }))) {
      throw conflict(`Batch ${batch.number} was moved on by someone else meanwhile; reload it`);
    }
    // The sheets were the jobs' file: each job counts as printed from the floor (print-jobs/service.ts).
    const printed = to === 'printed' ? await eachJob(actor, batch.jobIds, parts.printJobs.markPrintedOnFloor) : undefined;
    const packed = to === 'packed' ? await eachJob(actor, batch.jobIds, parts.printJobs.markPacked) : undefined;
    const row = await repo.byId(id);
    if (!row) throw notFound(BATCH_NOT_FOUND);
    const now = await view(row);
    return { ...now, ...(printed ? { printed } : {}), ...(packed ? { packed } : {}) };
  }

  return { get, read, list, create, sheetPdf, changeState, sheets, jobsOf, impositionSettingsFor };
}

export type BatchesService = ReturnType<typeof batchesService>;
