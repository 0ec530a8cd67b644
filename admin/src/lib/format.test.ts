import { describe, expect, it } from 'vitest';
import { addDays, formatDay, formatTimeSince } from './format';

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
