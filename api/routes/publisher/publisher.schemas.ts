// Request schemas of the publisher routes: namespaces, draft creation and update, versions, submit-review.
import type { Request } from 'express';
import { z } from 'zod';
import { type ItemType, isSlug } from '../../../shared/catalog/item-types.js';
import { versionInputSchema, versionPatchSchema } from '../../../shared/catalog/version-payloads.js';
import { validationError } from '../../../shared/errors/validation.js';

const slug = z.string().refine((v) => isSlug(v, 64), 'must be 2-64 lowercase letters, digits and single hyphens');
const tagSlug = z.string().refine((v) => isSlug(v, 32), 'must be 2-32 lowercase letters, digits and single hyphens');

export const publisherBody = z.strictObject({ slug, name: z.string().trim().min(1).max(100) });

const metadata = {
  name: z.string().trim().min(1).max(100),
  summary: z
    .string()
    .trim()
    .min(1)
    .max(200)
    .refine((v) => !/[\r\n]/.test(v), 'must be one line'),
  description: z.string().trim().min(1).max(20_000),
  iconUrl: z
    .url({ protocol: /^https?$/ })
    .max(2048)
    .nullable()
    .optional(),
  tags: z.array(tagSlug).max(10).optional(),
  categories: z.array(slug).max(5).optional(),
};

export const draftBody = (type: ItemType) =>
  z.strictObject({ slug, publisherSlug: slug, ...metadata, version: versionInputSchema(type) });

export const draftPatchBody = (type: ItemType) =>
  z
    .strictObject({
      name: metadata.name.optional(),
      summary: metadata.summary.optional(),
      description: metadata.description.optional(),
      iconUrl: metadata.iconUrl,
      tags: metadata.tags,
      categories: metadata.categories,
      version: versionPatchSchema(type).optional(),
    })
    .refine((v) => Object.values(v).some((x) => x !== undefined), 'send at least one field to change');

export const submitBody = z.strictObject({ comment: z.string().trim().max(2000).optional() });

/** A failure inside the `version` object is `Version.Invalid`; any other (a missing `version` too) is `fallback`. */
export function parseDraftInput<S extends z.ZodType>(req: Request, schema: S, fallback: string): z.output<S> {
  const result = schema.safeParse(req.body ?? {});
  if (result.success) return result.data;
  const first = result.error.issues[0];
  throw validationError(
    result.error,
    first?.path[0] === 'version' && !(first.path.length === 1 && first.code === 'invalid_type')
      ? 'Version.Invalid'
      : fallback,
  );
}
