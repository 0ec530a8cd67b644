// Owns what is made where: an order's lines to designs, in-house jobs or the provider, holds and print files.
export { bulkPrintFiles, type BulkPrintFiles } from './bulkPdf';
export { ECARD_NOT_PRINTED, isEcardDesign, type LineMapping, mapLines, nothingToPrint, PRODUCT_TYPE, productDesignId, providerBlocker, providerBlockers } from './designForLine';
export { assertOperatorMaySend, type HeldOrder, ORDER_CANCELLED, ORDER_UNPAID, printHold } from './orderHold';
export { printSizeOfJob, productionService, type ProductionService, quantityOf } from './service';
export { autoSendOf, routeLine, sendsAutomatically } from './route';
