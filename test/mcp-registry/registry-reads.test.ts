// The MCP Registry API v0.1 reads over the seeded demo catalog and items made here: every answer is checked against
// the published constraints of the API and of server.json (registry-schema.ts).
import { type Actors, createActors, decide, publishItem, uniqueSlug } from '../support/catalog-factory.js';
import { bearer } from '../support/identity.js';
import { violations } from './registry-schema.js';
import { type Entry, keyOf, official, openRegistryWorld, type RegistryWorld, serversPath } from './registry-world.js';

let w: RegistryWorld;
/** 31 servers of our own (so the default page of 30 is full), two of them with a second version. */
let ours: { id: string; slug: string }[];

/** Adds a version to a published item and approves it. */
async function publishVersion(a: Actors, id: string, version: string, fields: Record<string, unknown> = {}) {
  const added = await w.h.http
    .post(`/api/v1/publisher/mcp/${id}/versions`)
    .set(bearer(a.publisher.session))
    .send({ version, ...fields });
  expect(added.status).toBe(200);
  expect(
    (await w.h.http.post(`/api/v1/publisher/mcp/${id}/submit-review`).set(bearer(a.publisher.session)).send({})).status,
  ).toBe(200);
  expect((await decide(w.h, a, 'mcp', id, 'approve')).status).toBe(200);
}

const stdio = { connections: [{ transport: 'stdio', command: 'npx', args: ['-y', '@test/weather-mcp@1.0.0'] }] };

beforeAll(async () => {
  w = await openRegistryWorld();
  ours = [];
  for (let n = 0; n < 31; n++)
    ours.push(await publishItem(w.h, w.a, 'mcp', { slug: uniqueSlug('reg'), version: stdio }));
  await publishVersion(w.a, ours[0]!.id, '1.1.0');
  await publishVersion(w.a, ours[1]!.id, '1.1.0');
}, 120_000);
afterAll(async () => w.close());

