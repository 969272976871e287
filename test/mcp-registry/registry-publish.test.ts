// POST /v0.1/publish: a Publisher's API key turns a server.json into a draft under review through the catalog's own
// publishing; every refusal is the registry's `{error}` with the right status, and leaves nothing written.
import { eq } from 'drizzle-orm';
import { catalogItems } from '../../shared/db/schema/index.js';
import { registryNamespace } from '../../shared/mcp-registry/server-names.js';
import { type Actors, createActors, decide, publishItem, uniqueSlug } from '../support/catalog-factory.js';
import { createHarness, type Harness } from '../support/harness.js';
import { bearer, createUser, type TestUser } from '../support/identity.js';
import { violations } from './registry-schema.js';
import { serversPath } from './registry-world.js';

let h: Harness;
let a: Actors;
let reader: TestUser;
let namespace: string;

beforeAll(async () => {
  h = await createHarness();
  a = await createActors(h);
  reader = await createUser(h);
  namespace = registryNamespace(h.config);
});
afterAll(async () => h.close());

const nameOf = (slug: string, publisherSlug = a.namespace) => `${namespace}.${publisherSlug}/${slug}`;

function serverJson(slug: string, overrides: Record<string, unknown> = {}) {
  return {
    $schema: 'https://static.modelcontextprotocol.io/schemas/2025-12-11/server.schema.json',
    name: nameOf(slug),
    title: 'Tide Tables',
    description: 'High and low water for any harbour.',
    version: '1.0.0',
    repository: { url: 'https://github.com/acme/tides-mcp', source: 'github' },
    packages: [
      {
        registryType: 'npm',
        identifier: '@acme/tides',
        version: '1.0.0',
        runtimeHint: 'npx',
        transport: { type: 'stdio' },
        environmentVariables: [{ name: 'TIDES_TOKEN', isRequired: true, isSecret: true, format: 'string' }],
      },
    ],
    ...overrides,
  };
}

const publish = (body: unknown, token: string | null = a.publisher.apiKey) => {
  const req = h.http.post('/v0.1/publish');
  return token ? req.set(bearer(token)).send(body as object) : req.send(body as object);
};

const itemBySlug = async (slug: string) =>
  (await h.ctx.db.select().from(catalogItems).where(eq(catalogItems.slug, slug)))[0];

const draftDetail = async (id: string) =>
  (await h.http.get(`/api/v1/publisher/mcp/${id}`).set(bearer(a.publisher.session)).expect(200)).body;

function expectError(
  res: { status: number; body: unknown; headers: Record<string, string> },
  status: number,
  message: RegExp,
) {
  expect(res.status).toBe(status);
  expect(res.headers['content-type']).toMatch(/^application\/json/);
  expect(violations('Error', res.body)).toEqual([]);
  expect((res.body as { error: string }).error).toMatch(message);
}

