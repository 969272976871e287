// Reconciliation (`npm run wallet:check`): proves from one consistent snapshot that every wallet's balances are
// explained by its records and reservations, and that each record chains from the previous one.
import { sql } from 'drizzle-orm';
import type { Database } from '../db/client.js';
import { formatMicros } from './money.js';

export type ReconciliationProblem = { organizationId: string; recordId?: string; problem: string };
export type ReconciliationReport = { wallets: number; records: number; problems: ReconciliationProblem[] };

type Row = Record<string, unknown>;
const big = (v: unknown) => BigInt(String(v ?? 0));
const money = (v: unknown) => formatMicros(big(v));

export async function reconcileWallets(db: Database): Promise<ReconciliationReport> {
  return db.transaction(
    async (tx) => {
      const problems: ReconciliationProblem[] = [];
      const { rows: wallets } = await tx.execute<Row>(sql`
        select w.organization_id, w.balance, w.frozen_amount, w.record_seq,
               coalesce(r.total, 0) as records_total, coalesce(r.n, 0) as records, coalesce(r.max_seq, 0) as max_seq,
               coalesce(h.held, 0) as held
          from organization_wallets w
          left join (
            select organization_id, count(*) as n, max(seq) as max_seq,
                   sum(case when type = 'Consume' then -amount else amount end) as total
              from wallet_records group by organization_id
          ) r on r.organization_id = w.organization_id
          left join (
            select organization_id, sum(amount) as held from wallet_reservations where status = 'held' group by organization_id
          ) h on h.organization_id = w.organization_id
         order by w.organization_id`);
      let records = 0;
      for (const w of wallets) {
        const organizationId = String(w.organization_id);
        const settled = big(w.balance) + big(w.frozen_amount);
        records += Number(w.records);
        if (settled !== big(w.records_total)) {
          problems.push({
            organizationId,
            problem: `balance + frozen = ${formatMicros(settled)} but the records sum to ${money(w.records_total)}`,
          });
        }
        if (big(w.frozen_amount) !== big(w.held)) {
          problems.push({
            organizationId,
            problem: `frozen = ${money(w.frozen_amount)} but held reservations total ${money(w.held)}`,
          });
        }
        if (Number(w.record_seq) !== Number(w.max_seq) || Number(w.records) !== Number(w.max_seq)) {
          problems.push({
            organizationId,
            problem: `wallet sequence ${w.record_seq}, ${w.records} records, last record sequence ${w.max_seq}`,
          });
        }
      }
      const { rows: breaks } = await tx.execute<Row>(sql`
        select * from (
          select organization_id, id, seq, type, amount, previous_balance, current_balance,
                 coalesce(lag(current_balance) over chain, 0) as expected_previous,
                 coalesce(lag(seq) over chain, 0) + 1 as expected_seq
            from wallet_records
          window chain as (partition by organization_id order by seq)
        ) checked
         where previous_balance <> expected_previous
            or current_balance <> previous_balance + case when type = 'Consume' then -amount else amount end
            or seq <> expected_seq
         order by organization_id, seq`);
      for (const r of breaks) {
        const signed = r.type === 'Consume' ? -big(r.amount) : big(r.amount);
        const reasons: string[] = [];
        if (big(r.previous_balance) !== big(r.expected_previous)) {
          reasons.push(
            `previousBalance ${money(r.previous_balance)} ≠ previous record's currentBalance ${money(r.expected_previous)}`,
          );
        }
        if (big(r.current_balance) !== big(r.previous_balance) + signed) {
          reasons.push(
            `currentBalance ${money(r.current_balance)} ≠ ${money(r.previous_balance)} ${r.type === 'Consume' ? '−' : '+'} ${money(r.amount)}`,
          );
        }
        if (Number(r.seq) !== Number(r.expected_seq))
          reasons.push(`sequence ${r.seq} where ${r.expected_seq} was next`);
        problems.push({
          organizationId: String(r.organization_id),
          recordId: String(r.id),
          problem: reasons.join('; '),
        });
      }
      return { wallets: wallets.length, records, problems };
    },
    { isolationLevel: 'repeatable read', accessMode: 'read only' },
  );
}