describe('GET /v0.1/servers', () => {
  it('lists every published version of the seeded catalog as server.json with the registry metadata', async () => {
    const all = await w.pageThrough('', 100);
    const github = all.filter((e) => e.server.name === `${w.namespace}.ockhub/github`);
    expect(github.map((e) => [e.server.version, official(e).isLatest, official(e).status])).toEqual([
      ['1.0.0', false, 'active'],
      ['1.1.0', true, 'active'],
    ]);
    const latest = github[1] as Entry;
    expect(latest.server).toEqual({
      $schema: 'https://static.modelcontextprotocol.io/schemas/2025-12-11/server.schema.json',
      name: `${w.namespace}.ockhub/github`,
      title: 'GitHub',
      description: 'Issues, pull requests and code search on GitHub.',
      version: '1.1.0',
      repository: { url: 'https://github.com/example/github-mcp', source: 'github' },
      packages: [
        {
          registryType: 'npm',
          identifier: '@example/github-mcp',
          runtimeHint: 'npx',
          transport: { type: 'stdio' },
          environmentVariables: [{ name: 'GITHUB_TOKEN', isRequired: true, isSecret: true, format: 'string' }],
        },
      ],
      remotes: [{ type: 'streamable-http', url: 'https://mcp.example.com/github' }],
    });
    expect(latest._meta[`${w.namespace}/catalog`]).toMatchObject({
      slug: 'github',
      pageUrl: `${w.h.config.publicBaseUrl}/hub/mcp/github`,
      publisher: { slug: 'ockhub', name: 'ockhub' },
      source: 'official',
      isFeatured: true,
      installCount: expect.any(Number),
      ratingAverage: expect.any(Number),
      categories: ['developer-tools'],
      tags: ['git', 'code-review'],
      toolCount: 3,
      license: 'MIT',
    });
    const postgres = all.find((e) => e.server.name === `${w.namespace}.community/postgres`) as Entry;
    expect(postgres.server.packages).toEqual([
      expect.objectContaining({ registryType: 'pypi', identifier: 'postgres-mcp', runtimeHint: 'uvx' }),
    ]);
    expect(postgres.server.repository).toBeUndefined();
    const search = all.find((e) => e.server.name === `${w.namespace}.ockhub/web-search`) as Entry;
    expect(search.server.remotes).toEqual([{ type: 'sse', url: 'https://mcp.example.com/search' }]);
    expect(search.server.packages).toBeUndefined();
    // Only mcp items: the demo skills, agents and souls are not servers.
    expect(all.some((e) => /\/(release-notes|stoic-mentor)$/.test(e.server.name))).toBe(false);
  });

  it('answers `version=latest` with the newest version of each server once', async () => {
    const latest = await w.pageThrough('version=latest', 100);
    const names = latest.map((e) => e.server.name);
    expect(new Set(names).size).toBe(names.length);
    expect(latest.every((e) => official(e).isLatest)).toBe(true);
    const first = latest.find((e) => e.server.name === w.nameOf(ours[0]!.slug)) as Entry;
    expect(first.server.version).toBe('1.1.0');
    const exact = await w.pageThrough('version=1.1.0', 100);
    expect(exact.every((e) => e.server.version === '1.1.0')).toBe(true);
    expect(exact.map((e) => e.server.name)).toEqual(
      expect.arrayContaining([w.nameOf(ours[0]!.slug), w.nameOf(ours[1]!.slug), `${w.namespace}.ockhub/github`]),
    );
  });

  it('pages the whole catalog with opaque cursors: no entry twice, none missing, while servers are published', async () => {
    const before = (await w.pageThrough('', 100)).map(keyOf);
    expect(before.length).toBeGreaterThan(35);
    let published = 0;
    let pending: Promise<unknown> = Promise.resolve();
    const seen = await w.pageThrough('', 3, async () => {
      // Between pages: a new version of a server already read, and a new server published while the next page is
      // being read (not awaited here).
      await pending;
      published++;
      if (published === 2) await publishVersion(w.a, ours[2]!.id, `1.0.${published}`);
      pending = publishItem(w.h, w.a, 'mcp', { slug: uniqueSlug('late') });
    });
    await pending;
    const keys = seen.map(keyOf);
    expect(keys.length - new Set(keys).size).toBe(0);
    expect(before.filter((k) => !keys.includes(k))).toEqual([]);
    // What was published while paging sorts after every cursor read before it, so this pass saw it too (all but
    // perhaps the last new server, published alongside the last page's read).
    expect(keys).toContain(`${w.nameOf(ours[2]!.slug)}@1.0.2`);
    expect(keys.filter((k) => k.includes('/late-')).length).toBeGreaterThanOrEqual(published - 1);
  }, 120_000);

  it('keeps to one page of at most `limit` (30 by default, 100 at most) with a URL-safe cursor', async () => {
    const first = await w.list('/v0.1/servers');
    expect(first.metadata.count).toBe(30);
    expect(first.metadata.nextCursor).toMatch(/^[A-Za-z0-9_-]+$/);
    expect(first.metadata.nextCursor).not.toContain(w.namespace);
    const next = await w.list(`/v0.1/servers?cursor=${first.metadata.nextCursor}`);
    expect(next.servers.map(keyOf).some((k) => first.servers.map(keyOf).includes(k))).toBe(false);
    const all = await w.list('/v0.1/servers?limit=100');
    expect(all.metadata.count).toBeGreaterThan(30);
    expect(all.servers.slice(0, 30).map(keyOf)).toEqual(first.servers.map(keyOf));
  });

  it('finds servers by a substring of the name, in any case', async () => {
    const target = ours[3]!.slug;
    const found = await w.list(`/v0.1/servers?search=${target.toUpperCase()}`);
    expect(found.servers.map((e) => e.server.name)).toEqual([w.nameOf(target)]);
    const byNamespace = await w.pageThrough(`search=${encodeURIComponent(`.${w.a.namespace}/`)}`, 100);
    expect(byNamespace.length).toBeGreaterThanOrEqual(33);
    expect(byNamespace.every((e) => e.server.name.startsWith(`${w.namespace}.${w.a.namespace}/`))).toBe(true);
    expect((await w.list('/v0.1/servers?search=no-such-server-anywhere')).servers).toEqual([]);
  });

  it('answers changes since a time with updated_since (RFC 3339)', async () => {
    const since = new Date();
    const fresh = await publishItem(w.h, w.a, 'mcp', { slug: uniqueSlug('since') });
    const changed = await w.pageThrough(`updated_since=${encodeURIComponent(since.toISOString())}`, 100);
    const names = changed.map((e) => e.server.name);
    expect(names).toContain(w.nameOf(fresh.slug));
    expect(names).not.toContain(`${w.namespace}.ockhub/github`);
    expect(changed.every((e) => Date.parse(official(e).updatedAt) > since.getTime() - 1)).toBe(true);
    const offset = since.toISOString().replace('Z', '+00:00');
    expect((await w.list(`/v0.1/servers?updated_since=${encodeURIComponent(offset)}`)).servers.length).toBeGreaterThan(
      0,
    );
  });

  it.each([
    ['limit=0', /limit/],
    ['limit=101', /limit/],
    ['limit=ten', /limit/],
    ['limit=1&limit=2', /limit/],
    ['updated_since=yesterday', /updated_since/],
    ['include_deleted=yes', /include_deleted/],
    ['cursor=not-a-cursor', /cursor/i],
    [`cursor=${Buffer.from('["2026-01-01T00:00:00.000000Z","nope"]').toString('base64url')}`, /cursor/i],
  ])('refuses %s with 400 {error}', async (query, message) => {
    const res = await w.h.http.get(`/v0.1/servers?${query}`);
    expect(res.status).toBe(400);
    expect(violations('Error', res.body)).toEqual([]);
    expect(res.body.error).toMatch(message);
  });

  it('is open to any origin: CORS on GET and on the preflight of a GET, not on publishing', async () => {
    const origin = 'https://editor.example';
    const read = await w.h.http.get('/v0.1/servers?limit=1').set('origin', origin);
    expect(read.headers['access-control-allow-origin']).toBe('*');
    const missing = await w.h.http.get(serversPath(w.nameOf('nope'))).set('origin', origin);
    expect(missing.status).toBe(404);
    expect(missing.headers['access-control-allow-origin']).toBe('*');
    const preflight = await w.h.http
      .options('/v0.1/servers')
      .set({ origin, 'access-control-request-method': 'GET', 'access-control-request-headers': 'if-none-match' });
    expect(preflight.status).toBe(204);
    expect(preflight.headers['access-control-allow-origin']).toBe('*');
    expect(preflight.headers['access-control-allow-methods']).toMatch(/GET/);
    expect(preflight.headers['access-control-allow-headers']).toBe('if-none-match');
    const publish = await w.h.http.post('/v0.1/publish').set('origin', origin).send({});
    expect(publish.headers['access-control-allow-origin']).toBeUndefined();
    const publishPreflight = await w.h.http
      .options('/v0.1/publish')
      .set({ origin, 'access-control-request-method': 'POST' });
    expect(publishPreflight.headers['access-control-allow-origin']).toBeUndefined();
  });

  it('answers an ETag and 304 for a matching If-None-Match', async () => {
    const first = await w.h.http.get('/v0.1/servers?limit=2');
    expect(first.headers.etag).toBeDefined();
    const again = await w.h.http.get('/v0.1/servers?limit=2').set('if-none-match', first.headers.etag as string);
    expect(again.status).toBe(304);
  });
});

