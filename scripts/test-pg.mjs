// npm run test:pg — the server suite on PostgreSQL (pgTemplate.ts migrates one template database a run;
// each test world is a copy of it, dropped after its file), then the slow scenarios
// (vitest.scenarios.config.ts) on PostgreSQL. Arguments (a file, -t pattern) go to the server suite;
// a `*.scenario.ts` file is run by the scenarios' config instead.
import { spawnSync } from 'node:child_process';

const url = process.env.TEST_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test';
const env = { ...process.env, TEST_DATABASE_URL: url };
console.log(`Server tests on PostgreSQL (${url.replace(/\/\/[^@]*@/, '//…@')})`);
const args = process.argv.slice(2);
const files = args.filter((a) => /\.(test|scenario)\.ts$/.test(a));
const scenariosOnly = files.length > 0 && files.every((f) => f.endsWith('.scenario.ts'));
const serverOnly = files.length > 0 && files.every((f) => f.endsWith('.test.ts'));
const run = (argv) => spawnSync('npx', ['vitest', 'run', ...argv], { stdio: 'inherit', env }).status ?? 1;

let status = 0;
if (!scenariosOnly) status = run(['--project', 'server', ...args]);
if (status === 0 && !serverOnly) status = run(['--config', 'vitest.scenarios.config.ts', ...args]);
process.exit(status);
