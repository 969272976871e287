import { jest } from '@jest/globals';
import { hasLoneSurrogate } from '../../api/http/json-body.js';
import { JsonBudget, jsonExcess, MAX_JSON_KEY_BYTES, MAX_JSON_KEYS } from '../../shared/validation/json-shape.js';

/** The depth alone: a budget whose counts are never reached. */
const exceeds = (text: string, limit: number) =>
  new JsonBudget(Number.POSITIVE_INFINITY, Number.POSITIVE_INFINITY, limit).charge(Buffer.from(text, 'utf8')) ===
  'depth';

describe('the pre-parse depth scan (JsonBudget with counts out of reach)', () => {
  it('counts objects and arrays together and refuses one level past the limit', () => {
    expect(exceeds('[{"a":[1]}]', 3)).toBe(false);
    expect(exceeds('[{"a":[[1]]}]', 3)).toBe(true);
    expect(exceeds(`${'['.repeat(128)}${']'.repeat(128)}`, 128)).toBe(false);
    expect(exceeds(`${'['.repeat(129)}${']'.repeat(129)}`, 128)).toBe(true);
  });

  it('measures depth, not the number of brackets', () => {
    expect(exceeds(JSON.stringify(Array.from({ length: 10_000 }, () => [[1]])), 3)).toBe(false);
  });

  it('skips brackets inside strings, escaped quotes and escaped backslashes included', () => {
    expect(exceeds(JSON.stringify({ a: '[[[[[[{{{{{' }), 2)).toBe(false);
    expect(exceeds(JSON.stringify({ a: 'say \\"[[[[[[\\"' }), 2)).toBe(false);
    expect(exceeds(JSON.stringify({ a: 'ends in a backslash \\', b: [[[1]]] }), 2)).toBe(true);
    expect(exceeds(JSON.stringify({ a: 'ends in a backslash \\', b: [[1]] }), 3)).toBe(false);
    expect(exceeds(JSON.stringify({ 'é[[[': '😀{{{{' }), 1)).toBe(false);
  });

  it('leaves truncated or malformed JSON to the parser', () => {
    expect(exceeds('{"a":"unterminated [[[[[[[[', 2)).toBe(false);
    expect(exceeds(']]]]]][[[', 2)).toBe(false);
  });
});

describe('jsonExcess (objects, arrays and values of one body)', () => {
  const list = (item: string, n: number) => Buffer.from(`{"a":[${Array(n).fill(item).join(',')}]}`);

  it('allows 100,000 objects and arrays and refuses one more', () => {
    // The outer object, the array, and n more.
    expect(jsonExcess(list('{}', 99_998))).toBeUndefined();
    expect(jsonExcess(list('{}', 99_999))).toBe('containers');
    expect(jsonExcess(list('[]', 99_999))).toBe('containers');
  });

  it('counts values by objects, arrays and commas, and refuses past 1,000,000', () => {
    // The outer object, the array, and n numbers: n + 2 values.
    expect(jsonExcess(list('0', 999_998))).toBeUndefined();
    expect(jsonExcess(list('0', 999_999))).toBe('values');
    expect(jsonExcess(list('"x"', 999_999))).toBe('values');
  });

  it('does not count brackets and commas inside strings', () => {
    expect(jsonExcess(Buffer.from(JSON.stringify({ a: '{},'.repeat(2_000_000) })))).toBeUndefined();
  });

  it('judges depth first, as before', () => {
    expect(jsonExcess(Buffer.from(`${'['.repeat(200_000)}${']'.repeat(200_000)}`))).toBe('depth');
  });

  it('charges one budget across several texts', () => {
    const budget = new JsonBudget();
    const half = Buffer.from(`[${Array(60_000).fill('{}').join(',')}]`);
    expect(budget.charge(half)).toBeUndefined();
    expect(budget.charge(half)).toBe('containers');
  });
});

