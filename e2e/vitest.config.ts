import { defineConfig } from 'vitest/config';

// Browser tests: one Presswork server on a fresh database for the run, Chromium driven by playwright-core.
export default defineConfig({
  test: {
    include: ['e2e/**/*.e2e.ts'],
    globalSetup: ['server/test/node20.mjs', 'e2e/globalSetup.ts'],
    setupFiles: ['e2e/setup.ts'],
    testTimeout: 60_000,
    hookTimeout: 90_000,
    fileParallelism: false,
  },
});
