// Video task ids: `video_` + a ULID-like id (48-bit millisecond time then 80 random bits, Crockford base32),
// so ids sort by creation time and carry nothing of the upstream.
import { randomBytes } from 'node:crypto';

const ALPHABET = '0123456789ABCDEFGHJKMNPQRSTVWXYZ';

function encodeTime(ms: number): string {
  let out = '';
  let rest = ms;
  for (let i = 0; i < 10; i++) {
    out = ALPHABET[rest % 32] + out;
    rest = Math.floor(rest / 32);
  }
  return out;
}

function encodeRandom(): string {
  const bytes = randomBytes(16);
  let out = '';
  for (let i = 0; i < 16; i++) out += ALPHABET[(bytes[i] as number) % 32];
  return out;
}

export const newVideoId = (now = Date.now()): string => `video_${encodeTime(now)}${encodeRandom()}`;
