// Owns uploaded files: storage, signed URLs and content sniffing.
export { fileRoutes, uploadGrantRoutes } from './routes';
export { uploadsService } from './service';
export { buildKey } from './signing';
export { looksLikeMarkup, pdfProblem } from './sniff';
export { diskStore, type FileStore } from './storage';
export { uploadExists, registerUpload, insertUpload, removeUpload } from './queries';
