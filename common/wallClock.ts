// The wall clock of a time zone at an instant, with Intl only (no library): one owner for the
// ship-by arithmetic and the times the server writes into messages.

export interface WallClock {
  year: string;
  month: string;
  day: string;
  /** 00–23. */
  hour: string;
  minute: string;
}

// Making a formatter costs about ten times as much as using one, and every line of a list is
// several calls (Needs attention reads thousands): one formatter a zone, kept.
const formats = new Map<string, Intl.DateTimeFormat>();
function formatOf(timeZone: string): Intl.DateTimeFormat {
  let f = formats.get(timeZone);
  if (!f) {
    f = new Intl.DateTimeFormat('en-CA', { timeZone, year: 'numeric', month: '2-digit', day: '2-digit', hour: '2-digit', minute: '2-digit', hourCycle: 'h23' });
    formats.set(timeZone, f);
  }
  return f;
}

/** Two-digit parts (four for the year) of `at` on the wall clock of `timeZone`. */
export function wallClockOf(at: Date, timeZone: string): WallClock {
  const parts = Object.fromEntries(
    formatOf(timeZone)
      .formatToParts(at)
      .map((p) => [p.type, p.value]),
  );
  return { year: parts.year, month: parts.month, day: parts.day, hour: parts.hour, minute: parts.minute };
}
