import { createHash } from 'node:crypto';
import { and, eq } from 'drizzle-orm';
import yauzl from 'yauzl';
import { demoItems } from '../../scripts/seed/demo-catalog.data.js';
import { runSeed } from '../../scripts/seed/seed-steps.js';
import { catalogItems } from '../../shared/db/schema/index.js';
import { createHarness, type Harness } from '../support/harness.js';

let h: Harness;

beforeAll(async () => {
  h = await createHarness();
});
afterAll(async () => h.close());

const sha256 = (bytes: Buffer) => createHash('sha256').update(bytes).digest('hex');

/** GET of a bundle URL through the API (the local driver's /files route), its body as bytes. */
const download = async (url: string) => {
  const res = await h.http
    .get(new URL(url).pathname)
    .buffer(true)
    .parse((stream, done) => {
      const chunks: Buffer[] = [];
      stream.on('data', (chunk: Buffer) => chunks.push(chunk));
      stream.on('end', () => done(null, Buffer.concat(chunks)));
    });
  expect(res.status).toBe(200);
  return res.body as Buffer;
};

/** A zip's files and their text, read with yauzl (not the product's inspector). */
async function zipTexts(zip: Buffer): Promise<Record<string, string>> {
  const zipfile = await yauzl.fromBufferPromise(zip, { lazyEntries: true });
  const texts: Record<string, string> = {};
  for (let entry = await nextEntry(zipfile); entry; entry = await nextEntry(zipfile)) {
    const chunks: Buffer[] = [];
    for await (const chunk of await zipfile.openReadStreamPromise(entry)) chunks.push(chunk as Buffer);
    texts[entry.fileName] = Buffer.concat(chunks).toString('utf8');
  }
  return texts;
}

const nextEntry = (zipfile: yauzl.ZipFile) =>
  new Promise<yauzl.Entry | undefined>((resolve, reject) => {
    zipfile.once('entry', resolve);
    zipfile.once('end', () => resolve(undefined));
    zipfile.once('error', reject);
    zipfile.readEntry();
  });

type Bundle = { url: string; sha256: string; sizeBytes: number };
/** The demo catalog's skills (other files of this jest worker publish skills into the same database). */
const demoSkills = () =>
  demoItems
    .filter((item) => item.type === 'skill')
    .map((item) => item.slug)
    .sort();
const demoBundles = async () =>
  Promise.all(
    demoSkills().map(async (slug) => (await h.http.get(`/api/v1/skill/${slug}`)).body.currentVersion.bundle as Bundle),
  );

