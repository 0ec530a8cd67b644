import { defineConfig } from 'vitest/config';
import react from '@vitejs/plugin-react';
import { raMuiCompat } from './admin/raMuiCompat.ts';

// `npm test`: API/unit tests (node) and admin component tests (jsdom). Browser tests: `npm run test:e2e`.
export default defineConfig({
  plugins: [raMuiCompat(), react()],
  test: {
    globals: true,
    globalSetup: ['server/test/node20.mjs'],
    projects: [
      {
        extends: true,
        test: {
          name: 'server',
          environment: 'node',
          include: ['server/**/*.test.ts', 'migrations/**/*.test.ts', 'common/**/*.test.ts'],
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
          // Through Vite, so raMuiCompat's rewrites apply to react-admin here as in the build.
          server: { deps: { inline: ['react-admin', 'ra-ui-materialui'] } },
          // jsdom renders of whole screens take seconds when the server suite shares the 2 cores.
          testTimeout: 60_000,
        },
      },
    ],
  },
});
