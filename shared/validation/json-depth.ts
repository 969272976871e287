// The nesting depth of JSON text, judged on its UTF-8 bytes before anything parses it: the body parser of every
// route (api/http/json-body.ts) and JSON carried inside a string of a body (chat tool call arguments) share it.

/** Deeper JSON is refused on every route; a documented limit (docs/architecture.md), as in serde_json. */
export const MAX_JSON_DEPTH = 128;

const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const OPEN_OBJECT = 0x7b;
const CLOSE_OBJECT = 0x7d;
const OPEN_ARRAY = 0x5b;
const CLOSE_ARRAY = 0x5d;

/** Index of the quote that closes the string whose content starts at `from` (bytes.length when none does). */
function endOfString(bytes: Uint8Array, from: number): number {
  for (let at = from; ; ) {
    const quote = bytes.indexOf(QUOTE, at);
    if (quote < 0) return bytes.length;
    let backslashes = 0;
    while (quote - backslashes - 1 >= from && bytes[quote - backslashes - 1] === BACKSLASH) backslashes++;
    if (backslashes % 2 === 0) return quote;
    at = quote + 1;
  }
}

/**
 * Whether JSON text (UTF-8 bytes) nests objects and arrays deeper than `limit`, read without recursion. Only the
 * depth is judged: malformed JSON is left to the parser. (In UTF-8 no byte of a multi-byte character is ASCII, so
 * brackets and quotes are found byte by byte.)
 */
export function jsonDepthExceeds(bytes: Uint8Array, limit = MAX_JSON_DEPTH): boolean {
  if (bytes.length <= limit) return false;
  let depth = 0;
  for (let i = 0; i < bytes.length; i++) {
    const byte = bytes[i];
    if (byte === QUOTE) {
      i = endOfString(bytes, i + 1);
    } else if (byte === OPEN_OBJECT || byte === OPEN_ARRAY) {
      if (++depth > limit) return true;
    } else if (byte === CLOSE_OBJECT || byte === CLOSE_ARRAY) {
      depth--;
    }
  }
  return false;
}