describe('the demo catalog seed step', () => {
  it('publishes items of every type with categories, tags and versions, and changes nothing when run again', async () => {
    const notes = await runSeed(h.ctx);
    expect(notes.join('\n')).toMatch(/demo catalog: (published \d+ demo items|demo items present)/);
    for (const type of ['mcp', 'skill', 'agent', 'soul']) {
      const list = await h.http.get(`/api/v1/${type}?source=official`);
      expect(list.body.total).toBeGreaterThanOrEqual(1);
      const categories = await h.http.get(`/api/v1/${type}/categories`);
      expect(categories.body.some((c: { count: number }) => c.count > 0)).toBe(true);
    }
    const github = await h.http.get('/api/v1/mcp/github');
    expect(github.body).toMatchObject({
      source: 'official',
      isFeatured: true,
      categories: ['developer-tools'],
      toolCount: 3,
      currentVersion: { version: '1.1.0' },
    });
    const skill = await h.http.get('/api/v1/skill/pdf-tables');
    expect(skill.body).toMatchObject({ source: 'user', executesCode: true });
    // The contents are what the review found in the stored bundle.
    expect(skill.body.currentVersion.bundleFiles.map((f: { path: string }) => f.path)).toEqual([
      'SKILL.md',
      'requirements.txt',
      'scripts/extract.py',
    ]);
    expect(skill.body.currentVersion.dependencies).toEqual([
      { name: 'pdfplumber', version: '>=0.11', source: 'requirements.txt' },
    ]);
    // executesCode is derived from the bundle's files when the parse leaves it open.
    expect((await h.http.get('/api/v1/skill/release-notes')).body.executesCode).toBe(false);
    const prompt = await h.http.get('/api/v1/soul/stoic-mentor/prompt.txt');
    expect(prompt.text).toMatch(/^# Stoic Mentor\n\nCalm, brief advice/);

    const bundles = await demoBundles();
    const again = await runSeed(h.ctx);
    expect(again).toContain('demo catalog: demo items present');
    // Run again, nothing is stored anew: the same bundles at the same URLs.
    expect(await demoBundles()).toEqual(bundles);
    const versions = await h.http.get('/api/v1/mcp/github/versions');
    expect(versions.body.map((v: { version: string }) => v.version)).toEqual(['1.1.0', '1.0.0']);
  });

  it('gives every demo skill a bundle that downloads, matches its SHA-256 and holds a SKILL.md named like the skill', async () => {
    await runSeed(h.ctx);
    const slugs = demoSkills();
    expect(slugs).toEqual(['pdf-tables', 'release-notes']);
    for (const slug of slugs) {
      const { currentVersion } = (await h.http.get(`/api/v1/skill/${slug}`)).body;
      const bundle = currentVersion.bundle as Bundle;
      expect(bundle).toEqual({
        url: expect.any(String),
        sha256: expect.stringMatching(/^[0-9a-f]{64}$/),
        sizeBytes: expect.any(Number),
      });
      const zip = await download(bundle.url);
      expect({ slug, sha256: sha256(zip), size: zip.length }).toEqual({
        slug,
        sha256: bundle.sha256,
        size: bundle.sizeBytes,
      });
      const entries = await zipTexts(zip);
      // One folder named like the skill, holding what the version lists.
      expect(Object.keys(entries).sort()).toEqual(
        currentVersion.bundleFiles.map((f: { path: string }) => `${slug}/${f.path}`),
      );
      expect(entries[`${slug}/SKILL.md`]).toMatch(new RegExp(`^---\nname: ${slug}\ndescription: `));
    }
    const notes = (await h.http.get('/api/v1/skill/release-notes')).body.currentVersion;
    expect(notes.parameters).toEqual([{ name: 'since', description: 'Tag or commit to start from', required: false }]);
    expect(notes.examples).toEqual([
      expect.objectContaining({ title: 'Release notes since v2.3.0', source: 'skill-md' }),
    ]);
  });

  // A start whose storage was not up yet left the skill's draft without a bundle, and every later start skipped it
  // because it existed: an unpublished, bundle-less draft for good.
  it('completes a demo skill that a start with storage down left behind', async () => {
    await runSeed(h.ctx);
    const releaseNotes = and(eq(catalogItems.type, 'skill'), eq(catalogItems.slug, 'release-notes'));
    await h.ctx.db.delete(catalogItems).where(releaseNotes);
    const storage = h.ctx.storage;
    const put = storage.put;
    storage.put = async () => {
      storage.put = put;
      throw new Error('storage not up yet');
    };
    try {
      await expect(runSeed(h.ctx)).rejects.toThrow('storage not up yet');
    } finally {
      storage.put = put;
    }
    const [left] = await h.ctx.db.select().from(catalogItems).where(releaseNotes);
    expect(left?.status).toBe('draft');

    expect((await runSeed(h.ctx)).join('\n')).toMatch(/demo catalog: published 1 demo items/);
    const published = await h.http.get('/api/v1/skill/release-notes');
    expect(published.status).toBe(200);
    const { currentVersion } = published.body;
    const bundle = currentVersion.bundle as Bundle;
    const zip = await download(bundle.url);
    expect([sha256(zip), zip.length]).toEqual([bundle.sha256, bundle.sizeBytes]);
    expect(currentVersion.bundleFiles.map((f: { path: string }) => f.path)).toContain('SKILL.md');
  });
});
