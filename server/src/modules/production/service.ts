// What gets printed for an order line, in one place: which design prints it (designForLine.ts),
// its print job (found, or made — drawn with the line's personalisation whenever the design is
// personalised), where the item is made (in house or by the provider), and the print file of a
// job (the same bytes for the Jobs download, the order screens and the provider).
import crypto from 'node:crypto';
import { Readable } from 'node:stream';
import type { Knex } from 'knex';
import { PDFDocument } from 'pdf-lib';
import sharp from 'sharp';
import type { Db } from '../../db';
import type { Deps } from '../../deps';
import { HttpError, badRequest } from '../../http/errors';
import type { Actor } from '../../http/types';
import { isoNow } from '../../lib/clock';
import type { Design } from '../designs';
import type { ArtworkFetcher, OutputIntent } from '../pdf';
import { PRINT_FILE_NAME, assertPagesOf, buildPrintPdf } from '../pdf';
import { pageImageSizeProblem, pdfPageSizeProblem, printSizeOfFormat, type PrintFormat, type PrintSize } from '../../../../common/design-doc/printSize';
import type { DesignDocument } from '../../../../common/design-doc/types';
import { formatOfJob, type MadeBy, type PrintJob, printJobsOfOrder, OrderLineTaken, heldRefusal, type PrintJobsService, atProviderRefusal, withdrawnRefusal } from '../print-jobs';
import type { PrintPdfFrom } from '../../../../common/api/printProduction';
import type { PreflightFinding } from '../../../../common/api/preflight';
import type { RenderService } from '../render';
import { printFileKey, registerUpload, uploadExists } from '../uploads';
import type { FileStore } from '../uploads';
import { findDesign } from '../designs';
import { ECARD_NOT_PRINTED, designForLine, isEcardDesign, mapLines, type LineMapping, type LineRef } from './designForLine';
import { drawLine } from '../render';
import { NOTHING_LEFT, unitsToMake } from '../../../../common/api/units';
import { cancelledJobReason, type HeldOrder, type PrintHold } from '../orders';
import { linesSentToProvider, routeLine } from './route';
import { fieldError } from '../../http/fieldErrors';
import { findSite, type Site } from '../sites';
import { waitingLines, waitingReason, waitSettingsOf } from '../waiting';

/** The parts of a store order line production reads (a stored line, or a normalised one). */
export interface ProductionLine extends LineRef {
  name?: string | null;
  title?: string | null;
  product_id?: string | number | null;
  properties?: Array<{ name: string; value: unknown }> | null;
}

/** A line's job, asked for by an operator (their id) or by Presswork itself (null). */
export interface LineJobRequest {
  siteId: number;
  orderId: string;
  line: ProductionLine;
  /** Known already (the caller mapped the line); otherwise found by designForLine. */
  design?: Design;
  actorId: number | null;
  /** Where a new job's item is made. An existing job keeps its place. */
  madeBy: MadeBy;
  ownOrigin?: string;
}


/** 409 details code of "the line is in its change window or waiting for its proof: release it first". */
export const LINE_WAITING = 'LINE_WAITING';

/** 409 details code of "the line is in the Jobs queue: send it to the provider anyway?" */
export const IN_JOBS_QUEUE = 'IN_JOBS_QUEUE';

const text = (v: unknown) => (v === null || v === undefined ? '' : String(v));
const artworkOf = (design: Design) => (Array.isArray(design.data.artworkUrls) ? design.data.artworkUrls.filter((u): u is string => typeof u === 'string' && u !== '') : []);

/** The kind of file pages are built into: files kept under another kind (A5 pages, no PDF/X) are made again. */
const PRINT_FILE_FORMAT = 'pdfx-4';

/** The size a job prints at: its format's (print-jobs' formatOfJob), with its design's own bleed when the design's document is of that format. */
export function printSizeOfJob(job: Pick<PrintJob, 'productType' | 'data'>, design: Design | undefined): PrintSize {
  const doc = design?.data.document;
  const document = doc && typeof doc === 'object' && typeof (doc as { format?: unknown }).format === 'string' ? (doc as Pick<DesignDocument, 'format' | 'bleed'>) : null;
  return printSizeOfFormat(formatOfJob(job, design), document);
}

