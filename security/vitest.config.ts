import { defineConfig } from 'vitest/config';

// npm run test:security: the authorization matrix from the route table, fuzzing of every route,
// hostile files and URLs, tokens. In-process apps (SQLite in memory), like the server suite.
export default defineConfig({
  test: {
    include: ['security/**/*.security.ts'],
    globalSetup: ['server/test/node20.mjs'],
    testTimeout: 120_000,
    hookTimeout: 60_000,
  },
});
