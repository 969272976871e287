// One tenant's share of a queue's worker slots, over every worker process: at most `limit` of its jobs run at once,
// and a job past the share goes back to the delayed set (holding no slot) to look again shortly, so one tenant's
// slow jobs cannot take every slot of a queue that serves everyone. Counted like the web fetch batch share (a
// sliding window in Redis whose entries are the running jobs, each named by what the job works on): a job's entry is
// taken back when it ends; when its worker died holding it, the job's next run takes that place back, and otherwise
// it expires after `lifetimeMs`.
import type { AppContext } from '../context.js';
import { SlidingWindowLimiter, windowKey } from '../rate-limit/sliding-window.js';

export type TenantShare = {
  /** Names the counter: `<REDIS_PREFIX>:rl:share:<name>:<tenant>`. */
  name: string;
  /** Jobs of one tenant running at once (0: no share). */
  limit: number;
  /** The longest one job may run: past it an entry whose worker never took it back stops counting. */
  lifetimeMs: number;
};

/** A job past its tenant's share looks again after this long, from the delayed set. */
export const TENANT_SHARE_PAUSE_MS = 1_000;

/**
 * Takes one of the tenant's places for `holderId` (what the job works on: an alert, a version's submit); undefined
 * when the tenant has `limit` jobs running. Call the result once, to leave. `holderId` must name one job's work and no
 * other job's that may run at the same time: an entry of the same name is taken as this job's own and replaced (a
 * version alone named two submits' reviews, the later one took the earlier one's place while it ran: security
 * review #101).
 */
export async function enterTenantShare(
  ctx: Pick<AppContext, 'config' | 'redis'>,
  share: TenantShare,
  who: { tenantId: string; holderId: string },
): Promise<(() => Promise<void>) | undefined> {
  const limiter = new SlidingWindowLimiter(ctx.redis);
  const key = windowKey(ctx.config.REDIS_PREFIX, `share:${share.name}`, who.tenantId);
  // A job run again after its worker died (its lock expired) finds its own entry: that place is its own again.
  if (share.limit > 0) await ctx.redis.zrem(key, who.holderId);
  const admission = await limiter.hit([{ key, limit: share.limit, windowMs: share.lifetimeMs }], who.holderId);
  if (!admission.allowed) return undefined;
  let left = false;
  return async () => {
    if (left) return;
    left = true;
    await limiter.forget(admission.ticket).catch(() => undefined);
  };
}

/**
 * Runs `work` within the tenant's share, or answers `{ deferred: true }` without running it when the share is taken;
 * the caller (a processor) then moves its job to the delayed set.
 */
export async function withinTenantShare<T>(
  ctx: Pick<AppContext, 'config' | 'redis'>,
  share: TenantShare,
  who: { tenantId: string; holderId: string },
  work: () => Promise<T>,
): Promise<T | { deferred: true }> {
  const leave = await enterTenantShare(ctx, share, who);
  if (!leave) return { deferred: true };
  try {
    return await work();
  } finally {
    await leave();
  }
}

export const isDeferred = (result: unknown): result is { deferred: true } =>
  typeof result === 'object' && result !== null && (result as { deferred?: unknown }).deferred === true;
