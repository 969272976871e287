// The account daily quota's history: persisted per day by the rollover, plus the live counters of recent days.
import { and, eq, gte, sql } from 'drizzle-orm';
import type { AppContext } from '../context.js';
import { accountDailyUsage, apiKeyDailyUsage, apiKeys } from '../db/schema/index.js';
import { addDays, utcDay } from '../time/utc-day.js';
import { getAccount } from './accounts.js';
import { CredentialCache } from './credential-cache.js';

export async function usageHistory(ctx: AppContext, accountId: string, days: number, now = new Date()) {
  const account = await getAccount(ctx, accountId);
  const today = utcDay(now);
  const first = addDays(today, -(days - 1));
  const persisted = await ctx.db
    .select()
    .from(accountDailyUsage)
    .where(and(eq(accountDailyUsage.accountId, accountId), gte(accountDailyUsage.day, first)));
  const byDay = new Map(persisted.map((p) => [p.day, p.requestCount]));
  const cache = new CredentialCache(ctx.redis, ctx.config.REDIS_PREFIX);
  const recent = Array.from({ length: Math.min(days, 3) }, (_, i) => addDays(today, -i));
  const live = await ctx.redis.mget(recent.map((d) => cache.dailyCounterKey(accountId, d)));
  recent.forEach((day, i) => {
    if (day === today || !byDay.has(day)) byDay.set(day, Number(live[i] ?? byDay.get(day) ?? 0));
  });
  return {
    dailyQuota: account.dailyQuota,
    days: Array.from({ length: days }, (_, i) => {
      const date = addDays(first, i);
      return { date, requestCount: byDay.get(date) ?? 0 };
    }),
  };
}

/** Persists one day's account and key counters. Writes absolute values, so running it twice changes nothing. */
export async function persistAccountUsage(ctx: AppContext, day: string): Promise<{ accounts: number; keys: number }> {
  const cache = new CredentialCache(ctx.redis, ctx.config.REDIS_PREFIX);
  // In id order, so two rollovers at once lock their rows in the same order (the ledger writer locks no key row).
  const accountIds = (await ctx.redis.smembers(cache.activeAccountsKey(day))).sort();
  const keyIds = (await ctx.redis.smembers(cache.activeKeysKey(day))).sort();
  const accountCounts = accountIds.length
    ? await ctx.redis.mget(accountIds.map((id) => cache.dailyCounterKey(id, day)))
    : [];
  const keyPipeline = ctx.redis.pipeline();
  for (const id of keyIds) keyPipeline.hmget(cache.keyCounterKey(id, day), 'count', 'lastUsedAt');
  const keyCounts = ((await keyPipeline.exec()) ?? []).map((r) => r[1] as (string | null)[]);

  // Rows of accounts or keys deleted since are skipped (insert … select … where exists).
  await ctx.db.transaction(async (tx) => {
    for (const [i, accountId] of accountIds.entries()) {
      const requestCount = Number(accountCounts[i] ?? 0);
      await tx.execute(sql`
        insert into ${accountDailyUsage} (account_id, day, request_count)
        select ${accountId}, ${day}, ${requestCount} where exists (select 1 from accounts where id = ${accountId})
        on conflict (account_id, day) do update set request_count = excluded.request_count`);
    }
    for (const [i, keyId] of keyIds.entries()) {
      const [count, lastUsedAt] = keyCounts[i] ?? [];
      // A key used only on the gateway that day has a last use but no /api/v1 count: no usage row for it.
      if (count) {
        await tx.execute(sql`
          insert into ${apiKeyDailyUsage} (key_id, day, request_count)
          select ${keyId}, ${day}, ${Number(count)} where exists (select 1 from api_keys where id = ${keyId})
          on conflict (key_id, day) do update set request_count = excluded.request_count`);
      }
      if (lastUsedAt) {
        await tx
          .update(apiKeys)
          .set({ lastUsedAt: sql`greatest(${apiKeys.lastUsedAt}, ${new Date(Number(lastUsedAt))})` })
          .where(eq(apiKeys.id, keyId));
      }
    }
  });
  return { accounts: accountIds.length, keys: keyIds.length };
}
