// Owns backups and restore: what the CLI commands and the server's schedule use.
export { BackupError } from './errors';
export { writeBackup, type BackupSummary } from './write';
export { restoreBackup, type RestoreSummary } from './restore';
export { startScheduledBackups, backupFileName, removeOldBackups, BACKUP_LEASE, type ScheduledBackups, type ScheduledRun } from './schedule';
export { argumentsOf, megabytes, runCommand } from './command';
export { ensureFreeInBucket, fetchFromBucket, isBucketAddress, sendToBucket, temporaryArchive } from './bucket';
