// The official registry serves the same API at /v0 and /v0.1, and its clients use both: `mcp-publisher publish` posts
// to /v0/publish, and aggregators written before v0.1 page through /v0/servers. Ours answers both prefixes alike.
import { publishItem, uniqueSlug } from '../support/catalog-factory.js';
import { bearer } from '../support/identity.js';
import { violations } from './registry-schema.js';
import { openRegistryWorld, type RegistryWorld } from './registry-world.js';

let w: RegistryWorld;
let name: string;

beforeAll(async () => {
  w = await openRegistryWorld();
  const item = await publishItem(w.h, w.a, 'mcp', {
    slug: uniqueSlug('vzero'),
    version: { connections: [{ transport: 'streamable-http', url: 'https://vzero.example.com/mcp' }] },
  });
  name = w.nameOf(item.slug);
}, 60_000);
afterAll(async () => w.close());

const versionsPath = (prefix: string) => `${prefix}/servers/${encodeURIComponent(name)}/versions`;

describe('the MCP Registry API at /v0', () => {
  it.each([
    ['the list', (p: string) => `${p}/servers?limit=5&search=vzero`, 'ServerList'],
    ['a server version list', (p: string) => versionsPath(p), 'ServerList'],
    ['the latest version', (p: string) => `${versionsPath(p)}/latest`, 'ServerResponse'],
    ['an exact version', (p: string) => `${versionsPath(p)}/1.0.0`, 'ServerResponse'],
  ] as const)('answers %s as /v0.1 does', async (_what, path, definition) => {
    const v0 = await w.h.http.get(path('/v0'));
    expect(v0.status).toBe(200);
    expect(v0.headers['access-control-allow-origin']).toBe('*');
    expect(violations(definition, v0.body)).toEqual([]);
    const v01 = await w.h.http.get(path('/v0.1'));
    expect(v0.body).toEqual(v01.body);
    expect(JSON.stringify(v0.body)).toContain(name);
  });

  it('answers its errors as the registry does: {error} with the status', async () => {
    for (const [path, status] of [
      ['/v0/servers?limit=0', 400],
      ['/v0/servers?cursor=not-a-cursor', 400],
      [`${versionsPath('/v0')}/9.9.9`, 404],
      ['/v0/no-such-route', 404],
    ] as const) {
      const res = await w.h.http.get(path);
      expect([path, res.status]).toEqual([path, status]);
      expect(violations('Error', res.body)).toEqual([]);
    }
  });

  it('publishes at /v0/publish, where mcp-publisher posts, with a Publisher API key', async () => {
    const slug = uniqueSlug('vzero-pub');
    const body = {
      $schema: 'https://static.modelcontextprotocol.io/schemas/2025-12-11/server.schema.json',
      name: w.nameOf(slug),
      description: 'Published through the path the official CLI uses.',
      version: '1.0.0',
      remotes: [{ type: 'streamable-http', url: 'https://vzero-pub.example.com/mcp' }],
    };
    const res = await w.h.http.post('/v0/publish').set(bearer(w.a.publisher.apiKey)).send(body);
    expect(res.status).toBe(200);
    expect(res.body.server).toMatchObject({ name: body.name, version: '1.0.0' });
    expect(res.body._meta[`${w.namespace}/catalog`]).toMatchObject({ status: 'in_review' });
    const anonymous = await w.h.http.post('/v0/publish').send(body);
    expect(anonymous.status).toBe(401);
    expect(violations('Error', anonymous.body)).toEqual([]);
  });

  // The API's optional edit and delete of a version: a registry without them answers 501 {error}, not a 404 that a
  // client would read as "no such version".
  it.each([
    ['put', '/v0.1'],
    ['delete', '/v0.1'],
    ['put', '/v0'],
    ['delete', '/v0'],
  ] as const)(
    'answers %s %s/servers/{name}/versions/{version} 501 {error}: not offered here',
    async (method, prefix) => {
      const res = await w.h.http[method](`${versionsPath(prefix)}/1.0.0`)
        .set(bearer(w.a.publisher.apiKey))
        .send({});
      expect(res.status).toBe(501);
      expect(violations('Error', res.body)).toEqual([]);
      expect(res.body.error).toMatch(/not supported by this registry/);
      expect((await w.h.http.get(`${versionsPath(prefix)}/1.0.0`)).status).toBe(200);
    },
  );
});
