// The catalog hub: publisher namespaces, items of the four types with their versions, categories, the status
// transitions of the review workflow, reports and ratings.
import { sql } from 'drizzle-orm';
import {
  type AnyPgColumn,
  boolean,
  check,
  customType,
  doublePrecision,
  index,
  integer,
  json,
  jsonb,
  pgEnum,
  pgTable,
  primaryKey,
  smallint,
  text,
  uniqueIndex,
  uuid,
} from 'drizzle-orm/pg-core';
import { at, createdAt, id, updatedAt } from './columns.js';
import { accounts } from './identity.js';

export const catalogItemType = pgEnum('catalog_item_type', ['mcp', 'skill', 'agent', 'soul']);
export const catalogItemStatus = pgEnum('catalog_item_status', [
  'draft',
  'in_review',
  'published',
  'changes_requested',
  'rejected',
]);
/** A version's own state; `superseded` marks an unpublished version replaced by a newer one before review. */
export const catalogVersionStatus = pgEnum('catalog_version_status', [
  'draft',
  'in_review',
  'published',
  'changes_requested',
  'rejected',
  'superseded',
]);
export const catalogReportStatus = pgEnum('catalog_report_status', ['open', 'resolved']);

const tsvector = customType<{ data: string }>({ dataType: () => 'tsvector' });

