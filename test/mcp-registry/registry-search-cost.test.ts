// A MCP Registry list whose `search` matches no server, or whose `updated_since` is after every change, walked every
// published version of the catalog in publication order (with its item) before answering an empty page: 120–175 ms of
// PostgreSQL at 10,000 servers, for anyone (security review #154). It now finds the matching items first and reads
// only their versions. Counted in the buffers PostgreSQL touches (EXPLAIN (ANALYZE, BUFFERS) of each statement the
// read sends), not in time.
import { drizzle } from 'drizzle-orm/node-postgres';
import type pg from 'pg';
import { seedRegistryCatalog } from '../../scripts/bench/registry-seed.js';
import type { Database } from '../../shared/db/client.js';
import { listRegistryEntries, type RegistryListQuery } from '../../shared/mcp-registry/registry-reads.js';
import { registryNamespace } from '../../shared/mcp-registry/server-names.js';
import { createHarness, type Harness } from '../support/harness.js';

type Plan = { Plan: { 'Shared Hit Blocks': number; 'Shared Read Blocks': number } };

describe('MCP Registry reads that match little', () => {
  let h: Harness;
  const ITEMS = 2_000;

  beforeAll(async () => {
    h = await createHarness();
    await seedRegistryCatalog(h.ctx, ITEMS);
  });
  afterAll(async () => h?.close());

  /** The entries of a read and the shared buffers its statements touched, as PostgreSQL counts them. */
  async function buffersOf(q: RegistryListQuery) {
    const pool = h.ctx.pool;
    let buffers = 0;
    const counting = {
      async query(config: pg.QueryConfig, values?: unknown[]) {
        const result = await pool.query(config, values);
        const text = typeof config === 'string' ? config : config.text;
        const explained = await pool.query<{ 'QUERY PLAN': Plan[] }>({
          text: `explain (analyze, buffers, format json) ${text}`,
          values: (typeof config === 'string' ? undefined : config.values) ?? values,
        });
        const plan = explained.rows[0]!['QUERY PLAN'][0]!.Plan;
        buffers += plan['Shared Hit Blocks'] + plan['Shared Read Blocks'];
        return result;
      },
    };
    const db = drizzle(counting as never) as unknown as Database;
    const page = await listRegistryEntries(db, registryNamespace(h.config), q);
    return { entries: page.entries.length, buffers };
  }

  const base = { limit: 30, includeDeleted: false };

  it('reads far fewer pages than the catalog holds versions when a search matches nothing', async () => {
    const read = await buffersOf({ ...base, search: 'no-such-server' });
    expect(read.entries).toBe(0);
    // The walk touched every published version and its item: over three buffers a version (6,000+ here).
    expect(read.buffers).toBeLessThan(ITEMS / 4);
  });

  it('reads a handful of pages when updated_since is after every change', async () => {
    const read = await buffersOf({ ...base, updatedSince: new Date(Date.now() + 60_000) });
    expect(read.entries).toBe(0);
    expect(read.buffers).toBeLessThan(20);
  });

  it('reads in proportion to the one server a search names', async () => {
    const read = await buffersOf({ ...base, search: 'bench/server-1234' });
    expect(read.entries).toBe(2);
    expect(read.buffers).toBeLessThan(ITEMS / 4);
  });
});
