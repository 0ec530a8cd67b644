// What a print job prints as, for batching: jobs of one kind (format, size with bleed, paper
// stock) share a press sheet, and each takes slots on it.
import { pagesOfFormat, type PrintFormat } from '../../../../common/design-doc/printSize';
import type { PrintJob } from '../print-jobs';
import { leavesOf, type LeafSize } from './sheets';

/** What a job prints as: its format and product type, its size with bleed, and its paper stock. Jobs of one kind share a sheet. */
export interface JobKind {
  format: PrintFormat;
  productType: string;
  leaf: LeafSize;
  stock: string | null;
}

/** Stocks compare without case or extra spaces: "350 gsm Silk" is "350 gsm silk". */
export const stockKey = (stock: string | null) => (stock ?? '').trim().replace(/\s+/g, ' ').toLowerCase();
export const sameStock = (a: string | null, b: string | null) => stockKey(a) === stockKey(b);

export const stockName = (stock: string | null) => (stock?.trim() ? stock.trim() : 'no stock set');

/** Pages of one copy of a job as the sheets take them: its format's (a card's 4, a mug's or a poster's one). */
export const pagesPerCopy = (_job: Pick<PrintJob, 'artworkUrls'>, kind: Pick<JobKind, 'format'>): number => pagesOfFormat(kind.format);

/** Leaves of one copy of a job: a card's 4 pages are 2 leaves (its outside and its inside); other items a leaf per two pages. */
export const leavesPerCopy = (job: Pick<PrintJob, 'artworkUrls'>, kind: Pick<JobKind, 'format'>): number => leavesOf(pagesPerCopy(job, kind)).length;

/** Slots a job takes on the sheets: each copy's leaves. */
export function slotsOf(job: Pick<PrintJob, 'quantity' | 'artworkUrls'>, kind: Pick<JobKind, 'format'>): number {
  return leavesPerCopy(job, kind) * Math.max(1, job.quantity);
}

/** The automatic batching's group of a kind: one filling batch per group. */
export const groupKeyOf = (k: JobKind) => `${k.format}|${k.leaf.trimWidthMm}x${k.leaf.trimHeightMm}|${k.leaf.bleedMm}|${stockKey(k.stock)}`;
