// An action that a sliding window allows a few times: counted before it runs (so concurrent attempts cannot slip
// past the limit), given back when it fails, so only actions that did something use the allowance.
import type { Redis } from 'ioredis';
import { SlidingWindowLimiter, type WindowLimit } from './sliding-window.js';

/** Runs `action` if `limit` has room (a limit of 0 is off), else throws `refuse(ms until there is room)`. */
export async function withinAllowance<T>(
  redis: Redis,
  limit: WindowLimit,
  refuse: (retryAfterMs: number) => Error,
  action: () => Promise<T>,
): Promise<T> {
  const limiter = new SlidingWindowLimiter(redis);
  const admission = await limiter.hit([limit]);
  if (!admission.allowed) throw refuse(admission.retryAfterMs);
  try {
    return await action();
  } catch (err) {
    await limiter.forget(admission.ticket).catch(() => undefined);
    throw err;
  }
}
