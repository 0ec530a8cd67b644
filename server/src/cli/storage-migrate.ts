// npm run storage:migrate: copies every file of DATA_DIR/files (and each site's sync drop folder)
// into the bucket the S3_* settings name, each read back and compared; re-run it after an
// interruption (what is there is skipped). A file of the former layout (no site first in its key)
// goes under its per-site key, which the server reads it at once files are in the bucket.
import fs from 'node:fs';
import { loadConfig } from '../config';
import { createDb, type Db } from '../db';
import { listSites } from '../modules/sites';
import { dropDirOf, dropFileKindOf } from '../modules/sync';
import { migrateFiles, perSiteKeyOf, s3Store, storeProblem, syncDropPrefix, uploadSiteOf, type MigrationSummary } from '../modules/uploads';
import { filesFolderOf } from '../services';
import { argumentsOf, megabytes, runCommand } from '../modules/backup';

const USAGE = 'Usage: npm run storage:migrate   (with S3_BUCKET and the other S3_* settings of docs/storage.md; STORAGE may still be local)';

/** The database, when there is one to read (a files-only DATA_DIR has none: keys are copied as they are). */
async function openDatabase(config: ReturnType<typeof loadConfig>): Promise<Db | undefined> {
  if (config.database.client === 'sqlite' && !fs.existsSync(config.database.filename)) return undefined;
  const db = createDb(config.database);
  if (await db.schema.hasTable('uploads')) return db;
  await db.destroy();
  return undefined;
}

runCommand('storage:migrate', async () => {
  if (argumentsOf(process.argv).length) {
    console.error(USAGE);
    process.exit(2);
  }
  // The bucket is read as STORAGE=s3 would read it, whatever STORAGE says now: files are copied before the switch.
  const config = loadConfig(undefined, { leaveDataDir: true, bucketWhateverStorage: true });
  if (config.storage.kind !== 's3') throw new Error('the S3 settings could not be read');
  if (config.dataDir === ':memory:') throw new Error('DATA_DIR is :memory:, so there are no files to copy');
  const bucket = s3Store(config.storage);
  const problem = await storeProblem(bucket);
  if (problem) throw new Error(`the bucket (${bucket.describe()}) cannot be used: ${problem}`);
  const db = await openDatabase(config);
  try {
    const folder = filesFolderOf(config.dataDir);
    console.log(`Copying the files of ${folder} into ${bucket.describe()}…`);
    let seen = 0;
    const onFile = (key: string, outcome: string) => {
      seen += 1;
      if (outcome === 'failed' || seen % 500 === 0) console.log(`  ${seen} files looked at${outcome === 'failed' ? ` (${key} failed)` : ''}`);
    };
    const s = await migrateFiles(folder, bucket, {
      onFile,
      // Keys of the former layout move under their site (the uploads row says which).
      keyOf: async (key) => perSiteKeyOf(key, db ? await uploadSiteOf(db, key) : undefined) ?? key,
    });
    // The sync's drop folders: each site's files under <site id>/sync-drop/.
    const sites = db ? (await listSites(db, {}, { field: 'id', order: 'asc' }, 100_000, 0)).rows : [];
    for (const site of sites) {
      const dir = dropDirOf(site, config);
      if (!fs.existsSync(dir)) continue;
      const d = await migrateFiles(dir, bucket, { onFile, only: (name) => !name.includes('/') && dropFileKindOf(name) !== undefined, keyOf: (name) => syncDropPrefix(site.id) + name });
      addTo(s, d);
    }
    console.log(`Copied ${s.copied} file(s) (${megabytes(s.bytes)}), each read back with the same size and SHA-256; ${s.alreadyThere} already in the bucket.`);
    if (s.failed.length) {
      for (const f of s.failed.slice(0, 20)) console.error(`  not copied: ${f.key}: ${f.reason}`);
      throw new Error(`${s.failed.length} file(s) not copied; run npm run storage:migrate again (what is in the bucket already is skipped)`);
    }
    console.log('All files are in the bucket. To switch: stop every instance, run npm run storage:migrate once more (it copies only what changed since), set STORAGE=s3 in the env file, and start them. Keep DATA_DIR/files until you have checked; it is no longer read.');
  } finally {
    await db?.destroy();
  }
});

function addTo(total: MigrationSummary, more: MigrationSummary) {
  total.copied += more.copied;
  total.alreadyThere += more.alreadyThere;
  total.bytes += more.bytes;
  total.failed.push(...more.failed);
}
