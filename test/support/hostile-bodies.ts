// Hostile request bodies for the fuzzers: corrupt or unsupported Content-Encodings, charsets other than UTF-8,
// nesting of 10 / 1,000 / 100,000 levels, 100,001 objects, 100,001 object keys, huge numbers and lone surrogates. Each says what it must be answered
// with (a status and an error code in the route family's shape), or only that it must not be a 5xx.
import { brotliCompressSync, deflateSync, gzipSync } from 'node:zlib';

/** The status, the stable code and (for the Anthropic shape, which carries no code) the message's gist. */
export type Expected = { status: number; code: string; message: RegExp };

export type HostileBody = {
  name: string;
  body: Buffer | string;
  headers?: Record<string, string>;
  /** Undefined: any answer below 500 (the route's own validation decides). */
  expected?: Expected;
};

/** `[[[…]]]` or `{"a":{"a":…1}}`, `depth` levels deep. */
export function deeplyNested(depth: number, asArray: boolean): string {
  return asArray ? `${'['.repeat(depth)}${']'.repeat(depth)}` : `${'{"a":'.repeat(depth)}1${'}'.repeat(depth)}`;
}

const tooDeep: Expected = { status: 400, code: 'Request.TooDeep', message: /nested deeper than 128 levels/ };
const tooMany: Expected = {
  status: 400,
  code: 'Request.TooManyValues',
  message: /holds more than 100,000 objects and arrays/,
};
const tooManyKeys: Expected = { ...tooMany, message: /holds more than 100,000 object keys/ };
const corrupt: Expected = { status: 400, code: 'Request.InvalidEncoding', message: /could not be decompressed/ };
const unsupported: Expected = { status: 415, code: 'Request.UnsupportedMediaType', message: /UTF-8|not supported/ };
const loneSurrogate: Expected = { status: 400, code: 'Request.InvalidText', message: /unpaired UTF-16 surrogate/ };
const tooLarge: Expected = { status: 413, code: 'Request.TooLarge', message: /too large/ };

/** Codes only a hostile body earns: a body that is not hostile must never get one. */
export const hostileCodes = new Set([tooDeep, tooMany, corrupt, unsupported, loneSurrogate].map((e) => e.code));

let bomb: Buffer | undefined;
/** 64 MiB of spaces in about 64 KB of gzip: it inflates past every route's body limit. */
const gzipBomb = () => {
  bomb ??= gzipSync(Buffer.alloc(64 * 1_048_576, 0x20), { level: 9 });
  return bomb;
};

function encodings(field: string): HostileBody[] {
  const json = JSON.stringify({ [field]: 'x'.repeat(2_000) });
  const gzip = { 'content-encoding': 'gzip' };
  return [
    { name: 'gzip that is not gzip', body: Buffer.from('plainly not gzip data'), headers: gzip, expected: corrupt },
    { name: 'gzip cut short', body: gzipSync(json).subarray(0, 30), headers: gzip, expected: corrupt },
    { name: 'gzip with a flipped byte', body: flipped(gzipSync(json)), headers: gzip, expected: corrupt },
    {
      name: 'deflate that is not deflate',
      body: Buffer.from('\u0000\u0001nope'),
      headers: { 'content-encoding': 'deflate' },
      expected: corrupt,
    },
    {
      name: 'brotli that is not brotli',
      body: Buffer.from('\u00ff\u00ff\u00ff\u00ffnot brotli'),
      headers: { 'content-encoding': 'br' },
      expected: corrupt,
    },
    {
      name: 'an unsupported encoding',
      body: deflateSync(json),
      headers: { 'content-encoding': 'compress' },
      expected: unsupported,
    },
    { name: 'a gzip bomb', body: gzipBomb(), headers: gzip, expected: tooLarge },
    {
      // 60 KB of brackets: the depth is judged once inflated (more would pass the 100:1 inflation bound first).
      name: '30,000 levels inside gzip',
      body: gzipSync(deeplyNested(30_000, true)),
      headers: gzip,
      expected: tooDeep,
    },
    {
      name: 'valid brotli',
      body: brotliCompressSync(json),
      headers: { 'content-encoding': 'br' },
    },
  ];
}

function flipped(bytes: Buffer): Buffer {
  const copy = Buffer.from(bytes);
  const at = Math.floor(copy.length / 2);
  copy[at] = (copy[at] ?? 0) ^ 0xff;
  return copy;
}

