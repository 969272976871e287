import {
  type Actors,
  createActors,
  createCategory,
  createDraft,
  publishItem,
  submit,
  uniqueSlug,
} from '../support/catalog-factory.js';
import { createHarness, type Harness } from '../support/harness.js';
import { bearer } from '../support/identity.js';

let h: Harness;
let a: Actors;
let tag: string;

const problem = (res: { text: string }) => JSON.parse(res.text);

const mcpVersion = {
  version: '1.0.0',
  readme: '# Weather\n\nAsk for forecasts.',
  sourceUrl: 'https://github.com/example/weather-mcp',
  connections: [{ transport: 'streamable-http', url: 'https://mcp.example.com/weather' }],
  tools: [
    { name: 'forecast', description: 'Forecast for a city', inputSchema: { type: 'object' } },
    { name: 'alerts', description: 'Weather alerts' },
  ],
  resources: [{ name: 'stations', uri: 'weather://stations' }],
  prompts: [{ name: 'daily-brief' }],
  configFields: [{ name: 'API_KEY', type: 'secret', required: true }],
  permissions: ['network'],
};

beforeAll(async () => {
  h = await createHarness();
  a = await createActors(h);
  tag = uniqueSlug('reads');
});
afterAll(async () => h.close());

describe('GET /api/v1/{type}', () => {
  it('answers the paged envelope of summaries with exactly the seed fields, nulls omitted', async () => {
    const mcp = await publishItem(h, a, 'mcp', { tags: [tag], version: mcpVersion });
    const res = await h.http.get(`/api/v1/mcp?tag=${tag}`);
    expect(res.status).toBe(200);
    expect(res.headers['content-type']).toMatch(/^application\/json/);
    expect(res.body).toMatchObject({ page: 1, pageSize: 20, total: 1, hasNext: false });
    const [summary] = res.body.items;
    expect(Object.keys(summary).sort()).toEqual(
      [
        'id',
        'slug',
        'name',
        'summary',
        'publisherName',
        'source',
        'isOfficial',
        'isFeatured',
        'installCount',
        'viewCount',
        'ratingAverage',
        'tags',
        'categories',
        'updatedAt',
        'publishedAt',
        'primaryTransport',
        'toolCount',
      ].sort(),
    );
    expect(summary).toMatchObject({
      id: mcp.id,
      slug: mcp.slug,
      source: 'user',
      isOfficial: false,
      isFeatured: false,
      primaryTransport: 'streamable-http',
      toolCount: 2,
      tags: [tag],
      categories: [],
      ratingAverage: 0,
    });
    expect(summary).not.toHaveProperty('iconUrl');
  });

  it('gives executesCode only to skills and no MCP fields to agents or souls', async () => {
    await publishItem(h, a, 'skill', { tags: [tag] });
    await publishItem(h, a, 'agent', { tags: [tag] });
    const skill = (await h.http.get(`/api/v1/skill?tag=${tag}`)).body.items[0];
    const agent = (await h.http.get(`/api/v1/agent?tag=${tag}`)).body.items[0];
    expect(skill).not.toHaveProperty('primaryTransport');
    expect(skill).not.toHaveProperty('toolCount');
    // Approval waits for the bundle's parse; the factory's stand-in parse found no files, so no code runs.
    expect(skill.executesCode).toBe(false);
    expect(agent).not.toHaveProperty('primaryTransport');
    expect(agent).not.toHaveProperty('executesCode');
  });

  it('never lists drafts or items in review', async () => {
    await createDraft(h, a, 'agent', { tags: [tag] });
    const reviewed = await createDraft(h, a, 'agent', { tags: [tag] });
    await submit(h, a, 'agent', reviewed.id).expect(200);
    const res = await h.http.get(`/api/v1/agent?tag=${tag}`);
    expect(res.body.total).toBe(1);
  });
});

