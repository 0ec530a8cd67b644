// Where the email platform's export and unsubscribe files are read: the site's drop folder on this
// machine (STORAGE=local), or the file store's `<site id>/sync-drop/` (STORAGE=s3), which every
// instance sees — the platform (or the job that fetches its exports) writes them there.
import fsp from 'node:fs/promises';
import { syncDropPrefix, type FileStore } from '../uploads';
import { dayOfName, kindOfName, listDropFiles, safeDropPath, type DropFile, type FileKind } from './files';
import type { SiteSync } from './siteSettings';

export interface DropFiles {
  /** Where the site's files are, for the connectivity check (a path or a bucket prefix; no secret). */
  where(s: SiteSync): string;
  /** The files of one kind (or all kinds), oldest day first; none there is an empty list. */
  list(s: SiteSync, kind?: FileKind): Promise<DropFile[]>;
  /** The bytes of one of ours by name (undefined: no such file, or not a name of ours). */
  read(s: SiteSync, name: string, kind?: FileKind): Promise<Buffer | undefined>;
}

export const folderDropFiles: DropFiles = {
  where: (s) => s.dropDir,
  list: async (s, kind) => listDropFiles(s.dropDir, kind),
  async read(s, name, kind) {
    const file = safeDropPath(s.dropDir, name, kind);
    return file ? fsp.readFile(file) : undefined;
  },
};

/** A name of ours, directly under the prefix (nothing in sub-folders, nothing else). */
const ourName = (name: string, kind?: FileKind) => !name.includes('/') && kindOfName(name) !== undefined && (!kind || kindOfName(name) === kind);

export function storeDropFiles(store: FileStore): DropFiles {
  return {
    where: (s) => `${store.describe()}, ${syncDropPrefix(s.site.id)}`,
    async list(s, kind) {
      const prefix = syncDropPrefix(s.site.id);
      const out: DropFile[] = [];
      for (const f of await store.list(prefix)) {
        const name = f.key.slice(prefix.length);
        if (ourName(name, kind)) out.push({ name, kind: kindOfName(name)!, day: dayOfName(name)!, size: f.size, modifiedAt: f.modifiedAt.toISOString() });
      }
      return out.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
    },
    async read(s, name, kind) {
      if (typeof name !== 'string' || !ourName(name, kind)) return undefined;
      return (await store.read(syncDropPrefix(s.site.id) + name)) ?? undefined;
    },
  };
}
