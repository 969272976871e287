// The public catalog as the hub reads it: lists, categories, an item, its versions, a soul's prompt. Plain GETs,
// so the browser's HTTP cache revalidates them with the ETag the API sends (304 costs no body).
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { api, type CatalogPage } from '../../api/http.js';
import { apiPath } from '../../api/paths.js';
import type { ItemStatsFigures } from '../../ui/item-stats.js';

export const itemTypes = ['mcp', 'skill', 'agent', 'soul'] as const;
export type ItemType = (typeof itemTypes)[number];
export const isItemType = (v: string | undefined): v is ItemType => itemTypes.includes(v as ItemType);

export const typeLabels: Record<ItemType, string> = {
  mcp: 'MCP servers',
  skill: 'Skills',
  agent: 'Agents',
  soul: 'Souls',
};

/** One item's type, as a table cell or a "New …" button names it. */
export const typeNames: Record<ItemType, string> = {
  mcp: 'MCP server',
  skill: 'Skill',
  agent: 'Agent',
  soul: 'Soul',
};

/** The five sorts of the catalog; with a search and no sort the API orders by relevance. */
export const sorts = [
  ['latest', 'Newest'],
  ['popular', 'Most installed'],
  ['mostusage', 'Most used'],
  ['rating', 'Top rated'],
  ['featured', 'Featured first'],
] as const;

export type ItemSummary = {
  id: string;
  slug: string;
  name: string;
  summary: string;
  iconUrl?: string;
  publisherName: string;
  source: 'official' | 'user';
  isFeatured: boolean;
  installCount: number;
  viewCount: number;
  ratingAverage?: number;
  tags: string[];
  categories: string[];
  publishedAt?: string;
  primaryTransport?: string;
  toolCount?: number;
  executesCode?: boolean;
};

/** A skill version's uploaded .zip: where to download it, and the SHA-256 to check it with. */
export type SkillBundle = { url: string; sha256: string; sizeBytes: number };

export type VersionDetail = {
  id: string;
  version: string;
  changelog?: string;
  readme?: string;
  license?: string;
  sourceUrl?: string;
  publishedAt?: string;
  createdAt: string;
  bundle?: SkillBundle;
  /** A skill version's: whether its bundle ships scripts or binaries (absent until the bundle is parsed). */
  executesCode?: boolean;
} & Record<string, unknown>;

export type ItemDetail = ItemSummary & {
  type: ItemType;
  description: string;
  publisherSlug: string;
  stats: ItemStatsFigures;
  currentVersion: VersionDetail;
};

export type ListParams = {
  search?: string;
  category?: string;
  tag?: string;
  source?: string;
  sort?: string;
  page?: number;
  pageSize?: number;
};

export function useCatalogList(type: ItemType, params: ListParams) {
  return useQuery({
    queryKey: ['catalog', type, params],
    queryFn: ({ signal }) => api<CatalogPage<ItemSummary>>(apiPath`/api/v1/${type}`, { query: params, signal }),
    placeholderData: keepPreviousData,
  });
}

export const useCategories = (type: ItemType) =>
  useQuery({
    queryKey: ['categories', type],
    queryFn: () => api<{ slug: string; name: string; count: number }[]>(apiPath`/api/v1/${type}/categories`),
    staleTime: 300_000,
  });

export const useItem = (type: ItemType, slug: string) =>
  useQuery({ queryKey: ['item', type, slug], queryFn: () => api<ItemDetail>(apiPath`/api/v1/${type}/${slug}`) });

export const useVersions = (type: ItemType, slug: string) =>
  useQuery({
    queryKey: ['versions', type, slug],
    queryFn: () => api<VersionDetail[]>(apiPath`/api/v1/${type}/${slug}/versions`),
  });

export const useVersion = (type: ItemType, slug: string, version: string | undefined) =>
  useQuery({
    queryKey: ['version', type, slug, version],
    queryFn: () => api<VersionDetail>(apiPath`/api/v1/${type}/${slug}/versions/${version ?? ''}`),
    enabled: Boolean(version),
  });

export const useSoulPrompt = (slug: string, enabled: boolean) =>
  useQuery({
    queryKey: ['prompt', slug],
    queryFn: () => api<string>(apiPath`/api/v1/soul/${slug}/prompt.txt`),
    enabled,
  });

/**
 * One anonymous telemetry event of an item: a `view` per visit of its page, an `install` when a person copies its
 * install snippet or downloads what it serves (the API counts a view once per client and day, an install once).
 */
export function recordEvent(type: ItemType, slug: string, eventType: 'view' | 'install'): void {
  void fetch('/api/v1/telemetry', {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ itemType: type, slug, eventType }),
    keepalive: true,
  }).catch(() => undefined);
}
