// What a backup archive holds and how it says so: pure rules, no I/O.
//
// A backup is one gzipped tar file, its entries in this order:
//   backup.json        the label: format, app version, schema level, when, which database (read
//                      first, so a restore refuses a newer schema before it unpacks anything)
//   database/…         the SQLite database, a consistent copy (absent when the database is PostgreSQL)
//   data/…             every file under DATA_DIR that matters, by its path there
//   manifest.json      the label again plus every entry above with its size and SHA-256
//   SHA256SUMS         the SHA-256 of every entry above, manifest.json included (`sha256sum -c` reads it)
import path from 'node:path';
import { z } from 'zod';

export const BACKUP_FORMAT = 'presswork-backup';
export const BACKUP_FORMAT_VERSION = 1;

export const LABEL_ENTRY = 'backup.json';
export const MANIFEST_ENTRY = 'manifest.json';
export const SUMS_ENTRY = 'SHA256SUMS';
export const DATABASE_ENTRY = 'database/presswork.sqlite';
export const DATA_PREFIX = 'data/';

/** The largest entry the archive writer can store (the tar header's 11 octal digits). */
export const MAX_ENTRY_BYTES = 8 * 1024 ** 3 - 1;

const sha256Hex = z.string().regex(/^[0-9a-f]{64}$/);

const labelShape = {
  format: z.literal(BACKUP_FORMAT),
  formatVersion: z.number().int().positive(),
  app: z.object({ name: z.string(), version: z.string() }),
  createdAt: z.string().datetime(),
  /** The migrations applied to the database when it was copied, in order. */
  schema: z.object({ migrations: z.array(z.string()), latest: z.string().nullable() }),
  /** sqlite: the copy is the entry DATABASE_ENTRY; postgresql: not in the archive (pg_dump's). */
  database: z.enum(['sqlite', 'postgresql']),
};

export const labelSchema = z.object(labelShape);
export type BackupLabel = z.infer<typeof labelSchema>;

export const manifestEntrySchema = z.object({ path: z.string().min(1), size: z.number().int().min(0), sha256: sha256Hex });
export type ManifestEntry = z.infer<typeof manifestEntrySchema>;

export const manifestSchema = z.object({ ...labelShape, entries: z.array(manifestEntrySchema) });
export type BackupManifest = z.infer<typeof manifestSchema>;

/** The label's fields of a manifest (what backup.json must repeat exactly). */
export const labelOf = (m: BackupLabel): BackupLabel => ({
  format: m.format,
  formatVersion: m.formatVersion,
  app: { name: m.app.name, version: m.app.version },
  createdAt: m.createdAt,
  schema: { migrations: [...m.schema.migrations], latest: m.schema.latest },
  database: m.database,
});

/** The archive path of a file at `relative` (its path under DATA_DIR, any separator). */
export const dataEntryOf = (relative: string) => DATA_PREFIX + relative.split(path.sep).join('/');

/**
 * An archive path a restore may write: a relative POSIX path under data/ with no empty, `.` or `..`
 * segment. Anything else (absolute, escaping, odd) marks an archive we did not write.
 */
export function isSafeDataEntry(name: string): boolean {
  if (!name.startsWith(DATA_PREFIX) || name.includes('\0') || name.includes('\\')) return false;
  const segments = name.slice(DATA_PREFIX.length).split('/');
  return segments.length > 0 && segments.every((s) => s !== '' && s !== '.' && s !== '..');
}

/** Migrations the backup's database has that this build does not know: a newer Presswork took it. */
export function unknownMigrations(label: BackupLabel, known: readonly string[]): string[] {
  const here = new Set(known);
  return label.schema.migrations.filter((m) => !here.has(m));
}

// SHA256SUMS in sha256sum's own format: "<hex>  <path>"; a path holding a backslash or a newline is
// escaped and its line starts with a backslash, as sha256sum does.
const escapeSumPath = (p: string) => p.replace(/\\/g, '\\\\').replace(/\n/g, '\\n');

export function formatSums(sums: ReadonlyArray<{ path: string; sha256: string }>): string {
  return sums.map(({ path: p, sha256 }) => `${p !== escapeSumPath(p) ? '\\' : ''}${sha256}  ${escapeSumPath(p)}\n`).join('');
}

/** Path → SHA-256 of a SHA256SUMS text; undefined when a line is not of that form or a path repeats. */
export function parseSums(text: string): Map<string, string> | undefined {
  const sums = new Map<string, string>();
  for (const line of text.split('\n')) {
    if (line === '') continue;
    const m = /^(\\?)([0-9a-f]{64}) {2}(.+)$/.exec(line);
    if (!m) return undefined;
    const p = m[1] ? m[3].replace(/\\(\\|n)/g, (_, c: string) => (c === 'n' ? '\n' : '\\')) : m[3];
    if (sums.has(p)) return undefined;
    sums.set(p, m[2]);
  }
  return sums;
}
