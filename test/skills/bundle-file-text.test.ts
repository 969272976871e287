// One file of a bundle as text for its reviewers: only files the inspection accepts, at most 256 KiB of it (a
// character the cut splits is left out), and a binary file is said to be binary, with no bytes.
import { MAX_SHOWN_FILE_BYTES, readBundleFileText } from '../../shared/skills/bundle-file-text.js';
import { buildZip, craftZip, skillMd } from '../support/zip-builders.js';

describe('reading one file of a skill bundle', () => {
  it("answers SKILL.md's exact text and a script's, by their paths relative to the skill root", async () => {
    const zip = await buildZip({
      'pdf-tools/': '',
      'pdf-tools/SKILL.md': skillMd(),
      'pdf-tools/scripts/run.py': 'print("héllo")\n',
    });
    expect(await readBundleFileText(zip, 'SKILL.md')).toEqual({
      path: 'SKILL.md',
      size: Buffer.byteLength(skillMd()),
      binary: false,
      text: skillMd(),
      truncated: false,
    });
    expect(await readBundleFileText(zip, 'scripts/run.py')).toMatchObject({ text: 'print("héllo")\n', size: 16 });
    // The zip's own name is not the reviewers' path.
    expect(await readBundleFileText(zip, 'pdf-tools/SKILL.md')).toBeNull();
  });

  it('shows the first 256 KiB of a larger file, without half a character, and says it was cut', async () => {
    // "é" is two bytes: the cut at an odd byte falls inside one.
    const long = `x${'é'.repeat(MAX_SHOWN_FILE_BYTES)}`;
    // Stored, not deflated: a repeated character compresses past the 100:1 a bundle may hold.
    const zip = await buildZip({ 'SKILL.md': skillMd(), 'notes.md': long }, { compress: false });
    const file = await readBundleFileText(zip, 'notes.md');
    if (!file || file.binary) throw new Error('expected text');
    expect(file).toMatchObject({ size: Buffer.byteLength(long), truncated: true });
    expect(file.text).toBe(`x${'é'.repeat((MAX_SHOWN_FILE_BYTES - 2) / 2)}`);
    expect(file.text).not.toContain('\uFFFD');
  });

  it('says a binary file is binary and answers none of its bytes', async () => {
    const png = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0x00, 0x00, 0xff, 0xfe]);
    const zip = await buildZip({ 'SKILL.md': skillMd(), 'icon.png': png, 'nul.sh': 'echo a\0b\n' });
    expect(await readBundleFileText(zip, 'icon.png')).toEqual({
      path: 'icon.png',
      size: png.length,
      binary: true,
      truncated: false,
    });
    // A NUL byte in valid UTF-8 is still text (bash runs past it), as the inspection reads it.
    expect(await readBundleFileText(zip, 'nul.sh')).toMatchObject({ binary: false, text: 'echo a\0b\n' });
  });

  it('reads no entry the inspection refuses or leaves out: folders, __MACOSX, links, unknown paths', async () => {
    const zip = await buildZip({
      'pdf-tools/': '',
      'pdf-tools/SKILL.md': skillMd(),
      '__MACOSX/pdf-tools/._SKILL.md': 'apple double',
    });
    for (const path of ['', 'missing.md', '../SKILL.md', '__MACOSX/pdf-tools/._SKILL.md', 'pdf-tools/']) {
      expect(await readBundleFileText(zip, path)).toBeNull();
    }
    const linked = craftZip([
      { name: 'SKILL.md', content: skillMd() },
      { name: 'secret', content: '/etc/passwd', unixMode: 0o120777 },
    ]);
    expect(await readBundleFileText(linked, 'secret')).toBeNull();
    expect(await readBundleFileText(Buffer.from('not a zip'), 'SKILL.md')).toBeNull();
  });
});
