// One-step consumption for fixed-price requests (web search and fetch): a conditional debit and its Consume record
// in one transaction, idempotent by the request's log id.
import { sql } from 'drizzle-orm';
import type { Config } from '../config/index.js';
import type { AppContext } from '../context.js';
import { alertThresholds, enqueueAlerts, raiseCrossingAlerts } from './balance-alerts.js';
import { insertRecord, recordByIdempotencyKey, type WalletRecord } from './ledger.js';
import { unitsToMicros } from './money.js';
import { isUniqueViolation } from './postgres-errors.js';
import { debitRefusal } from './wallets.js';

/** SPEC section 3: each web search or fetch request costs 0.001 × WEB_BILLING_MULTIPLIER. */
export const webRequestPriceMicros = (config: Pick<Config, 'WEB_BILLING_MULTIPLIER'>) =>
  unitsToMicros(0.001 * config.WEB_BILLING_MULTIPLIER);

type Row = Record<string, unknown>;

/**
 * Debits `amountMicros` with ONE conditional UPDATE (refused with 402 Wallet.InsufficientBalance when the
 * available balance is at or below zero or below the amount) and writes its Consume record in the same
 * transaction. A repeated call with the same `requestLogId` returns the first record and charges nothing.
 */
export async function consume(
  ctx: Pick<AppContext, 'db' | 'queues' | 'logger'>,
  organizationId: string,
  amountMicros: bigint,
  options: { requestLogId: string; description?: string },
): Promise<{ record: WalletRecord; replayed: boolean }> {
  if (amountMicros <= 0n) throw new RangeError('a consumption must be positive');
  const idempotencyKey = `consume:${options.requestLogId}`;
  let outcome: { record: WalletRecord; alertIds: string[]; replayed: boolean };
  try {
    outcome = await ctx.db.transaction(async (tx) => {
      const thresholds = await alertThresholds(tx, organizationId);
      const { rows } = await tx.execute<Row>(sql`
        update organization_wallets
           set balance = balance - ${amountMicros}, record_seq = record_seq + 1, updated_at = now()
         where organization_id = ${organizationId} and is_active and balance > 0 and balance >= ${amountMicros}
        returning balance, frozen_amount, record_seq, currency`);
      const [row] = rows;
      if (!row) {
        // A repeat of a charged request finds the balance already lowered by its first call: answer that record.
        const earlier = await recordByIdempotencyKey(tx, idempotencyKey);
        if (earlier) return { record: earlier, alertIds: [], replayed: true };
        throw await debitRefusal(tx, organizationId);
      }
      const currentBalance = BigInt(row.balance as string) + BigInt(row.frozen_amount as string);
      const previousBalance = currentBalance + amountMicros;
      const record = await insertRecord(tx, {
        organizationId,
        seq: Number(row.record_seq),
        previousBalance,
        currentBalance,
        type: 'Consume',
        amount: amountMicros,
        idempotencyKey,
        requestLogId: options.requestLogId,
        description: options.description ?? null,
      });
      const alertIds = await raiseCrossingAlerts(tx, thresholds, {
        organizationId,
        currency: String(row.currency),
        recordId: record.id,
        previous: previousBalance,
        current: currentBalance,
      });
      return { record, alertIds, replayed: false };
    });
  } catch (err) {
    if (!isUniqueViolation(err, 'wallet_records_idempotency_key')) throw err;
    const existing = await recordByIdempotencyKey(ctx.db, idempotencyKey);
    if (!existing) throw err;
    return { record: existing, replayed: true };
  }
  if (outcome.alertIds.length > 0) await enqueueAlerts(ctx, outcome.alertIds);
  return { record: outcome.record, replayed: outcome.replayed };
}
