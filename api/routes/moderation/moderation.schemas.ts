// Request schemas of the moderation routes: queue and report filters, decisions, curation.
import { z } from 'zod';
import { isItemType, isSlug } from '../../../shared/catalog/item-types.js';
import { displayName } from '../../../shared/validation/display-name.js';
import { pageParams, param } from '../catalog/catalog.schemas.js';

export const queueQuery = z.object({
  type: z
    .preprocess((v) => (v === '' ? undefined : v), z.string().optional())
    .refine((v) => v === undefined || isItemType(v), 'must be one of mcp, skill, agent, soul'),
  ...pageParams,
});

export const reportsQuery = z.object({
  status: z.preprocess((v) => (v === '' ? undefined : v), z.enum(['open', 'resolved']).optional()),
  publisher: param(z.string().refine((v) => isSlug(v, 64), 'must be a publisher slug such as "acme"')).meta({
    description: "Only reports on this publisher namespace's items (its slug, as `publisherSlug` shows it).",
  }),
  sort: param(z.enum(['newest', 'oldest'])).meta({
    description: '`newest` (the default) or `oldest` reports first, by when they were made.',
  }),
  ...pageParams,
});

export const decisionsQuery = z.object({ ...pageParams });

const comment = z.string().trim().min(1).max(4000);

export const approveBody = z.strictObject({ comment: comment.optional() });
export const requestChangesBody = z.strictObject({ comment });
export const rejectBody = z.strictObject({ reason: comment });
export const removeBody = z.strictObject({
  reason: comment,
  resolveReports: z
    .boolean()
    .optional()
    .meta({ description: "Also resolve the item's open reports, the reason as their resolution." }),
});
export const resolveBody = z.strictObject({
  resolution: comment.optional(),
  sameItem: z
    .boolean()
    .optional()
    .meta({ description: 'Also resolve every other open report of the same item, with the same resolution.' }),
});

export const featuredBody = z.strictObject({ featured: z.boolean() });
export const verifiedBody = z.strictObject({ verified: z.boolean() });
export const categoryBody = z.strictObject({ name: displayName() });
export const categorySlug = z.string().refine((v) => isSlug(v, 64), 'must be a slug such as "developer-tools"');
