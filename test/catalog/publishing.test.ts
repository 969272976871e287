import { sql } from 'drizzle-orm';
import {
  type Actors,
  createActors,
  createCategory,
  createDraft,
  draftBody,
  publishItem,
  uniqueSlug,
} from '../support/catalog-factory.js';
import { createHarness, type Harness } from '../support/harness.js';
import { bearer, createUser, type TestUser } from '../support/identity.js';

let h: Harness;
let a: Actors;

const problem = (res: { text: string }) => JSON.parse(res.text);
const as = (user: TestUser) => bearer(user.session);

const detail = async (type: string, id: string) =>
  (await h.http.get(`/api/v1/publisher/${type}/${id}`).set(as(a.publisher))).body;

beforeAll(async () => {
  h = await createHarness();
  a = await createActors(h);
});
afterAll(async () => h.close());

describe('publisher namespaces', () => {
  it('creates a namespace owned by the caller and lists only the own ones', async () => {
    const slug = uniqueSlug('acme');
    const created = await h.http.post('/api/v1/publisher/publishers').set(as(a.publisher)).send({ slug, name: 'Acme' });
    expect(created.status).toBe(200);
    expect(created.body).toMatchObject({ id: expect.any(String), slug, name: 'Acme', verified: false });
    const mine = await h.http.get('/api/v1/publisher/publishers').set(as(a.publisher));
    expect(mine.body.map((p: { slug: string }) => p.slug)).toEqual(expect.arrayContaining([slug, a.namespace]));
    const other = await createUser(h, { roles: ['Publisher'] });
    const theirs = await h.http.get('/api/v1/publisher/publishers').set(as(other));
    expect(theirs.body).toEqual([]);
  });

  it('answers 409 Publisher.SlugExists for a taken slug and 400 Publisher.Invalid for a bad one', async () => {
    const taken = await h.http
      .post('/api/v1/publisher/publishers')
      .set(as(a.publisher))
      .send({ slug: a.namespace, name: 'Again' });
    expect(taken.status).toBe(409);
    expect(problem(taken).title).toBe('Publisher.SlugExists');
    for (const payload of [{ slug: 'Bad Slug', name: 'x' }, { slug: 'ok-slug' }, { slug: 'a', name: 'x' }]) {
      const res = await h.http.post('/api/v1/publisher/publishers').set(as(a.publisher)).send(payload);
      expect(res.status).toBe(400);
      expect(problem(res).title).toBe('Publisher.Invalid');
    }
  });
});

describe('role checks on publisher routes', () => {
  it('answers 401 without credentials and 403 Auth.Forbidden without the Publisher role', async () => {
    const routes: [string, string][] = [
      ['get', '/api/v1/publisher/publishers'],
      ['post', '/api/v1/publisher/publishers'],
      ['get', '/api/v1/publisher/mcp/mine'],
      ['post', '/api/v1/publisher/mcp/drafts'],
      ['get', '/api/v1/publisher/mcp/00000000-0000-4000-8000-000000000000'],
      ['put', '/api/v1/publisher/mcp/00000000-0000-4000-8000-000000000000/draft'],
      ['post', '/api/v1/publisher/mcp/00000000-0000-4000-8000-000000000000/versions'],
      ['post', '/api/v1/publisher/mcp/00000000-0000-4000-8000-000000000000/submit-review'],
      ['post', '/api/v1/publisher/mcp/00000000-0000-4000-8000-000000000000/withdraw'],
    ];
    for (const [method, path] of routes) {
      const call = (h.http as unknown as Record<string, (p: string) => import('supertest').Test>)[method]!;
      const anonymous = await call(path).send({});
      expect(anonymous.status).toBe(401);
      expect(problem(anonymous).title).toBe('Auth.Unauthorized');
      const outsider = await call(path).set(as(a.outsider)).send({});
      expect(outsider.status).toBe(403);
      expect(problem(outsider).title).toBe('Auth.Forbidden');
    }
  });

  it('accepts an API key, counts the daily quota and answers 429 once it is used up', async () => {
    const limited = await createUser(h, { roles: ['Publisher'], dailyQuota: 2 });
    const first = await h.http.get('/api/v1/publisher/mcp/mine').set(bearer(limited.apiKey));
    expect(first.status).toBe(200);
    expect(first.headers['x-ratelimit-limit']).toBe('2');
    expect(first.headers['x-ratelimit-remaining']).toBe('1');
    await h.http.get('/api/v1/publisher/mcp/mine').set(bearer(limited.apiKey)).expect(200);
    const third = await h.http.get('/api/v1/publisher/mcp/mine').set(bearer(limited.apiKey));
    expect(third.status).toBe(429);
    expect(problem(third).title).toBe('ApiKey.QuotaExceeded');
  });

  it('answers 404 for an unknown {type} and for another account’s item', async () => {
    const unknownType = await h.http.get('/api/v1/publisher/widgets/mine').set(as(a.publisher));
    expect(unknownType.status).toBe(404);
    expect(problem(unknownType).title).toBe('Catalog.TypeNotFound');
    const draft = await createDraft(h, a, 'mcp');
    const stranger = await createUser(h, { roles: ['Publisher'] });
    for (const path of [`/api/v1/publisher/mcp/${draft.id}`, '/api/v1/publisher/mcp/not-a-uuid']) {
      const res = await h.http.get(path).set(as(stranger));
      expect(res.status).toBe(404);
      expect(problem(res).title).toBe('Mcp.NotFound');
    }
    const wrongType = await h.http.get(`/api/v1/publisher/skill/${draft.id}`).set(as(a.publisher));
    expect(problem(wrongType).title).toBe('Skill.NotFound');
    const edit = await h.http.put(`/api/v1/publisher/mcp/${draft.id}/draft`).set(as(stranger)).send({ name: 'Mine' });
    expect(edit.status).toBe(404);
  });
});

