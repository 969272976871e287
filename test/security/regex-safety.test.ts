// The regex sweep (docs/security-review.md, "The regex sweep"): every regular expression of the product's source,
// found by the TypeScript compiler, judged by the ReDoS analyser recheck. A pattern it calls vulnerable (super-linear
// backtracking: polynomial or exponential) fails here with its file, line and attack string, unless it is a reviewed
// exception; so does a RegExp built from a non-literal source that nobody has reviewed. Deterministic: the analyser
// runs with a fixed seed and no time limits inside the analysis, and nothing here is timed.

import { readdirSync } from 'node:fs';
import path from 'node:path';
import { type Pattern, patternKey, startAnalyser, type Verdict } from './regex-analyser.js';
import { isExcepted, reviewedExceptions } from './regex-exceptions.js';
import { type FoundRegex, findRegexes, repoRoot, scope } from './regex-inventory.js';

/** Patterns this sweep and round 8 replaced (security review #90 to #93): the analyser must still call them vulnerable. */
const replaced: Pattern[] = [
  { source: '\\s+$', flags: '' },
  { source: '\\$\\{([^}]+)\\}', flags: 'g' },
  { source: '<meta[^>]*?charset\\s*=\\s*["\']?\\s*([A-Za-z0-9_.:-]+)', flags: 'i' },
  { source: '[\\s,;:.-]+$', flags: '' },
];

let regexes: FoundRegex[];
let files: string[];
let built: { file: string; pattern: Pattern }[];
let verdicts: Map<string, Verdict>;

const verdictOf = (pattern: Pattern) => verdicts.get(patternKey(pattern)) as Verdict;
const literal = (r: FoundRegex): r is FoundRegex & Pattern => r.source !== undefined && r.flags !== undefined;
const where = (r: { file: string; line: number; text: string }) => `${r.file}:${r.line} ${r.text}`;
const finding = (v: Verdict) =>
  v.status === 'vulnerable'
    ? `${v.complexity} (recheck ${v.checker}), attack string ${v.attack}`
    : `${v.status}${v.error ? ` (${v.error})` : ''}`;

beforeAll(async () => {
  const { analyse } = startAnalyser();
  ({ regexes, files } = findRegexes());
  built = [];
  for (const exception of reviewedExceptions) {
    for (const re of (await exception.built?.()) ?? []) {
      built.push({ file: exception.file, pattern: { source: re.source, flags: re.flags } });
    }
  }
  // An excepted pattern was judged when it was reviewed; the sweep judges everything else.
  const judged = regexes.filter(literal).filter((r) => !isExcepted(r));
  verdicts = await analyse([...judged, ...built.map((b) => b.pattern), ...replaced]);
}, 120_000);

/** Every TypeScript and JavaScript file under the folders in scope, as the file system lists them. */
function sourceFilesOnDisk(): string[] {
  return scope.include
    .flatMap((folder) =>
      readdirSync(path.join(repoRoot, folder), { recursive: true, encoding: 'utf8' }).map((f) => `${folder}/${f}`),
    )
    .map((f) => f.split(path.sep).join('/'))
    .filter((f) => /\.[cm]?[jt]sx?$/.test(f) && !scope.exclude.some((out) => f.startsWith(`${out}/`)));
}

it('reads every source file of the product folders through the compiler, and finds regexes and constructions', () => {
  expect(files.length).toBeGreaterThan(300);
  expect([...files].sort()).toEqual(sourceFilesOnDisk().sort());
  expect(files.some((f) => f.startsWith('test/') || f.startsWith('scripts/bench/'))).toBe(false);
  expect(regexes.filter(literal).length).toBeGreaterThan(150);
  expect(regexes.some((r) => r.text.startsWith('new RegExp(') && !literal(r))).toBe(true);
});

it('finds no pattern the analyser calls vulnerable, or cannot judge, outside the reviewed exceptions', () => {
  const failures = regexes
    .filter(literal)
    .filter((r) => !isExcepted(r) && verdictOf(r).status !== 'safe')
    .map((r) => `${where(r)}: ${finding(verdictOf(r))}`);
  expect(failures).toEqual([]);
});

it('lists every RegExp built from a non-literal source as a reviewed exception with its reason', () => {
  const unreviewed = regexes.filter((r) => !literal(r) && !isExcepted(r)).map(where);
  expect(unreviewed).toEqual([]);
  for (const exception of reviewedExceptions) expect(exception.reason.length).toBeGreaterThan(40);
});

it('keeps no stale exception: each names an expression still written in its file', () => {
  const stale = reviewedExceptions
    .filter((e) => !regexes.some((r) => r.file === e.file && r.text === e.text))
    .map((e) => `${e.file} ${e.text}`);
  expect(stale).toEqual([]);
});

it('judges safe the patterns the reviewed RegExp constructions build today', () => {
  expect(built.length).toBeGreaterThan(5);
  const failures = built
    .filter((b) => verdictOf(b.pattern).status !== 'safe')
    .map((b) => `${b.file} builds ${patternKey(b.pattern)}: ${finding(verdictOf(b.pattern))}`);
  expect(failures).toEqual([]);
});

it('calls vulnerable the patterns round 8 and this sweep replaced, with an attack string', () => {
  for (const pattern of replaced) {
    expect(verdictOf(pattern)).toMatchObject({
      status: 'vulnerable',
      complexity: 'polynomial',
      attack: expect.any(String),
    });
  }
});