describe('POST /v0.1/publish', () => {
  it('lands a server.json as a draft under review, served as is once a moderator approves it', async () => {
    const slug = uniqueSlug('tides');
    const res = await publish(serverJson(slug));
    expect(res.status).toBe(200);
    expect(res.headers['x-ratelimit-remaining']).toMatch(/^\d+$/);
    expect(violations('ServerDetail', res.body.server)).toEqual([]);
    expect(res.body.server).toEqual(serverJson(slug));
    const meta = res.body._meta[`${namespace}/catalog`];
    expect(meta).toEqual({ id: expect.any(String), versionId: expect.any(String), status: 'in_review' });

    const draft = await draftDetail(meta.id);
    expect(draft).toMatchObject({
      slug,
      status: 'in_review',
      name: 'Tide Tables',
      summary: 'High and low water for any harbour.',
    });
    expect(draft.versions).toEqual([
      expect.objectContaining({
        id: meta.versionId,
        version: '1.0.0',
        status: 'in_review',
        sourceUrl: 'https://github.com/acme/tides-mcp',
        connections: [{ transport: 'stdio', command: 'npx', args: ['-y', '@acme/tides@1.0.0'] }],
        configFields: [{ name: 'TIDES_TOKEN', type: 'secret', required: true }],
      }),
    ]);
    expect(draft.transitions.map((t: { action: string }) => t.action)).toEqual(['create', 'submit']);
    const queue = await h.http.get('/api/v1/moderation/queue?type=mcp&pageSize=100').set(bearer(a.moderator.session));
    expect(queue.body.items.map((i: { id: string }) => i.id)).toContain(meta.id);

    // Not public before the review.
    expect((await h.http.get(`${serversPath(nameOf(slug))}/latest`)).status).toBe(404);
    expect((await decide(h, a, 'mcp', meta.id, 'approve')).status).toBe(200);
    const served = await h.http.get(`${serversPath(nameOf(slug))}/latest`);
    expect(served.status).toBe(200);
    expect(served.body.server).toEqual(res.body.server);
  });

  it('adds a new version to an existing server, keeping what server.json cannot carry', async () => {
    const item = await publishItem(h, a, 'mcp', {
      version: {
        tools: [{ name: 'forecast', description: 'The forecast' }],
        permissions: ['network'],
        readme: '# Weather',
        connections: [{ transport: 'stdio', command: 'npx', args: ['-y', '@acme/weather@1.0.0'] }],
      },
    });
    const res = await publish(
      serverJson(item.slug, {
        title: 'Weather 2',
        version: '2.0.0',
        packages: undefined,
        remotes: [{ type: 'streamable-http', url: 'https://weather.example/mcp' }],
      }),
    );
    expect(res.status).toBe(200);
    const draft = await draftDetail(item.id);
    expect(draft.status).toBe('in_review');
    expect(draft.versions[0]).toMatchObject({
      version: '2.0.0',
      status: 'in_review',
      tools: [{ name: 'forecast', description: 'The forecast' }],
      permissions: ['network'],
      readme: '# Weather',
      license: 'MIT',
      connections: [{ transport: 'streamable-http', url: 'https://weather.example/mcp' }],
    });
    // The published version stays public, with its reviewed metadata, until the new one is approved.
    const current = await h.http.get(`${serversPath(nameOf(item.slug))}/latest`);
    expect(current.body.server).toMatchObject({ version: '1.0.0', title: `Item ${item.slug}` });

    const again = await publish(serverJson(item.slug, { version: '2.0.0' }));
    expectError(again, 409, /2\.0\.0 exists and is in_review/);
    const older = await publish(serverJson(item.slug, { version: '1.5.0' }));
    expectError(older, 400, /in_review/);

    expect((await decide(h, a, 'mcp', item.id, 'request-changes', { comment: 'Add a package.' })).status).toBe(200);
    const fixed = await publish(serverJson(item.slug, { title: 'Weather 2', version: '2.0.0' }));
    expect(fixed.status).toBe(200);
    const resubmitted = await draftDetail(item.id);
    expect(resubmitted.status).toBe('in_review');
    expect(resubmitted.versions[0].connections).toEqual([
      { transport: 'stdio', command: 'npx', args: ['-y', '@acme/tides@1.0.0'] },
    ]);
    expect((await decide(h, a, 'mcp', item.id, 'approve')).status).toBe(200);
    const latest = await h.http.get(`${serversPath(nameOf(item.slug))}/latest`);
    expect(latest.body.server).toMatchObject({ version: '2.0.0', title: 'Weather 2' });
  });

  it.each([
    ['no credential', null],
    ['a console session instead of an API key', 'session'],
    ['an unknown API key', 'ock_thisisnotakeythisisnotakeythisisnotakey'],
  ])('answers 401 {error} with %s', async (_what, token) => {
    const slug = uniqueSlug('nokey');
    const res = await publish(serverJson(slug), token === 'session' ? a.publisher.session : token);
    expectError(res, 401, /./);
    expect(await itemBySlug(slug)).toBeUndefined();
  });

  it('answers 403 {error} to an account without the Publisher role, or for a namespace it does not own', async () => {
    const slug = uniqueSlug('forbidden');
    expectError(await publish(serverJson(slug), reader.apiKey), 403, /Publisher role/);
    const other = await createActors(h);
    expectError(await publish({ ...serverJson(slug), name: nameOf(slug, other.namespace) }), 403, /do not own/);
    expectError(await publish({ ...serverJson(slug), name: `io.github.acme/${slug}` }), 403, /start with/);
    expect(await itemBySlug(slug)).toBeUndefined();
  });

  it('answers 409 {error} when the slug belongs to another publisher', async () => {
    const other = await createActors(h);
    const theirs = await publishItem(h, other, 'mcp');
    expectError(await publish(serverJson(theirs.slug)), 409, /another publisher/);
  });

  it.each([
    // The official registry requires $schema and refuses a format it does not read (schema validation on publish).
    ['no $schema', { $schema: undefined }, /\$schema: required.*2025-12-11/],
    [
      'the $schema of an older format',
      { $schema: 'https://static.modelcontextprotocol.io/schemas/2025-07-09/server.schema.json' },
      /\$schema: .*2025-07-09.*not.*2025-12-11/,
    ],
    ['no description', { description: undefined }, /description/],
    ['a description over 100 characters', { description: 'x'.repeat(101) }, /description/],
    ['a name outside the reverse-DNS pattern', { name: 'tides' }, /name/],
    ['a slug the catalog cannot hold', { name: `${'NAMESPACE'}/Tides_Tables` }, /./],
    ['a version that is not semver', { version: '2024.1' }, /semantic version/],
    [
      'a package version "latest"',
      { packages: [{ registryType: 'npm', identifier: 'x', version: 'latest', transport: { type: 'stdio' } }] },
      /latest/,
    ],
    [
      'a NuGet package',
      { packages: [{ registryType: 'nuget', identifier: 'Acme.Tides', transport: { type: 'stdio' } }] },
      /nuget/,
    ],
    ['a remote that is not http(s)', { remotes: [{ type: 'sse', url: 'ftp://tides.example/sse' }] }, /url/],
    ['an icon that is not http(s)', { icons: [{ src: 'data:image/png;base64,AAAA' }] }, /iconUrl/],
  ])('answers 400 {error} to a server.json with %s, writing nothing', async (_what, overrides, message) => {
    const slug = uniqueSlug('invalid');
    const body = serverJson(slug, overrides);
    if ((body.name as string).startsWith('NAMESPACE')) body.name = `${namespace}.${a.namespace}/Tides_Tables`;
    expectError(await publish(body), 400, message);
    expect(await itemBySlug(slug)).toBeUndefined();
  });

  it('answers 400 {error} to a body that is not JSON', async () => {
    const res = await h.http
      .post('/v0.1/publish')
      .set({ ...bearer(a.publisher.apiKey), 'content-type': 'application/json' })
      .send('{"name":');
    expectError(res, 400, /not valid JSON/);
  });
});

