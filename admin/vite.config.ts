import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vite';
import react from '@vitejs/plugin-react';
import { raMuiCompat } from './raMuiCompat.ts';
import { routePreload } from './routePreload.ts';

const root = fileURLToPath(new URL('.', import.meta.url));
const api = 'http://127.0.0.1:8080';

// The admin UI is served by the API in production (dist/admin); in dev Vite proxies API calls.
export default defineConfig({
  root,
  // The Jobs screen, the print operators' first screen, loads its code with the app's on a cold load.
  plugins: [raMuiCompat(), react(), routePreload([[/^\/print-jobs\/?$/, 'src/pages/print-jobs/PrintJobsPage.tsx']])],
  build: {
    outDir: fileURLToPath(new URL('../dist/admin', import.meta.url)),
    emptyOutDir: true,
    chunkSizeWarningLimit: 1500,
    rolldownOptions: {
      output: {
        // What the app loads at start, in one file: left to itself the bundler cuts it into some twenty
        // (the parts the lazy screens share with it), each a request before the first screen can show.
        codeSplitting: { groups: [{ name: 'app', tags: ['$initial'] }] },
      },
    },
  },
  server: {
    proxy: {
      '/api': api,
      '/uploads': api,
      '/files': api,
    },
  },
});
