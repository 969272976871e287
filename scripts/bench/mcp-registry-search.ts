// `npx tsx scripts/bench/mcp-registry-search.ts [runs]`: seeds 10,000 published MCP items with two versions each into a
// scratch database, then times the MCP Registry list's reads whose matches are few (a `search` that matches nothing
// or one server, an `updated_since` after every change or a minute before the newest) and many (a search every name
// holds, an `updated_since` before every change), each read the way it is now (the matching items first) and the
// way it was (the ordered walk of every published version), in the same run: the median of `runs` reads, the ratio,
// and whether both gave the same page. Last, the time migration 0028's CREATE INDEX holds its lock on catalog_items.
import { readFileSync } from 'node:fs';
import { sql } from 'drizzle-orm';
import {
  listRegistryEntries,
  type RegistryListQuery,
  walkRegistryEntries,
} from '../../shared/mcp-registry/registry-reads.js';
import { registryNamespace } from '../../shared/mcp-registry/server-names.js';
import { benchArgs } from './bench-args.js';
import { openBenchContext } from './bench-context.js';
import { reportHeadline } from './headline.js';
import { seedRegistryCatalog } from './registry-seed.js';

const [runs] = benchArgs(import.meta.url, [['runs', 15]]);
const ITEMS = 10_000;

const bench = await openBenchContext('mcp_registry_search', { CATALOG_READ_CACHE_MS: '0' });
const { ctx } = bench;

async function median(read: () => Promise<unknown>) {
  const times: number[] = [];
  for (let k = 0; k < runs; k += 1) {
    const t0 = performance.now();
    await read();
    times.push(performance.now() - t0);
  }
  return times.sort((a, b) => a - b)[Math.floor(times.length / 2)] ?? 0;
}

try {
  await seedRegistryCatalog(ctx, ITEMS);
  const namespace = registryNamespace(ctx.config);
  const {
    rows: [newest],
  } = await ctx.db.execute<{ at: string }>(
    sql`select max(published_at) as at from catalog_versions where status = 'published'`,
  );
  const newestAt = new Date(newest!.at);
  const base = { limit: 30, includeDeleted: false };
  const cases: [string, RegistryListQuery][] = [
    ['search matching nothing', { ...base, search: 'no-such-server' }],
    ['updated_since after all', { ...base, updatedSince: new Date(newestAt.getTime() + 1_000) }],
    ['search matching one', { ...base, search: 'bench/server-4242' }],
    ['updated_since 1 min back', { ...base, updatedSince: new Date(newestAt.getTime() - 60_000) }],
    ['search matching all', { ...base, search: 'bench' }],
    ['updated_since before all', { ...base, updatedSince: new Date(0) }],
    ['search, version=latest', { ...base, search: 'server-42', version: 'latest' }],
  ];
  console.log(`${ITEMS} MCP items of 2 published versions; median of ${runs} reads, no read cache`);
  for (const [name, q] of cases) {
    const now = await listRegistryEntries(ctx.db, namespace, q);
    const was = await walkRegistryEntries(ctx.db, namespace, q);
    const same =
      JSON.stringify([now.entries.map((e) => e.versionId), now.next]) ===
      JSON.stringify([was.entries.map((e) => e.versionId), was.next]);
    const after = await median(() => listRegistryEntries(ctx.db, namespace, q));
    const before = await median(() => walkRegistryEntries(ctx.db, namespace, q));
    console.log(
      `  ${name.padEnd(26)} ${String(now.entries.length).padStart(3)} entries  before ${before.toFixed(1).padStart(6)} ms  after ${after.toFixed(1).padStart(6)} ms  ratio ${(before / after).toFixed(1).padStart(5)}  ${same ? 'same page' : 'PAGES DIFFER'}`,
    );
    reportHeadline({ figure: `registry ${name}`, value: after, baseline: before, unit: 'ms', baselineName: 'walk' });
    if (!same) process.exitCode = 1;
  }
  const create = readFileSync(
    new URL('../../shared/db/migrations/0028_registry_changed_items.sql', import.meta.url),
    'utf8',
  );
  await ctx.db.execute(sql`drop index catalog_items_registry_changed_idx`);
  const t0 = performance.now();
  await ctx.db.execute(sql.raw(create));
  console.log(`  migration 0028 CREATE INDEX over ${ITEMS} items: ${(performance.now() - t0).toFixed(0)} ms`);
} finally {
  await bench.close();
}