describe('GET /v0.1/servers/{serverName}/versions[/{version}]', () => {
  const github = () => `${w.namespace}.ockhub/github`;

  it('lists the versions of a server newest first, its name URL-encoded (%2F)', async () => {
    const path = serversPath(github());
    expect(path).toContain('%2F');
    const versions = await w.list(path);
    expect(versions.servers.map((e) => e.server.version)).toEqual(['1.1.0', '1.0.0']);
    expect(versions.metadata).toEqual({ count: 2 });
  });

  it('answers one version, and the newest for `latest`', async () => {
    const latest = await w.entry(`${serversPath(github())}/latest`);
    expect(latest.server.version).toBe('1.1.0');
    expect(official(latest)).toMatchObject({ status: 'active', isLatest: true });
    const older = await w.entry(`${serversPath(github())}/${encodeURIComponent('1.0.0')}`);
    expect(older.server.version).toBe('1.0.0');
    expect(official(older).isLatest).toBe(false);
    // The older version shows its own connections: one npx package, no remote.
    expect(older.server.remotes).toBeUndefined();
    expect(older.server.packages).toHaveLength(1);
  });

  it.each([
    ['an unknown server', () => serversPath(`${w.namespace}.ockhub/no-such-server`), /Server not found/],
    ['a name of another namespace', () => serversPath('io.github.someone/github'), /Server not found/],
    ['a name that is not reverse-DNS', () => serversPath('github'), /Server not found/],
    ['an unknown version', () => `${serversPath(github())}/9.9.9`, /version not found/],
    ['a version that is not semver', () => `${serversPath(github())}/v1`, /version not found/],
    ['the version of an unknown server', () => `${serversPath(`${w.namespace}.ockhub/nope`)}/latest`, /not found/],
    ['a name whose slash is not encoded', () => `/v0.1/servers/${w.namespace}.ockhub/github/versions`, /No route/],
  ])('answers 404 {error} for %s', async (_what, path, message) => {
    const res = await w.h.http.get(path());
    expect(res.status).toBe(404);
    expect(res.headers['content-type']).toMatch(/^application\/json/);
    expect(violations('Error', res.body)).toEqual([]);
    expect(res.body.error).toMatch(message);
  });
});

