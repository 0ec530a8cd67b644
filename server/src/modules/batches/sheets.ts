// Press sheets and where items sit on them. Pure geometry, in millimetres with the origin at the
// sheet's bottom-left corner (as PDF draws), so it is tested without a PDF.
//
// A slot is one leaf of an item: its bleed box, a gap around it (half on each side, where the crop
// marks go) and a slug strip below. The slug (barcode and order text) fills the strip and the gap
// under the item, between the two lower crop marks, never touching the bleed:
//
//   +-------------------------------+  <- slot
//   |   |       gap / 2         |   |  <- crop marks: trim edges extended
//   | --+-------------------------+-- |
//   |   |  bleed  +---------+   |   |
//   |   |         |  trim   |   |   |
//   |   |         +---------+   |   |
//   |   +-------------------------+   |
//   |   | [|||||] #1024 · 2 of 3  |   |  <- slug: gap / 2 + slug strip
//   +-------------------------------+
//
// Slots fill the sheet inside its margin in a grid, centred. The sheet is used upright or on its
// side, whichever holds more slots.

// The sheets, gaps and duplex mode are site settings (common/api/batching.ts); the batches service
// reads them with impositionSettingsFor(siteId).
import { DEFAULT_IMPOSE_SETTINGS, type DuplexTurn, type ImposeSettings, type SheetSize } from '../../../../common/api/batching';
import type { PrintFormat } from '../../../../common/design-doc/printSize';

export { DEFAULT_IMPOSE_SETTINGS, type DuplexTurn, type ImposeSettings, type SheetSize };

/** The finished size of one leaf and its bleed (the print file's TrimBox and BleedBox). */
export interface LeafSize {
  trimWidthMm: number;
  trimHeightMm: number;
  bleedMm: number;
}

export interface Rect {
  x: number;
  y: number;
  width: number;
  height: number;
}

export interface SlotPlace {
  /** The whole slot. */
  slot: Rect;
  trim: Rect;
  bleed: Rect;
  /** Under the item, between its lower crop marks, for its barcode and text. */
  slug: Rect;
}

export interface SheetLayout {
  sheet: SheetSize;
  /** The sheet as laid out (upright or on its side). */
  widthMm: number;
  heightMm: number;
  columns: number;
  rows: number;
  /** Front side slots, row by row from the top left. */
  slots: SlotPlace[];
}

/** Slots of one orientation of the sheet (`oneUp`: one slot, centred, however many would fit). */
function grid(sheet: SheetSize, widthMm: number, heightMm: number, leaf: LeafSize, s: Pick<ImposeSettings, 'gapMm' | 'slugMm'>, oneUp = false): SheetLayout {
  const b = leaf.bleedMm;
  const slotW = leaf.trimWidthMm + 2 * b + s.gapMm;
  const slotH = leaf.trimHeightMm + 2 * b + s.gapMm + s.slugMm;
  // A hair of tolerance: 2 × 160 mm slots do fit a 320 mm sheet.
  const fit = (room: number, slot: number) => Math.max(0, Math.floor((room + 1e-6) / slot));
  const most = oneUp ? 1 : Infinity;
  const columns = Math.min(most, fit(widthMm - 2 * sheet.marginMm, slotW));
  const rows = Math.min(most, fit(heightMm - 2 * sheet.marginMm, slotH));
  const x0 = (widthMm - columns * slotW) / 2;
  const top = heightMm - (heightMm - rows * slotH) / 2;
  const slots: SlotPlace[] = [];
  for (let r = 0; r < rows; r++) {
    for (let c = 0; c < columns; c++) {
      const slot = { x: x0 + c * slotW, y: top - (r + 1) * slotH, width: slotW, height: slotH };
      const bleed = { x: slot.x + s.gapMm / 2, y: slot.y + s.slugMm + s.gapMm / 2, width: leaf.trimWidthMm + 2 * b, height: leaf.trimHeightMm + 2 * b };
      const trim = { x: bleed.x + b, y: bleed.y + b, width: leaf.trimWidthMm, height: leaf.trimHeightMm };
      // Clear of the lower crop marks (on the trim's x) and 0.5 mm under the bleed.
      const slug = { x: trim.x + 1.5, y: slot.y, width: leaf.trimWidthMm - 3, height: s.slugMm + s.gapMm / 2 - 0.5 };
      slots.push({ slot, trim, bleed, slug });
    }
  }
  return { sheet, widthMm, heightMm, columns, rows, slots };
}

