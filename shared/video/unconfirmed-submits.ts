// Submissions of a video task that the provider never confirmed. Neither upstream API takes an idempotency key, so a
// submit whose answer was lost (a 5xx, a cut connection, a time-out, an answer without an id) may have created a paid
// generation upstream, and submitting again may create another. Such submits are counted per task and bounded;
// those the provider surely did not take (the request never reached it, or it answered 429/503) are not counted.
import type { AppContext } from '../context.js';
import { isOutboundRequestError } from '../http/index.js';
import { UpstreamVideoError } from '../providers/video/index.js';

export const MAX_UNCONFIRMED_SUBMITS = 3;

/** Refusals before any byte reached the provider. */
const notSentReasons = new Set(['invalid-url', 'scheme', 'blocked-address', 'dns']);

/** True when the provider surely created nothing: the request did not reach it, or it said it took nothing. */
export function submitSurelyNotTaken(err: unknown): boolean {
  if (err instanceof UpstreamVideoError) return err.status === 429 || err.status === 503;
  if (!isOutboundRequestError(err)) return false;
  if (notSentReasons.has(err.reason)) return true;
  return err.reason === 'connect' && (err.cause as { code?: unknown } | undefined)?.code === 'ECONNREFUSED';
}

/** Counts one unconfirmed submit of the task and answers the count so far (kept until an hour past its deadline). */
export async function countUnconfirmedSubmit(
  ctx: Pick<AppContext, 'redis' | 'config'>,
  task: { id: string; deadlineAt: Date },
): Promise<number> {
  const key = `${ctx.config.REDIS_PREFIX}:video:unconfirmed-submits:${task.id}`;
  const replies = await ctx.redis
    .multi()
    .incr(key)
    .pexpireat(key, task.deadlineAt.getTime() + 3_600_000)
    .exec();
  const [error, count] = replies?.[0] ?? [new Error('no reply to INCR'), 0];
  if (error) throw error;
  return Number(count);
}
