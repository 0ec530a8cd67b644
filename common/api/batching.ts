import type { SettingReader } from './preflight';

// A site's press sheets and automatic batching, kept in its settings.env like its other settings.
// The server reads them (batches/settings.ts) and refuses a save with the sentence of
// batchSettingsProblem; the site form shows the same sentence as it is typed.

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
export const DUPLEX_TURNS: readonly DuplexTurn[] = ['turn', 'tumble'];

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
  /** Mug wraps are imposed n-up on these sublimation (transfer) sheets. */
  mugSheets: SheetSize[];
  /** The mug printer wants its transfers mirrored: each wrap is drawn back to front (the transfer is pressed face down on the mug). */
  mugMirror: boolean;
  /** Posters print one up, on the smallest of these that holds one. */
  posterSheets: SheetSize[];
  /** The poster printer's roll width, mm: a poster no poster sheet holds is printed on the roll, cut to its length (0: no roll). */
  posterRollMm: number;
}

/**
 * What a site without its own settings prints on. SRA3 is an oversize sheet, so its own extra is
 * the margin; A4 and SRA4 keep 5 mm for printers that cannot print to the edge.
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
  // Six 200 × 90 mm wraps (2 mm bleed) on an A3+ transfer sheet laid on its side.
  mugSheets: [
    { name: 'Sublimation A3+', widthMm: 329, heightMm: 483, marginMm: 5 },
    { name: 'Sublimation A4', widthMm: 210, heightMm: 297, marginMm: 5 },
  ],
  mugMirror: false,
  // An A3 poster on SRA3, an A2 on SRA2; anything larger on the roll when the site names one.
  posterSheets: [
    { name: 'SRA3', widthMm: 320, heightMm: 450, marginMm: 0 },
    { name: 'SRA2', widthMm: 450, heightMm: 640, marginMm: 0 },
  ],
  posterRollMm: 0,
};

/** The site settings (settings.env keys) of press sheets and automatic batching. */
export const BATCH_SETTING_KEYS = {
  sheets: 'PRESS_SHEETS',
  gap: 'PRESS_SHEET_GAP_MM',
  slug: 'PRESS_SHEET_SLUG_MM',
  duplex: 'PRESS_SHEET_DUPLEX',
  auto: 'BATCH_AUTOMATICALLY',
  cutOff: 'BATCH_CUT_OFF',
  sheetsPerBatch: 'BATCH_SHEETS_PER_BATCH',
  mugSheets: 'MUG_SHEETS',
  mugMirror: 'MUG_SHEET_MIRROR',
  posterSheets: 'POSTER_SHEETS',
  posterRoll: 'POSTER_ROLL_WIDTH_MM',
} as const;

export const DEFAULT_SHEETS_PER_BATCH = 50;

/** What a batch made by the rule closed on: full, the daily cut-off, marked printed, or the rule turned off. */
export const CLOSE_REASONS = ['full', 'cut-off', 'printed', 'turned-off'] as const;
export type CloseReason = (typeof CLOSE_REASONS)[number];

/** The site's automatic batching. */
export interface AutoBatching {
  on: boolean;
  /** HH:MM in the shop's time zone (SYNC_TIMEZONE); null: filling batches close only when full or printed. */
  cutOff: string | null;
  sheetsPerBatch: number;
}

// Limits that keep a sheet printable: room for the crop marks and a readable barcode in the slug.
const SHEET_MM = { min: 50, max: 2000 };
const GAP_MM = { min: 2, max: 30 };
const ROLL_MM = { min: 100, max: 2000 };
const SLUG_MM = { min: 2, max: 20 };
const MAX_SHEETS = 12;
const MAX_SHEETS_PER_BATCH = 1000;
const NAME_MAX = 40;

const NUMBER = /^\d{1,4}(\.\d{1,2})?$/;
const SHEET_LINE = /^(.+?)\s+(\S+?)\s*[x×]\s*(\S+?)(?:\s+margin\s+(\S+))?$/i;
const CUT_OFF = /^([01]\d|2[0-3]):([0-5]\d)$/;