/** The sheet laid out upright or on its side, whichever holds more leaves (upright on a tie). */
export function layoutSheet(sheet: SheetSize, leaf: LeafSize, settings: Pick<ImposeSettings, 'gapMm' | 'slugMm'> = DEFAULT_IMPOSE_SETTINGS, oneUp = false): SheetLayout {
  const upright = grid(sheet, sheet.widthMm, sheet.heightMm, leaf, settings, oneUp);
  const onSide = grid(sheet, sheet.heightMm, sheet.widthMm, leaf, settings, oneUp);
  return onSide.slots.length > upright.slots.length ? onSide : upright;
}

/** Kept clear at the roll's edges and at each cut. */
const ROLL_MARGIN_MM = 5;

/** The roll as a sheet for this poster: the roll's width, cut to the poster's length (upright when it fits so, else on its side). */
export function rollSheet(rollMm: number, leaf: LeafSize, s: Pick<ImposeSettings, 'gapMm' | 'slugMm'>): SheetSize | null {
  if (rollMm <= 0) return null;
  const slotW = leaf.trimWidthMm + 2 * leaf.bleedMm + s.gapMm;
  const slotH = leaf.trimHeightMm + 2 * leaf.bleedMm + s.gapMm + s.slugMm;
  const room = rollMm - 2 * ROLL_MARGIN_MM;
  const length = slotW <= room + 1e-6 ? slotH : slotH <= room + 1e-6 ? slotW : null;
  if (length === null) return null;
  return { name: `Roll ${rollMm} mm`, widthMm: rollMm, heightMm: Math.ceil(length + 2 * ROLL_MARGIN_MM), marginMm: ROLL_MARGIN_MM };
}

/**
 * The sheets a format is imposed on and how: cards on the press sheets, n-up; mug wraps on the
 * sublimation sheets, n-up (mirrored when the mug printer wants it); posters one up, on the
 * smallest poster sheet that holds one, else on the roll. A job without a format is a card.
 */
export function sheetRule(format: PrintFormat | undefined, leaf: LeafSize, settings: ImposeSettings): { sheets: SheetSize[]; oneUp: boolean; mirror: boolean } {
  if (format === 'mug-wrap') return { sheets: settings.mugSheets, oneUp: false, mirror: settings.mugMirror };
  if (format === 'poster-a3' || format === 'poster-a2') {
    const roll = rollSheet(settings.posterRollMm, leaf, settings);
    return { sheets: [...settings.posterSheets, ...(roll ? [roll] : [])], oneUp: true, mirror: false };
  }
  return { sheets: settings.sheets, oneUp: false, mirror: false };
}

/**
 * The sheet a batch prints on, among its format's sheets (sheetRule): the one asked for by name,
 * else the one that holds the most leaves (the first listed on a tie) — for a poster, one up, the
 * smallest that holds it. Null when the leaf fits none (or not the one asked for).
 */
export function chooseSheet(leaf: LeafSize, settings: ImposeSettings = DEFAULT_IMPOSE_SETTINGS, name?: string, format?: PrintFormat): SheetLayout | null {
  const rule = sheetRule(format, leaf, settings);
  const sheets = name ? rule.sheets.filter((s) => s.name.toLowerCase() === name.toLowerCase()) : rule.sheets;
  const area = (l: SheetLayout) => l.widthMm * l.heightMm;
  let best: SheetLayout | null = null;
  for (const sheet of sheets) {
    const layout = layoutSheet(sheet, leaf, settings, rule.oneUp);
    if (!layout.slots.length) continue;
    const better = !best || (rule.oneUp ? area(layout) < area(best) : layout.slots.length > best.slots.length);
    if (better) best = layout;
  }
  return best;
}

