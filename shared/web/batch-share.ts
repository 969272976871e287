// Web fetch batches in flight per organization, over every process: a batch holds a web-fetch worker slot for up to
// ~30 s (20 silent pages, 8 at a time, 10 s each) for one web price, and a request that found no slot in time costs
// nothing, so without a share one organization's batches held every slot and everyone else's fetches answered 503
// (a review finding, docs/web.md "Batches per organization"). A sliding window whose entries are the batches: one
// is counted before the charge, taken back when its answer came, and left to expire when the API stopped waiting
// (the worker may still be running it).
import type { AppContext } from '../context.js';
import { SlidingWindowLimiter, type Ticket, tooManyRequests, windowKey } from '../rate-limit/sliding-window.js';

/** The longest a batch may hold a slot after it was queued: the API's wait, then a batch taken at its very end. */
function batchLifetimeMs(config: AppContext['config']): number {
  const rounds = Math.ceil(20 / config.WEB_FETCH_CONCURRENCY);
  return config.WEB_FETCH_WAIT_MS + rounds * config.WEB_FETCH_PAGE_TIMEOUT_MS + 5_000;
}

export type BatchPlace = { release(): Promise<void> };

/** Takes one of the organization's places, or throws 429 WebFetch.TooManyBatches. */
export async function takeBatchPlace(
  ctx: Pick<AppContext, 'config' | 'redis'>,
  organizationId: string,
): Promise<BatchPlace> {
  const limiter = new SlidingWindowLimiter(ctx.redis);
  const admission = await limiter.hit([
    {
      key: windowKey(ctx.config.REDIS_PREFIX, 'web-fetch-batches', organizationId),
      limit: ctx.config.WEB_FETCH_BATCHES_PER_ORGANIZATION,
      windowMs: batchLifetimeMs(ctx.config),
    },
  ]);
  if (!admission.allowed) {
    throw tooManyRequests(
      'WebFetch.TooManyBatches',
      `This organization has ${ctx.config.WEB_FETCH_BATCHES_PER_ORGANIZATION} web fetches in progress; send the next one when one of them has answered.`,
      // A place is given back as soon as a batch answers, usually well before its entry would expire.
      Math.min(admission.retryAfterMs, ctx.config.WEB_FETCH_PAGE_TIMEOUT_MS),
    );
  }
  const ticket: Ticket = admission.ticket;
  return { release: () => limiter.forget(ticket).catch(() => undefined) };
}
