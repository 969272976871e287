// What an organization spent today and this month (UTC): what its gateway requests of the period took from the
// wallet (their Consume records), and the Refund records that gave money back. The requests are read from the per-day
// roll-up the ledger writer keeps as it inserts the request logs (`organization_daily_spending`: at most 31 rows for a
// month, whatever the month's traffic); the refunds from their own records (few: a platform Admin's act).
import { sql } from 'drizzle-orm';
import type { Database } from '../db/client.js';
import { microsToNumber } from './money.js';

export type PeriodSpend = { from: Date; spent: number; refunded: number; requests: number };
export type Spending = { today: PeriodSpend; month: PeriodSpend };

const startOfUtcDay = (now: Date) => new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate()));
const startOfUtcMonth = (now: Date) => new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), 1));

/**
 * A request counts in the period it started in (its log's `created_at`), for what its Consume record took (less than
 * its cost when the wallet could not cover it; nothing for a failed one). Written requests only: the ledger worker
 * writes the logs and records a moment after the gateway charged the wallet's mirror.
 */
export async function walletSpending(db: Database, organizationId: string, now = new Date()): Promise<Spending> {
  const dayStart = startOfUtcDay(now).toISOString();
  const monthStart = startOfUtcMonth(now).toISOString();
  const day = dayStart.slice(0, 10);
  const month = monthStart.slice(0, 10);
  const [requests, refunds] = await Promise.all([
    db.execute<{ month_cost: string; month_n: string; day_cost: string; day_n: string }>(sql`
      select coalesce(sum(spent), 0)::text as month_cost, coalesce(sum(request_count), 0)::text as month_n,
             coalesce(sum(spent) filter (where day = ${day}::date), 0)::text as day_cost,
             coalesce(sum(request_count) filter (where day = ${day}::date), 0)::text as day_n
      from organization_daily_spending
      where organization_id = ${organizationId} and day >= ${month}::date`),
    // Refunds are few (a platform Admin's act); the (organization_id, type, seq) index reaches only them.
    db.execute<{ month_refunded: string; day_refunded: string }>(sql`
      select coalesce(sum(amount), 0)::text as month_refunded,
             coalesce(sum(amount) filter (where created_at >= ${dayStart}), 0)::text as day_refunded
      from wallet_records
      where organization_id = ${organizationId} and type = 'Refund' and created_at >= ${monthStart}`),
  ]);
  const r = requests.rows[0];
  const f = refunds.rows[0];
  const money = (v: string | undefined) => microsToNumber(BigInt(v ?? '0'));
  return {
    today: {
      from: new Date(dayStart),
      spent: money(r?.day_cost),
      refunded: money(f?.day_refunded),
      requests: Number(r?.day_n ?? 0),
    },
    month: {
      from: new Date(monthStart),
      spent: money(r?.month_cost),
      refunded: money(f?.month_refunded),
      requests: Number(r?.month_n ?? 0),
    },
  };
}