/**
 * Where the back of a front rectangle is drawn on the back side's page. Turned side to side, the
 * sheet's left edge becomes its right: x' = W − x − width. Tumbled head to foot: y' = H − y − height.
 * Either way the back's trim lies exactly behind its front's trim once the sheet is turned.
 */
export function backOf(rect: Rect, layout: Pick<SheetLayout, 'widthMm' | 'heightMm'>, duplex: DuplexTurn): Rect {
  return duplex === 'turn' ? { ...rect, x: layout.widthMm - rect.x - rect.width } : { ...rect, y: layout.heightMm - rect.y - rect.height };
}

/**
 * The leaves of an item's pages, each [front page, back page] by page index: a card's outside
 * (page 1, the front, and page 4, the back) is on the sheet's front side, and its inside pages
 * behind them (page 2 behind page 1, page 3 behind page 4). Other items print pages in pairs; a
 * last odd page has a blank back.
 */
export function leavesOf(pageCount: number): Array<[number, number | null]> {
  if (pageCount === 4) return [[0, 1], [3, 2]];
  const leaves: Array<[number, number | null]> = [];
  for (let p = 0; p < pageCount; p += 2) leaves.push([p, p + 1 < pageCount ? p + 1 : null]);
  return leaves;
}

/** Where one leaf goes: the sheet (from 0) and its slot on it. */
export interface LeafPlace {
  sheet: number;
  slot: number;
}

/**
 * Fills sheets in order, one copy at a time: a copy's leaves (a card's outside and inside) stay on
 * one sheet when they fit what is left of it, else the copy starts the next sheet; a copy with more
 * leaves than a sheet holds runs on. The imposition places leaves with it and the batch's page
 * counts its sheets with it, so the two never disagree.
 */
export function sheetFiller(slotsPerSheet: number) {
  let sheet = -1;
  let used = slotsPerSheet;
  return {
    /** The places of one copy's leaves. */
    place(leaves: number): LeafPlace[] {
      if (used > 0 && used + leaves > slotsPerSheet) used = slotsPerSheet;
      const places: LeafPlace[] = [];
      for (let i = 0; i < leaves; i++) {
        if (used >= slotsPerSheet) {
          sheet++;
          used = 0;
        }
        places.push({ sheet, slot: used++ });
      }
      return places;
    },
    /** Sheets begun so far. */
    get sheets(): number {
      return sheet + 1;
    },
  };
}

/** The sheets copies of these leaf counts take, in this order. */
export function sheetsNeeded(slotsPerSheet: number, leavesPerCopy: number[]): number {
  const filler = sheetFiller(slotsPerSheet);
  for (const leaves of leavesPerCopy) filler.place(leaves);
  return filler.sheets;
}

/** Crop marks of a trim: two short lines per corner on the trim's edges extended, from just outside the bleed to the slot's edge. */
export function cropMarks(place: SlotPlace, offsetMm = 0.5): Array<{ from: [number, number]; to: [number, number] }> {
  const { trim, bleed, slot } = place;
  const lines: Array<{ from: [number, number]; to: [number, number] }> = [];
  const left = bleed.x - offsetMm;
  const right = bleed.x + bleed.width + offsetMm;
  const bottom = bleed.y - offsetMm;
  const top = bleed.y + bleed.height + offsetMm;
  const slotTop = slot.y + slot.height;
  const slotRight = slot.x + slot.width;
  // Below the item the marks stay in the half gap (the slug strip is under it).
  const belowEnd = bleed.y - (slotTop - (bleed.y + bleed.height));
  for (const y of [trim.y, trim.y + trim.height]) {
    lines.push({ from: [left, y], to: [slot.x, y] });
    lines.push({ from: [right, y], to: [slotRight, y] });
  }
  for (const x of [trim.x, trim.x + trim.width]) {
    lines.push({ from: [x, top], to: [x, slotTop] });
    lines.push({ from: [x, bottom], to: [x, belowEnd] });
  }
  return lines;
}
