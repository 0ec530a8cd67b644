import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vite';
import react from '@vitejs/plugin-react';
import { raMuiCompat } from './raMuiCompat.ts';

const root = fileURLToPath(new URL('.', import.meta.url));
const api = 'http://127.0.0.1:8080';

// The admin UI is served by the API in production (dist/admin); in dev Vite proxies API calls.
export default defineConfig({
  root,
  plugins: [raMuiCompat(), react()],
  build: {
    outDir: fileURLToPath(new URL('../dist/admin', import.meta.url)),
    emptyOutDir: true,
    chunkSizeWarningLimit: 1500,
  },
  server: {
    proxy: {
      '/api': api,
      '/uploads': api,
      '/files': api,
    },
  },
});
