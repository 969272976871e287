// Stored password hashes name their own parameters, so a hash made at older settings keeps verifying and can be
// replaced at the next login. Today's: argon2id, m=19 MiB, t=2, p=1, as a PHC string
// (`$argon2id$v=19$m=19456,t=2,p=1$<salt>$<key>`, unpadded base64), which other argon2 tools read too. Before:
// `scrypt$N$r$p$<salt>$<key>` (padded base64), made at N=2^17, r=8, p=1.
import { trimTrailing } from '../text/trim-trailing.js';

export type Argon2idParams = { algorithm: 'argon2id'; m: number; t: number; p: number };
export type ScryptParams = { algorithm: 'scrypt'; N: number; r: number; p: number };
export type KeyParams = Argon2idParams | ScryptParams;

export type StoredHash = { params: KeyParams; salt: Buffer; key: Buffer };

/** OWASP's argon2id setting with the least memory: 19 MiB (m in KiB), 2 passes, 1 lane. */
export const CURRENT_PARAMS: Argon2idParams = { algorithm: 'argon2id', m: 19 * 1024, t: 2, p: 1 };
export const KEY_LENGTH = 32;
export const SALT_LENGTH = 16;

// A stored hash asking for more memory than this is not ours (a thread would hold it all): it never verifies. The old
// scrypt hashes (N=2^17, r=8: 128 MiB) fit until their accounts log in once more.
export const MAX_KEY_MEMORY_BYTES = 256 * 1024 * 1024;
const MAX_LANES = 16;
// An empty or short key would make the comparison trivially true or weak.
const MIN_KEY_LENGTH = 16;

const unpadded = (b: Buffer) => trimTrailing(b.toString('base64'), /=/);

export function encodeHash({ params, salt, key }: StoredHash): string {
  if (params.algorithm === 'scrypt') {
    return `scrypt$${params.N}$${params.r}$${params.p}$${salt.toString('base64')}$${key.toString('base64')}`;
  }
  return `$argon2id$v=19$m=${params.m},t=${params.t},p=${params.p}$${unpadded(salt)}$${unpadded(key)}`;
}

const argon2idPattern = /^\$argon2id\$v=19\$m=(\d{1,7}),t=(\d{1,3}),p=(\d{1,2})\$([A-Za-z0-9+/]+)\$([A-Za-z0-9+/]+)$/;
const scryptPattern = /^scrypt\$(\d{1,8})\$(\d{1,2})\$(\d{1,2})\$([A-Za-z0-9+/]+=*)\$([A-Za-z0-9+/]+=*)$/;

/** The parts of a stored hash, or undefined for anything this service did not write. */
export function parseHash(stored: string): StoredHash | undefined {
  const argon2 = argon2idPattern.exec(stored);
  if (argon2) {
    const [, m, t, p, salt, key] = argon2 as unknown as [string, string, string, string, string, string];
    const params = { algorithm: 'argon2id' as const, m: Number(m), t: Number(t), p: Number(p) };
    if (params.m * 1024 > MAX_KEY_MEMORY_BYTES || params.m < 8 * params.p) return undefined;
    if (params.t < 1 || params.p < 1 || params.p > MAX_LANES) return undefined;
    return withKey(params, salt, key);
  }
  const scrypt = scryptPattern.exec(stored);
  if (scrypt) {
    const [, n, r, p, salt, key] = scrypt as unknown as [string, string, string, string, string, string];
    const params = { algorithm: 'scrypt' as const, N: Number(n), r: Number(r), p: Number(p) };
    const powerOfTwo = params.N > 1 && (params.N & (params.N - 1)) === 0;
    if (!powerOfTwo || params.r < 1 || params.p < 1 || params.p > MAX_LANES) return undefined;
    if (128 * params.N * params.r >= MAX_KEY_MEMORY_BYTES) return undefined;
    return withKey(params, salt, key);
  }
  return undefined;
}

function withKey(params: KeyParams, salt: string, key: string): StoredHash | undefined {
  const parts = { params, salt: Buffer.from(salt, 'base64'), key: Buffer.from(key, 'base64') };
  return parts.key.length >= MIN_KEY_LENGTH && parts.salt.length >= 8 ? parts : undefined;
}

/** Whether a stored hash was made at today's parameters (else it is replaced at the next successful login). */
export function isCurrent({ params, salt, key }: StoredHash): boolean {
  return (
    params.algorithm === CURRENT_PARAMS.algorithm &&
    salt.length === SALT_LENGTH &&
    key.length === KEY_LENGTH &&
    params.m === CURRENT_PARAMS.m &&
    params.t === CURRENT_PARAMS.t &&
    params.p === CURRENT_PARAMS.p
  );
}