describe('GET /api/v1/{type}/{slug}', () => {
  it('answers the detail with stats and the current version in full', async () => {
    const item = await publishItem(h, a, 'mcp', { version: mcpVersion, description: 'All about weather.' });
    const res = await h.http.get(`/api/v1/mcp/${item.slug}`);
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({
      id: item.id,
      slug: item.slug,
      type: 'mcp',
      description: 'All about weather.',
      publisherSlug: a.namespace,
      stats: { viewCount: 0, installCount: 0, usageCount: 0, favoriteCount: 0, ratingCount: 0, ratingAverage: 0 },
      currentVersion: {
        version: '1.0.0',
        readme: mcpVersion.readme,
        sourceUrl: mcpVersion.sourceUrl,
        connections: mcpVersion.connections,
        tools: mcpVersion.tools,
        resources: mcpVersion.resources,
        prompts: mcpVersion.prompts,
        permissions: ['network'],
      },
    });
    expect(res.body.currentVersion.configFields).toEqual([{ name: 'API_KEY', type: 'secret', required: true }]);
  });

  it('answers 404 Mcp.NotFound for an unknown slug, an unpublished item and an invalid slug', async () => {
    const draft = await createDraft(h, a, 'mcp');
    for (const slug of ['no-such-item', draft.slug, 'Not_A_Slug']) {
      const res = await h.http.get(`/api/v1/mcp/${slug}`);
      expect(res.status).toBe(404);
      expect(res.headers['content-type']).toMatch(/^application\/problem\+json/);
      expect(problem(res)).toMatchObject({ title: 'Mcp.NotFound', status: 404 });
    }
    expect(problem(await h.http.get('/api/v1/skill/no-such-skill')).title).toBe('Skill.NotFound');
  });

  it('answers 404 in problem shape for an unknown {type}', async () => {
    for (const path of ['/api/v1/widgets', '/api/v1/widgets/some-slug', '/api/v1/widgets/categories']) {
      const res = await h.http.get(path);
      expect(res.status).toBe(404);
      expect(res.headers['content-type']).toMatch(/^application\/problem\+json/);
      expect(problem(res)).toMatchObject({ status: 404, title: expect.stringContaining('NotFound') });
    }
  });
});

describe('GET /api/v1/{type}/{slug}/versions', () => {
  it('lists published versions newest first and reads one by its version string', async () => {
    const item = await publishItem(h, a, 'agent', {
      version: {
        version: '1.0.0',
        packageUrl: 'https://example.com/agent-1.0.0.tgz',
        checksum: `sha256:${'b'.repeat(64)}`,
      },
    });
    await h.http
      .post(`/api/v1/publisher/agent/${item.id}/versions`)
      .set(bearer(a.publisher.session))
      .send({ version: '1.1.0', changelog: 'Faster.' })
      .expect(200);
    // 1.1.0 is a draft: not listed yet.
    expect(
      (await h.http.get(`/api/v1/agent/${item.slug}/versions`)).body.map((v: { version: string }) => v.version),
    ).toEqual(['1.0.0']);
    await submit(h, a, 'agent', item.id).expect(200);
    await h.http.post(`/api/v1/moderation/agent/${item.id}/approve`).set(bearer(a.moderator.session)).expect(200);
    const versions = await h.http.get(`/api/v1/agent/${item.slug}/versions`);
    expect(versions.body.map((v: { version: string }) => v.version)).toEqual(['1.1.0', '1.0.0']);
    expect(versions.body[0]).toMatchObject({ version: '1.1.0', changelog: 'Faster.', publishedAt: expect.any(String) });

    const one = await h.http.get(`/api/v1/agent/${item.slug}/versions/1.0.0`);
    expect(one.status).toBe(200);
    expect(one.body).toMatchObject({
      version: '1.0.0',
      packageUrl: 'https://example.com/agent-1.0.0.tgz',
      checksum: `sha256:${'b'.repeat(64)}`,
      license: 'MIT',
    });
    expect(one.body).not.toHaveProperty('tools');
  });

  it('answers 404 Version.NotFound for an unknown version and 400 Version.Invalid for a non-semver one', async () => {
    const item = await publishItem(h, a, 'agent');
    const missing = await h.http.get(`/api/v1/agent/${item.slug}/versions/9.9.9`);
    expect(missing.status).toBe(404);
    expect(problem(missing).title).toBe('Version.NotFound');
    const invalid = await h.http.get(`/api/v1/agent/${item.slug}/versions/latest`);
    expect(invalid.status).toBe(400);
    expect(problem(invalid).title).toBe('Version.Invalid');
    const unknownItem = await h.http.get('/api/v1/agent/no-such-agent/versions');
    expect(problem(unknownItem).title).toBe('Agent.NotFound');
  });
});