/** "SRA3 320x450 margin 0; A4 210x297 margin 5": how PRESS_SHEETS is written. */
export function formatPressSheets(sheets: readonly SheetSize[]): string {
  return sheets.map((s) => `${s.name} ${s.widthMm}x${s.heightMm} margin ${s.marginMm}`).join('; ');
}

/** PRESS_SHEETS read, or the sentence saying what is wrong with it. */
export function parsePressSheets(text: string): { sheets: SheetSize[] } | { problem: string } {
  const parts = text.split(/[;\n]/).map((p) => p.trim()).filter(Boolean);
  const example = 'e.g. "SRA3 320x450 margin 0; A4 210x297 margin 5"';
  if (!parts.length) return { problem: `Name at least one press sheet (${example}).` };
  if (parts.length > MAX_SHEETS) return { problem: `List at most ${MAX_SHEETS} press sheets.` };
  const sheets: SheetSize[] = [];
  for (const part of parts) {
    const m = SHEET_LINE.exec(part);
    if (!m || !NUMBER.test(m[2]) || !NUMBER.test(m[3]) || (m[4] !== undefined && !NUMBER.test(m[4]))) {
      return { problem: `Press sheet "${part}" is not a name, a width x height in mm and a margin (${example}).` };
    }
    const [name, widthMm, heightMm, marginMm] = [m[1].trim(), Number(m[2]), Number(m[3]), Number(m[4] ?? 0)];
    if (name.length > NAME_MAX) return { problem: `Press sheet name "${name}" is too long (${NAME_MAX} characters at most).` };
    if (sheets.some((s) => s.name.toLowerCase() === name.toLowerCase())) return { problem: `Press sheet "${name}" is listed twice.` };
    if ([widthMm, heightMm].some((v) => v < SHEET_MM.min || v > SHEET_MM.max)) {
      return { problem: `Press sheet "${name}" must be between ${SHEET_MM.min} and ${SHEET_MM.max} mm each way.` };
    }
    if (2 * marginMm >= Math.min(widthMm, heightMm)) return { problem: `Press sheet "${name}": its ${marginMm} mm margin leaves no room to print.` };
    sheets.push({ name, widthMm, heightMm, marginMm });
  }
  return { sheets };
}

const valueOf = (read: SettingReader, key: string) => (read(key) ?? '').trim();

function millimetres(read: SettingReader, key: string, range: { min: number; max: number }): number | undefined | string {
  const v = valueOf(read, key);
  if (v === '') return undefined;
  if (!NUMBER.test(v) || Number(v) < range.min || Number(v) > range.max) return `${key}: "${v}" must be a number of millimetres from ${range.min} to ${range.max}.`;
  return Number(v);
}

/** What is wrong with the site's press sheet and batching settings, as one sentence (undefined: they are usable). */
export function batchSettingsProblem(read: SettingReader): string | undefined {
  for (const key of [BATCH_SETTING_KEYS.sheets, BATCH_SETTING_KEYS.mugSheets, BATCH_SETTING_KEYS.posterSheets]) {
    const sheets = valueOf(read, key);
    if (!sheets) continue;
    const parsed = parsePressSheets(sheets);
    if ('problem' in parsed) return `${key}: ${parsed.problem}`;
  }
  for (const [key, range] of [
    [BATCH_SETTING_KEYS.gap, GAP_MM],
    [BATCH_SETTING_KEYS.slug, SLUG_MM],
  ] as const) {
    const mm = millimetres(read, key, range);
    if (typeof mm === 'string') return mm;
  }
  const roll = valueOf(read, BATCH_SETTING_KEYS.posterRoll);
  if (roll && roll !== '0') {
    const mm = millimetres(read, BATCH_SETTING_KEYS.posterRoll, ROLL_MM);
    if (typeof mm === 'string') return `${BATCH_SETTING_KEYS.posterRoll}: "${roll}" must be a roll width in millimetres from ${ROLL_MM.min} to ${ROLL_MM.max}, or 0 for no roll.`;
  }
  const mirror = valueOf(read, BATCH_SETTING_KEYS.mugMirror);
  if (mirror && mirror !== '1' && mirror !== '0') return `${BATCH_SETTING_KEYS.mugMirror}: "${mirror}" must be 1 (the mug printer wants mirrored transfers) or 0 (it does not).`;
  const duplex = valueOf(read, BATCH_SETTING_KEYS.duplex);
  if (duplex && !DUPLEX_TURNS.includes(duplex as DuplexTurn)) {
    return `${BATCH_SETTING_KEYS.duplex}: "${duplex}" must be turn (turned side to side) or tumble (turned head to foot).`;
  }
  const auto = valueOf(read, BATCH_SETTING_KEYS.auto);
  if (auto && auto !== '1' && auto !== '0') return `${BATCH_SETTING_KEYS.auto}: "${auto}" must be 1 (on) or 0 (off).`;
  const cutOff = valueOf(read, BATCH_SETTING_KEYS.cutOff);
  if (cutOff && !CUT_OFF.test(cutOff)) return `${BATCH_SETTING_KEYS.cutOff}: "${cutOff}" is not a time of day like 15:30 (24-hour clock).`;
  const perBatch = valueOf(read, BATCH_SETTING_KEYS.sheetsPerBatch);
  if (perBatch && (!/^\d{1,4}$/.test(perBatch) || Number(perBatch) < 1 || Number(perBatch) > MAX_SHEETS_PER_BATCH)) {
    return `${BATCH_SETTING_KEYS.sheetsPerBatch}: "${perBatch}" must be a whole number of sheets from 1 to ${MAX_SHEETS_PER_BATCH}.`;
  }
  return undefined;
}

