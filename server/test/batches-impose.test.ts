// Imposed press sheets: where items sit (2-up A4, 4-up SRA3), crop marks outside the trim, nothing
// off the sheet, backs behind their fronts once the sheet is turned, and each slug's barcode read
// back from the rendered sheet with a barcode reader.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { PDFDocument, rgb } from 'pdf-lib';
import { afterAll, describe, expect, it } from 'vitest';
import { imposeBatch, ImposeRefusal, type ImposeJob } from '../src/modules/batches/impose';
import { colourOf, pageText, pixel, readBarcode, render } from './sheetReader';
import { DEFAULT_IMPOSE_SETTINGS, backOf, chooseSheet, cropMarks, leavesOf, sheetFiller, sheetsNeeded, type LeafSize, type Rect, type SheetLayout } from '../src/modules/batches/sheets';

const MM = 72 / 25.4;
const A5: LeafSize = { trimWidthMm: 148, trimHeightMm: 210, bleedMm: 3 };
const A6: LeafSize = { trimWidthMm: 105, trimHeightMm: 148, bleedMm: 3 };
const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'impose-'));
afterAll(() => fs.rmSync(tmp, { recursive: true, force: true }));

const inside = (inner: Rect, outer: Rect, eps = 1e-6) =>
  inner.x >= outer.x - eps && inner.y >= outer.y - eps && inner.x + inner.width <= outer.x + outer.width + eps && inner.y + inner.height <= outer.y + outer.height + eps;
const overlaps = (a: Rect, b: Rect) => a.x < b.x + b.width && b.x < a.x + a.width && a.y < b.y + b.height && b.y < a.y + a.height;
/** A line as a thin rectangle. */
const lineRect = (l: { from: [number, number]; to: [number, number] }): Rect => ({
  x: Math.min(l.from[0], l.to[0]),
  y: Math.min(l.from[1], l.to[1]),
  width: Math.abs(l.to[0] - l.from[0]),
  height: Math.abs(l.to[1] - l.from[1]),
});

function checkGeometry(layout: SheetLayout, leaf: LeafSize) {
  const sheet = { x: 0, y: 0, width: layout.widthMm, height: layout.heightMm };
  layout.slots.forEach((place, i) => {
    expect(inside(place.slot, sheet), `slot ${i} on the sheet`).toBe(true);
    expect(inside(place.trim, place.slot), `trim ${i} in its slot`).toBe(true);
    expect(inside(place.bleed, place.slot), `bleed ${i} in its slot`).toBe(true);
    expect(place.trim.width).toBeCloseTo(leaf.trimWidthMm);
    expect(place.trim.x - place.bleed.x).toBeCloseTo(leaf.bleedMm);
    expect(inside(place.slug, place.slot), `slug ${i} in its slot`).toBe(true);
    expect(overlaps(place.slug, place.bleed), `slug ${i} clear of the bleed`).toBe(false);
    // Keeps off the margin of the sheet (the gripper).
    expect(place.slot.x).toBeGreaterThanOrEqual(layout.sheet.marginMm - 1e-6);
    for (const other of layout.slots.slice(i + 1)) expect(overlaps(place.slot, other.slot)).toBe(false);
    const marks = cropMarks(place);
    expect(marks).toHaveLength(8);
    for (const m of marks) {
      const r = lineRect(m);
      expect(overlaps(r, place.bleed), `crop mark ${JSON.stringify(m)} outside the trim and bleed`).toBe(false);
      expect(inside(r, place.slot), 'crop mark in its slot').toBe(true);
      expect(overlaps(r, place.slug), 'crop mark clear of the slug').toBe(false);
      // On a trim edge's line: it shows where to cut.
      const onEdge = [place.trim.x, place.trim.x + place.trim.width].includes(m.from[0]) || [place.trim.y, place.trim.y + place.trim.height].includes(m.from[1]);
      expect(onEdge).toBe(true);
    }
  });
}

