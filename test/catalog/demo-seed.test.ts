import { runSeed } from '../../scripts/seed/seed-steps.js';
import { createHarness, type Harness } from '../support/harness.js';

let h: Harness;

beforeAll(async () => {
  h = await createHarness();
});
afterAll(async () => h.close());

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
    expect(skill.body.currentVersion.bundleFiles).toHaveLength(2);
    // executesCode is derived from the bundle's files when the parse leaves it open.
    expect((await h.http.get('/api/v1/skill/release-notes')).body.executesCode).toBe(false);
    const prompt = await h.http.get('/api/v1/soul/stoic-mentor/prompt.txt');
    expect(prompt.text).toMatch(/^# Stoic Mentor\n\nCalm, brief advice/);

    const again = await runSeed(h.ctx);
    expect(again).toContain('demo catalog: demo items present');
    const versions = await h.http.get('/api/v1/mcp/github/versions');
    expect(versions.body.map((v: { version: string }) => v.version)).toEqual(['1.1.0', '1.0.0']);
  });
});
