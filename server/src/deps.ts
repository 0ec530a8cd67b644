// What services are built from. createApp({ db, clock, config, log }) wires them together.
import type { Logger } from 'pino';
import type { Config } from './config';
import type { Db } from './db';
import type { Clock } from './lib/clock';

export interface Deps {
  db: Db;
  clock: Clock;
  config: Config;
  log: Logger;
}
