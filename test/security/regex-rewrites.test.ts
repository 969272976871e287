// The linear rewrites of the regex sweep (security review #92, #93) answer what the patterns they replace answered:
// each is compared with its old pattern on random texts made of the characters that matter to it. Seeded, so every
// run tries the same texts.
import fc from 'fast-check';
import { trimTrailing } from '../../shared/text/trim-trailing.js';
import { metaCharset } from '../../shared/web/page-charset.js';

const runs = { numRuns: 3_000, seed: 20261126 };

/** Texts of up to `max` pieces, each a piece the pattern cares about or one ordinary character. */
const textOf = (pieces: string[], max: number) =>
  fc
    .array(fc.oneof(fc.constantFrom(...pieces), fc.string({ maxLength: 1 })), { maxLength: max })
    .map((p) => p.join(''));

describe('trimTrailing, for the /[set]+$/ replacements', () => {
  // Every whitespace JavaScript's \s knows, line terminators, lone surrogate halves, and the sets' own characters.
  const edges = [
    '=',
    '/',
    '0',
    '.',
    '-',
    ',',
    ';',
    ':',
    ' ',
    '\t',
    '\n',
    '\r',
    '\v',
    '\f',
    '\u00a0',
    '\u2028',
    '\u2029',
  ];
  const more = ['\u3000', '\ufeff', '\u200b', '\u0085', '\ud800', '\udc00', 'a', '00', '//', '==', '.-.', '\n\n'];

  it.each([['='], ['\\/'], ['0'], ['[.-]'], ['[\\s,;:.-]']])('cuts what /%s+$/ cut', (set) => {
    const oneChar = new RegExp(set);
    const old = new RegExp(`${set}+$`);
    fc.assert(
      fc.property(textOf([...edges, ...more], 40), (text) => {
        expect(trimTrailing(text, oneChar)).toBe(text.replace(old, ''));
      }),
      runs,
    );
  });
});

describe('metaCharset, for /<meta[^>]*?charset\\s*=\\s*["\']?\\s*([A-Za-z0-9_.:-]+)/i', () => {
  /** The code before #92, as it was. */
  function oldMetaCharset(body: Buffer): string | undefined {
    const head = body.subarray(0, 4096).toString('latin1');
    const match = head.match(/<meta[^>]*?charset\s*=\s*["']?\s*([A-Za-z0-9_.:-]+)/i);
    const label = match?.[1]?.toLowerCase();
    return label?.startsWith('utf-16') ? 'utf-8' : label;
  }
  const pieces = [
    '<meta',
    '<META',
    '<mEtA ',
    '<meta charset=',
    'charset',
    'CharSet',
    'charse',
    'ccharset',
    '=',
    ' = ',
    ' ',
    '\t',
    '\n',
    '\u00a0',
    '\u0085',
    '"',
    "'",
    '>',
    '<',
    'utf-8',
    'UTF-16LE',
    'windows-1251',
    'x_y.z:1',
    'é',
    '\u00ff',
    '<meta http-equiv="content-type" content="text/html; charset=',
  ];
  const latin1 = (text: string) => Buffer.from(text, 'latin1');

  it('finds the same label in random heads', () => {
    fc.assert(
      fc.property(textOf(pieces, 60), (text) => {
        expect(metaCharset(latin1(text))).toBe(oldMetaCharset(latin1(text)));
      }),
      runs,
    );
  });

  it('finds the same label where a declaration crosses the 4 KiB the scan reads', () => {
    fc.assert(
      fc.property(fc.integer({ min: 4060, max: 4100 }), textOf(pieces, 12), (pad, text) => {
        const body = latin1(`${'<meta a>'.repeat(pad >> 3)}${'x'.repeat(pad & 7)}${text}`);
        expect(metaCharset(body)).toBe(oldMetaCharset(body));
      }),
      { ...runs, numRuns: 500 },
    );
  });

  it('reads the pages of every shape it knows', () => {
    const cases: [string, string | undefined][] = [
      ['<html><head><meta charset="windows-1251"></head>', 'windows-1251'],
      ['<META HTTP-EQUIV="Content-Type" CONTENT="text/html; CHARSET=Shift_JIS">', 'shift_jis'],
      ['<meta name="x" content="y"><meta charset = \' koi8-r \'>', 'koi8-r'],
      ['<meta charset="utf-16le">', 'utf-8'],
      ['<meta content="charset"><p>charset=gbk', undefined],
      ['<meta <meta charset=euc-kr', 'euc-kr'],
      ['<body>no declaration</body>', undefined],
    ];
    for (const [page, label] of cases) expect(metaCharset(latin1(page))).toBe(label);
  });
});
