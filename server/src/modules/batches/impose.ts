// A batch's imposed press sheets: print files in, one PDF out (a cover sheet, then each sheet's
// front and back). Each job's print file pages are embedded as form XObjects, their TrimBox put
// on a slot's trim and clipped to the slot's bleed; crop marks and a slug (vector Code 128 of
// `PJ-<job id>`, the order and the item's number) sit in the gap around it. sheets.ts has the
// geometry.
//
// Memory stays bounded by the sheet: one job's file is read at a time, each sheet is saved to a
// temporary file as soon as it is full, and qpdf joins the files on disk.
import { execFile } from 'node:child_process';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import bwipjs from 'bwip-js/node';
import { PDFDocument, StandardFonts, cmyk, type PDFFont, type PDFPage } from 'pdf-lib';
import { backOf, chooseSheet, cropMarks, leavesOf, type ImposeSettings, type LeafSize, type Rect, type SheetLayout, type SlotPlace, DEFAULT_IMPOSE_SETTINGS } from './sheets';

const run = promisify(execFile);
const PT_PER_MM = 72 / 25.4;
const pt = (mm: number) => mm * PT_PER_MM;
const mmOf = (points: number) => points / PT_PER_MM;
const BLACK = cmyk(0, 0, 0, 1);

/** A job as its slug and the cover name it. */
export interface ImposeJob {
  jobId: number;
  /** The store order's name ("#1024"); null for a job made by hand. */
  orderName: string | null;
  productName: string;
  /** Copies to print: each copy takes its own slots. */
  quantity: number;
  /** The job among its order's printed items (by line order), 1-based, and how many there are. */
  itemNumber: number;
  itemCount: number;
}

export interface ImposeBatch {
  number: number;
  createdAt: string;
  createdByName: string | null;
  jobs: ImposeJob[];
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
    page.drawRectangle({ x: pt(at.x + bar.x * at.moduleMm), y: pt(at.y), width: pt(bar.width * at.moduleMm), height: pt(at.heightMm), color: BLACK });
  }
  return modules * at.moduleMm;
}

/** Text the standard font can draw: anything else (emoji, other scripts) becomes "?". */
function drawable(font: PDFFont, text: string): string {
  const known = new Set(font.getCharacterSet());
  return [...text].map((ch) => (known.has(ch.codePointAt(0)!) ? ch : '?')).join('');
}

/** "#1024 · 2 of 3" (a job made by hand: "Job 17"). */
export function itemLabel(job: Pick<ImposeJob, 'jobId' | 'orderName' | 'itemNumber' | 'itemCount'>): string {
  return job.orderName ? `${job.orderName} · ${job.itemNumber} of ${job.itemCount}` : `Job ${job.jobId}`;
}

/** The barcodes' texts of a job and of a batch cover; the scan station reads them back (modules/scan). */
export const JOB_CODE_PREFIX = 'PJ-';
export const BATCH_CODE_PREFIX = 'PB-';
export const jobCode = (jobId: number) => `${JOB_CODE_PREFIX}${jobId}`;
export const batchCode = (n: number) => `${BATCH_CODE_PREFIX}${n}`;

const QUIET_MODULES = 10;

function drawSlug(page: PDFPage, font: PDFFont, slug: Rect, job: ImposeJob, copy: number): void {
  const moduleMm = 0.25;
  const heightMm = Math.max(2, slug.height - 0.6);
  const width = drawBarcode(page, jobCode(job.jobId), { x: slug.x + QUIET_MODULES * moduleMm, y: slug.y + 0.3, moduleMm, heightMm });
  const textX = slug.x + (2 * QUIET_MODULES) * moduleMm + width;
  const size = Math.min(6, pt(slug.height) * 0.6);
  const copies = job.quantity > 1 ? ` · copy ${copy} of ${job.quantity}` : '';
  const line = drawable(font, `${itemLabel(job)}${copies} · ${jobCode(job.jobId)} · ${job.productName}`);
  // Cut to the slug's width: the text never runs into the next slot.
  let shown = line;
  const room = pt(slug.x + slug.width - textX);
  while (shown.length > 1 && font.widthOfTextAtSize(shown, size) > room) shown = shown.slice(0, -1);
  if (room > 0) page.drawText(shown, { x: pt(textX), y: pt(slug.y + 0.6), size, font, color: BLACK });
}

function drawCropMarks(page: PDFPage, place: SlotPlace, mirror: (p: [number, number]) => [number, number]): void {
  for (const line of cropMarks(place)) {
    const [x1, y1] = mirror(line.from);
    const [x2, y2] = mirror(line.to);
    page.drawLine({ start: { x: pt(x1), y: pt(y1) }, end: { x: pt(x2), y: pt(y2) }, thickness: 0.25, color: BLACK });
  }
}

