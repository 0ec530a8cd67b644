// Moving an install's files from its folder (DATA_DIR/files) into the bucket: every file copied
// under its key (a file of the former layout under its per-site key, keys.ts), then read back and
// compared (size and SHA-256). A file already in the bucket
// with the same bytes is left alone, so a run stopped half-way is finished by running it again.
import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import type { Readable } from 'node:stream';
import { filesUnder, type FileStore } from './storage';

export interface MigrationSummary {
  copied: number;
  /** Already in the bucket with the same size and checksum. */
  alreadyThere: number;
  bytes: number;
  failed: Array<{ key: string; reason: string }>;
}

/** What the folder store is still writing, and the readiness probes: not files. */
const NOT_A_FILE = /(\.part-\d+-\d+$)|(^|\/)\.(ready|start)-probe-/;

async function digest(stream: Readable): Promise<{ size: number; sha256: string }> {
  const hash = crypto.createHash('sha256');
  let size = 0;
  for await (const chunk of stream) {
    size += (chunk as Buffer).length;
    hash.update(chunk as Buffer);
  }
  return { size, sha256: hash.digest('hex') };
}

/** The keys of the folder's files (paths relative to it, with /), leaving out what is not a file yet. */
async function* keysUnder(root: string): AsyncGenerator<string> {
  for await (const p of filesUnder(root)) {
    const key = path.relative(root, p).split(path.sep).join('/');
    if (!NOT_A_FILE.test(key)) yield key;
  }
}

/** The bytes of `key` in the target, or null when it is not there. */
async function digestIn(target: FileStore, key: string) {
  const file = await target.open(key);
  return file ? digest(file.stream) : null;
}

export async function migrateFiles(
  folder: string,
  target: FileStore,
  options: {
    signal?: AbortSignal;
    onFile?: (key: string, outcome: 'copied' | 'already there' | 'failed') => void;
    /** The key in the bucket of the file at `path` in the folder (default: the same). */
    keyOf?: (path: string) => Promise<string> | string;
    /** Only the files (paths in the folder) this says yes to. */
    only?: (path: string) => boolean;
  } = {},
): Promise<MigrationSummary> {
  const summary: MigrationSummary = { copied: 0, alreadyThere: 0, bytes: 0, failed: [] };
  for await (const at of keysUnder(folder)) {
    if (options.signal?.aborted) break;
    if (options.only && !options.only(at)) continue;
    const file = path.join(folder, ...at.split('/'));
    const key = options.keyOf ? await options.keyOf(at) : at;
    const local = await digest(fs.createReadStream(file));
    const there = await digestIn(target, key);
    if (there && there.size === local.size && there.sha256 === local.sha256) {
      summary.alreadyThere += 1;
      options.onFile?.(key, 'already there');
      continue;
    }
    try {
      await target.put(key, fs.createReadStream(file));
      const copied = await digestIn(target, key);
      if (!copied || copied.size !== local.size || copied.sha256 !== local.sha256) throw new Error('the copy read back differs from the file (size or checksum)');
      summary.copied += 1;
      summary.bytes += local.size;
      options.onFile?.(key, 'copied');
    } catch (err) {
      summary.failed.push({ key, reason: err instanceof Error ? err.message : String(err) });
      options.onFile?.(key, 'failed');
    }
  }
  return summary;
}
