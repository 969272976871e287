// The public list of one item type: filters, weighted full-text search with prefix matching on names, the sorts of
// SPEC section 2 (ties broken on id so paging is stable), and the total for the paged envelope.
import { and, arrayContains, eq, isNotNull, type SQL, sql } from 'drizzle-orm';
import type { Database } from '../db/client.js';
import { offsetOf, pageOf } from '../db/page.js';
import { catalogItems, publishers } from '../db/schema/index.js';
import type { ItemType } from './item-types.js';

export const listSorts = ['popular', 'mostusage', 'rating', 'featured', 'latest', 'relevance'] as const;
export type ListSort = (typeof listSorts)[number];

export type ListQuery = {
  search?: string;
  category?: string;
  tag?: string;
  source?: 'official' | 'user';
  /** Only the items of this publisher namespace (its slug). */
  publisher?: string;
  sort: ListSort;
  page: number;
  pageSize: number;
};

const i = catalogItems;

/** The columns every summary needs, selected in one query with the publisher's name and verification. */
export const summaryColumns = {
  id: i.id,
  type: i.type,
  slug: i.slug,
  name: i.name,
  summary: i.summary,
  iconUrl: i.iconUrl,
  publisherName: publishers.name,
  publisherSlug: publishers.slug,
  verified: publishers.verified,
  isFeatured: i.isFeatured,
  installCount: i.installCount,
  viewCount: i.viewCount,
  ratingAverage: i.ratingAverage,
  tags: i.tags,
  categories: i.categories,
  updatedAt: i.updatedAt,
  publishedAt: i.publishedAt,
  primaryTransport: i.primaryTransport,
  toolCount: i.toolCount,
  executesCode: i.executesCode,
};

export type SummaryRow = {
  id: string;
  type: ItemType;
  slug: string;
  name: string;
  summary: string;
  iconUrl: string | null;
  publisherName: string;
  publisherSlug: string;
  verified: boolean;
  isFeatured: boolean;
  installCount: number;
  viewCount: number;
  ratingAverage: number;
  tags: string[];
  categories: string[];
  updatedAt: Date;
  publishedAt: Date | null;
  primaryTransport: string | null;
  toolCount: number | null;
  executesCode: boolean | null;
};

/**
 * Full text of the search: websearch syntax over the weighted vector, OR every word as a prefix of a name word
 * (`git` finds `github`). Words are reduced to letters and digits, so the prefix query is always well formed. The
 * prefixes are not stemmed (the `simple` configuration): English stemming rewrites a word's end (`happy` becomes
 * `happi`), after which it is no prefix of the name word it was typed from (`happyhub`); the whole words still go
 * through the stemmed websearch query.
 */
export function searchQuery(search: string): SQL {
  const words = (search.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? []).slice(0, 8);
  const web = sql`websearch_to_tsquery('english'::regconfig, ${search})`;
  if (words.length === 0) return web;
  const prefix = words.map((w) => `${w}:*A`).join(' & ');
  return sql`(${web} || to_tsquery('simple'::regconfig, ${prefix}))`;
}

const exactName = (search: string) =>
  sql`(lower(${i.name}) = ${search.trim().toLowerCase()} or ${i.slug} = ${search.trim().toLowerCase()})`;

function orderFor(query: ListQuery): SQL[] {
  const byId = sql`${i.id} desc nulls last`;
  const newest = sql`${i.publishedAt} desc nulls last`;
  switch (query.sort) {
    case 'popular':
      return [sql`${i.installCount} desc nulls last`, byId];
    case 'mostusage':
      return [sql`${i.usageCount} desc nulls last`, byId];
    case 'rating':
      return [sql`${i.ratingAverage} desc nulls last`, sql`${i.ratingCount} desc nulls last`, byId];
    case 'featured':
      return [sql`${i.isFeatured} desc nulls last`, newest, byId];
    case 'relevance':
      if (query.search) {
        const tsq = searchQuery(query.search);
        return [sql`${exactName(query.search)} desc`, sql`ts_rank(${i.searchVector}, ${tsq}) desc`, newest, byId];
      }
      return [newest, byId];
    case 'latest':
      return [newest, byId];
  }
}

function filtersFor(type: ItemType, query: ListQuery): SQL {
  const conditions: (SQL | undefined)[] = [eq(i.type, type), isNotNull(i.currentVersionId)];
  if (query.category) conditions.push(arrayContains(i.categories, [query.category]));
  if (query.tag) conditions.push(arrayContains(i.tags, [query.tag]));
  if (query.source) conditions.push(eq(publishers.verified, query.source === 'official'));
  if (query.publisher) conditions.push(eq(publishers.slug, query.publisher));
  if (query.search) conditions.push(sql`${i.searchVector} @@ ${searchQuery(query.search)}`);
  return and(...conditions) as SQL;
}

/** The page and the count query of a list, unexecuted (EXPLAIN tests and the benchmark read their SQL). */
export function listQueries(db: Database, type: ItemType, query: ListQuery) {
  const where = filtersFor(type, query);
  return {
    page: db
      .select(summaryColumns)
      .from(i)
      .innerJoin(publishers, eq(publishers.id, i.publisherId))
      .where(where)
      .orderBy(...orderFor(query))
      .limit(query.pageSize)
      .offset(offsetOf(query)),
    // The count joins publishers only when it filters on them: alone it is an index-only scan.
    count:
      query.source || query.publisher
        ? db
            .select({ total: sql<number>`count(*)::int` })
            .from(i)
            .innerJoin(publishers, eq(publishers.id, i.publisherId))
            .where(where)
        : db.select({ total: sql<number>`count(*)::int` }).from(i).where(where),
  };
}

export async function listItems(db: Database, type: ItemType, query: ListQuery) {
  const queries = listQueries(db, type, query);
  const [rows, counted] = await Promise.all([queries.page, queries.count]);
  return pageOf(rows satisfies SummaryRow[], query, counted);
}
