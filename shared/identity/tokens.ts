// Opaque bearer tokens: `ock_` API keys and `ocs_` console sessions, with a checksum that lets junk be refused
// before any lookup, and the keyed hash (HMAC-SHA256 with the server secret) that is the only thing stored.
import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import { crc32 } from 'node:zlib';

export type TokenKind = 'api-key' | 'session';

const prefixes: Record<TokenKind, string> = { 'api-key': 'ock_', session: 'ocs_' };
const BASE62 = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';
const BODY_LENGTH = 36;
const CHECKSUM_LENGTH = 6;

function toBase62(value: number, width: number): string {
  let out = '';
  let v = value;
  for (let i = 0; i < width; i++) {
    out = BASE62[v % 62] + out;
    v = Math.floor(v / 62);
  }
  return out;
}

function randomBase62(length: number): string {
  // Rejection sampling keeps every character uniform (256 is not a multiple of 62).
  let out = '';
  while (out.length < length) {
    for (const byte of randomBytes(length * 2)) {
      if (byte < 248 && out.length < length) out += BASE62[byte % 62];
    }
  }
  return out;
}

const checksumOf = (prefix: string, body: string) => toBase62(crc32(`${prefix}${body}`), CHECKSUM_LENGTH);

export function generateToken(kind: TokenKind): string {
  const prefix = prefixes[kind];
  const body = randomBase62(BODY_LENGTH);
  return `${prefix}${body}${checksumOf(prefix, body)}`;
}

const shape = /^(ock_|ocs_)([0-9A-Za-z]{36})([0-9A-Za-z]{6})$/;

/** The kind of a well-formed token whose checksum matches, or undefined for anything else. */
export function tokenKind(token: string): TokenKind | undefined {
  const m = shape.exec(token);
  if (!m) return undefined;
  const [, prefix, body, checksum] = m as unknown as [string, string, string, string];
  const expected = checksumOf(prefix, body);
  if (!timingSafeEqual(Buffer.from(expected), Buffer.from(checksum))) return undefined;
  return prefix === 'ock_' ? 'api-key' : 'session';
}

export function keyedHash(secret: string, token: string): string {
  return createHmac('sha256', secret).update(token).digest('hex');
}

export const displayPrefix = (token: string) => token.slice(0, 12);
