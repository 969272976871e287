// The worker side of a web fetch: every URL of a batch, at most WEB_FETCH_CONCURRENCY at once, served from the
// cache when it can be, answered in the request's order; one URL failing never fails the batch.
import type { AppContext } from '../context.js';
import type { OutboundClient } from '../http/index.js';
import { type FetchedPage, failedPage } from './fetched-page.js';
import { cachedPage, cachePage } from './page-cache.js';
import { fetchPage, type HtmlReader } from './page-fetcher.js';

async function fetchOne(
  ctx: AppContext,
  client: OutboundClient,
  readHtml: HtmlReader,
  url: string,
  organizationId: string | undefined,
): Promise<FetchedPage> {
  try {
    const cached = await cachedPage(ctx, url);
    if (cached) return cached;
    const page = await fetchPage(client, readHtml, url);
    await cachePage(ctx, page, organizationId);
    return page;
  } catch (err) {
    ctx.logger.warn({ url, err: (err as Error).message }, 'web fetch of one URL failed unexpectedly');
    return failedPage(url, 'The page could not be read.');
  }
}

export async function fetchBatch(
  ctx: AppContext,
  client: OutboundClient,
  readHtml: HtmlReader,
  urls: string[],
  organizationId?: string,
): Promise<FetchedPage[]> {
  // The same URL twice in one batch is fetched once.
  const unique = [...new Set(urls)];
  const pages = new Map<string, FetchedPage>();
  let next = 0;
  const lane = async () => {
    while (next < unique.length) {
      const url = unique[next++] as string;
      pages.set(url, await fetchOne(ctx, client, readHtml, url, organizationId));
    }
  };
  await Promise.all(Array.from({ length: Math.min(ctx.config.WEB_FETCH_CONCURRENCY, unique.length) }, lane));
  return urls.map((url) => pages.get(url) ?? failedPage(url, 'The page could not be read.'));
}
