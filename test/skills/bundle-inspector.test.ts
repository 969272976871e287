import { type BundleInspection, inspectSkillBundle } from '../../shared/skills/bundle-inspector.js';
import { buildZip, craftZip, skillMd } from '../support/zip-builders.js';

const problemsOf = (result: BundleInspection) => (result.ok ? [] : result.problems);

describe('skill bundle inspector', () => {
  it('accepts a bundle with SKILL.md at the root and lists its files', async () => {
    const zip = await buildZip({
      'SKILL.md': skillMd(),
      'scripts/': '',
      'scripts/extract.py': 'print("hi")\n',
      'reference.md': 'x'.repeat(5000),
    });
    const result = await inspectSkillBundle(zip);
    if (!result.ok) throw new Error(result.problems.join('\n'));
    expect(result.bundle).toMatchObject({
      compressedBytes: zip.length,
      fileCount: 3,
      rootFolder: null,
      skillMdPath: 'SKILL.md',
      skillMd: skillMd(),
    });
    expect(result.bundle.files).toEqual([
      { path: 'SKILL.md', size: Buffer.byteLength(skillMd()) },
      { path: 'reference.md', size: 5000 },
      { path: 'scripts/extract.py', size: 12 },
    ]);
    expect(result.bundle.uncompressedBytes).toBe(Buffer.byteLength(skillMd()) + 5000 + 12);
  });

  it('accepts a zip of one folder and gives paths relative to that folder', async () => {
    const zip = await buildZip({
      'pdf-tools/': '',
      'pdf-tools/SKILL.md': skillMd(),
      'pdf-tools/requirements.txt': 'pdfplumber==0.11\n',
      '__MACOSX/pdf-tools/._SKILL.md': 'apple double',
    });
    const result = await inspectSkillBundle(zip, { captureText: (p) => p === 'requirements.txt' });
    if (!result.ok) throw new Error(result.problems.join('\n'));
    expect(result.bundle.rootFolder).toBe('pdf-tools');
    expect(result.bundle.skillMdPath).toBe('pdf-tools/SKILL.md');
    expect(result.bundle.files.map((f) => f.path)).toEqual(['SKILL.md', 'requirements.txt']);
    expect(result.bundle.texts).toEqual({ 'requirements.txt': 'pdfplumber==0.11\n' });
  });

  it.each([
    ['plain text', Buffer.from('this is not a zip at all')],
    ['an empty file', Buffer.alloc(0)],
    ['a PNG header', Buffer.from('89504e470d0a1a0a0000000d49484452', 'hex')],
  ])('refuses %s as not a zip', async (_label, bytes) => {
    expect(problemsOf(await inspectSkillBundle(bytes))).toEqual([
      expect.stringMatching(/^The file is not a valid \.zip archive/),
    ]);
  });

  it('refuses a zip whose end was cut off', async () => {
    const zip = await buildZip({ 'SKILL.md': skillMd() });
    const problems = problemsOf(await inspectSkillBundle(zip.subarray(0, zip.length - 30)));
    expect(problems).toHaveLength(1);
    expect(problems[0]).toMatch(/not a valid \.zip archive|damaged/);
  });

  it('refuses an entry that climbs out with ../', async () => {
    const zip = craftZip([
      { name: 'SKILL.md', content: skillMd() },
      { name: '../evil.sh', content: 'rm -rf ~' },
    ]);
    expect(problemsOf(await inspectSkillBundle(zip))).toEqual([
      'The entry "../evil.sh" has a ".." segment that points outside the bundle.',
    ]);
  });

  it('refuses absolute paths, drive letters, backslashes and control characters', async () => {
    const zip = craftZip([
      { name: 'SKILL.md', content: skillMd() },
      { name: '/abs/path', content: 'x' },
      { name: 'C:/Windows/evil.dll', content: 'x' },
      { name: 'scripts\\..\\..\\evil.bat', content: 'x' },
      { name: 'bell\u0007.txt', content: 'x' },
    ]);
    const problems = problemsOf(await inspectSkillBundle(zip));
    expect(problems).toEqual(
      expect.arrayContaining([
        'The entry "/abs/path" has an absolute path; paths must be relative.',
        'The entry "C:/Windows/evil.dll" starts with a drive letter; paths must be relative.',
        expect.stringMatching(/^The entry "scripts\\\\.*" has a backslash in its name/),
        expect.stringMatching(/^The entry "scripts\\\\.*" has a "\.\." segment/),
        'The entry "bell\\u0007.txt" has control characters in its name.',
      ]),
    );
  });

  // Security review #79's follow-up: a right-to-left override shows `notes\u202Edm.sh` as `noteshs.md`, a shell
  // script passing for notes; a zero-width space makes `read\u200Bme.md` look like `readme.md`.
  it.each([
    ['a right-to-left override', 'notes\u202Edm.sh', 'U+202E'],
    ['a right-to-left isolate', 'scripts/\u2067run\u2069.sh', 'U+2067'],
    ['a left-to-right mark', 'a\u200E.md', 'U+200E'],
    ['an Arabic letter mark', 'a\u061C.md', 'U+061C'],
    ['a zero-width space', 'read\u200Bme.md', 'U+200B'],
    ['a zero-width joiner between Latin letters', 'read\u200Dme.md', 'U+200D'],
    ['a word joiner', 'read\u2060me.md', 'U+2060'],
    ['a soft hyphen', 'read\u00ADme.md', 'U+00AD'],
    ['a variation selector', 'readme\uFE0F.md', 'U+FE0F'],
    ['a Unicode tag character', 'readme.md\u{E0020}', 'U+E0020'],
    ['a line separator', 'a\u2028b.md', 'U+2028'],
  ])('refuses an entry name with %s and shows it escaped', async (_label, name, codePoint) => {
    const zip = craftZip([
      { name: 'SKILL.md', content: skillMd() },
      { name, content: 'x' },
    ]);
    const problems = problemsOf(await inspectSkillBundle(zip));
    expect(problems).toEqual([
      expect.stringContaining(`has an invisible or direction-changing character (${codePoint}) in its name.`),
    ]);
    expect(problems[0]).toMatch(/^The entry "[\x20-\x7e]+" has/);
  });

  it('refuses a C1 control in an entry name', async () => {
    const zip = craftZip([
      { name: 'SKILL.md', content: skillMd() },
      { name: 'a\u0085b.md', content: 'x' },
    ]);
    expect(problemsOf(await inspectSkillBundle(zip))).toEqual([
      'The entry "a\\u0085b.md" has control characters in its name.',
    ]);
  });

  it('keeps entry names in other scripts, with emoji and with Persian ZWNJ', async () => {
    const names = ['docs/résumé.md', 'docs/東京.md', 'docs/👩\u200D💻 notes.md', 'docs/می\u200Cخواهم.md', 'docs/❤️.md'];
    const zip = craftZip([{ name: 'SKILL.md', content: skillMd() }, ...names.map((name) => ({ name, content: 'x' }))]);
    const result = await inspectSkillBundle(zip);
    if (!result.ok) throw new Error(result.problems.join('\n'));
    expect(result.bundle.files.map((f) => f.path).sort()).toEqual(['SKILL.md', ...names].sort());
  });

  it('refuses a symbolic link', async () => {
    const zip = craftZip([
      { name: 'SKILL.md', content: skillMd() },
      { name: 'secrets', content: '/etc/passwd', method: 0, unixMode: 0o120777 },
    ]);
    expect(problemsOf(await inspectSkillBundle(zip))).toEqual([
      'The entry "secrets" is a symbolic link; links are not allowed.',
    ]);
  });

  it('refuses device files and FIFOs', async () => {
    const zip = craftZip([
      { name: 'SKILL.md', content: skillMd() },
      { name: 'pipe', unixMode: 0o010644 },
    ]);
    expect(problemsOf(await inspectSkillBundle(zip))).toEqual([
      'The entry "pipe" is a device, FIFO or socket; only regular files and folders are allowed.',
    ]);
  });

  it('refuses an encrypted entry', async () => {
    const zip = craftZip([
      { name: 'SKILL.md', content: skillMd() },
      { name: 'payload.bin', content: Buffer.alloc(64, 7), flags: 0x1 },
    ]);
    expect(problemsOf(await inspectSkillBundle(zip))).toEqual([
      'The entry "payload.bin" is encrypted; encrypted entries are not allowed.',
    ]);
  });

  it('refuses a bundle with no SKILL.md', async () => {
    const zip = await buildZip({ 'README.md': '# hello' });
    expect(problemsOf(await inspectSkillBundle(zip))).toEqual([
      'The bundle has no SKILL.md; put SKILL.md at the root of the zip or in its single top-level folder.',
    ]);
  });

  it('says when SKILL.md is misspelt or too deep', async () => {
    expect(problemsOf(await inspectSkillBundle(await buildZip({ 'skill.md': skillMd() })))).toEqual([
      'The bundle has no SKILL.md: found "skill.md", but the file must be named SKILL.md exactly.',
    ]);
    expect(problemsOf(await inspectSkillBundle(await buildZip({ 'a/b/SKILL.md': skillMd() })))).toEqual([
      'The bundle has no SKILL.md at its root or in its top-level folder (found "a/b/SKILL.md" deeper down); zip the skill folder itself.',
    ]);
  });

  it.each([[['SKILL.md', 'other/SKILL.md']], [['one/SKILL.md', 'two/SKILL.md']]])(
    'refuses two SKILL.md files (%j)',
    async (names) => {
      const zip = await buildZip(Object.fromEntries(names.map((n) => [n, skillMd()])));
      expect(problemsOf(await inspectSkillBundle(zip))).toEqual([
        `The bundle has 2 SKILL.md files (${names.map((n) => JSON.stringify(n)).join(', ')}); it must have exactly one, at the root of the zip or in its single top-level folder.`,
      ]);
    },
  );

  it('refuses files outside the folder that holds SKILL.md', async () => {
    const zip = await buildZip({ 'pdf-tools/SKILL.md': skillMd(), 'stray.txt': 'x' });
    expect(problemsOf(await inspectSkillBundle(zip))).toEqual([
      'SKILL.md is in the folder "pdf-tools/", so every file must be inside that folder; found outside it: "stray.txt".',
    ]);
  });

  it('refuses the same path twice', async () => {
    const zip = craftZip([
      { name: 'SKILL.md', content: skillMd() },
      { name: 'run.sh', content: 'echo one' },
      { name: 'run.sh', content: 'echo two' },
    ]);
    expect(problemsOf(await inspectSkillBundle(zip))).toEqual(['The entry "run.sh" appears more than once.']);
  });

  it.each([
    [
      ['README.md', 'readme.md'],
      ['README.md', 'readme.md'],
    ],
    [
      ['docs/Guide.md', 'docs/guide.md'],
      ['docs/Guide.md', 'docs/guide.md'],
    ],
    [
      ['Docs/a.md', 'docs/b.md'],
      ['Docs/', 'docs/'],
    ],
    [
      ['caf\u00e9.md', 'cafe\u0301.md'],
      ['caf\u00e9.md', 'cafe\u0301.md'],
    ],
  ])('refuses two paths equal but for letter case (%j)', async (names, shown) => {
    const zip = await buildZip({ 'SKILL.md': skillMd(), ...Object.fromEntries(names.map((n) => [n, 'x'])) });
    const [first, second] = shown.map((n) => JSON.stringify(n));
    expect(problemsOf(await inspectSkillBundle(zip))).toEqual([
      `The entries ${first} and ${second} differ only by letter case; unpacked on a case-insensitive file system (macOS, Windows) one would overwrite the other.`,
    ]);
  });

  it('accepts a folder entry with its files, and names that differ by more than case', async () => {
    const zip = await buildZip({
      'SKILL.md': skillMd(),
      'docs/': '',
      'docs/a.md': 'x',
      'docs-old/a.md': 'y',
      'A.md': 'z',
    });
    expect(problemsOf(await inspectSkillBundle(zip))).toEqual([]);
  });

  it('refuses a SKILL.md that is not UTF-8 text', async () => {
    const zip = await buildZip({ 'SKILL.md': Buffer.from([0x2d, 0x2d, 0x2d, 0x0a, 0xff, 0xfe, 0xfd]) });
    expect(problemsOf(await inspectSkillBundle(zip))).toEqual(['SKILL.md is not valid UTF-8 text.']);
  });

  it('reports every problem of a bundle at once', async () => {
    const zip = craftZip([
      { name: '../evil', content: 'x' },
      { name: '/abs/path', content: 'x' },
      { name: 'link', content: '/etc', method: 0, unixMode: 0o120777 },
      { name: 'locked', content: 'x', flags: 0x1 },
    ]);
    const problems = problemsOf(await inspectSkillBundle(zip));
    expect(problems).toEqual([
      'The entry "../evil" has a ".." segment that points outside the bundle.',
      'The entry "/abs/path" has an absolute path; paths must be relative.',
      'The entry "link" is a symbolic link; links are not allowed.',
      'The entry "locked" is encrypted; encrypted entries are not allowed.',
      'The bundle has no SKILL.md; put SKILL.md at the root of the zip or in its single top-level folder.',
    ]);
  });

  it('caps a long list of problems and says how many more there are', async () => {
    const zip = craftZip(Array.from({ length: 60 }, (_, i) => ({ name: `../evil-${i}`, content: 'x' })));
    const problems = problemsOf(await inspectSkillBundle(zip));
    expect(problems).toHaveLength(51);
    expect(problems[50]).toBe('... and 11 more problems.');
  });
});
