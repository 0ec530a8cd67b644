// Owns batches: grouping print jobs onto sheets, imposition and the auto-batch rules.
export { copyLabel, itemLabel } from './impose';
export { batchesRoutes } from './routes';
export { batchesService } from './service';
export { newestBatchNumberOf, batchItemNumbers } from './queries';
