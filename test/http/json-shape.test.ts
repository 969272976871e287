import { hasLoneSurrogate } from '../../api/http/json-body.js';
import { JsonBudget, jsonExcess } from '../../shared/validation/json-shape.js';

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

describe('hasLoneSurrogate', () => {
  it('finds an unpaired surrogate in any string or key, at any depth', () => {
    expect(hasLoneSurrogate({ a: ['x', { b: '\ud800' }] })).toBe(true);
    expect(hasLoneSurrogate({ '\udc00': 1 })).toBe(true);
    expect(hasLoneSurrogate({ a: '😀', b: ['é'], c: 1, d: null })).toBe(false);
  });
});
