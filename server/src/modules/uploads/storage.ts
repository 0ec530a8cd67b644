// Where files live: a folder under DATA_DIR (STORAGE=local), or an S3-compatible bucket (s3Store.ts)
// behind the same interface.
import crypto from 'node:crypto';
import fs from 'node:fs';
import fsp from 'node:fs/promises';
import path from 'node:path';
import { pipeline } from 'node:stream/promises';
import { Readable } from 'node:stream';
import { HttpError } from '../../http/errors';

export interface StoredFile {
  stream: Readable;
  size: number;
  /** What a bucket keeps with the object (a folder keeps neither). */
  contentType?: string;
  metadata?: Record<string, string>;
}

export interface ListedFile {
  key: string;
  size: number;
  modifiedAt: Date;
}

/** The signed-URL PUT a client makes straight into the store: type and length bound in the signature. */
export interface PutGrant {
  contentType: string;
  contentLength: number;
  expiresSeconds: number;
  metadata: Record<string, string>;
}

export interface FileStore {
  kind: 'local' | 's3';
  /** Writes the stream; the file becomes visible only when complete (a failed write leaves nothing). */
  put(key: string, body: Readable, options?: { contentType?: string }): Promise<number>;
  /** null: no such file; a store that cannot answer throws StoreUnavailable. */
  open(key: string): Promise<StoredFile | null>;
  read(key: string): Promise<Buffer | null>;
  remove(key: string): Promise<void>;
  /** The files whose key starts with `folder` (a prefix ending in "/"), at any depth, sorted by key. */
  list(folder: string): Promise<ListedFile[]>;
  /** A URL a client PUTs the file to directly (a bucket's presigned PUT); a folder has none (the server takes the PUT). */
  presignPut?(key: string, grant: PutGrant): Promise<string>;
  /** Where the files are, for the log (no secret). */
  describe(): string;
}

/**
 * The store cannot be used now (unreachable, refused key, missing bucket). `reason` says which, with
 * no host or secret; a caller of the API gets 503 with it and may retry.
 */
export class StoreUnavailable extends HttpError {
  override name = 'StoreUnavailable';
  constructor(
    readonly reason: string,
    options?: { cause?: unknown },
  ) {
    super(503, `Files cannot be stored or read just now: ${reason}. Nothing was lost; try again in a moment.`, undefined, { 'Retry-After': '30' });
    if (options?.cause !== undefined) this.cause = options.cause;
  }
}

/** Writes and removes a probe through the store, as an upload would: throws what stops a write. */
export async function probeStore(store: FileStore, probeKey: string): Promise<void> {
  await store.put(probeKey, Readable.from(Buffer.from('ready')));
  await store.remove(probeKey);
}

/** Why the store cannot take a write now, as a sentence (null: it can). */
export async function storeProblem(store: FileStore): Promise<string | null> {
  try {
    await probeStore(store, `.start-probe-${process.pid}-${crypto.randomBytes(6).toString('hex')}`);
    return null;
  } catch (err) {
    if (err instanceof StoreUnavailable) return err.reason;
    const code = (err as { code?: unknown } | null)?.code;
    return `it cannot be written${typeof code === 'string' && /^[A-Z0-9_]{2,40}$/.test(code) ? ` (${code})` : ''}`;
  }
}

export function diskStore(root: string): FileStore {
  const full = (key: string) => {
    const p = path.resolve(root, key);
    if (!p.startsWith(path.resolve(root) + path.sep)) throw new Error('key escapes the store');
    return p;
  };
  let written = 0;
  return {
    kind: 'local',
    describe: () => `the folder ${root}`,
    async put(key, body) {
      const target = full(key);
      await fsp.mkdir(path.dirname(target), { recursive: true });
      // pid, time and a counter: writers of one key in the same millisecond each have their own temp file.
      const temp = `${target}.part-${process.pid}-${Date.now()}${String(++written).padStart(6, '0')}`;
      try {
        await pipeline(body, fs.createWriteStream(temp, { flags: 'wx' }));
        // On the disk before it becomes visible: a full disk that only shows at flush time (delayed
        // allocation) fails the upload here, not later, and a crash cannot leave an empty file behind.
        const fh = await fsp.open(temp, 'r');
        let size: number;
        try {
          await fh.sync();
          // This writer's size: once renamed, the key may already hold another writer's file.
          size = (await fh.stat()).size;
        } finally {
          await fh.close();
        }
        await fsp.rename(temp, target);
        return size;
      } catch (err) {
        await fsp.rm(temp, { force: true });
        throw err;
      }
    },
    async open(key) {
      try {
        const p = full(key);
        const stat = await fsp.stat(p);
        if (!stat.isFile()) return null;
        return { stream: fs.createReadStream(p), size: stat.size };
      } catch {
        return null;
      }
    },
    async read(key) {
      try {
        return await fsp.readFile(full(key));
      } catch {
        return null;
      }
    },
    async remove(key) {
      await fsp.rm(full(key), { force: true });
    },
    async list(folder) {
      if (!folder.endsWith('/')) throw new Error('a listed folder ends with /');
      const out: ListedFile[] = [];
      const base = path.resolve(root);
      for await (const p of filesUnder(full(folder.slice(0, -1)))) {
        // A write under way (its temporary name) is not a file yet.
        if (/\.part-\d+-\d+$/.test(p)) continue;
        const stat = await fsp.stat(p);
        out.push({ key: path.relative(base, p).split(path.sep).join('/'), size: stat.size, modifiedAt: stat.mtime });
      }
      return out.sort((a, b) => (a.key < b.key ? -1 : a.key > b.key ? 1 : 0));
    },
  };
}

/** Every file below `dir` (full paths, by name at each level); none when `dir` is not there. */
export async function* filesUnder(dir: string): AsyncGenerator<string> {
  let entries: fs.Dirent[];
  try {
    entries = await fsp.readdir(dir, { withFileTypes: true });
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return;
    throw err;
  }
  for (const e of entries.sort((a, b) => a.name.localeCompare(b.name))) {
    const p = path.join(dir, e.name);
    if (e.isDirectory()) yield* filesUnder(p);
    else if (e.isFile()) yield p;
  }
}
