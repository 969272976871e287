// What an organization spent today and this month (UTC): what its gateway requests of the period took from the
// wallet (their Consume records), and the Refund records that gave money back. Summed in PostgreSQL, so the console
// never adds up a month of records: the request logs' (organization_id, created_at) index bounds the read to the
// period's own requests, each reaching its Consume record through the records' unique idempotency key.
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
  const day = startOfUtcDay(now).toISOString();
  const month = startOfUtcMonth(now).toISOString();
  // Refunds are few (a platform Admin's act); the (organization_id, type, seq) index reaches only them.
  const [requests, refunds] = await Promise.all([
    db.execute<{ month_cost: string; month_n: string; day_cost: string; day_n: string }>(sql`
      select coalesce(sum(c.amount), 0)::text as month_cost, count(*)::text as month_n,
             coalesce(sum(c.amount) filter (where l.created_at >= ${day}), 0)::text as day_cost,
             count(*) filter (where l.created_at >= ${day})::text as day_n
      from request_logs l
      left join wallet_records c on c.idempotency_key = 'consume:' || l.id::text
      where l.organization_id = ${organizationId} and l.created_at >= ${month}`),
    db.execute<{ month_refunded: string; day_refunded: string }>(sql`
      select coalesce(sum(amount), 0)::text as month_refunded,
             coalesce(sum(amount) filter (where created_at >= ${day}), 0)::text as day_refunded
      from wallet_records
      where organization_id = ${organizationId} and type = 'Refund' and created_at >= ${month}`),
  ]);
  const r = requests.rows[0];
  const f = refunds.rows[0];
  const money = (v: string | undefined) => microsToNumber(BigInt(v ?? '0'));
  return {
    today: {
      from: new Date(day),
      spent: money(r?.day_cost),
      refunded: money(f?.day_refunded),
      requests: Number(r?.day_n ?? 0),
    },
    month: {
      from: new Date(month),
      spent: money(r?.month_cost),
      refunded: money(f?.month_refunded),
      requests: Number(r?.month_n ?? 0),
    },
  };
}
