// Brave Search wire format: GET {base}/res/v1/web/search with X-Subscription-Token. Brave gives no relevance
// score, only an order: the result at rank i (0-based) of n gets score 1 - i/n (1 for the first, 1/n for the
// last). Dates become `freshness=YYYY-MM-DDtoYYYY-MM-DD` (Brave wants both ends: a missing start is 1970-01-01,
// a missing end is today, UTC). Images come from a second call to /res/v1/images/search, made in parallel.
import type { Config } from '../../config/index.js';
import { timeUpstream } from '../../metrics/metrics.js';
import { upstreamClient } from '../upstream-client.js';
import {
  normalizeItems,
  SEARCH_TIMEOUT_MS,
  type SearchImage,
  type SearchProvider,
  type SearchQuery,
  searchAnswerBody,
  searchBaseUrl,
  text,
} from './search-provider.js';

type BraveError = { error?: { detail?: unknown; code?: unknown } };
type BraveWeb = { web?: { results?: { url?: unknown; title?: unknown; description?: unknown }[] } };
type BraveImages = { results?: { title?: unknown; properties?: { url?: unknown }; thumbnail?: { src?: unknown } }[] };

/** Brave marks the matched words of descriptions with <strong>; the API returns plain text. */
const plain = (value: unknown) => text(value).replace(/<\/?strong>/g, '');

export function braveFreshness(q: Pick<SearchQuery, 'startDate' | 'endDate'>, today = new Date()): string | undefined {
  if (!q.startDate && !q.endDate) return undefined;
  return `${q.startDate ?? '1970-01-01'}to${q.endDate ?? today.toISOString().slice(0, 10)}`;
}

export function braveSearchProvider(config: Config): SearchProvider {
  const get = async <T>(path: string, params: Record<string, string | undefined>): Promise<T> => {
    const url = searchBaseUrl(config, path);
    for (const [name, value] of Object.entries(params)) if (value !== undefined) url.searchParams.set(name, value);
    const reply = await timeUpstream('brave', () =>
      upstreamClient(config).fetchBuffer(url, {
        headers: {
          accept: 'application/json',
          ...(config.UPSTREAM_SEARCH_KEY ? { 'x-subscription-token': config.UPSTREAM_SEARCH_KEY } : {}),
        },
        timeoutMs: SEARCH_TIMEOUT_MS,
      }),
    );
    return searchAnswerBody<T & BraveError>(reply, (json) =>
      [text(json.error?.code), text(json.error?.detail)].filter(Boolean).join(' '),
    );
  };

  return {
    kind: 'brave',
    async search(q) {
      const [web, images] = await Promise.all([
        get<BraveWeb>('/res/v1/web/search', {
          q: q.query,
          count: String(q.maxResults),
          freshness: braveFreshness(q),
        }),
        q.includeImages
          ? get<BraveImages>('/res/v1/images/search', { q: q.query, count: String(q.maxResults) })
          : Promise.resolve(undefined),
      ]);
      const results = (web.web?.results ?? []).slice(0, q.maxResults);
      const items = normalizeItems(
        results.map((r, i) => ({
          url: text(r.url),
          title: plain(r.title),
          content: plain(r.description),
          score: 1 - i / results.length,
        })),
        q.maxResults,
      );
      if (!images) return { items };
      const list: SearchImage[] = (images.results ?? []).flatMap((image) => {
        const url = text(image.properties?.url) || text(image.thumbnail?.src);
        return url ? [{ url, ...(text(image.title) ? { description: text(image.title) } : {}) }] : [];
      });
      return { items, images: list };
    },
  };
}
