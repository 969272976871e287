// `npx tsx scripts/bench/catalog-list.ts [seconds] [connections]`: seeds 10,000 published MCP items into a scratch
// database, then measures GET /api/v1/mcp (first page, a search, a category filter) against a bare Express route
// that answers a JSON body of the same size, in the same process and run: once through the in-process read cache
// (CATALOG_READ_CACHE_MS, as deployed) and once with it off (every request queries PostgreSQL). Prints req/s,
// latencies, the ratio to the baseline, and the query plans. No ETag revalidation: every request gets a full 200.
import { sql } from 'drizzle-orm';
import express from 'express';
import { fetch } from 'undici';
import { createApp } from '../../api/app.js';
import type { ListQuery } from '../../shared/catalog/catalog-list.js';
import { listQueries } from '../../shared/catalog/catalog-list.js';
import { catalogCategories, catalogItems, catalogVersions, publishers } from '../../shared/db/schema/index.js';
import { createAccount } from '../../shared/identity/accounts.js';
import { benchArgs } from './bench-args.js';
import { openBenchContext } from './bench-context.js';
import { reportHeadline } from './headline.js';
import { type LoadResult, listenOnLoopback, measureGets } from './http-load.js';

const [seconds, connections] = benchArgs(import.meta.url, [
  ['seconds', 5, 'duration'],
  ['connections', 16],
]);
const ITEMS = 10_000;
const CATEGORIES = 20;
const words = ['weather', 'github', 'postgres', 'search', 'calendar', 'slack', 'notes', 'files', 'browser', 'memory'];

const bench = await openBenchContext('catalog');
const { ctx } = bench;

async function seed() {
  const owner = await createAccount(ctx, { email: 'bench@bench.local', name: 'Bench', passwordHash: 'x' });
  const [official] = await ctx.db
    .insert(publishers)
    .values({ slug: 'bench-official', name: 'Bench Official', ownerAccountId: owner.id, verified: true })
    .returning();
  const [community] = await ctx.db
    .insert(publishers)
    .values({ slug: 'bench-community', name: 'Bench Community', ownerAccountId: owner.id })
    .returning();
  await ctx.db
    .insert(catalogCategories)
    .values(
      Array.from({ length: CATEGORIES }, (_, n) => ({ type: 'mcp' as const, slug: `cat-${n}`, name: `Cat ${n}` })),
    );
  const now = Date.now();
  for (let start = 0; start < ITEMS; start += 1_000) {
    const rows = Array.from({ length: 1_000 }, (_, k) => {
      const n = start + k;
      const word = words[n % words.length]!;
      return {
        type: 'mcp' as const,
        slug: `${word}-server-${n}`,
        publisherId: (n % 7 === 0 ? official : community)!.id,
        name: `${word[0]!.toUpperCase()}${word.slice(1)} Server ${n}`,
        summary: `Connects assistants to ${word} number ${n}.`,
        description: `A server for ${word} and ${words[(n * 3) % words.length]} with tools, resources and prompts.`,
        tags: [word, `t-${n % 50}`],
        categories: [`cat-${n % CATEGORIES}`],
        status: 'published' as const,
        isFeatured: n % 97 === 0,
        publishedAt: new Date(now - n * 60_000),
        primaryTransport: 'stdio',
        toolCount: n % 12,
        installCount: (n * 7919) % 5000,
        usageCount: (n * 104729) % 90000,
        viewCount: (n * 31) % 20000,
        ratingCount: n % 40,
        ratingSum: (n % 40) * ((n % 5) + 1),
      };
    });
    const items = await ctx.db.insert(catalogItems).values(rows).returning({ id: catalogItems.id });
    await ctx.db.insert(catalogVersions).values(
      items.map((it) => ({
        itemId: it.id,
        version: '1.0.0',
        status: 'published' as const,
        license: 'MIT',
        payload: { connections: [{ transport: 'stdio', command: 'npx' }], tools: [], resources: [], prompts: [] },
        publishedAt: new Date(),
      })),
    );
  }
  await ctx.db.execute(sql`
    update catalog_items i set current_version_id = v.id from catalog_versions v where v.item_id = i.id`);
  await ctx.db.execute(sql`vacuum analyze catalog_items`);
  await ctx.db.execute(sql`analyze catalog_versions`);
}

