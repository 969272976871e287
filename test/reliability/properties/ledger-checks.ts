// The wallet invariants every property ends on, read from PostgreSQL and the Redis mirror after the operations have
// finished and the ledger writer has moved the settled requests to PostgreSQL.
import { eq } from 'drizzle-orm';
import type { AppContext } from '../../../shared/context.js';
import { walletRecords } from '../../../shared/db/schema/index.js';
import { signedAmount, type WalletRecord } from '../../../shared/wallet/ledger.js';
import { writeLedger } from '../../../shared/wallet/ledger-writer.js';
import { reconcileMirrors, reconcileWallets } from '../../../shared/wallet/reconciliation.js';
import { liveWallet } from '../../../shared/wallet/wallet-mirror.js';
import { getWallet } from '../../../shared/wallet/wallets.js';
import type { PropertyTally } from './figures.js';

export type LedgerExpectation = {
  /** The available balance the callers' answers add up to (each effect counted once). */
  balance: bigint;
  /** How many records the callers' answers say were written, when known. */
  records?: number;
};

/**
 * With nothing in flight, once the ledger is written: PostgreSQL's balance ≥ 0, = the callers' expectation = the
 * signed sum of the records; the mirror shows the same available balance and nothing frozen (no leaked hold); no
 * settled balance in the history below zero, one Consume per request, at most one Refund per Consume and never more
 * than it, and the reconciliation (`npm run wallet:check`) reports nothing for the wallet.
 */
export async function checkQuietLedger(
  tally: PropertyTally,
  ctx: AppContext,
  organizationId: string,
  expected: LedgerExpectation,
): Promise<WalletRecord[]> {
  const live = await liveWallet(ctx, organizationId);
  tally.check(live.frozenAmount === 0n, `frozen ${live.frozenAmount} with nothing in flight (a leaked hold)`);
  tally.check(
    live.balance === expected.balance,
    `the mirror shows ${live.balance} but the operations' answers add up to ${expected.balance}`,
  );
  await writeLedger(ctx, organizationId);
  const [wallet, records, report, mirrors] = await Promise.all([
    getWallet(ctx.db, organizationId),
    ctx.db.select().from(walletRecords).where(eq(walletRecords.organizationId, organizationId)),
    reconcileWallets(ctx.db),
    reconcileMirrors(ctx),
  ]);
  const ledgerSum = records.reduce((sum, r) => sum + signedAmount(r.type, r.amount), 0n);
  tally.check(wallet.balance >= 0n, `balance ${wallet.balance} is negative`);
  tally.check(
    wallet.balance === expected.balance,
    `balance ${wallet.balance} but the operations' answers add up to ${expected.balance}`,
  );
  tally.check(wallet.balance === ledgerSum, `balance ${wallet.balance} but the records sum to ${ledgerSum}`);
  if (expected.records !== undefined) {
    tally.check(
      records.length === expected.records,
      `${records.length} records but the answers say ${expected.records} were written`,
    );
  }
  const negative = records.filter((r) => r.currentBalance < 0n || r.previousBalance < 0n);
  tally.check(negative.length === 0, `${negative.length} records show a settled balance below zero`);

  const consumes = new Map(records.filter((r) => r.type === 'Consume').map((r) => [r.id, r]));
  const perRequest = new Map<string, number>();
  for (const r of consumes.values()) {
    const key = r.requestLogId ?? `(none:${r.id})`;
    perRequest.set(key, (perRequest.get(key) ?? 0) + 1);
  }
  const charged = [...perRequest].filter(([, n]) => n > 1);
  tally.check(charged.length === 0, `requests charged more than once: ${charged.map(([id]) => id).join(', ')}`);
  const refunds = records.filter((r) => r.type === 'Refund');
  const refundsPerConsume = new Map<string, number>();
  for (const r of refunds) {
    const consumed = r.refundOf ? consumes.get(r.refundOf) : undefined;
    tally.check(consumed !== undefined, `refund ${r.id} reverses no Consume record of this wallet`);
    if (consumed) tally.check(r.amount <= consumed.amount, `refund ${r.id} of ${r.amount} exceeds ${consumed.amount}`);
    if (r.refundOf) refundsPerConsume.set(r.refundOf, (refundsPerConsume.get(r.refundOf) ?? 0) + 1);
  }
  const twice = [...refundsPerConsume].filter(([, n]) => n > 1);
  tally.check(twice.length === 0, `consumptions refunded more than once: ${twice.map(([id]) => id).join(', ')}`);

  const problems = [...report.problems, ...mirrors.problems].filter((p) => p.organizationId === organizationId);
  tally.check(problems.length === 0, `reconciliation: ${problems.map((p) => p.problem).join('; ')}`);
  return records;
}