describe('drafts', () => {
  it('creates a draft with its first version, recorded as a transition, and lists it under mine', async () => {
    const category = await createCategory(h, 'mcp');
    const draft = await createDraft(h, a, 'mcp', {
      tags: ['weather', 'weather'],
      categories: [category],
      version: { tools: [{ name: 'forecast' }] },
    });
    expect(draft).toMatchObject({ status: 'draft', version: '1.0.0', type: 'mcp' });
    const full = await detail('mcp', draft.id);
    expect(full).toMatchObject({
      id: draft.id,
      status: 'draft',
      isPublished: false,
      publisherSlug: a.namespace,
      tags: ['weather'],
      categories: [category],
      versions: [{ version: '1.0.0', status: 'draft', tools: [{ name: 'forecast' }], connections: [] }],
      transitions: [{ action: 'create', to: 'draft', actorId: a.publisher.accountId, at: expect.any(String) }],
    });
    const mine = await h.http.get('/api/v1/publisher/mcp/mine').set(as(a.publisher));
    expect(mine.body.find((x: { id: string }) => x.id === draft.id)).toMatchObject({
      status: 'draft',
      pendingVersion: { version: '1.0.0', status: 'draft' },
    });
  });

  it('lists each own item with its counters and rating, as the public item shows them', async () => {
    const draft = await createDraft(h, a, 'agent');
    const listed = async () =>
      ((await h.http.get('/api/v1/publisher/agent/mine').set(as(a.publisher))).body as { id: string }[]).find(
        (x) => x.id === draft.id,
      );
    expect(await listed()).toMatchObject({
      stats: { viewCount: 0, installCount: 0, usageCount: 0, favoriteCount: 0, ratingCount: 0, ratingAverage: 0 },
    });
    const published = await publishItem(h, a, 'agent');
    // What the telemetry workers add up, and two ratings through the route.
    await h.ctx.db.execute(
      sql`update catalog_items set view_count = 30, install_count = 7, usage_count = 12, favorite_count = 2
           where id = ${published.id}`,
    );
    for (const [score, user] of [
      [5, await createUser(h)],
      [4, await createUser(h)],
    ] as const) {
      await h.http.put(`/api/v1/agent/${published.slug}/rating`).set(bearer(user.apiKey)).send({ score }).expect(200);
    }
    const mine = (await h.http.get('/api/v1/publisher/agent/mine').set(as(a.publisher))).body as {
      id: string;
      stats: object;
    }[];
    const own = mine.find((x) => x.id === published.id);
    const shown = (await h.http.get(`/api/v1/agent/${published.slug}`)).body.stats;
    expect(own?.stats).toEqual({
      viewCount: 30,
      installCount: 7,
      usageCount: 12,
      favoriteCount: 2,
      ratingCount: 2,
      ratingAverage: 4.5,
    });
    expect(own?.stats).toEqual(shown);
  });

  it('answers 409 Mcp.SlugExists for a duplicate slug and writes nothing', async () => {
    const first = await createDraft(h, a, 'mcp');
    const res = await h.http
      .post('/api/v1/publisher/mcp/drafts')
      .set(as(a.publisher))
      .send(draftBody(a, 'mcp', { slug: first.slug, name: 'Second' }));
    expect(res.status).toBe(409);
    expect(problem(res).title).toBe('Mcp.SlugExists');
    // The same slug is free in another type.
    await createDraft(h, a, 'agent', { slug: first.slug });
  });

  it.each([
    ['a missing name', { name: undefined }, 'Draft.Invalid'],
    ['a missing version', { version: undefined }, 'Draft.Invalid'],
    ['an invalid slug', { slug: 'Not A Slug' }, 'Draft.Invalid'],
    ['a reserved slug', { slug: 'categories' }, 'Draft.Invalid'],
    ['a two-line summary', { summary: 'one\ntwo' }, 'Draft.Invalid'],
    ['an over-long name', { name: 'n'.repeat(101) }, 'Draft.Invalid'],
    ['an over-long description', { description: 'd'.repeat(20_001) }, 'Draft.Invalid'],
    ['too many tags', { tags: Array.from({ length: 11 }, (_, n) => `tag-${n}`) }, 'Draft.Invalid'],
    ['an unknown field', { stars: 5 }, 'Draft.Invalid'],
    ['a non-semver version', { version: { version: 'v1' } }, 'Version.Invalid'],
    ['a leading v', { version: { version: 'v1.0.0' } }, 'Version.Invalid'],
    [
      'a bad MCP transport',
      { version: { version: '1.0.0', connections: [{ transport: 'pigeon' }] } },
      'Version.Invalid',
    ],
    ['an over-long readme', { version: { version: '1.0.0', readme: 'r'.repeat(200_001) } }, 'Version.Invalid'],
    ['a non-http source URL', { version: { version: '1.0.0', sourceUrl: 'ftp://x.example' } }, 'Version.Invalid'],
  ])('answers 400 for %s and writes nothing', async (_label, change, code) => {
    const body = { ...draftBody(a, 'mcp'), ...change } as Record<string, unknown>;
    for (const [k, v] of Object.entries(change)) if (v === undefined) delete body[k];
    const before = (await h.http.get('/api/v1/publisher/mcp/mine').set(as(a.publisher))).body.length;
    const res = await h.http.post('/api/v1/publisher/mcp/drafts').set(as(a.publisher)).send(body);
    expect(res.status).toBe(400);
    expect(problem(res)).toMatchObject({ title: code, status: 400, detail: expect.any(String) });
    expect((await h.http.get('/api/v1/publisher/mcp/mine').set(as(a.publisher))).body.length).toBe(before);
  });

  it('answers 404 Publisher.NotFound for a namespace the caller does not own, 400 Category.Invalid for an unknown category', async () => {
    const other = await createUser(h, { roles: ['Publisher'] });
    const res = await h.http.post('/api/v1/publisher/agent/drafts').set(as(other)).send(draftBody(a, 'agent'));
    expect(res.status).toBe(404);
    expect(problem(res)).toMatchObject({
      title: 'Publisher.NotFound',
      detail: expect.stringContaining('POST /api/v1/publisher/publishers {slug, name} makes one'),
    });
    const badCategory = await h.http
      .post('/api/v1/publisher/agent/drafts')
      .set(as(a.publisher))
      .send(draftBody(a, 'agent', { categories: ['no-such-category'] }));
    expect(badCategory.status).toBe(400);
    expect(problem(badCategory).title).toBe('Category.Invalid');
  });

  it('updates metadata and the pending version of a draft', async () => {
    const draft = await createDraft(h, a, 'soul');
    const res = await h.http
      .put(`/api/v1/publisher/soul/${draft.id}/draft`)
      .set(as(a.publisher))
      .send({ name: 'Renamed', tags: ['calm'], version: { soulMd: 'Be calm.', changelog: 'Edited.' } });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ id: draft.id, status: 'draft', version: '1.0.0' });
    const full = await detail('soul', draft.id);
    expect(full).toMatchObject({ name: 'Renamed', tags: ['calm'], hasPendingChanges: false });
    expect(full.versions[0]).toMatchObject({ soulMd: 'Be calm.', changelog: 'Edited.', license: 'MIT' });
  });

  it('refuses empty updates, unknown fields and a changed version number', async () => {
    const draft = await createDraft(h, a, 'soul');
    const cases: [Record<string, unknown>, string][] = [
      [{}, 'Draft.Invalid'],
      [{ slug: 'new-slug' }, 'Draft.Invalid'],
      [{ version: { version: '2.0.0' } }, 'Version.Invalid'],
      [{ version: { tools: [] } }, 'Version.Invalid'],
    ];
    for (const [payload, code] of cases) {
      const res = await h.http.put(`/api/v1/publisher/soul/${draft.id}/draft`).set(as(a.publisher)).send(payload);
      expect(res.status).toBe(400);
      expect(problem(res).title).toBe(code);
    }
  });
});

