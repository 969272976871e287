// Successfully fetched pages kept in Redis for WEB_FETCH_CACHE_SECONDS, keyed by the exact URL requested
// (0 turns the cache off). Failures are never cached: a page that timed out is tried again next time.
//
// The cache has a byte budget, because a caller chooses the URLs (a fresh query string per request defeats every
// hit) and each page may be 250,000 characters. Bytes written are counted per window of WEB_FETCH_CACHE_SECONDS, in
// all (WEB_FETCH_CACHE_BYTES) and per organization (WEB_FETCH_CACHE_ORG_BYTES); a page that would pass either is
// served but not cached. A page lives one cache lifetime at most, and never past the end of the window after the one
// it was counted in (by Redis's clock: a write that reaches Redis late, under load, is cut short rather than outliving
// that window), so the pages alive at any moment were counted in this window or the one before: the live cache stays
// under 2 × WEB_FETCH_CACHE_BYTES, and one organization's under 2 × its share. One Lua step writes the page, checks both counters and counts it in each, so concurrent writers
// cannot pass the budget between a check and a write. Its keys are all under the prefix, which on Redis Cluster is
// hash-tagged (`{ockhub}`): one slot, as the step needs.
import { createHash } from 'node:crypto';
import type { Redis } from 'ioredis';
import type { AppContext } from '../context.js';
import type { FetchedPage } from './fetched-page.js';

const keyOf = (prefix: string, url: string) =>
  `${prefix}:web-fetch:page:${createHash('sha256').update(url).digest('hex')}`;

/** `<prefix>:web-fetch:cache-bytes:<window>` (all) and `…:<window>:<organization>` (its share). */
export const cacheBytesKeys = (prefix: string, window: number, organizationId: string) => {
  const total = `${prefix}:web-fetch:cache-bytes:${window}`;
  return { total, organization: `${total}:${organizationId}` };
};

/**
 * KEYS = page, window total, window organization; ARGV = page JSON, page lifetime (s), budget, organization share,
 * counters' lifetime (s), the end of the window after the counted one (ms since the epoch). The page lives its
 * lifetime or until that end by Redis's clock, whichever comes first; past it, it is not cached. A page is counted for what Redis itself says it takes (MEMORY USAGE: the key, the value as
 * its allocator rounds it, the entry), so it is written first and taken back when it does not fit; nobody sees it in
 * between, as a script runs alone. Returns 1 when the page is cached (or already was: then nothing is counted again),
 * 0 when it would pass the budget or the share.
 */
const admitPageLua = `
local now = redis.call('TIME')
local lifeMs = math.min(tonumber(ARGV[2]) * 1000,
  tonumber(ARGV[6]) - (tonumber(now[1]) * 1000 + math.floor(tonumber(now[2]) / 1000)))
if lifeMs <= 0 then return 0 end
if not redis.call('SET', KEYS[1], ARGV[1], 'NX', 'PX', lifeMs) then return 1 end
local bytes = redis.call('MEMORY', 'USAGE', KEYS[1])
if tonumber(redis.call('GET', KEYS[2]) or '0') + bytes > tonumber(ARGV[3])
  or tonumber(redis.call('GET', KEYS[3]) or '0') + bytes > tonumber(ARGV[4]) then
  redis.call('DEL', KEYS[1])
  return 0
end
redis.call('INCRBY', KEYS[2], bytes)
redis.call('EXPIRE', KEYS[2], ARGV[5])
redis.call('INCRBY', KEYS[3], bytes)
redis.call('EXPIRE', KEYS[3], ARGV[5])
return 1
`;

type PageCacheRedis = Redis & { ockCachePage(...keysAndArgs: (string | number)[]): Promise<number> };

export function pageCacheCommands(redis: Redis): PageCacheRedis {
  const r = redis as PageCacheRedis;
  if (typeof r.ockCachePage !== 'function') redis.defineCommand('ockCachePage', { numberOfKeys: 3, lua: admitPageLua });
  return r;
}

export async function cachedPage(ctx: AppContext, url: string): Promise<FetchedPage | undefined> {
  if (ctx.config.WEB_FETCH_CACHE_SECONDS === 0) return undefined;
  const raw = await ctx.redis.get(keyOf(ctx.config.REDIS_PREFIX, url)).catch(() => null);
  if (!raw) return undefined;
  const page = JSON.parse(raw) as FetchedPage;
  return page.url === url ? page : undefined;
}

/**
 * Caches a fetched page for the organization that asked for it, within the budget. Batches queued by versions
 * before the budget carry no organization: they share the bucket `-`.
 */
export async function cachePage(ctx: AppContext, page: FetchedPage, organizationId = '-'): Promise<void> {
  const lifetime = ctx.config.WEB_FETCH_CACHE_SECONDS;
  if (lifetime === 0 || page.error) return;
  const window = Math.floor(Date.now() / 1000 / lifetime);
  const counters = cacheBytesKeys(ctx.config.REDIS_PREFIX, window, organizationId);
  // A counter is read only during its own window; the second lifetime covers workers whose clocks run behind.
  await pageCacheCommands(ctx.redis)
    .ockCachePage(
      keyOf(ctx.config.REDIS_PREFIX, page.url),
      counters.total,
      counters.organization,
      JSON.stringify(page),
      lifetime,
      ctx.config.WEB_FETCH_CACHE_BYTES,
      ctx.config.WEB_FETCH_CACHE_ORG_BYTES,
      2 * lifetime,
      (window + 2) * lifetime * 1000,
    )
    .catch((err: Error) => ctx.logger.warn({ err: err.message }, 'web fetch cache write failed'));
}