describe('sheet layout', () => {
  it('puts A6 cards 2-up on A4, on its side', () => {
    const layout = chooseSheet(A6, DEFAULT_IMPOSE_SETTINGS, 'A4')!;
    expect(layout.slots).toHaveLength(2);
    expect([layout.widthMm, layout.heightMm]).toEqual([297, 210]);
    checkGeometry(layout, A6);
  });

  it('puts A5 cards 4-up on SRA3, and chooses SRA3 for them when no sheet is asked for', () => {
    const layout = chooseSheet(A5, DEFAULT_IMPOSE_SETTINGS, 'SRA3')!;
    expect(layout.slots).toHaveLength(4);
    expect([layout.columns, layout.rows]).toEqual([2, 2]);
    checkGeometry(layout, A5);
    expect(chooseSheet(A5)!.sheet.name).toBe('SRA3');
  });

  it('fits an A5 card with its bleed and marks only once on A4, and an A2 poster on none', () => {
    expect(chooseSheet(A5, DEFAULT_IMPOSE_SETTINGS, 'A4')!.slots).toHaveLength(1);
    expect(chooseSheet({ trimWidthMm: 420, trimHeightMm: 594, bleedMm: 3 })).toBeNull();
  });

  it('lands each back behind its front once the sheet is turned over', () => {
    for (const duplex of ['turn', 'tumble'] as const) {
      const layout = chooseSheet(A5, { ...DEFAULT_IMPOSE_SETTINGS, duplex }, 'SRA3')!;
      for (const place of layout.slots) {
        const back = backOf(place.trim, layout, duplex);
        // Turning the sheet over moves the back side's point (x, y) to (W − x, y) (turn) or (x, H − y) (tumble).
        const turned =
          duplex === 'turn' ? { ...back, x: layout.widthMm - back.x - back.width } : { ...back, y: layout.heightMm - back.y - back.height };
        expect(turned.x).toBeCloseTo(place.trim.x);
        expect(turned.y).toBeCloseTo(place.trim.y);
      }
      // Not in place: the left column's backs are drawn on the right (turn), the top row's at the bottom (tumble).
      const first = layout.slots[0].trim;
      const back = backOf(first, layout, duplex);
      if (duplex === 'turn') expect(back.x).toBeGreaterThan(layout.widthMm / 2);
      else expect(back.y).toBeLessThan(layout.heightMm / 2);
    }
  });

  it("puts a card's outside (pages 1 and 4) on the front and its inside behind them", () => {
    expect(leavesOf(4)).toEqual([[0, 1], [3, 2]]);
    expect(leavesOf(1)).toEqual([[0, null]]);
    expect(leavesOf(3)).toEqual([[0, 1], [2, null]]);
  });
});

// ---------------------------------------------------------------------------------------------
// The sheet PDF

/** A page colour per page number, to see which page landed where. */
const PAGE_COLOURS: Array<[number, number, number]> = [
  [1, 0, 0],
  [0, 0.6, 0],
  [0, 0, 1],
  [1, 0.8, 0],
];

/** A print file as production makes it: trim + bleed pages with their boxes; the bleed is grey. */
async function printFile(leaf: LeafSize, pages = 4): Promise<Uint8Array> {
  const doc = await PDFDocument.create();
  const w = (leaf.trimWidthMm + 2 * leaf.bleedMm) * MM;
  const h = (leaf.trimHeightMm + 2 * leaf.bleedMm) * MM;
  const b = leaf.bleedMm * MM;
  for (let i = 0; i < pages; i++) {
    const page = doc.addPage([w, h]);
    page.drawRectangle({ x: 0, y: 0, width: w, height: h, color: rgb(0.5, 0.5, 0.5) });
    page.drawRectangle({ x: b, y: b, width: w - 2 * b, height: h - 2 * b, color: rgb(...PAGE_COLOURS[i]) });
    page.setTrimBox(b, b, w - 2 * b, h - 2 * b);
    page.setBleedBox(0, 0, w, h);
  }
  return doc.save();
}

const jobs: ImposeJob[] = [
  { jobId: 4101, orderName: '#1024', productName: 'Birthday card', quantity: 1, itemNumber: 1, itemCount: 3 },
  { jobId: 4102, orderName: '#1024', productName: 'Birthday card', quantity: 1, itemNumber: 2, itemCount: 3 },
  { jobId: 4203, orderName: '#1025', productName: 'Thank you card', quantity: 1, itemNumber: 1, itemCount: 1 },
];

