// Object keys: slash-separated segments of safe characters, so a key can never name a path outside the store.
import { AppError } from '../errors/app-error.js';

const SEGMENT = /^[A-Za-z0-9_][A-Za-z0-9._-]{0,127}$/;
export const MAX_KEY_LENGTH = 512;

/** Why `key` is not a valid object key, or null when it is. */
export function objectKeyProblem(key: unknown): string | null {
  if (typeof key !== 'string' || key.length === 0) return 'an object key must be a non-empty string';
  if (key.length > MAX_KEY_LENGTH) return `an object key must be at most ${MAX_KEY_LENGTH} characters`;
  if (key.startsWith('/')) return 'an object key must not be an absolute path';
  for (const segment of key.split('/')) {
    if (segment === '') return 'an object key must not contain empty segments ("//" or a trailing "/")';
    if (segment === '.' || segment === '..') return 'an object key must not contain "." or ".." segments';
    if (!SEGMENT.test(segment)) {
      return 'each segment of an object key must be 1-128 letters, digits, ".", "_" or "-", not starting with "." or "-"';
    }
  }
  return null;
}

/** Throws 400 `Storage.InvalidKey` unless `key` is a valid object key. */
export function assertObjectKey(key: string): void {
  const problem = objectKeyProblem(key);
  if (problem) throw new AppError('Storage.InvalidKey', 400, `Invalid object key ${JSON.stringify(key)}: ${problem}.`);
}