describe('jsonExcess (object keys of one body, in all its objects)', () => {
  /** `{"k0":0,"k1":0,…}` with n distinct keys. */
  const object = (n: number, prefix = 'k') => `{${Array.from({ length: n }, (_, i) => `"${prefix}${i}":0`).join(',')}}`;
  /** A budget whose other counts are never reached: only the keys can run out. */
  const keysExceed = (text: string, keys: number) =>
    new JsonBudget(Number.POSITIVE_INFINITY, Number.POSITIVE_INFINITY, 128, keys).charge(Buffer.from(text)) === 'keys';

  it('allows 100,000 keys and refuses one more', () => {
    expect(MAX_JSON_KEYS).toBe(100_000);
    expect(jsonExcess(Buffer.from(object(100_000)))).toBeUndefined();
    expect(jsonExcess(Buffer.from(object(100_001)))).toBe('keys');
  });

  it('counts the keys of all objects, each nested object on its own, not the largest one', () => {
    expect(keysExceed('{"a":{"b":1,"c":{"d":2}},"e":[{"f":3},{"g":4}]}', 7)).toBe(false);
    expect(keysExceed('{"a":{"b":1,"c":{"d":2}},"e":[{"f":3},{"g":4}]}', 6)).toBe(true);
    // 1,000 objects of 100 keys: no object is large, the body is.
    const many = `[${Array.from({ length: 1_000 }, (_, j) => object(100, `o${j}k`)).join(',')}]`;
    expect(jsonExcess(Buffer.from(many))).toBeUndefined();
    expect(jsonExcess(Buffer.from(`[${many},${object(1)}]`))).toBe('keys');
  });

  it('does not count colons inside keys or string values, escaped quotes and backslashes included', () => {
    expect(keysExceed(JSON.stringify({ 'a:b:c': 'x:y:z', t: 'say \\":::\\"', u: 'ends in \\' }), 3)).toBe(false);
    expect(keysExceed(JSON.stringify({ 'a:b:c': 'x:y:z', t: 'say \\":::\\"', u: 'ends in \\' }), 2)).toBe(true);
    expect(keysExceed(JSON.stringify({ a: '{"b":1,"c":2}'.repeat(1_000) }), 1)).toBe(false);
    expect(keysExceed(JSON.stringify(['https://x.test:8080', '1:2:3']), 0)).toBe(false);
  });

  it('counts keys written with whitespace around the colon', () => {
    expect(keysExceed('{ "a" : 1 ,\n  "b"\t:\t{ "c" :2 } }', 2)).toBe(true);
    expect(keysExceed('{ "a" : 1 ,\n  "b"\t:\t{ "c" :2 } }', 3)).toBe(false);
  });

  it('charges one budget across several texts (every tool call of a request)', () => {
    const budget = new JsonBudget();
    const half = Buffer.from(object(60_000));
    expect(budget.charge(half)).toBeUndefined();
    expect(budget.charge(half)).toBe('keys');
  });
});

describe('jsonExcess (the length of an object key, security review #128)', () => {
  const key = (bytes: number) => 'k'.repeat(bytes);

  it('allows a key of 4,096 bytes as written and refuses one more byte', () => {
    expect(MAX_JSON_KEY_BYTES).toBe(4_096);
    expect(jsonExcess(Buffer.from(`{"${key(4_096)}":0}`))).toBeUndefined();
    expect(jsonExcess(Buffer.from(`{"${key(4_097)}":0}`))).toBe('key length');
    expect(jsonExcess(Buffer.from(`[{"a":{"${key(4_097)}" \n\t : 0}}]`))).toBe('key length');
  });

  it('counts a key as written: escapes and multi-byte characters by their bytes', () => {
    expect(jsonExcess(Buffer.from(`{"${'\\u0041'.repeat(683)}":0}`))).toBe('key length');
    expect(jsonExcess(Buffer.from(JSON.stringify({ [`${'é'.repeat(2_048)}`]: 0 })))).toBeUndefined();
    expect(jsonExcess(Buffer.from(JSON.stringify({ [`${'é'.repeat(2_048)}x`]: 0 })))).toBe('key length');
  });

  it('leaves long string values alone, a colon inside or after them included', () => {
    expect(jsonExcess(Buffer.from(JSON.stringify({ a: key(100_000), b: [key(50_000), 'x:y'] })))).toBeUndefined();
    expect(jsonExcess(Buffer.from(JSON.stringify([`${key(5_000)}:`, `a\\"${key(5_000)}`])))).toBeUndefined();
    expect(jsonExcess(Buffer.from(`{"a":"${key(5_000)}"}`))).toBeUndefined();
    expect(jsonExcess(Buffer.from(`["${key(5_000)}`))).toBeUndefined();
  });

  it('holds every tool call of one budget to it', () => {
    const budget = new JsonBudget();
    expect(budget.charge(Buffer.from(`{"${key(4_096)}":0}`))).toBeUndefined();
    expect(budget.charge(Buffer.from(`{"${key(4_097)}":0}`))).toBe('key length');
  });
});

describe('hasLoneSurrogate', () => {
  it('finds an unpaired surrogate in any string or key, at any depth', () => {
    expect(hasLoneSurrogate({ a: ['x', { b: '\ud800' }] })).toBe(true);
    expect(hasLoneSurrogate({ '\udc00': 1 })).toBe(true);
    expect(hasLoneSurrogate({ a: '😀', b: ['é'], c: 1, d: null })).toBe(false);
    expect(hasLoneSurrogate(['😀', ['x', '\udfff😀']])).toBe(true);
    expect(hasLoneSurrogate(JSON.parse('{"__proto__":["\\ud800"]}'))).toBe(true);
  });

  it('reads an array by its elements and a string with one native check (security review #129)', () => {
    // Object.entries of an array of a million numbers beside one escaped emoji made an index string and a pair per
    // element, and each string met a /\p{Cs}/u test: 0.3 s of the main loop for a 2 MB gateway body.
    const elements = new Proxy(['😀', 1, '\ud800'], {
      ownKeys: () => {
        throw new Error('the array was enumerated by its keys');
      },
    });
    const test = jest.spyOn(RegExp.prototype, 'test');
    try {
      expect(hasLoneSurrogate({ a: elements })).toBe(true);
      expect(test).not.toHaveBeenCalled();
    } finally {
      test.mockRestore();
    }
  });
});
