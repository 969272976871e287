// The MCP Registry API's reads of the catalog: every published version of every mcp item is one entry. Entries are
// paged by a keyset on (publication time, version id), which never changes once a version is published, so a
// client paging through sees no entry twice and misses none that existed when it started (docs/mcp-registry.md).
import { and, asc, desc, eq, isNotNull, type SQL, sql } from 'drizzle-orm';
import type { Database } from '../db/client.js';
import { catalogItems, catalogVersions, publishers } from '../db/schema/index.js';
import { notFound } from '../errors/app-error.js';
import type { RegistryCursor } from './cursor.js';
import { parseServerName } from './server-names.js';

const i = catalogItems;
const v = catalogVersions;
const p = publishers;

/** The item's current version while it is public; for a removed item, its newest published version. */
const isLatest = sql<boolean>`coalesce(${v.id} = ${i.currentVersionId}, not exists (select 1 from catalog_versions later
  where later.item_id = ${v.itemId} and later.status = 'published'
  and (later.published_at, later.id) > (${v.publishedAt}, ${v.id})))`;

/**
 * A public item changes when a version is approved (its metadata with it); a removed one when it was removed. Written
 * exactly as the index `catalog_items_registry_changed_idx` (migration 0028), so `updated_since` finds its items there.
 */
const itemChangedAt = sql`(case when ${i.currentVersionId} is null then ${i.updatedAt} else ${i.publishedAt} end)`;

/** An entry changes when its version is published or its item changes (above), whichever is later. */
const updatedAt = sql`greatest(${v.publishedAt}, ${itemChangedAt})`;

/**
 * The two parts of a version's payload that server.json is made of, from the columns PostgreSQL keeps beside it. The
 * rest (up to 500 tools, resources and prompts with their schemas: about 1 MB a version at the body limit) is not
 * read: a page of 100 such versions read whole was 100 MB detoasted and parsed on the API's main loop, about a second
 * of CPU, for an answer of 83 KB (security review #151).
 */
const serverJsonPayload = sql<Record<string, unknown> | null>`json_build_object('connections', ${v.registryConnections},
  'configFields', ${v.registryConfigFields})`;

const entryColumns = {
  itemId: i.id,
  slug: i.slug,
  title: i.name,
  summary: i.summary,
  iconUrl: i.iconUrl,
  tags: i.tags,
  categories: i.categories,
  isFeatured: i.isFeatured,
  installCount: i.installCount,
  usageCount: i.usageCount,
  viewCount: i.viewCount,
  ratingAverage: i.ratingAverage,
  ratingCount: i.ratingCount,
  toolCount: i.toolCount,
  publisherSlug: p.slug,
  publisherName: p.name,
  verified: p.verified,
  active: sql<boolean>`${i.currentVersionId} is not null`,
  versionId: v.id,
  version: v.version,
  sourceUrl: v.sourceUrl,
  license: v.license,
  payload: serverJsonPayload,
  publishedAt: sql<Date>`${v.publishedAt}`.mapWith(v.publishedAt),
  updatedAt: updatedAt.mapWith(v.publishedAt),
  isLatest,
  sortKey: sql<string>`to_char(${v.publishedAt} at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"')`,
};

export type RegistryEntry = Awaited<ReturnType<typeof entries>>[number];

function entries(db: Database, where: SQL | undefined) {
  return db
    .select(entryColumns)
    .from(v)
    .innerJoin(i, eq(i.id, v.itemId))
    .innerJoin(p, eq(p.id, i.publisherId))
    .where(and(eq(i.type, 'mcp'), eq(v.status, 'published'), where));
}

export type RegistryListQuery = {
  cursor?: RegistryCursor;
  limit: number;
  search?: string;
  updatedSince?: Date;
  /** `latest`, or an exact version string. */
  version?: string;
  includeDeleted: boolean;
};

/**
 * At most this many items are looked up first for a `search` or an `updated_since`; past it, matches are common and
 * the ordered walk of the versions finds a page of them soon.
 */
export const MAX_ITEMS_FIRST = 1_000;

const hasPublishedVersion = sql`exists (select 1 from catalog_versions pv
  where pv.item_id = ${i.id} and pv.status = 'published')`;

/**
 * The items a `search` or an `updated_since` can match, when there are at most MAX_ITEMS_FIRST of them (else
 * undefined): mcp items with a published version whose name contains the search, or that changed after the time
 * (through `catalog_items_registry_changed_idx`). A published version of any other item cannot match, so the page is
 * then read from these items' versions, in proportion to what they hold: before, a search that matched nothing walked
 * every published version of the catalog in publication order (120–175 ms of PostgreSQL at 10,000 servers, security
 * review #154).
 */
