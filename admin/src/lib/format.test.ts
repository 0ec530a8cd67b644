import { describe, expect, it } from 'vitest';
import { addDays, formatDay, formatTimeSince, parseDay } from './format';

describe('formatTimeSince', () => {
  const now = new Date('2025-06-10T12:00:00.000Z');
  const ago = (ms: number) => new Date(now.getTime() - ms).toISOString();
  const MIN = 60_000;
  const H = 60 * MIN;
  const D = 24 * H;

  it.each([
    [0, '0 min'],
    [59 * 1000, '0 min'],
    [42 * MIN, '42 min'],
    [H, '1 h'],
    [3 * H + 59 * MIN, '3 h'],
    [23 * H + 59 * MIN, '23 h'],
    [D, '1 d'],
    [2 * D + 4 * H + 30 * MIN, '2 d 4 h'],
    [40 * D + 1 * H, '40 d 1 h'],
  ])('%d ms ago reads "%s"', (elapsed, text) => {
    expect(formatTimeSince(ago(elapsed), now)).toBe(text);
  });

  it('never goes negative for a clock slightly ahead, and is empty without a date', () => {
    expect(formatTimeSince('2025-06-10T12:05:00.000Z', now)).toBe('0 min');
    expect(formatTimeSince(null, now)).toBe('');
    expect(formatTimeSince('not a date', now)).toBe('');
  });
});

describe('day helpers', () => {
  it('adds days across month and year ends', () => {
    expect(addDays('2025-01-31', 1)).toBe('2025-02-01');
    expect(addDays('2025-01-01', -1)).toBe('2024-12-31');
    expect(addDays('2024-03-01', -1)).toBe('2024-02-29');
  });

  it('shows a day as DD/MM/YYYY', () => {
    expect(formatDay('2025-06-09')).toBe('09/06/2025');
  });
});

describe('parseDay', () => {
  it('reads DD/MM/YYYY (and D/M/YYYY, dots or dashes) and a pasted YYYY-MM-DD', () => {
    expect(parseDay('09/06/2025')).toEqual({ day: '2025-06-09' });
    expect(parseDay(' 9/6/2025 ')).toEqual({ day: '2025-06-09' });
    expect(parseDay('09.06.2025')).toEqual({ day: '2025-06-09' });
    expect(parseDay('09-06-2025')).toEqual({ day: '2025-06-09' });
    expect(parseDay('2025-06-09')).toEqual({ day: '2025-06-09' });
    expect(parseDay('29/02/2024')).toEqual({ day: '2024-02-29' });
    expect(parseDay('')).toEqual({ day: '' });
  });

  it('says when a date does not exist or is not written as DD/MM/YYYY', () => {
    expect(parseDay('31/02/2026')).toEqual({ error: '31/02/2026 is not a date' });
    expect(parseDay('29/02/2025')).toEqual({ error: '29/02/2025 is not a date' });
    expect(parseDay('12/13/2025')).toEqual({ error: '12/13/2025 is not a date' });
    expect(parseDay('00/01/2025')).toEqual({ error: '00/01/2025 is not a date' });
    expect(parseDay('06/09/25')).toEqual({ error: 'Type the date as DD/MM/YYYY' });
    expect(parseDay('June 9')).toEqual({ error: 'Type the date as DD/MM/YYYY' });
  });
});