/** The site's imposition; a value that is not usable (never saved so) counts as unset. */
export function impositionSettingsOf(read: SettingReader): ImposeSettings {
  const sheetsOf = (key: string, fallback: SheetSize[]) => {
    const p = parsePressSheets(valueOf(read, key));
    return 'sheets' in p ? p.sheets : fallback;
  };
  const roll = millimetres(read, BATCH_SETTING_KEYS.posterRoll, ROLL_MM);
  const parsed = parsePressSheets(valueOf(read, BATCH_SETTING_KEYS.sheets));
  const mm = (key: string, range: { min: number; max: number }, fallback: number) => {
    const v = millimetres(read, key, range);
    return typeof v === 'number' ? v : fallback;
  };
  const duplex = valueOf(read, BATCH_SETTING_KEYS.duplex);
  return {
    sheets: 'sheets' in parsed ? parsed.sheets : DEFAULT_IMPOSE_SETTINGS.sheets,
    gapMm: mm(BATCH_SETTING_KEYS.gap, GAP_MM, DEFAULT_IMPOSE_SETTINGS.gapMm),
    slugMm: mm(BATCH_SETTING_KEYS.slug, SLUG_MM, DEFAULT_IMPOSE_SETTINGS.slugMm),
    duplex: DUPLEX_TURNS.includes(duplex as DuplexTurn) ? (duplex as DuplexTurn) : DEFAULT_IMPOSE_SETTINGS.duplex,
    mugSheets: sheetsOf(BATCH_SETTING_KEYS.mugSheets, DEFAULT_IMPOSE_SETTINGS.mugSheets),
    mugMirror: valueOf(read, BATCH_SETTING_KEYS.mugMirror) === '1',
    posterSheets: sheetsOf(BATCH_SETTING_KEYS.posterSheets, DEFAULT_IMPOSE_SETTINGS.posterSheets),
    posterRollMm: typeof roll === 'number' ? roll : DEFAULT_IMPOSE_SETTINGS.posterRollMm,
  };
}

/** The site's automatic batching: off unless BATCH_AUTOMATICALLY is 1. */
export function autoBatchingOf(read: SettingReader): AutoBatching {
  const cutOff = valueOf(read, BATCH_SETTING_KEYS.cutOff);
  const perBatch = valueOf(read, BATCH_SETTING_KEYS.sheetsPerBatch);
  const sheetsPerBatch = /^\d{1,4}$/.test(perBatch) && Number(perBatch) >= 1 && Number(perBatch) <= MAX_SHEETS_PER_BATCH ? Number(perBatch) : DEFAULT_SHEETS_PER_BATCH;
  return { on: valueOf(read, BATCH_SETTING_KEYS.auto) === '1', cutOff: CUT_OFF.test(cutOff) ? cutOff : null, sheetsPerBatch };
}