const expected = (page: number) => PAGE_COLOURS[page].map((v) => Math.round(v)).join('');

describe('imposed batch PDF', () => {
  it('imposes 3 cards 4-up on SRA3: a cover with a blank back, then fronts with barcodes and backs behind them', async () => {
    const out = path.join(tmp, 'sra3.pdf');
    const asked: number[] = [];
    const result = await imposeBatch({ number: 17, createdAt: '2026-11-25T10:00:00Z', createdByName: 'Ann Printer', jobs }, A5, async (job) => {
      asked.push(job.jobId);
      return printFile(A5);
    }, out, { timeZone: 'Europe/London' });
    expect(asked).toEqual([4101, 4102, 4203]);
    // 3 cards × 2 leaves = 6 leaves: 2 sheets (front + back each) after the cover and its blank back.
    expect(result).toMatchObject({ sheets: 2, twoSided: true, coverPages: 2, pages: 6, items: 3 });
    const doc = await PDFDocument.load(fs.readFileSync(out));
    expect(doc.getPageCount()).toBe(6);
    const layout = result.layout;
    expect(layout.sheet.name).toBe('SRA3');
    for (const p of doc.getPages()) expect([p.getWidth() / MM, p.getHeight() / MM].map(Math.round)).toEqual([320, 450]);

    const dpi = 300;
    const H = layout.heightMm;
    // The cover's barcode is the batch's; it says how to print the file, and its date reads DD/MM/YYYY.
    const cover = render(out, 1, dpi);
    expect(await readBarcode(cover, dpi, H, { x: 10, y: H - 50, width: 120, height: 25 })).toBe('PB-17');
    const coverText = pageText(out, 1);
    expect(coverText).toMatch(/Print two-sided \(duplex\), flip on the long edge/);
    expect(coverText).toContain('created 25/11/2026 10:00 by Ann Printer');
    expect(coverText).not.toMatch(/2026-11-25/);
    // Its back is blank: printed duplex, sheet 1's front is a front.
    expect(pageText(out, 2).trim()).toBe('');
    expect(colourOf(await pixel(render(out, 2, 50), 50, H, [160, 225]))).toBe('111');

    // Sheet 1 front: job 4101's pages 1 and 4, then job 4102's; each slug reads as its copy.
    const front = render(out, 3, dpi);
    const slugs = await Promise.all(layout.slots.map((s) => readBarcode(front, dpi, H, s.slug)));
    expect(slugs).toEqual(['PJ-4101-1', 'PJ-4101-1', 'PJ-4102-1', 'PJ-4102-1']);
    const at = (r: Rect): [number, number] => [r.x + r.width / 2, r.y + r.height / 2];
    const front50 = render(out, 3, 50);
    const frontColours = await Promise.all(layout.slots.map(async (s) => colourOf(await pixel(front50, 50, H, at(s.trim)))));
    expect(frontColours).toEqual([expected(0), expected(3), expected(0), expected(3)]);
    // The bleed is kept around each trim (grey), and the gap beyond it is white.
    const trim0 = layout.slots[0].trim;
    for (const v of await pixel(front50, 50, H, [trim0.x - 1.5, trim0.y + 50])) expect(Math.abs(v - 128)).toBeLessThan(25);
    expect(await pixel(front50, 50, H, [trim0.x + trim0.width + 4.5, trim0.y + 50])).toEqual([255, 255, 255]);

    // The back: page 2 behind page 1, page 3 behind page 4 (turned side to side).
    const back50 = render(out, 4, 50);
    const backColours = await Promise.all(layout.slots.map(async (s) => colourOf(await pixel(back50, 50, H, at(backOf(s.trim, layout, 'turn'))))));
    expect(backColours).toEqual([expected(1), expected(2), expected(1), expected(2)]);

    // Sheet 2 holds the third card alone: its slug names #1025's copy, and its back follows it.
    const front2 = render(out, 5, dpi);
    expect(await readBarcode(front2, dpi, H, layout.slots[0].slug)).toBe('PJ-4203-1');
    const back2 = render(out, 6, 50);
    expect(colourOf(await pixel(back2, 50, H, at(backOf(layout.slots[0].trim, layout, 'turn'))))).toBe(expected(1));
  });

  it('gives each copy of a job its own code: PJ-<job>-1 … PJ-<job>-4, "copy n of 4" on its slug', async () => {
    const out = path.join(tmp, 'copies.pdf');
    const four: ImposeJob = { jobId: 4300, orderName: '#1030', productName: 'Thank you card', quantity: 4, itemNumber: 1, itemCount: 1 };
    const result = await imposeBatch({ number: 18, createdAt: '2026-11-25T10:00:00Z', createdByName: null, jobs: [four] }, A5, () => printFile(A5), out);
    // 4 copies × 2 leaves, 4 slots a side: 2 sheets.
    expect(result).toMatchObject({ sheets: 2, items: 4, pages: 6 });
    const H = result.layout.heightMm;
    const codes: string[] = [];
    for (const page of [3, 5]) {
      const png = render(out, page, 300);
      codes.push(...(await Promise.all(result.layout.slots.map((s) => readBarcode(png, 300, H, s.slug)))));
    }
    expect(codes).toEqual(['PJ-4300-1', 'PJ-4300-1', 'PJ-4300-2', 'PJ-4300-2', 'PJ-4300-3', 'PJ-4300-3', 'PJ-4300-4', 'PJ-4300-4']);
    expect(pageText(out, 3)).toMatch(/#1030 · 1 of 1 · copy 2 of 4 · PJ-4300-2/);
    expect(pageText(out, 1)).toMatch(/1 job · 4 items/);
  });

  it('imposes A6 cards 2-up on A4', async () => {
    const out = path.join(tmp, 'a4.pdf');
    const result = await imposeBatch({ number: 3, createdAt: '2026-11-25T10:00:00Z', createdByName: null, jobs: jobs.slice(0, 1) }, A6, () => printFile(A6), out, { sheet: 'A4' });
    expect(result.layout.slots).toHaveLength(2);
    expect(result.sheets).toBe(1);
    // A4 on its side, turned side to side: the printer flips it on its short edge.
    expect(pageText(out, 1)).toMatch(/flip on the short edge/);
    const front = render(out, 3, 300);
    const codes = await Promise.all(result.layout.slots.map((s) => readBarcode(front, 300, result.layout.heightMm, s.slug)));
    expect(codes).toEqual(['PJ-4101-1', 'PJ-4101-1']);
  });

  it('one-sided items make a one-sided file: a page a sheet, no blank pages', async () => {
    const out = path.join(tmp, 'one-sided.pdf');
    const result = await imposeBatch({ number: 5, createdAt: '2026-11-25T10:00:00Z', createdByName: null, jobs }, A5, () => printFile(A5, 1), out);
    // 3 one-leaf items, 4 a sheet: one sheet, no back.
    expect(result).toMatchObject({ sheets: 1, twoSided: false, coverPages: 1, pages: 2 });
    expect(pageText(out, 1)).toMatch(/Print one-sided/);
  });

  it('a two-sided batch whose last sheet has no back gets a blank one: fronts stay on odd pages', async () => {
    const out = path.join(tmp, 'blank-back.pdf');
    // Four two-page items fill sheet 1 (fronts and backs); a one-page item is alone on sheet 2.
    const items = [1, 2, 3, 4, 5].map((n) => ({ ...jobs[0], jobId: 4400 + n }));
    const result = await imposeBatch({ number: 6, createdAt: '2026-11-25T10:00:00Z', createdByName: null, jobs: items }, A5, (job) => printFile(A5, job.jobId === 4405 ? 1 : 2), out);
    expect(result).toMatchObject({ sheets: 2, twoSided: true, coverPages: 2, pages: 6 });
    const H = result.layout.heightMm;
    expect(await readBarcode(render(out, 5, 300), 300, H, result.layout.slots[0].slug)).toBe('PJ-4405-1');
    expect(pageText(out, 6).trim()).toBe('');
    expect(colourOf(await pixel(render(out, 6, 50), 50, H, [160, 225]))).toBe('111');
  });

  it('a long cover carries the batch on every page, and is padded to an even count', async () => {
    const out = path.join(tmp, 'long-cover.pdf');
    const many = Array.from({ length: 90 }, (_, i): ImposeJob => ({ jobId: 5000 + i, orderName: `#${2000 + i}`, productName: 'Birthday card', quantity: 1, itemNumber: 1, itemCount: 1 }));
    const leftOut = [{ jobId: 4999, orderName: '#1999', reason: 'This job left the queue unprinted (job #4999): The order was cancelled' }];
    const result = await imposeBatch({ number: 21, createdAt: '2026-11-25T10:00:00Z', createdByName: null, jobs: many, leftOut }, A6, () => printFile(A6), out, { sheet: 'A4' });
    expect(result.coverPages % 2).toBe(0);
    expect(result.coverPages).toBeGreaterThanOrEqual(2);
    const text1 = pageText(out, 1);
    expect(text1).toMatch(/Not on these sheets \(1\)/);
    expect(text1).toMatch(/#4999 \(#1999\): This job left the queue unprinted \(job #4999\): The order was cancelled/);
    expect(text1).toMatch(/90 jobs · 90 items/);
    // Every written page after the first names the batch and its place; the last job is on the last one.
    const written = Array.from({ length: result.coverPages }, (_, i) => pageText(out, i + 1)).filter((t) => t.trim());
    expect(written.length).toBeGreaterThanOrEqual(2);
    written.slice(1).forEach((t, i) => expect(t).toContain(`Batch 21 · cover page ${i + 2} of ${written.length}`));
    expect(written.at(-1)).toContain('#5089');
    // Three written pages and a blank fourth: the sheets start on an odd page.
    expect([written.length, result.coverPages]).toEqual([3, 4]);
    const W = result.layout.widthMm;
    const H = result.layout.heightMm;
    expect(await readBarcode(render(out, 2, 300), 300, H, { x: W - 70, y: H - 35, width: 65, height: 25 })).toBe('PB-21');
    // The sheets start on an odd page whatever the cover's length.
    expect(await readBarcode(render(out, result.coverPages + 1, 300), 300, H, result.layout.slots[0].slug)).toBe('PJ-5000-1');
  });

  it('reports its progress job by job', async () => {
    const seen: Array<{ jobsDone: number; jobs: number; sheets: number }> = [];
    await imposeBatch({ number: 7, createdAt: '2026-11-25T10:00:00Z', createdByName: null, jobs }, A5, () => printFile(A5), path.join(tmp, 'progress.pdf'), { onProgress: (p) => seen.push(p) });
    expect(seen.map((p) => p.jobsDone)).toEqual([0, 1, 2, 3, 3]);
    expect(seen.at(-1)).toEqual({ jobsDone: 3, jobs: 3, sheets: 2 });
  });

  it('refuses a print file of another size, naming the job, and leaves no file behind', async () => {
    const out = path.join(tmp, 'mixed.pdf');
    const files = [printFile(A5), printFile(A6)];
    let i = 0;
    await expect(imposeBatch({ number: 4, createdAt: '2026-11-25T10:00:00Z', createdByName: null, jobs: jobs.slice(0, 2) }, A5, () => files[i++], out)).rejects.toThrow(
      new ImposeRefusal("Job #4102's print file is 105 × 148 mm, not the batch's 148 × 210 mm"),
    );
    expect(fs.existsSync(out)).toBe(false);
  });
});

describe('sheet filling', () => {
  it("keeps a copy's leaves on one sheet when they fit what is left, else starts the next", () => {
    const filler = sheetFiller(4);
    expect(filler.place(2)).toEqual([{ sheet: 0, slot: 0 }, { sheet: 0, slot: 1 }]);
    expect(filler.place(1)).toEqual([{ sheet: 0, slot: 2 }]);
    // Two leaves do not fit the one slot left: the copy starts sheet 1.
    expect(filler.place(2)).toEqual([{ sheet: 1, slot: 0 }, { sheet: 1, slot: 1 }]);
    // More leaves than a sheet holds run on.
    expect(filler.place(5).map((p) => p.sheet)).toEqual([2, 2, 2, 2, 3]);
    expect(filler.sheets).toBe(4);
    expect(sheetsNeeded(4, [2, 2, 2])).toBe(2);
    expect(sheetsNeeded(4, [])).toBe(0);
  });
});
