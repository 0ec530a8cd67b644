// Print production (docs/print-production.md): print jobs, designs, reports.
import { PRODUCT_TYPES, type ProductType } from '../design-doc/types';
import type { Id, RecordId } from './envelope';
import type { PreflightState } from './preflight';
import type { StockUse } from './stock';
import type { Reprint, ReprintReason, ReprintResponsible, ReprintWhy } from './reprints';
import type { ShipByState } from './shipBy';

export interface ProductionNote {
  id: RecordId;
  note: string;
}

export interface PrintJobData {
  pregeneratedPDF?: string | null;
  product?: { physicalWidth?: number; physicalHeight?: number; [k: string]: unknown };
  storeProductId?: string | number;
  [k: string]: unknown;
}

/** Where an item is made: in house (the Jobs queue) or by the fulfilment provider (never in the queue). */
export type MadeBy = 'inHouse' | 'provider';

/** `shipBy` and `due` (common/api/shipBy.ts): on every job the API lists or shows (optional only for the server's own rows). */
export interface PrintJob extends PreflightState, Partial<ShipByState> {
  id: RecordId;
  productName: string;
  previewUrl: string | null;
  quantity: number;
  createdAt: string;
  updatedAt: string;
  readyForPrint: boolean;
  clientId: RecordId;
  artworkUrls: string[];
  productId: string | null;
  designId: RecordId | null;
  shopifyOrderId: string | null;
  lineItemId: string | null;
  /** pregeneratedPDF, product size, and for personalised jobs needsReview / missingFields. */
  data: PrintJobData;
  /** Where the item is made (docs/production.md). */
  madeBy: MadeBy;
  /** Out of the Jobs queue unprinted, and why (the order was cancelled, the line's units removed). */
  withdrawn: { at: string; reason: string } | null;
  productionNote: ProductionNote | null;
  /** The job's site's name (the client), for admins who see every site's jobs. */
  clientName: string | null;
  /** The product type of the job's design (Card, Mug, Poster); null without a design or a type. */
  productType: string | null;
  /** The store order's name (e.g. #1001); null for a job made from a design by hand. */
  orderName: string | null;
  /** When the store order was placed (its created_at); null without a store order: count from createdAt. */
  orderCreatedAt: string | null;
  /** The store order's status (e.g. shipped, cancelled); null without a store order. */
  orderStatus: string | null;
  isPrinted: boolean;
  isPDFDownloaded: boolean;
  isRePrinted: boolean;
  reprintCount: number;
  downloadedAt: string | null;
  downloadedByUserId: RecordId | null;
  printedAt: string | null;
  printedByUserId: RecordId | null;
  /** Who marked it printed, as their name was then (kept when the user is renamed or removed). */
  printedByName: string | null;
  /** Packed at the scan station (after it was printed); a reprint clears it. */
  packedAt: string | null;
  packedByUserId: RecordId | null;
  /** Who packed it, as their name was then. */
  packedByName: string | null;
  /** Why it was last sent back to the queue, and the print it replaced (null: never reprinted with a reason). */
  lastReprint: Reprint | null;
  /** Waiting for stock ("out of stock: Mugs (short by 3)"), then `held` too; tried again when stock is received. */
  stockHold: string | null;
}

/** The longest production note, in characters: the admin counts down to it, the server refuses beyond. */
export const PRODUCTION_NOTE_MAX = 2000;

/** The columns `GET /api/print-jobs` sorts by (`sort`), with `order` asc or desc. */
export const PRINT_JOB_SORTS = ['createdAt', 'orderCreatedAt', 'orderName', 'productName', 'productType', 'quantity', 'clientName', 'printedAt', 'printedByName'] as const;
export type PrintJobSort = (typeof PRINT_JOB_SORTS)[number];

/** details.code of the 409 "Already printed by <name> at <time>": the Jobs download of a job printed meanwhile. */
export const ALREADY_PRINTED_CODE = 'ALREADY_PRINTED';

/** Which download the PDF call is: the Jobs queue's (refused once the job is printed) or Print History's. */
export type PrintPdfFrom = 'jobs' | 'history';

/** Only the flag changes of the print-job state rules; the server refuses any other (409). */
export type PrintJobChange =
  | { isPrinted: true }
  | { isPDFDownloaded: false; isPrinted: false }
  | ({ isPDFDownloaded: false; isPrinted: false; isRePrinted: true } & ReprintWhy);

/** What `POST /api/print-jobs` takes to create a job. */
export interface NewPrintJob {
  clientId: Id | null;
  artworkUrls: string[];
  previewUrl: string | null;
  productId: string | null;
  productName: string;
  designId: Id;
  quantity: number;
}

