// A batch's imposed press sheets: print files in, one PDF out — a cover, then each sheet's front
// and back, in the order a duplex press prints them. Each job's print file pages are embedded as
// form XObjects, their TrimBox put on a slot's trim and clipped to the slot's bleed; crop marks and
// a slug (vector Code 128 of the copy's code `PJ-<job id>-<copy>`, the order and the item's number)
// sit in the gap around it. sheets.ts has the geometry and the order slots are filled in.
//
// Memory and time follow the sheet, not the batch: one job's print file is read at a time, and
// each sheet is written to the output file as soon as it is full (pdfPageWriter). The page tree
// is written last, so the cover — made once the sheets are counted — still comes first.
//
// Printed two-sided as it is: when any leaf has a back, every sheet is a front and a back (a blank
// back where its leaves have none) and the cover is padded to an even number of pages, so sheet n's
// back always lands behind sheet n's front.
//
// The file is PDF/X-4 like the print files it carries: the same output intent (the site's profile,
// made into the file's intent by colourSetupOf as the pages' is), its XMP version, an ID, its font embedded (subset: only the glyphs drawn),
// and each page's own boxes (a sheet is its own finished size: TrimBox = BleedBox = MediaBox).
// A mug printer that wants mirrored transfers gets each wrap drawn back to front in its slot; the
// slug and crop marks stay as they are, so the sheet is still read and scanned on the floor.
import crypto from 'node:crypto';
import fontkit from '@pdf-lib/fontkit';
import bwipjs from 'bwip-js/node';
import { PDFDocument, PDFName, cmyk, type PDFFont, type PDFPage, type PDFRef } from 'pdf-lib';
import { batchCode, copyCode } from '../../../../common/api/scan';
import type { PrintFormat } from '../../../../common/design-doc/printSize';
import { formatDateTime } from '../../lib/clock';
import { colourSetupOf, pdfPageWriter, printFileId, sheetFontBytes, writeFileInChunks, type OutputIntent } from '../pdf';
import { backOf, chooseSheet, cropMarks, leavesOf, sheetFiller, sheetRule, type DuplexTurn, type ImposeSettings, type LeafSize, type Rect, type SheetLayout, type SlotPlace, DEFAULT_IMPOSE_SETTINGS } from './sheets';

const PT_PER_MM = 72 / 25.4;
const pt = (mm: number) => mm * PT_PER_MM;
const mmOf = (points: number) => points / PT_PER_MM;
// Made when drawn: pdf-lib loads on first use in the built server, not at start.
const black = () => cmyk(0, 0, 0, 1);

/** A job as its slug and the cover name it. */
export interface ImposeJob {
  jobId: number;
  /** The store order's name ("#1024"); null for a job made by hand. */
  orderName: string | null;
  productName: string;
  /** Copies to print: each copy takes its own slots and has its own code. */
  quantity: number;
  /** The job among its order's printed items (by line order), 1-based, and how many there are. */
  itemNumber: number;
  itemCount: number;
}

/** A job of the batch that is not on its sheets, and why (the cover names it). */
export interface LeftOutJob {
  jobId: number;
  orderName: string | null;
  reason: string;
}

export interface ImposeBatch {
  number: number;
  createdAt: string;
  createdByName: string | null;
  /** The jobs on the sheets, in this order. */
  jobs: ImposeJob[];
  leftOut?: LeftOutJob[];
}

/** How far the sheets are: jobs placed of all, sheets begun. */
export interface ImposeProgress {
  jobsDone: number;
  jobs: number;
  sheets: number;
}

/** A print file that cannot go on the batch's sheet (another size): the job is named. */
export class ImposeRefusal extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'ImposeRefusal';
  }
}

/** Code 128 of `text` as bar rectangles (x from 0, in modules), from bwip-js's encoder. */
export function code128Bars(text: string): { bars: Array<{ x: number; width: number }>; modules: number } {
  const [symbol] = bwipjs.raw('code128', text, {}) as Array<{ sbs: number[] }>;
  const bars: Array<{ x: number; width: number }> = [];
  let x = 0;
  symbol.sbs.forEach((w, i) => {
    // Widths alternate bar, space, bar …
    if (i % 2 === 0) bars.push({ x, width: w });
    x += w;
  });
  return { bars, modules: x };
}

/** Draws a vector Code 128 with its bottom-left at (x, y) mm; returns its width in mm. */
export function drawBarcode(page: PDFPage, text: string, at: { x: number; y: number; moduleMm: number; heightMm: number }): number {
  const { bars, modules } = code128Bars(text);
  for (const bar of bars) {
    page.drawRectangle({ x: pt(at.x + bar.x * at.moduleMm), y: pt(at.y), width: pt(bar.width * at.moduleMm), height: pt(at.heightMm), color: black() });
  }
  return modules * at.moduleMm;
}

