// Decodes a fetched page to text: a byte-order mark first, then the content-type charset, then a <meta> charset
// in the first 4 KiB, else UTF-8. Node's TextDecoder (full ICU) knows the WHATWG legacy encodings
// (windows-1251, Shift_JIS, GBK, EUC-KR, ...); an unknown label falls back to UTF-8.
import { TextDecoder } from 'node:util';

const META_SCAN_BYTES = 4096;

function bomCharset(body: Buffer): string | undefined {
  if (body[0] === 0xef && body[1] === 0xbb && body[2] === 0xbf) return 'utf-8';
  if (body[0] === 0xfe && body[1] === 0xff) return 'utf-16be';
  if (body[0] === 0xff && body[1] === 0xfe) return 'utf-16le';
  return undefined;
}

export function headerCharset(contentType: string | undefined): string | undefined {
  const match = contentType?.match(/charset\s*=\s*["']?([^"';\s]+)/i);
  return match?.[1]?.toLowerCase();
}

const space = /\s/;
const labelChar = /[A-Za-z0-9_.:-]/;

/** The label after a `charset` that ends at `at`: `\s*=\s*["']?\s*` then `[A-Za-z0-9_.:-]+`, else undefined. */
function labelAfter(head: string, at: number): string | undefined {
  let i = at;
  const skip = (oneChar: RegExp) => {
    while (i < head.length && oneChar.test(head.charAt(i))) i++;
  };
  skip(space);
  if (head.charAt(i) !== '=') return undefined;
  i++;
  skip(space);
  if (head.charAt(i) === '"' || head.charAt(i) === "'") i++;
  skip(space);
  const start = i;
  skip(labelChar);
  return i > start ? head.slice(start, i) : undefined;
}

/**
 * The label of the first `<meta` whose attributes (up to the next `>`) hold `charset=label`: the first match of
 * `/<meta[^>]*?charset\s*=\s*["']?\s*([A-Za-z0-9_.:-]+)/i`, found in one pass. That pattern read on to the next `>`
 * from every `<meta`, quadratic in a head of `<meta` without `>` (security review #92). A `charset` that fails here
 * fails for every `<meta` before the same `>`, so each `>`-ended segment and each `charset` is read once.
 */
function firstMetaLabel(head: string): string | undefined {
  // Latin-1 text: lower-casing keeps every offset, and no other character becomes an ASCII letter.
  const lower = head.toLowerCase();
  // The next `charset` at or after `from`, the text's length when there is none: every search moves forward.
  const nextCharset = (from: number) => {
    const at = lower.indexOf('charset', from);
    return at < 0 ? lower.length : at;
  };
  let charset = -1;
  for (let meta = lower.indexOf('<meta'); meta >= 0; ) {
    const close = lower.indexOf('>', meta);
    const end = close < 0 ? lower.length : close;
    if (charset < meta + 5) charset = nextCharset(meta + 5);
    while (charset < end) {
      const label = labelAfter(head, charset + 7);
      if (label) return label;
      charset = nextCharset(charset + 7);
    }
    if (close < 0) return undefined;
    meta = lower.indexOf('<meta', close + 1);
  }
  return undefined;
}

/** `<meta charset="x">` and `<meta http-equiv="content-type" content="text/html; charset=x">`. */
export function metaCharset(body: Buffer): string | undefined {
  const label = firstMetaLabel(body.subarray(0, META_SCAN_BYTES).toString('latin1'))?.toLowerCase();
  // The HTML standard: a page that declares UTF-16 in a <meta> is read as UTF-8 (the bytes could not say it).
  return label?.startsWith('utf-16') ? 'utf-8' : label;
}

function decoderFor(label: string | undefined): TextDecoder | undefined {
  if (!label) return undefined;
  try {
    return new TextDecoder(label);
  } catch {
    return undefined;
  }
}

export function decodePage(body: Buffer, contentType: string | undefined): { text: string; charset: string } {
  const decoder =
    decoderFor(bomCharset(body)) ??
    decoderFor(headerCharset(contentType)) ??
    decoderFor(metaCharset(body)) ??
    new TextDecoder('utf-8');
  return { text: decoder.decode(body), charset: decoder.encoding };
}
