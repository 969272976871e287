// Reconciliation (`npm run wallet:check`): proves from one consistent snapshot that every wallet's balance is
// explained by its records and that each record chains from the previous one; then that every Redis mirror is
// explained by PostgreSQL, its ledger entries still on their way and its holds.
import { sql } from 'drizzle-orm';
import type { AppContext } from '../context.js';
import type { Database } from '../db/client.js';
import { auditStep, type MirrorAudit } from './mirror-steps.js';
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
        select w.organization_id, w.balance, w.record_seq,
               coalesce(r.total, 0) as records_total, coalesce(r.n, 0) as records, coalesce(r.max_seq, 0) as max_seq
          from organization_wallets w
          left join (
            select organization_id, count(*) as n, max(seq) as max_seq,
                   sum(case when type = 'Consume' then -amount else amount end) as total
              from wallet_records group by organization_id
          ) r on r.organization_id = w.organization_id
         order by w.organization_id`);
      let records = 0;
      for (const w of wallets) {
        const organizationId = String(w.organization_id);
        records += Number(w.records);
        if (big(w.balance) !== big(w.records_total)) {
          problems.push({
            organizationId,
            problem: `balance = ${money(w.balance)} but the records sum to ${money(w.records_total)}`,
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

export type MirrorReport = {
  mirrors: number;
  entriesOnTheirWay: number;
  holds: number;
  problems: ReconciliationProblem[];
};

/**
 * Every wallet's mirror against PostgreSQL. Each mirror is read in one Redis step first, then PostgreSQL: the
 * mirror's base must be the balance after its record `seq` (an immutable record, so the order of the reads cannot
 * make a difference appear), its pending amount the sum of the charges in its ledger stream, and its frozen amount
 * the sum of its holds. An organization without a mirror must have neither stream nor holds.
 */
export async function reconcileMirrors(ctx: Pick<AppContext, 'db' | 'redis' | 'config'>): Promise<MirrorReport> {
  const report: MirrorReport = { mirrors: 0, entriesOnTheirWay: 0, holds: 0, problems: [] };
  const { rows: wallets } = await ctx.db.execute<Row>(sql`select organization_id from organization_wallets`);
  for (let i = 0; i < wallets.length; i += 200) {
    const batch = wallets.slice(i, i + 200).map((w) => String(w.organization_id));
    const audits = await Promise.all(batch.map((id) => auditStep(ctx.redis, ctx.config.REDIS_PREFIX, id)));
    const { rows } = await ctx.db.execute<Row>(sql`
      select w.organization_id, w.record_seq, r.seq, r.current_balance
        from organization_wallets w
        left join wallet_records r on r.organization_id = w.organization_id and r.seq in (${sql.join(
          audits.map((a) => sql`${a.seq}`),
          sql`, `,
        )})
       where w.organization_id in (${sql.join(
         batch.map((id) => sql`${id}`),
         sql`, `,
       )})`);
    batch.forEach((organizationId, k) => {
      const audit = audits[k] as MirrorAudit;
      const lastSeq = Number(rows.find((r) => String(r.organization_id) === organizationId)?.record_seq ?? 0);
      const balanceAt = (seq: number) => {
        if (seq === 0) return 0n;
        const row = rows.find((r) => String(r.organization_id) === organizationId && Number(r.seq) === seq);
        return row ? big(row.current_balance) : undefined;
      };
      report.entriesOnTheirWay += audit.streamLength;
      report.holds += audit.holds;
      for (const problem of mirrorProblems(audit, balanceAt(audit.seq), lastSeq))
        report.problems.push({ organizationId, problem });
      if (audit.present) report.mirrors += 1;
    });
  }
  return report;
}

function mirrorProblems(audit: MirrorAudit, balanceAtSeq: bigint | undefined, lastSeq: number): string[] {
  if (!audit.present) {
    return audit.streamLength > 0 || audit.holds > 0
      ? [`no mirror, yet ${audit.streamLength} ledger entries and ${audit.holds} holds in Redis`]
      : [];
  }
  const problems: string[] = [];
  if (balanceAtSeq === undefined && audit.seq > lastSeq) {
    problems.push(
      `mirror at record ${audit.seq}, ahead of PostgreSQL's last record ${lastSeq}: PostgreSQL was restored or failed over to an older state; a worker running maintenance rebuilds the mirror from PostgreSQL within a minute (docs/operations.md, "Restoring PostgreSQL")`,
    );
  } else if (balanceAtSeq === undefined) problems.push(`mirror at record ${audit.seq}, which PostgreSQL does not have`);
  else if (audit.base !== balanceAtSeq) {
    problems.push(
      `mirror base ${formatMicros(audit.base)} but PostgreSQL's balance after record ${audit.seq} is ${formatMicros(balanceAtSeq)}`,
    );
  }
  if (audit.pending !== audit.streamedCharges) {
    problems.push(
      `mirror pending ${formatMicros(audit.pending)} but the ${audit.streamLength} ledger entries on their way charged ${formatMicros(audit.streamedCharges)}`,
    );
  }
  if (audit.frozen !== audit.heldAmount) {
    problems.push(
      `mirror frozen ${formatMicros(audit.frozen)} but its ${audit.holds} holds total ${formatMicros(audit.heldAmount)}`,
    );
  }
  return problems;
}

/** Settled requests the ledger writer set aside (ledger_quarantine), per organization: for the operator to look at. */
export async function setAsideEntries(
  db: Database,
): Promise<{ organizationId: string; entries: number; charged: string }[]> {
  const { rows } = await db.execute<Row>(sql`
    select organization_id, count(*)::int as entries, sum(charged) as charged
      from ledger_quarantine group by organization_id order by organization_id`);
  return rows.map((r) => ({
    organizationId: String(r.organization_id),
    entries: Number(r.entries),
    charged: money(r.charged),
  }));
}
