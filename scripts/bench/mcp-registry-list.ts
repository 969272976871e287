// `npx tsx scripts/bench/mcp-registry-list.ts [seconds] [connections]`: seeds 10,000 published MCP items with two
// versions each into a scratch database, then measures the MCP Registry API's list (`GET /v0.1/servers`: the first
// page, VS Code's `version=latest&limit=50`, and a page 10,000 entries deep by cursor) against the catalog's own
// first page (`GET /api/v1/mcp`) in the same run, both with the read cache off, so every request reads PostgreSQL.
import { createApp } from '../../api/app.js';
import { encodeCursor } from '../../shared/mcp-registry/cursor.js';
import { listRegistryEntries } from '../../shared/mcp-registry/registry-reads.js';
import { registryNamespace } from '../../shared/mcp-registry/server-names.js';
import { benchArgs } from './bench-args.js';
import { openBenchContext } from './bench-context.js';
import { reportHeadline } from './headline.js';
import { listenOnLoopback, measureGets } from './http-load.js';
import { seedRegistryCatalog } from './registry-seed.js';

const [seconds, connections] = benchArgs(import.meta.url, [
  ['seconds', 4, 'duration'],
  ['connections', 16],
]);
const ITEMS = 10_000;

const bench = await openBenchContext('mcp_registry', { CATALOG_READ_CACHE_MS: '0' });
const { ctx } = bench;

try {
  const t0 = performance.now();
  await seedRegistryCatalog(ctx, ITEMS);
  console.log(
    `seeded ${ITEMS} MCP items with 2 published versions in ${((performance.now() - t0) / 1000).toFixed(1)} s`,
  );
  const deep = await listRegistryEntries(ctx.db, registryNamespace(ctx.config), {
    limit: 10_000,
    includeDeleted: false,
  });
  const cursor = deep.next ? encodeCursor(deep.next) : '';
  const { server, origin } = await listenOnLoopback(createApp(ctx));
  const measure = (name: string, path: string) => measureGets(name, origin, path, { seconds, connections });

  console.log(
    `load: ${connections} connections, ${seconds} s per case, no read cache, client and server in this process`,
  );
  const first = await measure('GET /api/v1/mcp', '/api/v1/mcp?pageSize=30');
  const cases = [
    await measure('GET /v0.1/servers', '/v0.1/servers'),
    await measure('version=latest&limit=50', '/v0.1/servers?version=latest&limit=50'),
    await measure('10,000 deep by cursor', `/v0.1/servers?cursor=${cursor}`),
  ];
  const last = await measure('GET /api/v1/mcp', '/api/v1/mcp?pageSize=30');
  const base = (first.rps + last.rps) / 2;
  console.log(`  baseline ${first.name}: ${first.rps.toFixed(0)} and ${last.rps.toFixed(0)} req/s`);
  for (const r of cases) {
    console.log(
      `  ${r.name.padEnd(26)} ${r.rps.toFixed(0).padStart(6)} req/s  p50 ${r.p50.toFixed(1)} ms  p99 ${r.p99.toFixed(1)} ms  ratio ${(r.rps / base).toFixed(2)}`,
    );
    reportHeadline({
      figure: `registry ${r.name}`,
      value: r.rps,
      baseline: base,
      unit: 'req/s',
      baselineName: 'catalog list',
    });
  }
  server.close();
} finally {
  await bench.close();
}
