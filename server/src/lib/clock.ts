// Time is injected so tests can move it.
export interface Clock {
  now(): Date;
}

export const systemClock: Clock = { now: () => new Date() };

export const isoNow = (clock: Clock) => clock.now().toISOString();

// A formatter costs about ten times as much to make as to use, and a list's messages are many: one a zone, kept.
const dateTimeFormats = new Map<string, Intl.DateTimeFormat>();
function dateTimeFormatOf(timeZone: string): Intl.DateTimeFormat {
  let f = dateTimeFormats.get(timeZone);
  if (!f) {
    f = new Intl.DateTimeFormat('en-GB', { timeZone, year: 'numeric', month: '2-digit', day: '2-digit', hour: '2-digit', minute: '2-digit', hourCycle: 'h23' });
    dateTimeFormats.set(timeZone, f);
  }
  return f;
}

/** DD/MM/YYYY HH:mm in `timeZone`, as the admin shows times (for messages the server writes). */
export function formatDateTime(iso: string, timeZone: string): string {
  const at = new Date(iso);
  if (Number.isNaN(at.getTime())) return iso;
  const parts = Object.fromEntries(
    dateTimeFormatOf(timeZone)
      .formatToParts(at)
      .map((p) => [p.type, p.value]),
  );
  return `${parts.day}/${parts.month}/${parts.year} ${parts.hour}:${parts.minute}`;
}

/** Seconds from the ISO time `since` to `nowMs` (0 for a time not yet passed or unreadable). */
export function ageSeconds(nowMs: number, since: string): number {
  const t = Date.parse(since);
  return Number.isNaN(t) ? 0 : Math.max(0, (nowMs - t) / 1000);
}
