// The scan station (POST /api/scan): what a scan of an item's barcode answers, on both sides.
import type { RecordId } from './envelope';
import type { PrintJob } from './printProduction';

/** Where an item of an order is, as the packing bench says it. */
export const SCAN_ITEM_STATES = ['waiting', 'held', 'printed', 'packed', 'with HP Site Flow', 'e-mailed', 'withdrawn'] as const;
export type ScanItemState = (typeof SCAN_ITEM_STATES)[number];

/** One line of the scanned job's order. */
export interface ScanItem {
  lineId: string | null;
  jobId: RecordId | null;
  productName: string;
  quantity: number;
  /** Copies of it packed at the bench so far (its quantity once it is packed). */
  packedCopies: number;
  state: ScanItemState;
  /** Its place among the order's items made here ("2 of 3"); null for items made elsewhere. */
  itemNumber: number | null;
  previewUrl: string | null;
}

export interface ScanOrder {
  /** The store order id. */
  id: string;
  siteId: RecordId;
  /** The store's name of the order, e.g. #1024. */
  name: string;
  /** Every line of the order has left (Mark shipped, or the provider's shipped postback). */
  shipped: boolean;
  items: ScanItem[];
}

/** The scanned job, with its place in its order and its press batch. */
export interface ScannedJob extends PrintJob {
  state: ScanItemState;
  itemNumber: number | null;
  itemCount: number | null;
  /** As its slug on the sheet reads: "#1024 · 2 of 3" ("Job 17" without a store order). */
  label: string;
  /** The number of the newest batch it was imposed in; null when never batched. */
  batchNumber: number | null;
  /** The copy the code named (`PJ-17-2` → 2; a job of one copy: 1); null when the code named a job of several copies. */
  copy: number | null;
  /** Copies packed at the bench so far, of `quantity`. */
  packedCopies: number;
}

/** What a scan moved the item to. */
export type ScanAdvance = 'printed' | 'packed';

export interface ScanResult {
  job: ScannedJob;
  /** Null for a job made by hand (no store order). */
  order: ScanOrder | null;
  advancedTo: ScanAdvance;
  /** Every item of the order made here is packed (items HP makes and e-cards do not count). */
  orderComplete: boolean;
}

/** `details` of a refused scan: the job and its order when the barcode named one we could show. */
export interface ScanRefusalDetails {
  code?: string;
  job?: ScannedJob;
  order?: ScanOrder | null;
  orderComplete?: boolean;
}

/** details.code of the 409 of a scanner's double read. */
export const SCANNED_TWICE_CODE = 'SCANNED_TWICE';


// ---------------------------------------------------------------------------------------------
// The barcodes of the press sheets (Code 128 on each slug and on a batch's cover)

export const JOB_CODE_PREFIX = 'PJ-';
export const BATCH_CODE_PREFIX = 'PB-';

/** A job's own code: `PJ-17`. A job of one copy may be scanned by it. */
export const jobCode = (jobId: number): string => `${JOB_CODE_PREFIX}${jobId}`;
/** One copy's code, on each of its slugs: `PJ-17-2` (copy 2 of the job's quantity). */
export const copyCode = (jobId: number, copy: number): string => `${jobCode(jobId)}-${copy}`;
/** A batch cover's code: `PB-12`. */
export const batchCode = (number: number): string => `${BATCH_CODE_PREFIX}${number}`;

/** A code read back: a job (copy null when the code names the job, not a copy) or a batch. */
export type SlugCode = { kind: 'job'; jobId: number; copy: number | null } | { kind: 'batch'; number: number };

const SLUG_CODE = /^(?:(PJ)-(\d{1,12})(?:-(\d{1,6}))?|(PB)-(\d{1,12}))$/i;

/**
 * What a slug code names, as a scanner or a person types it: `PJ-<job id>-<copy>`, `PJ-<job id>` or
 * `PB-<batch number>`, in any case, with whitespace around it (a scanner's Enter or Tab) and
 * nothing else; null for anything else. The one reader of these codes: the scan station and the
 * header search both ask it.
 */
export function parseSlugCode(text: string): SlugCode | null {
  const m = SLUG_CODE.exec(text.trim());
  if (!m) return null;
  if (m[4]) return { kind: 'batch', number: Number(m[5]) };
  return { kind: 'job', jobId: Number(m[2]), copy: m[3] === undefined ? null : Number(m[3]) };
}
