// Security review #130: entry names past the length limit, which a Publisher's upload has inspected on the API's main
// loop. V8 hashes a string of more than 16,383 characters by its length alone, so long names of one length collide
// in any Set or Map; and the case check built every folder of a name, quadratic in its segments. A name past the
// limit is refused for its length and kept out of both. No clock here: the work is observed by what it touches.
import { type BundleInspection, inspectSkillBundle } from '../../shared/skills/bundle-inspector.js';
import { SKILL_BUNDLE_LIMITS } from '../../shared/skills/bundle-limits.js';
import { craftZip, skillMd } from '../support/zip-builders.js';

const problemsOf = (result: BundleInspection) => (result.ok ? [] : result.problems);

/** Runs `work` and returns the longest string it put into (or looked up in) a Set or Map, or normalised. */
async function longestKeyed<T>(work: () => Promise<T>): Promise<{ result: T; longest: number }> {
  let longest = 0;
  const seen = (value: unknown) => {
    if (typeof value === 'string') longest = Math.max(longest, value.length);
  };
  const originals = {
    setAdd: Set.prototype.add,
    setHas: Set.prototype.has,
    mapSet: Map.prototype.set,
    mapGet: Map.prototype.get,
    normalize: String.prototype.normalize,
  };
  Set.prototype.add = function (this: Set<unknown>, value: unknown) {
    seen(value);
    return originals.setAdd.call(this, value);
  };
  Set.prototype.has = function (this: Set<unknown>, value: unknown) {
    seen(value);
    return originals.setHas.call(this, value);
  };
  Map.prototype.set = function (this: Map<unknown, unknown>, key: unknown, value: unknown) {
    seen(key);
    return originals.mapSet.call(this, key, value);
  };
  Map.prototype.get = function (this: Map<unknown, unknown>, key: unknown) {
    seen(key);
    return originals.mapGet.call(this, key);
  };
  String.prototype.normalize = function (this: string, form?: string) {
    seen(String(this));
    return originals.normalize.call(this, form);
  };
  try {
    return { result: await work(), longest };
  } finally {
    Set.prototype.add = originals.setAdd;
    Set.prototype.has = originals.setHas;
    Map.prototype.set = originals.mapSet;
    Map.prototype.get = originals.mapGet;
    String.prototype.normalize = originals.normalize;
  }
}

describe('skill bundle entry names past the length limit (security review #130)', () => {
  it('refuses them for their length without entering them into a Set or Map or walking their folders', async () => {
    // 8,200 folders: 16,406 characters, past the 16,383 that V8 hashes by content.
    const long = (i: number) => `${'a/'.repeat(8_200)}${i}.txt`;
    const zip = craftZip([
      { name: 'SKILL.md', content: skillMd() },
      { name: long(1), content: 'x' },
      { name: long(2), content: 'x' },
      { name: long(2), content: 'x' },
    ]);
    const { result, longest } = await longestKeyed(() => inspectSkillBundle(zip));
    expect(longest).toBeLessThanOrEqual(SKILL_BUNDLE_LIMITS.maxPathLength);
    const problems = problemsOf(result);
    expect(problems).toHaveLength(3);
    for (const problem of problems) {
      expect(problem).toMatch(/^The entry "a\/a\/.*\.\.\." has a name longer than 255 characters\.$/);
    }
  });

  it('still reports names within the limit that repeat or differ only by letter case', async () => {
    const zip = craftZip([
      { name: 'SKILL.md', content: skillMd() },
      { name: 'docs/Guide.md', content: 'x' },
      { name: 'docs/guide.md', content: 'x' },
      { name: 'docs/guide.md', content: 'x' },
    ]);
    expect(problemsOf(await inspectSkillBundle(zip))).toEqual([
      'The entries "docs/Guide.md" and "docs/guide.md" differ only by letter case; unpacked on a case-insensitive ' +
        'file system (macOS, Windows) one would overwrite the other.',
      'The entry "docs/guide.md" appears more than once.',
    ]);
  });
});
