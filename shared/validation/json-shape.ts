// The shape of JSON text, judged on its UTF-8 bytes before anything parses it: how deep it nests and how many objects,
// arrays and values it holds. The body parser of every route (api/http/json-body.ts) and JSON carried inside a
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

export type JsonExcess = 'depth' | 'containers' | 'values';

const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const OPEN_OBJECT = 0x7b;
const CLOSE_OBJECT = 0x7d;
const OPEN_ARRAY = 0x5b;
const CLOSE_ARRAY = 0x5d;
const COMMA = 0x2c;

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
 * What JSON texts may still hold: objects and arrays, and values, counted as objects, arrays and the commas between
 * items and members outside strings, plus one (an upper bound of the values; exact when no object or array is
 * empty). One budget can be charged with several texts (every tool call's arguments of one request).
 */
export class JsonBudget {
  constructor(
    private containers = MAX_JSON_CONTAINERS,
    private values = MAX_JSON_VALUES,
    private readonly maxDepth = MAX_JSON_DEPTH,
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
    let excess: JsonExcess | undefined = values < 0 ? 'values' : undefined;
    for (let i = 0; excess === undefined && i < bytes.length; i++) {
      const byte = bytes[i];
      if (byte === QUOTE) {
        i = endOfString(bytes, i + 1);
      } else if (byte === COMMA) {
        if (--values < 0) {
          excess = 'values';
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
    return excess;
  }
}

/** The first way JSON text (UTF-8 bytes) exceeds the limits of one body, or undefined. */
export const jsonExcess = (bytes: Uint8Array): JsonExcess | undefined => new JsonBudget().charge(bytes);
