// A page of a list as the catalog and admin lists answer it (`{items, page, pageSize, total, hasNext}`), from
// one query for the page's rows and one for the count.
import { type SQL, sql } from 'drizzle-orm';
import type { PgTable } from 'drizzle-orm/pg-core';
import type { DbExecutor } from './client.js';

export type PageQuery = { page: number; pageSize: number };

/** Offset of the page's first row. */
export const offsetOf = (query: PageQuery) => (query.page - 1) * query.pageSize;

export function pageOf<T>(items: T[], query: PageQuery, counted: { total: number }[]) {
  const total = counted[0]?.total ?? 0;
  return { items, page: query.page, pageSize: query.pageSize, total, hasNext: query.page * query.pageSize < total };
}

/** A select still without its limit and offset. */
type UnpagedSelect<Row> = { limit(limit: number): { offset(offset: number): PromiseLike<Row[]> } };

/**
 * One page of `select` (already filtered by `where` and ordered) and the count of every row `where` selects from
 * `table`, read in parallel.
 */
export async function readPage<Row>(
  db: DbExecutor,
  select: UnpagedSelect<Row>,
  table: PgTable,
  where: SQL | undefined,
  query: PageQuery,
) {
  const [rows, counted] = await Promise.all([
    select.limit(query.pageSize).offset(offsetOf(query)),
    db.select({ total: sql<number>`count(*)::int` }).from(table).where(where),
  ]);
  return pageOf(rows, query, counted);
}
