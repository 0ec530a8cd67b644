// npm run restore -- <file>: a backup into an empty DATA_DIR, every checksum verified first.
import { loadConfig } from '../config';
import { restoreBackup } from '../modules/backup';
import { argumentsOf, megabytes, runCommand } from '../modules/backup/command';

const USAGE = 'Usage: DATA_DIR=<empty folder> npm run restore -- <backup file>';

runCommand('restore', async () => {
  const args = argumentsOf(process.argv);
  if (args.length !== 1 || args[0].startsWith('-')) {
    console.error(USAGE);
    process.exit(2);
  }
  // Without creating anything in DATA_DIR (it must be empty).
  const config = loadConfig(undefined, { leaveDataDir: true });
  const s = await restoreBackup(config, args[0]);
  const { label } = s;
  console.log(`Restored ${args[0]} into ${s.dataDir} in ${(s.ms / 1000).toFixed(1)} s: every checksum matched.`);
  console.log(`  taken ${label.createdAt} by Presswork ${label.app.version}, schema ${label.schema.latest ?? '(no migrations)'}`);
  if (s.database) console.log(`  database: ${s.database}`);
  else console.log('  database: PostgreSQL, not in this archive: restore it with pg_restore (docs/server-reference.md, Backups and restore)');
  console.log(`  files: ${s.files.count} (${megabytes(s.files.bytes)})`);
  console.log('Start Presswork with this DATA_DIR; migrations newer than the backup run at start.');
});
