// npm run test:e2e — browser tests against the built app: e2e/globalSetup.ts builds the admin UI and
// the server when missing or stale; E2E_REBUILD=1 builds them anew first.
import { spawnSync } from 'node:child_process';

if (process.env.E2E_REBUILD === '1') {
  const b = spawnSync('npm', ['run', 'build'], { stdio: 'inherit' });
  if (b.status !== 0) process.exit(b.status ?? 1);
}
const r = spawnSync('npx', ['vitest', 'run', '--config', 'e2e/vitest.config.ts', ...process.argv.slice(2)], { stdio: 'inherit' });
process.exit(r.status ?? 1);
