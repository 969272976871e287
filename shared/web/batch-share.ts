// Web fetch batches in flight per organization, over every process: a batch holds a web-fetch worker slot for up to
// ~30 s (20 silent pages, 8 at a time, 10 s each) for one web price, and a request that found no slot in time costs
// nothing, so without a share one organization's batches held every slot and everyone else's fetches answered 503
// (a review finding, docs/web.md "Batches per organization"). A sliding window whose entries are the batches: one
// is counted before the charge, taken back when its answer came, and left to expire when the API stopped waiting
// (the worker may still be running it). A batch past the share waits for a place (up to WEB_FETCH_WAIT_MS, as it
// would for a worker slot) rather than being refused: an organization's parallel fetches are all served, only so
// many at a time, and the other organizations keep the rest of the slots.
import type { AppContext } from '../context.js';
import { SlidingWindowLimiter, type Ticket, tooManyRequests, windowKey } from '../rate-limit/sliding-window.js';

/** The longest a batch may hold a slot after it was queued: the API's wait, then a batch taken at its very end. */
function batchLifetimeMs(config: AppContext['config']): number {
  const rounds = Math.ceil(20 / config.WEB_FETCH_CONCURRENCY);
  return config.WEB_FETCH_WAIT_MS + rounds * config.WEB_FETCH_PAGE_TIMEOUT_MS + 5_000;
}

export type BatchPlace = { release(): Promise<void> };

/** A waiting batch asks again after this long, doubling up to the most. */
const FIRST_PAUSE_MS = 25;
const MOST_PAUSE_MS = 250;

/**
 * Takes one of the organization's places, waiting for one while they are all taken; after WEB_FETCH_WAIT_MS of
 * waiting, throws 429 WebFetch.TooManyBatches.
 */
export async function takeBatchPlace(
  ctx: Pick<AppContext, 'config' | 'redis'>,
  organizationId: string,
): Promise<BatchPlace> {
  const limiter = new SlidingWindowLimiter(ctx.redis);
  const limit = {
    key: windowKey(ctx.config.REDIS_PREFIX, 'web-fetch-batches', organizationId),
    limit: ctx.config.WEB_FETCH_BATCHES_PER_ORGANIZATION,
    windowMs: batchLifetimeMs(ctx.config),
  };
  const giveUpAt = Date.now() + ctx.config.WEB_FETCH_WAIT_MS;
  let pause = FIRST_PAUSE_MS;
  let admission = await limiter.hit([limit]);
  while (!admission.allowed && Date.now() < giveUpAt) {
    await new Promise((resolve) => setTimeout(resolve, Math.min(pause, giveUpAt - Date.now())));
    pause = Math.min(pause * 2, MOST_PAUSE_MS);
    admission = await limiter.hit([limit]);
  }
  if (!admission.allowed) {
    throw tooManyRequests(
      'WebFetch.TooManyBatches',
      `This organization had ${ctx.config.WEB_FETCH_BATCHES_PER_ORGANIZATION} web fetches in progress all the while this one waited; send it again when one of them has answered.`,
      // A place is given back as soon as a batch answers, usually well before its entry would expire.
      Math.min(admission.retryAfterMs, ctx.config.WEB_FETCH_PAGE_TIMEOUT_MS),
    );
  }
  const ticket: Ticket = admission.ticket;
  return { release: () => limiter.forget(ticket).catch(() => undefined) };
}