async function itemsFirst(db: Database, namespace: string, q: RegistryListQuery) {
  const found = await db
    .select({ id: i.id })
    .from(i)
    .innerJoin(p, eq(p.id, i.publisherId))
    .where(
      and(
        eq(i.type, 'mcp'),
        hasPublishedVersion,
        q.search ? nameContains(namespace, q.search) : undefined,
        q.updatedSince ? sql`${itemChangedAt} > ${q.updatedSince.toISOString()}::timestamptz` : undefined,
      ),
    )
    .limit(MAX_ITEMS_FIRST + 1);
  return found.length > MAX_ITEMS_FIRST ? undefined : found.map((row) => row.id);
}

const nameContains = (namespace: string, search: string) =>
  sql`strpos(lower(${namespace} || '.' || ${p.slug} || '/' || ${i.slug}), lower(${search})) > 0`;

const uuidArray = (ids: string[]) => sql`${`{${ids.join(',')}}`}::uuid[]`;

/** One page of entries, oldest publication first; `next` is the cursor of the following page, if there is one. */
export async function listRegistryEntries(db: Database, namespace: string, q: RegistryListQuery) {
  // A search narrows to the items it names. An `updated_since` matches the versions published after it (a range of
  // `catalog_versions_published_idx`) and every version of the items changed after it.
  let narrow: SQL | undefined;
  if (q.search) {
    const ids = await itemsFirst(db, namespace, { ...q, updatedSince: undefined });
    if (ids) narrow = sql`${v.itemId} = any(${uuidArray(ids)})`;
  } else if (q.updatedSince) {
    const ids = await itemsFirst(db, namespace, q);
    if (ids) {
      const since = sql`${v.publishedAt} > ${q.updatedSince.toISOString()}::timestamptz`;
      narrow = ids.length === 0 ? since : sql`(${since} or ${v.itemId} = any(${uuidArray(ids)}))`;
    }
  }
  return walkRegistryEntries(db, namespace, q, narrow);
}

/**
 * The page as the conditions define it, walking published versions in publication order from the cursor (`narrow`,
 * when given, is implied by the conditions and lets PostgreSQL read only the versions it names). Exported for the
 * bench, which measures the walk without it.
 */
export async function walkRegistryEntries(db: Database, namespace: string, q: RegistryListQuery, narrow?: SQL) {
  const conditions: (SQL | undefined)[] = [
    // A removed item shows (as deleted) only to those who ask for it, or for changes since a time.
    q.includeDeleted || q.updatedSince ? undefined : isNotNull(i.currentVersionId),
    q.search ? nameContains(namespace, q.search) : undefined,
    q.updatedSince ? sql`${updatedAt} > ${q.updatedSince.toISOString()}::timestamptz` : undefined,
    q.version === 'latest' ? isLatest : q.version ? eq(v.version, q.version) : undefined,
    q.cursor
      ? sql`(${v.publishedAt}, ${v.id}) > (${q.cursor.publishedAt}::timestamptz, ${q.cursor.versionId}::uuid)`
      : undefined,
    narrow,
  ];
  const rows = await entries(db, and(...conditions))
    .orderBy(asc(v.publishedAt), asc(v.id))
    .limit(q.limit + 1);
  const page = rows.slice(0, q.limit);
  const last = page.at(-1);
  const next = rows.length > q.limit && last ? { publishedAt: last.sortKey, versionId: last.versionId } : undefined;
  return { entries: page, next };
}

const serverNotFound = () => notFound('McpRegistry.ServerNotFound', 'Server not found');

function serverCondition(namespace: string, name: string, includeDeleted: boolean) {
  const parsed = parseServerName(namespace, name);
  if (!parsed) throw serverNotFound();
  return and(
    eq(p.slug, parsed.publisherSlug),
    eq(i.slug, parsed.slug),
    includeDeleted ? undefined : isNotNull(i.currentVersionId),
  );
}

/** Every published version of a server, newest first; an unknown (or, unless asked for, removed) server: 404. */
export async function listServerVersions(db: Database, namespace: string, name: string, includeDeleted: boolean) {
  const rows = await entries(db, serverCondition(namespace, name, includeDeleted)).orderBy(
    desc(v.publishedAt),
    desc(v.id),
  );
  if (rows.length === 0) throw serverNotFound();
  return rows;
}

/** One version of a server, or its latest with `latest`; unknown: 404. */
export async function getServerVersion(
  db: Database,
  namespace: string,
  name: string,
  version: string,
  includeDeleted: boolean,
) {
  const which = version === 'latest' ? isLatest : eq(v.version, version);
  const [row] = await entries(db, and(serverCondition(namespace, name, includeDeleted), which)).limit(1);
  if (!row) throw notFound('McpRegistry.VersionNotFound', 'Server version not found');
  return row;
}
