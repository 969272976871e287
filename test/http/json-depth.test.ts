import { hasLoneSurrogate } from '../../api/http/json-body.js';
import { jsonDepthExceeds } from '../../shared/validation/json-depth.js';

const exceeds = (text: string, limit: number) => jsonDepthExceeds(Buffer.from(text, 'utf8'), limit);

describe('jsonDepthExceeds (the pre-parse depth scan)', () => {
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

describe('hasLoneSurrogate', () => {
  it('finds an unpaired surrogate in any string or key, at any depth', () => {
    expect(hasLoneSurrogate({ a: ['x', { b: '\ud800' }] })).toBe(true);
    expect(hasLoneSurrogate({ '\udc00': 1 })).toBe(true);
    expect(hasLoneSurrogate({ a: '😀', b: ['é'], c: 1, d: null })).toBe(false);
  });
});
