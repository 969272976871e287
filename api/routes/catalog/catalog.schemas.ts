// Request schemas of the public catalog routes: the list query, the report body and the rating body.
import { z } from 'zod';
import { type ListQuery, type ListSort, listSorts } from '../../../shared/catalog/catalog-list.js';
import { isSlug } from '../../../shared/catalog/item-types.js';

/** An empty query parameter counts as absent; a repeated one is an error (it would arrive as an array). */
const param = <S extends z.ZodType>(schema: S) => z.preprocess((v) => (v === '' ? undefined : v), schema.optional());

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

export const pageParams = {
  page: param(positiveInt(1_000_000)).transform((v) => v ?? 1),
  pageSize: param(positiveInt(100)).transform((v) => v ?? 20),
};

export const listQuery = z
  .object({
    search: param(z.string().trim().max(200)),
    category: param(slugParam),
    tag: param(slugParam),
    source: param(z.enum(['official', 'user'])),
    sort: param(z.string().max(64)),
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
