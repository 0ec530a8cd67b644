// How many units of a store line to make: the one rule every printing path follows (print jobs,
// the provider's order, PDFs, automatic sending). Shopify's current_quantity is what is still
// ordered after edits, removals and refunds; quantity is what was first ordered.

/** The quantity fields of a line, as stored (numbers) or imported (text). */
export interface LineUnits {
  quantity?: number | string | null;
  current_quantity?: number | string | null;
}

const count = (v: unknown): number | undefined => {
  if (v === null || v === undefined || v === '') return undefined;
  const n = Math.floor(Number(v));
  return Number.isFinite(n) ? n : undefined;
};

/**
 * Units to make: current_quantity when the store gave it (0: nothing left to print), else
 * quantity; a line saying neither is one unit (orders imported from the old system).
 */
export function unitsToMake(line: LineUnits): number {
  const current = count(line.current_quantity);
  if (current !== undefined) return Math.max(0, current);
  const ordered = count(line.quantity);
  return ordered !== undefined && ordered > 0 ? ordered : 1;
}

/** A line all of whose units were removed or refunded: it is not printed, sent or drawn into a PDF. */
export const NOTHING_LEFT = 'No units left to print: the line was removed or refunded in the store';
