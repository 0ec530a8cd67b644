// Where uploaded files live: a folder under DATA_DIR. An S3-compatible store can stand behind the same interface.
import fs from 'node:fs';
import fsp from 'node:fs/promises';
import path from 'node:path';
import { pipeline } from 'node:stream/promises';
import type { Readable } from 'node:stream';

export interface FileStore {
  /** Writes the stream; the file becomes visible only when complete. */
  put(key: string, body: Readable): Promise<number>;
  open(key: string): Promise<{ stream: Readable; size: number } | null>;
  read(key: string): Promise<Buffer | null>;
  remove(key: string): Promise<void>;
}

export function diskStore(root: string): FileStore {
  const full = (key: string) => {
    const p = path.resolve(root, key);
    if (!p.startsWith(path.resolve(root) + path.sep)) throw new Error('key escapes the store');
    return p;
  };
  return {
    async put(key, body) {
      const target = full(key);
      await fsp.mkdir(path.dirname(target), { recursive: true });
      const temp = `${target}.part-${process.pid}-${Date.now()}`;
      try {
        await pipeline(body, fs.createWriteStream(temp, { flags: 'wx' }));
        // On the disk before it becomes visible: a full disk that only shows at flush time (delayed
        // allocation) fails the upload here, not later, and a crash cannot leave an empty file behind.
        const fh = await fsp.open(temp, 'r');
        try {
          await fh.sync();
        } finally {
          await fh.close();
        }
        await fsp.rename(temp, target);
      } catch (err) {
        await fsp.rm(temp, { force: true });
        throw err;
      }
      return (await fsp.stat(target)).size;
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
  };
}
