// Successfully fetched pages kept in Redis for WEB_FETCH_CACHE_SECONDS, keyed by the exact URL requested
// (0 turns the cache off). Failures are never cached: a page that timed out is tried again next time.
import { createHash } from 'node:crypto';
import type { AppContext } from '../context.js';
import type { FetchedPage } from './fetched-page.js';

const keyOf = (prefix: string, url: string) =>
  `${prefix}:web-fetch:page:${createHash('sha256').update(url).digest('hex')}`;

export async function cachedPage(ctx: AppContext, url: string): Promise<FetchedPage | undefined> {
  if (ctx.config.WEB_FETCH_CACHE_SECONDS === 0) return undefined;
  const raw = await ctx.redis.get(keyOf(ctx.config.REDIS_PREFIX, url)).catch(() => null);
  if (!raw) return undefined;
  const page = JSON.parse(raw) as FetchedPage;
  return page.url === url ? page : undefined;
}

export async function cachePage(ctx: AppContext, page: FetchedPage): Promise<void> {
  if (ctx.config.WEB_FETCH_CACHE_SECONDS === 0 || page.error) return;
  await ctx.redis
    .set(keyOf(ctx.config.REDIS_PREFIX, page.url), JSON.stringify(page), 'EX', ctx.config.WEB_FETCH_CACHE_SECONDS)
    .catch((err: Error) => ctx.logger.warn({ err: err.message }, 'web fetch cache write failed'));
}
