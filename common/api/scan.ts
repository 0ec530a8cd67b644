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

