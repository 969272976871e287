// Hashes, ids and a seeded random generator, so the same request always produces the same answer.
import { createHash, randomBytes } from 'node:crypto';

const BASE62 = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';

/** JSON with object keys sorted, so equal values hash equally whatever their key order. */
export function canonicalJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(',')}]`;
  if (value && typeof value === 'object') {
    const entries = Object.entries(value as Record<string, unknown>)
      .filter(([, v]) => v !== undefined)
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${canonicalJson(v)}`).join(',')}}`;
  }
  return JSON.stringify(value ?? null);
}

export function sha256(text: string): Buffer {
  return createHash('sha256').update(text).digest();
}

function base62(bytes: Buffer, length: number): string {
  let out = '';
  for (let i = 0; out.length < length; i++) out += BASE62[bytes[i % bytes.length]! % 62];
  return out;
}

/** An id derived from a seed: `stableId('msg_', x)` is the same for the same x. */
export function stableId(prefix: string, seed: unknown, length = 24): string {
  return prefix + base62(sha256(`${prefix}|${canonicalJson(seed)}`), length);
}

/** A fresh random id (for new entities such as video tasks). */
export function randomId(prefix: string, length = 24): string {
  return prefix + base62(randomBytes(length), length);
}

/** mulberry32: a small deterministic generator of numbers in [0, 1). */
export function seededRandom(seed: unknown): () => number {
  let state = sha256(canonicalJson(seed)).readUInt32LE(0);
  return () => {
    state = (state + 0x6d2b79f5) | 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}
