// config → db → migrate → seed → app → listen. Shuts down gracefully on SIGTERM/SIGINT.
import { ConfigError, loadConfig } from './config';
import { createDb, migrate } from './db';
import { createApp } from './app';
import { createLogger } from './lib/logger';
import { systemClock } from './lib/clock';
import { createServices } from './services';
import { DEMO_PASSWORD, DEMO_USERS, ensureFirstSite, seedDemo } from '../../seeds/demo';

async function main() {
  let config;
  try {
    config = loadConfig();
  } catch (err) {
    if (err instanceof ConfigError) {
      console.error(`Presswork cannot start: ${err.message}`);
      process.exit(1);
    }
    throw err;
  }
  const log = createLogger(config.logLevel);
  const db = createDb(config.database);
  await migrate(db);
  const deps = { db, clock: systemClock, config, log };
  const services = createServices(deps);
  const seeded = config.seedDemo ? await seedDemo(deps, services) : false;
  await services.users.ensureFirstAdmin(await ensureFirstSite(deps));
  const { app } = createApp(deps, services);

  const server = app.listen(config.port, config.host, () => {
    const address = server.address();
    const port = typeof address === 'object' && address ? address.port : config.port;
    const url = config.publicUrl ?? `http://localhost:${port}`;
    console.log(`\nPresswork is running at ${url}`);
    if (config.firstAdmin && !config.isProduction) {
      console.log(`Sign in as ${config.firstAdmin.email} / ${config.firstAdmin.password}`);
      if (config.seedDemo) console.log(`Other demo users (password "${DEMO_PASSWORD}"): ${DEMO_USERS.filter((u) => u.email !== 'admin@presswork.local').map((u) => u.email).join(', ')}`);
    }
    if (seeded) console.log('The demo world was seeded on this first start.');
    console.log('');
  });
  server.keepAliveTimeout = 65_000;

  let closing = false;
  const shutdown = (signal: string) => {
    if (closing) return;
    closing = true;
    log.info({ signal }, 'shutting down');
    server.close(() => void db.destroy().finally(() => process.exit(0)));
    setTimeout(() => process.exit(0), 10_000).unref();
  };
  process.on('SIGTERM', () => shutdown('SIGTERM'));
  process.on('SIGINT', () => shutdown('SIGINT'));
}

main().catch((err) => {
  console.error('Presswork failed to start:', err);
  process.exit(1);
});
