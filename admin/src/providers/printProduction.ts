import type { PreflightFinding } from '../../../common/api/preflight';
import type { Design, PrintJob, PrintJobChange } from '../../../common/api/printProduction';
// Print production rules the admin applies (docs/print-production.md); the records are in common/api.

export const MARK_PRINTED: PrintJobChange = { isPrinted: true };
export const MARK_NOT_PRINTED: PrintJobChange = { isPDFDownloaded: false, isPrinted: false };
/** Reprint's flags; the call adds why (ReprintWhy) before it is sent. */
export const REPRINT = { isPDFDownloaded: false, isPrinted: false, isRePrinted: true } as const;

export const NEW_DESIGN_NAME = 'Untitled design';

/** "Has data" (contract): Add to print jobs is offered only then. */
export function designHasData(design: Pick<Design, 'data' | 'productPdf'> | null | undefined): boolean {
  if (!design) return false;
  const artwork = design.data?.artworkUrls;
  return (Array.isArray(artwork) && artwork.length > 0) || Boolean(design.productPdf);
}

/** The finding whose page the Held list shows: the first error on a page, else the first error. */
export function markedFindingOf(findings: readonly PreflightFinding[]): PreflightFinding | undefined {
  const errors = findings.filter((f) => f.severity === 'error');
  return errors.find((f) => f.page !== null) ?? errors[0];
}

/** The picture of a finding's page: that artwork page, else the job's preview (a whole-file finding, or no artwork). */
export function pageImageOf(job: Pick<PrintJob, 'artworkUrls' | 'previewUrl'>, page: number | null | undefined): string | null {
  const artwork = page ? job.artworkUrls?.[page - 1] : undefined;
  return artwork || job.previewUrl || null;
}