type Result = LoadResult;

const measure = (name: string, origin: string, path: string) =>
  measureGets(name, origin, path, { seconds, connections });

async function planSummary(query: Partial<ListQuery>) {
  const built = listQueries(ctx.db, 'mcp', { sort: 'latest', page: 1, pageSize: 20, ...query }).page.toSQL();
  const { rows } = await ctx.pool.query(`explain (analyze, format json) ${built.sql}`, built.params);
  type Node = { 'Node Type': string; 'Index Name'?: string; Plans?: Node[] };
  const root = (rows[0]['QUERY PLAN'] as { Plan: Node; 'Execution Time': number }[])[0]!;
  const walk = (n: Node): string[] => [
    `${n['Node Type']}${n['Index Name'] ? ` (${n['Index Name']})` : ''}`,
    ...(n.Plans ?? []).flatMap(walk),
  ];
  return `${walk(root.Plan).join(' > ')}  [${root['Execution Time'].toFixed(2)} ms]`;
}

try {
  const t0 = performance.now();
  await seed();
  console.log(`seeded ${ITEMS} published MCP items in ${((performance.now() - t0) / 1000).toFixed(1)} s`);

  const listen = listenOnLoopback;
  const cached = await listen(bench.app);
  const uncached = await listen(createApp({ ...ctx, config: { ...ctx.config, CATALOG_READ_CACHE_MS: 0 } }));
  const firstPage = await (await fetch(`${cached.origin}/api/v1/mcp`)).json();

  const bare = express();
  bare.disable('x-powered-by');
  bare.get('/bare', (_req, res) => {
    res.json(firstPage);
  });
  const baseline = await listen(bare);

  const cases: [string, string, Partial<ListQuery>][] = [
    ['first page', '/api/v1/mcp', {}],
    ['search', '/api/v1/mcp?search=weather', { search: 'weather', sort: 'relevance' }],
    ['category', '/api/v1/mcp?category=cat-7', { category: 'cat-7' }],
  ];
  console.log('\nquery plans (EXPLAIN ANALYZE of the page query):');
  for (const [name, , query] of cases) console.log(`  ${name.padEnd(10)} ${await planSummary(query)}`);

  console.log(`\nload: ${connections} connections, ${seconds} s per case, client and server in this process`);
  // The baseline is measured first and last; the ratios use the mean of both, which evens out drift in the run.
  const first = await measure('bare express res.json', baseline.origin, '/bare');
  const print = (r: Result) => {
    const ratio = r === base ? '' : `  ratio ${(r.rps / base.rps).toFixed(2)} of baseline`;
    console.log(
      `  ${r.name.padEnd(22)} ${r.rps.toFixed(0).padStart(6)} req/s  p50 ${r.p50.toFixed(1)} ms  p99 ${r.p99.toFixed(1)} ms${ratio}`,
    );
  };
  const measured: [string, Result[]][] = [];
  for (const [label, target, ttl] of [
    ['read cache', cached, ctx.config.CATALOG_READ_CACHE_MS],
    ['no cache', uncached, 0],
  ] as const) {
    const results: Result[] = [];
    for (const [name, path] of cases) results.push(await measure(name, target.origin, path));
    measured.push([`${label} (CATALOG_READ_CACHE_MS=${ttl})`, results]);
  }
  const last = await measure('bare express res.json', baseline.origin, '/bare');
  const base = { ...first, rps: (first.rps + last.rps) / 2 };
  console.log(`  baseline runs: ${first.rps.toFixed(0)} and ${last.rps.toFixed(0)} req/s`);
  print(base);
  for (const [label, results] of measured) {
    console.log(`  -- ${label}`);
    results.forEach(print);
    for (const r of results) {
      const figure = `${label.split(' (')[0]}: ${r.name}`;
      reportHeadline({ figure, value: r.rps, baseline: base.rps, unit: 'req/s', baselineName: 'bare express' });
    }
  }
  for (const s of [cached, uncached, baseline]) s.server.close();
} finally {
  await bench.close();
}
