// UTC calendar days: counters are keyed by day and reset at 00:00 UTC.
const DAY_MS = 86_400_000;
/** The last day asked for and its bounds [from, to) in ms: most calls (one per telemetry event) fall in it. */
let last = { from: 0, to: 0, day: '' };

export function utcDay(at: Date): string {
  const t = at.getTime();
  if (t >= last.from && t < last.to) return last.day;
  const day = at.toISOString().slice(0, 10);
  const from = Math.floor(t / DAY_MS) * DAY_MS; // JavaScript's UTC days are all 86,400,000 ms
  last = { from, to: from + DAY_MS, day };
  return day;
}

export function addDays(day: string, delta: number): string {
  const d = new Date(`${day}T00:00:00.000Z`);
  d.setUTCDate(d.getUTCDate() + delta);
  return utcDay(d);
}

export function secondsUntilNextUtcMidnight(now: Date): number {
  const next = Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate() + 1);
  return Math.max(1, Math.ceil((next - now.getTime()) / 1000));
}
