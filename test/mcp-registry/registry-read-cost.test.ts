// biome-ignore-all lint/suspicious/noTemplateCurlyInString: the catalog writes its placeholders literally as ${NAME}.
// The MCP Registry reads build server.json from a version's connections and config fields only. They read the whole
// payload for it: a page of 100 published versions with large tool lists (250 tools of 4,000 characters, about 1 MB
// each, inside the body limit) was 100 MB detoasted by PostgreSQL and parsed on the API's main loop, about a second of
// the API's CPU (and 1.1 to 2 s per answer) for an 83 KB answer anyone can ask for (security review #151).
import { getServerVersion, listRegistryEntries, listServerVersions } from '../../shared/mcp-registry/registry-reads.js';
import { registryNamespace } from '../../shared/mcp-registry/server-names.js';
import { createActors, publishItem } from '../support/catalog-factory.js';
import { createHarness, type Harness } from '../support/harness.js';

describe('MCP Registry reads of a version with a large tool list', () => {
  let h: Harness;
  let name: string;
  const namespace = () => registryNamespace(h.config);
  const tools = Array.from({ length: 250 }, (_, k) => ({ name: `tool${k}`, description: 'd'.repeat(3990) }));
  const connections = [
    { transport: 'streamable-http', url: 'https://mcp.example.com/mcp', headers: { Authorization: 'Bearer ${TOKEN}' } },
  ];
  const configFields = [{ name: 'TOKEN', type: 'secret', required: true }];

  beforeAll(async () => {
    h = await createHarness();
    const a = await createActors(h);
    const item = await publishItem(h, a, 'mcp', { version: { connections, tools, configFields } });
    name = `${namespace()}.${a.namespace}/${item.slug}`;
  });
  afterAll(async () => h?.close());

  /** What a read holds of the version: its rows as JSON, in characters. */
  const size = (rows: unknown) => JSON.stringify(rows).length;

  it('reads the connections and config fields, not the tools', async () => {
    const page = await listRegistryEntries(h.ctx.db, namespace(), { limit: 100, includeDeleted: false, search: name });
    expect(page.entries).toHaveLength(1);
    expect(page.entries[0]?.payload).toEqual({ connections, configFields });
    expect(size(page.entries)).toBeLessThan(10_000);
    const versions = await listServerVersions(h.ctx.db, namespace(), name, false);
    expect(size(versions)).toBeLessThan(10_000);
    const latest = await getServerVersion(h.ctx.db, namespace(), name, 'latest', false);
    expect(latest.payload).toEqual({ connections, configFields });
  });

  it('still answers the remote with its secret header input', async () => {
    const res = await h.http.get(`/v0.1/servers/${encodeURIComponent(name)}/versions/latest`);
    expect(res.status).toBe(200);
    expect(res.body.server.remotes).toEqual([
      {
        type: 'streamable-http',
        url: 'https://mcp.example.com/mcp',
        headers: [
          {
            name: 'Authorization',
            value: 'Bearer {TOKEN}',
            variables: { TOKEN: { format: 'string', isRequired: true, isSecret: true } },
          },
        ],
      },
    ]);
    expect(res.text.length).toBeLessThan(10_000);
  });
});
