// Owns uploaded files: storage, signed URLs and content sniffing.
export { fileRoutes, uploadGrantRoutes } from './routes';
export { uploadsService } from './service';
export { buildKey } from './signing';
export { NO_SITE, siteFolder, printFileKey, syncDropPrefix, perSiteKeyOf } from './keys';
export { looksLikeMarkup, pdfProblem } from './sniff';
export { diskStore, probeStore, storeProblem, StoreUnavailable, type FileStore } from './storage';
export { s3Store } from './s3Store';
export { migrateFiles, type MigrationSummary } from './migrate';
export { uploadExists, uploadSiteOf, registerUpload, insertUpload, removeUpload } from './queries';