// The characters a font can draw, read once per font (a slug's text is checked each time).
const characterSets = new WeakMap<PDFFont, Set<number>>();

/** Text the standard font can draw: anything else (emoji, other scripts) becomes "?". */
function drawable(font: PDFFont, text: string): string {
  let known = characterSets.get(font);
  if (!known) characterSets.set(font, (known = new Set(font.getCharacterSet())));
  return [...text].map((ch) => (known.has(ch.codePointAt(0)!) ? ch : '?')).join('');
}

// Each character's advance at size 1, per font: an embedded font lays out a whole string per
// measure, and a slug or cover line is measured once per character it is cut by.
const advances = new WeakMap<PDFFont, Map<string, number>>();

/** The width of `text` at `size`, from its characters' advances (kerning left out: a hair of room to spare). */
function widthOf(font: PDFFont, text: string, size: number): number {
  let known = advances.get(font);
  if (!known) advances.set(font, (known = new Map()));
  let width = 0;
  for (const ch of text) {
    let w = known.get(ch);
    if (w === undefined) known.set(ch, (w = font.widthOfTextAtSize(ch, 1)));
    width += w;
  }
  return width * size;
}

/** `text` cut to fit `room` points at `size` (nothing runs into its neighbour). */
function fitted(font: PDFFont, text: string, size: number, room: number): string {
  let shown = drawable(font, text);
  while (shown.length > 1 && widthOf(font, shown, size) > room) shown = shown.slice(0, -1);
  return shown;
}

/** "#1024 · 2 of 3" (a job made by hand: "Job 17"). */
export function itemLabel(job: Pick<ImposeJob, 'jobId' | 'orderName' | 'itemNumber' | 'itemCount'>): string {
  return job.orderName ? `${job.orderName} · ${job.itemNumber} of ${job.itemCount}` : `Job ${job.jobId}`;
}

/** "copy 2 of 4" of a job of several copies; empty for a job of one. */
export const copyLabel = (copy: number, quantity: number): string => (quantity > 1 ? `copy ${copy} of ${quantity}` : '');

const QUIET_MODULES = 10;

function drawSlug(page: PDFPage, font: PDFFont, slug: Rect, job: ImposeJob, copy: number): void {
  const moduleMm = 0.25;
  const heightMm = Math.max(2, slug.height - 0.6);
  const code = copyCode(job.jobId, copy);
  const width = drawBarcode(page, code, { x: slug.x + QUIET_MODULES * moduleMm, y: slug.y + 0.3, moduleMm, heightMm });
  const textX = slug.x + 2 * QUIET_MODULES * moduleMm + width;
  const size = Math.min(6, pt(slug.height) * 0.6);
  const line = [itemLabel(job), copyLabel(copy, job.quantity), code, job.productName].filter(Boolean).join(' · ');
  const room = pt(slug.x + slug.width - textX);
  if (room > 0) page.drawText(fitted(font, line, size, room), { x: pt(textX), y: pt(slug.y + 0.6), size, font, color: black() });
}

function drawCropMarks(page: PDFPage, place: SlotPlace, mirror: (p: [number, number]) => [number, number]): void {
  for (const line of cropMarks(place)) {
    const [x1, y1] = mirror(line.from);
    const [x2, y2] = mirror(line.to);
    page.drawLine({ start: { x: pt(x1), y: pt(y1) }, end: { x: pt(x2), y: pt(y2) }, thickness: 0.25, color: black() });
  }
}

/** The page's TrimBox and bleed in mm, read from the print file. */
function boxesOf(page: PDFPage): { trim: Rect; bleedMm: number } {
  const t = page.getTrimBox();
  const b = page.getBleedBox();
  const trim = { x: mmOf(t.x), y: mmOf(t.y), width: mmOf(t.width), height: mmOf(t.height) };
  return { trim, bleedMm: Math.max(0, Math.min(mmOf(t.x - b.x), mmOf(t.y - b.y), mmOf(b.x + b.width - t.x - t.width), mmOf(b.y + b.height - t.y - t.height))) };
}

