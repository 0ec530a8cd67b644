// Owns what is made where: an order's lines to designs, in-house jobs or the provider, holds and print files.
export { bulkPrintFiles, type BulkPrintFiles } from './bulkPdf';
export { ECARD_NOT_PRINTED, isEcardDesign, type LineMapping, mapLines, nothingToPrint, PRODUCT_TYPE, productDesignId, providerBlocker, providerBlockers } from './designForLine';
export { LINE_WAITING, printSizeOfJob, productionService, type ProductionService, quantityOf } from './service';
export { routeLine } from './route';
