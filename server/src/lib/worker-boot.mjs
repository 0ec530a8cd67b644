// Worker thread entry when the server runs from its TypeScript sources (tsx, vitest): load the
// worker's .ts through tsx. The built server starts its workers' .js directly (see runtime.ts).
import { workerData } from 'node:worker_threads';
import { tsImport } from 'tsx/esm/api';

await tsImport(workerData.entry, import.meta.url);