/** One side of a leaf: the file's page with its TrimBox on `trim`, clipped to `bleedMm` around it (`mirror`: back to front, in the same place). */
async function placePage(sheetDoc: PDFDocument, target: PDFPage, source: PDFPage, trim: Rect, bleedMm: number, mirror = false): Promise<void> {
  const own = boxesOf(source);
  const keep = Math.min(bleedMm, own.bleedMm);
  // The embedded form's box is the trim plus the bleed it keeps: nothing beyond it is drawn.
  const box = { left: pt(own.trim.x - keep), bottom: pt(own.trim.y - keep), right: pt(own.trim.x + own.trim.width + keep), top: pt(own.trim.y + own.trim.height + keep) };
  const [form] = await sheetDoc.embedPages([source], [box]);
  if (mirror) target.drawPage(form, { x: pt(trim.x + trim.width + keep), y: pt(trim.y - keep), xScale: -1, yScale: 1 });
  else target.drawPage(form, { x: pt(trim.x - keep), y: pt(trim.y - keep) });
}

/** The sheet's own boxes: it is its finished size (the cutter works to the crop marks on it). */
function sheetBoxes(page: PDFPage): void {
  const { width, height } = page.getSize();
  const box = page.doc.context.obj([0, 0, width, height]);
  page.node.set(PDFName.of('TrimBox'), box);
  page.node.set(PDFName.of('BleedBox'), box);
}

async function embedSheetFonts(doc: PDFDocument): Promise<{ regular: PDFFont; bold: PDFFont }> {
  const bytes = await sheetFontBytes();
  doc.registerFontkit(fontkit);
  const [regular, bold] = await Promise.all([doc.embedFont(bytes.regular, { subset: true }), doc.embedFont(bytes.bold, { subset: true })]);
  return { regular, bold };
}

interface SheetInProgress {
  index: number;
  doc: PDFDocument;
  front: PDFPage;
  back: PDFPage | null;
  font: PDFFont;
}

export interface ImposeResult {
  /** Press sheets (each a front and, when the batch is two-sided, a back). */
  sheets: number;
  layout: SheetLayout;
  pages: number;
  /** Some leaf has a back: every sheet is a front and a back, printed duplex. */
  twoSided: boolean;
  /** The cover's pages, a blank back included. */
  coverPages: number;
  /** Copies on the sheets. */
  items: number;
}

export interface ImposeOptions {
  settings?: ImposeSettings;
  sheet?: string;
  /** What the batch's items are: the sheets they go on and how (sheetRule); a card's when not given. */
  format?: PrintFormat;
  /** The batch's site (names the file's ID). */
  siteId?: number;
  /** The site's printer profile, as its print files carry it; the bundled one when not given. */
  outputIntent?: OutputIntent;
  /** The zone the cover's dates are written in (DD/MM/YYYY HH:MM). */
  timeZone?: string;
  /** Called as each job is placed and once the file is written. */
  onProgress?: (progress: ImposeProgress) => void;
}

/**
 * Imposes the batch into `outPath`. `leaf` is the size every job prints at (the batch refuses
 * mixed sizes); `loadFile` gives one job's print file, asked for one job at a time.
 */