/** The page's TrimBox and bleed in mm, read from the print file. */
function boxesOf(page: PDFPage): { trim: Rect; bleedMm: number } {
  const t = page.getTrimBox();
  const b = page.getBleedBox();
  const trim = { x: mmOf(t.x), y: mmOf(t.y), width: mmOf(t.width), height: mmOf(t.height) };
  return { trim, bleedMm: Math.max(0, Math.min(mmOf(t.x - b.x), mmOf(t.y - b.y), mmOf(b.x + b.width - t.x - t.width), mmOf(b.y + b.height - t.y - t.height))) };
}

/** One side of a leaf: the file's page with its TrimBox on `trim`, clipped to `bleedMm` around it. */
async function placePage(sheetDoc: PDFDocument, target: PDFPage, source: PDFPage, trim: Rect, bleedMm: number): Promise<void> {
  const own = boxesOf(source);
  const keep = Math.min(bleedMm, own.bleedMm);
  // The embedded form's box is the trim plus the bleed it keeps: nothing beyond it is drawn.
  const box = { left: pt(own.trim.x - keep), bottom: pt(own.trim.y - keep), right: pt(own.trim.x + own.trim.width + keep), top: pt(own.trim.y + own.trim.height + keep) };
  const [form] = await sheetDoc.embedPages([source], [box]);
  target.drawPage(form, { x: pt(trim.x - keep), y: pt(trim.y - keep) });
}

interface SheetInProgress {
  doc: PDFDocument;
  front: PDFPage;
  back: PDFPage | null;
  font: PDFFont;
  used: number;
}

export interface ImposeResult {
  /** Press sheets (each a front and, when any leaf has one, a back). */
  sheets: number;
  layout: SheetLayout;
  pages: number;
}

/**
 * Imposes the batch into `outPath`. `leaf` is the size every job prints at (the batch refuses
 * mixed sizes); `loadFile` gives one job's print file, asked for one job at a time.
 */
export async function imposeBatch(
  batch: ImposeBatch,
  leaf: LeafSize,
  loadFile: (job: ImposeJob) => Promise<Uint8Array>,
  outPath: string,
  opts: { settings?: ImposeSettings; sheet?: string } = {},
): Promise<ImposeResult> {
  const settings = opts.settings ?? DEFAULT_IMPOSE_SETTINGS;
  const layout = chooseSheet(leaf, settings, opts.sheet);
  if (!layout) throw new ImposeRefusal(`A ${leaf.trimWidthMm} × ${leaf.trimHeightMm} mm item with its bleed and marks fits ${opts.sheet ? `no ${opts.sheet} sheet` : 'none of the press sheets'}`);
  const dir = await fs.mkdtemp(path.join(os.tmpdir(), 'presswork-batch-'));
  const files: string[] = [];
  let pages = 0;
  const W = layout.widthMm;
  const H = layout.heightMm;
  const mirror = (p: [number, number]): [number, number] => {
    const r = backOf({ x: p[0], y: p[1], width: 0, height: 0 }, layout, settings.duplex);
    return [r.x, r.y];
  };
  let current: SheetInProgress | null = null;

  const newSheet = async (): Promise<SheetInProgress> => {
    const doc = await PDFDocument.create();
    doc.setTitle(`Batch ${batch.number}, sheet ${files.length + 1}`);
    const font = await doc.embedFont(StandardFonts.Helvetica);
    const front = doc.addPage([pt(W), pt(H)]);
    return { doc, front, back: null, font, used: 0 };
  };
  const finishSheet = async () => {
    if (!current) return;
    const file = path.join(dir, `sheet-${files.length + 1}.pdf`);
    await fs.writeFile(file, await current.doc.save({ useObjectStreams: false }));
    files.push(file);
    pages += current.back ? 2 : 1;
    current = null;
  };

  try {
    for (const job of batch.jobs) {
      const file = await PDFDocument.load(await loadFile(job), { updateMetadata: false });
      const filePages = file.getPages();
      if (!filePages.length) throw new ImposeRefusal(`Job #${job.jobId}'s print file has no pages`);
      for (const p of filePages) {
        const { trim } = boxesOf(p);
        if (Math.abs(trim.width - leaf.trimWidthMm) > 0.5 || Math.abs(trim.height - leaf.trimHeightMm) > 0.5) {
          throw new ImposeRefusal(
            `Job #${job.jobId}'s print file is ${trim.width.toFixed(0)} × ${trim.height.toFixed(0)} mm, not the batch's ${leaf.trimWidthMm} × ${leaf.trimHeightMm} mm`,
          );
        }
      }
      const leaves = leavesOf(filePages.length);
      for (let copy = 1; copy <= Math.max(1, job.quantity); copy++) {
        // A job's leaves stay on one sheet when they can.
        if (current && current.used > 0 && current.used + leaves.length > layout.slots.length) await finishSheet();
        for (const [frontPage, backPage] of leaves) {
          if (current && current.used >= layout.slots.length) await finishSheet();
          current ??= await newSheet();
          const sheet: SheetInProgress = current;
          const place = layout.slots[sheet.used++];
          await placePage(sheet.doc, sheet.front, filePages[frontPage], place.trim, leaf.bleedMm);
          drawCropMarks(sheet.front, place, (p) => p);
          drawSlug(sheet.front, sheet.font, place.slug, job, copy);
          if (backPage !== null) {
            sheet.back ??= sheet.doc.addPage([pt(W), pt(H)]);
            await placePage(sheet.doc, sheet.back, filePages[backPage], backOf(place.trim, layout, settings.duplex), leaf.bleedMm);
            drawCropMarks(sheet.back, place, mirror);
          }
        }
      }
    }
    await finishSheet();
    const cover = path.join(dir, 'cover.pdf');
    const coverPages = await writeCover(cover, batch, layout, files.length);
    await run('qpdf', ['--warning-exit-0', '--empty', '--pages', cover, ...files, '--', outPath]);
    return { sheets: files.length, layout, pages: pages + coverPages };
  } finally {
    await fs.rm(dir, { recursive: true, force: true });
  }
}

