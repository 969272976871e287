// How many of a project's gateway requests were refused at admission, per UTC day and reason, so its members see
// them (a refused request writes no request log). Counted on the refusal branch only: an admitted request costs
// nothing more. One Redis hash per project and day under the organization's tag, kept `REFUSAL_DAYS_KEPT` days.
import type { Redis } from 'ioredis';
import type { AppContext } from '../context.js';
import type { QuotaLimitName } from '../quota/quota-counters.js';
import { organizationKeyBase } from '../redis/tagged-keys.js';
import { addDays, utcDay } from '../time/utc-day.js';

const quotaLimits = [
  'dailyRequests',
  'dailyTokens',
  'monthlyRequests',
  'monthlyTokens',
  'requestsPerMinute',
] as const satisfies readonly QuotaLimitName[];
/** Why a request was refused: the quota limit it reached, or the wallet's answer, or the ledger's backlog. */
export const refusalReasons = [...quotaLimits, 'balance', 'inactive', 'backlog'] as const;
export type RefusalReason = (typeof refusalReasons)[number];
export type RefusalCount = { day: string; reason: RefusalReason; count: number };

/** Today and the six days before it: a day's hash expires at the start of the seventh day after it. */
export const REFUSAL_DAYS_KEPT = 7;

const refusalKey = (prefix: string, organizationId: string, projectId: string, day: string) =>
  `${organizationKeyBase(prefix, organizationId)}:rf:${projectId}:${day}`;

type Ctx = Pick<AppContext, 'redis' | 'config' | 'logger'>;
type Refused = { organizationId: string; projectId: string };

/**
 * Counts one refusal. HINCRBY is atomic, so concurrent refusals all count; the expiry is set with it (a fixed
 * instant, so repeating it changes nothing). A failure to count is logged and never changes the refusal's answer.
 */
export async function countRefusal(ctx: Ctx, caller: Refused, reason: RefusalReason, at: Date): Promise<void> {
  const day = utcDay(at);
  const key = refusalKey(ctx.config.REDIS_PREFIX, caller.organizationId, caller.projectId, day);
  const expiresAt = Date.parse(`${addDays(day, REFUSAL_DAYS_KEPT)}T00:00:00.000Z`) / 1000;
  try {
    await ctx.redis.multi().hincrby(key, reason, 1).expireat(key, expiresAt).exec();
  } catch (err) {
    ctx.logger.warn({ projectId: caller.projectId, reason, err: (err as Error).message }, 'refusal not counted');
  }
}

/** The refusals of the window's last `days` days that Redis still holds, oldest day first, then by reason. */
export async function readRefusals(
  redis: Redis,
  prefix: string,
  project: { organizationId: string; projectId: string },
  days: number,
  now = new Date(),
): Promise<RefusalCount[]> {
  const today = utcDay(now);
  const n = Math.min(days, REFUSAL_DAYS_KEPT);
  const wanted = Array.from({ length: n }, (_, i) => addDays(today, i - n + 1));
  const pipeline = redis.pipeline();
  for (const day of wanted) pipeline.hgetall(refusalKey(prefix, project.organizationId, project.projectId, day));
  const replies = (await pipeline.exec()) ?? [];
  return wanted.flatMap((day, i) => {
    const [err, fields] = replies[i] ?? [];
    if (err) throw err;
    return Object.entries((fields ?? {}) as Record<string, string>)
      .sort(([a], [b]) => a.localeCompare(b))
      .map(([reason, count]) => ({ day, reason: reason as RefusalReason, count: Number(count) }));
  });
}