function charsets(field: string): HostileBody[] {
  const json = JSON.stringify({ [field]: 'é' });
  const as = (charset: string, body: Buffer | string, expected?: Expected): HostileBody => ({
    name: `charset=${charset}`,
    body,
    headers: { 'content-type': `application/json; charset=${charset}` },
    ...(expected ? { expected } : {}),
  });
  return [
    as('utf-16le', Buffer.from(json, 'utf16le'), unsupported),
    as('utf-32', Buffer.from(json, 'utf16le'), unsupported),
    as('latin1', Buffer.from(json, 'latin1'), unsupported),
    as('no-such-charset', json, unsupported),
    as('utf-8', json),
  ];
}

function nesting(field: string): HostileBody[] {
  const inField = (depth: number, asArray: boolean) => `{"${field}":${deeplyNested(depth, asArray)}}`;
  return [
    { name: '10 levels of arrays', body: deeplyNested(10, true) },
    { name: '10 levels of objects in a field', body: inField(10, false) },
    { name: '10 levels of arrays in a field', body: inField(10, true) },
    { name: '1,000 levels of arrays', body: deeplyNested(1_000, true), expected: tooDeep },
    { name: '1,000 levels of objects in a field', body: inField(1_000, false), expected: tooDeep },
    { name: '100,000 levels of arrays', body: deeplyNested(100_000, true), expected: tooDeep },
    { name: '100,000 levels of arrays in a field', body: inField(100_000, true), expected: tooDeep },
    { name: '100,000 levels of objects in a field', body: inField(100_000, false), expected: tooDeep },
    // Brackets inside strings are text, not nesting.
    { name: 'brackets inside a string', body: JSON.stringify({ [field]: '['.repeat(5_000) }) },
  ];
}

/**
 * Objects and arrays past the limit of one body (300 KB: under every route's byte limit), and just under it; object
 * keys past theirs (600 KB, one name repeated: the count is of keys, not names), and just under it.
 */
function counts(field: string): HostileBody[] {
  // The outer object, the array and n objects.
  const objects = (n: number) => `{"${field}":[${Array(n).fill('{}').join(',')}]}`;
  // The field's key and n in its object.
  const keys = (n: number) => `{"${field}":{${Array(n).fill('"a":0').join(',')}}}`;
  return [
    { name: '100,001 objects and arrays', body: objects(99_999), expected: tooMany },
    { name: '100,000 objects and arrays', body: objects(99_998) },
    { name: '100,001 object keys', body: keys(100_000), expected: tooManyKeys },
    { name: '100,000 object keys', body: keys(99_999) },
  ];
}

function numbers(field: string): HostileBody[] {
  const with_ = (literal: string) => `{"${field}":${literal}}`;
  return [
    { name: '1e400', body: with_('1e400') },
    { name: '-1e400', body: with_('-1e400') },
    { name: '1e-400', body: with_('1e-400') },
    { name: 'a 400-digit integer', body: with_('9'.repeat(400)) },
    { name: '2^53 + 1', body: with_('9007199254740993') },
    { name: 'a top-level 1e400', body: '1e400' },
  ];
}

function surrogates(field: string): HostileBody[] {
  return [
    { name: 'a lone high surrogate', body: `{"${field}":"\\ud800"}`, expected: loneSurrogate },
    { name: 'a lone low surrogate', body: `{"${field}":"x\\uDFFFy"}`, expected: loneSurrogate },
    { name: 'a lone surrogate in a key', body: `{"\\ud83d":"x","${field}":"y"}`, expected: loneSurrogate },
    { name: 'a lone surrogate deep in an array', body: `{"${field}":[["a",["\\udc00"]]]}`, expected: loneSurrogate },
    { name: 'a surrogate pair', body: `{"${field}":"\\ud83d\\ude00"}` },
    { name: 'an escaped backslash before ud800', body: `{"${field}":"\\\\ud800"}` },
    { name: 'surrogate bytes (not UTF-8)', body: Buffer.from(`{"${field}":"\xed\xa0\x80"}`, 'latin1') },
  ];
}

/** Every hostile body for a route whose first documented JSON field is `field`. */
export function hostileBodies(field = 'name'): HostileBody[] {
  return [
    ...encodings(field),
    ...charsets(field),
    ...nesting(field),
    ...counts(field),
    ...numbers(field),
    ...surrogates(field),
  ];
}
