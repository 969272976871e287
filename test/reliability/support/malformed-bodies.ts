// Malformed request bodies for the fuzzer, from a seeded generator so a failure can be replayed: random JSON
// values, wrong types for a route's documented fields, huge strings and deep nesting.
import { deeplyNested } from '../../support/hostile-bodies.js';

export type Rng = () => number;

/** mulberry32: a small seeded PRNG. */
export function seeded(seed: number): Rng {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const pick = <T>(rng: Rng, xs: readonly T[]): T => xs[Math.floor(rng() * xs.length)] as T;

const oddStrings = ['', ' ', '\u0000', '💥'.repeat(50), '-1', 'NaN', '__proto__', '<script>', '%00', '../../etc'];
const oddNumbers = [0, -1, 1e308, -1e308, 0.5, Number.MAX_SAFE_INTEGER + 2, 2 ** 31, -(2 ** 63)];

export function randomValue(rng: Rng, depth = 0): unknown {
  const kind = Math.floor(rng() * (depth > 3 ? 5 : 7));
  switch (kind) {
    case 0:
      return null;
    case 1:
      return rng() < 0.5;
    case 2:
      return pick(rng, oddNumbers);
    case 3:
      return pick(rng, oddStrings);
    case 4:
      return rng()
        .toString(36)
        .repeat(Math.floor(rng() * 20));
    case 5:
      return Array.from({ length: Math.floor(rng() * 4) }, () => randomValue(rng, depth + 1));
    default:
      return Object.fromEntries(
        Array.from({ length: Math.floor(rng() * 4) }, () => [
          pick(rng, ['a', 'id', '__proto__', 'constructor', 'x']),
          randomValue(rng, depth + 1),
        ]),
      );
  }
}

/** Bodies for a route whose documented JSON fields are `fields`: each field given a wrong or extreme value. */
export function malformedBodies(rng: Rng, fields: string[], count: number, hugeBytes: number): string[] {
  const bodies: string[] = [
    'null',
    '[]',
    '"a string"',
    '42',
    'true',
    '{}',
    '{"unclosed": ',
    deeplyNested(5_000, true),
    deeplyNested(5_000, false),
    JSON.stringify({ [fields[0] ?? 'x']: 'x'.repeat(hugeBytes) }),
    JSON.stringify(Object.fromEntries(Array.from({ length: 2_000 }, (_, i) => [`k${i}`, i]))),
  ];
  for (let i = 0; i < count; i++) {
    if (fields.length === 0 || rng() < 0.3) {
      bodies.push(JSON.stringify(randomValue(rng)));
      continue;
    }
    const body: Record<string, unknown> = {};
    for (const field of fields) {
      if (rng() < 0.7) body[field] = randomValue(rng);
    }
    bodies.push(JSON.stringify(body));
  }
  return bodies;
}
