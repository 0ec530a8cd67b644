// Print jobs: the queue, the history, the state rules of state.ts, tenancy, and the reports.
import type { Knex } from 'knex';
import { isUniqueViolation, type Db } from '../../db';
import type { Deps } from '../../deps';
import type { Page } from '../../http/envelope';
import { HttpError, conflict, forbidden, notFound } from '../../http/errors';
import type { Actor } from '../../http/types';
import { isoNow } from '../../lib/clock';
import { pageWindow } from '../../lib/paging';
import { isAdmin, siteScope as scope, visibleTo } from '../auth';
import { findDesign } from '../designs';
import { isEcard } from '../../../../common/design-doc/types';
import { findSite, siteExists } from '../sites';
import { drawLine } from '../render';
import { printJobsRepo, type MadeBy, type PrintJob, type PrintJobFilter, type PrintJobSortField } from './repo';
import { bucketOf, printedPerPeriod } from './reportPeriods';
import { reprintWhy, type ChangeInput, type CreateInput, type ListQuery, type ReportsQuery, type ReprintWhyInput } from './schema';
import { parse } from '../../http/validate';
import { averageOrderToShipHours, onTimeRate, type ReportLine } from './shippingFigures';
import { REPRINT_REASONS, REPRINT_RESPONSIBLES, reprintLine } from '../../../../common/api/reprints';
import { alreadyPackedRefusal, alreadyPrintedRefusal, applyPrintJobChange, changeKind, atProviderRefusal, copyAlreadyPackedRefusal, noSuchCopyRefusal, NOT_PRINTED_YET, printsInHouse, providerPacksRefusal, stateName, withdrawnRefusal, type PrintJobChange, type PrintJobEventKind } from './state';
import { fieldError } from '../../http/fieldErrors';
import { HELD_BY_PREFLIGHT_CODE, type PreflightFinding } from '../../../../common/api/preflight';
import type { DesignDocument } from '../../../../common/design-doc/types';
import type { Design } from '../designs';
import type { RenderService } from '../render';
import { documentOf, valuesOf } from '../render';
import { firstError, isHeld, type Preflight, type PreflightSources } from './preflight';
import { formatForNewJob, formatOfJob } from './format';
import { thresholdsOf } from './preflightSettings';
import type { ShipByState } from '../../../../common/api/shipBy';
import { nameOf } from '../users';
import { AUTOMATIC, byUser, byUserId, recordChange, type HistoryBy } from '../history';
import { releaseJobStock, reserveJobStock, useJobStock, type StockBy } from '../stock';
import { OUT_OF_STOCK_CODE, outOfStockReason, stockUsesOf } from '../../../../common/api/stock';

/** Who moved stock, as the stock's movements name them. */
const stockByOf = (by: HistoryBy): StockBy => ('automatic' in by ? { userId: null, name: by.automatic } : { userId: by.id, name: by.name });

/** The most jobs waiting for stock tried again after one delivery or count. */
const STOCK_RETRY_LIMIT = 200;

export const ORDER_LINE_TAKEN = 'This order line already has a print job';

/** 409: the order line has its job already (another click, tab or send made it first). */
export class OrderLineTaken extends HttpError {
  constructor() {
    super(409, ORDER_LINE_TAKEN);
    this.name = 'OrderLineTaken';
  }
}
export const JOB_NOT_FOUND = 'Print job not found';

/** The name a job keeps of who printed it. */
export { nameOf };

type Sort = Array<{ field: PrintJobSortField; order: 'asc' | 'desc' }>;

/** Jobs queue: oldest first. Print history: most recently printed first. Otherwise newest first. */
export function defaultSort(isPrinted: boolean | undefined): Sort {
  if (isPrinted === false) return [{ field: 'createdAt', order: 'asc' }, { field: 'id', order: 'asc' }];
  if (isPrinted === true) return [{ field: 'printedAt', order: 'desc' }, { field: 'id', order: 'desc' }];
  return [{ field: 'createdAt', order: 'desc' }, { field: 'id', order: 'desc' }];
}

/** The Ready queue of a site (of all, without one): made here, not printed, not withdrawn, not held. */
export const readyQueue = (clientId: number | undefined): PrintJobFilter => ({ clientId, readyForPrint: true, isPrinted: false, madeBy: 'inHouse', withdrawn: false, held: false });

/** The asked column (then id, for a stable page order), else the list's own order; `order` alone flips that. */
function listSort(q: Pick<ListQuery, 'sort' | 'order' | 'isPrinted'>): Sort {
  if (q.sort) return [{ field: q.sort, order: q.order ?? 'asc' }, { field: 'id', order: q.order ?? 'asc' }];
  const sort = defaultSort(q.isPrinted);
  return q.order ? sort.map((s) => ({ ...s, order: q.order! })) : sort;
}

const DAY_MS = 24 * 60 * 60 * 1000;
const dayOf = (d: Date) => d.toISOString().slice(0, 10);
const nextDay = (day: string) => dayOf(new Date(Date.parse(`${day}T00:00:00Z`) + DAY_MS));

