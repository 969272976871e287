// What a project's gateway requests did over the last days (UTC): per day, and per operation and model, how many, their
// tokens and what they took from the wallet. Read from the per-day roll-up the ledger writer keeps as it inserts the
// request logs (`project_daily_usage`), so a period costs at most a row per day, operation and model whatever its
// traffic. Written requests only: the ledger worker writes them a moment after the gateway settled them.
import { sql } from 'drizzle-orm';
import type { Database } from '../db/client.js';
import { microsToNumber } from '../wallet/money.js';

export type UsageDay = { day: string; requests: number; spent: number };
export type UsageByModel = {
  operation: string;
  model?: string;
  requests: number;
  inputTokens: number;
  outputTokens: number;
  spent: number;
};
export type ProjectUsage = { from: Date; to: Date; days: UsageDay[]; models: UsageByModel[] };

/** The first UTC day of a window of `days` days ending today. */
const firstDayOf = (now: Date, days: number) =>
  new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate() - (days - 1)));

type ModelRow = { operation: string; model: string; n: string; input: string; output: string; spent: string };

export async function projectUsage(
  db: Database,
  projectId: string,
  days: number,
  now = new Date(),
): Promise<ProjectUsage> {
  const from = firstDayOf(now, days);
  const first = from.toISOString().slice(0, 10);
  const [byDay, byModel] = await Promise.all([
    db.execute<{ day: string; n: string; spent: string }>(sql`
      select day::text as day, sum(request_count)::text as n, sum(spent)::text as spent
        from project_daily_usage
       where project_id = ${projectId} and day >= ${first}::date
       group by day order by day`),
    db.execute<ModelRow>(sql`
      select operation, model, sum(request_count)::text as n, sum(input_tokens)::text as input,
             sum(output_tokens)::text as output, sum(spent)::text as spent
        from project_daily_usage
       where project_id = ${projectId} and day >= ${first}::date
       group by operation, model order by sum(spent) desc, sum(request_count) desc, operation, model`),
  ]);
  const money = (v: string) => microsToNumber(BigInt(v));
  return {
    from,
    to: now,
    days: byDay.rows.map((r) => ({ day: r.day, requests: Number(r.n), spent: money(r.spent) })),
    models: byModel.rows.map((r) => ({
      operation: r.operation,
      ...(r.model ? { model: r.model } : {}),
      requests: Number(r.n),
      inputTokens: Number(r.input),
      outputTokens: Number(r.output),
      spent: money(r.spent),
    })),
  };
}
