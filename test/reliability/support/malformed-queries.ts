// Malformed query strings for the fuzzer, from the same seeded generator as the bodies: odd, huge, repeated,
// badly percent-encoded and out-of-range values for a route's documented query parameters, and unknown ones.
import type { Rng } from './malformed-bodies.js';

const pick = <T>(rng: Rng, xs: readonly T[]): T => xs[Math.floor(rng() * xs.length)] as T;

const oddValues = [
  '',
  ' ',
  '%00',
  '%',
  '%ZZ',
  '%F0%9F%92%A5'.repeat(40),
  '-1',
  '0',
  '1e308',
  '9'.repeat(40),
  'NaN',
  'null',
  'true',
  '__proto__',
  '%3Cscript%3E',
  '2026-02-30',
  '2026-11-24T25:61:00Z',
  '0000-01-01',
  '9999-12-31T23:59:59.999Z',
  '00000000-0000-0000-0000-000000000000',
  'a'.repeat(10_000),
  '../../etc',
];

/** Query strings (without the leading `?`) for a route documenting `params`. */
export function malformedQueries(rng: Rng, params: string[], count: number): string[] {
  const names = [...params, '__proto__', 'constructor', 'x'];
  const queries: string[] = [];
  for (let i = 0; i < count; i++) {
    const parts: string[] = [];
    for (const name of names) {
      const roll = rng();
      if (roll < 0.45) continue;
      if (roll < 0.55) parts.push(`${name}=${pick(rng, oddValues)}&${name}=${pick(rng, oddValues)}`);
      else if (roll < 0.6) parts.push(`${name}[x]=${pick(rng, oddValues)}`);
      else parts.push(`${name}=${pick(rng, oddValues)}`);
    }
    queries.push(parts.join('&'));
  }
  return queries;
}
