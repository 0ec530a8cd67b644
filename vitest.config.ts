import { defineConfig } from 'vitest/config';
import react from '@vitejs/plugin-react';
import { raMuiCompat } from './admin/raMuiCompat.ts';

// `npm test`: API/unit tests (node) and admin component tests (jsdom). Browser tests: `npm run test:e2e`.
// `npm test -- <file>` runs one file; `npm test -- --project server` one project.
export default defineConfig({
  plugins: [raMuiCompat(), react()],
  test: {
    globals: true,
    globalSetup: ['server/test/node20.mjs'],
    // vitest's default on 2 cores is one worker; most tests wait on sockets, child processes and
    // worker threads part of the time, so two keep both cores busy.
    maxWorkers: 2,
    projects: [
      {
        extends: true,
        test: {
          name: 'server',
          environment: 'node',
          include: ['server/**/*.test.ts', 'migrations/**/*.test.ts', 'common/**/*.test.ts'],
          // One worker process runs many files, importing the app (express, knex, pdf-lib, sharp…)
          // once instead of once a file: most of the suite's time was spent importing. Each file
          // still builds its own world (harness.ts), and a test that changes module state (PDF and
          // render settings, a stopped pool) puts it back after itself.
          isolate: false,
          globalSetup: ['server/test/pgTemplate.ts'],
          testTimeout: 20_000,
          hookTimeout: 60_000,
        },
      },
      {
        extends: true,
        test: {
          name: 'admin',
          environment: 'jsdom',
          include: ['admin/src/**/*.test.{ts,tsx}'],
          setupFiles: ['admin/src/test/setup.ts'],
          // As the server suite: react-admin, MUI and the screens are imported once a worker, not
          // once a file. jsdom is shared by the worker's files too; setup.ts clears what a test leaves.
          isolate: false,
          // Through Vite, so raMuiCompat's rewrites apply to react-admin here as in the build.
          server: { deps: { inline: ['react-admin', 'ra-ui-materialui'] } },
          // jsdom renders of whole screens take seconds when the server suite shares the 2 cores;
          // the site editor (every settings section at once) takes tens of seconds a test on a busy
          // machine. One limit for every file, rather than lower ones per file that a slow run trips.
          testTimeout: 120_000,
        },
      },
    ],
  },
});
