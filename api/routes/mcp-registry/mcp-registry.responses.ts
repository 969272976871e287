// What the MCP Registry API answers (mcp-registry.presenters.ts), as the OpenAPI document shows it: server.json
// (shared/mcp-registry/server-json.ts, schema 2025-12-11) with the registry's official metadata and our own figures.
import { z } from 'zod';
import { mcpTransports } from '../../../shared/catalog/version-payloads.js';
import { timestamp } from '../../openapi/response-parts.js';
import { OFFICIAL_META_KEY } from './mcp-registry.presenters.js';

const inputFields = {
  description: z.string().optional(),
  isRequired: z.boolean().optional(),
  isSecret: z.boolean().optional(),
  format: z.enum(['string', 'number', 'boolean', 'filepath']).optional(),
  default: z.string().optional(),
  value: z.string().optional(),
};
/** An input; a templated value (`{NAME}`) names its config fields in `variables`. */
const input = z.object({ ...inputFields, variables: z.record(z.string(), z.object(inputFields)).optional() });
const keyValueInput = input.extend({ name: z.string() });
const positionalArgument = input.extend({ type: z.literal('positional'), value: z.string() });

export const serverJson = z
  .object({
    $schema: z.string(),
    name: z.string().meta({ description: '`<namespace>.<publisher slug>/<item slug>`.' }),
    description: z.string().max(100),
    title: z.string().optional(),
    version: z.string(),
    repository: z.object({ url: z.string(), source: z.string() }).optional(),
    websiteUrl: z.string().optional(),
    icons: z.array(z.object({ src: z.string() })).optional(),
    packages: z
      .array(
        z.object({
          registryType: z.enum(['npm', 'pypi', 'oci']),
          identifier: z.string(),
          version: z.string().optional(),
          runtimeHint: z.string(),
          transport: z.object({ type: z.literal('stdio') }),
          runtimeArguments: z.array(positionalArgument).optional(),
          packageArguments: z.array(positionalArgument).optional(),
          environmentVariables: z.array(keyValueInput).optional(),
        }),
      )
      .optional(),
    remotes: z
      .array(
        z.object({
          type: z.enum(mcpTransports.filter((t) => t !== 'stdio') as ['streamable-http', 'sse']),
          url: z.string(),
          headers: z.array(keyValueInput).optional(),
          variables: z.record(z.string(), input).optional(),
        }),
      )
      .optional(),
  })
  .meta({ id: 'McpServerJson' });

const officialMeta = z.object({
  status: z.enum(['active', 'deleted']),
  publishedAt: timestamp,
  updatedAt: timestamp,
  isLatest: z.boolean(),
});

const count = z.number().int().nonnegative();

/** Our own figures, under `<namespace>/catalog` (the namespace is the deployment's, so the key is not fixed). */
const catalogMeta = z
  .object({
    id: z.uuid(),
    slug: z.string(),
    pageUrl: z.string(),
    publisher: z.object({ slug: z.string(), name: z.string() }),
    source: z.enum(['official', 'user']),
    isFeatured: z.boolean(),
    installCount: count,
    usageCount: count,
    viewCount: count,
    ratingAverage: z.number(),
    ratingCount: count,
    toolCount: count.optional(),
    categories: z.array(z.string()),
    tags: z.array(z.string()),
    license: z.string().optional(),
  })
  .meta({ id: 'McpRegistryCatalogMeta' });

export const registryEntry = z
  .object({
    server: serverJson,
    _meta: z
      .object({ [OFFICIAL_META_KEY]: officialMeta })
      .catchall(catalogMeta)
      .meta({ description: "The registry's metadata, and this catalog's figures under `<namespace>/catalog`." }),
  })
  .meta({ id: 'McpRegistryEntry' });

export const registryList = z
  .object({
    servers: z.array(registryEntry),
    metadata: z.object({
      nextCursor: z.string().optional().meta({ description: 'Absent on the last page.' }),
      count,
    }),
  })
  .meta({ id: 'McpRegistryList' });

export const registryPublished = z.object({
  server: serverJson,
  _meta: z
    .record(z.string(), z.object({ id: z.uuid(), versionId: z.uuid(), status: z.literal('in_review') }))
    .meta({ description: 'Where the server stands in our review, under `<namespace>/catalog`.' }),
});
