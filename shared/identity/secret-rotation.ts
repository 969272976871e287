// Rotating SECRET_KEY without revoking every credential: while SECRET_KEY_PREVIOUS is set, a token not found under
// SECRET_KEY's hash is looked up under the previous key's, and its stored hash is moved to SECRET_KEY's by the
// statement that finds it (docs/operations.md, "Rotating SECRET_KEY").
import type { Config } from '../config/index.js';

export type SecretKeys = Pick<Config, 'SECRET_KEY' | 'SECRET_KEY_PREVIOUS'>;

/**
 * `find` looks a credential up by its hash under SECRET_KEY. When it finds nothing during a rotation, `rehash` moves
 * a row stored under the previous key's hash to SECRET_KEY's (ONE `UPDATE … SET hash = $current WHERE hash =
 * $previous`), and `find` runs again. Concurrent first uses of one token converge: one UPDATE moves the row, the
 * others wait for its lock, find the previous hash gone and update nothing, and every second `find` sees the moved
 * row. A token unknown under both costs three statements (then the caller caches it as unknown, if it caches).
 * Without SECRET_KEY_PREVIOUS this is `find` alone: no second hash, no second statement.
 */
export async function findRehashing<T>(
  keys: SecretKeys,
  hashUnder: (secret: string) => string,
  find: () => Promise<T | undefined>,
  rehash: (previousHash: string) => Promise<unknown>,
): Promise<T | undefined> {
  const found = await find();
  if (found !== undefined || keys.SECRET_KEY_PREVIOUS === undefined) return found;
  await rehash(hashUnder(keys.SECRET_KEY_PREVIOUS));
  return find();
}
