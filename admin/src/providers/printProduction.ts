// Records of print production (docs/print-production.md): print jobs, designs, reports.
export type Id = number | string;

/** A page of a product-API list (`data: {list, hasNext, total}`). */
export interface ListPage<T> {
  list: T[];
  hasNext: boolean;
  total: number;
}

export interface ProductionNote {
  id: Id;
  note: string;
}

export interface PrintJob {
  id: Id;
  productName: string | null;
  previewUrl: string | null;
  quantity: number;
  createdAt: string;
  updatedAt?: string;
  isPrinted: boolean;
  isPDFDownloaded: boolean;
  isRePrinted: boolean;
  readyForPrint: boolean;
  clientId: Id | null;
  artworkUrls: string[];
  productId?: string | null;
  designId?: Id | null;
  shopifyOrderId?: string | null;
  printedAt?: string | null;
  reprintCount?: number;
  productionNote?: ProductionNote | null;
  /** pregeneratedPDF, product size, and for personalised jobs needsReview / missingFields. */
  data?: Record<string, unknown> | null;
}

/** Only the flag changes of the print-job state rules; the server refuses any other (409). */
export type PrintJobChange =
  | { isPrinted: true }
  | { isPDFDownloaded: false; isPrinted: false }
  | { isPDFDownloaded: false; isPrinted: false; isRePrinted: true };

export const MARK_PRINTED: PrintJobChange = { isPrinted: true };
export const MARK_NOT_PRINTED: PrintJobChange = { isPDFDownloaded: false, isPrinted: false };
export const REPRINT: PrintJobChange = { isPDFDownloaded: false, isPrinted: false, isRePrinted: true };

export interface NewPrintJob {
  clientId: Id | null;
  artworkUrls: string[];
  previewUrl: string | null;
  productId: string | null;
  productName: string;
  designId: Id;
  quantity: number;
}

export interface PrintReports {
  printedPerDay: { day: string; jobs: number; quantity: number }[];
  perProduct: { productName: string | null; jobs: number; quantity: number }[];
  reprints: { printed: number; reprinted: number; rate: number };
  oldestUnprinted: PrintJob[];
}

export const PRODUCT_TYPES = ['Card', 'Mug', 'Poster'] as const;
export type ProductType = (typeof PRODUCT_TYPES)[number];

export interface DesignAttribute {
  name: string;
  value: string;
}

export interface DesignStockItem {
  code: string;
  name: string;
  quantity: number;
}

export interface Design {
  id: Id;
  name: string;
  image: string | null;
  sku: string | null;
  isCustomizable: boolean;
  productPdf: string | null;
  createdByUserId: Id | null;
  productId: string | null;
  productType: ProductType | null;
  hpSKU: string | null;
  hpAdditionData: { attributes?: DesignAttribute[]; stockItems?: DesignStockItem[] } | null;
  data: { artworkUrls?: string[]; importOriginalData?: unknown; [key: string]: unknown } | null;
  siteId?: Id | null;
  createdAt?: string;
  updatedAt?: string;
}

/** What `POST /api/designs` takes (spec §7). */
export interface DesignInput {
  id?: Id;
  name: string;
  isCustomizable: boolean;
  sku: string;
  productPdf: string;
  productType: ProductType | null;
  hpSKU: string;
  hpAdditionData: { attributes: DesignAttribute[]; stockItems: DesignStockItem[] };
}

export const NEW_DESIGN_NAME = 'Untitled design';

/** "Has data" (contract): Add to print jobs is offered only then. */
export function designHasData(design: Pick<Design, 'data' | 'productPdf'> | null | undefined): boolean {
  if (!design) return false;
  const artwork = design.data?.artworkUrls;
  return (Array.isArray(artwork) && artwork.length > 0) || Boolean(design.productPdf);
}

export interface AppConfig {
  editorUrl: string;
  sampleEditorUrl: string;
}
