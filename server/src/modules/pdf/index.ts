// Owns print PDFs: artwork fetching, PDF building and checks, the PDF worker pool.
export { artworkBytesProblem, type ArtworkFetcher, type ArtworkFetcherOptions, createArtworkFetcher, storedUrlProblem } from './artwork';
export { fileUrl, isFileUrl, optionalFileUrl } from './fileUrl';
export { concatPdfs, pdfPageWriter, writeFileInChunks } from './concatPdf';
export { assertFourPages, buildPrintPdf, PRINT_FILE_NAME, stopPdfWorkers } from './printPdf';
export { pdfRoutes } from './routes';
