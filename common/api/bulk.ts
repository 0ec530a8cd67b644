// Bulk actions on Jobs and Print History: the calls both the server and the admin speak.

/** What `POST /api/print-jobs/bulk` does to each job, through the same rules as one job's button. */
export const BULK_ACTIONS = ['markPrinted', 'reprint', 'delete'] as const;
export type BulkAction = (typeof BULK_ACTIONS)[number];

/** The most jobs one bulk call takes: a few hundred is a busy day; more is split by the caller. */
export const BULK_LIMIT = 500;

/** One job the action was refused for, with the same sentence its own button would have shown. */
export interface BulkRefusal {
  id: number;
  error: string;
}

export interface BulkResult {
  done: number[];
  refused: BulkRefusal[];
}

/** The file name of the merged print files (`POST /api/print-jobs/bulk-pdf`). */
export const BULK_PDF_FILE_NAME = 'print-files.pdf';
