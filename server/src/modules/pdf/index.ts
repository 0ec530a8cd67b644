// Owns print PDFs: artwork fetching, PDF building and checks, the PDF worker pool.
export { artworkBytesProblem, type ArtworkFetcher, type ArtworkFetcherOptions, createArtworkFetcher, storedUrlProblem } from './artwork';
export { fileUrl, isFileUrl, optionalFileUrl } from './fileUrl';
export { concatPdfs, pdfPageWriter, type PdfxOutput, writeFileInChunks } from './concatPdf';
export { assertFourPages, assertPagesOf, buildPrintPdf, outputIntentFor, printFileId, PRINT_FILE_NAME, sheetFontBytes, stopPdfWorkers } from './printPdf';
export { pdfRoutes } from './routes';
