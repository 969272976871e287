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

/** One share a job counts against, and the tenant of that share it belongs to. */
export type SharePlace = { share: TenantShare; tenantId: string };

/**
 * Takes a place for `holderId` (what the job works on: an alert, a version's submit) in every share of `places` at
 * once, in one Redis step, or in none: undefined when one of its tenants has `limit` jobs running. Call the result
 * once, to leave them all. `holderId` must name one job's work and no other job's that may run at the same time: an
 * entry of the same name is taken as this job's own and replaced (a version alone named two submits' reviews, the
 * later one took the earlier one's place while it ran: security review #101).
 */
async function enterTenantShares(
  ctx: Pick<AppContext, 'config' | 'redis'>,
  places: SharePlace[],
  holderId: string,
): Promise<(() => Promise<void>) | undefined> {
  const limiter = new SlidingWindowLimiter(ctx.redis);
  const limits = places
    .filter((p) => p.share.limit > 0)
    .map((p) => ({
      key: windowKey(ctx.config.REDIS_PREFIX, `share:${p.share.name}`, p.tenantId),
      limit: p.share.limit,
      windowMs: p.share.lifetimeMs,
    }));
  // A job run again after its worker died (its lock expired) finds its own entries: those places are its own again.
  if (limits.length > 0) {
    const multi = ctx.redis.multi();
    for (const { key } of limits) multi.zrem(key, holderId);
    await multi.exec();
  }
  const admission = await limiter.hit(limits, holderId);
  if (!admission.allowed) return undefined;
  let left = false;
  return async () => {
    if (left) return;
    left = true;
    await limiter.forget(admission.ticket).catch(() => undefined);
  };
}

/**
 * Runs `work` within every share of `places`, or answers `{ deferred: true }` without running it when one is taken;
 * the caller (a processor) then moves its job to the delayed set.
 */
export async function withinTenantShares<T>(
  ctx: Pick<AppContext, 'config' | 'redis'>,
  places: SharePlace[],
  holderId: string,
  work: () => Promise<T>,
): Promise<T | { deferred: true }> {
  const leave = await enterTenantShares(ctx, places, holderId);
  if (!leave) return { deferred: true };
  try {
    return await work();
  } finally {
    await leave();
  }
}

/** `withinTenantShares` with one share. */
export const withinTenantShare = <T>(
  ctx: Pick<AppContext, 'config' | 'redis'>,
  share: TenantShare,
  who: { tenantId: string; holderId: string },
  work: () => Promise<T>,
) => withinTenantShares(ctx, [{ share, tenantId: who.tenantId }], who.holderId, work);

export const isDeferred = (result: unknown): result is { deferred: true } =>
  typeof result === 'object' && result !== null && (result as { deferred?: unknown }).deferred === true;
