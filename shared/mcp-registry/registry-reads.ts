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

/** A public item changes when a version is approved (its metadata with it); a removed one when it was removed. */
const updatedAt = sql`case when ${i.currentVersionId} is null then greatest(${v.publishedAt}, ${i.updatedAt})
  else greatest(${v.publishedAt}, ${i.publishedAt}) end`;

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

/** One page of entries, oldest publication first; `next` is the cursor of the following page, if there is one. */
export async function listRegistryEntries(db: Database, namespace: string, q: RegistryListQuery) {
  const conditions: (SQL | undefined)[] = [
    // A removed item shows (as deleted) only to those who ask for it, or for changes since a time.
    q.includeDeleted || q.updatedSince ? undefined : isNotNull(i.currentVersionId),
    q.search
      ? sql`strpos(lower(${namespace} || '.' || ${p.slug} || '/' || ${i.slug}), lower(${q.search})) > 0`
      : undefined,
    q.updatedSince ? sql`${updatedAt} > ${q.updatedSince.toISOString()}::timestamptz` : undefined,
    q.version === 'latest' ? isLatest : q.version ? eq(v.version, q.version) : undefined,
    q.cursor
      ? sql`(${v.publishedAt}, ${v.id}) > (${q.cursor.publishedAt}::timestamptz, ${q.cursor.versionId}::uuid)`
      : undefined,
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