export async function imposeBatch(batch: ImposeBatch, leaf: LeafSize, loadFile: (job: ImposeJob) => Promise<Uint8Array>, outPath: string, opts: ImposeOptions = {}): Promise<ImposeResult> {
  const settings = opts.settings ?? DEFAULT_IMPOSE_SETTINGS;
  const layout = chooseSheet(leaf, settings, opts.sheet, opts.format);
  const { mirror: mirrored } = sheetRule(opts.format, leaf, settings);
  if (!layout) throw new ImposeRefusal(`A ${leaf.trimWidthMm} × ${leaf.trimHeightMm} mm item with its bleed and marks fits ${opts.sheet ? `no ${opts.sheet} sheet` : 'none of the press sheets'}`);
  const W = layout.widthMm;
  const H = layout.heightMm;
  const mirror = (p: [number, number]): [number, number] => {
    const r = backOf({ x: p[0], y: p[1], width: 0, height: 0 }, layout, settings.duplex);
    return [r.x, r.y];
  };
  const filler = sheetFiller(layout.slots.length);
  const progress = (jobsDone: number) => opts.onProgress?.({ jobsDone, jobs: batch.jobs.length, sheets: filler.sheets });

  const colour = await colourSetupOf(opts.outputIntent);
  const sources = crypto.createHash('sha256').update(JSON.stringify([opts.siteId ?? null, batch.number, batch.jobs.map((j) => [j.jobId, j.quantity]), leaf, layout.sheet]));
  const identity = { title: `Batch ${batch.number}`, createdAt: batch.createdAt, documentId: printFileId(`batch ${opts.siteId ?? ''}/${batch.number}`, sources.digest('hex')) };
  return writeFileInChunks(outPath, async (write) => {
    const out = pdfPageWriter(write, { colour, identity });
    const sheets: Array<{ front: PDFRef; back: PDFRef | null }> = [];
    let current: SheetInProgress | null = null;
    const newSheet = async (index: number): Promise<SheetInProgress> => {
      const doc = await PDFDocument.create({ updateMetadata: false });
      const { regular: font } = await embedSheetFonts(doc);
      const front = doc.addPage([pt(W), pt(H)]);
      sheetBoxes(front);
      return { index, doc, front, back: null, font };
    };
    // A full sheet goes to the file at once: only the sheet being filled is held.
    const finishSheet = async () => {
      if (!current) return;
      const [front, back] = await out.copyPages(current.doc);
      sheets.push({ front, back: back ?? null });
      current = null;
    };

    let items = 0;
    progress(0);
    for (const [done, job] of batch.jobs.entries()) {
      const file = await PDFDocument.load(await loadFile(job), { updateMetadata: false });
      const filePages = file.getPages();
      if (!filePages.length) throw new ImposeRefusal(`Job #${job.jobId}'s print file has no pages`);
      for (const p of filePages) {
        const { trim } = boxesOf(p);
        if (Math.abs(trim.width - leaf.trimWidthMm) > 0.5 || Math.abs(trim.height - leaf.trimHeightMm) > 0.5) {
          throw new ImposeRefusal(`Job #${job.jobId}'s print file is ${trim.width.toFixed(0)} × ${trim.height.toFixed(0)} mm, not the batch's ${leaf.trimWidthMm} × ${leaf.trimHeightMm} mm`);
        }
      }
      const leaves = leavesOf(filePages.length);
      for (let copy = 1; copy <= Math.max(1, job.quantity); copy++) {
        items++;
        const places = filler.place(leaves.length);
        for (const [i, [frontPage, backPage]] of leaves.entries()) {
          if (current && current.index !== places[i].sheet) await finishSheet();
          current ??= await newSheet(places[i].sheet);
          const sheet: SheetInProgress = current;
          const place = layout.slots[places[i].slot];
          await placePage(sheet.doc, sheet.front, filePages[frontPage], place.trim, leaf.bleedMm, mirrored);
          drawCropMarks(sheet.front, place, (p) => p);
          drawSlug(sheet.front, sheet.font, place.slug, job, copy);
          if (backPage !== null) {
            if (!sheet.back) {
              sheet.back = sheet.doc.addPage([pt(W), pt(H)]);
              sheetBoxes(sheet.back);
            }
            await placePage(sheet.doc, sheet.back, filePages[backPage], backOf(place.trim, layout, settings.duplex), leaf.bleedMm, mirrored);
            drawCropMarks(sheet.back, place, mirror);
          }
        }
      }
      progress(done + 1);
    }
    await finishSheet();

    const twoSided = sheets.some((s) => s.back !== null);
    const order: PDFRef[] = [];
    for (const s of sheets) order.push(s.front, ...(twoSided ? [s.back ?? (await out.blankPage(pt(W), pt(H)))] : []));
    const cover = await coverDocument(batch, layout, { sheets: sheets.length, items, twoSided, duplex: settings.duplex, mirrored, timeZone: opts.timeZone ?? 'UTC' });
    const coverPages = await out.copyPages(cover);
    await out.finish([...coverPages, ...order], { title: `Batch ${batch.number}` });
    progress(batch.jobs.length);
    return { sheets: sheets.length, layout, pages: coverPages.length + order.length, twoSided, coverPages: coverPages.length, items };
  });
}

/** How a two-sided batch is printed: the edge the printer flips the sheet on, for its page as laid out. */
export function duplexFlip(layout: Pick<SheetLayout, 'widthMm' | 'heightMm'>, duplex: DuplexTurn): 'long edge' | 'short edge' {
  // Turned side to side the sheet flips about its vertical edges; head to foot about its horizontal ones.
  const flipsOnVertical = duplex === 'turn';
  const verticalIsLong = layout.heightMm >= layout.widthMm;
  return flipsOnVertical === verticalIsLong ? 'long edge' : 'short edge';
}

/** How the sheets' file is printed, as the cover and the batch's page say it. */
export function howToPrint(twoSided: boolean, layout: Pick<SheetLayout, 'widthMm' | 'heightMm'>, duplex: DuplexTurn): string {
  if (!twoSided) return 'Print one-sided: one page a sheet, after this cover.';
  return `Print two-sided (duplex), flip on the ${duplexFlip(layout, duplex)}, the whole file as it is: the cover's back is blank, then each sheet's front and its back.`;
}

