// Where each kind of file lives: `<site id>/<kind>/…`, the same key in the folder (DATA_DIR/files)
// and in the bucket (after S3_PREFIX). A key never changes once written (addresses hold it), so a
// bucket can be read site by site and a lifecycle rule set on one kind (the print-file cache).

/** Files of no site (made before a site existed, or by Presswork itself for no one). */
export const NO_SITE = 'shared';

/** The first part of every key of a site's files. */
export const siteFolder = (siteId: number | null | undefined): string => (siteId != null && Number.isSafeInteger(siteId) && siteId > 0 ? String(siteId) : NO_SITE);

/** The kinds of file, each under its own prefix inside the site's folder. */
export const KINDS = {
  /** A job's print file, made again on demand when missing: lifecycle rules may expire it. */
  printFiles: 'print-files',
  /** The email platform's export and unsubscribe files (the sync's drop folder, when files are in a bucket). */
  syncDrop: 'sync-drop',
} as const;

export const printFileKey = (siteId: number | null, token: string, name: string) => `${siteFolder(siteId)}/${KINDS.printFiles}/${token}/${name}`;

/** The prefix of a site's sync drop files (a name under it is the file's name). */
export const syncDropPrefix = (siteId: number) => `${siteFolder(siteId)}/${KINDS.syncDrop}/`;

const FORMER_PRINT_FILE = /^print-files\/(\d+)\/(.+)$/;

/**
 * Where a file written before keys began with their site now lives, once `storage:migrate` has
 * copied it (`siteId`: its uploads row's site). The folder keeps such a file under its first key,
 * so a reader tries that key first and this one after. null: the key is already per site.
 */
export function perSiteKeyOf(key: string, siteId: number | null | undefined): string | null {
  const printFile = FORMER_PRINT_FILE.exec(key);
  if (printFile) return `${printFile[1]}/${KINDS.printFiles}/${printFile[2]}`;
  const folder = siteFolder(siteId);
  return key.startsWith(`${folder}/`) ? null : `${folder}/${key}`;
}
