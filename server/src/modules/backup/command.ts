// What the backup and restore commands (server/src/cli) print and how they end: a sentence on failure, no stack.
import { ConfigError } from '../../config';
import { BackupError } from './errors';

export const megabytes = (bytes: number) => `${(bytes / 1024 / 1024).toFixed(bytes < 10 * 1024 * 1024 ? 2 : 1)} MB`;

/** The arguments after the command's name (npm passes the ones after `--`). */
export const argumentsOf = (argv: string[]) => argv.slice(2).filter((a) => a !== '--');

/** Runs the command: exit 0 when it succeeds, 1 with its sentence when it is refused or fails. */
export function runCommand(name: string, command: () => Promise<void>): void {
  command().then(
    () => process.exit(0),
    (err: unknown) => {
      if (err instanceof BackupError || err instanceof ConfigError) console.error(`${name}: ${err.message}`);
      else console.error(`${name} failed: ${err instanceof Error ? err.message : String(err)}`);
      process.exit(1);
    },
  );
}
