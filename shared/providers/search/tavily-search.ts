// Tavily wire format: POST {base}/search with a Bearer key; start_date/end_date as YYYY-MM-DD (both optional,
// each alone allowed); images as URLs or {url, description} with include_image_descriptions.
import type { Config } from '../../config/index.js';
import { timeUpstream } from '../../metrics/metrics.js';
import { upstreamClient } from '../upstream-client.js';
import {
  normalizeItems,
  SEARCH_TIMEOUT_MS,
  type SearchImage,
  type SearchProvider,
  searchAnswerBody,
  searchBaseUrl,
  text,
} from './search-provider.js';

type TavilyAnswer = {
  results?: { url?: unknown; title?: unknown; content?: unknown; score?: unknown }[];
  images?: (string | { url?: unknown; description?: unknown })[];
};

type TavilyError = { detail?: { error?: unknown } };

function imagesOf(images: TavilyAnswer['images']): SearchImage[] {
  return (images ?? []).flatMap((image) => {
    if (typeof image === 'string') return [{ url: image }];
    if (typeof image?.url !== 'string') return [];
    return [{ url: image.url, ...(typeof image.description === 'string' ? { description: image.description } : {}) }];
  });
}

export function tavilySearchProvider(config: Config): SearchProvider {
  return {
    kind: 'tavily',
    async search(q) {
      const body = {
        query: q.query,
        max_results: q.maxResults,
        topic: 'general',
        search_depth: 'basic',
        include_images: q.includeImages,
        include_image_descriptions: q.includeImages,
        ...(q.startDate ? { start_date: q.startDate } : {}),
        ...(q.endDate ? { end_date: q.endDate } : {}),
      };
      const reply = await timeUpstream('tavily', () =>
        upstreamClient(config).postJson(
          searchBaseUrl(config, '/search'),
          body,
          config.UPSTREAM_SEARCH_KEY ? { authorization: `Bearer ${config.UPSTREAM_SEARCH_KEY}` } : {},
          { timeoutMs: SEARCH_TIMEOUT_MS },
        ),
      );
      const json = searchAnswerBody<TavilyAnswer & TavilyError>(reply, (error) => text(error.detail?.error));
      const items = normalizeItems(
        (json.results ?? []).map((r) => ({
          url: text(r.url),
          title: text(r.title),
          content: text(r.content),
          score: typeof r.score === 'number' ? r.score : 0,
        })),
        q.maxResults,
      );
      return q.includeImages ? { items, images: imagesOf(json.images) } : { items };
    },
  };
}
