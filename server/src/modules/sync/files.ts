// The platform's files in a site's drop folder: names (ours; docs/sync.md), safe paths
// (only those names, only in that folder — no traversal, no symlink escape) and CSV reading with
// a header row and the delimiter detected (comma, semicolon, tab or pipe) — csv-parse does the parsing.
import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { parse } from 'csv-parse/sync';
import { RECORD_TYPES } from '../records';
import type { FileKind } from '../../../../common/api/sync';

export type { FileKind };

export const FILE_KINDS: Record<FileKind, { pattern: RegExp; recordType: string; label: string; exportNumber?: number }> = {
  unsubscribe: { pattern: /^unsubscribe_(\d{8})\.csv$/, recordType: RECORD_TYPES.unsubscribeFile, label: 'Unsubscribe' },
  export80: { pattern: /^export_80_(\d{8})\.csv$/, recordType: RECORD_TYPES.export80File, label: 'Export 80', exportNumber: 80 },
  export92: { pattern: /^export_92_(\d{8})\.csv$/, recordType: RECORD_TYPES.export92File, label: 'Export 92', exportNumber: 92 },
};

export const isFileKind = (k: string): k is FileKind => k in FILE_KINDS;

export function kindOfName(name: string): FileKind | undefined {
  return (Object.keys(FILE_KINDS) as FileKind[]).find((k) => FILE_KINDS[k].pattern.test(name));
}

/** YYYY-MM-DD of a file name's date. */
export function dayOfName(name: string): string | undefined {
  const m = /_(\d{4})(\d{2})(\d{2})\.csv$/.exec(name);
  return m ? `${m[1]}-${m[2]}-${m[3]}` : undefined;
}

export function fileNameFor(kind: FileKind, day: string): string {
  const d = day.replace(/-/g, '');
  return kind === 'unsubscribe' ? `unsubscribe_${d}.csv` : `export_${FILE_KINDS[kind].exportNumber}_${d}.csv`;
}

export interface DropFile {
  name: string;
  kind: FileKind;
  day: string;
  size: number;
  modifiedAt: string;
}

/** The files of one kind (or all kinds) in the folder, oldest day first. A missing folder is an empty list. */
export function listDropFiles(dir: string, kind?: FileKind): DropFile[] {
  let names: string[];
  try {
    names = fs.readdirSync(dir);
  } catch {
    return [];
  }
  const out: DropFile[] = [];
  for (const name of names) {
    const k = kindOfName(name);
    if (!k || (kind && k !== kind)) continue;
    const stat = fs.lstatSync(path.join(dir, name));
    if (!stat.isFile()) continue;
    out.push({ name, kind: k, day: dayOfName(name)!, size: stat.size, modifiedAt: stat.mtime.toISOString() });
  }
  return out.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
}

/** The path of a drop file by name, or undefined when the name is not one of ours or the file is not (really) in the folder. */
export function safeDropPath(dir: string, name: string, kind?: FileKind): string | undefined {
  if (typeof name !== 'string' || name !== path.basename(name) || !kindOfName(name)) return undefined;
  if (kind && kindOfName(name) !== kind) return undefined;
  const full = path.join(dir, name);
  try {
    const stat = fs.lstatSync(full);
    if (!stat.isFile()) return undefined; // a symlink or a folder is refused
    const realDir = fs.realpathSync(dir);
    if (path.dirname(fs.realpathSync(full)) !== realDir) return undefined;
  } catch {
    return undefined;
  }
  return full;
}

const DELIMITERS = [',', ';', '\t', '|'] as const;

/** The delimiter of a header line: the candidate found most often outside quotes (comma on a tie or none). */
export function detectDelimiter(headerLine: string): string {
  const counts = new Map<string, number>(DELIMITERS.map((d) => [d, 0]));
  let quoted = false;
  for (const ch of headerLine) {
    if (ch === '"') quoted = !quoted;
    else if (!quoted && counts.has(ch)) counts.set(ch, counts.get(ch)! + 1);
  }
  let best: string = ',';
  for (const d of DELIMITERS) if (counts.get(d)! > counts.get(best)!) best = d;
  return best;
}

export interface CsvFile {
  delimiter: string;
  columns: string[];
  rows: Array<Record<string, string>>;
  sha256: string;
}

export function readCsv(file: string): CsvFile {
  return parseCsv(fs.readFileSync(file));
}

export function parseCsv(buf: Buffer): CsvFile {
  const text = buf.toString('utf8').replace(/^\uFEFF/, '');
  const firstLine = text.split(/\r?\n/, 1)[0] ?? '';
  const delimiter = detectDelimiter(firstLine);
  let columns: string[] = [];
  const rows = parse(text, {
    delimiter,
    columns: (header: string[]) => (columns = header.map((h) => h.trim().toLowerCase())),
    skip_empty_lines: true,
    trim: true,
    relax_column_count: true,
    relax_quotes: true,
  }) as Array<Record<string, string>>;
  return { delimiter, columns, rows, sha256: crypto.createHash('sha256').update(buf).digest('hex') };
}
