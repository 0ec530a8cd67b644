// Owns print jobs: their states, approval, preflight, bulk actions and reports.
export { printJobsResource } from './adminResource';
export { bulkPrintJobActions, uniqueIds } from './bulk';
export { bulkPrintJobRoutes } from './bulkRoutes';
export { printJobPdfRoutes } from './pdfRoute';
export { createPreflight, firstError } from './preflight';
export { formatOfDesign, formatOfJob } from './format';
export { thresholdsOf } from './preflightSettings';
export { type MadeBy, type PrintJob, type PrintJobsRepo } from './repo';
export { printJobsRoutes } from './routes';
export { queryFlag } from './schema';
export { defaultSort, heldRefusal, JOB_NOT_FOUND, nameOf, OrderLineTaken, printJobsService, type PrintJobsService, readyQueue } from './service';
export { atProviderRefusal, noSuchCopyRefusal, withdrawnRefusal } from './state';
export { findPrintJob, countUnprintedJobsOfDesign, owedPrintJobs, heldPrintJobs, printJobsOfOrder, printJobLinesOfOrders, printJobIds, setPrintJobLabel } from './queries';
