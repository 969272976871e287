// A refund gives back what a request cost, so the request's day in its key's and its project's daily usage keeps what
// the request cost net of it: a key's `spentToday`/`spentTotal` and a project's usage `spent` are what the key's and
// the project's requests took from the wallet less what was refunded of them, on the UTC day each request started
// (docs/wallet.md, "Refunds"). The organization's spending keeps both apart (`spent` and the period's `refunded`).
import { sql } from 'drizzle-orm';
import type { DbExecutor } from '../db/client.js';
import { isUuid } from '../validation/uuid.js';

/**
 * Takes `amount` from the daily rows that counted the refunded request (its key's and its project's), in the refund's
 * transaction, after the wallet lock: the ledger writer, which adds to those rows, takes the wallet lock first too. A
 * row is never taken below zero (it holds at least the request's Consume amount, and a refund is at most that).
 */
export async function takeRefundFromUsage(tx: DbExecutor, requestLogId: string | null, amount: bigint): Promise<void> {
  if (!requestLogId || !isUuid(requestLogId) || amount === 0n) return;
  await tx.execute(sql`
    with request as (
      select api_key_id, project_id, operation, coalesce(model, '') as model,
             (created_at at time zone 'UTC')::date as day
        from request_logs where id = ${requestLogId}::uuid
    ), by_key as (
      update api_key_daily_gateway_usage u set spent = greatest(u.spent - ${amount}, 0)
        from request r where u.key_id = r.api_key_id and u.day = r.day
    )
    update project_daily_usage p set spent = greatest(p.spent - ${amount}, 0)
      from request r
     where p.project_id = r.project_id and p.day = r.day and p.operation = r.operation and p.model = r.model`);
}
