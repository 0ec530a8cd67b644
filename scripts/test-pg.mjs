// npm run test:pg — the server suite on PostgreSQL (pgTemplate.ts migrates one template database a run;
// each test world is a copy of it, dropped after its file).
import { spawnSync } from 'node:child_process';

const url = process.env.TEST_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test';
console.log(`Server tests on PostgreSQL (${url.replace(/\/\/[^@]*@/, '//…@')})`);
const r = spawnSync('npx', ['vitest', 'run', '--project', 'server', ...process.argv.slice(2)], {
  stdio: 'inherit',
  env: { ...process.env, TEST_DATABASE_URL: url },
});
process.exit(r.status ?? 1);
