// What the public catalog answers (catalog.presenters.ts), as the OpenAPI document shows it: item summaries and
// their page, item detail with stats and the current version, version summaries and details, categories.
import { z } from 'zod';
import { itemTypes } from '../../../shared/catalog/item-types.js';
import {
  mcpConnection,
  mcpFields,
  mcpTransports,
  skillFields,
  soulFields,
} from '../../../shared/catalog/version-payloads.js';
import { timestamp } from '../../openapi/response-parts.js';

const count = z.number().int().nonnegative();
const rating = z.number().min(0).max(5).meta({ description: 'Average score, two decimals; 0 before any rating.' });

export const catalogItemSummary = z
  .object({
    id: z.uuid(),
    slug: z.string(),
    name: z.string(),
    summary: z.string(),
    iconUrl: z.string().optional(),
    publisherName: z.string(),
    source: z.enum(['official', 'user']).meta({ description: '`official` for a verified publisher.' }),
    isOfficial: z.boolean(),
    isFeatured: z.boolean(),
    installCount: count,
    viewCount: count,
    ratingAverage: rating,
    tags: z.array(z.string()),
    categories: z.array(z.string()),
    updatedAt: timestamp,
    publishedAt: timestamp.optional(),
    primaryTransport: z.enum(mcpTransports).optional().meta({ description: 'MCP servers only.' }),
    toolCount: count.optional().meta({ description: 'MCP servers only.' }),
    executesCode: z
      .boolean()
      .optional()
      .meta({ description: 'Skills only: whether the bundle ships scripts or binaries (absent until parsed).' }),
  })
  .meta({ id: 'CatalogItemSummary' });

export const catalogPage = z
  .object({
    items: z.array(catalogItemSummary),
    page: z.number().int().min(1),
    pageSize: z.number().int().min(1),
    total: count,
    hasNext: z.boolean(),
  })
  .meta({ id: 'CatalogPage' });

/** A URL as the publisher wrote it: the catalog checks it with WHATWG's parser, which takes what RFC 3986 does not
 * (an MCP connection's `${NAME}` placeholders of config fields), so the document claims no `uri` format. */
const storedUrl = z.string();

const optionalFields = (fields: Record<string, z.ZodType>) =>
  Object.fromEntries(Object.entries(fields).map(([key, schema]) => [key, schema.optional()]));

/** A skill version's uploaded .zip: only versions with a stored bundle carry it. */
const skillBundle = z
  .object({
    url: z.url().meta({ description: 'The download: `/files/...` (local storage) or the CDN or bucket (s3).' }),
    sha256: z
      .string()
      .regex(/^[0-9a-f]{64}$/)
      .meta({ description: 'Hex SHA-256 of the .zip bytes, to check the download with.' }),
    sizeBytes: count.meta({ description: 'Size of the .zip in bytes.' }),
  })
  .meta({ id: 'SkillBundle', description: 'Skills only, when a bundle is stored.' });

export const catalogVersionSummary = z
  .object({
    id: z.uuid(),
    version: z.string(),
    changelog: z.string().optional(),
    license: z.string().optional(),
    createdAt: timestamp,
    publishedAt: timestamp.optional(),
  })
  .meta({ id: 'CatalogVersionSummary' });

/** The common fields, then each type's own (present only on items of that type, and only when set). */
export const catalogVersionDetail = catalogVersionSummary
  .extend({
    readme: z.string().optional(),
    sourceUrl: storedUrl.optional(),
    ...mcpFields,
    connections: z.array(mcpConnection.extend({ url: storedUrl.optional() })).optional(),
    ...optionalFields(skillFields),
    ...soulFields,
    packageUrl: storedUrl.optional(),
    executesCode: z.boolean().optional().meta({
      description: "Skills only: whether this version's bundle ships scripts or binaries (absent until parsed).",
    }),
    bundle: skillBundle.optional(),
  })
  .meta({
    id: 'CatalogVersionDetail',
    description:
      'MCP servers add connections, tools, resources, prompts, configFields, permissions; skills bundleFiles, ' +
      'dependencies, examples, parameters, executesCode (once the bundle is parsed) and bundle (once uploaded); agents ' +
      'packageUrl, checksum; souls ' +
      'packageUrl, checksum, soulMd.',
  });

export const catalogItemStats = z
  .object({
    viewCount: count,
    installCount: count,
    usageCount: count,
    favoriteCount: count,
    ratingCount: count,
    ratingAverage: rating,
  })
  .meta({ id: 'CatalogItemStats' });

export const catalogItemDetail = catalogItemSummary
  .extend({
    type: z.enum(itemTypes),
    description: z.string(),
    publisherSlug: z.string(),
    createdAt: timestamp,
    stats: catalogItemStats,
    currentVersion: catalogVersionDetail,
  })
  .meta({ id: 'CatalogItemDetail' });

export const catalogCategories = z.array(z.object({ slug: z.string(), name: z.string(), count }));

export const catalogReport = z.object({
  id: z.uuid(),
  status: z.literal('open').meta({ description: 'A repeat answers the open report again.' }),
});

export const catalogOwnRating = z.object({
  score: z.number().int().min(1).max(5),
  ratedAt: timestamp.meta({ description: 'When the account gave this score (its latest change).' }),
});

export const catalogRating = z.object({
  score: z.number().int().min(1).max(5),
  ratingAverage: rating,
  ratingCount: count,
});
