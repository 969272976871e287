// A project's quota configuration (PostgreSQL is the record; the enforcement cache is replaced on every change)
// and the quota-usage view computed from the same counters that enforce.
import type { AppContext } from '../context.js';
import type { DbExecutor } from '../db/client.js';
import { projectQuotas } from '../db/schema/index.js';
import { QuotaCounters } from '../quota/quota-counters.js';
import { loadProjectQuota, type ProjectQuota, settingsOf } from '../quota/quota-settings.js';

export type QuotaLimits = {
  dailyRequestLimit: number | null;
  dailyTokenLimit: number | null;
  monthlyRequestLimit: number | null;
  monthlyTokenLimit: number | null;
  requestsPerMinuteLimit: number | null;
};
/** A partial update: an absent field keeps its value (or its default), `null` removes a limit. */
export type QuotaInput = Partial<QuotaLimits & { enforceQuota: boolean; customResetDay: number }>;

export const quotaCountersOf = (ctx: Pick<AppContext, 'redis' | 'db' | 'config'>) =>
  new QuotaCounters({ redis: ctx.redis, db: ctx.db, prefix: ctx.config.REDIS_PREFIX });

/** Inserts or updates the quota row; callers inside a transaction pass it as `db`. */
export async function upsertProjectQuota(db: DbExecutor, projectId: string, input: QuotaInput): Promise<ProjectQuota> {
  const set = Object.fromEntries(Object.entries(input).filter(([, v]) => v !== undefined));
  const [row] = await db
    .insert(projectQuotas)
    .values({ projectId, ...set })
    .onConflictDoUpdate({ target: projectQuotas.projectId, set: { ...set, updatedAt: new Date() } })
    .returning();
  if (!row) throw new Error('quota upsert returned nothing');
  return row;
}

export async function setProjectQuota(
  ctx: Pick<AppContext, 'redis' | 'db' | 'config'>,
  projectId: string,
  input: QuotaInput,
): Promise<ProjectQuota> {
  const counters = quotaCountersOf(ctx);
  try {
    // The cache is replaced while the upsert still holds the row's lock, so two updates replace it in the order they
    // commit: written after the commit, the first update's write could land last and keep its limits enforced for
    // the cache's hour while PostgreSQL holds the second's (found by a review). A reader priming the cache meanwhile
    // writes only where no settings are cached, so it cannot undo this write either.
    return await ctx.db.transaction(async (tx) => {
      const row = await upsertProjectQuota(tx, projectId, input);
      await counters.settingsChanged(projectId, settingsOf(row));
      return row;
    });
  } catch (err) {
    // The commit failed after the cache took the new settings: drop them, the next request reads PostgreSQL.
    await counters.forget(projectId).catch(() => undefined);
    throw err;
  }
}

export const getProjectQuota = (db: DbExecutor, projectId: string) => loadProjectQuota(db, projectId);

export type QuotaUsageView = {
  projectId: string;
  period: 'day' | 'month';
  dailyUsage?: { requestCount: number; tokenCount: number; date: string };
  monthlyUsage?: { requestCount: number; tokenCount: number; resetDay: number; windowStart: string };
  quotaLimitRemaining: Partial<Record<'dailyRequests' | 'dailyTokens' | 'monthlyRequests' | 'monthlyTokens', number>>;
  enforceQuota: boolean;
};

const remaining = (limit: number | null | undefined, used: number) =>
  limit === null || limit === undefined ? undefined : Math.max(0, limit - used);

/**
 * `day`: the current UTC day; `month`: the current month window and the day within it. A remaining figure is
 * absent where no limit is set.
 */
export async function quotaUsage(
  ctx: Pick<AppContext, 'redis' | 'db' | 'config'>,
  projectId: string,
  period: 'day' | 'month',
  counters: QuotaCounters = quotaCountersOf(ctx),
): Promise<QuotaUsageView> {
  const [quota, usage] = await Promise.all([getProjectQuota(ctx.db, projectId), counters.readUsage(projectId)]);
  const enforceQuota = quota?.enforceQuota ?? false;
  if (period === 'day') {
    return {
      projectId,
      period,
      enforceQuota,
      dailyUsage: usage.day,
      quotaLimitRemaining: {
        dailyRequests: remaining(quota?.dailyRequestLimit, usage.day.requestCount),
        dailyTokens: remaining(quota?.dailyTokenLimit, usage.day.tokenCount),
      },
    };
  }
  const { windowStart, resetDay, requestCount, tokenCount } = usage.month;
  return {
    projectId,
    period,
    enforceQuota,
    dailyUsage: usage.day,
    monthlyUsage: { requestCount, tokenCount, resetDay, windowStart },
    quotaLimitRemaining: {
      dailyRequests: remaining(quota?.dailyRequestLimit, usage.day.requestCount),
      dailyTokens: remaining(quota?.dailyTokenLimit, usage.day.tokenCount),
      monthlyRequests: remaining(quota?.monthlyRequestLimit, requestCount),
      monthlyTokens: remaining(quota?.monthlyTokenLimit, tokenCount),
    },
  };
}
