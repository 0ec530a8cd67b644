// npm run test:e2e — browser tests: build the admin UI if needed, then run e2e/ with vitest.
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';

if (!fs.existsSync('dist/admin/index.html') || process.env.E2E_REBUILD === '1') {
  const b = spawnSync('npm', ['run', 'build'], { stdio: 'inherit' });
  if (b.status !== 0) process.exit(b.status ?? 1);
}
const r = spawnSync('npx', ['vitest', 'run', '--config', 'e2e/vitest.config.ts', ...process.argv.slice(2)], { stdio: 'inherit' });
process.exit(r.status ?? 1);
