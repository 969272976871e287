// UTC calendar arithmetic of the quota windows: days start at 00:00 UTC, a project's month starts at 00:00 UTC
// on its reset day (1..28), and the per-minute window is the calendar minute.
export type Clock = () => Date;
export const systemClock: Clock = () => new Date();

const dayMs = 86_400_000;
const pad = (n: number, width = 2) => String(n).padStart(width, '0');

/** `YYYY-MM-DD` of the UTC day holding `at`. */
export const utcDay = (at: Date) =>
  `${pad(at.getUTCFullYear(), 4)}-${pad(at.getUTCMonth() + 1)}-${pad(at.getUTCDate())}`;

export const startOfUtcDay = (at: Date) => new Date(Date.UTC(at.getUTCFullYear(), at.getUTCMonth(), at.getUTCDate()));
export const nextUtcMidnight = (at: Date) => new Date(startOfUtcDay(at).getTime() + dayMs);
export const previousUtcDay = (at: Date) => utcDay(new Date(startOfUtcDay(at).getTime() - dayMs));
export const epochMinute = (at: Date) => Math.floor(at.getTime() / 60_000);

/** The instant the month window holding `at` began: 00:00 UTC on `resetDay` of this or the previous month. */
export function monthWindowStart(at: Date, resetDay: number): Date {
  const y = at.getUTCFullYear();
  const m = at.getUTCMonth();
  return at.getUTCDate() >= resetDay ? new Date(Date.UTC(y, m, resetDay)) : new Date(Date.UTC(y, m - 1, resetDay));
}

export function nextMonthWindowStart(at: Date, resetDay: number): Date {
  const start = monthWindowStart(at, resetDay);
  return new Date(Date.UTC(start.getUTCFullYear(), start.getUTCMonth() + 1, resetDay));
}

/** The month window that ended most recently before the one holding `at`. */
export function previousMonthWindowStart(at: Date, resetDay: number): Date {
  const start = monthWindowStart(at, resetDay);
  return new Date(Date.UTC(start.getUTCFullYear(), start.getUTCMonth() - 1, resetDay));
}

/** Whole seconds from `at` until `until`, at least 1 (a Retry-After value). */
export const secondsUntil = (at: Date, until: Date) => Math.max(1, Math.ceil((until.getTime() - at.getTime()) / 1000));
