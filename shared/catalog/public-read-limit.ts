// Public catalog and MCP Registry reads that miss the read cache, limited per client address: each costs PostgreSQL
// a page query and its count (a search, a deep page), where a cached answer costs nothing, so one anonymous script
// with a unique query per request kept the API and the database saturated (security review #76). Only a miss takes
// the Redis step; a hit never does. When Redis cannot answer, the read goes ahead: catalog reads need only
// PostgreSQL (docs/reliability.md), and this limit guards them, it does not gate them.
import type { AppContext } from '../context.js';
import { addressBucket } from '../rate-limit/address-bucket.js';
import { SlidingWindowLimiter, tooManyRequests, windowKey } from '../rate-limit/sliding-window.js';

const WINDOW_MS = 60_000;
const PRODUCTION_MISSES_PER_MINUTE = 300;
/** A Redis outage would otherwise log once per miss. */
const UNAVAILABLE_LOG_INTERVAL_MS = 10_000;
let lastUnavailableLog = 0;

/** The allowance per address and minute: the setting, else 300 in production and none elsewhere (0 is off). */
export const publicReadMissesPerMinute = (config: AppContext['config']) =>
  config.PUBLIC_READ_MISSES_PER_ADDRESS_PER_MINUTE ??
  (config.NODE_ENV === 'production' ? PRODUCTION_MISSES_PER_MINUTE : 0);

const tooManyReads = (retryAfterMs: number) =>
  tooManyRequests(
    'Catalog.TooManyReads',
    'Too many uncached catalog reads from this address: wait (see Retry-After), or read pages others read.',
    retryAfterMs,
  );

/** Counts one read that missed the cache against the address's allowance; throws 429 when it has none left. */
export async function admitPublicReadMiss(ctx: Pick<AppContext, 'config' | 'redis' | 'logger'>, address: string) {
  const limit = publicReadMissesPerMinute(ctx.config);
  if (limit === 0) return;
  const key = windowKey(ctx.config.REDIS_PREFIX, 'read-miss:addr', addressBucket(address));
  let admission: Awaited<ReturnType<SlidingWindowLimiter['hit']>>;
  try {
    admission = await new SlidingWindowLimiter(ctx.redis).hit([{ key, limit, windowMs: WINDOW_MS }]);
  } catch (err) {
    if (Date.now() - lastUnavailableLog > UNAVAILABLE_LOG_INTERVAL_MS) {
      lastUnavailableLog = Date.now();
      ctx.logger.warn({ err }, 'public read limit not checked (Redis unavailable); reads go ahead');
    }
    return;
  }
  if (!admission.allowed) throw tooManyReads(admission.retryAfterMs);
}