/** A mug's or a poster's pages must be its size: refused with a sentence naming the product, what it needs and what it got (a card's page is placed inside its trim, as before). */
async function assertPageSizes(format: PrintFormat, size: PrintSize, pages: Buffer[]): Promise<void> {
  if (format === 'card-a5') return;
  for (const [i, bytes] of pages.entries()) {
    const meta = await sharp(bytes).metadata().catch(() => null);
    // An unreadable page is refused by the PDF build with its own sentence.
    if (!meta?.width || !meta.height) continue;
    const problem = pageImageSizeProblem(format, i + 1, { width: meta.width, height: meta.height }, size);
    if (problem) throw badRequest(problem);
  }
}

/** A mug's or a poster's pregenerated PDF: its page count and each page's TrimBox against the product. */
async function assertPdfFits(format: PrintFormat, size: PrintSize, pdf: Buffer): Promise<void> {
  if (format === 'card-a5') return;
  let pages;
  try {
    pages = (await PDFDocument.load(pdf, { updateMetadata: false })).getPages();
  } catch {
    throw fieldError('data.pregeneratedPDF', 'leads to a PDF that cannot be read');
  }
  assertPagesOf(format, pages.length);
  const mm = (pt: number) => (pt * 25.4) / 72;
  pages.forEach((p, i) => {
    const trim = p.getTrimBox();
    const problem = pdfPageSizeProblem(format, i + 1, { widthMm: mm(trim.width), heightMm: mm(trim.height) }, size);
    if (problem) throw badRequest(problem);
  });
}

/** Units of a line to make (units.ts); 0 for a line whose units were all removed or refunded. */
export const quantityOf = (line: ProductionLine) => unitsToMake(line);

export interface ProductionParts {
  store: FileStore;
  artwork: ArtworkFetcher;
  render: Pick<RenderService, 'isRenderable' | 'renderLine'>;
  printJobs: PrintJobsService;
  /** The output intent of a site's print files (the pdf module's print profiles); the bundled profile when not given. */
  outputIntentOf?: (siteId: number) => Promise<OutputIntent>;
}

