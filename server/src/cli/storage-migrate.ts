// npm run storage:migrate: copies every file of DATA_DIR/files into the bucket the S3_* settings
// name, each read back and compared; re-run it after an interruption (what is there is skipped).
import { loadConfig } from '../config';
import { migrateFiles, s3Store, storeProblem } from '../modules/uploads';
import { filesFolderOf } from '../services';
import { argumentsOf, megabytes, runCommand } from '../modules/backup';

const USAGE = 'Usage: npm run storage:migrate   (with S3_BUCKET and the other S3_* settings of docs/storage.md; STORAGE may still be local)';

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
  const folder = filesFolderOf(config.dataDir);
  console.log(`Copying the files of ${folder} into ${bucket.describe()}…`);
  let seen = 0;
  const s = await migrateFiles(folder, bucket, {
    onFile: (key, outcome) => {
      seen += 1;
      if (outcome === 'failed' || seen % 500 === 0) console.log(`  ${seen} files looked at${outcome === 'failed' ? ` (${key} failed)` : ''}`);
    },
  });
  console.log(`Copied ${s.copied} file(s) (${megabytes(s.bytes)}), each read back with the same size and SHA-256; ${s.alreadyThere} already in the bucket.`);
  if (s.failed.length) {
    for (const f of s.failed.slice(0, 20)) console.error(`  not copied: ${f.key}: ${f.reason}`);
    throw new Error(`${s.failed.length} file(s) not copied; run npm run storage:migrate again (what is in the bucket already is skipped)`);
  }
  console.log('All files are in the bucket. To switch: stop every instance, run npm run storage:migrate once more (it copies only what changed since), set STORAGE=s3 in the env file, and start them. Keep DATA_DIR/files until you have checked; it is no longer read.');
});
