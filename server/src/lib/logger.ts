// pino JSON lines on stdout (pino-http logs through this logger too). The destination is ours, not
// pino's: it can never keep the process alive (see logDestination.ts).
import pino, { type Logger } from 'pino';
import { stdoutDestination } from './logDestination';

export function createLogger(level: string): Logger {
  return pino(
    {
      level,
      redact: { paths: ['req.headers.authorization', 'password', '*.password', 'token', '*.token'], censor: '[redacted]' },
    },
    stdoutDestination(),
  );
}
