// The JSON body parser of every route family: body-parser's `json` with a `verify` step that runs on the raw bytes
// before JSON.parse and refuses what later code cannot take: a charset other than UTF-8 (415), nesting deeper than
// MAX_JSON_DEPTH (400 Request.TooDeep: zod, drizzle and the upstream clients recurse, and a 5,000-deep value
// overflowed the stack), and more objects, arrays, values or object keys than any real request holds (400
// Request.TooManyValues: JSON.parse of 32 MiB of `{}`, or of 12 MB of new keys, held the main loop for seconds). The
// check is one non-recursive pass in which strings are skipped with the native `indexOf`, so it costs little next to
// JSON.parse (scripts/bench/json-body.ts measures it). Bodies that escape a UTF-16 surrogate are also walked after
// parsing: an unpaired one is not Unicode text (400 Request.InvalidText).
import express, { type Request, type RequestHandler } from 'express';
import { AppError, badRequest, invalidJson } from '../../shared/errors/app-error.js';
import {
  type JsonExcess,
  jsonExcess,
  MAX_JSON_CONTAINERS,
  MAX_JSON_DEPTH,
  MAX_JSON_KEY_BYTES,
  MAX_JSON_KEYS,
  MAX_JSON_VALUES,
} from '../../shared/validation/json-shape.js';
import { wellFormed } from '../../shared/validation/well-formed.js';
import { boundInflation } from './inflation-bound.js';

/**
 * Whether any string or key of a parsed JSON value holds an unpaired surrogate; iterative, any depth. Strings are
 * checked where they are met and only objects and arrays wait their turn, arrays read by their elements and objects by
 * their keys: `Object.entries` of an array made an index string and a pair for each element, and every value waited
 * on the stack, so one array of a million numbers beside one escaped emoji cost 0.2 to 0.3 s of the main loop
 * (security review #129).
 */
export function hasLoneSurrogate(value: unknown): boolean {
  const pending: object[] = [];
  /** Checks a string at once (true when it is not well formed); keeps an object or an array for later. */
  const meet = (v: unknown): boolean => {
    if (typeof v === 'string') return !wellFormed(v);
    if (v !== null && typeof v === 'object') pending.push(v);
    return false;
  };
  if (meet(value)) return true;
  for (let next = pending.pop(); next !== undefined; next = pending.pop()) {
    if (Array.isArray(next)) {
      for (const child of next) if (meet(child)) return true;
    } else {
      for (const key in next) {
        if (!wellFormed(key) || meet((next as Record<string, unknown>)[key])) return true;
      }
    }
  }
  return false;
}

/** A surrogate can only arrive escaped (raw surrogate bytes are not UTF-8 and decode to U+FFFD). */
const mayEscapeSurrogate = (bytes: Buffer) => bytes.includes('\\ud') || bytes.includes('\\uD');

const excessError: Record<JsonExcess, () => AppError> = {
  depth: () =>
    badRequest(
      'Request.TooDeep',
      `The JSON body is nested deeper than ${MAX_JSON_DEPTH} levels of objects and arrays.`,
    ),
  containers: () =>
    badRequest(
      'Request.TooManyValues',
      `The JSON body holds more than ${MAX_JSON_CONTAINERS.toLocaleString('en-US')} objects and arrays.`,
    ),
  values: () =>
    badRequest(
      'Request.TooManyValues',
      `The JSON body holds more than ${MAX_JSON_VALUES.toLocaleString('en-US')} values.`,
    ),
  keys: () =>
    badRequest(
      'Request.TooManyValues',
      `The JSON body holds more than ${MAX_JSON_KEYS.toLocaleString('en-US')} object keys in all.`,
    ),
  'key length': () =>
    badRequest(
      'Request.TooManyValues',
      `The JSON body holds an object key longer than ${MAX_JSON_KEY_BYTES.toLocaleString('en-US')} bytes.`,
    ),
};

/** Throws the 400 for JSON text (UTF-8 bytes) past the depth, object and array, or value limits of one body. */
function assertJsonShape(bytes: Uint8Array): void {
  const excess = jsonExcess(bytes);
  if (excess) throw excessError[excess]();
}

const loneSurrogateText = () =>
  badRequest(
    'Request.InvalidText',
    'Text in the request holds an unpaired UTF-16 surrogate (a lone \\uD800–\\uDFFF escape), which is not Unicode.',
  );

const surrogateEscapes = Symbol('json body escapes a surrogate');
type MarkedRequest = Request & { [surrogateEscapes]?: boolean };

function verifyJsonBytes(req: Request, _res: unknown, bytes: Buffer, encoding: string | null): void {
  if (encoding !== null && encoding !== 'utf-8' && encoding !== 'utf8') {
    // RFC 8259: JSON exchanged between systems is UTF-8. The status survives body-parser's wrapping.
    throw new AppError('Request.UnsupportedMediaType', 415, 'Send JSON as UTF-8 (charset=utf-8).');
  }
  assertJsonShape(bytes);
  if (mayEscapeSurrogate(bytes)) (req as MarkedRequest)[surrogateEscapes] = true;
}

const refuseLoneSurrogates: RequestHandler = (req, _res, next) => {
  const marked = req as MarkedRequest;
  if (!marked[surrogateEscapes]) return next();
  marked[surrogateEscapes] = false;
  next(hasLoneSurrogate(req.body) ? loneSurrogateText() : undefined);
};

const jsonTypes = ['application/json', 'application/*+json'];

/** The JSON parser for bodies of at most `limit` bytes (after decompression, and at most 100 times the compressed). */
export function jsonBody(limit: number): RequestHandler[] {
  return [
    boundInflation(jsonTypes),
    express.json({ limit, type: jsonTypes, verify: verifyJsonBytes }),
    refuseLoneSurrogates,
  ];
}

const byteOrderMark = Buffer.from([0xef, 0xbb, 0xbf]);
const firstSignificant = /^[ \t\n\r]*([^ \t\n\r])/;

/**
 * A JSON body read by the lean lane (api/http/lean-lane.ts), to the same rules and with the same errors as the
 * parser above: the shape limits, body-parser's strict mode (an object or an array at the top), its leading byte
 * order mark skipped and its empty text read as {}, the same 400 for text that does not parse, and no unpaired
 * surrogates.
 */
export function parseJsonBytes(raw: Buffer): unknown {
  assertJsonShape(raw);
  const text = (raw.subarray(0, 3).equals(byteOrderMark) ? raw.subarray(3) : raw).toString('utf8');
  // body-parser reads an empty text as {}, also a body of a byte order mark alone (security review #102).
  if (text.length === 0) return {};
  const first = firstSignificant.exec(text)?.[1];
  if (first !== '{' && first !== '[') throw invalidJson();
  return parsedText(raw, text, invalidJson);
}

/** JSON carried inside another body (a multipart field), held to the same rules; `invalid` when it does not parse. */
export function parseJsonText(text: string, invalid: () => AppError): unknown {
  const bytes = Buffer.from(text, 'utf8');
  assertJsonShape(bytes);
  return parsedText(bytes, text, invalid);
}

/** `text` (the UTF-8 of `bytes`, its shape already checked) parsed: `invalid` when it does not, no lone surrogates. */
function parsedText(bytes: Buffer, text: string, invalid: () => AppError): unknown {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    throw invalid();
  }
  if (mayEscapeSurrogate(bytes) && hasLoneSurrogate(value)) throw loneSurrogateText();
  return value;
}
