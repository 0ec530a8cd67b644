// Order status from provider postbacks: out-of-order safe. Progress only moves forward;
// `shipped` is terminal (a late postback never moves an order back), and so is `cancelled`.

/** The progress statuses, lowest first. */
export const PROGRESS = ['received', 'sent', 'dataready', 'printready', 'printed', 'shipped'] as const;
/** Side statuses: set whenever they come (unless the order is terminal). */
export const SIDE = ['cancelled', 'error', 'onhold'] as const;
export const TERMINAL = new Set(['shipped', 'cancelled']);

export const progressRank = (s: string | null | undefined) => (s ? (PROGRESS as readonly string[]).indexOf(s) : -1);

/**
 * The order's next status when `incoming` arrives, or null for "no change".
 * `reached` is the highest progress status the order has ever had (an order on hold or in error
 * resumes only at or past it).
 */
export function nextOrderStatus(current: string | null | undefined, incoming: string, reached?: string | null): string | null {
  if (current && TERMINAL.has(current)) return null;
  if (incoming === current) return null;
  if ((SIDE as readonly string[]).includes(incoming)) return incoming;
  const rankIn = progressRank(incoming);
  if (rankIn < 0) return null;
  const rankCur = progressRank(current);
  if (rankCur >= 0) return rankIn > rankCur ? incoming : null;
  // current is a side status (error/onhold), unknown or empty.
  return rankIn >= progressRank(reached) ? incoming : null;
}

/** The highest progress status of two. */
export function highestProgress(a: string | null | undefined, b: string | null | undefined): string | null {
  const ra = progressRank(a);
  const rb = progressRank(b);
  if (ra < 0 && rb < 0) return null;
  return ra >= rb ? a! : b!;
}
