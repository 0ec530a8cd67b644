// Keys typed at the scan station before its input is there. A USB scanner is a keyboard that types
// the moment the page shows — often while the app still checks the session and loads the screen —
// and those first characters would go nowhere ("0" for PJ-100). From the first script on, keys
// typed on /scan with no field focused are kept here, and the station takes them when it is ready.

/** Keys are kept for the page whose address is this. */
const SCAN_PATH = '/scan';
/** Keys older than this are a person's stray typing, not a scan: dropped. */
const KEEP_MS = 30_000;

let buffer: Array<{ key: string; at: number }> = [];
/** The station is on screen and takes keys itself. */
let claimed = false;
let started = false;

/** A field that takes typing itself (the scan input, the tracking fields). */
export const isField = (el: Element | null): boolean => !!el && (el instanceof HTMLInputElement || el instanceof HTMLTextAreaElement || el instanceof HTMLSelectElement || (el as HTMLElement).isContentEditable);

/** A key a scanner types: one printable character, or Enter (the end of a code). */
export const isScanKey = (event: Pick<KeyboardEvent, 'key' | 'ctrlKey' | 'metaKey' | 'altKey'>): boolean =>
  !event.ctrlKey && !event.metaKey && !event.altKey && (event.key === 'Enter' || event.key.length === 1);

function onKey(event: KeyboardEvent): void {
  if (claimed || window.location.pathname !== SCAN_PATH || !isScanKey(event) || isField(document.activeElement)) return;
  buffer.push({ key: event.key, at: Date.now() });
}

/** Starts keeping keys (once, before the app renders). */
export function startEarlyKeys(): void {
  if (started) return;
  started = true;
  window.addEventListener('keydown', onKey, true);
}

/**
 * The station takes the keys kept so far and takes every later key itself until `release`:
 * what was typed, as text ("\n" for Enter).
 */
export function claimEarlyKeys(): { typed: string; release: () => void } {
  const now = Date.now();
  const typed = buffer
    .filter((k) => now - k.at < KEEP_MS)
    .map((k) => (k.key === 'Enter' ? '\n' : k.key))
    .join('');
  buffer = [];
  claimed = true;
  return {
    typed,
    release: () => {
      claimed = false;
    },
  };
}
