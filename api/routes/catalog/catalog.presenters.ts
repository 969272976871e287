// The public JSON of the catalog: item summaries (exactly the seed's fields, MCP- and skill-only fields only on
// those types), item detail with stats and the current version, version summaries and details, categories.
import type { SummaryRow } from '../../../shared/catalog/catalog-list.js';
import type { ItemDetailRow, VersionRow } from '../../../shared/catalog/catalog-reads.js';
import type { ItemType } from '../../../shared/catalog/item-types.js';
import { bundleExecutesCode, type SkillPayload } from '../../../shared/catalog/version-payloads.js';
import type { ObjectStorage } from '../../../shared/storage/index.js';
import { withoutNulls } from '../../http/json.js';

/** Averages are kept exact in the database; the API shows two decimals. */
export const roundRating = (value: number | null) => (value === null ? null : Math.round(value * 100) / 100);

type ItemStats = Pick<
  ItemDetailRow,
  'viewCount' | 'installCount' | 'usageCount' | 'favoriteCount' | 'ratingCount' | 'ratingAverage'
>;

/** An item's counters and rating, as the public detail and the publisher's own draft show them. */
export function presentItemStats(item: ItemStats) {
  return {
    viewCount: item.viewCount,
    installCount: item.installCount,
    usageCount: item.usageCount,
    favoriteCount: item.favoriteCount,
    ratingCount: item.ratingCount,
    ratingAverage: roundRating(item.ratingAverage),
  };
}

export function presentSummary(row: SummaryRow) {
  return withoutNulls({
    id: row.id,
    slug: row.slug,
    name: row.name,
    summary: row.summary,
    iconUrl: row.iconUrl,
    publisherName: row.publisherName,
    source: row.verified ? 'official' : 'user',
    isOfficial: row.verified,
    isFeatured: row.isFeatured,
    installCount: row.installCount,
    viewCount: row.viewCount,
    ratingAverage: roundRating(row.ratingAverage),
    tags: row.tags,
    categories: row.categories,
    updatedAt: row.updatedAt,
    publishedAt: row.publishedAt,
    ...(row.type === 'mcp' ? { primaryTransport: row.primaryTransport, toolCount: row.toolCount } : {}),
    ...(row.type === 'skill' ? { executesCode: row.executesCode } : {}),
  });
}

/** Where a version's stored objects are downloaded from: the storage's public URL (local `/files`, or the CDN). */
export type DownloadUrls = Pick<ObjectStorage, 'publicUrl'>;

export function presentDetail(item: ItemDetailRow, currentVersion: VersionRow, urls: DownloadUrls) {
  return {
    ...presentSummary(item),
    ...withoutNulls({
      type: item.type,
      description: item.description,
      publisherSlug: item.publisherSlug,
      createdAt: item.createdAt,
    }),
    stats: presentItemStats(item),
    currentVersion: presentVersionDetail(item.type, currentVersion, urls),
  };
}

export function presentVersionSummary(v: VersionRow) {
  return withoutNulls({
    id: v.id,
    version: v.version,
    changelog: v.changelog,
    license: v.license,
    createdAt: v.createdAt,
    publishedAt: v.publishedAt,
  });
}

/** The type-specific fields of a version detail, in the seed's "Version detail" table. */
const typeFields: Record<ItemType, readonly string[]> = {
  mcp: ['connections', 'tools', 'resources', 'prompts', 'configFields', 'permissions'],
  skill: ['bundleFiles', 'dependencies', 'examples', 'parameters'],
  agent: ['packageUrl', 'checksum'],
  soul: ['packageUrl', 'checksum', 'soulMd'],
};

/** A skill version's uploaded .zip as the version row records it: where to download it and what to check it with. */
function presentBundle(type: ItemType, v: VersionRow, urls: DownloadUrls) {
  if (type !== 'skill' || !v.bundleStorageKey || !v.bundleSha256 || v.bundleSizeBytes === null) return null;
  return { url: urls.publicUrl(v.bundleStorageKey), sha256: v.bundleSha256, sizeBytes: v.bundleSizeBytes };
}

export function presentVersionDetail(type: ItemType, v: VersionRow, urls: DownloadUrls) {
  const payload = v.payload ?? {};
  return withoutNulls({
    id: v.id,
    version: v.version,
    changelog: v.changelog,
    readme: v.readme,
    license: v.license,
    sourceUrl: v.sourceUrl,
    createdAt: v.createdAt,
    publishedAt: v.publishedAt,
    ...Object.fromEntries(typeFields[type].map((key) => [key, payload[key] ?? null])),
    // This version's own answer (the item's `executesCode` is its published version's): what a reviewer decides on.
    ...(type === 'skill' ? { executesCode: bundleExecutesCode(v.payload as SkillPayload | null) } : {}),
    bundle: presentBundle(type, v, urls),
  });
}

export function presentCategory(row: { slug: string; name: string; count: number }) {
  return { slug: row.slug, name: row.name, count: row.count };
}
