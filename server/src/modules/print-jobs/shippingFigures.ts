// The reports' shipping figures: average order-to-ship time and the on-time rate, as pure
// functions of the lines shipped in the period (store write-backs: Mark shipped, the provider's
// shipped postbacks).

/** A shipped line; `shipBy` is its ship-by date once ship-by dates exist (absent or null: none). */
export interface ReportLine {
  shippedAt: string;
  orderCreatedAt: string | null;
  shipBy?: string | null;
}

const HOUR_MS = 60 * 60 * 1000;

/** Hours from order placed to shipped, averaged over the lines that know both (1 decimal); null when none. */
export function averageOrderToShipHours(lines: readonly ReportLine[]): number | null {
  const spans = lines.filter((l) => l.orderCreatedAt).map((l) => Date.parse(l.shippedAt) - Date.parse(l.orderCreatedAt!)).filter((ms) => Number.isFinite(ms) && ms >= 0);
  if (!spans.length) return null;
  return Math.round((spans.reduce((a, b) => a + b, 0) / spans.length / HOUR_MS) * 10) / 10;
}

/**
 * Shipped by their ship-by among the shipped lines that have one. null while no line carries a
 * ship-by (the screen says when it appears), so "no data" is never shown as 0 %.
 */
export function onTimeRate(lines: readonly ReportLine[]): { onTime: number; counted: number; rate: number } | null {
  const dated = lines.filter((l) => l.shipBy);
  if (!dated.length) return null;
  const onTime = dated.filter((l) => Date.parse(l.shippedAt) <= Date.parse(l.shipBy!)).length;
  return { onTime, counted: dated.length, rate: Math.round((onTime / dated.length) * 10_000) / 10_000 };
}
