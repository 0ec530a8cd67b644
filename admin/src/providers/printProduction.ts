import type { Design, PrintJobChange } from '../../../common/api/printProduction';
// Print production rules the admin applies (docs/print-production.md); the records are in common/api.

export const MARK_PRINTED: PrintJobChange = { isPrinted: true };
export const MARK_NOT_PRINTED: PrintJobChange = { isPDFDownloaded: false, isPrinted: false };
export const REPRINT: PrintJobChange = { isPDFDownloaded: false, isPrinted: false, isRePrinted: true };

export const NEW_DESIGN_NAME = 'Untitled design';

/** "Has data" (contract): Add to print jobs is offered only then. */
export function designHasData(design: Pick<Design, 'data' | 'productPdf'> | null | undefined): boolean {
  if (!design) return false;
  const artwork = design.data?.artworkUrls;
  return (Array.isArray(artwork) && artwork.length > 0) || Boolean(design.productPdf);
}