// review2: re-publishing the same, still editable, version updated the draft with the server.json's metadata without
// the catalog's draft rules, so a `javascript:` icon was stored and served after approval.
describe('POST /v0.1/publish of an existing server', () => {
  const withIcon = (slug: string, src: string, version = '1.0.0') =>
    serverJson(slug, {
      version,
      icons: [{ src }],
      packages: undefined,
      remotes: [{ type: 'streamable-http', url: 'https://tides.example.com/mcp' }],
    });

  async function publishedThenWithdrawn(slug: string) {
    await publish(withIcon(slug, 'https://tides.example.com/icon.png')).expect(200);
    const id = (await itemBySlug(slug))!.id;
    await h.http.post(`/api/v1/publisher/mcp/${id}/withdraw`).set(bearer(a.publisher.session)).expect(200);
    return id;
  }

  it.each([['javascript:alert(document.domain)'], ['data:image/svg+xml;base64,PHN2Zz4=']])(
    'holds the same version, published again, to the icon rule (%s: 400 {error}, nothing written)',
    async (icon) => {
      const slug = uniqueSlug('tides');
      const id = await publishedThenWithdrawn(slug);
      expectError(await publish(withIcon(slug, icon)), 400, /iconUrl/);
      const detail = await draftDetail(id);
      expect(detail).toMatchObject({ status: 'draft', iconUrl: 'https://tides.example.com/icon.png' });
      expect(detail.versions).toHaveLength(1);
    },
  );

  it('holds a new version to the icon rule before adding it', async () => {
    const slug = uniqueSlug('tides');
    const id = await publishedThenWithdrawn(slug);
    expectError(await publish(withIcon(slug, 'javascript:alert(1)', '1.1.0')), 400, /iconUrl/);
    const detail = await draftDetail(id);
    expect(detail.iconUrl).toBe('https://tides.example.com/icon.png');
    expect(detail.versions.map((v: { version: string }) => v.version)).toEqual(['1.0.0']);
  });

  it('still updates the icon of the same version with an https one, served once approved', async () => {
    const slug = uniqueSlug('tides');
    const id = await publishedThenWithdrawn(slug);
    await publish(withIcon(slug, 'https://tides.example.com/new.png')).expect(200);
    await decide(h, a, 'mcp', id, 'approve').expect(200);
    const item = await h.http.get(`/api/v1/mcp/${slug}`).expect(200);
    expect(item.body.iconUrl).toBe('https://tides.example.com/new.png');
  });
});