export const NOT_HELD = 'This job is not held by preflight: there is nothing to approve';

/** What the history keeps of a job's change; `event` also counts it in the reports (print_job_events). */
interface JobChange {
  at: string;
  by: HistoryBy;
  action: PrintJobEventKind | 'created' | 'deleted' | 'held' | 'approved' | 'rechecked' | 'copy-packed';
  event?: boolean;
  from?: string | null;
  to?: string | null;
  reason?: string | null;
}

/** A job's change in the caller's transaction: its history entry and, for the reports' kinds, its event. */
export async function recordJobChange(trx: Db | Knex.Transaction, job: Pick<PrintJob, 'id' | 'clientId' | 'shopifyOrderId'>, c: JobChange): Promise<void> {
  await recordChange(trx, { at: c.at, siteId: job.clientId, kind: 'job', subjectId: job.id, orderRef: job.shopifyOrderId, by: c.by, action: c.action, from: c.from, to: c.to, reason: c.reason });
  if (c.event) {
    const userId = 'automatic' in c.by ? null : c.by.id;
    await printJobsRepo(trx).addEvent({ jobId: job.id, kind: c.action as PrintJobEventKind, at: c.at, userId, siteId: job.clientId });
  }
}

/** 409 that refuses to print or send a held job, naming its first error (or what stock it waits for). */
export function heldRefusal(job: Pick<PrintJob, 'id' | 'preflight'> & { stockHold?: string | null }): HttpError {
  if (job.stockHold) return new HttpError(409, `Waiting for stock (job #${job.id}): ${job.stockHold}. It goes back in the queue when the stock is received.`, { code: OUT_OF_STOCK_CODE, printJobId: job.id });
  const first = firstError(job.preflight);
  return new HttpError(409, `Held by preflight (job #${job.id}): ${first?.message ?? 'an error was found'}. Approve it anyway or fix the design and re-check.`, {
    code: HELD_BY_PREFLIGHT_CODE,
    printJobId: job.id,
    finding: first ?? null,
  });
}

/** What the job is checked with: preflight's file reads, the renderer (a re-check draws the design again), and who hears of an approval. */
export interface PrintJobParts {
  preflight: Preflight;
  render: Pick<RenderService, 'isRenderable' | 'renderLine'>;
  /** Called after Approve anyway (e.g. an auto-send site queues the order's send again). */
  approved?: Array<(job: PrintJob) => Promise<void>>;
  /** Ship-by dates on what the lists show: ship-by's views, given at assembly (they read jobs). */
  shipBy: JobsShipBy;
  /** The store lines shipped in a time range (the reports), fulfilment's record, given at assembly. */
  shippedLines(range: { fromAt: string; toAt: string; siteId?: number }): Promise<ShippedLine[]>;
}

/** A store line shipped: when, and when its order was placed (null when the order is gone). */
export interface ShippedLine {
  siteId: number;
  orderId: string;
  lineId: string;
  shippedAt: string;
  orderCreatedAt: string | null;
}

/** What ship-by reads of a job. */
type JobShipByFacts = Pick<PrintJob, 'clientId' | 'createdAt' | 'orderCreatedAt' | 'orderStatus' | 'productType' | 'isPrinted' | 'withdrawn'>;

export interface JobsShipBy {
  onJobs<J extends JobShipByFacts>(jobs: J[]): Promise<Array<J & ShipByState>>;
  onJob<J extends JobShipByFacts>(job: J): Promise<J & ShipByState>;
  /** The ship-by of shipped lines (the reports' on-time rate), in the same order; null without an order time. */
  ofShippedLines(lines: ReadonlyArray<{ siteId: number; orderId: string; lineId: string; orderCreatedAt: string | null }>): Promise<Array<string | null>>;
}

