// Owns print PDFs: artwork fetching, PDF building and checks, the PDF worker pool, and the printers'
// colour profiles a site's print files carry as their output intent.
export { artworkBytesProblem, type ArtworkFetcher, type ArtworkFetcherOptions, createArtworkFetcher, storedUrlProblem } from './artwork';
export { fileUrl, isFileUrl, optionalFileUrl } from './fileUrl';
export { concatPdfs, pdfPageWriter, type PdfxOutput, writeFileInChunks } from './concatPdf';
export { assertFourPages, assertPagesOf, buildPrintPdf, colourSetupOf, printFileId, PRINT_FILE_NAME, sheetFontBytes, stopPdfWorkers } from './printPdf';
export { pdfRoutes } from './routes';
export { checkOutputProfile, type OutputIntent } from './outputProfile';
export { printProfilesService, type PrintProfilesService } from './printProfiles';
export { printProfileRoutes } from './printProfileRoutes';
