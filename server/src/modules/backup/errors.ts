/** A backup or restore that cannot go on, with the sentence to tell the operator (no stack needed). */
export class BackupError extends Error {
  override name = 'BackupError';
}