describe('versions', () => {
  it('adds a version greater than every existing one and supersedes the unsubmitted one', async () => {
    const draft = await createDraft(h, a, 'agent');
    const res = await h.http
      .post(`/api/v1/publisher/agent/${draft.id}/versions`)
      .set(as(a.publisher))
      .send({ version: '1.0.1-beta.1', changelog: 'Beta.' });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ status: 'draft', version: '1.0.1-beta.1' });
    const full = await detail('agent', draft.id);
    expect(full.versions.map((v: { version: string; status: string }) => [v.version, v.status])).toEqual([
      ['1.0.1-beta.1', 'draft'],
      ['1.0.0', 'superseded'],
    ]);
    expect(full.transitions.map((t: { action: string }) => t.action)).toEqual(['create', 'add_version']);
  });

  it.each([
    ['1.0.0', 409, 'Version.Exists'],
    ['0.9.0', 409, 'Version.Exists'],
    ['1.0.0-rc.1', 409, 'Version.Exists'],
    ['1.0.0+build.5', 400, 'Version.Invalid'],
    ['latest', 400, 'Version.Invalid'],
  ])('answers %s with %i %s', async (version, status, code) => {
    const draft = await createDraft(h, a, 'agent');
    const res = await h.http
      .post(`/api/v1/publisher/agent/${draft.id}/versions`)
      .set(as(a.publisher))
      .send({ version });
    expect(res.status).toBe(status);
    expect(problem(res).title).toBe(code);
    expect((await detail('agent', draft.id)).versions).toHaveLength(1);
  });
});
