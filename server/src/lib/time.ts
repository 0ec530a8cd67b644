// Calendar arithmetic of the scheduled jobs: "the day before" in the sync time zone, the next and
// the most recent run time of a job that runs daily at an hour (node-schedule's own rule, so the
// times shown are the times it fires).
import schedule from 'node-schedule';

// Building an Intl.DateTimeFormat costs a fraction of a millisecond (using one, microseconds): kept
// per time zone. Only zones that built a formatter are kept (an unknown one throws first).
const dayFormats = new Map<string, Intl.DateTimeFormat>();
const clockFormats = new Map<string, Intl.DateTimeFormat>();
const kept = (formats: Map<string, Intl.DateTimeFormat>, timeZone: string, make: () => Intl.DateTimeFormat) => {
  let f = formats.get(timeZone);
  if (!f) formats.set(timeZone, (f = make()));
  return f;
};

/** YYYY-MM-DD of an instant in a time zone. */
export function dayIn(at: Date, timeZone: string): string {
  const parts = kept(dayFormats, timeZone, () => new Intl.DateTimeFormat('en-CA', { timeZone, year: 'numeric', month: '2-digit', day: '2-digit' })).formatToParts(at);
  const get = (t: string) => parts.find((p) => p.type === t)?.value ?? '';
  return `${get('year')}-${get('month')}-${get('day')}`;
}

/** HH:MM (24 h) of an instant in a time zone. */
export function clockTimeIn(at: Date, timeZone: string): string {
  const parts = kept(clockFormats, timeZone, () => new Intl.DateTimeFormat('en-GB', { timeZone, hour: '2-digit', minute: '2-digit', hourCycle: 'h23' })).formatToParts(at);
  const get = (t: string) => parts.find((p) => p.type === t)?.value ?? '';
  return `${get('hour')}:${get('minute')}`;
}

/** A calendar day plus n days (pure date arithmetic, no time zone). */
export function addDays(day: string, n: number): string {
  const d = new Date(`${day}T00:00:00Z`);
  d.setUTCDate(d.getUTCDate() + n);
  return d.toISOString().slice(0, 10);
}

export const isDay = (s: string) => /^\d{4}-\d{2}-\d{2}$/.test(s) && !Number.isNaN(Date.parse(`${s}T00:00:00Z`)) && new Date(`${s}T00:00:00Z`).toISOString().slice(0, 10) === s;

/** A config's targetDate ('yesterday' — the default —, 'today' or a fixed YYYY-MM-DD) → the day. */
export function resolveTargetDate(targetDate: string | undefined, now: Date, timeZone: string): string {
  const today = dayIn(now, timeZone);
  if (!targetDate || targetDate === 'yesterday') return addDays(today, -1);
  if (targetDate === 'today') return today;
  if (isDay(targetDate)) return targetDate;
  return addDays(today, -1);
}

export function dailyRule(hour: number, timeZone: string, minute = 0): schedule.RecurrenceRule {
  const rule = new schedule.RecurrenceRule();
  rule.hour = hour;
  rule.minute = minute;
  rule.second = 0;
  rule.tz = timeZone;
  return rule;
}

/** The first run time strictly after `after`. */
export function nextRunAt(hour: number, timeZone: string, after: Date, minute = 0): Date {
  return new Date(dailyRule(hour, timeZone, minute).nextInvocationDate(after).getTime());
}

/** The most recent run time at or before `at` (a daily job: look back two days and walk forward). */
export function lastRunSlot(hour: number, timeZone: string, at: Date, minute = 0): Date {
  const rule = dailyRule(hour, timeZone, minute);
  let slot = new Date(rule.nextInvocationDate(new Date(at.getTime() - 49 * 3600_000)).getTime());
  for (;;) {
    const next = new Date(rule.nextInvocationDate(slot).getTime());
    if (next.getTime() > at.getTime()) return slot;
    slot = next;
  }
}

/** Bounds (as ISO instants) that surely cover a calendar day in any time zone: ±14 hours. */
export function dayWindow(day: string): { from: string; to: string } {
  const start = Date.parse(`${day}T00:00:00Z`);
  return { from: new Date(start - 14 * 3600_000).toISOString(), to: new Date(start + 38 * 3600_000).toISOString() };
}

/** SYNC_SCHEDULE_EVERY_SECONDS (tests only): a rule firing every n seconds of every minute (n divides 60). */
export function everyRule(seconds: number): schedule.RecurrenceRule {
  const rule = new schedule.RecurrenceRule();
  rule.second = new schedule.Range(0, 59, seconds);
  return rule;
}

/** A job's firing rule: daily at its hour, or every `everySeconds` when that test setting is on. */
export function jobRule(hour: number, timeZone: string, everySeconds = 0): schedule.RecurrenceRule {
  return everySeconds > 0 ? everyRule(everySeconds) : dailyRule(hour, timeZone);
}

/** The job's most recent run time at or before `at` (its hour, or the every-N-seconds slot). */
export function jobLastSlot(hour: number, timeZone: string, at: Date, everySeconds = 0): Date {
  if (everySeconds > 0) return new Date(Math.floor(at.getTime() / (everySeconds * 1000)) * everySeconds * 1000);
  return lastRunSlot(hour, timeZone, at);
}

/** The job's first run time strictly after `after`. */
export function jobNextRun(hour: number, timeZone: string, after: Date, everySeconds = 0): Date {
  if (everySeconds > 0) return new Date((Math.floor(after.getTime() / (everySeconds * 1000)) + 1) * everySeconds * 1000);
  return nextRunAt(hour, timeZone, after);
}
