import { wallClockOf } from '../../../common/wallClock';

// Time is injected so tests can move it.
export interface Clock {
  now(): Date;
}

export const systemClock: Clock = { now: () => new Date() };

export const isoNow = (clock: Clock) => clock.now().toISOString();

/** DD/MM/YYYY HH:mm in `timeZone`, as the admin shows times (for messages the server writes). */
export function formatDateTime(iso: string, timeZone: string): string {
  const at = new Date(iso);
  if (Number.isNaN(at.getTime())) return iso;
  const parts = wallClockOf(at, timeZone);
  return `${parts.day}/${parts.month}/${parts.year} ${parts.hour}:${parts.minute}`;
}

/** Seconds from the ISO time `since` to `nowMs` (0 for a time not yet passed or unreadable). */
export function ageSeconds(nowMs: number, since: string): number {
  const t = Date.parse(since);
  return Number.isNaN(t) ? 0 : Math.max(0, (nowMs - t) / 1000);
}
