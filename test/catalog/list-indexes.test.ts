// Which index each list query can use (the benchmark prints the plans on 10,000 items, where GIN wins for filters).
import { type ListQuery, listQueries } from '../../shared/catalog/catalog-list.js';
import { createHarness, type Harness } from '../support/harness.js';

let h: Harness;

beforeAll(async () => {
  h = await createHarness();
});
afterAll(async () => h.close());

type PlanNode = { 'Node Type': string; 'Index Name'?: string; 'Relation Name'?: string; Plans?: PlanNode[] };
const nodes = (n: PlanNode): PlanNode[] => [n, ...(n.Plans ?? []).flatMap(nodes)];

/** The plan of a list query with sequential scans priced out, as on a large table. */
async function planOf(query: Partial<ListQuery>) {
  const built = listQueries(h.ctx.db, 'mcp', { sort: 'latest', page: 1, pageSize: 20, ...query }).page.toSQL();
  const client = await h.ctx.pool.connect();
  try {
    await client.query('begin');
    await client.query('set local enable_seqscan = off');
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
    const plan = await planOf({ sort });
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
    expect(reads.length).toBeGreaterThan(0);
    for (const node of reads) expect(node['Node Type']).toMatch(/Index/);
  });
});
