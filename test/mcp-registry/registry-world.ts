// A world for the MCP Registry API tests: the harness, the seeded demo catalog, catalog actors, and helpers that
// read the registry answers and check them against the published constraints (test/mcp-registry/registry-schema.ts).
import { runSeed } from '../../scripts/seed/seed-steps.js';
import { registryNamespace } from '../../shared/mcp-registry/server-names.js';
import { type Actors, createActors } from '../support/catalog-factory.js';
import { createHarness, type Harness } from '../support/harness.js';
import { violations } from './registry-schema.js';

export type Entry = {
  server: Record<string, unknown> & { name: string; version: string; description: string };
  _meta: Record<string, Record<string, unknown>> & {
    'io.modelcontextprotocol.registry/official': {
      status: string;
      isLatest: boolean;
      publishedAt: string;
      updatedAt: string;
    };
  };
};
export type ServerList = { servers: Entry[]; metadata: { nextCursor?: string; count: number } };

export type RegistryWorld = {
  h: Harness;
  a: Actors;
  namespace: string;
  /** `<namespace>.<publisher>/<slug>` of an item of the test's actors (or of another publisher). */
  nameOf(slug: string, publisherSlug?: string): string;
  /** GETs a list answer; fails unless it is 200 and a valid ServerList. */
  list(path: string): Promise<ServerList>;
  /** GETs one entry; fails unless it is 200 and a valid ServerResponse. */
  entry(path: string): Promise<Entry>;
  /** Every entry of the list at `query`, following nextCursor with `limit` per page. */
  pageThrough(query: string, limit: number, between?: () => Promise<void>): Promise<Entry[]>;
  close(): Promise<void>;
};

export const serversPath = (name: string) => `/v0.1/servers/${encodeURIComponent(name)}/versions`;

export async function openRegistryWorld(): Promise<RegistryWorld> {
  const h = await createHarness();
  await runSeed(h.ctx);
  const a = await createActors(h);
  const namespace = registryNamespace(h.config);
  const get = async (path: string, definition: 'ServerList' | 'ServerResponse') => {
    const res = await h.http.get(path);
    if (res.status !== 200) throw new Error(`GET ${path}: ${res.status} ${res.text}`);
    expect(res.headers['content-type']).toMatch(/^application\/json/);
    expect(violations(definition, res.body)).toEqual([]);
    return res.body;
  };
  const world: RegistryWorld = {
    h,
    a,
    namespace,
    nameOf: (slug, publisherSlug = a.namespace) => `${namespace}.${publisherSlug}/${slug}`,
    list: (path) => get(path, 'ServerList'),
    entry: (path) => get(path, 'ServerResponse'),
    async pageThrough(query, limit, between) {
      const seen: Entry[] = [];
      let cursor: string | undefined;
      for (let pages = 0; pages < 10_000; pages++) {
        const page = await world.list(
          `/v0.1/servers?limit=${limit}${query ? `&${query}` : ''}${cursor ? `&cursor=${cursor}` : ''}`,
        );
        expect(page.metadata.count).toBe(page.servers.length);
        expect(page.servers.length).toBeLessThanOrEqual(limit);
        seen.push(...page.servers);
        cursor = page.metadata.nextCursor;
        if (!cursor) return seen;
        await between?.();
      }
      throw new Error('paging did not end');
    },
    close: () => h.close(),
  };
  return world;
}

export const keyOf = (e: Entry) => `${e.server.name}@${e.server.version}`;
export const official = (e: Entry) => e._meta['io.modelcontextprotocol.registry/official'];