/** A namespace items are published under; `verified` (set by an Admin) makes its items `source: official`. */
export const publishers = pgTable(
  'publishers',
  {
    id: id(),
    slug: text('slug').notNull(),
    name: text('name').notNull(),
    ownerAccountId: uuid('owner_account_id')
      .notNull()
      .references(() => accounts.id, { onDelete: 'cascade' }),
    verified: boolean('verified').notNull().default(false),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [uniqueIndex('publishers_slug_key').on(t.slug), index('publishers_owner_idx').on(t.ownerAccountId)],
);

/** Curated categories, one set per item type. */
export const catalogCategories = pgTable(
  'catalog_categories',
  {
    id: id(),
    type: catalogItemType('type').notNull(),
    slug: text('slug').notNull(),
    name: text('name').notNull(),
    createdAt: createdAt(),
  },
  (t) => [uniqueIndex('catalog_categories_type_slug_key').on(t.type, t.slug)],
);

/**
 * One row per item of any type. Public visibility is `current_version_id is not null`: the partial indexes below
 * cover every public sort, and `search_vector` (generated) carries the weighted full text of name, summary and
 * description. Metadata edits to an already published item wait in `pending_changes` until approval.
 */
export const catalogItems = pgTable(
  'catalog_items',
  {
    id: id(),
    type: catalogItemType('type').notNull(),
    slug: text('slug').notNull(),
    publisherId: uuid('publisher_id')
      .notNull()
      .references(() => publishers.id, { onDelete: 'restrict' }),
    name: text('name').notNull(),
    summary: text('summary').notNull(),
    description: text('description').notNull(),
    iconUrl: text('icon_url'),
    tags: text('tags').array().notNull().default(sql`'{}'::text[]`),
    categories: text('categories').array().notNull().default(sql`'{}'::text[]`),
    status: catalogItemStatus('status').notNull().default('draft'),
    isFeatured: boolean('is_featured').notNull().default(false),
    currentVersionId: uuid('current_version_id').references((): AnyPgColumn => catalogVersions.id, {
      onDelete: 'set null',
    }),
    publishedAt: at('published_at'),
    pendingChanges: jsonb('pending_changes').$type<Record<string, unknown>>(),
    primaryTransport: text('primary_transport'),
    toolCount: integer('tool_count'),
    executesCode: boolean('executes_code'),
    viewCount: integer('view_count').notNull().default(0),
    installCount: integer('install_count').notNull().default(0),
    usageCount: integer('usage_count').notNull().default(0),
    favoriteCount: integer('favorite_count').notNull().default(0),
    ratingCount: integer('rating_count').notNull().default(0),
    ratingSum: integer('rating_sum').notNull().default(0),
    ratingAverage: doublePrecision('rating_average')
      .notNull()
      .generatedAlwaysAs(sql`case when rating_count = 0 then 0 else rating_sum::double precision / rating_count end`),
    searchVector: tsvector('search_vector')
      .notNull()
      .generatedAlwaysAs(
        sql`setweight(to_tsvector('english'::regconfig, name || ' ' || replace(slug, '-', ' ')), 'A') || setweight(to_tsvector('english'::regconfig, summary), 'B') || setweight(to_tsvector('english'::regconfig, description), 'C')`,
      ),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => {
    const visible = sql`${t.currentVersionId} is not null`;
    return [
      uniqueIndex('catalog_items_type_slug_key').on(t.type, t.slug),
      index('catalog_items_publisher_idx').on(t.publisherId),
      index('catalog_items_in_review_idx').on(t.type, t.updatedAt).where(sql`${t.status} = 'in_review'`),
      index('catalog_items_latest_idx').on(t.type, t.publishedAt.desc(), t.id.desc()).where(visible),
      index('catalog_items_popular_idx').on(t.type, t.installCount.desc(), t.id.desc()).where(visible),
      index('catalog_items_usage_idx').on(t.type, t.usageCount.desc(), t.id.desc()).where(visible),
      index('catalog_items_rating_idx')
        .on(t.type, t.ratingAverage.desc(), t.ratingCount.desc(), t.id.desc())
        .where(visible),
      index('catalog_items_featured_idx')
        .on(t.type, t.isFeatured.desc(), t.publishedAt.desc(), t.id.desc())
        .where(visible),
      index('catalog_items_search_idx').using('gin', t.searchVector),
      index('catalog_items_tags_idx').using('gin', t.tags),
      index('catalog_items_categories_idx').using('gin', t.categories),
      // The MCP Registry API's `updated_since`: when an mcp item last changed for the registry (its last approval
      // while public, its removal else), so the items changed after a time are a range (docs/mcp-registry.md).
      index('catalog_items_registry_changed_idx')
        .on(sql`(case when ${t.currentVersionId} is null then ${t.updatedAt} else ${t.publishedAt} end)`)
        .where(sql`${t.type} = 'mcp'`),
      check('catalog_items_counters_check', sql`${t.ratingCount} >= 0 and ${t.ratingSum} >= 0`),
    ];
  },
);

/**
 * A version of an item. Common fields are columns; the type-specific part (MCP tools, skill bundle contents,
 * agent/soul package metadata, SOUL.md) is `payload`, validated by the zod schema of the type
 * (shared/catalog/version-payloads.ts). The `bundle_*` columns describe a skill's uploaded .zip.
 */
export const catalogVersions = pgTable(
  'catalog_versions',
  {
    id: id(),
    itemId: uuid('item_id')
      .notNull()
      .references(() => catalogItems.id, { onDelete: 'cascade' }),
    version: text('version').notNull(),
    status: catalogVersionStatus('status').notNull().default('draft'),
    changelog: text('changelog'),
    readme: text('readme'),
    license: text('license'),
    sourceUrl: text('source_url'),
    /**
     * `json`, not `jsonb`: the text is kept as written, so objects keep the publisher's key order (a tool's
     * `properties` are the order clients draw the argument form in); jsonb keeps its own order (docs/catalog.md).
     */
    payload: json('payload').$type<Record<string, unknown>>(),
    /**
     * The two parts of an MCP payload that the MCP Registry API's server.json is made of, kept by PostgreSQL beside
     * the payload: a registry page reads these, not up to 100 whole payloads of tools and schemas (security review
     * #151, docs/mcp-registry.md). Null for other types.
     */
    registryConnections: json('registry_connections').generatedAlwaysAs(sql`payload -> 'connections'`),
    registryConfigFields: json('registry_config_fields').generatedAlwaysAs(sql`payload -> 'configFields'`),
    bundleStorageKey: text('bundle_storage_key'),
    bundleSha256: text('bundle_sha256'),
    bundleSizeBytes: integer('bundle_size_bytes'),
    /** When the stored bundle was uploaded: the publisher's page says a bundle came after a reviewer's request. */
    bundleUploadedAt: at('bundle_uploaded_at'),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
    submittedAt: at('submitted_at'),
    publishedAt: at('published_at'),
  },
  (t) => [
    uniqueIndex('catalog_versions_item_version_key').on(t.itemId, t.version),
    index('catalog_versions_item_created_idx').on(t.itemId, t.createdAt.desc(), t.id.desc()),
    // The MCP Registry API pages published versions by (publication time, id): an ordered scan, no sort.
    index('catalog_versions_published_idx').on(t.publishedAt, t.id).where(sql`${t.status} = 'published'`),
  ],
);

/** Every status change of an item (create, add-version, submit, withdraw, decisions) with actor and time. */
export const catalogTransitions = pgTable(
  'catalog_transitions',
  {
    id: id(),
    itemId: uuid('item_id')
      .notNull()
      .references(() => catalogItems.id, { onDelete: 'cascade' }),
    versionId: uuid('version_id').references(() => catalogVersions.id, { onDelete: 'set null' }),
    actorAccountId: uuid('actor_account_id').references(() => accounts.id, { onDelete: 'set null' }),
    action: text('action').notNull(),
    fromStatus: catalogItemStatus('from_status'),
    toStatus: catalogItemStatus('to_status').notNull(),
    comment: text('comment'),
    createdAt: createdAt(),
  },
  (t) => [
    index('catalog_transitions_item_idx').on(t.itemId, t.createdAt),
    // A moderator's own decisions, newest first (GET /api/v1/moderation/decisions).
    index('catalog_transitions_actor_idx').on(t.actorAccountId, t.createdAt.desc(), t.id.desc()),
  ],
);

/** Reports on published items; one open report per account and item. */
export const catalogReports = pgTable(
  'catalog_reports',
  {
    id: id(),
    itemId: uuid('item_id')
      .notNull()
      .references(() => catalogItems.id, { onDelete: 'cascade' }),
    reporterAccountId: uuid('reporter_account_id')
      .notNull()
      .references(() => accounts.id, { onDelete: 'cascade' }),
    reason: text('reason').notNull(),
    detail: text('detail'),
    status: catalogReportStatus('status').notNull().default('open'),
    resolution: text('resolution'),
    resolvedBy: uuid('resolved_by').references(() => accounts.id, { onDelete: 'set null' }),
    resolvedAt: at('resolved_at'),
    createdAt: createdAt(),
  },
  (t) => [
    uniqueIndex('catalog_reports_one_open_key').on(t.itemId, t.reporterAccountId).where(sql`${t.status} = 'open'`),
    index('catalog_reports_status_idx').on(t.status, t.createdAt.desc(), t.id.desc()),
  ],
);

/** One rating (1..5) per account and item; the item's rating_sum/rating_count are kept exact from these rows. */
export const catalogRatings = pgTable(
  'catalog_ratings',
  {
    itemId: uuid('item_id')
      .notNull()
      .references(() => catalogItems.id, { onDelete: 'cascade' }),
    accountId: uuid('account_id')
      .notNull()
      .references(() => accounts.id, { onDelete: 'cascade' }),
    score: smallint('score').notNull(),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    primaryKey({ columns: [t.itemId, t.accountId] }),
    check('catalog_ratings_score_check', sql`${t.score} between 1 and 5`),
  ],
);
