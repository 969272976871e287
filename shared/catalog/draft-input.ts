// What a publisher sends: namespaces, drafts of each type, draft updates, submit-review. Pure zod (no server
// imports), so the API validates with these schemas and the console's forms check the very same rules.
import { z } from 'zod';
import { displayName } from '../validation/display-name.js';
import { type ItemType, isSlug } from './item-types.js';
import { versionInputSchema, versionPatchSchema } from './version-payloads.js';

const slug = z.string().refine((v) => isSlug(v, 64), 'must be 2-64 lowercase letters, digits and single hyphens');
const tagSlug = z.string().refine((v) => isSlug(v, 32), 'must be 2-32 lowercase letters, digits and single hyphens');

export const publisherBody = z.strictObject({ slug, name: displayName() });

const metadata = {
  name: displayName(),
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
