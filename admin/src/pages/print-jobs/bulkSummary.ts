// The sentence after a bulk action: how many were done, and the refusals grouped by their reason
// ("197 marked printed; 3 refused: 2 already printed by Sam Staff, 1 held by preflight").
import type { BulkAction, BulkResult } from '../../../../common/api/bulk';

export const BULK_DONE: Record<BulkAction, string> = {
  markPrinted: 'marked printed',
  reprint: 'back in the Jobs queue to reprint',
  delete: 'deleted',
};

/** A refusal's reason in a few words: who printed or packed it (not when), or the server's sentence up to its first colon. */
export function reasonOf(error: string): string {
  const printed = /^Already printed by (.+?)(?: at \d.*)?$/.exec(error);
  if (printed) return `already printed by ${printed[1]}`;
  const packed = /^This job was already packed by (.+?)(?: at \d.*)?$/.exec(error);
  if (packed) return `already packed by ${packed[1]}`;
  if (/^Held by preflight\b/.test(error)) return 'held by preflight';
  if (/^Download the PDF before\b/.test(error)) return 'not downloaded yet';
  const first = error.replace(/ \(job #\d+\)/, '').split(/[:.;]/)[0].trim();
  return first.charAt(0).toLowerCase() + first.slice(1);
}

/** What a batch's Mark packed did to its jobs reads like a bulk action's answer too. */
const DONE_WORDS: Record<BulkAction | 'markPacked', string> = { ...BULK_DONE, markPacked: 'marked packed' };

export function bulkSummary(action: BulkAction | 'markPacked', result: BulkResult): string {
  const done = `${result.done.length} ${DONE_WORDS[action]}`;
  if (!result.refused.length) return done;
  const counts = new Map<string, number>();
  for (const r of result.refused) counts.set(reasonOf(r.error), (counts.get(reasonOf(r.error)) ?? 0) + 1);
  const reasons = [...counts].sort((a, b) => b[1] - a[1]).map(([reason, n]) => `${n} ${reason}`);
  return `${done}; ${result.refused.length} refused: ${reasons.join(', ')}`;
}
