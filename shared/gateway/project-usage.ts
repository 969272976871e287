// What a project's gateway requests did over the last days (UTC): per day, and per operation and the model that served
// them, how many, their tokens (input, output, cache reads and cache writes) and what they took from the wallet. Read from the per-day roll-up the ledger writer keeps as it inserts the
// request logs (`project_daily_usage`), so a period costs at most a row per day, operation and model whatever its
// traffic. Written requests only: the ledger worker writes them a moment after the gateway settled them.
import { sql } from 'drizzle-orm';
import type { Database } from '../db/client.js';
import { microsToNumber } from '../wallet/money.js';

/** Tokens as the request logs count them: input less what the prompt cache read or wrote, which count apart. */
export type UsageTokens = {
  inputTokens: number;
  outputTokens: number;
  cacheReadTokens: number;
  cacheWriteTokens: number;
};
export type UsageDay = { day: string; requests: number } & UsageTokens & { spent: number };
export type UsageByModel = { operation: string; model?: string; requests: number } & UsageTokens & { spent: number };
export type ProjectUsage = { from: Date; to: Date; days: UsageDay[]; models: UsageByModel[] };

/** The first UTC day of a window of `days` days ending today. */
const firstDayOf = (now: Date, days: number) =>
  new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate() - (days - 1)));

type TokenSums = { input: string; output: string; cache_read: string; cache_write: string };
type DayRow = { day: string; n: string; spent: string } & TokenSums;
type ModelRow = { operation: string; model: string; n: string; spent: string } & TokenSums;

const tokenSums = sql`sum(input_tokens)::text as input, sum(output_tokens)::text as output,
  sum(cache_read_tokens)::text as cache_read, sum(cache_write_tokens)::text as cache_write`;

const tokensOf = (r: TokenSums): UsageTokens => ({
  inputTokens: Number(r.input),
  outputTokens: Number(r.output),
  cacheReadTokens: Number(r.cache_read),
  cacheWriteTokens: Number(r.cache_write),
});

export async function projectUsage(
  db: Database,
  projectId: string,
  days: number,
  now = new Date(),
): Promise<ProjectUsage> {
  const from = firstDayOf(now, days);
  const first = from.toISOString().slice(0, 10);
  const [byDay, byModel] = await Promise.all([
    db.execute<DayRow>(sql`
      select day::text as day, sum(request_count)::text as n, ${tokenSums}, sum(spent)::text as spent
        from project_daily_usage
       where project_id = ${projectId} and day >= ${first}::date
       group by day order by day`),
    db.execute<ModelRow>(sql`
      select operation, model, sum(request_count)::text as n, ${tokenSums}, sum(spent)::text as spent
        from project_daily_usage
       where project_id = ${projectId} and day >= ${first}::date
       group by operation, model order by sum(spent) desc, sum(request_count) desc, operation, model`),
  ]);
  const money = (v: string) => microsToNumber(BigInt(v));
  return {
    from,
    to: now,
    days: byDay.rows.map((r) => ({ day: r.day, requests: Number(r.n), ...tokensOf(r), spent: money(r.spent) })),
    models: byModel.rows.map((r) => ({
      operation: r.operation,
      ...(r.model ? { model: r.model } : {}),
      requests: Number(r.n),
      ...tokensOf(r),
      spent: money(r.spent),
    })),
  };
}
