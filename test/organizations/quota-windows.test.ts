import {
  monthWindowStart,
  nextMonthWindowStart,
  nextUtcMidnight,
  previousMonthWindowStart,
  previousUtcDay,
  secondsUntil,
  utcDay,
} from '../../shared/quota/quota-windows.js';

const at = (iso: string) => new Date(iso);
const day = (d: Date) => d.toISOString();

describe('quota windows', () => {
  it('names UTC days and finds the next midnight', () => {
    expect(utcDay(at('2030-03-10T23:59:59.999Z'))).toBe('2030-03-10');
    expect(day(nextUtcMidnight(at('2030-12-31T10:00:00Z')))).toBe('2031-01-01T00:00:00.000Z');
    expect(previousUtcDay(at('2030-03-01T00:00:00Z'))).toBe('2030-02-28');
  });

  it.each([
    [
      '2030-03-15T00:00:00.000Z',
      15,
      '2030-03-15T00:00:00.000Z',
      '2030-04-15T00:00:00.000Z',
      '2030-02-15T00:00:00.000Z',
    ],
    [
      '2030-03-14T23:59:59.999Z',
      15,
      '2030-02-15T00:00:00.000Z',
      '2030-03-15T00:00:00.000Z',
      '2030-01-15T00:00:00.000Z',
    ],
    [
      '2030-01-10T00:00:00.000Z',
      28,
      '2029-12-28T00:00:00.000Z',
      '2030-01-28T00:00:00.000Z',
      '2029-11-28T00:00:00.000Z',
    ],
    [
      '2030-02-28T00:00:00.000Z',
      28,
      '2030-02-28T00:00:00.000Z',
      '2030-03-28T00:00:00.000Z',
      '2030-01-28T00:00:00.000Z',
    ],
    ['2030-07-01T00:00:00.000Z', 1, '2030-07-01T00:00:00.000Z', '2030-08-01T00:00:00.000Z', '2030-06-01T00:00:00.000Z'],
  ])(
    'at %s with reset day %d the month window is [%s, %s), the one before began %s',
    (now, resetDay, start, next, previous) => {
      expect(day(monthWindowStart(at(now), resetDay))).toBe(start);
      expect(day(nextMonthWindowStart(at(now), resetDay))).toBe(next);
      expect(day(previousMonthWindowStart(at(now), resetDay))).toBe(previous);
    },
  );

  it('rounds Retry-After up to whole seconds, at least 1', () => {
    expect(secondsUntil(at('2030-01-01T00:00:00.200Z'), at('2030-01-01T00:00:02Z'))).toBe(2);
    expect(secondsUntil(at('2030-01-01T00:00:02Z'), at('2030-01-01T00:00:02Z'))).toBe(1);
  });
});