describe('a withdrawn or removed server', () => {
  async function unlisted(how: 'unpublish' | 'remove') {
    const item = await publishItem(w.h, w.a, 'mcp', { slug: uniqueSlug(how), version: stdio });
    await publishVersion(w.a, item.id, '2.0.0');
    const res =
      how === 'unpublish'
        ? await w.h.http.post(`/api/v1/publisher/mcp/${item.id}/unpublish`).set(bearer(w.a.publisher.session)).send({})
        : await w.h.http
            .post(`/api/v1/moderation/mcp/${item.id}/remove`)
            .set(bearer(w.a.moderator.session))
            .send({ reason: 'Malware reported.' });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ id: item.id, status: 'draft' });
    return item;
  }

  it.each(['unpublish', 'remove'] as const)(
    'after %s: gone from the catalog, `status: deleted` only with include_deleted or updated_since',
    async (how) => {
      const since = new Date();
      const item = await unlisted(how);
      const name = w.nameOf(item.slug);
      expect((await w.h.http.get(`/api/v1/mcp/${item.slug}`)).status).toBe(404);

      expect((await w.pageThrough(`search=${item.slug}`, 100)).length).toBe(0);
      const withDeleted = await w.pageThrough(`search=${item.slug}&include_deleted=true`, 100);
      expect(withDeleted.map((e) => [e.server.version, official(e).status, official(e).isLatest])).toEqual([
        ['1.0.0', 'deleted', false],
        ['2.0.0', 'deleted', true],
      ]);
      const changed = await w.pageThrough(`updated_since=${encodeURIComponent(since.toISOString())}`, 100);
      expect(changed.filter((e) => e.server.name === name).map((e) => official(e).status)).toEqual([
        'deleted',
        'deleted',
      ]);

      expect((await w.h.http.get(serversPath(name))).status).toBe(404);
      expect((await w.h.http.get(`${serversPath(name)}/latest`)).status).toBe(404);
      const versions = await w.list(`${serversPath(name)}?include_deleted=true`);
      expect(versions.servers.map((e) => official(e).status)).toEqual(['deleted', 'deleted']);
      const latest = await w.entry(`${serversPath(name)}/latest?include_deleted=true`);
      expect(latest.server.version).toBe('2.0.0');
      expect(official(latest).status).toBe('deleted');
      // How to connect (packages, remotes, their headers), links and icons are not served for a deleted server.
      for (const entry of [...withDeleted, ...versions.servers, latest]) {
        expect(Object.keys(entry.server).sort()).toEqual(['$schema', 'description', 'name', 'title', 'version']);
      }
    },
  );

  it('cannot be unlisted twice (409), and is active again once a new version is approved', async () => {
    const item = await unlisted('unpublish');
    const again = await w.h.http
      .post(`/api/v1/publisher/mcp/${item.id}/unpublish`)
      .set(bearer(w.a.publisher.session))
      .send({});
    expect(again.status).toBe(409);
    expect(again.body.title).toBe('Mcp.NotPublished');
    await publishVersion(w.a, item.id, '3.0.0');
    const versions = await w.list(serversPath(w.nameOf(item.slug)));
    expect(versions.servers.map((e) => [e.server.version, official(e).status])).toEqual([
      ['3.0.0', 'active'],
      ['2.0.0', 'active'],
      ['1.0.0', 'active'],
    ]);
  });

  it('is unlisted only by its publisher or a moderator', async () => {
    const other = await createActors(w.h);
    const item = await publishItem(w.h, w.a, 'mcp', { slug: uniqueSlug('kept') });
    const foreign = await w.h.http
      .post(`/api/v1/publisher/mcp/${item.id}/unpublish`)
      .set(bearer(other.publisher.session))
      .send({});
    expect(foreign.status).toBe(404);
    const notModerator = await w.h.http
      .post(`/api/v1/moderation/mcp/${item.id}/remove`)
      .set(bearer(w.a.publisher.session))
      .send({ reason: 'Mine.' });
    expect(notModerator.status).toBe(403);
    const noReason = await w.h.http
      .post(`/api/v1/moderation/mcp/${item.id}/remove`)
      .set(bearer(w.a.moderator.session))
      .send({});
    expect(noReason.status).toBe(400);
    expect((await w.h.http.get(`/api/v1/mcp/${item.slug}`)).status).toBe(200);
  });
});
