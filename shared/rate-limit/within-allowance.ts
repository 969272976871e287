// An action that a sliding window allows a few times: counted before it runs (so concurrent attempts cannot slip
// past the limit), given back when it fails, so only actions that did something use the allowance.
import type { Redis } from 'ioredis';
import type { AppContext } from '../context.js';
import { SlidingWindowLimiter, tooManyRequests, type WindowLimit, windowKey } from './sliding-window.js';

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

export type AllowanceSpec = {
  /** Names the window's keys: `<REDIS_PREFIX>:rl:<name>:<holder>`. */
  name: string;
  windowMs: number;
  /** Actions per window and holder; 0 is off. */
  limit: (config: AppContext['config']) => number;
  /** The refusal: 429 with this code and message, and Retry-After. */
  code: string;
  message: string;
};

/** An allowance per holder (an account, an organization, an address): `(ctx, holder, action)` runs the action in it. */
export function allowance(spec: AllowanceSpec) {
  const refuse = (retryAfterMs: number) => tooManyRequests(spec.code, spec.message, retryAfterMs);
  return <T>(ctx: Pick<AppContext, 'config' | 'redis'>, holder: string, action: () => Promise<T>): Promise<T> =>
    withinAllowance(
      ctx.redis,
      {
        key: windowKey(ctx.config.REDIS_PREFIX, spec.name, holder),
        limit: spec.limit(ctx.config),
        windowMs: spec.windowMs,
      },
      refuse,
      action,
    );
}
