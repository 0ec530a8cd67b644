import { defineConfig } from 'vitest/config';
import react from '@vitejs/plugin-react';

// `npm test`: API/unit tests (node) and admin component tests (jsdom). Browser tests: `npm run test:e2e`.
export default defineConfig({
  plugins: [react()],
  test: {
    globals: true,
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
          // jsdom renders of whole screens take seconds when the server suite shares the 2 cores.
          testTimeout: 60_000,
        },
      },
    ],
  },
});
