// The docs' example scripts: the demo seeded in a throwaway data directory, served on a free
// loopback port, and an admin of the demo site to call it as an operator would.
import type { AddressInfo } from 'node:net';
import { seedDemo } from '../../seeds/demo';
import { createApp } from '../../server/src/app';
import { loadConfig } from '../../server/src/config';
import { createDb, migrate, type Db } from '../../server/src/db';
import { systemClock } from '../../server/src/lib/clock';
import { createLogger } from '../../server/src/lib/logger';
import { signToken } from '../../server/src/modules/auth/tokens';
import { closePdfWorkers } from '../../server/src/modules/pdf/printPdf';
import { closeRenderWorkers } from '../../server/src/modules/render/service';
import { createServices } from '../../server/src/services';

export interface DemoApp {
  base: string;
  /** An admin of the demo site's bearer token, and JSON. */
  headers: Record<string, string>;
  siteId: number;
  db: Db;
}

/** Runs `use` against a freshly seeded demo, then stops it and its workers. */
export async function withDemoApp<T>(dataDir: string, name: string, use: (app: DemoApp) => Promise<T>): Promise<T> {
  const config = loadConfig({ NODE_ENV: 'development', DATA_DIR: dataDir, JWT_SECRET: `${name}-secret-that-is-long-enough-0123456789`, LOG_LEVEL: 'silent', SEED_DEMO: '1', SIMULATORS: '0' });
  const db = createDb(config.database);
  const deps = { db, clock: systemClock, config, log: createLogger('silent') };
  const services = createServices(deps);
  await migrate(db);
  await seedDemo(deps, services);
  const { app } = createApp(deps, services);
  const server = app.listen(0, '127.0.0.1');
  await new Promise((resolve) => server.once('listening', resolve));
  try {
    const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    const siteId = (await db('sites').where({ slug: 'demo' }).first('id')).id as number;
    const admin = await services.users.createUser({ firstName: 'Example', lastName: name, email: `${name}@presswork.local`, password: `${name}-password-long-enough`, role: 'admin', siteId });
    const headers = { Authorization: `Bearer ${signToken(config.jwt, admin.id)}`, 'Content-Type': 'application/json' };
    return await use({ base, headers, siteId, db });
  } finally {
    await new Promise((resolve) => server.close(resolve));
    await Promise.all([closeRenderWorkers(), closePdfWorkers()]);
    await db.destroy();
  }
}
