// Request schemas of the public catalog routes: the list query, the report body and the rating body.
import { z } from 'zod';
import { type ListQuery, type ListSort, listSorts } from '../../../shared/catalog/catalog-list.js';
import { isSlug } from '../../../shared/catalog/item-types.js';

/** An empty query parameter counts as absent; a repeated one (`?page=1&page=2` arrives as an array) is an error that
 * says so, where zod's own words were "expected string, received array". */
export const param = <S extends z.ZodType>(schema: S) =>
  z.preprocess((v, ctx) => {
    if (Array.isArray(v)) {
      ctx.addIssue({ code: 'custom', message: 'Give this parameter once.' });
      return z.NEVER;
    }
    return v === '' ? undefined : v;
  }, schema.optional());

export const positiveInt = (max: number) =>
  z
    .string()
    .regex(/^\d{1,9}$/, 'must be an integer')
    .transform(Number)
    .pipe(z.number().int().min(1).max(max));

const slugParam = z
  .string()
  .max(64)
  .refine((v) => isSlug(v, 64), 'must be a slug such as "developer-tools"');

/** How the document shows a query parameter read as `positiveInt`: an integer, as clients send it (a query string is
 * text on the wire; documented as its pattern, generated clients typed `page` as a string). */
export const integerQueryDoc = (maximum: number, defaultValue: number) =>
  ({ type: 'integer', minimum: 1, maximum, default: defaultValue }) as Record<string, unknown>;

export const pageParams = {
  page: param(positiveInt(1_000_000))
    .transform((v) => v ?? 1)
    .meta(integerQueryDoc(1_000_000, 1)),
  pageSize: param(positiveInt(100))
    .transform((v) => v ?? 20)
    .meta(integerQueryDoc(100, 20)),
};

export const listQuery = z
  .object({
    search: param(z.string().trim().max(200)),
    category: param(slugParam),
    tag: param(slugParam),
    source: param(z.enum(['official', 'user'])),
    publisher: param(slugParam).meta({
      description: "Only this publisher namespace's items (its slug, the item's `publisherSlug`).",
    }),
    sort: param(z.string().max(64)).meta({
      description:
        '`popular` (installCount), `mostusage` (usageCount), `rating` (ratingAverage, then ratingCount), `featured` ' +
        '(featured first, then newest), `latest` (publishedAt, the default), `relevance` (with `search`, its default). ' +
        'Every sort ends with id, so paging is stable. Any other value sorts as `latest` (seed 01).',
      examples: [...listSorts],
    }),
    ...pageParams,
  })
  .transform(({ sort, search, ...rest }): ListQuery => {
    const term = search || undefined;
    const chosen: ListSort =
      sort === undefined
        ? term
          ? 'relevance'
          : 'latest'
        : (listSorts as readonly string[]).includes(sort)
          ? (sort as ListSort)
          : 'latest';
    return { ...rest, search: term, sort: chosen };
  });

export const reportBody = z.object({
  reason: z.string().trim().min(1).max(200),
  detail: z.string().trim().max(4000).optional(),
});

export const ratingBody = z.object({ score: z.number().int().min(1).max(5) });
