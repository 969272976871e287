// The shape of JSON text, judged on its UTF-8 bytes before anything parses it: how deep it nests and how many objects,
// arrays, values and object keys it holds. The body parser of every route (api/http/json-body.ts) and JSON carried inside a
// string of a body (chat tool call arguments, a multipart field) share it.

/** Deeper JSON is refused on every route; a documented limit (docs/architecture.md), as in serde_json. */
export const MAX_JSON_DEPTH = 128;
/**
 * Objects and arrays one body may hold. Each costs `JSON.parse` an allocation (about 0.2 µs, 1.5 µs with the garbage
 * it leaves on a busy heap), so 32 MiB of `[{},{},…]` held the API's main loop for 3 to 5 s before any route's
 * check (security review #89). No real request comes near: a 2,000-turn conversation with tools holds about 10,000.
 */
export const MAX_JSON_CONTAINERS = 100_000;
/** Values one body may hold (numbers and strings cost `JSON.parse` about 0.03 µs each). */
export const MAX_JSON_VALUES = 1_000_000;
/**
 * Object keys one body may hold, in all its objects. A key `JSON.parse` has not met at that place of an object's
 * shape costs a new hidden class or a dictionary entry (about 0.4 to 1.3 µs each at 100,000 keys, up to 3 µs each
 * at 900,000: one 12 MB body held the main loop for 2 to 3 s, security review #126); keys per object are not the
 * cause (10,000 objects of 90 new keys cost more than one object of 900,000). A 2,000-turn conversation with tools
 * holds about 30,000; a tool's JSON Schema of a few thousand properties about 10,000.
 */
export const MAX_JSON_KEYS = 100_000;
/**
 * The longest object key, in bytes as written (escapes included, so never fewer than its UTF-16 units). V8 hashes a
 * string of more than 16,383 units by its length alone, and `JSON.parse` puts every key into one table of such
 * strings: keys of one length past that all collide, each compared with all the others, so 2,000 keys of 16,390
 * characters sharing a prefix (32 MB, inside every count) held the main loop 3.3 s (security review #128). A path is
 * at most 4,096 bytes (PATH_MAX); no schema, metadata or tool input key comes near.
 */
export const MAX_JSON_KEY_BYTES = 4_096;

export type JsonExcess = 'depth' | 'containers' | 'values' | 'keys' | 'key length';

const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const OPEN_OBJECT = 0x7b;
const CLOSE_OBJECT = 0x7d;
const OPEN_ARRAY = 0x5b;
const CLOSE_ARRAY = 0x5d;
const COMMA = 0x2c;
const COLON = 0x3a;
const isWhitespace = (byte: number | undefined) => byte === 0x20 || byte === 0x09 || byte === 0x0a || byte === 0x0d;

/** Whether the string that closes at `quote` is an object key: a colon follows it, after any whitespace. */
function isKey(bytes: Uint8Array, quote: number): boolean {
  let at = quote + 1;
  while (isWhitespace(bytes[at])) at++;
  return bytes[at] === COLON;
}

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
 * What JSON texts may still hold: objects and arrays, values, counted as objects, arrays and the commas between
 * items and members outside strings, plus one (an upper bound of the values; exact when no object or array is
 * empty), and object keys, counted as the colons outside strings, none longer than MAX_JSON_KEY_BYTES. One budget
 * can be charged with several texts (every tool call's arguments of one request).
 */
export class JsonBudget {
  constructor(
    private containers = MAX_JSON_CONTAINERS,
    private values = MAX_JSON_VALUES,
    private readonly maxDepth = MAX_JSON_DEPTH,
    private keys = MAX_JSON_KEYS,
  ) {}

  /**
   * Charges what `bytes` holds, read without recursion, and answers the first excess (or undefined). Only the shape
   * is judged: malformed JSON is left to the parser. (In UTF-8 no byte of a multi-byte character is ASCII, so
   * brackets, commas and quotes are found byte by byte.)
   */
  charge(bytes: Uint8Array): JsonExcess | undefined {
    let depth = 0;
    let containers = this.containers;
    let values = this.values - 1;
    let keys = this.keys;
    let excess: JsonExcess | undefined = values < 0 ? 'values' : undefined;
    for (let i = 0; excess === undefined && i < bytes.length; i++) {
      const byte = bytes[i];
      if (byte === QUOTE) {
        const end = endOfString(bytes, i + 1);
        // Only a long string is looked past: a key's length is judged where it ends.
        if (end - i - 1 > MAX_JSON_KEY_BYTES && isKey(bytes, end)) {
          excess = 'key length';
          break;
        }
        i = end;
      } else if (byte === COMMA) {
        if (--values < 0) {
          excess = 'values';
          break;
        }
      } else if (byte === COLON) {
        if (--keys < 0) {
          excess = 'keys';
          break;
        }
      } else if (byte === OPEN_OBJECT || byte === OPEN_ARRAY) {
        if (++depth > this.maxDepth) {
          excess = 'depth';
          break;
        }
        if (--containers < 0) {
          excess = 'containers';
          break;
        }
        if (--values < 0) {
          excess = 'values';
          break;
        }
      } else if (byte === CLOSE_OBJECT || byte === CLOSE_ARRAY) {
        depth--;
      }
    }
    this.containers = containers;
    this.values = values;
    this.keys = keys;
    return excess;
  }
}

/** The first way JSON text (UTF-8 bytes) exceeds the limits of one body, or undefined. */
export const jsonExcess = (bytes: Uint8Array): JsonExcess | undefined => new JsonBudget().charge(bytes);