/**
 * The cover: the batch's barcode, its sheet and how to print it, the jobs left out and why, and its
 * jobs (order, product, quantity) with the totals. Every page carries the batch's number and
 * barcode (pages come apart on the floor); two-sided, it has an even number of pages.
 */
async function coverDocument(
  batch: ImposeBatch,
  layout: SheetLayout,
  made: { sheets: number; items: number; twoSided: boolean; duplex: DuplexTurn; mirrored: boolean; timeZone: string },
): Promise<PDFDocument> {
  const doc = await PDFDocument.create({ updateMetadata: false });
  const { regular: font, bold } = await embedSheetFonts(doc);
  const W = layout.widthMm;
  const H = layout.heightMm;
  const left = 15;
  const right = W - 15;
  const pages: PDFPage[] = [];
  let page!: PDFPage;
  let y = 0;
  const text = (s: string, x: number, size: number, f = font) => page.drawText(fitted(f, s, size, pt(right - x)), { x: pt(x), y: pt(y), size, font: f, color: black() });
  // Pages after the first start under their header (drawn once the pages are counted).
  const nextPage = () => {
    page = doc.addPage([pt(W), pt(H)]);
    sheetBoxes(page);
    pages.push(page);
    y = H - 40;
  };

  nextPage();
  y = H - 20;
  text(`Batch ${batch.number}`, left, 24, bold);
  y -= 22;
  drawBarcode(page, batchCode(batch.number), { x: left, y, moduleMm: 0.4, heightMm: 15 });
  y -= 6;
  text(batchCode(batch.number), left, 9);
  y -= 8;
  const s = (n: number, word: string) => `${n} ${word}${n === 1 ? '' : 's'}`;
  text(`Sheet ${layout.sheet.name} (${layout.widthMm} × ${layout.heightMm} mm), ${layout.slots.length} per side · ${s(made.sheets, 'sheet')}`, left, 11);
  y -= 6;
  text(howToPrint(made.twoSided, layout, made.duplex), left, 11, bold);
  y -= 6;
  if (made.mirrored) {
    text('Mirrored for the mug press: each wrap is printed back to front, to be pressed face down.', left, 11, bold);
    y -= 6;
  }
  const created = formatDateTime(batch.createdAt, made.timeZone);
  text(`${s(batch.jobs.length, 'job')} · ${s(made.items, 'item')} · created ${created}${batch.createdByName ? ` by ${batch.createdByName}` : ''}`, left, 11);
  y -= 10;
  const leftOut = batch.leftOut ?? [];
  if (leftOut.length) {
    text(`Not on these sheets (${leftOut.length}): they left the queue after the batch was made`, left, 11, bold);
    y -= 5;
    for (const job of leftOut) {
      if (y < 15) nextPage();
      text(`#${job.jobId}${job.orderName ? ` (${job.orderName})` : ''}: ${job.reason}`, left + 4, 9);
      y -= 4.5;
    }
    y -= 5;
  }
  const columns = [left, left + 25, left + 55, W - 30];
  const header = () => {
    ['Job', 'Order', 'Product', 'Qty'].forEach((h, i) => page.drawText(h, { x: pt(columns[i]), y: pt(y), size: 9, font: bold, color: black() }));
    y -= 5;
  };
  if (y < 20) nextPage();
  header();
  for (const job of batch.jobs) {
    if (y < 15) {
      nextPage();
      header();
    }
    const cells = [`#${job.jobId}`, job.orderName ? `${job.orderName} (${job.itemNumber} of ${job.itemCount})` : '-', job.productName, String(job.quantity)];
    cells.forEach((c, i) => page.drawText(fitted(font, c, 9, pt((columns[i + 1] ?? W - 10) - columns[i] - 2)), { x: pt(columns[i]), y: pt(y), size: 9, font, color: black() }));
    y -= 4.5;
  }
  // Every page after the first: the batch's number, the page and its barcode.
  pages.forEach((p, i) => {
    if (i === 0) return;
    p.drawText(`Batch ${batch.number} · cover page ${i + 1} of ${pages.length}`, { x: pt(left), y: pt(H - 20), size: 14, font: bold, color: black() });
    drawBarcode(p, batchCode(batch.number), { x: right - 50, y: H - 30, moduleMm: 0.4, heightMm: 12 });
  });
  if (made.twoSided && pages.length % 2 === 1) sheetBoxes(doc.addPage([pt(W), pt(H)]));
  return doc;
}
