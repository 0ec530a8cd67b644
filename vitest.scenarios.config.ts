import { defineConfig } from 'vitest/config';

// npm run test:scenarios: the server's slow end-to-end scenarios (`server/test/*.scenario.ts`), kept
// out of `npm test` so the everyday run stays short; CI runs them (.ci/run). A browser, real child
// processes, long drains. Same worlds and settings as the server project of vitest.config.ts
// (SQLite in memory, or PostgreSQL with TEST_DATABASE_URL). One file: `npm run test:scenarios -- <file>`.
export default defineConfig({
  test: {
    name: 'scenarios',
    environment: 'node',
    include: ['server/**/*.scenario.ts'],
    globalSetup: ['server/test/node20.mjs', 'server/test/pgTemplate.ts'],
    maxWorkers: 2,
    isolate: false,
    testTimeout: 60_000,
    hookTimeout: 60_000,
  },
});
