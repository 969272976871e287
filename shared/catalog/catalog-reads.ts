// Public reads of one published item: its detail with the current version, its version history, one version,
// the categories of a type with counts of published items, and a soul's prompt text.
import { and, asc, desc, eq, isNotNull, sql } from 'drizzle-orm';
import type { Database } from '../db/client.js';
import { catalogCategories, catalogItems, catalogVersions, publishers } from '../db/schema/index.js';
import { catalogErrors } from './catalog-errors.js';
import { summaryColumns } from './catalog-list.js';
import { type ItemType, isSlug, isVersionString } from './item-types.js';

const i = catalogItems;
const v = catalogVersions;

export type VersionRow = typeof catalogVersions.$inferSelect;

const detailColumns = {
  ...summaryColumns,
  description: i.description,
  status: i.status,
  createdAt: i.createdAt,
  usageCount: i.usageCount,
  favoriteCount: i.favoriteCount,
  ratingCount: i.ratingCount,
  currentVersionId: i.currentVersionId,
};

async function visibleItem(db: Database, type: ItemType, slug: string) {
  if (!isSlug(slug)) throw catalogErrors.itemNotFound(type);
  const [row] = await db
    .select(detailColumns)
    .from(i)
    .innerJoin(publishers, eq(publishers.id, i.publisherId))
    .where(and(eq(i.type, type), eq(i.slug, slug), isNotNull(i.currentVersionId)));
  if (!row) throw catalogErrors.itemNotFound(type, `No published ${type} "${slug}"`);
  return row;
}

export type ItemDetailRow = Awaited<ReturnType<typeof visibleItem>>;

export async function getPublishedItem(db: Database, type: ItemType, slug: string) {
  const item = await visibleItem(db, type, slug);
  const [currentVersion] = await db
    .select()
    .from(v)
    .where(eq(v.id, item.currentVersionId as string));
  if (!currentVersion) throw catalogErrors.itemNotFound(type);
  return { item, currentVersion };
}

export async function listPublishedVersions(db: Database, type: ItemType, slug: string) {
  const item = await visibleItem(db, type, slug);
  return db
    .select()
    .from(v)
    .where(and(eq(v.itemId, item.id), eq(v.status, 'published')))
    .orderBy(desc(v.createdAt), desc(v.id));
}

export async function getPublishedVersion(db: Database, type: ItemType, slug: string, version: string) {
  if (!isVersionString(version)) {
    throw catalogErrors.versionInvalid(`"${version}" is not a semantic version such as 1.2.0.`);
  }
  const item = await visibleItem(db, type, slug);
  const [row] = await db
    .select()
    .from(v)
    .where(and(eq(v.itemId, item.id), eq(v.version, version), eq(v.status, 'published')));
  if (!row) throw catalogErrors.versionNotFound(version);
  return row;
}

/** Every category of the type with the number of its published items (unpublished items never count). */
export async function listCategories(db: Database, type: ItemType) {
  const counts = db
    .select({
      slug: sql<string>`unnest(${i.categories})`.as('category_slug'),
      count: sql<number>`count(*)::int`.as('item_count'),
    })
    .from(i)
    .where(and(eq(i.type, type), isNotNull(i.currentVersionId)))
    .groupBy(sql`1`)
    .as('counts');
  return db
    .select({
      slug: catalogCategories.slug,
      name: catalogCategories.name,
      count: sql<number>`coalesce(${counts.count}, 0)`,
    })
    .from(catalogCategories)
    .leftJoin(counts, eq(counts.slug, catalogCategories.slug))
    .where(eq(catalogCategories.type, type))
    .orderBy(asc(catalogCategories.name), asc(catalogCategories.slug));
}

/** `# {name}\n\n{summary}\n\n{soulMd or description}\n` of the published soul (SPEC section 2). */
export async function soulPrompt(db: Database, slug: string): Promise<string> {
  const { item, currentVersion } = await getPublishedItem(db, 'soul', slug);
  const soulMd = (currentVersion.payload as { soulMd?: string } | null)?.soulMd;
  // trimEnd, not /\s+$/: the pattern retries from every character of a whitespace run inside the text, quadratic in
  // the run (a 100,000-character SOUL.md held the main loop for 18 s per read, security review #90).
  const body = (soulMd?.trim() ? soulMd : (item.description as string)).trimEnd();
  return `# ${item.name}\n\n${item.summary}\n\n${body}\n`;
}
