import { defineConfig } from 'vitest/config';

// npm run test:faults: real app processes killed and restarted, two instances on one PostgreSQL
// database, providers that fail. Sizes are bounded by FAULTS_N (see docs/developer-guide.md).
export default defineConfig({
  test: {
    include: ['faults/**/*.faults.ts'],
    globalSetup: ['server/test/node20.mjs'],
    testTimeout: 240_000,
    hookTimeout: 120_000,
    fileParallelism: false,
  },
});
