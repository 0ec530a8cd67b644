// Worker thread entry: load the TypeScript worker through tsx (the server runs on tsx, no build step).
import { workerData } from 'node:worker_threads';
import { tsImport } from 'tsx/esm/api';

await tsImport(workerData.entry, import.meta.url);
