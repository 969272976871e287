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

/** `<meta charset="x">` and `<meta http-equiv="content-type" content="text/html; charset=x">`. */
export function metaCharset(body: Buffer): string | undefined {
  const head = body.subarray(0, META_SCAN_BYTES).toString('latin1');
  const match = head.match(/<meta[^>]*?charset\s*=\s*["']?\s*([A-Za-z0-9_.:-]+)/i);
  const label = match?.[1]?.toLowerCase();
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
