import { describe, expect, it } from 'vitest';
import { wallClockOf } from './wallClock';

describe('wallClockOf', () => {
  it('answers each zone its own wall clock for one instant (a formatter kept per zone, not shared)', () => {
    const at = new Date('2026-07-01T23:30:00Z');
    expect(wallClockOf(at, 'Europe/London')).toEqual({ year: '2026', month: '07', day: '02', hour: '00', minute: '30' });
    expect(wallClockOf(at, 'UTC')).toEqual({ year: '2026', month: '07', day: '01', hour: '23', minute: '30' });
    expect(wallClockOf(at, 'America/New_York')).toEqual({ year: '2026', month: '07', day: '01', hour: '19', minute: '30' });
    // Asked again after the others: still London's.
    expect(wallClockOf(at, 'Europe/London').hour).toBe('00');
  });

  it('follows summer time (the hour that does not exist is skipped)', () => {
    expect(wallClockOf(new Date('2026-03-29T00:59:00Z'), 'Europe/London')).toMatchObject({ hour: '00', minute: '59' });
    expect(wallClockOf(new Date('2026-03-29T01:00:00Z'), 'Europe/London')).toMatchObject({ hour: '02', minute: '00' });
  });
});