/** The cover sheet: the batch's barcode, its sheet, its jobs (order, product, quantity) and totals. */
async function writeCover(file: string, batch: ImposeBatch, layout: SheetLayout, sheets: number): Promise<number> {
  const doc = await PDFDocument.create();
  doc.setTitle(`Batch ${batch.number}`);
  const font = await doc.embedFont(StandardFonts.Helvetica);
  const bold = await doc.embedFont(StandardFonts.HelveticaBold);
  const W = layout.widthMm;
  const H = layout.heightMm;
  const left = 15;
  let page = doc.addPage([pt(W), pt(H)]);
  let y = H - 20;
  const text = (s: string, x: number, size: number, f = font) => page.drawText(drawable(f, s), { x: pt(x), y: pt(y), size, font: f, color: BLACK });
  text(`Batch ${batch.number}`, left, 24, bold);
  y -= 22;
  drawBarcode(page, batchCode(batch.number), { x: left, y, moduleMm: 0.4, heightMm: 15 });
  y -= 6;
  text(batchCode(batch.number), left, 9);
  y -= 8;
  const items = batch.jobs.reduce((n, j) => n + Math.max(1, j.quantity), 0);
  text(`Sheet ${layout.sheet.name} (${layout.widthMm} × ${layout.heightMm} mm), ${layout.slots.length} per side · ${sheets} sheet${sheets === 1 ? '' : 's'}`, left, 11);
  y -= 6;
  text(`${batch.jobs.length} job${batch.jobs.length === 1 ? '' : 's'} · ${items} item${items === 1 ? '' : 's'} · created ${batch.createdAt.slice(0, 16).replace('T', ' ')}${batch.createdByName ? ` by ${batch.createdByName}` : ''}`, left, 11);
  y -= 12;
  const columns = [left, left + 25, left + 55, W - 30];
  const header = () => {
    ['Job', 'Order', 'Product', 'Qty'].forEach((h, i) => page.drawText(h, { x: pt(columns[i]), y: pt(y), size: 9, font: bold, color: BLACK }));
    y -= 5;
  };
  header();
  let count = 1;
  for (const job of batch.jobs) {
    if (y < 15) {
      page = doc.addPage([pt(W), pt(H)]);
      count++;
      y = H - 20;
      header();
    }
    const cells = [`#${job.jobId}`, job.orderName ? `${job.orderName} (${job.itemNumber} of ${job.itemCount})` : '-', job.productName, String(job.quantity)];
    cells.forEach((c, i) => {
      const room = pt((columns[i + 1] ?? W - 10) - columns[i] - 2);
      let shown = drawable(font, c);
      while (shown.length > 1 && font.widthOfTextAtSize(shown, 9) > room) shown = shown.slice(0, -1);
      page.drawText(shown, { x: pt(columns[i]), y: pt(y), size: 9, font, color: BLACK });
    });
    y -= 4.5;
  }
  await fs.writeFile(file, await doc.save());
  return count;
}
