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

/** A press sheet the floor prints on. */
export interface SheetSize {
  name: string;
  widthMm: number;
  heightMm: number;
  /** Kept clear at every edge (the press's gripper and unprintable edge). */
  marginMm: number;
}

/** How the sheet is turned over for its second side; the back of a slot is where the turn puts it. */
export type DuplexTurn = 'turn' | 'tumble';

export interface ImposeSettings {
  sheets: SheetSize[];
  /** Between neighbouring bleed boxes (crop marks are drawn in it). */
  gapMm: number;
  /** Height of the slug strip under each item. */
  slugMm: number;
  /**
   * `turn`: turned side to side (sheetwise or work-and-turn; the usual long-edge duplex of a digital
   * press printing a portrait sheet) — a back is mirrored left to right. `tumble`: turned head to
   * foot (work-and-tumble) — mirrored top to bottom.
   */
  duplex: DuplexTurn;
}

/**
 * Defaults, kept in code rather than site settings: sheets are what the presses take, the same for
 * every site of the shop floor, and no screen edits them yet. SRA3 is an oversize sheet, so its own
 * extra is the margin; A4 and SRA4 keep 5 mm for printers that cannot print to the edge.
 */
export const DEFAULT_IMPOSE_SETTINGS: ImposeSettings = {
  sheets: [
    { name: 'SRA3', widthMm: 320, heightMm: 450, marginMm: 0 },
    { name: 'SRA4', widthMm: 225, heightMm: 320, marginMm: 2 },
    { name: 'A4', widthMm: 210, heightMm: 297, marginMm: 5 },
    { name: 'A3', widthMm: 297, heightMm: 420, marginMm: 5 },
  ],
  // 4 A5 cards (3 mm bleed) fill an SRA3 sheet exactly: 2 × (154 + 6) by 2 × (216 + 6 + 3).
  gapMm: 6,
  slugMm: 3,
  duplex: 'turn',
};

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

/** Slots of one orientation of the sheet. */
function grid(sheet: SheetSize, widthMm: number, heightMm: number, leaf: LeafSize, s: Pick<ImposeSettings, 'gapMm' | 'slugMm'>): SheetLayout {
  const b = leaf.bleedMm;
  const slotW = leaf.trimWidthMm + 2 * b + s.gapMm;
  const slotH = leaf.trimHeightMm + 2 * b + s.gapMm + s.slugMm;
  // A hair of tolerance: 2 × 160 mm slots do fit a 320 mm sheet.
  const fit = (room: number, slot: number) => Math.max(0, Math.floor((room + 1e-6) / slot));
  const columns = fit(widthMm - 2 * sheet.marginMm, slotW);
  const rows = fit(heightMm - 2 * sheet.marginMm, slotH);
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
export function layoutSheet(sheet: SheetSize, leaf: LeafSize, settings: Pick<ImposeSettings, 'gapMm' | 'slugMm'> = DEFAULT_IMPOSE_SETTINGS): SheetLayout {
  const upright = grid(sheet, sheet.widthMm, sheet.heightMm, leaf, settings);
  const onSide = grid(sheet, sheet.heightMm, sheet.widthMm, leaf, settings);
  return onSide.slots.length > upright.slots.length ? onSide : upright;
}

/**
 * The sheet a batch prints on: the one asked for by name, else the one that holds the most leaves
 * (the first listed on a tie). Null when the leaf fits none (or not the one asked for).
 */
export function chooseSheet(leaf: LeafSize, settings: ImposeSettings = DEFAULT_IMPOSE_SETTINGS, name?: string): SheetLayout | null {
  const sheets = name ? settings.sheets.filter((s) => s.name.toLowerCase() === name.toLowerCase()) : settings.sheets;
  let best: SheetLayout | null = null;
  for (const sheet of sheets) {
    const layout = layoutSheet(sheet, leaf, settings);
    if (layout.slots.length && (!best || layout.slots.length > best.slots.length)) best = layout;
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
