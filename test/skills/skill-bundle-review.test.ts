import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Readable } from 'node:stream';
import { loadConfig } from '../../shared/config/index.js';
import { SKILL_BUNDLE_LIMITS } from '../../shared/skills/bundle-limits.js';
import { reviewSkillBundle } from '../../shared/skills/skill-bundle-review.js';
import { createStorage, type ObjectStorage } from '../../shared/storage/index.js';
import { buildZip, craftZip, skillMd } from '../support/zip-builders.js';

describe('skill bundle review (stored bundle to catalog fields)', () => {
  let root: string;
  let storage: ObjectStorage;

  beforeAll(async () => {
    root = await mkdtemp(path.join(tmpdir(), 'ockhub-review-'));
    storage = createStorage(loadConfig({ STORAGE_LOCAL_DIR: root }));
  });
  afterAll(async () => {
    await rm(root, { recursive: true, force: true });
  });

  async function storeAndReview(zip: Buffer) {
    const stored = await storage.put('skills/s1/versions/v1/bundle.zip', Readable.from([zip]), {
      contentType: 'application/zip',
      maxBytes: SKILL_BUNDLE_LIMITS.maxCompressedBytes,
    });
    const bytes = await storage.getBuffer(stored.key, SKILL_BUNDLE_LIMITS.maxCompressedBytes);
    return reviewSkillBundle(bytes);
  }

  it('turns a valid stored bundle into the version fields', async () => {
    const review = await storeAndReview(
      await buildZip({
        'pdf-tools/SKILL.md': skillMd('pdf-tools', 'Extracts text from PDFs.', 'dependencies: [pdfplumber]\n'),
        'pdf-tools/scripts/extract.py': 'import pdfplumber\n',
      }),
    );
    if (!review.ok) throw new Error(review.problems.join('\n'));
    expect(review.frontMatter).toMatchObject({ name: 'pdf-tools', description: 'Extracts text from PDFs.' });
    expect(review.bundle.fileCount).toBe(2);
    expect(review.manifest).toEqual({
      bundleFiles: [
        { path: 'SKILL.md', size: expect.any(Number) },
        { path: 'scripts/extract.py', size: 18 },
      ],
      parameters: [],
      dependencies: [{ name: 'pdfplumber', source: 'frontmatter' }],
      examples: [],
    });
  });

  it('refuses at review a bundle holding two paths equal but for letter case, saying why', async () => {
    const review = await storeAndReview(
      await buildZip({ 'SKILL.md': skillMd(), 'scripts/run.sh': 'echo a', 'scripts/RUN.sh': 'echo b' }),
    );
    expect(review).toEqual({
      ok: false,
      problems: [
        'The entries "scripts/run.sh" and "scripts/RUN.sh" differ only by letter case; unpacked on a case-insensitive file system (macOS, Windows) one would overwrite the other.',
      ],
    });
  });

  it('gives the bundle problems when the zip itself is refused', async () => {
    const review = await storeAndReview(craftZip([{ name: '../evil', content: 'x' }]));
    expect(review).toEqual({
      ok: false,
      problems: [
        'The entry "../evil" has a ".." segment that points outside the bundle.',
        'The bundle has no SKILL.md; put SKILL.md at the root of the zip or in its single top-level folder.',
      ],
    });
  });

  it('gives every SKILL.md problem as reasons for changes_requested', async () => {
    const review = await storeAndReview(await buildZip({ 'SKILL.md': skillMd('PDF-Tools', 'd'.repeat(1100)) }));
    expect(review).toEqual({
      ok: false,
      problems: [
        '`name` "PDF-Tools" must be lowercase.',
        '`description` must be at most 1024 characters (it has 1100).',
      ],
    });
  });

  it('refuses front matter that is not YAML', async () => {
    const review = await storeAndReview(await buildZip({ 'SKILL.md': '---\nname: [oops\n---\nbody\n' }));
    expect(review.ok).toBe(false);
    expect(!review.ok && review.problems[0]).toMatch(/^The SKILL.md front matter is not valid YAML/);
  });
});
