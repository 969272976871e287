// A wallet's settled balance over time, for a chart: the balance before the window, then the closing balance of
// every hour or day (UTC) in which a record was written. Records carry the settled balance after them, so each
// point is one record's `current_balance`: exact, and equal to the ledger by construction.
import { sql } from 'drizzle-orm';
import type { Database } from '../db/client.js';
import { microsToNumber } from './money.js';

export type BalanceInterval = 'hour' | 'day';

export type BalanceHistory = {
  interval: BalanceInterval;
  from: Date;
  to: Date;
  openingBalance: number;
  points: { at: Date; balance: number }[];
};

const intervalMs: Record<BalanceInterval, number> = { hour: 3_600_000, day: 86_400_000 };

export async function balanceHistory(
  db: Database,
  organizationId: string,
  options: { days: number; interval: BalanceInterval; now?: Date },
): Promise<BalanceHistory> {
  const to = options.now ?? new Date();
  const step = intervalMs[options.interval];
  const from = new Date(Math.floor((to.getTime() - options.days * 86_400_000) / step) * step);
  const [opening, buckets] = await Promise.all([
    db.execute<{ balance: string }>(sql`
      select current_balance::text as balance from wallet_records
      where organization_id = ${organizationId} and created_at < ${from.toISOString()}
      order by seq desc limit 1`),
    db.execute<{ at: Date | string; balance: string }>(sql`
      select distinct on (bucket) bucket as at, current_balance::text as balance
      from (
        select date_trunc(${options.interval}, created_at, 'UTC') as bucket, seq, current_balance
        from wallet_records
        where organization_id = ${organizationId} and created_at >= ${from.toISOString()}
      ) r
      order by bucket, seq desc`),
  ]);
  return {
    interval: options.interval,
    from,
    to,
    openingBalance: microsToNumber(BigInt(opening.rows[0]?.balance ?? '0')),
    points: buckets.rows.map((r) => ({ at: new Date(r.at), balance: microsToNumber(BigInt(r.balance)) })),
  };
}