/** Every job is checked when it is made (the demo seed too): there is no unchecked way in. */
export function printJobsService({ db, clock, config }: Deps, parts: PrintJobParts) {
  const repo = printJobsRepo(db);

  /**
   * Reserves what an in-house job's design consumes (a reprint's with its reason, used as waste),
   * all or nothing; a job the stock cannot cover waits, held with what it is short of. Answers the hold.
   */
  async function takeStock(trx: Db | Knex.Transaction, job: Pick<PrintJob, 'id' | 'clientId' | 'quantity' | 'designId'>, by: HistoryBy, at: string, reprintReason: string | null = null): Promise<string | null> {
    // Read in the caller's transaction: SQLite has one connection, and it is the transaction's.
    const design = job.designId !== null ? await findDesign(trx as Db, job.designId) : undefined;
    const uses = stockUsesOf(design?.data);
    if (!uses.length) return null;
    const { short } = await reserveJobStock(trx, { id: job.id, siteId: job.clientId, units: job.quantity }, uses, stockByOf(by), at, reprintReason);
    const hold = short.length ? outOfStockReason(short) : null;
    await printJobsRepo(trx).setStockHold(job.id, hold, at);
    return hold;
  }

  /** The job left the queue unprinted: its reservation is freed and it waits for nothing. */
  async function freeStock(trx: Db | Knex.Transaction, jobId: number, by: HistoryBy, at: string, why: string): Promise<void> {
    await releaseJobStock(trx, jobId, stockByOf(by), at, why);
    await printJobsRepo(trx).setStockHold(jobId, null, at);
  }

  // What the lists and the job's page show carries its ship-by and how close it is.
  const { shipBy } = parts;

  /** A design document counts when the job's pages were drawn from it (a personalised line, or a design's own pages). */
  const documentFor = (design: Design | undefined, drawnFromDesign: boolean): DesignDocument | null => {
    const doc = design && drawnFromDesign ? documentOf(design) : undefined;
    return doc && typeof doc === 'object' && Array.isArray((doc as DesignDocument).pages) ? (doc as DesignDocument) : null;
  };

  /** The job's sources as preflight reads them. */
  function sourcesOf(job: Pick<PrintJob, 'artworkUrls' | 'data'>, design: Design | undefined, drawnFromDesign: boolean): PreflightSources {
    const properties = Array.isArray(job.data.properties) ? (job.data.properties as Array<{ name: string; value: unknown }>) : undefined;
    const personalised = job.data.personalised === true;
    return {
      productType: design?.productType ?? null,
      format: formatOfJob({ data: job.data, productType: design?.productType ?? null }, design),
      document: documentFor(design, drawnFromDesign),
      values: personalised ? valuesOf(properties) : undefined,
      artworkUrls: job.artworkUrls,
      pregeneratedPDF: job.data.pregeneratedPDF ?? null,
      missing: Array.isArray(job.data.missingFields) ? (job.data.missingFields as unknown[]).filter((m): m is string => typeof m === 'string') : [],
    };
  }

  /** Findings of a job's sources with its site's thresholds. */
  async function check(siteId: number, sources: PreflightSources, ownOrigin?: string): Promise<{ preflight: PreflightFinding[]; checkedAt: string | null }> {
    const site = await findSite(db, siteId);
    const preflight = await parts.preflight(sources, thresholdsOf(site?.settings.env ?? []), { ownOrigin });
    return { preflight, checkedAt: isoNow(clock) };
  }

  /** The job if the actor may see it (404 otherwise), as stored: the rules read it. */
  const find = async (actor: Actor, id: number): Promise<PrintJob> => visibleTo(actor, await repo.byId(id), JOB_NOT_FOUND);

  /** GET /api/print-jobs/:id: the job with its ship-by. */
  const get = async (actor: Actor, id: number) => shipBy.onJob(await find(actor, id));

  /** GET /api/print-jobs: the queue (isPrinted=0), the history (isPrinted=1) or everything, a page at a time. */
  async function list(actor: Actor, q: ListQuery): Promise<Page<PrintJob>> {
    const w = pageWindow(q.page, q.pageSize);
    // The queue holds what is printed here: the provider's items never appear in it.
    const queue = q.isPrinted === false;
    const filter: PrintJobFilter = {
      clientId: scope(actor, q.clientId),
      isPrinted: q.isPrinted,
      readyForPrint: q.readyForPrint,
      productType: q.productType,
      madeBy: queue ? 'inHouse' : undefined,
      withdrawn: queue ? false : undefined,
    };
    // Held jobs wait in their own list (not printed, not withdrawn); the ready list leaves them out.
    if (q.held !== undefined) {
      filter.held = q.held;
      if (q.held) Object.assign(filter, { isPrinted: false, withdrawn: false });
    }
    if (q.readyForPrint === true) filter.held = false;
    const { rows, total } = await repo.list(filter, listSort(q), w.limit, w.offset);
    return { list: await shipBy.onJobs(rows), hasNext: w.offset + rows.length < total, total };
  }

  async function adminList(actor: Actor, filter: PrintJobFilter, sort: { field: PrintJobSortField; order: 'asc' | 'desc' }, limit: number, offset: number) {
    const madeBy = filter.madeBy ?? (filter.isPrinted === false ? 'inHouse' : undefined);
    const withdrawn = filter.withdrawn ?? (filter.isPrinted === false || filter.held === true ? false : undefined);
    const held = filter.held ?? (filter.readyForPrint === true ? false : undefined);
    const isPrinted = filter.isPrinted ?? (filter.held === true ? false : undefined);
    const { rows, total } = await repo.list({ ...filter, madeBy, withdrawn, held, isPrinted, clientId: scope(actor, filter.clientId) }, [sort, { field: 'id', order: sort.order }], limit, offset);
    return { rows: await shipBy.onJobs(rows), total };
  }

  async function fromShopifyOrder(actor: Actor, orderId: string): Promise<Page<PrintJob>> {
    const { rows, total } = await repo.list({ shopifyOrderId: orderId, clientId: scope(actor) }, [{ field: 'id', order: 'asc' }], 1000, 0);
    return { list: await shipBy.onJobs(rows), hasNext: false, total };
  }

  /** `madeBy`: where a job made for an order line is printed (by production); `byUserId` who made it (null: Presswork). */
  async function create(actor: Actor, input: CreateInput, opts: { madeBy?: MadeBy; byUserId?: number | null; ownOrigin?: string } = {}): Promise<PrintJob> {
    const clientId = input.clientId ?? actor.siteId;
    if (clientId !== actor.siteId && !isAdmin(actor)) throw forbidden('You cannot create print jobs for another site');
    if (!(await siteExists(db, clientId))) throw fieldError('clientId', 'does not exist');
    if ((input.shopifyOrderId === undefined) !== (input.lineItemId === undefined)) {
      throw input.shopifyOrderId === undefined ? fieldError('shopifyOrderId', 'is required with a line item ID') : fieldError('lineItemId', 'is required with a store order ID');
    }
    // A job made from a design takes its artwork, picture, name and product when not given.
    const design = input.designId ? await findDesign(db, input.designId) : undefined;
    if (input.designId && (!design || (!isAdmin(actor) && design.siteId !== actor.siteId))) throw fieldError('designId', "is not one of this site's designs");
    if (isEcard(design?.productType)) throw fieldError('designId', 'is an e-card: it is e-mailed to its recipient, never printed');
    const artworkUrls = input.artworkUrls ?? design?.data.artworkUrls ?? [];
    const productName = input.productName ?? design?.name;
    if (!productName) throw fieldError('productName', 'is required');
    const data: PrintJob['data'] = { ...(input.data ?? {}), format: formatForNewJob(design, input.data?.format) };
    if (input.shopifyOrderId && input.lineItemId && (await repo.orderLineTaken(input.shopifyOrderId, input.lineItemId))) throw new OrderLineTaken();
    // Checked before it is stored: no moment exists in which an unchecked job is ready or sent.
    const drawnFromDesign = data.personalised === true || (design !== undefined && JSON.stringify(artworkUrls) === JSON.stringify(design.data.artworkUrls ?? []));
    const checked = await check(clientId, sourcesOf({ artworkUrls, data }, design, drawnFromDesign), opts.ownOrigin);
    const now = isoNow(clock);
    const held = isHeld(checked.preflight, null);
    let id: number;
    try {
      id = await db.transaction(async (trx) => {
        const newId = await printJobsRepo(trx).insert({
          preflight: checked.preflight,
          held,
          preflightCheckedAt: checked.checkedAt,
          clientId,
          designId: input.designId ?? null,
          productName,
          previewUrl: input.previewUrl ?? design?.image ?? null,
          quantity: input.quantity,
          productId: input.productId ?? design?.productId ?? null,
          shopifyOrderId: input.shopifyOrderId ?? null,
          lineItemId: input.lineItemId ?? null,
          isPrinted: false,
          isPDFDownloaded: false,
          isRePrinted: false,
          readyForPrint: input.flags?.readyForPrint ?? (artworkUrls.length > 0 || Boolean(data.pregeneratedPDF)),
          artworkUrls,
          data,
          downloadedAt: null,
          downloadedByUserId: null,
          printedAt: null,
          printedByUserId: null,
          printedByName: null,
          packedAt: null,
          packedByUserId: null,
          packedByName: null,
          reprintCount: 0,
          madeBy: opts.madeBy ?? 'inHouse',
          createdAt: now,
          updatedAt: now,
        });
        const job = { id: newId, clientId, shopifyOrderId: input.shopifyOrderId ?? null };
        // Made for an order line by a rule (byUserId null) or by a person (a design's Add to print jobs, Send HP).
        const by = opts.byUserId === undefined ? byUser(actor) : await byUserId(trx, opts.byUserId);
        // Made in house: its blanks are reserved now, or it waits for them.
        const stockHold = (opts.madeBy ?? 'inHouse') === 'inHouse' ? await takeStock(trx, { id: newId, clientId, quantity: input.quantity, designId: input.designId ?? null }, by, now) : null;
        const reason = held ? (firstError(checked.preflight)?.message ?? null) : stockHold;
        await recordJobChange(trx, job, { at: now, by, action: 'created', to: held || stockHold ? 'held' : 'queued', reason });
        return newId;
      });
    } catch (err) {
      // Two deliveries of the same order line racing: the database keeps exactly one.
      if (isUniqueViolation(err)) throw new OrderLineTaken();
      throw err;
    }
    return shipBy.onJob((await repo.byId(id))!);
  }

  /** Moves a job to the provider or back to the Jobs queue, recording who chose (`userId` null: Presswork, by a rule). */
  async function moveJob(trx: Db | Knex.Transaction, job: Pick<PrintJob, 'id' | 'clientId' | 'shopifyOrderId'>, madeBy: MadeBy, userId: number | null, byActor?: HistoryBy): Promise<void> {
    const at = isoNow(clock);
    const tx = printJobsRepo(trx);
    if (await tx.setMadeBy(job.id, madeBy, at)) {
      const by = byActor ?? (await byUserId(trx, userId));
      // HP Site Flow makes it: the blanks go back on the shelf; back in house: reserved again.
      const moved = await tx.byId(job.id);
      if (moved && !moved.isPrinted) {
        if (madeBy === 'provider') await freeStock(trx, job.id, by, at, 'moved to HP Site Flow');
        else if (!moved.withdrawn) await takeStock(trx, moved, by, at);
      }
      await recordJobChange(trx, job, { at, by, action: madeBy === 'provider' ? 'to-provider' : 'to-in-house', event: true, from: madeBy === 'provider' ? 'in house' : 'provider', to: madeBy === 'provider' ? 'provider' : 'in house' });
    }
  }

  /**
   * A job follows its order line (production decides what): out of the queue with the reason, back
   * in play, and its units. Recorded as events of Presswork (no operator).
   */
  async function followLine(trx: Db | Knex.Transaction, job: PrintJob, next: { withdrawn: string | null; quantity: number }): Promise<void> {
    const at = isoNow(clock);
    const tx = printJobsRepo(trx);
    if (next.withdrawn !== null && !job.isPrinted && job.withdrawn?.reason !== next.withdrawn) {
      if (await tx.setWithdrawn(job.id, { at, reason: next.withdrawn }, at)) {
        await freeStock(trx, job.id, { automatic: AUTOMATIC.presswork }, at, `withdrawn: ${next.withdrawn}`);
        await recordJobChange(trx, job, { at, by: { automatic: AUTOMATIC.presswork }, action: 'withdrawn', event: true, from: job.madeBy === 'provider' ? 'with HP Site Flow' : stateName(job), to: 'withdrawn', reason: next.withdrawn });
      }
    } else if (next.withdrawn === null && job.withdrawn) {
      if (await tx.setWithdrawn(job.id, null, at)) {
        if (job.madeBy === 'inHouse') await takeStock(trx, { ...job, quantity: next.quantity > 0 ? next.quantity : job.quantity }, { automatic: AUTOMATIC.presswork }, at);
        await recordJobChange(trx, job, { at, by: { automatic: AUTOMATIC.presswork }, action: 'restored', event: true, from: 'withdrawn', to: stateName({ ...job, withdrawn: null }) });
      }
    }
    if (next.quantity > 0 && !job.isPrinted && (await tx.setQuantity(job.id, next.quantity, at)) && job.madeBy === 'inHouse' && !job.withdrawn && next.withdrawn === null) {
      // Its units changed: what it reserved is freed and the new units reserved.
      await freeStock(trx, job.id, { automatic: AUTOMATIC.presswork }, at, `units changed to ${next.quantity}`);
      await takeStock(trx, { ...job, quantity: next.quantity }, { automatic: AUTOMATIC.presswork }, at);
    }
  }

  /**
   * One state change and its event, in one transaction; a change raced by another operator is
   * re-judged on the fresh row. Printing the provider's item here needs `printInHouse` (the
   * operator's yes), and then the item moves to the Jobs side.
   */
  async function applyChange(actor: Actor, id: number, change: PrintJobChange, opts: { printInHouse?: boolean; fromQueue?: boolean; reprint?: ReprintWhyInput } = {}): Promise<PrintJob> {
    // No reprint without its reason: refused (400 naming the field) before anything is read or changed.
    if (changeKind(change) === 'reprint' && !opts.reprint) parse(reprintWhy, {});
    await find(actor, id);
    await db.transaction(async (trx) => {
      const tx = printJobsRepo(trx);
      for (let attempt = 0; ; attempt++) {
        const job = await tx.byId(id);
        if (!job) throw notFound(JOB_NOT_FOUND);
        // Printed while the queue's file was being made: the operator hears who printed it, not "downloaded".
        if (opts.fromQueue && job.isPrinted) throw alreadyPrinted(job);
        const kind = changeKind(change);
        if (job.withdrawn && (printsInHouse(change) || kind === 'pack')) throw withdrawnRefusal(job);
        // Held jobs are never printed (nor packed): marking one printed is refused as its download is.
        if (job.held && (kind === 'print' || kind === 'pack')) throw heldRefusal(job);
        if (job.madeBy === 'provider' && kind === 'pack') throw providerPacksRefusal(job);
        if (job.madeBy === 'provider' && printsInHouse(change)) {
          if (!opts.printInHouse) throw atProviderRefusal(job);
          await moveJob(trx, job, 'inHouse', actor.id, byUser(actor));
        }
        const now = isoNow(clock);
        const { state, event } = applyPrintJobChange(job, change, now, actor.id, nameOf(actor), config.sync.timezone);
        if (!event) return;
        if (await tx.changeState(id, job, state, now)) {
          const reason = event === 'reprinted' && opts.reprint ? reprintLine({ reason: opts.reprint.reprintReason, responsible: opts.reprint.reprintResponsible, note: opts.reprint.reprintNote ?? null }) : undefined;
          await recordJobChange(trx, job, { at: now, by: byUser(actor), action: event, event: true, from: stateName(job), to: stateName({ ...job, ...state }), reason });
          if (event === 'reprinted' && opts.reprint) await tx.addReprint(reprintRow(actor, job, opts.reprint, now));
          // Printed: its blanks leave the shelf. A reprint takes them again, its use recorded as waste with the reason.
          if (event === 'printed') await useJobStock(trx, id, stockByOf(byUser(actor)), now);
          if (event === 'reprinted' && job.madeBy === 'inHouse') await takeStock(trx, job, byUser(actor), now, reason ?? 'reprint');
          return;
        }
        if (attempt >= 3) throw conflict('This job was changed by someone else at the same time; reload and try again');
      }
    });
    return (await repo.byId(id))!;
  }

  /** The reprint's row: why, by whom, and the print it replaces (the job as it was before the flip). */
  const reprintRow = (actor: Actor, job: PrintJob, why: ReprintWhyInput, at: string) => ({
    jobId: job.id,
    siteId: job.clientId,
    reason: why.reprintReason,
    responsible: why.reprintResponsible,
    note: why.reprintNote ?? null,
    at,
    byUserId: actor.id,
    byName: nameOf(actor),
    originalPrintedAt: job.printedAt,
    originalPrintedByUserId: job.printedByUserId,
    originalPrintedByName: job.printedByName,
  });

  /** POST /api/print-jobs with id: the flag change of the contract table (a reprint with its reason), answered with the job's ship-by as the lists show it. */
  async function change(actor: Actor, input: ChangeInput) {
    const flags = { isPrinted: input.isPrinted, isPDFDownloaded: input.isPDFDownloaded, isRePrinted: input.isRePrinted };
    return shipBy.onJob(await applyChange(actor, input.id, flags, { printInHouse: input.printInHouse, reprint: changeKind(flags) === 'reprint' ? parse(reprintWhy, input) : undefined }));
  }

  /** Mark printed from a list (Jobs, a bulk action): a job printed meanwhile is refused naming who printed it. */
  const markPrinted = (actor: Actor, id: number) => applyChange(actor, id, { isPrinted: true }, { fromQueue: true });

  /**
   * Printed on the floor (a batch's sheets, a scan at the packing bench): the item was printed from
   * another file than its own download, so it counts as downloaded, then printed, by this operator.
   * A job printed meanwhile is refused naming who printed it, never counted twice.
   */
  async function markPrintedOnFloor(actor: Actor, id: number): Promise<PrintJob> {
    const job = await get(actor, id);
    if (job.held) throw heldRefusal(job);
    await markDownloaded(actor, id, { fromQueue: true });
    return applyChange(actor, id, { isPrinted: true }, { fromQueue: true });
  }

  /** Packed at the bench: only a printed job, once; who and when are kept. */
  const markPacked = (actor: Actor, id: number) => applyChange(actor, id, 'packed');

  /**
   * One copy packed at the bench (its slug reads PJ-<job>-<copy>), with who and when; the job is
   * packed once every copy of its print round is. Refused as packing the job is (not printed, held,
   * withdrawn, made by HP, packed already), and for a copy packed already, naming who packed it.
   */
  async function markCopyPacked(actor: Actor, id: number, copy: number): Promise<{ job: PrintJob; packedCopies: number }> {
    await find(actor, id);
    // Under the job's lock: of two packers of its last copies, the second counts the first's.
    const packedCopies = await db.transaction(async (trx) => {
      const tx = printJobsRepo(trx);
      await tx.lock(id);
      const job = await tx.byId(id);
      if (!job) throw notFound(JOB_NOT_FOUND);
      const copies = Math.max(1, job.quantity);
      if (copy < 1 || copy > copies) throw noSuchCopyRefusal(job, copy);
      if (job.withdrawn) throw withdrawnRefusal(job);
      if (job.held) throw heldRefusal(job);
      if (job.madeBy === 'provider') throw providerPacksRefusal(job);
      if (!job.isPrinted) throw conflict(NOT_PRINTED_YET);
      if (job.packedAt) throw alreadyPackedRefusal(job, config.sync.timezone);
      const round = job.reprintCount;
      const now = isoNow(clock);
      if (!(await tx.packCopy({ jobId: id, round, copy, at: now, userId: actor.id, name: nameOf(actor) }))) {
        throw copyAlreadyPackedRefusal(copy, copies, (await tx.copyPacking(id, round, copy)) ?? { packedAt: null, packedByName: null }, config.sync.timezone);
      }
      const packed = (await tx.packedCopies([id])).get(id) ?? 0;
      const which = copies > 1 ? `copy ${copy} of ${copies}` : null;
      if (packed < copies) {
        await recordJobChange(trx, job, { at: now, by: byUser(actor), action: 'copy-packed', reason: `${which}: ${packed} of ${copies} packed` });
        return packed;
      }
      // The last copy: the job is packed, counted once in the reports.
      const { state, event } = applyPrintJobChange(job, 'packed', now, actor.id, nameOf(actor), config.sync.timezone);
      if (!(await tx.changeState(id, job, state, now))) throw conflict('This job was changed by someone else at the same time; reload and try again');
      await recordJobChange(trx, job, { at: now, by: byUser(actor), action: event!, event: true, from: stateName(job), to: stateName({ ...job, ...state }), reason: which ? `${which}: every copy packed` : undefined });
      return packed;
    });
    return { job: (await repo.byId(id))!, packedCopies };
  }

  /** Reprint: a printed job goes back to the Jobs queue, with why and whose fault. */
  const reprint = (actor: Actor, id: number, why: ReprintWhyInput) => applyChange(actor, id, { isPDFDownloaded: false, isPrinted: false, isRePrinted: true }, { reprint: why });

  /** The PDF was served: the job counts as downloaded (a printed job stays printed; the queue's download refuses it). */
  const markDownloaded = (actor: Actor, jobId: number, opts: { printInHouse?: boolean; fromQueue?: boolean } = {}) => applyChange(actor, jobId, 'pdf-served', opts);

  /** 409 "Already printed by <name> at <time>", the time in the server's zone. */
  const alreadyPrinted = (job: PrintJob) => alreadyPrintedRefusal(job, config.sync.timezone);

  /** Approve anyway: a held job leaves Held for the ready list; who (their name as it is now) and when are kept. */
  async function approve(actor: Actor, id: number): Promise<PrintJob> {
    const job = await find(actor, id);
    const at = isoNow(clock);
    const approvedNow = job.held && (await db.transaction(async (trx) => {
      if (!(await printJobsRepo(trx).approve(id, { at, byUserId: actor.id, byName: nameOf(actor) }, at))) return false;
      await recordJobChange(trx, job, { at, by: byUser(actor), action: 'approved', from: 'held', to: stateName({ ...job, held: false }), reason: firstError(job.preflight)?.message ?? null });
      return true;
    }));
    if (!approvedNow) throw conflict(NOT_HELD);
    const approved = (await repo.byId(id))!;
    for (const hook of parts.approved ?? []) await hook(approved);
    return approved;
  }

  /**
   * Re-check: a job drawn from a design is drawn again from the design as it is now (a fixed
   * design is picked up), then checked; any approval is cleared.
   */
  async function recheck(actor: Actor, id: number, opts: { ownOrigin?: string } = {}): Promise<PrintJob> {
    const job = await find(actor, id);
    if (job.isPrinted) throw conflict('This job is already printed; use Reprint to put it back in the queue first');
    const design = job.designId !== null ? await findDesign(db, job.designId) : undefined;
    let redrawn: { artworkUrls: string[]; previewUrl: string | null; data: PrintJob['data'] } | null = null;
    const properties = Array.isArray(job.data.properties) ? (job.data.properties as Array<{ name: string; value: unknown }>) : [];
    // Drawn as production drew it when the job was made.
    const drawn = design && job.data.personalised === true ? await drawLine(parts.render, { userId: actor.id, siteId: job.clientId }, design, properties, { ownOrigin: opts.ownOrigin }) : undefined;
    if (drawn) {
      const { needsReview: _n, missingFields: _m, ...rest } = job.data;
      redrawn = { artworkUrls: drawn.artworkUrls, previewUrl: drawn.previewUrl, data: { ...rest, ...drawn.data } };
    } else if (design && !job.data.pregeneratedPDF && documentOf(design) !== undefined && Array.isArray(design.data.artworkUrls) && design.data.artworkUrls.length) {
      // A design's own pages, saved again with the design.
      redrawn = { artworkUrls: design.data.artworkUrls.filter((u): u is string => typeof u === 'string' && u !== ''), previewUrl: design.image ?? job.previewUrl, data: job.data };
    }
    const now = redrawn ?? job;
    const drawnFromDesign = redrawn !== null || job.data.personalised === true;
    const checked = await check(job.clientId, sourcesOf({ artworkUrls: now.artworkUrls, data: now.data }, design, drawnFromDesign), opts.ownOrigin);
    const held = isHeld(checked.preflight, null);
    const at = isoNow(clock);
    await db.transaction(async (trx) => {
      await printJobsRepo(trx).setPreflight(id, { preflight: checked.preflight, held, checkedAt: checked.checkedAt ?? at }, redrawn, at);
      await recordJobChange(trx, job, { at, by: byUser(actor), action: 'rechecked', from: stateName(job), to: stateName({ ...job, held }), reason: held ? (firstError(checked.preflight)?.message ?? null) : null });
    });
    return (await repo.byId(id))!;
  }

  /**
   * After stock came in: each job waiting for it, oldest first, is tried again; one it now covers
   * goes back in the queue (recorded as Presswork's), one still short keeps waiting with what it
   * is short of now. Two deliveries at once try each job once each, never reserving twice.
   */
  async function retryStockHolds(): Promise<number> {
    let released = 0;
    for (const job of await repo.waitingForStock(STOCK_RETRY_LIMIT)) {
      const freed = await db.transaction(async (trx) => {
        const at = isoNow(clock);
        const fresh = await printJobsRepo(trx).byId(job.id);
        if (!fresh?.stockHold || fresh.isPrinted || fresh.withdrawn || fresh.madeBy !== 'inHouse') return false;
        const reprint = fresh.reprintCount > 0 && fresh.lastReprint ? reprintLine({ reason: fresh.lastReprint.reason, responsible: fresh.lastReprint.responsible, note: fresh.lastReprint.note }) : null;
        const hold = await takeStock(trx, fresh, { automatic: AUTOMATIC.presswork }, at, reprint);
        if (hold) return false;
        await recordJobChange(trx, fresh, { at, by: { automatic: AUTOMATIC.presswork }, action: 'restored', from: 'held', to: stateName({ ...fresh, held: isHeld(fresh.preflight, fresh.preflightApproval) }), reason: 'stock received' });
        return true;
      });
      if (freed) released++;
    }
    return released;
  }

  /** Deletes the job, its production notes and its history in one transaction. */
  async function remove(actor: Actor, id: number): Promise<PrintJob> {
    const job = await find(actor, id);
    await db.transaction(async (trx) => {
      if (!job.isPrinted) await releaseJobStock(trx, id, stockByOf(byUser(actor)), isoNow(clock), 'job deleted');
      await printJobsRepo(trx).delete(id);
      await recordJobChange(trx, job, { at: isoNow(clock), by: byUser(actor), action: 'deleted', from: stateName(job), to: null });
    });
    return job;
  }

  /** GET /api/print-jobs/reports: from..to (inclusive days, UTC), default the last 30 days. */
  async function reports(actor: Actor, q: ReportsQuery) {
    const to = q.to ?? (q.from && q.from > dayOf(clock.now()) ? q.from : dayOf(clock.now()));
    const from = q.from ?? dayOf(new Date(Date.parse(`${to}T00:00:00Z`) - 29 * DAY_MS));
    const clientId = scope(actor, q.clientId);
    const bucket = bucketOf(from, to);
    const [figures, oldest, shipped] = await Promise.all([
      repo.reports({ fromAt: from, toAt: nextDay(to), clientId }),
      repo.list(readyQueue(clientId), defaultSort(false), 10, 0),
      parts.shippedLines({ fromAt: from, toAt: nextDay(to), siteId: clientId }),
    ]);
    // Each shipped line against its ship-by (the site's rule, from its order's time): the on-time rate.
    const shipBys = await shipBy.ofShippedLines(shipped);
    const lines: ReportLine[] = shipped.map((l, i) => ({ shippedAt: l.shippedAt, orderCreatedAt: l.orderCreatedAt, shipBy: shipBys[i] }));
    const rateOf = (n: number, of: number) => (of ? Math.round((n / of) * 10_000) / 10_000 : 0);
    const reprintsOf = (key: string, rows: Array<{ key: string; reprints: number }>) => rows.find((r) => r.key === key)?.reprints ?? 0;
    const printedOf = (productName: string) => figures.perProduct.find((p) => p.productName === productName)?.jobs ?? 0;
    return {
      from,
      to,
      clientId: clientId ?? null,
      printedPerDay: figures.printedPerDay,
      bucket,
      printedPerPeriod: printedPerPeriod(from, to, bucket, figures.printedPerDay),
      totals: {
        jobs: figures.printedPerDay.reduce((n, d) => n + d.jobs, 0),
        quantity: figures.printedPerDay.reduce((n, d) => n + d.quantity, 0),
      },
      perProduct: figures.perProduct,
      reprints: {
        printed: figures.printed,
        reprinted: figures.reprinted,
        rate: rateOf(figures.reprinted, figures.printed),
        // Rate = reprints / prints of the period (a product's: of that product's prints); every reason and party, zeros included.
        byReason: REPRINT_REASONS.map((reason) => {
          const n = reprintsOf(reason, figures.reprintsBy.reason);
          return { reason, reprints: n, rate: rateOf(n, figures.printed) };
        }),
        byResponsible: REPRINT_RESPONSIBLES.map((responsible) => {
          const n = reprintsOf(responsible, figures.reprintsBy.responsible);
          return { responsible, reprints: n, rate: rateOf(n, figures.printed) };
        }),
        byProduct: figures.reprintsBy.product
          .map((p) => ({ productName: p.key, printed: printedOf(p.key), reprints: p.reprints, rate: rateOf(p.reprints, printedOf(p.key)) }))
          .sort((a, b) => b.reprints - a.reprints || a.productName.localeCompare(b.productName)),
      },
      shipping: { shippedLines: lines.length, averageOrderToShipHours: averageOrderToShipHours(lines), onTime: onTimeRate(lines) },
      oldestUnprinted: await shipBy.onJobs(oldest.rows),
    };
  }

  return { retryStockHolds, list, adminList, get, find, create, change, markPrinted, markPrintedOnFloor, markPacked, markCopyPacked, reprint, markDownloaded, alreadyPrinted, moveJob, followLine, remove, fromShopifyOrder, reports, approve, recheck, repo };
}

export type PrintJobsService = ReturnType<typeof printJobsService>;
