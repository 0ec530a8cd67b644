// File-system steps the backup and the restore share.
import fsp from 'node:fs/promises';
import path from 'node:path';

/** The folders a restore unpacks into before they take DATA_DIR's place (left out of backups). */
export const RESTORE_STAGING_PREFIX = '.presswork-restore-';

export const isInside = (dir: string, p: string) => p === dir || p.startsWith(dir + path.sep);

export async function fsyncFile(file: string): Promise<void> {
  const fh = await fsp.open(file, 'r');
  try {
    await fh.sync();
  } finally {
    await fh.close();
  }
}

export async function fsyncDir(dir: string): Promise<void> {
  // A directory's entry (a rename) is durable once the directory is flushed; not every file system allows it.
  await fsyncFile(dir).catch(() => {});
}