describe('GET /api/v1/{type}/categories', () => {
  it('counts only published items of the type', async () => {
    const category = await createCategory(h, 'skill', 'tools');
    const empty = await createCategory(h, 'skill', 'empty');
    await publishItem(h, a, 'skill', { categories: [category] });
    await publishItem(h, a, 'skill', { categories: [category] });
    await createDraft(h, a, 'skill', { categories: [category] });
    const res = await h.http.get('/api/v1/skill/categories');
    expect(res.status).toBe(200);
    const bySlug = Object.fromEntries(res.body.map((c: { slug: string }) => [c.slug, c]));
    expect(bySlug[category]).toEqual({ slug: category, name: `Category ${category}`, count: 2 });
    expect(bySlug[empty]).toEqual({ slug: empty, name: `Category ${empty}`, count: 0 });
    const mcp = await h.http.get('/api/v1/mcp/categories');
    expect(mcp.body.map((c: { slug: string }) => c.slug)).not.toContain(category);
  });
});

describe('GET /api/v1/soul/{slug}/prompt.txt', () => {
  it('answers name, summary and the published SOUL.md as text/markdown', async () => {
    const soul = await publishItem(h, a, 'soul', {
      name: 'Stoic Mentor',
      summary: 'Calm advice in the manner of Epictetus.',
      version: { version: '1.0.0', soulMd: 'You are calm.\n\nYou answer briefly.\n' },
    });
    const res = await h.http.get(`/api/v1/soul/${soul.slug}/prompt.txt`);
    expect(res.status).toBe(200);
    expect(res.headers['content-type']).toBe('text/markdown; charset=utf-8');
    expect(res.text).toBe(
      '# Stoic Mentor\n\nCalm advice in the manner of Epictetus.\n\nYou are calm.\n\nYou answer briefly.\n',
    );
  });

  it('falls back to the description when the version has no SOUL.md', async () => {
    const soul = await publishItem(h, a, 'soul', { name: 'Plain', summary: 'Short.', description: 'The description.' });
    const res = await h.http.get(`/api/v1/soul/${soul.slug}/prompt.txt`);
    expect(res.text).toBe('# Plain\n\nShort.\n\nThe description.\n');
  });

  it('exists only for souls, and only for published ones', async () => {
    const agent = await publishItem(h, a, 'agent');
    const notSoul = await h.http.get(`/api/v1/agent/${agent.slug}/prompt.txt`);
    expect(notSoul.status).toBe(404);
    // The path the client asked for, whole (it said `GET /{slug}/prompt.txt`, the path inside the catalog's router).
    expect(problem(notSoul)).toMatchObject({
      title: 'Route.NotFound',
      detail: `No route for GET /api/v1/agent/${agent.slug}/prompt.txt; prompt.txt is for souls.`,
    });
    const draft = await createDraft(h, a, 'soul');
    const res = await h.http.get(`/api/v1/soul/${draft.slug}/prompt.txt`);
    expect(res.status).toBe(404);
    expect(problem(res).title).toBe('Soul.NotFound');
  });
});

describe('ETag and Cache-Control on public reads', () => {
  it('answers 304 to a matching If-None-Match and a new ETag once the content changes', async () => {
    const soul = await publishItem(h, a, 'soul', { tags: [tag] });
    const paths = [
      `/api/v1/soul?tag=${tag}`,
      '/api/v1/soul/categories',
      `/api/v1/soul/${soul.slug}`,
      `/api/v1/soul/${soul.slug}/versions`,
      `/api/v1/soul/${soul.slug}/versions/1.0.0`,
      `/api/v1/soul/${soul.slug}/prompt.txt`,
    ];
    for (const path of paths) {
      const first = await h.http.get(path);
      expect(first.status).toBe(200);
      expect(first.headers.etag).toMatch(/^"[\w-]+"$/);
      expect(first.headers['cache-control']).toBe('public, max-age=30, stale-while-revalidate=60');
      const again = await h.http.get(path).set('If-None-Match', first.headers.etag as string);
      expect(again.status).toBe(304);
      expect(again.text).toBe('');
      expect(again.headers.etag).toBe(first.headers.etag);
      const weakList = await h.http.get(path).set('If-None-Match', `"other", W/${first.headers.etag}`);
      expect(weakList.status).toBe(304);
      expect((await h.http.get(path).set('If-None-Match', '"stale"')).status).toBe(200);
    }
    const before = await h.http.get(`/api/v1/soul?tag=${tag}`);
    await publishItem(h, a, 'soul', { tags: [tag] });
    const after = await h.http.get(`/api/v1/soul?tag=${tag}`).set('If-None-Match', before.headers.etag as string);
    expect(after.status).toBe(200);
    expect(after.headers.etag).not.toBe(before.headers.etag);
    expect(after.body.total).toBe(2);
  });
});
