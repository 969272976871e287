// Password hashing with scrypt at OWASP strength (N=2^17, r=8, p=1), self-describing so parameters can change.
import { randomBytes, type ScryptOptions, scrypt, timingSafeEqual } from 'node:crypto';

const params = { N: 2 ** 17, r: 8, p: 1 };
const KEY_LENGTH = 32;
const MAXMEM = 256 * 1024 * 1024;

export const MIN_PASSWORD_LENGTH = 10;

function derive(password: string, salt: Buffer, p: { N: number; r: number; p: number }): Promise<Buffer> {
  const options: ScryptOptions = { N: p.N, r: p.r, p: p.p, maxmem: MAXMEM };
  return new Promise((resolve, reject) =>
    scrypt(password.normalize('NFKC'), salt, KEY_LENGTH, options, (err, key) => (err ? reject(err) : resolve(key))),
  );
}

export async function hashPassword(password: string): Promise<string> {
  const salt = randomBytes(16);
  const key = await derive(password, salt, params);
  return `scrypt$${params.N}$${params.r}$${params.p}$${salt.toString('base64')}$${key.toString('base64')}`;
}

export async function verifyPassword(password: string, stored: string): Promise<boolean> {
  const parts = stored.split('$');
  if (parts.length !== 6 || parts[0] !== 'scrypt') return false;
  const [, n, r, p, salt, hash] = parts as [string, string, string, string, string, string];
  const expected = Buffer.from(hash, 'base64');
  const actual = await derive(password, Buffer.from(salt, 'base64'), { N: Number(n), r: Number(r), p: Number(p) });
  return actual.length === expected.length && timingSafeEqual(actual, expected);
}

let decoy: Promise<string> | undefined;
/** A hash to verify against when the e-mail is unknown, so both failures cost the same time. */
export const decoyHash = () => {
  decoy ??= hashPassword(randomBytes(16).toString('hex'));
  return decoy;
};
