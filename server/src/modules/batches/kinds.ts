// What a print job prints as, for batching: jobs of one kind (product type, size with bleed, paper
// stock) share a press sheet, and each takes slots on it.
import type { PrintJob } from '../print-jobs/repo';
import { leavesOf, type LeafSize } from './sheets';

/** What a job prints as: its product type, its size with bleed, and its paper stock. Jobs of one kind share a sheet. */
export interface JobKind {
  productType: string;
  leaf: LeafSize;
  stock: string | null;
}

/** Stocks compare without case or extra spaces: "350 gsm Silk" is "350 gsm silk". */
const stockKey = (stock: string | null) => (stock ?? '').trim().replace(/\s+/g, ' ').toLowerCase();
export const sameStock = (a: string | null, b: string | null) => stockKey(a) === stockKey(b);

export const stockName = (stock: string | null) => (stock?.trim() ? stock.trim() : 'no stock set');

/**
 * Slots a job takes on the sheets: each copy's leaves (a card is 4 pages, so 2 leaves: its outside
 * and its inside; other items a leaf per two artwork pages, at least one).
 */
export function slotsOf(job: Pick<PrintJob, 'quantity' | 'artworkUrls'>, kind: Pick<JobKind, 'productType'>): number {
  const pages = kind.productType === 'Card' ? 4 : Math.max(1, job.artworkUrls.length);
  return leavesOf(pages).length * Math.max(1, job.quantity);
}

/** The automatic batching's group of a kind: one filling batch per group. */
export const groupKeyOf = (k: JobKind) => `${k.productType}|${k.leaf.trimWidthMm}x${k.leaf.trimHeightMm}|${k.leaf.bleedMm}|${stockKey(k.stock)}`;
