// npm run backup -- <file>: DATA_DIR's database and files in one archive, while the app may run.
import { loadConfig } from '../config';
import { writeBackup } from '../modules/backup';
import { argumentsOf, megabytes, runCommand } from '../modules/backup/command';

const USAGE = 'Usage: npm run backup -- <file>   (a new file, outside DATA_DIR, e.g. /var/backups/presswork/2026-11-26.tar.gz)';

runCommand('backup', async () => {
  const args = argumentsOf(process.argv);
  if (args.length !== 1 || args[0].startsWith('-')) {
    console.error(USAGE);
    process.exit(2);
  }
  const config = loadConfig(undefined, { leaveDataDir: true });
  if (config.database.client === 'pg') {
    console.log('DATABASE_URL is PostgreSQL: this backup holds DATA_DIR\'s files only. Back up the database with pg_dump first (docs/server-reference.md, Backups and restore).');
  }
  const s = await writeBackup(config, args[0]);
  console.log(`Backup written: ${s.file} (${megabytes(s.bytes)}) in ${(s.ms / 1000).toFixed(1)} s`);
  if (s.database.engine === 'sqlite') console.log(`  database: SQLite, ${megabytes(s.database.bytes)}, schema ${s.schemaLatest ?? '(no migrations)'}`);
  else console.log(`  database: PostgreSQL, not in this archive (pg_dump's); schema ${s.schemaLatest ?? '(no migrations)'}`);
  console.log(`  files: ${s.files.count} from ${config.dataDir} (${megabytes(s.files.bytes)})`);
  if (s.skipped.length) console.log(`  left out, not regular files: ${s.skipped.join(', ')}`);
});
