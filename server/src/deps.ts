// What services are built from. createApp({ db, clock, config, log }) wires them together.
import type { Logger } from 'pino';
import type { Config } from './config';
import type { Db } from './db';
import type { Clock } from './lib/clock';
import type { Metrics } from './lib/metrics';

export interface Deps {
  db: Db;
  clock: Clock;
  config: Config;
  log: Logger;
  /**
   * Where the modules count what they do (GET /metrics). createServices makes one when none is
   * given; a module built alone in a test may go without (nothing is counted).
   */
  metrics?: Metrics;
  /**
   * Whether this process has begun to shut down (lib/shutdown.ts owns the state; main.ts passes it
   * in): readiness answers 503 from then on. Absent: never (tests, command-line tools).
   */
  shuttingDown?: () => boolean;
}
