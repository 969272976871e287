// A page of a list as the catalog and admin lists answer it (`{items, page, pageSize, total, hasNext}`), from
// one query for the page's rows and one for the count.
export type PageQuery = { page: number; pageSize: number };

/** Offset of the page's first row. */
export const offsetOf = (query: PageQuery) => (query.page - 1) * query.pageSize;

export function pageOf<T>(items: T[], query: PageQuery, counted: { total: number }[]) {
  const total = counted[0]?.total ?? 0;
  return { items, page: query.page, pageSize: query.pageSize, total, hasNext: query.page * query.pageSize < total };
}