/** How the reports group a range: by day up to ~3 months, by week up to 2 years, by month beyond. */
export type ReportBucket = 'day' | 'week' | 'month';

export interface PrintReports {
  from: string;
  to: string;
  clientId: RecordId | null;
  /** Only the days something was printed. */
  printedPerDay: { day: string; jobs: number; quantity: number }[];
  /** Every bucket of the range in order, empty ones included: its sums are `totals`. */
  bucket: ReportBucket;
  printedPerPeriod: { start: string; end: string; jobs: number; quantity: number }[];
  /** Jobs printed in the range and their items: the same as the sum of perProduct. */
  totals: { jobs: number; quantity: number };
  perProduct: { productName: string | null; jobs: number; quantity: number }[];
  /** rate = reprints / prints of the range; a product's rate is of that product's prints. */
  reprints: {
    printed: number;
    reprinted: number;
    rate: number;
    /** Every reason and every party, in the order of REPRINT_REASONS / REPRINT_RESPONSIBLES, zeros included. */
    byReason: { reason: ReprintReason; reprints: number; rate: number }[];
    byResponsible: { responsible: ReprintResponsible; reprints: number; rate: number }[];
    /** Products reprinted in the range, most reprints first. */
    byProduct: { productName: string; printed: number; reprints: number; rate: number }[];
  };
  /** Lines shipped in the range (Mark shipped, the provider's shipped postbacks). */
  shipping: {
    shippedLines: number;
    /** From order placed to shipped, in hours; null when nothing shipped. */
    averageOrderToShipHours: number | null;
    /** Shipped by their ship-by among shipped lines that have one; null until lines carry ship-by dates. */
    onTime: { onTime: number; counted: number; rate: number } | null;
  };
  oldestUnprinted: PrintJob[];
}

/** Owned by the design document (its formats name their product type). */
export { PRODUCT_TYPES, type ProductType };

export interface DesignAttribute {
  name: string;
  value: string;
}

export interface DesignStockItem {
  code: string;
  name: string;
  quantity: number;
}

export interface HpAdditionData {
  attributes: DesignAttribute[];
  stockItems: DesignStockItem[];
  /** The Site Flow product's own component code (e.g. `Card`); absent means `Content`. */
  componentCode?: string | null;
}

export interface DesignData {
  artworkUrls?: string[];
  importOriginalData?: unknown;
  /** The editor's design document. */
  document?: unknown;
  /** The stock one unit made takes (Setup → Stock): reserved when a job goes in house. */
  consumes?: StockUse[];
  /** The buyer's proof for lines of this design, over the site's PROOF_REQUIRED (absent or null: as the site says). */
  proof?: DesignProof | null;
  [k: string]: unknown;
}

/** A design's own say on buyer proofs: always one, or never one, whatever the site's PROOF_REQUIRED. */
export const DESIGN_PROOFS = ['required', 'off'] as const;
export type DesignProof = (typeof DESIGN_PROOFS)[number];

/** A design's `data.proof` as stored, read leniently: anything but a known value is "as the site says" (null). */
export const designProofOf = (data: { proof?: unknown } | null | undefined): DesignProof | null =>
  (DESIGN_PROOFS as readonly unknown[]).includes(data?.proof) ? (data!.proof as DesignProof) : null;

export interface Design {
  id: RecordId;
  name: string;
  image: string | null;
  sku: string | null;
  isCustomizable: boolean;
  productPdf: string | null;
  createdByUserId: RecordId | null;
  productId: string | null;
  productType: ProductType | null;
  /** The paper it prints on ("350 gsm silk"); a batch takes one stock. */
  stock: string | null;
  hpSKU: string | null;
  hpAdditionData: HpAdditionData;
  data: DesignData;
  siteId: RecordId;
  createdAt: string;
  updatedAt: string;
}

/** What `POST /api/designs` takes (spec §7). */
export interface DesignInput {
  id?: Id;
  name: string;
  isCustomizable: boolean;
  sku: string;
  productPdf: string;
  productType: ProductType | null;
  /** Optional (added after the spec's payload): '' clears it. */
  stock?: string;
  hpSKU: string;
  hpAdditionData: HpAdditionData;
  /** Merged into the design's data: `consumes`, the stock one unit takes; `proof`, its say on buyer proofs (null: the site's). */
  data?: { consumes?: StockUse[]; proof?: DesignProof | null };
}

/** SKU → product type of the known designs (spec §3, product type record). */
export interface ProductTypeOfSku {
  sku: string;
  productType: string | null;
}

/** GET /api/app-config: where the editor frames live. */
export interface AppConfig {
  editorUrl: string;
  sampleEditorUrl: string;
}
