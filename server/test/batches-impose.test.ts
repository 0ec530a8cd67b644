// Imposed press sheets: where items sit (2-up A4, 4-up SRA3), crop marks outside the trim, nothing
// off the sheet, backs behind their fronts once the sheet is turned, and each slug's barcode read
// back from the rendered sheet with a barcode reader.
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { BarcodeFormat, BinaryBitmap, DecodeHintType, HybridBinarizer, MultiFormatReader, RGBLuminanceSource } from '@zxing/library';
import { PDFDocument, rgb } from 'pdf-lib';
import sharp from 'sharp';
import { afterAll, describe, expect, it } from 'vitest';
import { imposeBatch, ImposeRefusal, type ImposeJob } from '../src/modules/batches/impose';
import { DEFAULT_IMPOSE_SETTINGS, backOf, chooseSheet, cropMarks, leavesOf, type LeafSize, type Rect, type SheetLayout } from '../src/modules/batches/sheets';

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

function render(file: string, page: number, dpi: number): Buffer {
  const out = path.join(tmp, `r-${page}-${dpi}-${Math.random().toString(36).slice(2)}`);
  execFileSync('pdftoppm', ['-r', String(dpi), '-png', '-f', String(page), '-l', String(page), '-singlefile', file, out]);
  return fs.readFileSync(`${out}.png`);
}

/** The barcode in a part of a rendered page (mm from the page's bottom-left), read by ZXing. */
async function readBarcode(png: Buffer, dpi: number, sheetHeightMm: number, area: Rect): Promise<string> {
  const px = (mm: number) => Math.round((mm * dpi) / 25.4);
  const { data, info } = await sharp(png)
    .extract({ left: px(area.x), top: px(sheetHeightMm - area.y - area.height), width: px(area.width), height: px(area.height) })
    .greyscale()
    .raw()
    .toBuffer({ resolveWithObject: true });
  const source = new RGBLuminanceSource(new Uint8ClampedArray(data.buffer, data.byteOffset, data.length), info.width, info.height);
  const reader = new MultiFormatReader();
  const hints = new Map<DecodeHintType, unknown>([
    [DecodeHintType.POSSIBLE_FORMATS, [BarcodeFormat.CODE_128]],
    [DecodeHintType.TRY_HARDER, true],
  ]);
  reader.setHints(hints);
  return reader.decode(new BinaryBitmap(new HybridBinarizer(source))).getText();
}

async function pixel(png: Buffer, dpi: number, sheetHeightMm: number, at: [number, number]): Promise<[number, number, number]> {
  const px = (mm: number) => Math.round((mm * dpi) / 25.4);
  const { data } = await sharp(png).extract({ left: px(at[0]), top: px(sheetHeightMm - at[1]), width: 1, height: 1 }).removeAlpha().raw().toBuffer({ resolveWithObject: true });
  return [data[0], data[1], data[2]];
}
const colourOf = (c: [number, number, number]) => c.map((v) => Math.round(v / 255)).join('');
const expected = (page: number) => PAGE_COLOURS[page].map((v) => Math.round(v)).join('');

describe('imposed batch PDF', () => {
  it('imposes 3 cards 4-up on SRA3: a cover, then fronts with barcodes and backs behind them', async () => {
    const out = path.join(tmp, 'sra3.pdf');
    const asked: number[] = [];
    const result = await imposeBatch({ number: 17, createdAt: '2026-11-25T10:00:00Z', createdByName: 'Ann Printer', jobs }, A5, async (job) => {
      asked.push(job.jobId);
      return printFile(A5);
    }, out);
    expect(asked).toEqual([4101, 4102, 4203]);
    // 3 cards × 2 leaves = 6 leaves: 2 sheets (front + back each) after the cover.
    expect(result.sheets).toBe(2);
    const doc = await PDFDocument.load(fs.readFileSync(out));
    expect(doc.getPageCount()).toBe(5);
    const layout = result.layout;
    expect(layout.sheet.name).toBe('SRA3');
    for (const p of doc.getPages()) expect([p.getWidth() / MM, p.getHeight() / MM].map(Math.round)).toEqual([320, 450]);

    const dpi = 300;
    const H = layout.heightMm;
    // The cover's barcode is the batch's.
    const cover = render(out, 1, dpi);
    expect(await readBarcode(cover, dpi, H, { x: 10, y: H - 50, width: 120, height: 25 })).toBe('PB-17');

    // Sheet 1 front: job 4101's pages 1 and 4, then job 4102's; each slug reads as its job.
    const front = render(out, 2, dpi);
    const slugs = await Promise.all(layout.slots.map((s) => readBarcode(front, dpi, H, s.slug)));
    expect(slugs).toEqual(['PJ-4101', 'PJ-4101', 'PJ-4102', 'PJ-4102']);
    const at = (r: Rect): [number, number] => [r.x + r.width / 2, r.y + r.height / 2];
    const front50 = render(out, 2, 50);
    const frontColours = await Promise.all(layout.slots.map(async (s) => colourOf(await pixel(front50, 50, H, at(s.trim)))));
    expect(frontColours).toEqual([expected(0), expected(3), expected(0), expected(3)]);
    // The bleed is kept around each trim (grey), and the gap beyond it is white.
    const trim0 = layout.slots[0].trim;
    for (const v of await pixel(front50, 50, H, [trim0.x - 1.5, trim0.y + 50])) expect(Math.abs(v - 128)).toBeLessThan(25);
    expect(await pixel(front50, 50, H, [trim0.x + trim0.width + 4.5, trim0.y + 50])).toEqual([255, 255, 255]);

    // The back: page 2 behind page 1, page 3 behind page 4 (turned side to side).
    const back50 = render(out, 3, 50);
    const backColours = await Promise.all(layout.slots.map(async (s) => colourOf(await pixel(back50, 50, H, at(backOf(s.trim, layout, 'turn'))))));
    expect(backColours).toEqual([expected(1), expected(2), expected(1), expected(2)]);

    // Sheet 2 holds the third card alone: its slug names #1025.
    const front2 = render(out, 4, dpi);
    expect(await readBarcode(front2, dpi, H, layout.slots[0].slug)).toBe('PJ-4203');
  });

  it('imposes A6 cards 2-up on A4', async () => {
    const out = path.join(tmp, 'a4.pdf');
    const result = await imposeBatch({ number: 3, createdAt: '2026-11-25T10:00:00Z', createdByName: null, jobs: jobs.slice(0, 1) }, A6, () => printFile(A6), out, { sheet: 'A4' });
    expect(result.layout.slots).toHaveLength(2);
    expect(result.sheets).toBe(1);
    const front = render(out, 2, 300);
    const codes = await Promise.all(result.layout.slots.map((s) => readBarcode(front, 300, result.layout.heightMm, s.slug)));
    expect(codes).toEqual(['PJ-4101', 'PJ-4101']);
  });

  it('refuses a print file of another size, naming the job', async () => {
    const out = path.join(tmp, 'mixed.pdf');
    const files = [printFile(A5), printFile(A6)];
    let i = 0;
    await expect(imposeBatch({ number: 4, createdAt: '2026-11-25T10:00:00Z', createdByName: null, jobs: jobs.slice(0, 2) }, A5, () => files[i++], out)).rejects.toThrow(
      new ImposeRefusal("Job #4102's print file is 105 × 148 mm, not the batch's 148 × 210 mm"),
    );
  });
});
