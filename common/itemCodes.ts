// The codes printed on the floor's paper, read back wherever an operator types or scans one: an
// item's slug `PJ-<job>` (a job of one copy) or `PJ-<job>-<copy>` (each copy of a job of several),
// and a batch cover's `PB-<batch number>`. One reader for the header search and the scan station.

/** The largest row id a code may name (a 32-bit integer column). */
const MAX_ID = 2_147_483_647;

export type ItemCode = { kind: 'job'; jobId: number; copy: number | null } | { kind: 'batch'; number: number };

const CODE = /^(PJ|PB)-(\d{1,10})(?:-(\d{1,6}))?$/i;

/**
 * The code in `text` (any case, spaces around it ignored), or null when it is not one: `PJ-12`,
 * `pj-12-3`, `PB-4`. A batch code has no copy; ids and copies start at 1.
 */
export function readItemCode(text: string): ItemCode | null {
  const m = CODE.exec(text.trim());
  if (!m) return null;
  const n = Number(m[2]);
  if (n < 1 || n > MAX_ID) return null;
  if (m[1].toUpperCase() === 'PB') return m[3] === undefined ? { kind: 'batch', number: n } : null;
  const copy = m[3] === undefined ? null : Number(m[3]);
  if (copy !== null && copy < 1) return null;
  return { kind: 'job', jobId: n, copy };
}
