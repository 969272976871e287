import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { type BundleInspection, inspectSkillBundle } from '../../shared/skills/bundle-inspector.js';
import { buildZip, craftZip, skillMd } from '../support/zip-builders.js';

const problemsOf = (result: BundleInspection) => (result.ok ? [] : result.problems);

describe('skill bundle inspector against zip bombs and oversized bundles', () => {
  it('refuses a zip bomb: a tiny entry that inflates far beyond 100:1', async () => {
    const zip = await buildZip({ 'SKILL.md': skillMd(), 'zeros.bin': Buffer.alloc(20 * 1024 * 1024) });
    expect(zip.length).toBeLessThan(100_000);
    expect(problemsOf(await inspectSkillBundle(zip))).toEqual([
      expect.stringMatching(
        /^The entry "zeros\.bin" would inflate from .* to 20 MiB \(more than 100:1\), the signature of a zip bomb\.$/,
      ),
    ]);
  });

  it('refuses an entry whose declared size lies, stopping as soon as it inflates past it', async () => {
    const zip = craftZip([
      { name: 'SKILL.md', content: skillMd() },
      { name: 'small.txt', content: Buffer.alloc(30 * 1024 * 1024), declaredSize: 1000 },
    ]);
    // No clock in the assertion (machines are noisy): the problem names the forged size it stopped at.
    expect(problemsOf(await inspectSkillBundle(zip))).toEqual([
      'The entry "small.txt" declares 1000 bytes but inflates to more: its sizes are forged.',
    ]);
  });

  it('refuses a bundle whose declared total passes the uncompressed limit, without inflating it', async () => {
    const zip = craftZip([
      { name: 'SKILL.md', content: skillMd() },
      { name: 'huge.bin', content: Buffer.alloc(2000, 1), declaredSize: 60 * 1024 * 1024 },
    ]);
    expect(problemsOf(await inspectSkillBundle(zip))).toEqual([
      expect.stringMatching(/^The entry "huge\.bin" would inflate from .* to 60 MiB/),
      expect.stringMatching(/^The bundle declares 60\.0 MiB of uncompressed content; the limit is 50 MiB\.$/),
    ]);
  });

  it('refuses honest entries that add up past the uncompressed limit', async () => {
    let state = 1;
    const text = (seed: number) =>
      Buffer.from(
        Array.from({ length: 20_000 }, () => {
          state = (state * 1103515245 + 12345 + seed) % 2 ** 31;
          return state % 100_000;
        }).join(','),
      );
    const zip = await buildZip({ 'SKILL.md': skillMd(), 'a.csv': text(3), 'b.csv': text(7), 'c.csv': text(11) });
    const problems = problemsOf(await inspectSkillBundle(zip, { limits: { maxUncompressedBytes: 300_000 } }));
    expect(problems).toEqual([expect.stringMatching(/^The bundle declares .* of uncompressed content; the limit is/)]);
  });

  it('refuses entries that overlap inside the zip', async () => {
    const zip = craftZip([
      { name: 'SKILL.md', content: skillMd() },
      { name: 'again.md', content: skillMd(), offset: 0 },
    ]);
    expect(problemsOf(await inspectSkillBundle(zip))).toContain(
      'Entries of the bundle overlap one another inside the zip, a pattern used by zip bombs.',
    );
  });

  it('refuses a corrupt entry whose checksum does not match', async () => {
    const zip = craftZip([{ name: 'SKILL.md', content: skillMd(), crc: 12345 }]);
    expect(problemsOf(await inspectSkillBundle(zip))).toEqual([
      'The entry "SKILL.md" is corrupt: its CRC-32 checksum does not match its content.',
    ]);
  });

  it('refuses more than 500 entries', async () => {
    const files: Record<string, string> = { 'SKILL.md': skillMd() };
    for (let i = 0; i < 500; i++) files[`notes/${i}.txt`] = `${i}`;
    expect(problemsOf(await inspectSkillBundle(await buildZip(files)))).toEqual([
      'The bundle has 501 entries; the limit is 500 (folders included).',
    ]);
  });

  it('accepts exactly 500 entries', async () => {
    const files: Record<string, string> = { 'SKILL.md': skillMd() };
    for (let i = 0; i < 499; i++) files[`notes/${i}.txt`] = `${i}`;
    const result = await inspectSkillBundle(await buildZip(files));
    expect(result.ok && result.bundle.fileCount).toBe(500);
  });

  it('refuses a bundle larger than 10 MiB before opening it', async () => {
    expect(problemsOf(await inspectSkillBundle(Buffer.alloc(10 * 1024 * 1024 + 1)))).toEqual([
      'The bundle is 10.0 MiB; the limit is 10 MiB.',
    ]);
  });

  describe('never writes to disk', () => {
    it('has no file system or process import in any skill bundle module', async () => {
      const dir = fileURLToPath(new URL('../../shared/skills/', import.meta.url));
      const sources = (await readdir(dir)).filter((f) => f.endsWith('.ts'));
      expect(sources).toContain('bundle-inspector.ts');
      for (const file of sources) {
        const source = await readFile(path.join(dir, file), 'utf8');
        expect({
          file,
          imports: source.match(/from '(node:)?(fs|fs\/promises|child_process|worker_threads)'/g),
        }).toEqual({
          file,
          imports: null,
        });
      }
    });

    it('leaves the working folder empty while it inspects hostile bundles', async () => {
      const dir = await mkdtemp(path.join(tmpdir(), 'ockhub-inspect-'));
      const previous = process.cwd();
      process.chdir(dir);
      try {
        const bundles = [
          craftZip([
            { name: 'SKILL.md', content: skillMd() },
            { name: '../evil', content: 'x' },
          ]),
          craftZip([
            { name: 'SKILL.md', content: skillMd() },
            { name: 'ok/file.txt', content: 'hello' },
          ]),
          craftZip([
            { name: 'SKILL.md', content: skillMd() },
            { name: 'lnk', content: '/etc', method: 0, unixMode: 0o120777 },
          ]),
          await buildZip({ 'SKILL.md': skillMd(), 'zeros.bin': Buffer.alloc(5 * 1024 * 1024) }),
        ];
        for (const zip of bundles) await inspectSkillBundle(zip);
        expect(await readdir(dir, { recursive: true })).toEqual([]);
        expect(await readdir(path.dirname(dir))).not.toContain('evil');
      } finally {
        process.chdir(previous);
        await rm(dir, { recursive: true, force: true });
      }
    });
  });
});
