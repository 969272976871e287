// Which index each list query can use (the benchmark prints the plans on 10,000 items, where GIN wins for filters).
import { type ListQuery, listQueries } from '../../shared/catalog/catalog-list.js';
import { createActors, publishItem } from '../support/catalog-factory.js';
import { createHarness, freshTestDatabase, type Harness } from '../support/harness.js';

let h: Harness;

beforeAll(async () => {
  h = await createHarness({ DATABASE_URL: await freshTestDatabase() });
  const actors = await createActors(h);
  for (let i = 0; i < 3; i++) await publishItem(h, actors, 'mcp');
  await h.ctx.pool.query('analyze catalog_items');
});
afterAll(async () => h.close());

type PlanNode = { 'Node Type': string; 'Index Name'?: string; 'Relation Name'?: string; Plans?: PlanNode[] };
const nodes = (n: PlanNode): PlanNode[] => [n, ...(n.Plans ?? []).flatMap(nodes)];

/**
 * The plan of a list query with sequential scans priced out, as on a large table; `inOrder` also prices out sorting
 * and bitmap scans, so the plan avoids a sort step exactly when an index gives the order. What the planner picks
 * otherwise depends on the table's statistics: with the rows other test files left behind (mostly unpublished
 * drafts), a bitmap scan and a sort looked cheaper, and this test failed whenever jest ran it after them.
 */
async function planOf(query: Partial<ListQuery>, inOrder = false) {
  const built = listQueries(h.ctx.db, 'mcp', { sort: 'latest', page: 1, pageSize: 20, ...query }).page.toSQL();
  const client = await h.ctx.pool.connect();
  try {
    await client.query('begin');
    await client.query('set local enable_seqscan = off');
    if (inOrder) await client.query('set local enable_sort = off; set local enable_bitmapscan = off');
    const { rows } = await client.query(`explain (format json) ${built.sql}`, built.params);
    await client.query('rollback');
    return nodes((rows[0]['QUERY PLAN'] as { Plan: PlanNode }[])[0]!.Plan);
  } finally {
    client.release();
  }
}

describe('list query plans', () => {
  it.each([
    ['latest', 'catalog_items_latest_idx'],
    ['popular', 'catalog_items_popular_idx'],
    ['mostusage', 'catalog_items_usage_idx'],
    ['rating', 'catalog_items_rating_idx'],
    ['featured', 'catalog_items_featured_idx'],
  ] as const)('sort=%s reads %s in order, without a sort step', async (sort, index) => {
    const plan = await planOf({ sort }, true);
    const items = plan.filter((n) => n['Relation Name'] === 'catalog_items');
    expect(items.map((n) => n['Index Name'])).toEqual([index]);
    expect(plan.some((n) => n['Node Type'] === 'Sort')).toBe(false);
  });

  it.each([
    { search: 'weather', sort: 'relevance' as const },
    { search: 'weather', sort: 'popular' as const },
    { category: 'developer-tools' },
    { tag: 'weather', source: 'official' as const },
  ])('a filtered list %j reads catalog_items only through indexes', async (filter) => {
    const plan = await planOf(filter);
    const reads = plan.filter(
      (n) => n['Relation Name'] === 'catalog_items' || n['Index Name']?.startsWith('catalog_items'),
    );
    expect(reads.some((n) => n['Index Name']?.startsWith('catalog_items'))).toBe(true);
    // An index scan, or a bitmap heap scan fed by one: never a sequential read of the table.
    for (const node of reads) expect(node['Node Type']).toMatch(/Index|Bitmap Heap Scan/);
  });
});