export function productionService(deps: Deps, parts: ProductionParts) {
  const { db, clock, config } = deps;
  const { store, artwork, render, printJobs } = parts;
  const fileKeySecret = crypto.createHmac('sha256', config.jwt.secret).update('presswork-print-files').digest();
  const publicBase = () => config.publicUrl ?? `http://localhost:${config.port}`;

  // -------------------------------------------------------------------------------------------
  // The print job of a line

  /** The line's job, if it has one. */
  async function jobOfLine(siteId: number, orderId: string, lineId: string, trx: Db | Knex.Transaction = db): Promise<PrintJob | undefined> {
    return (await printJobsOfOrder(trx, siteId, orderId)).find((j) => j.lineItemId === lineId);
  }

  /** What a new job of this line is made from: the design's pages drawn with the line's properties, its artwork, or its product PDF. */
  async function artworkForLine(req: LineJobRequest, design: Design) {
    const drawn = await drawLine(render, { userId: req.actorId, siteId: req.siteId }, design, req.line.properties ?? [], { ownOrigin: req.ownOrigin });
    if (drawn) return { artworkUrls: drawn.artworkUrls, previewUrl: drawn.previewUrl ?? undefined, data: drawn.data };
    const artworkUrls = artworkOf(design);
    if (!artworkUrls.length && !design.productPdf) throw badRequest(`The design "${design.name}" has no artwork yet`);
    return { artworkUrls, previewUrl: design.image ?? undefined, data: artworkUrls.length ? {} : { pregeneratedPDF: design.productPdf } };
  }

  /**
   * The line's print job: the one it has, else a new one made from its design (a personalised
   * design drawn with the line's properties). A line never has two jobs (unique order + line).
   */
  async function jobForLine(req: LineJobRequest): Promise<{ job: PrintJob; created: boolean }> {
    const lineId = text(req.line.id);
    const existing = await jobOfLine(req.siteId, req.orderId, lineId);
    if (existing) return { job: existing, created: false };
    if (unitsToMake(req.line) === 0) throw badRequest(NOTHING_LEFT);
    let design = req.design;
    if (!design) {
      const m = await designForLine(db, req.siteId, req.line);
      if (!m.design) throw badRequest(m.reason ?? 'No design prints this line');
      design = m.design;
    }
    if (isEcardDesign(design)) throw badRequest(ECARD_NOT_PRINTED);
    const made = await artworkForLine(req, design);
    const maker: Actor = { id: req.actorId ?? 0, firstName: 'Presswork', lastName: '', email: '', role: 'admin', siteId: req.siteId };
    const properties = (req.line.properties ?? []).filter((p) => p && typeof p.name === 'string');
    try {
      const job = await printJobs.create(
        maker,
        {
          clientId: req.siteId,
          artworkUrls: made.artworkUrls,
          previewUrl: made.previewUrl,
          quantity: quantityOf(req.line),
          designId: design.id,
          shopifyOrderId: req.orderId,
          lineItemId: lineId,
          productName: (text(req.line.name) || text(req.line.title) || design.name).slice(0, 255),
          productId: design.productId ?? undefined,
          data: {
            ...(req.line.product_id ? { storeProductId: String(req.line.product_id) } : {}),
            ...(properties.length ? { properties: properties.map((p) => ({ name: p.name, value: text(p.value) })) } : {}),
            ...made.data,
          },
        },
        { madeBy: req.madeBy, byUserId: req.actorId, ownOrigin: req.ownOrigin },
      );
      return { job, created: true };
    } catch (err) {
      // Made at the same moment by another click, tab or send: that one is the line's job.
      if (!(err instanceof OrderLineTaken)) throw err;
      const raced = await jobOfLine(req.siteId, req.orderId, lineId);
      if (!raced) throw new OrderLineTaken();
      return { job: raced, created: false };
    }
  }

  /** A line's pages without making a job: a personalised design drawn with the line's properties, else the design's artwork (actor null: Presswork itself). */
  async function linePages(actor: Pick<Actor, 'id'> | null, siteId: number, design: Design, line: ProductionLine, opts: { page?: number; ownOrigin?: string } = {}) {
    if (render.isRenderable(design)) {
      const pages = opts.page === undefined ? undefined : [opts.page - 1];
      return render.renderLine({ userId: actor?.id ?? null, siteId }, design, line.properties ?? [], { pages, ownOrigin: opts.ownOrigin });
    }
    const images = artworkOf(design);
    if (opts.page !== undefined && opts.page > images.length) throw fieldError('page', `must be at most ${images.length} (the design has ${images.length} page${images.length === 1 ? '' : 's'})`);
    return { images: opts.page === undefined ? images : [images[opts.page - 1]], preview: design.image, missing: [] as string[] };
  }

  // -------------------------------------------------------------------------------------------
  // Where an item is made

  /** Where each line of an order with a job is made (Check order shows it). */
  async function whereMade(
    siteId: number,
    orderId: string,
  ): Promise<Array<{ lineId: string; printJobId: number; madeBy: MadeBy; isPrinted: boolean; withdrawn: string | null; held: boolean; preflight: PreflightFinding[] }>> {
    return (await printJobsOfOrder(db, siteId, orderId))
      .filter((j) => j.lineItemId !== null)
      .map((j) => ({ lineId: j.lineItemId!, printJobId: j.id, madeBy: j.madeBy, isPrinted: j.isPrinted, withdrawn: j.withdrawn?.reason ?? null, held: j.held, preflight: j.preflight }));
  }

  /**
   * Before lines go to the provider: those queued in house are sent only when the operator said so
   * (`confirmed`), and then leave the queue; otherwise 409 naming them, so the question can be asked.
   * A line already printed in house is named as such.
   */
  async function takeLinesFromQueue(trx: Knex.Transaction, siteId: number, orderId: string, lineIds: string[] | undefined, actorId: number, confirmed: boolean): Promise<void> {
    const jobs = (await printJobsOfOrder(trx, siteId, orderId)).filter((j) => j.madeBy === 'inHouse' && j.lineItemId !== null && (!lineIds || lineIds.includes(j.lineItemId)));
    if (!jobs.length) return;
    if (!confirmed) {
      const lines = jobs.map((j) => ({ lineId: j.lineItemId, printJobId: j.id, productName: j.productName, isPrinted: j.isPrinted, isPDFDownloaded: j.isPDFDownloaded, printedAt: j.printedAt }));
      const printed = jobs.filter((j) => j.isPrinted).length;
      const what = jobs.length === 1 ? `"${jobs[0].productName}" is` : `${jobs.length} lines are`;
      throw new HttpError(
        409,
        printed
          ? `${what} already printed in house (${printed === jobs.length ? 'all' : printed} of them). Send to HP Site Flow anyway? HP would make ${jobs.length === 1 ? 'it' : 'them'} again.`
          : `${what} in the Jobs queue to be printed in house. Send to HP Site Flow instead? ${jobs.length === 1 ? 'It leaves' : 'They leave'} the Jobs queue.`,
        { code: IN_JOBS_QUEUE, lines, confirmWith: { sendFromJobs: true } },
      );
    }
    for (const job of jobs) await printJobs.moveJob(trx, job, 'provider', actorId);
  }

  /** What each line of an order waits for (the change window, the proof), with its sentence. `site`: the order's site when the caller holds it. */
  async function waitsOf(trx: Db | Knex.Transaction, siteId: number, orderId: string, site?: Site) {
    const waits = await waitingLines(trx, siteId, orderId, waitSettingsOf(site ?? (await findSite(trx, siteId))));
    const of = (lineId: string) => {
      const state = waits.get(lineId);
      return state ? { state, sentence: waitingReason(state, config.sync.timezone) } : null;
    };
    return Object.assign(of, { lineIds: [...waits.keys()] });
  }

  /**
   * Where each line of an order goes and whether it may go now (routeLine), with its job. `known`:
   * what the caller read in this transaction already (the order's site, its lines' designs mapped
   * in the order's line order), not read again.
   */
  async function routeLines(trx: Db | Knex.Transaction, siteId: number, order: { id: string; line_items: ProductionLine[]; preGeneratedHPItems?: unknown }, hold?: PrintHold, known: { site?: Site; mapped?: Array<LineMapping<ProductionLine>> } = {}) {
    const jobs = await printJobsOfOrder(trx, siteId, String(order.id));
    const sent = linesSentToProvider(order);
    const waiting = await waitsOf(trx, siteId, String(order.id), known.site);
    const mapped = known.mapped?.length === order.line_items.length ? known.mapped : await mapLines(trx, siteId, order);
    return mapped.map((mapping) => {
      const job = jobs.find((j) => j.lineItemId === String(mapping.line.id));
      return { mapping, job, route: routeLine({ hold, mapping, job, sentToProvider: sent.has(String(mapping.line.id)), waiting: waiting(String(mapping.line.id)) }) };
    });
  }

  /** 409 when the line waits (its change window, its proof): nothing is made of it until it is released. */
  async function refuseWaiting(trx: Db | Knex.Transaction, siteId: number, orderId: string, lineIds?: string[]): Promise<void> {
    const waiting = await waitsOf(trx, siteId, orderId);
    const lines = waiting.lineIds.filter((id) => !lineIds || lineIds.includes(id));
    if (!lines.length) return;
    const first = waiting(lines[0])!;
    const what = lines.length === 1 ? 'The line is' : `${lines.length} lines are`;
    throw new HttpError(409, `${what} ${first.sentence}: nothing is made of ${lines.length === 1 ? 'it' : 'them'} until then. Release the order now to make ${lines.length === 1 ? 'it' : 'them'} at once.`, {
      code: LINE_WAITING,
      lines: lines.map((lineId) => ({ lineId, waiting: waiting(lineId)!.state })),
    });
  }

  /**
   * After a store change of an order: each unprinted job follows its line — out of the queue with
   * the reason when the order was cancelled or the line's units are all gone, back in play and
   * with the line's units otherwise. In the caller's transaction.
   */
  async function followOrder(trx: Db | Knex.Transaction, siteId: number, order: HeldOrder & { id: string; line_items: ProductionLine[] }): Promise<void> {
    const cancelled = cancelledJobReason(order);
    for (const job of await printJobsOfOrder(trx, siteId, String(order.id))) {
      if (job.lineItemId === null || job.isPrinted) continue;
      const line = order.line_items.find((l) => String(l.id) === job.lineItemId);
      const units = line ? unitsToMake(line) : 0;
      await printJobs.followLine(trx, job, { withdrawn: cancelled ?? (units === 0 ? NOTHING_LEFT : null), quantity: units });
    }
  }

  // -------------------------------------------------------------------------------------------
  // The print file of a job

  const inFlight = new Map<string, Promise<Buffer>>();

  /** A fetch failure names the page ("Page 2"), or the pregenerated file's field, it belongs to. */
  async function fetchPart(url: string, what: string, ownOrigin: string): Promise<Buffer> {
    try {
      return await artwork(url, { ownOrigin });
    } catch (err) {
      if (err instanceof HttpError && err.status === 400) throw what.startsWith('Page ') ? badRequest(`${what}: ${err.message}`) : fieldError(what, `cannot be used: ${err.message}`);
      throw err;
    }
  }

  /** What a job's file is made from: its pregenerated PDF, else its pages (or pages given for this download). */
  function sourceOf(job: PrintJob, images?: string[]): { pdf: string } | { pages: string[] } {
    if (images) return { pages: images };
    if (job.data.pregeneratedPDF) return { pdf: job.data.pregeneratedPDF };
    return { pages: job.artworkUrls };
  }

  async function build(job: PrintJob, source: { pdf: string } | { pages: string[] }, format: PrintFormat, size: PrintSize, ownOrigin: string, outputIntent: OutputIntent | undefined): Promise<Buffer> {
    // Checked by preflight, never rewritten: the provider's or designer's file is printed as it is.
    if ('pdf' in source) {
      const pdf = await fetchPart(source.pdf, 'data.pregeneratedPDF', ownOrigin);
      if (pdf.subarray(0, 5).toString('latin1') !== '%PDF-') throw fieldError('data.pregeneratedPDF', 'leads to a file that is not a PDF');
      await assertPdfFits(format, size, pdf);
      return pdf;
    }
    assertPagesOf(format, source.pages.length);
    const pages = await Promise.all(source.pages.map((url, i) => fetchPart(url, `Page ${i + 1}`, ownOrigin)));
    await assertPageSizes(format, size, pages);
    // Dated and named by the job, so a rebuild (another instance, a cleared store) gives the same bytes.
    const file = { owner: `job ${job.id}`, title: job.productName, createdAt: job.createdAt };
    return Buffer.from(await buildPrintPdf(pages, { format, size, outputIntent, file, observe: deps.metrics?.pdfTask.printFile }));
  }

  /**
   * The job's print file: made once from what the job holds and kept under an unguessable key
   * (the job and its sources), so every later download and the provider get the same bytes.
   */
  async function printFile(job: PrintJob, opts: { ownOrigin?: string; images?: string[] } = {}): Promise<{ pdf: Buffer; key: string }> {
    const design = job.designId !== null ? await findDesign(db, job.designId) : undefined;
    // A job made before its design became an e-card: no print file either.
    if (job.designId !== null && isEcardDesign(design)) throw badRequest(ECARD_NOT_PRINTED);
    const source = sourceOf(job, opts.images);
    const format = formatOfJob(job, design);
    const size = printSizeOfJob(job, design);
    // Pages are built into a file of the job's size (a design's new bleed is a new file); a pregenerated PDF is kept as it is.
    // The site's colour profile is part of what pages are built into: another profile, another file.
    // The bundled profile adds nothing, so files kept from before profiles existed keep their keys.
    const outputIntent = 'pdf' in source ? undefined : await parts.outputIntentOf?.(job.clientId);
    const intentPart = outputIntent && outputIntent.identity !== 'bundled' ? [outputIntent.identity] : [];
    const made = 'pdf' in source ? [job.id, source] : [job.id, source, PRINT_FILE_FORMAT, size.trimWidthMm, size.trimHeightMm, size.bleedMm, ...intentPart];
    const token = crypto.createHmac('sha256', fileKeySecret).update(JSON.stringify(made)).digest('hex').slice(0, 40);
    const key = printFileKey(job.clientId, token, PRINT_FILE_NAME);
    let pending = inFlight.get(key);
    if (!pending) {
      pending = (async () => {
        const kept = await store.read(key);
        if (kept && (await uploadExists(db, key))) return kept;
        const pdf = await build(job, source, format, size, opts.ownOrigin ?? publicBase(), outputIntent);
        await store.put(key, Readable.from(pdf));
        await registerUpload(db, { key, contentType: 'application/pdf', size: pdf.length, userId: null, siteId: job.clientId, createdAt: isoNow(clock) });
        return pdf;
      })().finally(() => inFlight.delete(key));
      inFlight.set(key, pending);
    }
    return { pdf: await pending, key };
  }

  /** The job's print file at an address the provider can fetch. */
  async function printFileUrl(job: PrintJob): Promise<string> {
    const { key } = await printFile(job, { ownOrigin: publicBase() });
    return `${publicBase()}/files/${key}`;
  }

  /** Why an operator may not have this job's file now (null: they may), for one download or many. */
  function downloadRefusal(job: PrintJob, opts: { fromQueue: boolean; printInHouse?: boolean }): HttpError | null {
    // The Jobs queue hands out only what is still to print: a stale tab gets who printed it, no file.
    if (opts.fromQueue && job.isPrinted) return printJobs.alreadyPrinted(job);
    if (job.withdrawn) return withdrawnRefusal(job);
    // The Jobs queue never hands out a held job's file; Print History (a printed job) still does.
    if (opts.fromQueue && job.held) return heldRefusal(job);
    // Asked before the file is handed out; the yes is recorded when the download is.
    if (job.madeBy === 'provider' && !opts.printInHouse) return atProviderRefusal(job);
    return null;
  }

  /** An operator's download of a job's file (Jobs, Print History): asks first for the provider's item; serving it marks the job downloaded. */
  async function downloadJobFile(actor: Actor, jobId: number, opts: { ownOrigin: string; images?: string[]; printInHouse?: boolean; from?: PrintPdfFrom }): Promise<Buffer> {
    const job = await printJobs.find(actor, jobId);
    const fromQueue = opts.from === 'jobs';
    const refusal = downloadRefusal(job, { fromQueue, printInHouse: opts.printInHouse });
    if (refusal) throw refusal;
    const { pdf } = await printFile(job, opts);
    await printJobs.markDownloaded(actor, job.id, { printInHouse: opts.printInHouse, fromQueue });
    return pdf;
  }

  /** The order screens' PDF of a line: the line's job (made if it has none), its file, marked downloaded. */
  async function downloadLineFile(actor: Actor, req: Omit<LineJobRequest, 'actorId' | 'madeBy'> & { printInHouse?: boolean }): Promise<Buffer> {
    const { job } = await jobForLine({ ...req, actorId: actor.id, madeBy: 'inHouse' });
    return downloadJobFile(actor, job.id, { ownOrigin: req.ownOrigin ?? publicBase(), printInHouse: req.printInHouse });
  }

  return {
    mapLines: <L extends ProductionLine>(siteId: number, order: { line_items: L[] }, trx: Db | Knex.Transaction = db) => mapLines(trx, siteId, order),
    designForLine: <L extends ProductionLine>(siteId: number, line: L, trx: Db | Knex.Transaction = db) => designForLine(trx, siteId, line),
    jobOfLine,
    jobForLine,
    whereMade,
    linePages,
    takeLinesFromQueue,
    /** A job the provider makes from now on (the send's own decision, no operator asked: null). */
    moveToProvider: (job: PrintJob, byUserId: number | null) => printJobs.moveJob(db, job, 'provider', byUserId),
    routeLines,
    refuseWaiting,
    followOrder,
    printFile,
    printFileUrl,
    downloadRefusal,
    downloadJobFile,
    downloadLineFile,
  };
}

export type ProductionService = ReturnType<typeof productionService>;
